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
#include <set>

namespace queueforge::scheduler::detail {

namespace {

enum class EntryStatus { NotNominated, Skipped, Assumed };
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
    Cycle(Model& m, Queues& q, QuotaState& cache, std::int64_t cycle, std::int64_t now)
        : m_(m), queues_(q), cache_(cache), snap_(cache), ctx_{m, snap_, cycle}, now_(now) {}

    CycleOutcome run() {
        admitted_any_ = m_.config.block_after_admission && m_.config.pods_not_ready;
        auto heads = queues_.heads();
        nominate(heads);
        std::vector<int> order;
        if (m_.config.fair_sharing) {
            std::vector<FsEntry> fs;
            for (const auto& e : entries_) fs.push_back({e.cq, e.wl, &e.a.usage});
            std::vector<int> remaining(entries_.size());
            for (std::size_t i = 0; i < remaining.size(); ++i) remaining[i] = static_cast<int>(i);
            while (!remaining.empty()) process(entries_[fair_sharing_pop(ctx_, fs, remaining)]);
        } else {
            // classicalIterator: borrowing level, priority, queue order
            // timestamp; ties keep the heads' order (ClusterQueue name).
            std::stable_sort(entries_.begin(), entries_.end(), [&](const Entry& a, const Entry& b) {
                if (a.a.borrowing != b.a.borrowing) return a.a.borrowing < b.a.borrowing;
                const Workload& wa = m_.wls[a.wl];
                const Workload& wb = m_.wls[b.wl];
                if (wa.priority != wb.priority) return wa.priority > wb.priority;
                return wa.order_ts < wb.order_ts;
            });
            for (auto& e : entries_) process(e);
        }
        for (auto& e : entries_)
            if (e.status != EntryStatus::Assumed) requeue_and_update(e);
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
        return std::move(out_);
    }

private:
    void nominate(const std::vector<std::pair<int, int>>& heads) {
        for (const auto& [cq, wl] : heads) {
            Entry e;
            e.wl = wl;
            e.cq = cq;
            const ClusterQueue& c = m_.cqs[cq];
            Workload& w = m_.wls[wl];
            if (c.in_cycle) {
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
        for (const auto& [fr, q] : e.a.usage)
            if (v.available(node, fr) < q) out = FitsCheck::NoQuota;
        if (out == FitsCheck::Ok && !placements_fit(m_, tas_usage(m_, m_.wls[e.wl], e.a))) out = FitsCheck::NoTAS;
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
        ctx_.view().add_usage(m_.cqs[e.cq].node, quota);
        std::vector<TasPlacement> p = tas_usage(m_, m_.wls[e.wl], e.a);
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
        if (m_.config.block_after_admission && admitted_any_) {
            // waitForPodsReady.blockAdmission (scheduler.go
            // waitForPodsReadyIfNeeded, Kueue ff69552e): a workload admitted
            // before (in this cycle, or earlier and still not ready) has pods
            // not ready, so the scheduler blocks before this admission.
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

    void admit(Entry& e) {
        Workload& w = m_.wls[e.wl];
        ClusterQueue& c = m_.cqs[e.cq];
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
        w.placements = tas_usage(m_, w, e.a);
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
        queues_.requeue(e.wl, e.rr, e.qr_reason);
        Workload& w = m_.wls[e.wl];
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
    CycleOutcome out_;
};

}  // namespace

CycleOutcome run_cycle(Model& m, Queues& queues, QuotaState& cache, std::int64_t cycle, std::int64_t now) {
    Cycle c(m, queues, cache, cycle, now);
    return c.run();
}

}  // namespace queueforge::scheduler::detail
