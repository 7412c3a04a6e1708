#pragma once
// Flavor assignment for one workload against a ClusterQueue snapshot
// (kueue-semantics.md 5.5, 5.6, 5.10; pkg/scheduler/flavorassigner).
#include "engines/scheduler/sched.hpp"

#include <vector>

namespace queueforge::scheduler::detail {

// FlavorAssigner.Assign: `counts` (partial admission) replaces the podset
// counts when given; `nomination` pins flavors during overlap recompute.
Assignment assign_flavors(SchedCtx& ctx, int wl, int cq, const std::vector<std::int32_t>* counts,
                          const NominationMap* nomination);

// Scheduler.getAssignments: drops outdated scan progress, assigns, finds
// preemption targets, and falls back to partial admission (5.9).
Assignment get_assignments(SchedCtx& ctx, int wl, int cq, const NominationMap* nomination,
                           std::vector<Target>& targets);

}  // namespace queueforge::scheduler::detail
