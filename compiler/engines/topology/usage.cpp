// Recorded placements: the usage Topology::commit / add_usage add to the
// leaves and release / remove_usage take away, and TASFlavorSnapshot.Fits.
#include "engines/topology/placer.hpp"

namespace queueforge::topology {

using namespace detail;

namespace {

// The usage of the pods of `outcome`'s placements, added (sign 1) or taken
// away (sign -1) on the leaves they name.
void change_placed_usage(Topology& t, const std::vector<PodSetRequest>& podsets, const Outcome& outcome, int sign) {
    for (const auto& r : outcome.podsets) {
        if (!r.assignment) continue;
        const PodSetRequest* p = nullptr;
        for (const auto& q : podsets)
            if (q.name == r.name) p = &q;
        if (!p) continue;
        for (const auto& d : r.assignment->domains) {
            if (sign > 0) t.add_usage(d.values, p->requests, d.count);
            else t.remove_usage(d.values, p->requests, d.count);
        }
    }
}

}  // namespace

void Topology::commit(const std::vector<PodSetRequest>& podsets, const Outcome& outcome) {
    change_placed_usage(*this, podsets, outcome, 1);
}

void Topology::release(const std::vector<PodSetRequest>& podsets, const Outcome& outcome) {
    change_placed_usage(*this, podsets, outcome, -1);
}

bool Topology::change_usage(const std::vector<std::string>& values, const Amounts& per_pod, std::int32_t count, int sign) {
    const Snapshot& s = *impl_;
    std::string id;
    for (std::size_t k = 0; k < values.size(); ++k) id += (k ? "," : "") + values[k];
    auto leaf = s.leaf_by_id.find(id);
    if (leaf == s.leaf_by_id.end()) return false;
    // A resource no node has gets no column: nothing can be placed against it.
    const Reqs req = resolve(s, per_pod, false);
    std::int64_t* u = usage_.data() + static_cast<std::size_t>(leaf->second) * s.resources.size();
    auto apply = [&](std::size_t idx, std::int64_t amount) {
        // Taking away never goes below zero: usage that was not recorded
        // (a node that went away, a double release) is not invented.
        u[idx] = sign > 0 ? sat_add(u[idx], amount) : std::max<std::int64_t>(0, u[idx] - amount);
    };
    for (const auto& q : req)
        if (q.idx >= 0) apply(static_cast<std::size_t>(q.idx), sat_mul(q.value, count));
    apply(static_cast<std::size_t>(s.resource_index("pods")), count);
    return true;
}

bool Topology::fits(const std::vector<std::string>& values, const Amounts& per_pod, std::int32_t count) const {
    const Snapshot& s = *impl_;
    std::string id;
    for (std::size_t k = 0; k < values.size(); ++k) id += (k ? "," : "") + values[k];
    auto leaf = s.leaf_by_id.find(id);
    if (leaf == s.leaf_by_id.end()) return false;
    const Leaf& l = s.leaves[leaf->second];
    const std::int64_t* u = usage_.data() + static_cast<std::size_t>(leaf->second) * s.resources.size();
    std::vector<i64> rem(s.resources.size());
    for (std::size_t r = 0; r < rem.size(); ++r) rem[r] = sat_add(l.free[r], -u[r]);
    return count_in(resolve(s, per_pod, true), rem.data()).first >= count;
}

void Topology::clear_usage() {
    std::fill(usage_.begin(), usage_.end(), 0);
}

bool Topology::add_usage(const std::vector<std::string>& values, const Amounts& per_pod, std::int32_t count) {
    return change_usage(values, per_pod, count, 1);
}

bool Topology::remove_usage(const std::vector<std::string>& values, const Amounts& per_pod, std::int32_t count) {
    return change_usage(values, per_pod, count, -1);
}

}  // namespace queueforge::topology
