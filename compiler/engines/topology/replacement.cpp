// Failed-node replacement (TASFailedNodeReplacement; Kueue ff69552e
// findReplacementAssignment): the pods of an unhealthy node placed again
// within the domain their request binds them to.
#include "engines/topology/placer.hpp"

namespace queueforge::topology::detail {

namespace {

// requiredReplacementDomain: the domain the replacement pods must stay in.
std::string replacement_domain(const Snapshot& s, const Placer& placer, const PodSetRequest& r, i32 count,
                               const Assignment& ta) {
    std::string key;
    if (r.mode == Mode::Required || r.mode == Mode::Preferred) key = r.level;
    else if (r.mode == Mode::Unconstrained && !r.slices.empty() && r.level.empty()) key = s.levels.front();
    else key = s.levels.back();
    int level = placer.level_of_key(key);
    if (level < 0 || ta.domains.empty()) return "";
    if (!r.slices.empty() && r.slices.front().size <= 0) return "";
    const int node_level = static_cast<int>(s.levels.size()) - 1;
    auto ancestor_at = [&](const std::vector<std::string>& values, int lvl) -> int {
        auto leaf = s.leaf_by_id.find(domain_id(values));
        if (leaf == s.leaf_by_id.end()) return -1;
        int d = s.leaves[leaf->second].domain;
        for (int l = node_level; l > lvl; --l) d = s.domains[d].parent;
        return d;
    };
    // findIncompleteSliceDomain: the slice-level domain whose pods plus the
    // missing ones make whole slices (first by domain ID).
    auto incomplete = [&](i32 size, const std::string& topology) -> std::string {
        int lvl = placer.level_of_key(topology);
        if (lvl < 0) return "";
        std::map<std::string, i32> usage;
        for (const auto& d : ta.domains) {
            int a = ancestor_at(d.values, lvl);
            if (a >= 0) usage[placer.domain_id_of(a)] += d.count;
        }
        for (const auto& [id, n] : usage)
            if ((n + count) % size == 0) return id;
        return "";
    };
    if (!r.slices.empty() && count % r.slices.front().size != 0) {
        if (r.slices.size() > 1)
            for (auto it = r.slices.rbegin(); it != r.slices.rend(); ++it)
                if (count % it->size != 0) return incomplete(it->size, it->level);
        return incomplete(r.slices.front().size, r.slices.front().level);
    }
    if (r.mode != Mode::Required) return "";
    int d = ancestor_at(ta.domains.front().values, level);
    return d < 0 ? "" : placer.domain_id_of(d);
}

}  // namespace

Outcome replace(const Snapshot& s, Placer& placer, const std::vector<PodSetRequest>& podsets,
                const std::vector<std::vector<std::size_t>>& groups, const NodeReplacement& nr) {
    Outcome out;
    for (const auto& g : groups)
        for (std::size_t i : g) {
            const PodSetRequest& r = podsets[i];
            if (!r.current_assignment) continue;  // nothing admitted for this podset
            if (nr.skip_pod_owned && nr.owned_by_single_pod) {
                // SkipReassignmentForPodOwnedWorkloads: the pod cannot move.
                out.podsets.push_back({r.name, *r.current_assignment, ""});
                continue;
            }
            Assignment existing = *r.current_assignment;
            i32 affected = 0;
            std::vector<DomainAssignment> kept;
            for (const auto& d : existing.domains) {
                if (!d.values.empty() && d.values.back() == nr.unhealthy_node) affected = d.count;
                else kept.push_back(d);
            }
            existing.domains = kept;
            auto fail = [&](std::string reason) {
                out.podsets.push_back({r.name, std::nullopt, std::move(reason)});
                return out;
            };
            for (const auto& d : existing.domains)
                if (!s.leaf_by_id.count(domain_id(d.values)))
                    return fail("Cannot replace the node, because the existing topologyAssignment is invalid, as it "
                                "contains the stale domain " + d.values.front());
            PodSetRequest copy = r;
            copy.count = affected;
            copy.previous_assignment.reset();
            const std::string domain = replacement_domain(s, placer, r, affected, existing);
            if (!r.slices.empty() && !domain.empty() && r.slices.front().size > 0 &&
                affected % r.slices.front().size != 0) {
                // The innermost layer whose size divides the replaced pods.
                copy.slices.clear();
                for (auto it = r.slices.rbegin(); it != r.slices.rend(); ++it)
                    if (affected % it->size == 0) {
                        copy.slices = {*it};
                        break;
                    }
                if (copy.slices.empty() && copy.mode == Mode::Unconstrained && copy.level.empty())
                    copy.mode = Mode::Implied;  // no slice left: Kueue finds no level either
            }
            placer.required_domain = domain;
            std::optional<Assignment> wa, la;
            std::string reason = placer.place(copy, nullptr, wa, la);
            placer.required_domain.clear();
            if (!reason.empty()) return fail(reason);
            if (!wa || wa->domains.empty())
                return fail("cannot find replacement assignment for unhealthy node: " + nr.unhealthy_node);
            out.podsets.push_back({r.name, merge(s, *wa, existing), ""});
            add_assumed(s, placer, *wa, r.requests);
        }
    return out;
}

}  // namespace queueforge::topology::detail
