#pragma once
// Hierarchical quota math (kueue-semantics.md 5.4; pkg/cache/scheduler/
// resource_node.go, clusterqueue_snapshot.go, cohort_snapshot.go and
// FindHeightOfLowestSubtreeThatFits in preemption/classical).
#include "engines/scheduler/model.hpp"

#include <utility>
#include <vector>

namespace queueforge::scheduler::detail {

// Usage per quota-tree node. The cache and each cycle's snapshot are two of
// these; a snapshot starts as a copy of the cache.
struct QuotaState {
    std::vector<FlatMap<Amount>> usage;
};

class QuotaView {
public:
    QuotaView(const Model& m, QuotaState& s) : m_(m), s_(s) {}

    Amount usage(int node, int fr) const { return s_.usage[node].get(fr); }
    Amount local_quota(int node, int fr) const;
    Amount local_available(int node, int fr) const;
    // available() of resource_node.go (may be negative); Available(CQ) clamps.
    Amount available_raw(int node, int fr) const;
    Amount available(int node, int fr) const;
    Amount potential_available(int node, int fr) const;
    void add_usage(int node, int fr, Amount v);
    void remove_usage(int node, int fr, Amount v);
    void add_usage(int node, const FlatMap<Amount>& u) {
        for (const auto& [fr, v] : u) add_usage(node, fr, v);
    }
    void remove_usage(int node, const FlatMap<Amount>& u) {
        for (const auto& [fr, v] : u) remove_usage(node, fr, v);
    }
    // ClusterQueue: nominal < usage + v; Cohort: subtree quota < usage + v.
    bool borrowing_with(int node, int fr, Amount v) const;
    // IsWithinNominalInResources: subtree quota >= usage on every FR.
    bool within_nominal(int node, const std::vector<int>& frs) const;
    // QuantitiesFitInQuota: whether the node's subtree holds `reqs` on top of
    // its usage, and what is left for the parent after its local quota.
    bool fits_in_quota(int node, const FlatMap<Amount>& reqs, FlatMap<Amount>& remaining) const;
    // Borrowing level of a request (5.4.3): (height, mayReclaimInHierarchy).
    std::pair<int, bool> find_height(int cq_node, int fr, Amount val) const;

    const Model& model() const { return m_; }
    QuotaState& state() { return s_; }

private:
    const Model& m_;
    QuotaState& s_;
};

// Fresh cache usage for every node from the workloads holding quota
// (updateCohortResourceNode's accumulation).
void rebuild_usage(const Model& m, QuotaState& s);

}  // namespace queueforge::scheduler::detail
