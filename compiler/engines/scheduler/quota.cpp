// Quota math on the CQ/Cohort tree, following pkg/cache/scheduler/
// resource_node.go line by line (kueue-semantics.md 5.4). Every recursion
// walks parent links, which the model guarantees to be acyclic (cohorts in a
// cycle are detached, their ClusterQueues inactive), so depth <= #cohorts.
#include "engines/scheduler/quota.hpp"

namespace queueforge::scheduler::detail {

// localQuota and potentialAvailable do not depend on usage: the model's
// tree holds them (model/quota_tree.cpp).
Amount QuotaView::local_quota(int node, int fr) const { return m_.nodes[node].local_quota(fr); }

Amount QuotaView::local_available(int node, int fr) const {
    return std::max<Amount>(0, amt_sub(local_quota(node, fr), usage(node, fr)));
}

// The recursions of resource_node.go, unrolled into walks up the parent
// links (a deep cohort chain must not exhaust the stack).
Amount QuotaView::available_raw(int node, int fr) const {
    int path_small[32];
    std::vector<int> path_big;
    int* path = path_small;
    int len = 0;
    for (int cur = node; cur >= 0; cur = m_.nodes[cur].parent) {
        if (len == 32 && path == path_small) {
            path_big.assign(path_small, path_small + 32);
            path = nullptr;
        }
        if (path) path[len] = cur;
        else path_big.push_back(cur);
        ++len;
    }
    auto at = [&](int i) { return path ? path[i] : path_big[i]; };
    int root = at(len - 1);
    Amount avail = amt_sub(m_.nodes[root].subtree.get(fr), usage(root, fr));
    for (int i = len - 2; i >= 0; --i) {
        int n = at(i);
        const QNode& q = m_.nodes[n];
        Amount parent_available = avail;
        const Quota* quota = q.quotas.find(fr);
        if (quota && quota->borrowing_limit) {
            Amount lq = local_quota(n, fr);
            Amount stored_in_parent = amt_sub(q.subtree.get(fr), lq);
            Amount used_in_parent = std::max<Amount>(0, amt_sub(usage(n, fr), lq));
            Amount with_max_from_parent = amt_add(amt_sub(stored_in_parent, used_in_parent), *quota->borrowing_limit);
            parent_available = std::min(with_max_from_parent, parent_available);
        }
        avail = amt_add(local_available(n, fr), parent_available);
    }
    return avail;
}

Amount QuotaView::available(int node, int fr) const { return std::max<Amount>(0, available_raw(node, fr)); }

Amount QuotaView::potential_available(int node, int fr) const { return m_.nodes[node].potential_available(fr); }

void QuotaView::add_usage(int node, int fr, Amount v) {
    while (node >= 0) {
        Amount la = local_available(node, fr);
        Amount& u = s_.usage[node].at(fr);
        u = amt_add(u, v);
        const QNode& n = m_.nodes[node];
        if (n.parent < 0 || v <= la) return;
        v = amt_sub(v, la);
        node = n.parent;
    }
}

void QuotaView::remove_usage(int node, int fr, Amount v) {
    while (node >= 0) {
        Amount stored_in_parent = amt_sub(usage(node, fr), local_quota(node, fr));
        Amount& u = s_.usage[node].at(fr);
        u = amt_sub(u, v);
        const QNode& n = m_.nodes[node];
        if (stored_in_parent <= 0 || n.parent < 0) return;
        v = std::min(v, stored_in_parent);
        node = n.parent;
    }
}

bool QuotaView::borrowing_with(int node, int fr, Amount v) const {
    const QNode& n = m_.nodes[node];
    Amount limit = n.is_cq ? n.quotas.get(fr).nominal : n.subtree.get(fr);
    return limit < amt_add(usage(node, fr), v);
}

bool QuotaView::within_nominal(int node, const std::vector<int>& frs) const {
    const QNode& n = m_.nodes[node];
    for (int fr : frs)
        if (n.subtree.get(fr) < usage(node, fr)) return false;
    return true;
}

bool QuotaView::fits_in_quota(int node, const FlatMap<Amount>& reqs, FlatMap<Amount>& remaining) const {
    const QNode& n = m_.nodes[node];
    bool fits = true;
    FlatMap<Amount> rem;
    for (const auto& [fr, v] : reqs) {
        if (n.subtree.get(fr) < amt_add(usage(node, fr), v)) fits = false;
        rem.set(fr, std::max<Amount>(0, amt_sub(v, local_available(node, fr))));
    }
    remaining = std::move(rem);
    return fits;
}

std::pair<int, bool> QuotaView::find_height(int cq_node, int fr, Amount val) const {
    const QNode& c = m_.nodes[cq_node];
    bool has_parent = c.parent >= 0;
    if (!borrowing_with(cq_node, fr, val) || !has_parent) return {0, has_parent};
    Amount remaining = amt_sub(val, local_available(cq_node, fr));
    int node = c.parent;
    while (node >= 0) {
        if (!borrowing_with(node, fr, remaining)) return {m_.nodes[node].height, m_.nodes[node].parent >= 0};
        remaining = amt_sub(remaining, local_available(node, fr));
        node = m_.nodes[node].parent;
    }
    return {m_.nodes[m_.root_of(cq_node)].height, false};
}

void rebuild_usage(const Model& m, QuotaState& s) {
    s.usage.assign(m.nodes.size(), {});
    QuotaView v(m, s);
    for (const auto& cq : m.cqs)
        for (int w : cq.workloads) v.add_usage(cq.node, m.wls[w].usage);
}

}  // namespace queueforge::scheduler::detail
