#pragma once
// Cycles of the Cohort parent relation, found once for every consumer
// (validate's V45, build's V45, the simulator's HasCycle, capacity's tree).
// Kueue accepts cyclic parents (pkg/cache/hierarchy HasCycle) and then skips
// every ClusterQueue under the cycle; kueue-semantics.md V45.
#include <vector>

namespace queueforge::model {

struct CohortCycles {
    // Each cycle's members in parent order, starting at its smallest index.
    std::vector<std::vector<int>> cycles;
    // Per node: the cycle it lies on, or -1.
    std::vector<int> on_cycle;
    // Per node: the cycle its parent chain (the node included) runs into, or
    // -1 (Kueue's HasCycle: true for the members and for everything below
    // them).
    std::vector<int> reaches;

    bool has_cycle(int node) const { return reaches[node] >= 0; }
    // The members of cycle `c` in parent order starting at `from` (one of
    // them).
    std::vector<int> members_from(int c, int from) const;
};

// `parent[i]` is node i's parent (-1 for a root). Every node is visited once:
// a 10,000-deep chain costs 10,000 steps.
CohortCycles find_cohort_cycles(const std::vector<int>& parent);

}  // namespace queueforge::model
