// import --into: where an imported cluster goes in a repository that already
// holds sites (issue 13): a folder of its own, named after the site, that
// clashes with no site already there.
#include <queueforge/frontend/discover.hpp>
#include <queueforge/integrations/import.hpp>
#include <queueforge/base/yaml_load.hpp>

#include <filesystem>

namespace queueforge {

namespace fs = std::filesystem;

std::optional<std::string> import_destination(const std::string& into, const std::string& name, Diagnostics& diags) {
    const fs::path folder = fs::path(into) / name;
    const std::string file = (folder / "queueforge-site.yaml").lexically_normal().generic_string();
    bool clash = false;
    Diagnostics found;
    for (const auto& c : discover::find_clusters({into}, {}, found)) {
        if (c.site_file.empty()) continue;
        std::string text;
        Diagnostics ignored;
        if (!read_file_limited(c.site_file, text, ignored)) continue;
        for (const auto& d : load_yaml(c.site_file, text, ignored)) {
            const Node* meta = d.root.is_map() ? d.root.find("metadata") : nullptr;
            const Node* n = meta && meta->is_map() ? meta->find("name") : nullptr;
            if (!n || !n->is_scalar() || n->text() != name) continue;
            diags.error(c.site_file, n->mark(),
                        "import --into: a site named \"" + name + "\" is already in " + into + " (" + c.site_file +
                            "); name the imported cluster with --name",
                        "import.name-taken");
            clash = true;
        }
    }
    std::error_code ec;
    if (!clash && fs::exists(folder, ec)) {
        diags.error(folder.lexically_normal().generic_string(), {},
                    "import --into: the folder " + folder.lexically_normal().generic_string() +
                        " already exists; name the imported cluster with --name",
                    "import.name-taken");
        clash = true;
    }
    if (clash) return std::nullopt;
    return file;
}

}  // namespace queueforge
