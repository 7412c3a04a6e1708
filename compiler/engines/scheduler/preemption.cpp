// Classical preemption: candidate collection and classification
// (classical/hierarchical_preemption.go, candidate_generator.go), ordering
// (common/ordering.go), the borrow/no-borrow attempts, the search with
// fill-back (preemption.go) and the flavor assigner's oracle
// (preemption_oracle.go). kueue-semantics.md 5.7.
#include "engines/scheduler/preemption.hpp"

#include "engines/scheduler/tas.hpp"

#include <algorithm>

namespace queueforge::scheduler::detail {

// Quota and TAS usage together, as Kueue's snapshot adds and removes a
// workload's Usage{Quota, TAS}.
void SchedCtx::remove_workload(int w) {
    m.wls[w].snap_present = false;
    remove_usage(w);
}
void SchedCtx::add_workload(int w) {
    m.wls[w].snap_present = true;
    add_usage(w);
}
void SchedCtx::remove_usage(int w) {
    view().remove_usage(m.cqs[m.wls[w].adm_cq].node, m.wls[w].usage);
    apply_placements(m, m.wls[w].placements, -1, Scope::Snapshot);
}
void SchedCtx::add_usage(int w) {
    view().add_usage(m.cqs[m.wls[w].adm_cq].node, m.wls[w].usage);
    apply_placements(m, m.wls[w].placements, 1, Scope::Snapshot);
}

bool uses_resources(const Model& m, const Workload& w, const std::vector<int>& frs) {
    for (const auto& ps : w.admission)
        for (const auto& [res, f] : ps.flavors) {
            int fr = m.find_fr(f, res);
            if (fr >= 0 && std::binary_search(frs.begin(), frs.end(), fr)) return true;
        }
    return false;
}

bool satisfies_policy(const Workload& preemptor, const Workload& cand, Policy p) {
    bool lower = preemptor.priority > cand.priority;
    if (p == Policy::LowerPriority) return lower;
    if (p == Policy::LowerOrNewerEqualPriority)
        return lower || (preemptor.priority == cand.priority && preemptor.order_ts < cand.order_ts);
    return p == Policy::Any;
}

int compare_candidates(const Model& m, const Workload& a, const Workload& b, int preemptor_cq) {
    if (a.evicted != b.evicted) return a.evicted ? -1 : 1;
    bool a_own = a.adm_cq == preemptor_cq, b_own = b.adm_cq == preemptor_cq;
    if (a_own != b_own) return a_own ? 1 : -1;
    // Admission fair sharing (resourceUsagePreemptionEnabled): same
    // ClusterQueue, different LocalQueue names, both with a LocalQueue usage
    // (a usage-based ClusterQueue): the higher usage goes first.
    if (a.adm_cq == b.adm_cq && a.queue_name != b.queue_name && m.afs.enabled_for_cq(m, a.adm_cq)) {
        const double ua = m.afs.usage(m, a.lq), ub = m.afs.usage(m, b.lq);
        if (ua != ub) return ua > ub ? -1 : 1;
    }
    if (a.priority != b.priority) return a.priority < b.priority ? -1 : 1;
    if (a.reserved_at != b.reserved_at) return a.reserved_at > b.reserved_at ? -1 : 1;  // most recent first
    if (a.uid != b.uid) return a.uid < b.uid ? -1 : 1;
    return a.key < b.key ? -1 : (a.key > b.key ? 1 : 0);  // Go leaves this tie unordered
}

void restore(SchedCtx& ctx, const std::vector<Target>& targets) {
    for (const auto& t : targets) ctx.add_workload(t.wl);
}

bool workload_fits(SchedCtx& ctx, const PreemptionCtx& p, bool allow_borrow) {
    QuotaView v = ctx.view();
    int node = ctx.m.cqs[p.cq].node;
    for (const auto& [fr, val] : p.usage) {
        if (!allow_borrow && v.borrowing_with(node, fr, val)) return false;
        if (val > v.available(node, fr)) return false;
    }
    return !p.assignment || tas_fits_with(ctx.m, ctx.m.wls[p.wl], ctx.m.cqs[p.cq], *p.assignment);
}

std::vector<Target> fill_back(SchedCtx& ctx, const PreemptionCtx& p, std::vector<Target> targets, bool allow_borrow) {
    for (int i = static_cast<int>(targets.size()) - 2; i >= 0; --i) {
        ctx.add_workload(targets[i].wl);
        if (workload_fits(ctx, p, allow_borrow)) {
            targets[i] = targets.back();
            targets.pop_back();
        } else {
            ctx.remove_workload(targets[i].wl);
        }
    }
    return targets;
}

namespace {

enum class Variant { Never, WithinCQ, HierarchicalReclaim, ReclaimWithoutBorrowing, ReclaimWhileBorrowing };

const char* variant_reason(Variant v) {
    switch (v) {
    case Variant::WithinCQ: return "InClusterQueue";
    case Variant::ReclaimWhileBorrowing: return "InCohortReclaimWhileBorrowing";
    case Variant::HierarchicalReclaim:
    case Variant::ReclaimWithoutBorrowing: return "InCohortReclamation";
    default: return "Unknown";
    }
}

struct Candidate {
    int wl;
    int lca;  // node id of the subtree root it was found under (-1 for own CQ)
    Variant variant;
};

Variant classify(const Model& m, const PreemptionCtx& p, const Workload& cand, bool hier_advantage) {
    if (!uses_resources(m, cand, p.frs)) return Variant::Never;
    const ClusterQueue& cq = m.cqs[p.cq];
    const Workload& pre = m.wls[p.wl];
    bool own = cand.adm_cq == p.cq;
    if (!satisfies_policy(pre, cand, own ? cq.within : cq.reclaim)) return Variant::Never;
    if (own) return Variant::WithinCQ;
    if (hier_advantage) return Variant::HierarchicalReclaim;
    if (!cq.bwc) return Variant::ReclaimWithoutBorrowing;
    // isAboveBorrowingThreshold
    if (cand.priority >= pre.priority || (cq.bwc_threshold && cand.priority > *cq.bwc_threshold))
        return Variant::ReclaimWithoutBorrowing;
    return Variant::ReclaimWhileBorrowing;
}

void candidates_from_cq(const Model& m, const PreemptionCtx& p, int cq, int lca, bool adv, std::vector<Candidate>& out) {
    for (int w : m.cqs[cq].workloads) {
        const Workload& cand = m.wls[w];
        if (!cand.snap_present) continue;
        Variant v = classify(m, p, cand, adv);
        if (v != Variant::Never) out.push_back({w, lca, v});
    }
}

void collect_in_subtree(const Model& m, QuotaView& v, const PreemptionCtx& p, int current, int subtree_root, int skip,
                        bool adv, std::vector<Candidate>& out) {
    for (int child : m.nodes[current].child_cohorts) {
        if (child == skip || v.within_nominal(child, p.frs)) continue;
        collect_in_subtree(m, v, p, child, subtree_root, skip, adv, out);
    }
    int own_node = m.cqs[p.cq].node;
    for (int child : m.nodes[current].child_cqs) {
        if (child == own_node) continue;
        if (!v.within_nominal(child, p.frs)) candidates_from_cq(m, p, m.nodes[child].cq, subtree_root, adv, out);
    }
}

}  // namespace

std::vector<Target> classical_preemptions(SchedCtx& ctx, const PreemptionCtx& p) {
    const Model& m = ctx.m;
    const ClusterQueue& cq = m.cqs[p.cq];
    QuotaView v = ctx.view();
    std::vector<Candidate> same, hier, prio;
    if (cq.within != Policy::Never) candidates_from_cq(m, p, p.cq, -1, false, same);
    if (m.nodes[cq.node].parent >= 0 && cq.reclaim != Policy::Never) {
        FlatMap<Amount> remaining;
        bool adv = v.fits_in_quota(cq.node, p.usage, remaining);
        int prev = -1;
        for (int cur = m.nodes[cq.node].parent; cur >= 0; cur = m.nodes[cur].parent) {
            collect_in_subtree(m, v, p, cur, cur, prev, adv, adv ? hier : prio);
            FlatMap<Amount> next;
            bool fits = v.fits_in_quota(cur, remaining, next);
            remaining = std::move(next);
            adv = adv || fits;
            prev = cur;
        }
    }
    auto order = [&](const Candidate& a, const Candidate& b) {
        return compare_candidates(m, m.wls[a.wl], m.wls[b.wl], p.cq) < 0;
    };
    std::sort(same.begin(), same.end(), order);
    std::sort(hier.begin(), hier.end(), order);
    std::sort(prio.begin(), prio.end(), order);
    std::vector<Candidate> all;
    for (bool evicted : {true, false})
        for (auto* list : {&hier, &prio, &same})
            for (const auto& c : *list)
                if (m.wls[c.wl].evicted == evicted) all.push_back(c);

    bool no_other = hier.empty() && prio.empty();
    bool forbidden = !cq.bwc;
    // queueUnderNominalInResourcesNeedingPreemption: usage < nominal on all.
    bool under_nominal = true;
    for (int fr : p.frs)
        if (m.nodes[cq.node].quotas.get(fr).nominal <= v.usage(cq.node, fr)) under_nominal = false;
    std::vector<bool> attempts;
    if (no_other || (forbidden && !under_nominal)) attempts = {true};
    else if (forbidden && hier.empty()) attempts = {false, true};
    else attempts = {true, false};

    for (bool allow_borrow : attempts) {
        std::vector<Target> targets;
        for (const auto& c : all) {
            const Workload& cand = m.wls[c.wl];
            if (cand.adm_cq != p.cq) {
                // candidateIsValid, evaluated against the current simulation.
                if (allow_borrow && c.variant == Variant::ReclaimWithoutBorrowing) continue;
                int cnode = m.cqs[cand.adm_cq].node;
                if (v.within_nominal(cnode, p.frs)) continue;
                bool ok = true;
                for (int n = m.nodes[cnode].parent; n >= 0 && n != c.lca; n = m.nodes[n].parent)
                    if (v.within_nominal(n, p.frs)) {
                        ok = false;
                        break;
                    }
                if (!ok) continue;
            }
            ctx.remove_workload(c.wl);
            targets.push_back({c.wl, variant_reason(c.variant)});
            if (workload_fits(ctx, p, allow_borrow)) {
                targets = fill_back(ctx, p, std::move(targets), allow_borrow);
                restore(ctx, targets);
                return targets;
            }
        }
        restore(ctx, targets);
    }
    return {};
}

std::vector<Target> get_targets(SchedCtx& ctx, int wl, const Assignment& a) {
    const Model& m = ctx.m;
    const Workload& w = m.wls[wl];
    PreemptionCtx p;
    p.wl = wl;
    p.cq = w.queue_cq;
    if (m.cqs[p.cq].has_tas) p.assignment = &a;
    for (const auto& ps : a.podsets)
        for (const auto& [res, fa] : ps.flavors)
            if (fa.mode == Mode::Preempt) p.frs.push_back(m.find_fr(fa.flavor, res));
    std::sort(p.frs.begin(), p.frs.end());
    p.frs.erase(std::unique(p.frs.begin(), p.frs.end()), p.frs.end());
    // Assignment.TotalRequestsFor: the workload's requests (without the
    // implicit `pods`) scaled to the assigned counts, zero requests skipped.
    for (std::size_t i = 0; i < w.pending_totals.size() && i < a.podsets.size(); ++i) {
        const PodSetTotal& t = w.pending_totals[i];
        std::int32_t count = a.podsets[i].count;
        for (const auto& [res, q0] : t.requests) {
            std::int64_t q = q0;
            if (t.count != 0 && t.count != count) q = sat_mul(q / t.count, count);
            if (q == 0) continue;
            const FlavorAssignment* fa = a.podsets[i].flavors.find(res);
            if (!fa) continue;
            int fr = m.find_fr(fa->flavor, res);
            Amount& u = p.usage.at(fr);
            u = amt_add_int(u, q);
        }
    }
    return m.config.fair_sharing ? fair_preemptions(ctx, p) : classical_preemptions(ctx, p);
}

std::pair<PMode, int> simulate_preemption(SchedCtx& ctx, int wl, int fr, Amount quantity) {
    const Model& m = ctx.m;
    PreemptionCtx p;
    p.wl = wl;
    p.cq = m.wls[wl].queue_cq;
    p.frs = {fr};
    p.usage.set(fr, quantity);
    std::vector<Target> targets = m.config.fair_sharing ? fair_preemptions(ctx, p) : classical_preemptions(ctx, p);
    int node = m.cqs[p.cq].node;
    if (targets.empty()) return {PMode::NoCandidates, ctx.view().find_height(node, fr, quantity).first};
    for (const auto& t : targets) ctx.remove_usage(t.wl);
    int borrow = ctx.view().find_height(node, fr, quantity).first;
    for (const auto& t : targets) ctx.add_usage(t.wl);
    for (const auto& t : targets)
        if (m.wls[t.wl].adm_cq == p.cq) return {PMode::Preempt, borrow};
    return {PMode::Reclaim, borrow};
}

}  // namespace queueforge::scheduler::detail
