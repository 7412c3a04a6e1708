// Preemption with fair sharing (kueue-semantics.md 5.8.3; preemption.go
// fairPreemptions/runFirstFsStrategy/runSecondFsStrategy and
// preemption/fairsharing ordering.go, target.go, strategy.go,
// least_common_ancestor.go), gate FairSharingPreemptWithinNominal on.
#include "engines/scheduler/fair_sharing.hpp"
#include "engines/scheduler/preemption.hpp"

#include <algorithm>
#include <cmath>
#include <deque>
#include <map>
#include <set>

namespace queueforge::scheduler::detail {

namespace {

// TargetClusterQueueOrdering: walks the cohort tree from the root towards the
// ClusterQueue with the highest DRS that still borrows and has candidates.
class Ordering {
public:
    Ordering(SchedCtx& ctx, const PreemptionCtx& p, const std::vector<int>& candidates)
        : ctx_(ctx), m_(ctx.m), p_(p), pre_node_(ctx.m.cqs[p.cq].node) {
        for (int a = m_.nodes[pre_node_].parent; a >= 0; a = m_.nodes[a].parent) ancestors_.insert(a);
        for (int c : candidates) queue_[m_.cqs[m_.wls[c].adm_cq].node].push_back(c);
    }

    // Iter(): the next target CQ node, or -1 when exhausted.
    int next() {
        if (m_.nodes[pre_node_].parent < 0) {
            if (pruned_cqs_.count(pre_node_) || !has_workload(pre_node_)) return -1;
            return pre_node_;
        }
        int root = m_.root_of(pre_node_);
        while (!pruned_cohorts_.count(root)) {
            int t = next_target(root);
            if (t >= 0) return t;
        }
        return -1;
    }
    bool has_workload(int cq_node) const {
        auto it = queue_.find(cq_node);
        return it != queue_.end() && !it->second.empty();
    }
    int pop(int cq_node) {
        int w = queue_[cq_node].front();
        queue_[cq_node].pop_front();
        return w;
    }
    void drop(int cq_node) { pruned_cqs_.insert(cq_node); }

    // getAlmostLCAs: the children of the lowest common ancestor on the
    // preemptor's and on the target's side.
    std::pair<int, int> almost_lcas(int target_node) const {
        int lca = -1;
        for (int a = m_.nodes[target_node].parent; a >= 0; a = m_.nodes[a].parent)
            if (ancestors_.count(a)) {
                lca = a;
                break;
            }
        auto almost = [&](int node) {
            int prev = node;
            for (int a = m_.nodes[node].parent; a >= 0; a = m_.nodes[a].parent) {
                if (a == lca) return prev;
                prev = a;
            }
            return prev;
        };
        return {almost(pre_node_), almost(target_node)};
    }

private:
    DRS drs(int node) {
        QuotaView v = ctx_.view();
        return dominant_resource_share(v, node);
    }

    int next_target(int cohort) {
        int best_cq = -1;
        DRS best_cq_drs = negative_drs();
        for (int cq : m_.nodes[cohort].child_cqs) {
            if (pruned_cqs_.count(cq)) continue;
            DRS d = drs(cq);
            if ((!d.borrowing && cq != pre_node_) || !has_workload(cq)) {
                pruned_cqs_.insert(cq);
            } else if (int c = compare_drs(d, best_cq_drs); c == 0 && best_cq >= 0) {
                const Workload& nw = m_.wls[queue_[cq].front()];
                const Workload& cw = m_.wls[queue_[best_cq].front()];
                if (compare_candidates(m_, nw, cw, p_.cq) < 0) best_cq = cq;
            } else if (c > 0 || (c == 0 && best_cq < 0)) {
                best_cq_drs = d;
                best_cq = cq;
            }
        }
        int best_cohort = -1;
        DRS best_cohort_drs = negative_drs();
        for (int ch : m_.nodes[cohort].child_cohorts) {
            if (pruned_cohorts_.count(ch)) continue;
            DRS d = drs(ch);
            if (!d.borrowing && !ancestors_.count(ch)) {
                pruned_cohorts_.insert(ch);
            } else if (compare_drs(d, best_cohort_drs) >= 0) {
                best_cohort_drs = d;
                best_cohort = ch;
            }
        }
        if (best_cohort < 0 && best_cq < 0) {
            pruned_cohorts_.insert(cohort);
            return -1;
        }
        if (best_cohort >= 0 && compare_drs(best_cohort_drs, best_cq_drs) >= 0) return next_target(best_cohort);
        return best_cq;
    }

    SchedCtx& ctx_;
    const Model& m_;
    const PreemptionCtx& p_;
    int pre_node_;
    std::set<int> ancestors_;
    std::map<int, std::deque<int>> queue_;
    std::set<int> pruned_cqs_, pruned_cohorts_;
};

bool fits_for_fair_sharing(SchedCtx& ctx, const PreemptionCtx& p) {
    int node = ctx.m.cqs[p.cq].node;
    ctx.view().remove_usage(node, p.usage);
    bool ok = workload_fits(ctx, p, true);
    ctx.view().add_usage(node, p.usage);
    return ok;
}

bool cq_borrowing_on(SchedCtx& ctx, int cq_node, const std::vector<int>& frs) {
    QuotaView v = ctx.view();
    if (ctx.m.nodes[cq_node].parent < 0) return false;
    for (int fr : frs)
        if (v.borrowing_with(cq_node, fr, 0)) return true;
    return false;
}

void subtree_cq_nodes(const Model& m, int cohort, std::vector<int>& out) {
    for (int c : m.nodes[cohort].child_cqs) out.push_back(c);
    for (int c : m.nodes[cohort].child_cohorts) subtree_cq_nodes(m, c, out);
}

bool strategy_passes(int strategy, const DRS& pre_new, const DRS& target_old, const DRS& target_new) {
    if (strategy == 0) return compare_drs(pre_new, target_new) <= 0;  // LessThanOrEqualToFinalShare
    return compare_drs(pre_new, target_old) < 0;                     // LessThanInitialShare
}

}  // namespace

std::vector<Target> fair_preemptions(SchedCtx& ctx, const PreemptionCtx& p) {
    const Model& m = ctx.m;
    const ClusterQueue& cq = m.cqs[p.cq];
    const Workload& pre = m.wls[p.wl];
    // findCandidates
    std::vector<int> candidates;
    auto take = [&](int cq_idx, Policy policy) {
        for (int w : m.cqs[cq_idx].workloads) {
            const Workload& cand = m.wls[w];
            if (cand.snap_present && satisfies_policy(pre, cand, policy) && uses_resources(m, cand, p.frs))
                candidates.push_back(w);
        }
    };
    if (cq.within != Policy::Never) take(p.cq, cq.within);
    if (m.nodes[cq.node].parent >= 0 && cq.reclaim != Policy::Never) {
        std::vector<int> nodes;
        subtree_cq_nodes(m, m.root_of(cq.node), nodes);
        for (int n : nodes) {
            if (n == cq.node || !cq_borrowing_on(ctx, n, p.frs)) continue;
            take(m.nodes[n].cq, cq.reclaim);
        }
    }
    if (candidates.empty()) return {};
    std::sort(candidates.begin(), candidates.end(),
              [&](int a, int b) { return compare_candidates(m, m.wls[a], m.wls[b], p.cq) < 0; });

    QuotaView v = ctx.view();
    v.add_usage(cq.node, p.usage);  // SimulateUsageAddition
    std::vector<Target> targets;
    std::vector<int> retry;
    bool fits = false;
    {
        Ordering ord(ctx, p, candidates);
        bool within_nominal = true;  // queueWithinNominalInResourcesNeedingPreemption
        for (int fr : p.frs)
            if (v.borrowing_with(cq.node, fr, 0)) within_nominal = false;
        const int strategy = m.config.strategies.empty() ? 0 : m.config.strategies[0];
        for (int t = ord.next(); t >= 0 && !fits; t = ord.next()) {
            if (t == cq.node) {
                int w = ord.pop(t);
                ctx.remove_workload(w);
                targets.push_back({w, "InClusterQueue"});
                fits = fits_for_fair_sharing(ctx, p);
                continue;
            }
            if (within_nominal) {
                int w = ord.pop(t);
                ctx.remove_workload(w);
                targets.push_back({w, "InCohortReclamation"});
                fits = fits_for_fair_sharing(ctx, p);
                continue;
            }
            auto [pa, ta] = ord.almost_lcas(t);
            DRS pre_new = dominant_resource_share(v, pa);
            DRS target_old = dominant_resource_share(v, ta);
            if (std::isinf(pre_new.precise()) && !std::isinf(target_old.precise())) {
                while (ord.has_workload(t)) retry.push_back(ord.pop(t));
                continue;
            }
            while (ord.has_workload(t)) {
                int w = ord.pop(t);
                ctx.remove_usage(w);
                DRS target_new = dominant_resource_share(v, ta);
                ctx.add_usage(w);
                if (strategy_passes(strategy, pre_new, target_old, target_new)) {
                    ctx.remove_workload(w);
                    targets.push_back({w, "InCohortFairSharing"});
                    fits = fits_for_fair_sharing(ctx, p);
                    break;
                }
                retry.push_back(w);
            }
        }
    }
    if (!fits && m.config.strategies.size() > 1) {
        Ordering ord(ctx, p, retry);
        for (int t = ord.next(); t >= 0 && !fits; t = ord.next()) {
            auto [pa, ta] = ord.almost_lcas(t);
            DRS pre_new = dominant_resource_share(v, pa);
            DRS target_old = dominant_resource_share(v, ta);
            bool passed = compare_drs(pre_new, target_old) < 0;  // LessThanInitialShare
            int w = ord.pop(t);
            if (passed) {
                ctx.remove_workload(w);
                targets.push_back({w, "InCohortFairSharing"});
                fits = fits_for_fair_sharing(ctx, p);
                if (fits) break;
            }
            ord.drop(t);
        }
    }
    v.remove_usage(cq.node, p.usage);
    if (!fits) {
        restore(ctx, targets);
        return {};
    }
    targets = fill_back(ctx, p, std::move(targets), true);
    restore(ctx, targets);
    return targets;
}

}  // namespace queueforge::scheduler::detail
