// The imported site as text, and writing it so that a file is either the
// whole site or left as it was.
#include <queueforge/integrations/import.hpp>
#include <queueforge/base/safe_write.hpp>
#include <queueforge/base/yaml_emit.hpp>


namespace queueforge {

std::string render_imported_site(const ImportResult& r) {
    // The comment is constant text: nothing from the input is pasted into it.
    std::string out =
        "# Written by queueforge import. spec.patches and spec.passthrough hold what the site format\n"
        "# cannot express; the warnings queueforge printed name each object and field.\n";
    out += emit_yaml(r.site);
    return out;
}

bool write_file_atomically(const std::string& path, const std::string& text, Diagnostics& diags) {
    // A fresh temporary file (never through a symlink) and one rename.
    std::string error;
    if (replace_file_atomically(path, text, error)) return true;
    diags.error(path, {}, error, "io");
    return false;
}

}  // namespace queueforge
