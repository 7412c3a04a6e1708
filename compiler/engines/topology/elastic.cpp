// Elastic workload slices with TAS (ElasticJobsViaWorkloadSlicesWithTAS,
// alpha; Kueue ff69552e tas_elastic_workloads.go) and the assignment helpers
// they need.
#include "engines/topology/placer.hpp"

namespace queueforge::topology::detail {

bool stale(const Snapshot& s, const Assignment& a) {
    for (const auto& d : a.domains)
        if (!s.leaf_by_id.count(domain_id(d.values))) return true;
    return false;
}

// mergeTopologyAssignments: both lists in the order of their leaves' domain
// IDs (full values joined by ','), equal neighbours summed.
Assignment merge(const Snapshot& s, const Assignment& a, const Assignment& b) {
    std::vector<std::pair<std::string, DomainAssignment>> all;
    for (const auto* x : {&a, &b})
        for (const auto& d : x->domains) {
            const Domain& leaf = s.domains[s.leaves[s.leaf_by_id.at(domain_id(d.values))].domain];
            all.emplace_back(domain_id(leaf.values), d);
        }
    std::stable_sort(all.begin(), all.end(), [](const auto& x, const auto& y) { return x.first < y.first; });
    Assignment out;
    out.levels = a.levels;
    for (auto& [_, d] : all) {
        if (!out.domains.empty() && domain_id(out.domains.back().values) == domain_id(d.values))
            out.domains.back().count += d.count;
        else
            out.domains.push_back(d);
    }
    return out;
}

// handleElasticWorkload (tas_elastic_workloads.go): a replacement workload
// slice keeps its previous placement; a scale-up places only the new pods,
// a scale-down drops pods from the end. nullopt: not applicable (no or stale
// previous assignment), the normal placement runs; otherwise whether it
// succeeded (results appended to `out`).
std::optional<bool> elastic(const Snapshot& s, Placer& placer, const PodSetRequest& workers,
                            const PodSetRequest* leader, Outcome& out) {
    if (!workers.previous_assignment || stale(s, *workers.previous_assignment)) return std::nullopt;
    if (leader && leader->previous_assignment && stale(s, *leader->previous_assignment)) return std::nullopt;
    const Assignment& prev = *workers.previous_assignment;
    i32 previous = 0;
    for (const auto& d : prev.domains) previous += d.count;
    auto finalize = [&](const Assignment& wa) {
        out.podsets.push_back({workers.name, wa, ""});
        add_assumed(s, placer, wa, workers.requests);
        if (leader) {
            Assignment la = leader->previous_assignment ? *leader->previous_assignment : Assignment{};
            out.podsets.push_back({leader->name, la, ""});
            add_assumed(s, placer, la, leader->requests);
        }
        return true;
    };
    if (workers.count < previous) {
        // TruncateAssignment: keep the first domains up to the new count.
        Assignment t;
        t.levels = prev.levels;
        i32 remaining = workers.count;
        for (const auto& d : prev.domains) {
            if (remaining <= 0) break;
            t.domains.push_back({d.values, std::min(d.count, remaining)});
            remaining -= t.domains.back().count;
        }
        return finalize(t);
    }
    if (workers.count == previous) return finalize(prev);
    PodSetRequest delta = workers;
    delta.count = workers.count - previous;
    delta.previous_assignment.reset();
    add_assumed(s, placer, prev, workers.requests);
    const PodSetRequest* placement_leader = leader;
    if (leader && leader->previous_assignment) {
        add_assumed(s, placer, *leader->previous_assignment, leader->requests);
        placement_leader = nullptr;
    }
    std::optional<Assignment> wa, la;
    std::string reason = placer.place(delta, placement_leader, wa, la);
    if (!reason.empty()) {
        out.podsets.push_back({workers.name, std::nullopt, reason});
        return false;
    }
    Assignment merged = merge(s, *wa, prev);
    out.podsets.push_back({workers.name, merged, ""});
    if (leader) {
        if (leader->previous_assignment) {
            out.podsets.push_back({leader->name, *leader->previous_assignment, ""});
        } else {
            out.podsets.push_back({leader->name, la, ""});
            add_assumed(s, placer, *la, leader->requests);
        }
    }
    add_assumed(s, placer, *wa, workers.requests);
    return true;
}

}  // namespace queueforge::topology::detail
