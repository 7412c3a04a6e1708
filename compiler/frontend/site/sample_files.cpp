// The job manifests a site's `workloads[].file` entries name, read from the
// folder of the file naming each one (the site's, or a base's) and confined
// to it: part of reading the site, so that every stage after the frontend
// sees the manifests without reading files itself.
#include <queueforge/frontend/site_parse.hpp>

#include <queueforge/base/source_root.hpp>

#include <filesystem>

namespace queueforge {

namespace {

namespace fs = std::filesystem;

// The folder a workload's `file` is relative to: the folder of the file that
// wrote it -- the site's, or a base's when the workload comes from a base the
// site extends (Mark::file).
std::string sample_dir(const site::Workload& w, const std::string& site_dir) {
    return w.file.mark.file ? fs::path(*w.file.mark.file).parent_path().string() : site_dir;
}

// `file` must stay inside the folder of the file naming it: relative, no
// `..`, and no symlink (of the file or a parent) leading out of it -- the
// confinement rule every command applies (source_root.hpp).
std::optional<fs::path> resolve_sample_file(const site::Site& s, const site::Workload& w, const std::string& site_dir_,
                                            Diagnostics& diags) {
    const std::string site_dir = sample_dir(w, site_dir_);
    auto refuse = [&](const std::string& why) {
        diags.error(s.file, w.file.mark, "workload \"" + w.name.value + "\": file " + why + "; not read", "site.path");
        return std::nullopt;
    };
    std::string why;
    auto real = resolve_inside(site_dir, w.file.value, &why);
    if (!real) return refuse(why);
    std::error_code ec;
    const fs::file_status st = fs::status(*real, ec);
    if (!fs::exists(st)) {
        // A finding in the site (exit 1 everywhere), not an I/O failure of
        // a command-line path.
        diags.error(s.file, w.file.mark,
                    "workload \"" + w.name.value + "\": cannot read \"" + w.file.value + "\": " +
                        (ec ? ec.message() : std::string("no such file")),
                    "site.workload-file");
        return std::nullopt;
    }
    if (!fs::is_regular_file(st)) return refuse("\"" + w.file.value + "\" is not a regular file");
    return fs::path(*real);
}

}  // namespace

// The manifest(s) of a `file` entry, positions in `shown` (the path as
// written beside the site's folder); nullopt when the file cannot be read,
// no resources (but the text, for carets) when it does not parse.
std::optional<LoadedResources> read_sample_file(const site::Site& s, const site::Workload& w, const std::string& site_dir,
                                                Diagnostics& diags) {
    auto real = resolve_sample_file(s, w, site_dir, diags);
    if (!real) return std::nullopt;
    std::string text;
    Diagnostics read;
    if (!read_file_limited(real->string(), text, read)) {
        for (const auto& d : read.all())
            diags.error(s.file, w.file.mark, "workload \"" + w.name.value + "\": " + d.message, "site.workload-file");
        return std::nullopt;
    }
    const std::string shown = (fs::path(sample_dir(w, site_dir)) / w.file.value).lexically_normal().string();
    LoadedResources loaded;
    const std::size_t errors_before = diags.count(Severity::Error);
    load_resources_from_text(shown, text, loaded, diags);
    if (diags.count(Severity::Error) > errors_before) loaded.resources.clear();
    return loaded;
}

LoadedResources read_sample_files(const site::Site& s, const std::string& site_dir, Diagnostics& diags) {
    LoadedResources out;
    for (const auto& w : s.workloads) {
        if (w.file.value.empty()) continue;
        auto file = read_sample_file(s, w, site_dir, diags);
        if (!file) continue;
        for (auto& r : file->resources) out.resources.push_back(std::move(r));
        for (auto& src : file->sources) out.sources.push_back(std::move(src));
    }
    return out;
}

}  // namespace queueforge
