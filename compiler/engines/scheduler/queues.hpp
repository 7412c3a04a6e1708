#pragma once
// Kueue's queue manager per ClusterQueue (pkg/cache/queue cluster_queue.go,
// manager.go, inadmissible_workloads.go; kueue-semantics.md 5.2): the active
// heap, the inadmissible set, the sticky preemptor, BestEffortFIFO/StrictFIFO
// requeueing and equivalence-hash bulk parking.
#include "engines/scheduler/model.hpp"

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

namespace queueforge::scheduler::detail {

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
    bool watched_changed();

private:
    struct Key {
        std::int32_t neg_priority;
        std::int64_t ts;
        int uid_rank;  // metadata.uid order (Kueue's last tie-breaker)
        int wl;
        bool operator<(const Key& o) const;
    };
    // The queued workloads of one ClusterQueue that share an equivalence
    // hash and a namespace verdict. Kueue parks a whole hash at once
    // (handleInadmissibleHash) and queueInadmissibleWorkloads moves every
    // parked workload whose namespace matches back: kept apart, each such
    // bulk move is one set swap or merge instead of one set operation per
    // workload, which made a 2 x 80k backlog quadratic (370 s).
    struct Bucket {
        int cq = -1;
        int hash = -1;
        bool ns_ok = true;
        int lq = -1;  // admission fair sharing: one LocalQueue per bucket
        std::set<Key> active;
        std::set<Key> parked;  // the inadmissible ones
        // Members whose reason the bulk parking may still rewrite (it
        // rewrites only PendingEvaluation/Suspended/Deactivated): a superset,
        // checked at each bulk park, so a hash parked again costs its fresh
        // members only.
        std::set<int> active_fresh, parked_fresh;
    };
    struct CQQueue {
        std::map<Key, int> heads;         // each bucket's first active workload -> bucket
        std::set<int> parked_buckets;     // buckets with parked workloads
        std::size_t active_count = 0;
        std::map<int, std::vector<int>> buckets_by_hash;
        int inflight = -1;
        std::int64_t pop_cycle = 0;
        std::int64_t queue_inadmissible_cycle = -1;
        std::set<int> bulk_hashes;
        int preemptor = -1;
        bool preemptor_sticky = false;
    };

    Key key(int wl) const;
    // Admission fair sharing (queueOrderingFunc): the head with the lowest
    // LocalQueue usage, then the base order (sticky preemptor first).
    int afs_head(const CQQueue& q, int cq);
    bool afs_before(int a, int b, int sticky) const;
    int bucket_of(int wl);
    void edit_active(CQQueue& q, int b, bool insert, const Key& k);
    void insert_active(int wl);
    void erase_active(int wl);
    bool in_active(int wl);
    void insert_parked(int wl);
    void erase_parked(int wl);
    bool in_parked(int wl);
    // Every active workload of bucket `b` to its parked ones, and back.
    void park_all(CQQueue& q, int b, const std::string& qr_reason);
    void unpark_all(CQQueue& q, int b);
    void queue_inadmissible(int cq);
    bool namespace_matches(int cq, int wl) const;
    // Where the workload is now: its bucket's sets, else its qstate
    // (Inflight or None).
    QueueState state_of(int wl);
    // Records the workload's state before a move (once per watch).
    void note(int wl);

    Model& m_;
    std::vector<CQQueue> q_;
    std::vector<Bucket> buckets_;
    std::map<std::tuple<int, int, bool, int>, int> bucket_ids_;  // (cq, hash, ns_ok, AFS lq) -> bucket
    std::vector<int> wl_bucket_;     // per workload, -1 until first queued
    std::set<int> pending_cqs_;      // notified CQs without cohort
    std::set<int> pending_roots_;    // notified root cohorts
    std::vector<int> name_order_;    // ClusterQueues by name (Heads order)
    std::vector<std::pair<int, QueueState>> log_;  // first state seen since begin_watch
    bool bulk_changed_ = false;      // a bulk park since begin_watch moved a workload not in log_
    std::vector<std::uint32_t> stamp_;
    std::vector<char> afs_;  // per ClusterQueue: usage-based admission fair sharing
    std::uint32_t epoch_ = 1;
};

}  // namespace queueforge::scheduler::detail
