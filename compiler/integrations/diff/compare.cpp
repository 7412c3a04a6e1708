#include "integrations/diff/compare.hpp"

#include <filesystem>

namespace queueforge::diff {

Review compare(const Side& base, const std::vector<std::string>& base_paths, const Side& head,
               const std::vector<std::string>& head_paths, const Options& opts, Diagnostics& diags) {
    Review r;
    r.base = base.name;
    r.head = head.name;
    detail::diff_objects(base.objects, head.objects, r);
    LoadedResources running;
    if (!opts.running.empty()) running = load_resources(opts.running, diags);
    detail::find_blocked_deletions(running.resources, r);
    detail::find_quota_below_usage(running.resources, r);
    for (const auto& b : r.blocked) {
        std::string who;
        for (const auto& u : b.used_by) who += (who.empty() ? "" : ", ") + u;
        diags.error("", {}, b.kind + " " + b.name + " is removed but running workloads still use it (" + who +
                                "); Kueue's finalizer keeps it until they finish",
                    "review.deletion-blocked");
    }
    if (opts.simulate && !base_paths.empty() && !head_paths.empty()) {
        auto with_running = [&](std::vector<std::string> p) {
            for (const auto& f : opts.running) p.push_back(f);
            return p;
        };
        detail::diff_admissions(with_running(base_paths), with_running(head_paths), opts, r, diags);
    }
    return r;
}

}  // namespace queueforge::diff
