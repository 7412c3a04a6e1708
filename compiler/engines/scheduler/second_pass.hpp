#pragma once
// Kueue's second scheduling pass (ff69552e): a workload that already holds
// quota is scheduled again, to assign the topology that a ProvisioningRequest
// check delayed (pkg/workload needsSecondPassForDelayedAssignment) or to move
// the pods of a failed node (needsSecondPassAfterNodeFailure,
// TASFailedNodeReplacement). pkg/cache/queue/second_pass_queue.go holds such
// workloads apart from the ClusterQueues' heaps; manager.go
// QueueSecondPassIfNeeded queues them after an exponential backoff (1 s,
// doubling, at most 30 s) and Heads() takes every ready one before popping
// the ClusterQueues.
//
// Feature gates at their ff69552e defaults (pkg/features/kube_features.go):
// TASFailedNodeReplacement (beta since 0.14, on), TASFailedNodeReplacementFailFast
// (beta since 0.14, on: a pass that finds no replacement evicts the workload
// with EvictedDueToNodeFailures instead of retrying), and
// SkipReassignmentForPodOwnedWorkloads (beta since 0.19, on: a workload owned by
// a single v1 Pod keeps its placement).
//
// As in Kueue, a second pass that needs preemption looks for targets with the
// kept flavors. One deviation: partial admission (PodSetReducer) is not tried
// for a workload that already holds quota; its counts stay those of the
// admission.
#include "engines/scheduler/model.hpp"

#include <cstdint>
#include <map>
#include <vector>

namespace queueforge::scheduler::detail {

// workload.NeedsSecondPass.
bool needs_second_pass(const Workload& w);

class SecondPassQueue {
public:
    struct Head {
        int wl = -1;
        int iteration = 0;  // SecondPassIteration
    };
    // QueueSecondPassIfNeeded(w, iteration) at time `now`: queued (ready
    // after the backoff of iteration + 1) when the workload needs a second
    // pass and is not queued yet; true when queued. A workload that no longer
    // needs one leaves the queue (after at least one iteration, as Kueue).
    bool queue_if_needed(const Model& m, int wl, int iteration, std::int64_t now);
    // The input's workloads needing a second pass are ready at once: the
    // state given is taken to be older than the first backoff (1 s), as
    // Kueue's scheduler tests step the clock past it before the cycle.
    void queue_initial(const Model& m, int wl);
    // takeAllReady: every workload whose backoff has passed, by id.
    std::vector<Head> take_ready(std::int64_t now);
    bool has_ready(std::int64_t now) const;
    void remove(int wl);  // DeleteSecondPassWithoutLock
    bool empty() const { return items_.empty(); }

    // wait.Backoff{1s, x2, cap 30s}.WaitTime(iteration), in ns.
    static std::int64_t delay(int iteration);

private:
    struct Item {
        int iteration = 0;
        std::int64_t ready_at = 0;
    };
    std::map<int, Item> items_;  // prequeued and queued, by workload id
};

}  // namespace queueforge::scheduler::detail
