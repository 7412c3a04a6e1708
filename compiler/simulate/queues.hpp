#pragma once
// Kueue's queue manager per ClusterQueue (pkg/cache/queue cluster_queue.go,
// manager.go, inadmissible_workloads.go; kueue-semantics.md 5.2): the active
// heap, the inadmissible set, the sticky preemptor, BestEffortFIFO/StrictFIFO
// requeueing and equivalence-hash bulk parking.
#include "simulate/model.hpp"

#include <cstdint>
#include <set>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

namespace queueforge::sim::detail {

enum class RequeueReason { Generic, FailedAfterNomination, NamespaceMismatch, PendingPreemption, NoFit, NoCandidates };

class Queues {
public:
    explicit Queues(Model& m);

    // AddOrUpdateWorkload for a pending workload (initial state, or a victim
    // back from eviction): needs an existing LocalQueue and ClusterQueue.
    bool push_or_update(int wl);
    // Heads(): pops one workload per active ClusterQueue, in name order.
    std::vector<std::pair<int, int>> heads();  // (cq, wl)
    bool has_heads() const;
    // RequeueWorkload -> ClusterQueue.RequeueIfNotPresent.
    // `qr_reason` is the QuotaReserved reason the scheduler wrote; workloads
    // parked with it by equivalence get it too (workload_controller.go).
    void requeue(int wl, RequeueReason reason, const std::string& qr_reason);
    // DeleteWorkload: the workload left the queues (admitted).
    void remove(int wl);
    // QueueAssociatedInadmissibleWorkloadsAfter's notification for the
    // ClusterQueue a workload is queued in; processed by process_requeues.
    void notify(int cq);
    void process_requeues();

    std::vector<int> active_in_order(int cq) const;
    std::vector<int> inadmissible(int cq) const;
    // Queue moves since begin_watch() that left a workload somewhere else
    // than where it was (a head popped and requeued as it was is no change).
    void begin_watch();
    bool watched_changed() const;

private:
    struct Key {
        std::int32_t neg_priority;
        std::int64_t ts;
        int uid_rank;  // metadata.uid order (Kueue's last tie-breaker)
        int wl;
        bool operator<(const Key& o) const;
    };
    struct CQQueue {
        std::set<Key> active;
        std::set<int> inadmissible;
        int inflight = -1;
        std::int64_t pop_cycle = 0;
        std::int64_t queue_inadmissible_cycle = -1;
        std::set<int> bulk_hashes;
        std::unordered_map<int, std::set<int>> active_by_hash;
        int preemptor = -1;
        bool preemptor_sticky = false;
    };

    Key key(int wl) const;
    void insert_active(CQQueue& q, int wl);
    void erase_active(CQQueue& q, int wl);
    bool in_active(const CQQueue& q, int wl) const;
    void move_to_inadmissible(CQQueue& q, int wl);
    void queue_inadmissible(int cq);
    bool namespace_matches(int cq, int wl) const;
    void set_state(int wl, QueueState s);

    Model& m_;
    std::vector<CQQueue> q_;
    std::set<int> pending_cqs_;      // notified CQs without cohort
    std::set<int> pending_roots_;    // notified root cohorts
    std::vector<int> name_order_;    // ClusterQueues by name (Heads order)
    std::vector<std::pair<int, QueueState>> log_;  // first state seen since begin_watch
    std::vector<std::uint32_t> stamp_;
    std::uint32_t epoch_ = 1;
};

}  // namespace queueforge::sim::detail
