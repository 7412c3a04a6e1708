// One side of a review: the sites as they are in a revision, the index or
// the work tree, built through the ordinary pipeline.
#include <queueforge/compile.hpp>
#include <queueforge/integrations/diff.hpp>

#include <filesystem>

namespace queueforge::diff {

namespace fs = std::filesystem;

std::optional<Side> build_side(const std::string& side_name, const std::string& label, const std::string& root,
                               const std::vector<std::string>& site_dirs, const std::string& target, Diagnostics& diags) {
    Side side;
    side.name = side_name;
    Diagnostics local;
    bool ok = true;
    for (const auto& dir : site_dirs) {
        fs::path site = fs::path(root) / dir;
        std::error_code ec;
        if (fs::is_directory(site, ec)) site /= "queueforge-site.yaml";
        if (!fs::is_regular_file(site, ec)) {
            local.error(site.string(), {}, "no site file in " + side_name, "review.missing-site");
            ok = false;
            continue;
        }
        Compilation c = compile({.path = site.string(), .target = target});
        local.append(c.diagnostics);
        for (const auto& text : c.sources.texts()) side.sources.push_back(text);
        if (!c.lowered) {
            ok = false;
            continue;
        }
        for (auto& o : c.lowered->objects) side.objects.push_back(std::move(o));
    }
    // Paths as the user knows them: "<label><repository path>".
    std::string prefix = root.empty() ? "" : (fs::path(root) / "").string();
    auto relabel = [&](auto& file) {  // a finding's file or a source's path
        const std::string_view f = file;
        if (!prefix.empty() && f.starts_with(prefix)) file = label + std::string(f.substr(prefix.size()));
    };
    for (auto d : local.all()) {
        relabel(d.file);
        if (d.severity == Severity::Error && d.message.find(side_name) == std::string::npos)
            d.message = d.message + " (in " + side_name + ")";
        diags.add(std::move(d));
    }
    for (auto& src : side.sources) relabel(src.path);
    if (!ok || local.has_errors()) return std::nullopt;
    return side;
}

}  // namespace queueforge::diff
