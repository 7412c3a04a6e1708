#include "review/compare.hpp"

#include <filesystem>

namespace queueforge::review {

namespace fs = std::filesystem;

Review compare(const Side& base, const std::string& base_root, const Side& head, const std::string& head_root,
               const std::vector<std::string>& site_dirs, const Options& opts, Diagnostics& diags) {
    Review r;
    r.base = base.name;
    r.head = head.name;
    detail::diff_objects(base.objects, head.objects, r);
    LoadedResources running;
    if (!opts.running.empty()) running = load_resources(opts.running, diags);
    detail::find_blocked_deletions(running.resources, r);
    for (const auto& b : r.blocked) {
        std::string who;
        for (const auto& u : b.used_by) who += (who.empty() ? "" : ", ") + u;
        diags.error("", {}, b.kind + " " + b.name + " is removed but running workloads still use it (" + who +
                                "); Kueue's finalizer keeps it until they finish",
                    "review.deletion-blocked");
    }
    if (opts.simulate) {
        auto paths = [&](const std::string& root) {
            std::vector<std::string> p;
            for (const auto& d : site_dirs) p.push_back((fs::path(root) / d).string());
            for (const auto& f : opts.running) p.push_back(f);
            return p;
        };
        detail::diff_admissions(paths(base_root), paths(head_root), opts, r, diags);
    }
    return r;
}

}  // namespace queueforge::review
