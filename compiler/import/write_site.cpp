// The imported site as text, and writing it so that a file is either the
// whole site or left as it was.
#include <queueforge/import.hpp>
#include <queueforge/yaml_emit.hpp>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <random>

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
    namespace fs = std::filesystem;
    const fs::path target(path);
    const fs::path dir = target.has_parent_path() ? target.parent_path() : fs::path(".");
    std::random_device rd;
    std::string suffix;
    for (int i = 0; i < 8; ++i) suffix += "abcdefghijklmnopqrstuvwxyz0123456789"[rd() % 36];
    const fs::path tmp = dir / ("." + target.filename().string() + ".tmp-" + suffix);
    {
        std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
        if (!out) {
            diags.error(path, {}, "cannot write " + tmp.string() + ": " + std::strerror(errno), "io");
            return false;
        }
        out.write(text.data(), static_cast<std::streamsize>(text.size()));
        out.close();
        if (out.fail()) {
            std::error_code ec;
            fs::remove(tmp, ec);
            diags.error(path, {}, "cannot write " + tmp.string() + ": " + std::strerror(errno), "io");
            return false;
        }
    }
    std::error_code ec;
    fs::rename(tmp, target, ec);
    if (ec) {
        std::error_code ignored;
        fs::remove(tmp, ignored);
        diags.error(path, {}, "cannot write " + path + ": " + ec.message(), "io");
        return false;
    }
    return true;
}

}  // namespace queueforge
