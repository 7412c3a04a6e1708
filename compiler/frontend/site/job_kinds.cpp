#include <queueforge/frontend/job_kinds.hpp>

#include <queueforge/base/source_root.hpp>
#include <queueforge/base/yaml_load.hpp>

#include <filesystem>

namespace queueforge {

std::vector<JobKind> site_job_kinds(const site::Site& s) {
    namespace fs = std::filesystem;
    std::vector<JobKind> out;
    if (s.file.empty() || s.file == "-" || s.file == "<stdin>") return out;
    for (const auto& w : s.workloads) {
        if (w.file.value.empty()) continue;
        const std::string from = w.file.mark.file ? *w.file.mark.file : s.file;
        std::string why;
        // Inside the naming file's folder (no "..", no symlink out), like the
        // readers that run the samples.
        auto path = resolve_inside(fs::path(from).parent_path().string(), w.file.value, &why);
        if (!path || !confine(source_root_of(from), *path, &why)) continue;
        Diagnostics quiet;
        std::string text;
        if (!read_file_limited(*path, text, quiet)) continue;
        for (const auto& doc : load_yaml(*path, text, quiet)) {
            const Node* api = doc.root.is_map() ? doc.root.find("apiVersion") : nullptr;
            const Node* kind = doc.root.is_map() ? doc.root.find("kind") : nullptr;
            if (!api || !kind || !api->is_scalar() || !kind->is_scalar()) continue;
            out.push_back({api->text(), kind->text(), w.name.value, w.file.mark});
        }
    }
    return out;
}

}  // namespace queueforge
