#pragma once
// One scheduling cycle (kueue-semantics.md 5.3; pkg/scheduler/scheduler.go
// schedule/nominate/processEntry/requeueAndUpdate).
#include "engines/scheduler/queues.hpp"
#include "engines/scheduler/sched.hpp"

#include <vector>

namespace queueforge::scheduler::detail {

struct CycleOutcome {
    std::vector<int> admitted;  // workloads that got quota this cycle
    std::vector<int> victims;   // workloads evicted by preemption this cycle
    std::vector<Preemption> preemptions;  // preemptor, victim, reason, paths (same order as victims)
    int waiting_for_pods_ready = -1;      // blockAdmission held this workload (WaitingForPodsReady)
};

// Runs cycle number `cycle` (1-based) against the cache usage `cache`;
// admissions are added to it. `now` is the cycle's clock (ns since epoch).
// Every workload holding quota in the cache must have snap_present set
// (the caller keeps it so: admissions of a cycle are in the next snapshot).
CycleOutcome run_cycle(Model& m, Queues& queues, QuotaState& cache, std::int64_t cycle, std::int64_t now);

}  // namespace queueforge::scheduler::detail
