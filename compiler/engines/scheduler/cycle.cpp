// The scheduling cycle, statement by statement as scheduler.go: heads ->
// snapshot -> nominate (getAssignments) -> order (classical sort or the fair
// sharing tournament) -> processEntry (overlap recompute / DeferredFit,
// preemption-without-candidates reservation, skips, preemption, admission)
// -> requeue. kueue-semantics.md 5.3 and 5.10.
#include "engines/scheduler/cycle.hpp"

#include "engines/scheduler/fair_sharing.hpp"
#include "engines/scheduler/flavor_assigner.hpp"
#include "engines/scheduler/matching.hpp"
#include "engines/scheduler/preemption.hpp"
#include "engines/scheduler/tas.hpp"

#include <algorithm>
#include <map>
#include <set>

namespace queueforge::scheduler::detail {

namespace {

enum class EntryStatus { NotNominated, Skipped, Assumed, Evicted };
// schdcache.FitsCheck
enum class FitsCheck { Ok, NoQuota, NoTAS };

struct Entry {
    int wl = -1;
    int cq = -1;
    Assignment a;
    std::vector<Target> targets;
    EntryStatus status = EntryStatus::NotNominated;
    std::string msg;
    RequeueReason rr = RequeueReason::Generic;
    std::string qr_reason;
    bool second = false;    // taken from the second-pass queue
    int iteration = 0;      // its SecondPassIteration
};

std::string cq_path(const Model& m, int cq) {
    std::vector<std::string> parts{m.cqs[cq].name};
    for (int a = m.nodes[m.cqs[cq].node].parent; a >= 0; a = m.nodes[a].parent) parts.push_back(m.nodes[a].name);
    std::string out;
    for (auto it = parts.rbegin(); it != parts.rend(); ++it) out += "/" + *it;
    return out;
}

const char* human_reason(const std::string& reason) {
    if (reason == "InClusterQueue") return "prioritization in the ClusterQueue";
    if (reason == "InCohortReclamation") return "reclamation within the cohort";
    if (reason == "InCohortFairSharing") return "Fair Sharing within the cohort";
    if (reason == "InCohortReclaimWhileBorrowing") return "reclamation within the cohort while borrowing";
    return "UNKNOWN";
}

class Cycle {
public:
    Cycle(Model& m, Queues& q, QuotaState& cache, std::int64_t cycle, std::int64_t now, SecondPassQueue* sp)
        : m_(m), queues_(q), cache_(cache), snap_(cache), ctx_{m, snap_, cycle}, now_(now), sp_(sp) {}

    CycleOutcome run() {
        // Heads(): every ready second pass, then one workload per ClusterQueue.
        std::vector<SecondPassQueue::Head> second;
        if (sp_) second = sp_->take_ready(now_);
        admitted_any_ = m_.config.block_after_admission && m_.config.pods_not_ready;
        auto heads = queues_.heads();
        nominate(second, heads);
        std::vector<int> order;
        if (m_.config.fair_sharing) {
            std::vector<FsEntry> fs;
            for (const auto& e : entries_) fs.push_back({e.cq, e.wl, &e.a.usage});
            std::vector<int> remaining(entries_.size());
            for (std::size_t i = 0; i < remaining.size(); ++i) remaining[i] = static_cast<int>(i);
            while (!remaining.empty()) process(entries_[fair_sharing_pop(ctx_, fs, remaining)]);
        } else {
            // classicalIterator: quota already reserved (a second pass)
            // first, borrowing level, priority, queue order timestamp; ties
            // keep the heads' order (ClusterQueue name).
            std::stable_sort(entries_.begin(), entries_.end(), [&](const Entry& a, const Entry& b) {
                const Workload& wa = m_.wls[a.wl];
                const Workload& wb = m_.wls[b.wl];
                if (wa.holds != wb.holds) return wa.holds;
                if (a.a.borrowing != b.a.borrowing) return a.a.borrowing < b.a.borrowing;
                if (wa.priority != wb.priority) return wa.priority > wb.priority;
                return wa.order_ts < wb.order_ts;
            });
            for (auto& e : entries_) process(e);
        }
        for (auto& e : entries_)
            if (e.status != EntryStatus::Assumed && e.status != EntryStatus::Evicted) requeue_and_update(e);
        for (auto& e : rejected_) requeue_and_update(e);
        // The snapshot's TAS usage that is not a workload now holding quota
        // (preemptors, deferred fits, reservations) ends with the cycle.
        // What was admitted is in the cache: the next snapshot of every other
        // hostname-level flavor sees it too.
        for (auto& [wl, placements] : tas_added_) {
            if (!m_.wls[wl].holds || m_.wls[wl].admitted_cycle != static_cast<int>(ctx_.cycle))
                apply_placements(m_, placements, -1, Scope::Snapshot);
            else
                share_with_siblings(m_, placements);
        }
        // A second pass changed placements of a workload already in the
        // cache: its old placement leaves, the new one takes its place.
        for (auto& [wl, old] : replaced_) {
            apply_placements(m_, old, -1, Scope::Cache);
            apply_placements(m_, m_.wls[wl].placements, 1, Scope::Cache);
        }
        return std::move(out_);
    }

private:
    void nominate(const std::vector<SecondPassQueue::Head>& second, const std::vector<std::pair<int, int>>& heads) {
        std::vector<Entry> all;
        for (const auto& h : second) {
            const Workload& w = m_.wls[h.wl];
            if (!w.holds) continue;  // released meanwhile (DeleteSecondPass)
            Entry e;
            e.wl = h.wl;
            e.cq = w.adm_cq;
            e.second = true;
            e.iteration = h.iteration;
            all.push_back(std::move(e));
        }
        for (const auto& [cq, wl] : heads) {
            Entry e;
            e.wl = wl;
            e.cq = cq;
            all.push_back(std::move(e));
        }
        for (auto& e : all) {
            const int cq = e.cq, wl = e.wl;
            const ClusterQueue& c = m_.cqs[cq];
            Workload& w = m_.wls[wl];
            if (w.checks_failed) {
                e.msg = "The workload has failed admission checks";
                e.qr_reason = "PendingEvaluation";
            } else if (c.in_cycle) {
                e.msg = "ClusterQueue " + c.name + " is inactive";
                e.qr_reason = "Suspended";
            } else if (!namespace_matches(c, w)) {
                e.msg = "workload namespace doesn't match ClusterQueue selector";
                e.qr_reason = "Misconfigured";
                e.rr = RequeueReason::NamespaceMismatch;
            } else if (!w.invalid_message.empty()) {
                e.msg = w.invalid_message;
                e.qr_reason = "Misconfigured";
            } else {
                e.a = get_assignments(ctx_, wl, cq, nullptr, e.targets);
                record(e);
                entries_.push_back(std::move(e));
                continue;
            }
            rejected_.push_back(std::move(e));
        }
    }

    bool namespace_matches(const ClusterQueue& c, const Workload& w) const {
        static const Labels kNone;
        return selector_matches(c.ns_selector, w.ns_labels ? *w.ns_labels : kNone);
    }

    // recordAssignment
    void record(Entry& e) {
        e.msg = e.a.message(m_);
        m_.wls[e.wl].last = e.a.last;
    }

    // netUsage: a workload that already holds quota (a second pass) books
    // no quota again, and of its TAS placement only the pods its admission
    // does not already place on a domain (ComputeTASNetUsage with the
    // previous admission).
    FlatMap<Amount> quota_of(const Entry& e, const FlatMap<Amount>& q) const {
        return m_.wls[e.wl].holds ? FlatMap<Amount>{} : q;
    }
    std::vector<TasPlacement> tas_net(const Entry& e) const {
        const Workload& w = m_.wls[e.wl];
        std::vector<TasPlacement> p = tas_usage(m_, w, e.a);
        if (!w.holds) return p;
        std::vector<TasPlacement> out;
        for (auto& pl : p) {
            std::map<std::vector<std::string>, std::int32_t> accounted;
            for (const auto& old : w.placements)
                if (old.podset == pl.podset)
                    for (const auto& d : old.assignment.domains) accounted[d.values] += d.count;
            std::vector<topology::DomainAssignment> extra;
            for (const auto& d : pl.assignment.domains) {
                const std::int32_t n = d.count - accounted[d.values];
                if (n > 0) extra.push_back({d.values, n});
            }
            if (extra.empty()) continue;
            pl.assignment.domains = std::move(extra);
            out.push_back(std::move(pl));
        }
        return out;
    }

    bool overlaps(const std::vector<Target>& targets) const {
        for (const auto& t : targets)
            if (victims_.count(t.wl)) return true;
        return false;
    }

    // fits(): usage (quota, then TAS) fits once every victim so far and the
    // new targets are gone.
    FitsCheck fits(const Entry& e) {
        std::set<int> merged = victims_;
        for (const auto& t : e.targets) merged.insert(t.wl);
        for (int w : merged) ctx_.remove_usage(w);
        QuotaView v = ctx_.view();
        FitsCheck out = FitsCheck::Ok;
        int node = m_.cqs[e.cq].node;
        for (const auto& [fr, q] : quota_of(e, e.a.usage))
            if (v.available(node, fr) < q) out = FitsCheck::NoQuota;
        if (out == FitsCheck::Ok && !placements_fit(m_, tas_net(e))) out = FitsCheck::NoTAS;
        for (int w : merged) ctx_.add_usage(w);
        return out;
    }

    // updateAssignmentIfNeeded (gates RecomputeAssignmentUponPreemptionTargetsOverlap
    // and TASRecomputeAssignmentWithinSchedulingCycle, both on).
    bool update_assignment_if_needed(Entry& e) {
        const FitsCheck first = fits(e);
        const bool overlap = overlaps(e.targets);
        if (!overlap && first != FitsCheck::NoTAS) return first == FitsCheck::Ok;
        Workload& w = m_.wls[e.wl];
        w.last.reset();
        NominationMap nomination;
        for (const auto& ps : e.a.podsets) {
            FlatMap<int> f;
            for (const auto& [res, fa] : ps.flavors) f.set(res, fa.flavor);
            nomination.push_back(std::move(f));
        }
        std::vector<int> removed;
        if (overlap) removed.assign(victims_.begin(), victims_.end());
        for (int v : removed) ctx_.remove_workload(v);
        e.a = get_assignments(ctx_, e.wl, e.cq, &nomination, e.targets);
        record(e);
        for (int v : removed) ctx_.add_workload(v);
        if (overlap && e.a.rep_mode() == Mode::Fit) e.a.set_rep_mode(Mode::DeferredFit);
        return fits(e) == FitsCheck::Ok;
    }

    // cq.AddUsage: the quota, and the TAS placements, join the snapshot.
    void add_usage(const Entry& e, const FlatMap<Amount>& quota) {
        ctx_.view().add_usage(m_.cqs[e.cq].node, quota_of(e, quota));
        std::vector<TasPlacement> p = tas_net(e);
        if (p.empty()) return;
        apply_placements(m_, p, 1, Scope::Snapshot);
        tas_added_.emplace_back(e.wl, std::move(p));
    }

    // resourcesToReserve for a Preempt entry without candidates.
    FlatMap<Amount> to_reserve(const Entry& e) {
        FlatMap<Amount> out;
        const QNode& n = m_.nodes[m_.cqs[e.cq].node];
        QuotaView v = ctx_.view();
        for (const auto& [fr, u] : e.a.usage) {
            Quota q = n.quotas.get(fr);
            Amount cq_usage = v.usage(m_.cqs[e.cq].node, fr);
            if (e.a.borrowing > 0) {
                out.set(fr, q.borrowing_limit ? std::min(u, amt_sub(amt_add(q.nominal, *q.borrowing_limit), cq_usage)) : u);
            } else {
                out.set(fr, std::max<Amount>(0, std::min(u, amt_sub(q.nominal, cq_usage))));
            }
        }
        return out;
    }

    void process(Entry& e) {
        const ClusterQueue& c = m_.cqs[e.cq];
        Workload& w = m_.wls[e.wl];
        if (halted_) {
            // The scheduler waits for pods ready (below): in Kueue the rest of
            // the cycle runs after the wait; here they go back to their queue
            // and are tried when the wait is over.
            e.rr = RequeueReason::FailedAfterNomination;
            e.qr_reason = w.reason;
            e.msg = w.message;
            return;
        }
        bool ok = update_assignment_if_needed(e);
        Mode mode = e.a.rep_mode();
        // TASFailedNodeReplacementFailFast (beta, on): no replacement for the
        // failed node in this pass evicts the workload.
        if (assignment_on_unhealthy_node(w) && mode != Mode::Fit) {
            evict_after_failed_replacement(e);
            return;
        }
        if (mode == Mode::NoFit) {
            e.rr = RequeueReason::NoFit;
            e.qr_reason = e.a.no_fit_reason;
            return;
        }
        if (mode == Mode::Preempt && e.targets.empty()) {
            e.rr = RequeueReason::NoCandidates;
            e.qr_reason = "WaitingForQuota";
            if (c.reclaim != Policy::Any) add_usage(e, to_reserve(e));  // !CanAlwaysReclaim
            return;
        }
        if (mode == Mode::DeferredFit) {
            e.msg = "Workload has overlapping preemption targets with another workload, but will fit after these preemptions complete";
            e.qr_reason = "WaitingForPreemptedWorkloads";
            e.rr = RequeueReason::PendingPreemption;
            w.last.reset();
            add_usage(e, e.a.usage);
            return;
        }
        if (overlaps(e.targets)) {
            e.status = EntryStatus::Skipped;
            e.msg = "Workload has overlapping preemption targets with another workload";
            e.qr_reason = "WaitingForQuota";
            return;
        }
        if (!ok) {
            e.status = EntryStatus::Skipped;
            e.msg = "Workload no longer fits after processing another workload";
            e.qr_reason = "WaitingForQuota";
            return;
        }
        for (const auto& t : e.targets) victims_.insert(t.wl);
        add_usage(e, e.a.usage);
        if (mode == Mode::Preempt) {
            e.qr_reason = "WaitingForPreemptedWorkloads";
            issue_preemptions(e);
            return;
        }
        if (m_.config.block_after_admission && admitted_any_ && !e.second) {
            // waitForPodsReady.blockAdmission (scheduler.go
            // waitForPodsReadyIfNeeded, Kueue ff69552e): a workload admitted
            // before (in this cycle, or earlier and still not ready) has pods
            // not ready, so the scheduler blocks before this admission. A
            // second pass is not held (NeedsSecondPass returns first).
            e.status = EntryStatus::Skipped;
            e.qr_reason = "WaitingForPodsReady";
            e.msg = "waiting for all admitted workloads to be in PodsReady condition";
            e.rr = RequeueReason::FailedAfterNomination;
            halted_ = true;
            out_.waiting_for_pods_ready = e.wl;
            return;
        }
        admit(e);
        admitted_any_ = true;
    }

    void issue_preemptions(Entry& e) {
        const Workload& pre = m_.wls[e.wl];
        int n = 0;
        for (const auto& t : e.targets) {
            Workload& victim = m_.wls[t.wl];
            ++n;
            if (victim.evicted) continue;  // preemption ongoing
            victim.evicted = true;
            victim.preempt_reason = t.reason;
            // Kueue's wording (pkg/scheduler/preemption, "Preempted to
            // accommodate a workload (UID: %s, JobUID: %s) due to %s"). Sample
            // workloads have no UID -- the API server assigns it -- so the
            // preemptor's namespace/name stands in for it: it names the
            // workload, which "UNKNOWN" did not. A missing job-uid label is
            // "UNKNOWN", as in Kueue.
            victim.preempt_message = "Preempted to accommodate a workload (UID: " +
                                     (pre.uid.empty() ? pre.ns + "/" + pre.name : pre.uid) +
                                     ", JobUID: " + (pre.job_uid.empty() ? std::string("UNKNOWN") : pre.job_uid) +
                                     ") due to " + human_reason(t.reason) + "; preemptor path: " + cq_path(m_, e.cq) +
                                     "; preemptee path: " + cq_path(m_, victim.adm_cq);
            if (victim.preempted_cycle == 0) victim.preempted_cycle = static_cast<int>(ctx_.cycle);
            out_.victims.push_back(t.wl);
            out_.preemptions.push_back({e.wl, t.wl, t.reason, cq_path(m_, e.cq), cq_path(m_, victim.adm_cq)});
        }
        m_.wls[e.wl].last.reset();
        if (n) {
            e.msg += ". Pending the preemption of " + std::to_string(n) + " workload(s)";
            e.rr = RequeueReason::PendingPreemption;
        }
    }

    // evictWorkloadAfterFailedTASReplacement: Evicted=True with reason
    // EvictedDueToNodeFailures; the quota stays reserved until the workload
    // controller releases it (between cycles).
    void evict_after_failed_replacement(Entry& e) {
        Workload& w = m_.wls[e.wl];
        std::string nodes;
        for (const auto& n : w.unhealthy_nodes) nodes += (nodes.empty() ? "" : ",") + n;
        w.evicted = true;
        w.evict_reason = "EvictedDueToNodeFailures";
        w.evict_message = "Workload was evicted as there was no replacement for unhealthy node(s): " + nodes;
        e.status = EntryStatus::Evicted;
        out_.node_failure_evicted.push_back(e.wl);
    }

    // The second pass's admission of a workload already holding quota: the
    // same quota, the placements completed (delayedTopologyRequest Ready) or
    // repaired (status.unhealthyNodes cleared).
    void admit_second_pass(Entry& e) {
        Workload& w = m_.wls[e.wl];
        e.status = EntryStatus::Assumed;
        replaced_.emplace_back(e.wl, w.placements);
        for (std::size_t i = 0; i < w.admission.size() && i < e.a.podsets.size(); ++i)
            w.admission[i].delayed = e.a.podsets[i].delayed;
        w.placements = tas_usage(m_, w, e.a);
        w.replaced_nodes = w.unhealthy_nodes;
        w.unhealthy_nodes.clear();
        // prepareWorkload: Admitted once every check is Ready.
        if (w.checks == 0 || w.checks_ready) w.admitted_cond = true;
        w.second_pass_cycle = static_cast<int>(ctx_.cycle);
        w.second_pass_message.clear();
        out_.second_pass.push_back(e.wl);
    }

    void admit(Entry& e) {
        Workload& w = m_.wls[e.wl];
        ClusterQueue& c = m_.cqs[e.cq];
        if (w.holds) {
            admit_second_pass(e);
            return;
        }
        e.status = EntryStatus::Assumed;
        w.holds = true;
        w.adm_cq = e.cq;
        w.admission.clear();
        w.usage.clear();
        for (const auto& ps : e.a.podsets) {
            PodSetTotal t;
            t.name = ps.name;
            t.count = ps.count;
            for (const auto& [res, fa] : ps.flavors) {
                t.flavors.set(res, fa.flavor);
                std::int64_t q = request_of(ps.requests, res);
                t.requests.emplace_back(res, q);
                Amount& u = w.usage.at(m_.find_fr(fa.flavor, res));
                u = amt_add_int(u, q);
            }
            m_.sort_requests(t.requests);
            w.admission.push_back(std::move(t));
        }
        for (std::size_t i = 0; i < w.admission.size() && i < e.a.podsets.size(); ++i)
            w.admission[i].delayed = e.a.podsets[i].delayed;
        w.placements = tas_usage(m_, w, e.a);
        // Admitted as well unless admission checks are still to pass.
        w.admitted_cond = !c.has_checks || (w.checks > 0 && w.checks_ready);
        w.reserved_at = now_;
        w.evicted = false;  // SetQuotaReservation resets Evicted/Preempted
        w.borrowing = e.a.borrowing > 0;
        w.admitted_cycle = static_cast<int>(ctx_.cycle);
        w.reason.clear();
        w.message.clear();
        w.snap_present = false;  // assumed in the cache, not in this snapshot
        w.cq_pos = static_cast<int>(c.workloads.size());
        c.workloads.push_back(e.wl);
        QuotaView(m_, cache_).add_usage(c.node, w.usage);
        out_.admitted.push_back(e.wl);
    }

    void requeue_and_update(Entry& e) {
        if (e.status != EntryStatus::NotNominated && e.rr == RequeueReason::Generic)
            e.rr = RequeueReason::FailedAfterNomination;
        Workload& w = m_.wls[e.wl];
        if (w.holds) {
            // QueueSecondPassIfNeeded: back to the second-pass queue with the
            // next backoff (event SecondPassFailed); a workload holding quota
            // never goes back to its ClusterQueue's heap.
            if (sp_ && sp_->queue_if_needed(m_, e.wl, e.iteration, now_)) w.second_pass_message = e.msg;
            return;
        }
        queues_.requeue(e.wl, e.rr, e.qr_reason);
        w.reason = e.qr_reason;
        w.message = e.msg;
    }

    Model& m_;
    Queues& queues_;
    QuotaState& cache_;
    QuotaState snap_;
    SchedCtx ctx_;
    std::int64_t now_;
    std::vector<Entry> entries_, rejected_;
    std::set<int> victims_;
    bool admitted_any_ = false, halted_ = false;
    std::vector<std::pair<int, std::vector<TasPlacement>>> tas_added_;
    std::vector<std::pair<int, std::vector<TasPlacement>>> replaced_;  // second passes: old placements
    SecondPassQueue* sp_ = nullptr;
    CycleOutcome out_;
};

}  // namespace

CycleOutcome run_cycle(Model& m, Queues& queues, QuotaState& cache, std::int64_t cycle, std::int64_t now,
                       SecondPassQueue* second_pass) {
    Cycle c(m, queues, cache, cycle, now, second_pass);
    return c.run();
}

}  // namespace queueforge::scheduler::detail
