// Topology::assign: the podsets of one flavor, grouped (podset-group-name),
// placed one group after the other, each seeing the earlier ones' usage.
// Kueue ff69552e FindTopologyAssignmentsForFlavor.
#include "engines/topology/placer.hpp"

#include <set>

namespace queueforge::topology {

namespace detail {

void add_assumed(const Snapshot& s, Placer& placer, const Assignment& a, const Amounts& per_pod) {
    const Reqs req = resolve(s, per_pod, false);
    for (const auto& d : a.domains) {
        auto leaf = s.leaf_by_id.find(domain_id(d.values));
        if (leaf == s.leaf_by_id.end()) continue;
        auto& u = placer.assumed[leaf->second];
        if (u.empty()) u.assign(s.resources.size(), 0);
        for (const auto& q : req)
            if (q.idx >= 0) u[q.idx] = sat_add(u[q.idx], sat_mul(q.value, d.count));
        u[s.resource_index("pods")] += d.count;
    }
}

}  // namespace detail

using namespace detail;

namespace {

std::string check_request(const PodSetRequest& p, const Options& o) {
    if (p.count < 0) return "podset \"" + p.name + "\": count " + std::to_string(p.count) + " is negative";
    for (const auto& [r, v] : p.requests)
        if (v < 0) return "podset \"" + p.name + "\": negative request for \"" + r + "\"";
    if ((p.mode == Mode::Required || p.mode == Mode::Preferred) && p.level.empty())
        return "podset \"" + p.name + "\": a required or preferred topology needs a level";
    if (o.require_slice_divides_count && !p.slices.empty() && p.slices.front().size > 0 &&
        p.count % p.slices.front().size != 0)
        return "podset \"" + p.name + "\": count " + std::to_string(p.count) + " is not a multiple of podset-slice-size " +
               std::to_string(p.slices.front().size);
    return "";
}

}  // namespace

bool Outcome::placed() const { return error.empty() && reason().empty(); }

std::string Outcome::reason() const {
    for (const auto& p : podsets)
        if (!p.reason.empty()) return p.reason;
    return "";
}

Outcome Topology::assign(const std::vector<PodSetRequest>& podsets, const Options& options) const {
    return assign_impl(podsets, options, nullptr);
}

Outcome Topology::replace_node(const std::vector<PodSetRequest>& podsets, const NodeReplacement& replacement,
                               const Options& options) const {
    return assign_impl(podsets, options, &replacement);
}

Outcome Topology::assign_impl(const std::vector<PodSetRequest>& podsets, const Options& options,
                              const NodeReplacement* replacement) const {
    Outcome out;
    const Snapshot& s = *impl_;
    // Groups in order of first appearance: podset-group-name, else alone.
    std::vector<std::vector<std::size_t>> groups;
    std::map<std::string, std::size_t> by_name;
    std::set<std::string> names;
    for (std::size_t i = 0; i < podsets.size(); ++i) {
        if (std::string e = check_request(podsets[i], options); !e.empty()) {
            out.error = e;
            return out;
        }
        if (!names.insert(podsets[i].name).second) {
            out.error = "podset \"" + podsets[i].name + "\" is given twice";
            return out;
        }
        if (podsets[i].group) {
            auto [it, inserted] = by_name.try_emplace(*podsets[i].group, groups.size());
            if (inserted) groups.emplace_back();
            groups[it->second].push_back(i);
        } else {
            groups.push_back({i});
        }
    }
    for (const auto& g : groups) {
        if (g.size() > 2) {
            out.error = "podset group \"" + *podsets[g[0]].group + "\" has " + std::to_string(g.size()) +
                        " podsets; a group is one leader and one worker podset";
            return out;
        }
        if (g.size() == 2 && std::min(podsets[g[0]].count, podsets[g[1]].count) != 1) {
            out.error = "podset group \"" + *podsets[g[0]].group + "\": the leader podset must have count 1";
            return out;
        }
    }

    Placer placer(s, usage_.data(), options);
    if (replacement) return replace(s, placer, podsets, groups, *replacement);
    for (const auto& g : groups) {
        // findLeaderAndWorkers: the second podset leads unless its count is
        // larger than the first's.
        std::size_t wi = g[0];
        std::optional<std::size_t> li;
        if (g.size() > 1) {
            li = g[1];
            if (podsets[g[1]].count > podsets[g[0]].count) {
                li = g[0];
                wi = g[1];
            }
        }
        if (options.elastic_workload_slices) {
            if (auto handled = elastic(s, placer, podsets[wi], li ? &podsets[*li] : nullptr, out)) {
                if (!*handled) return out;
                continue;
            }
        }
        std::optional<Assignment> wa, la;
        std::string reason = placer.place(podsets[wi], li ? &podsets[*li] : nullptr, wa, la);
        for (std::size_t i : g) {
            PodSetResult r;
            r.name = podsets[i].name;
            r.reason = reason;
            if (reason.empty()) r.assignment = i == wi ? wa : la;
            out.podsets.push_back(std::move(r));
        }
        if (!reason.empty()) return out;
        // The usage of this group is seen by the next ones (assumedUsage).
        for (std::size_t i : g) add_assumed(s, placer, i == wi ? *wa : *la, podsets[i].requests);
    }
    return out;
}

}  // namespace queueforge::topology
