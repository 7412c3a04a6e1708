// Queue manager behaviour per ClusterQueue, following cluster_queue.go:
// PushOrUpdate, Pop (sticky preemptor first), requeueIfNotPresent
// (StrictFIFO: back to the heap unless the namespace does not match;
// BestEffortFIFO: parked unless failed after nomination, pending preemption,
// untried flavors remain, or an inadmissible requeue happened since the pop),
// handleInadmissibleHash (gate SchedulingEquivalenceHashing) and
// queueInadmissibleWorkloads.
#include "engines/scheduler/queues.hpp"

#include "engines/scheduler/matching.hpp"

#include <algorithm>

namespace queueforge::scheduler::detail {

bool Queues::Key::operator<(const Key& o) const {
    if (neg_priority != o.neg_priority) return neg_priority < o.neg_priority;
    if (ts != o.ts) return ts < o.ts;
    if (uid_rank != o.uid_rank) return uid_rank < o.uid_rank;
    return wl < o.wl;  // workloads are sorted by namespace/name
}

namespace {

// Moves every element of `from` into `into` (swapping first so that the
// smaller set is the one walked).
template <class T>
void absorb(std::set<T>& into, std::set<T>& from) {
    if (into.size() < from.size()) into.swap(from);
    into.merge(from);
    from.clear();
}

// The reasons handleInadmissibleHash's caller rewrites on bulk-parked workloads.
bool rewritable_reason(const std::string& r) {
    return r == "PendingEvaluation" || r == "Suspended" || r == "Deactivated";
}

}  // namespace

Queues::Queues(Model& m)
    : m_(m), q_(m.cqs.size()), wl_bucket_(m.wls.size(), -1), stamp_(m.wls.size(), 0) {
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
    afs_.resize(q_.size());
    for (std::size_t i = 0; i < q_.size(); ++i) afs_[i] = m_.afs.enabled_for_cq(m_, static_cast<int>(i));
}

bool Queues::afs_before(int a, int b, int sticky) const {
    const double ua = m_.afs.usage(m_, m_.wls[a].lq), ub = m_.afs.usage(m_, m_.wls[b].lq);
    // cmp.Compare on float64: +Inf == +Inf falls through to the base order.
    if (ua < ub) return true;
    if (ub < ua) return false;
    if ((a == sticky) != (b == sticky)) return a == sticky;
    return key(a) < key(b);
}

int Queues::afs_head(const CQQueue& q, int cq) {
    (void)cq;
    const int sticky = q.preemptor_sticky && q.preemptor >= 0 && in_active(q.preemptor) ? q.preemptor : -1;
    int best = sticky;
    // Each bucket holds one LocalQueue's workloads in base order: its first
    // is the LocalQueue's best there.
    for (const auto& [k, b] : q.heads)
        if (best < 0 || afs_before(k.wl, best, sticky)) best = k.wl;
    return best;
}

int Queues::bucket_of(int wl) {
    const Workload& w = m_.wls[wl];
    int b = wl_bucket_[wl];
    const int lq = w.queue_cq >= 0 && afs_[w.queue_cq] ? w.lq : -1;
    if (b >= 0 && buckets_[b].cq == w.queue_cq && buckets_[b].hash == w.hash && buckets_[b].lq == lq) return b;
    // The namespace verdict is fixed: selectors and namespace labels do not
    // change during a run.
    const bool ns_ok = namespace_matches(w.queue_cq, wl);
    auto [it, added] = bucket_ids_.try_emplace({w.queue_cq, w.hash, ns_ok, lq}, static_cast<int>(buckets_.size()));
    if (added) {
        Bucket nb;
        nb.cq = w.queue_cq;
        nb.hash = w.hash;
        nb.ns_ok = ns_ok;
        nb.lq = lq;
        buckets_.push_back(std::move(nb));
        q_[w.queue_cq].buckets_by_hash[w.hash].push_back(it->second);
    }
    wl_bucket_[wl] = it->second;
    return it->second;
}

QueueState Queues::state_of(int wl) {
    const Workload& w = m_.wls[wl];
    if (w.queue_cq >= 0) {
        const Bucket& b = buckets_[bucket_of(wl)];
        const Key k = key(wl);
        if (b.active.count(k)) return QueueState::Active;
        if (b.parked.count(k)) return QueueState::Inadmissible;
    }
    return w.qstate;
}

void Queues::note(int wl) {
    if (stamp_[wl] == epoch_) return;
    stamp_[wl] = epoch_;
    log_.emplace_back(wl, state_of(wl));
}

void Queues::begin_watch() {
    ++epoch_;
    log_.clear();
    bulk_changed_ = false;
}

bool Queues::watched_changed() {
    if (bulk_changed_) return true;
    for (const auto& [wl, before] : log_)
        if (state_of(wl) != before) return true;
    return false;
}

Queues::Key Queues::key(int wl) const {
    const Workload& w = m_.wls[wl];
    return {-w.priority, w.order_ts, w.uid_rank, wl};
}

void Queues::edit_active(CQQueue& q, int b, bool insert, const Key& k) {
    Bucket& bk = buckets_[b];
    const bool had = !bk.active.empty();
    const Key before = had ? *bk.active.begin() : Key{};
    if (insert) {
        if (!bk.active.insert(k).second) return;
        ++q.active_count;
        bk.active_fresh.insert(k.wl);
    } else {
        if (!bk.active.erase(k)) return;
        --q.active_count;
        bk.active_fresh.erase(k.wl);
    }
    const bool has = !bk.active.empty();
    if (had && has && !(before < *bk.active.begin()) && !(*bk.active.begin() < before)) return;
    if (had) q.heads.erase(before);
    if (has) q.heads.emplace(*bk.active.begin(), b);
}

void Queues::insert_active(int wl) {
    note(wl);
    const int b = bucket_of(wl);
    edit_active(q_[buckets_[b].cq], b, true, key(wl));
    m_.wls[wl].qstate = QueueState::Active;
}

void Queues::erase_active(int wl) {
    const int b = bucket_of(wl);
    edit_active(q_[buckets_[b].cq], b, false, key(wl));
}

bool Queues::in_active(int wl) { return buckets_[bucket_of(wl)].active.count(key(wl)) > 0; }

void Queues::insert_parked(int wl) {
    note(wl);
    const int b = bucket_of(wl);
    Bucket& bk = buckets_[b];
    if (bk.parked.insert(key(wl)).second) {
        bk.parked_fresh.insert(wl);
        q_[bk.cq].parked_buckets.insert(b);
    }
    m_.wls[wl].qstate = QueueState::Inadmissible;
}

void Queues::erase_parked(int wl) {
    const int b = bucket_of(wl);
    Bucket& bk = buckets_[b];
    if (bk.parked.erase(key(wl))) {
        bk.parked_fresh.erase(wl);
        if (bk.parked.empty()) q_[bk.cq].parked_buckets.erase(b);
    }
}

bool Queues::in_parked(int wl) { return buckets_[bucket_of(wl)].parked.count(key(wl)) > 0; }

void Queues::park_all(CQQueue& q, int b, const std::string& qr_reason) {
    Bucket& bk = buckets_[b];
    if (bk.active.empty()) return;
    // The workload controller reports the equivalent failure on workloads
    // that had no scheduler feedback yet (only fresh members can qualify).
    for (auto it = bk.active_fresh.begin(); it != bk.active_fresh.end();) {
        Workload& o = m_.wls[*it];
        if (rewritable_reason(o.reason)) {
            o.reason = qr_reason.empty() ? "PendingEvaluation" : qr_reason;
            o.message = "Bypassed scheduling evaluation because an equivalent workload recently failed";
        }
        it = rewritable_reason(o.reason) ? std::next(it) : bk.active_fresh.erase(it);
    }
    // Workloads moved without a note were Active when the watch began (no
    // move inside a cycle puts a workload back in the active heap unnoted).
    std::size_t noted = 0;
    for (const auto& [wl, before] : log_)
        if (stamp_[wl] == epoch_ && bk.active.count(key(wl))) ++noted;
    if (bk.active.size() > noted) bulk_changed_ = true;
    q.heads.erase(*bk.active.begin());
    q.active_count -= bk.active.size();
    absorb(bk.parked, bk.active);
    absorb(bk.parked_fresh, bk.active_fresh);
    q.parked_buckets.insert(b);
}

void Queues::unpark_all(CQQueue& q, int b) {
    Bucket& bk = buckets_[b];
    if (bk.parked.empty()) return;
    if (!bk.active.empty()) q.heads.erase(*bk.active.begin());
    q.active_count += bk.parked.size();
    absorb(bk.active, bk.parked);
    absorb(bk.active_fresh, bk.parked_fresh);
    q.heads.emplace(*bk.active.begin(), b);
    q.parked_buckets.erase(b);
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
    if (in_parked(wl)) return true;  // unchanged spec: stays parked
    if (!m_.cqs[w.queue_cq].strict_fifo && !in_active(wl) && q.bulk_hashes.count(w.hash)) {
        insert_parked(wl);
        return true;
    }
    insert_active(wl);
    return true;
}

bool Queues::has_heads() const {
    for (std::size_t i = 0; i < q_.size(); ++i)
        if (m_.cqs[i].active && q_[i].active_count > 0) return true;
    return false;
}

std::vector<std::pair<int, int>> Queues::heads() {
    std::vector<std::pair<int, int>> out;
    for (int cq : name_order_) {
        if (!m_.cqs[cq].active) continue;  // statusChecker.ClusterQueueActive
        CQQueue& q = q_[cq];
        ++q.pop_cycle;
        if (q.active_count == 0) {
            q.inflight = -1;
            continue;
        }
        int wl = -1;
        if (afs_[cq]) wl = afs_head(q, cq);
        else if (q.preemptor_sticky && q.preemptor >= 0 && in_active(q.preemptor)) wl = q.preemptor;
        else wl = q.heads.begin()->first.wl;
        note(wl);
        erase_active(wl);
        q.inflight = wl;
        m_.wls[wl].qstate = QueueState::Inflight;
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
    bool inadm = in_parked(wl);
    if (immediate || q.queue_inadmissible_cycle >= q.pop_cycle || (w.last && w.last->pending_flavors())) {
        note(wl);
        if (inadm) erase_parked(wl);
        insert_active(wl);
        return;
    }
    if (inadm || in_active(wl)) return;
    insert_parked(wl);
    if (!strict && (reason == RequeueReason::NoFit || reason == RequeueReason::NoCandidates)) {
        // handleInadmissibleHash: park every queued workload of the same shape.
        q.bulk_hashes.insert(w.hash);
        if (auto it = q.buckets_by_hash.find(w.hash); it != q.buckets_by_hash.end())
            for (int b : it->second) park_all(q, b, qr_reason);
    }
}

void Queues::remove(int wl) {
    Workload& w = m_.wls[wl];
    if (w.queue_cq < 0) return;
    CQQueue& q = q_[w.queue_cq];
    note(wl);
    erase_parked(wl);
    erase_active(wl);
    if (q.inflight == wl) q.inflight = -1;
    if (q.preemptor == wl) {
        q.preemptor = -1;
        q.preemptor_sticky = false;
    }
    w.qstate = QueueState::None;
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
    // Parked workloads whose namespace the ClusterQueue no longer selects stay.
    const std::vector<int> parked(q.parked_buckets.begin(), q.parked_buckets.end());
    for (int b : parked)
        if (buckets_[b].ns_ok) unpark_all(q, b);
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
            for (int c : m_.nodes[n].children) {
                if (m_.nodes[c].is_cq) queue_inadmissible(m_.nodes[c].cq);
                else stack.push_back(c);
            }
        }
    }
    pending_cqs_.clear();
    pending_roots_.clear();
}

std::vector<int> Queues::active_in_order(int cq) const {
    const CQQueue& q = q_[cq];
    std::vector<Key> keys;
    for (const auto& [hash, ids] : q.buckets_by_hash)
        for (int b : ids) keys.insert(keys.end(), buckets_[b].active.begin(), buckets_[b].active.end());
    std::sort(keys.begin(), keys.end());
    std::vector<int> out;
    const bool sticky = q.preemptor_sticky && q.preemptor >= 0 &&
                        std::any_of(keys.begin(), keys.end(), [&](const Key& k) { return k.wl == q.preemptor; });
    if (afs_[cq]) {
        for (const auto& k : keys) out.push_back(k.wl);
        const int s = sticky ? q.preemptor : -1;
        std::stable_sort(out.begin(), out.end(), [&](int a, int b) { return afs_before(a, b, s); });
        return out;
    }
    if (sticky) out.push_back(q.preemptor);
    for (const auto& k : keys)
        if (out.empty() || k.wl != out.front()) out.push_back(k.wl);
    return out;
}

std::vector<int> Queues::inadmissible(int cq) const {
    std::vector<int> out;
    for (int b : q_[cq].parked_buckets)
        for (const auto& k : buckets_[b].parked) out.push_back(k.wl);
    std::sort(out.begin(), out.end());
    return out;
}

}  // namespace queueforge::scheduler::detail
