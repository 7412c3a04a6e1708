// DRS and the fair-sharing tournament, following fair_sharing.go and
// fair_sharing_iterator.go (gates FairSharingPrioritizeNonBorrowing and
// PrioritySortingWithinCohort on, PrioritizePreemptorWorkloads off).
#include "engines/scheduler/fair_sharing.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>

namespace queueforge::scheduler::detail {

double DRS::precise() const {
    if (is_zero()) return 0.0;
    if (weight == 0) return std::numeric_limits<double>::infinity();
    return ratio / weight;
}

bool DRS::borrowing_on(const FlatMap<Amount>& requested) const {
    for (int fr : borrowed_frs)
        if (requested.get(fr) > 0) return true;
    return false;
}

DRS negative_drs() {
    DRS d;
    d.ratio = -1;
    return d;
}

int compare_drs(const DRS& a, const DRS& b) {
    auto cmp = [](double x, double y) { return x < y ? -1 : (x > y ? 1 : 0); };
    if (a.zero_weight_borrows() && b.zero_weight_borrows()) return cmp(a.ratio, b.ratio);
    if (a.zero_weight_borrows()) return 1;
    if (b.zero_weight_borrows()) return -1;
    return cmp(a.precise(), b.precise());
}

DRS dominant_resource_share(QuotaView& v, int node, const FlatMap<Amount>* request) {
    const Model& m = v.model();
    const QNode& n = m.nodes[node];
    DRS drs;
    drs.weight = n.weight;
    if (n.parent < 0) return drs;
    std::map<int, Amount> borrowed;  // resource id -> amount
    for (const auto& [fr, quota] : n.subtree) {
        Amount req = request ? request->get(fr) : 0;
        Amount b = amt_sub(amt_add(req, v.usage(node, fr)), quota);
        if (b > 0) {
            Amount& x = borrowed[m.fr_resource(fr)];
            x = amt_add(x, b);
            drs.borrowed_frs.push_back(fr);
        }
    }
    if (borrowed.empty()) return drs;
    drs.borrowing = true;
    // calculateLendable(parent): potentialAvailable of the parent for every FR
    // in the root's subtree, summed per resource.
    int root = m.root_of(n.parent);
    std::map<int, Amount> lendable;
    for (const auto& [fr, q] : m.nodes[root].subtree) {
        Amount& x = lendable[m.fr_resource(fr)];
        x = amt_add(x, v.potential_available(n.parent, fr));
    }
    for (const auto& [res, b] : borrowed) {
        Amount lr = lendable.count(res) ? lendable[res] : 0;
        if (lr <= 0) continue;
        double ratio = static_cast<double>(b) * 1000.0 / static_cast<double>(lr);
        const std::string& name = m.res_name(res);
        if (ratio > drs.ratio || (ratio == drs.ratio && name < drs.dominant)) {
            drs.ratio = ratio;
            drs.dominant = name;
        }
    }
    return drs;
}

namespace {

struct Comparer {
    const Model& m;
    std::map<std::pair<int, int>, DRS> drs;  // (parent cohort node, entry) -> DRS
    std::map<int, const FlatMap<Amount>*> requested;

    // entryComparer.less
    bool less(const std::vector<FsEntry>& es, int a, int b, int parent) const {
        const DRS& da = drs.at({parent, a});
        const DRS& db = drs.at({parent, b});
        bool ab = da.borrowing_on(*requested.at(a)), bb = db.borrowing_on(*requested.at(b));
        if (ab != bb) return !ab;
        if (int c = compare_drs(da, db); c != 0) return c < 0;
        const Workload& wa = m.wls[es[a].wl];
        const Workload& wb = m.wls[es[b].wl];
        if (wa.priority != wb.priority) return wa.priority > wb.priority;
        return wa.order_ts < wb.order_ts;
    }
};

void subtree_cqs(const Model& m, int cohort, std::vector<int>& out) {
    for (int c : m.nodes[cohort].child_cqs) out.push_back(m.nodes[c].cq);
    for (int c : m.nodes[cohort].child_cohorts) subtree_cqs(m, c, out);
}

int tournament(const Model& m, int cohort, const Comparer& cmp, const std::vector<FsEntry>& es,
               const std::map<int, int>& by_cq) {
    std::vector<int> candidates;
    for (int child : m.nodes[cohort].child_cohorts)
        if (int w = tournament(m, child, cmp, es, by_cq); w >= 0) candidates.push_back(w);
    for (int child : m.nodes[cohort].child_cqs)
        if (auto it = by_cq.find(m.nodes[child].cq); it != by_cq.end()) candidates.push_back(it->second);
    if (candidates.empty()) return -1;
    int best = candidates[0];
    for (std::size_t i = 1; i < candidates.size(); ++i)
        if (cmp.less(es, candidates[i], best, cohort)) best = candidates[i];
    return best;
}

}  // namespace

int fair_sharing_pop(SchedCtx& ctx, const std::vector<FsEntry>& entries, std::vector<int>& remaining) {
    const Model& m = ctx.m;
    // Go picks an arbitrary ClusterQueue; trees do not share quota, so the
    // first remaining entry is as good and deterministic.
    int first = remaining.front();
    int node = m.cqs[entries[first].cq].node;
    int chosen = first;
    if (m.nodes[node].parent >= 0) {
        int root = m.root_of(node);
        std::map<int, int> by_cq;  // cq -> entry
        for (int e : remaining) by_cq[entries[e].cq] = e;
        std::vector<int> cqs;
        subtree_cqs(m, root, cqs);
        Comparer cmp{m, {}, {}};
        QuotaView v = ctx.view();
        for (int cq : cqs) {
            auto it = by_cq.find(cq);
            if (it == by_cq.end()) continue;
            int e = it->second;
            int cq_node = m.cqs[cq].node;
            v.add_usage(cq_node, *entries[e].usage);
            cmp.requested[e] = entries[e].usage;
            DRS d = dominant_resource_share(v, cq_node);
            for (int a = m.nodes[cq_node].parent; a >= 0; a = m.nodes[a].parent) {
                cmp.drs[{a, e}] = d;
                d = dominant_resource_share(v, a);
            }
            v.remove_usage(cq_node, *entries[e].usage);
        }
        int w = tournament(m, root, cmp, entries, by_cq);
        if (w >= 0) chosen = w;
    }
    remaining.erase(std::find(remaining.begin(), remaining.end(), chosen));
    return chosen;
}

}  // namespace queueforge::scheduler::detail
