// Queue manager behaviour per ClusterQueue, following cluster_queue.go:
// PushOrUpdate, Pop (sticky preemptor first), requeueIfNotPresent
// (StrictFIFO: back to the heap unless the namespace does not match;
// BestEffortFIFO: parked unless failed after nomination, pending preemption,
// untried flavors remain, or an inadmissible requeue happened since the pop),
// handleInadmissibleHash (gate SchedulingEquivalenceHashing) and
// queueInadmissibleWorkloads.
#include "simulate/queues.hpp"

#include "simulate/matching.hpp"

#include <algorithm>

namespace queueforge::sim::detail {

bool Queues::Key::operator<(const Key& o) const {
    if (neg_priority != o.neg_priority) return neg_priority < o.neg_priority;
    if (ts != o.ts) return ts < o.ts;
    if (uid_rank != o.uid_rank) return uid_rank < o.uid_rank;
    return wl < o.wl;  // workloads are sorted by namespace/name
}

Queues::Queues(Model& m) : m_(m), q_(m.cqs.size()), stamp_(m.wls.size(), 0) {
    std::vector<int> by_uid(m.wls.size());
    for (std::size_t i = 0; i < by_uid.size(); ++i) by_uid[i] = static_cast<int>(i);
    std::stable_sort(by_uid.begin(), by_uid.end(), [&](int a, int b) { return m.wls[a].uid < m.wls[b].uid; });
    for (std::size_t i = 0; i < by_uid.size(); ++i) {
        // Equal uids share a rank so the workload index decides, as before.
        bool same = i > 0 && m.wls[by_uid[i]].uid == m.wls[by_uid[i - 1]].uid;
        m.wls[by_uid[i]].uid_rank = same ? m.wls[by_uid[i - 1]].uid_rank : static_cast<int>(i);
    }
    name_order_.resize(q_.size());
    for (std::size_t i = 0; i < name_order_.size(); ++i) name_order_[i] = static_cast<int>(i);
    std::sort(name_order_.begin(), name_order_.end(), [&](int a, int b) { return m_.cqs[a].name < m_.cqs[b].name; });
}

void Queues::set_state(int wl, QueueState s) {
    Workload& w = m_.wls[wl];
    if (w.qstate == s) return;
    if (stamp_[wl] != epoch_) {
        stamp_[wl] = epoch_;
        log_.emplace_back(wl, w.qstate);
    }
    w.qstate = s;
}

void Queues::begin_watch() {
    ++epoch_;
    log_.clear();
}

bool Queues::watched_changed() const {
    for (const auto& [wl, before] : log_)
        if (m_.wls[wl].qstate != before) return true;
    return false;
}

Queues::Key Queues::key(int wl) const {
    const Workload& w = m_.wls[wl];
    return {-w.priority, w.order_ts, w.uid_rank, wl};
}

void Queues::insert_active(CQQueue& q, int wl) {
    if (q.active.insert(key(wl)).second) q.active_by_hash[m_.wls[wl].hash].insert(wl);
    set_state(wl, QueueState::Active);
}

void Queues::erase_active(CQQueue& q, int wl) {
    if (q.active.erase(key(wl))) {
        auto it = q.active_by_hash.find(m_.wls[wl].hash);
        if (it != q.active_by_hash.end()) {
            it->second.erase(wl);
            if (it->second.empty()) q.active_by_hash.erase(it);
        }
    }
}

bool Queues::in_active(const CQQueue& q, int wl) const { return q.active.count(key(wl)) > 0; }

void Queues::move_to_inadmissible(CQQueue& q, int wl) {
    erase_active(q, wl);
    q.inadmissible.insert(wl);
    set_state(wl, QueueState::Inadmissible);
}

bool Queues::namespace_matches(int cq, int wl) const {
    static const Labels kNone;
    const Labels* labels = m_.wls[wl].ns_labels;
    return selector_matches(m_.cqs[cq].ns_selector, labels ? *labels : kNone);
}

bool Queues::push_or_update(int wl) {
    Workload& w = m_.wls[wl];
    if (w.holds || !w.active || w.finished || !w.arrived || w.lq < 0 || m_.lqs[w.lq].stopped || w.queue_cq < 0)
        return false;
    CQQueue& q = q_[w.queue_cq];
    if (q.inflight == wl) return true;
    if (q.inadmissible.count(wl)) return true;  // unchanged spec: stays parked
    if (!m_.cqs[w.queue_cq].strict_fifo && !in_active(q, wl) && q.bulk_hashes.count(w.hash)) {
        q.inadmissible.insert(wl);
        set_state(wl, QueueState::Inadmissible);
        return true;
    }
    insert_active(q, wl);
    return true;
}

bool Queues::has_heads() const {
    for (std::size_t i = 0; i < q_.size(); ++i)
        if (m_.cqs[i].active && !q_[i].active.empty()) return true;
    return false;
}

std::vector<std::pair<int, int>> Queues::heads() {
    std::vector<std::pair<int, int>> out;
    for (int cq : name_order_) {
        if (!m_.cqs[cq].active) continue;  // statusChecker.ClusterQueueActive
        CQQueue& q = q_[cq];
        ++q.pop_cycle;
        if (q.active.empty()) {
            q.inflight = -1;
            continue;
        }
        int wl = -1;
        if (q.preemptor_sticky && q.preemptor >= 0 && in_active(q, q.preemptor)) wl = q.preemptor;
        else wl = q.active.begin()->wl;
        erase_active(q, wl);
        q.inflight = wl;
        set_state(wl, QueueState::Inflight);
        out.emplace_back(cq, wl);
    }
    return out;
}

void Queues::requeue(int wl, RequeueReason reason, const std::string& qr_reason) {
    Workload& w = m_.wls[wl];
    if (w.holds || !w.active || w.finished || !w.arrived || w.lq < 0 || w.queue_cq < 0) return;
    int cq = w.queue_cq;
    CQQueue& q = q_[cq];
    bool strict = m_.cqs[cq].strict_fifo;
    bool immediate = strict ? reason != RequeueReason::NamespaceMismatch
                            : (reason == RequeueReason::FailedAfterNomination ||
                               reason == RequeueReason::PendingPreemption);
    if (reason == RequeueReason::PendingPreemption) {
        q.preemptor = wl;
        q.preemptor_sticky = !strict;
    }
    if (q.inflight == wl) q.inflight = -1;
    bool inadm = q.inadmissible.count(wl) > 0;
    if (immediate || q.queue_inadmissible_cycle >= q.pop_cycle || (w.last && w.last->pending_flavors())) {
        if (inadm) q.inadmissible.erase(wl);
        insert_active(q, wl);
        return;
    }
    if (inadm || in_active(q, wl)) return;
    q.inadmissible.insert(wl);
    set_state(wl, QueueState::Inadmissible);
    if (!strict && (reason == RequeueReason::NoFit || reason == RequeueReason::NoCandidates)) {
        // handleInadmissibleHash: park every queued workload of the same shape.
        q.bulk_hashes.insert(w.hash);
        auto it = q.active_by_hash.find(w.hash);
        if (it != q.active_by_hash.end()) {
            std::vector<int> same(it->second.begin(), it->second.end());
            for (int other : same) {
                move_to_inadmissible(q, other);
                // The workload controller reports the equivalent failure on
                // workloads that had no scheduler feedback yet.
                Workload& o = m_.wls[other];
                if (o.reason == "PendingEvaluation" || o.reason == "Suspended" || o.reason == "Deactivated") {
                    o.reason = qr_reason.empty() ? "PendingEvaluation" : qr_reason;
                    o.message = "Bypassed scheduling evaluation because an equivalent workload recently failed";
                }
            }
        }
    }
}

void Queues::remove(int wl) {
    Workload& w = m_.wls[wl];
    if (w.queue_cq < 0) return;
    CQQueue& q = q_[w.queue_cq];
    q.inadmissible.erase(wl);
    erase_active(q, wl);
    if (q.inflight == wl) q.inflight = -1;
    if (q.preemptor == wl) {
        q.preemptor = -1;
        q.preemptor_sticky = false;
    }
    set_state(wl, QueueState::None);
}

void Queues::notify(int cq) {
    const ClusterQueue& c = m_.cqs[cq];
    if (c.in_cycle) return;  // trees with cycles are ignored
    int node = c.node;
    if (m_.nodes[node].parent < 0) pending_cqs_.insert(cq);
    else pending_roots_.insert(m_.root_of(node));
}

void Queues::queue_inadmissible(int cq) {
    CQQueue& q = q_[cq];
    q.queue_inadmissible_cycle = q.pop_cycle;
    q.bulk_hashes.clear();
    std::vector<int> parked(q.inadmissible.begin(), q.inadmissible.end());
    for (int wl : parked) {
        if (!namespace_matches(cq, wl)) continue;
        if (in_active(q, wl)) continue;
        q.inadmissible.erase(wl);
        insert_active(q, wl);
    }
}

void Queues::process_requeues() {
    for (int cq : pending_cqs_) queue_inadmissible(cq);
    for (int root : pending_roots_) {
        // Every ClusterQueue of the tree, active or not (the queue manager's
        // hierarchy holds them all).
        std::vector<int> stack{root};
        while (!stack.empty()) {
            int n = stack.back();
            stack.pop_back();
            for (int c : m_.nodes[n].cache_children) {
                if (m_.nodes[c].is_cq) queue_inadmissible(m_.nodes[c].cq);
                else stack.push_back(c);
            }
        }
    }
    pending_cqs_.clear();
    pending_roots_.clear();
}

std::vector<int> Queues::active_in_order(int cq) const {
    std::vector<int> out;
    const CQQueue& q = q_[cq];
    if (q.preemptor_sticky && q.preemptor >= 0 && in_active(q, q.preemptor)) out.push_back(q.preemptor);
    for (const auto& k : q.active)
        if (out.empty() || k.wl != out.front()) out.push_back(k.wl);
    return out;
}

std::vector<int> Queues::inadmissible(int cq) const {
    return {q_[cq].inadmissible.begin(), q_[cq].inadmissible.end()};
}

}  // namespace queueforge::sim::detail
