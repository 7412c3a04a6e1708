#pragma once
// One scheduling cycle (kueue-semantics.md 5.3; pkg/scheduler/scheduler.go
// schedule/nominate/processEntry/requeueAndUpdate).
#include "engines/scheduler/queues.hpp"
#include "engines/scheduler/sched.hpp"
#include "engines/scheduler/second_pass.hpp"

#include <vector>

namespace queueforge::scheduler::detail {

struct CycleOutcome {
    std::vector<int> admitted;  // workloads that got quota this cycle
    std::vector<int> victims;   // workloads evicted by preemption this cycle
    std::vector<int> second_pass;        // admissions updated by a second pass (topology placed or repaired)
    std::vector<int> node_failure_evicted;  // no replacement for a failed node (EvictedDueToNodeFailures)
    std::vector<Preemption> preemptions;  // preemptor, victim, reason, paths (same order as victims)
    int waiting_for_pods_ready = -1;      // blockAdmission held this workload (WaitingForPodsReady)
};

// Runs cycle number `cycle` (1-based) against the cache usage `cache`;
// admissions are added to it. `now` is the cycle's clock (ns since epoch).
// Every workload holding quota in the cache must have snap_present set
// (the caller keeps it so: admissions of a cycle are in the next snapshot).
// `second_pass` (may be null) holds the workloads waiting for a second pass:
// the ready ones are heads of this cycle, the failed ones go back to it.
CycleOutcome run_cycle(Model& m, Queues& queues, QuotaState& cache, std::int64_t cycle, std::int64_t now,
                       SecondPassQueue* second_pass = nullptr);

}  // namespace queueforge::scheduler::detail
