// Kueue's quota tree from the typed cluster: pkg/cache/hierarchy (nodes,
// HasCycle), clusterqueue.go/cohort.go createResourceQuotas and
// resource_node.go (updateCohortResourceNode, localQuota,
// potentialAvailable). Every walk follows parent links after cycles are
// detached, so none is recursive.
#include <queueforge/model/quota_tree.hpp>

#include <algorithm>

namespace queueforge::model {

int QuotaColumns::resource(const std::string& name) {
    auto [it, added] = resource_ids_.try_emplace(name, static_cast<int>(resources.size()));
    if (added) resources.push_back(name);
    return it->second;
}

int QuotaColumns::flavor(const std::string& name) {
    auto [it, added] = flavor_ids_.try_emplace(name, static_cast<int>(flavors.size()));
    if (added) flavors.push_back(name);
    return it->second;
}

int QuotaColumns::flavor_resource(int flavor, int resource) {
    auto [it, added] = pair_ids_.try_emplace({flavor, resource}, static_cast<int>(pairs.size()));
    if (added) pairs.emplace_back(flavor, resource);
    return it->second;
}

namespace {

std::optional<Amount> amount(const std::string& resource, const std::optional<Quantity>& q) {
    if (!q) return std::nullopt;
    return kueue_amount(resource, *q);
}

// createResourceQuotas: one quota per listed flavor and resource. Entries
// without a name are skipped (the webhook refuses them).
void read_quotas(const std::vector<ResourceGroup>& groups, QuotaIds& ids, QuotaNode& n) {
    for (const auto& g : groups) {
        for (const auto& c : g.covered_resources) ids.resource(c);
        for (const auto& f : g.flavors) {
            if (f.name.empty()) continue;
            int flavor = ids.flavor(f.name);
            for (const auto& r : f.resources) {
                if (r.name.empty()) continue;
                Quota q;
                q.nominal = amount(r.name, r.nominal).value_or(0);
                q.borrowing_limit = amount(r.name, r.borrowing_limit);
                q.lending_limit = amount(r.name, r.lending_limit);
                int fr = ids.flavor_resource(flavor, ids.resource(r.name));
                if (std::find(n.fr_order.begin(), n.fr_order.end(), fr) == n.fr_order.end()) n.fr_order.push_back(fr);
                n.quotas.set(fr, q);
            }
        }
    }
}

int add_node(QuotaTree& t, std::string name, bool is_cq, int index) {
    QuotaNode n;
    n.name = std::move(name);
    n.is_cq = is_cq;
    n.index = index;
    t.nodes.push_back(std::move(n));
    return static_cast<int>(t.nodes.size()) - 1;
}

}  // namespace

QuotaTree build_quota_tree(const Cluster& c, QuotaIds& ids, int max_depth) {
    QuotaTree t;
    t.cohort_node.assign(c.cohorts.size(), -1);
    t.cq_node.assign(c.cluster_queues.size(), -1);
    for (std::size_t i = 0; i < c.cohorts.size(); ++i)
        if (c.cohorts[i].has_object) {
            int id = add_node(t, c.cohorts[i].name, false, static_cast<int>(i));
            t.cohort_node[i] = id;
            read_quotas(c.cohorts[i].resource_groups, ids, t.nodes[id]);
        }
    for (std::size_t i = 0; i < c.cluster_queues.size(); ++i) {
        int id = add_node(t, c.cluster_queues[i].name, true, static_cast<int>(i));
        t.cq_node[i] = id;
        read_quotas(c.cluster_queues[i].resource_groups, ids, t.nodes[id]);
    }
    for (std::size_t i = 0; i < c.cohorts.size(); ++i)
        if (!c.cohorts[i].has_object) t.cohort_node[i] = add_node(t, c.cohorts[i].name, false, static_cast<int>(i));

    // Parent links, then Kueue's view: a cohort whose chain runs into a cycle
    // is detached (the cycles are the model's, found once).
    for (std::size_t i = 0; i < c.cohorts.size(); ++i) {
        QuotaNode& n = t.nodes[t.cohort_node[i]];
        if (c.cohort_parent[i] >= 0) n.parent = t.cohort_node[c.cohort_parent[i]];
        n.has_cycle = c.cycles.has_cycle(static_cast<int>(i));
    }
    for (std::size_t i = 0; i < c.cluster_queues.size(); ++i)
        if (int co = c.find_cohort(c.cluster_queues[i].cohort); co >= 0)
            t.nodes[t.cq_node[i]].parent = t.cohort_node[co];
    for (auto& n : t.nodes)
        if (!n.is_cq && n.has_cycle) n.parent = -1;

    // Depth of each node (memoised walk; parent links are acyclic now).
    std::vector<int> depth(t.nodes.size(), -1);
    std::vector<int> path;
    for (std::size_t i = 0; i < t.nodes.size(); ++i) {
        path.clear();
        int cur = static_cast<int>(i);
        while (cur >= 0 && depth[cur] < 0) {
            path.push_back(cur);
            cur = t.nodes[cur].parent;
        }
        int d = cur >= 0 ? depth[cur] : -1;
        for (auto it = path.rbegin(); it != path.rend(); ++it) depth[*it] = ++d;
    }
    for (std::size_t i = 0; i < t.nodes.size(); ++i) {
        QuotaNode& n = t.nodes[i];
        n.depth = depth[i];
        if (!n.is_cq && depth[i] > max_depth) {
            n.has_cycle = n.too_deep = true;
            n.parent = -1;
            t.too_deep = true;
        }
    }
    for (auto& n : t.nodes)
        if (n.is_cq && n.parent >= 0 && t.nodes[n.parent].has_cycle) {
            n.has_cycle = true;
            n.parent = -1;
        }

    for (std::size_t i = 0; i < t.nodes.size(); ++i)
        if (int p = t.nodes[i].parent; p >= 0) t.nodes[p].children.push_back(static_cast<int>(i));
    auto by_name = [&t](int a, int b) { return t.nodes[a].name < t.nodes[b].name; };
    for (auto& n : t.nodes) std::sort(n.children.begin(), n.children.end(), by_name);

    // Children before parents (deepest first; the depths were taken before
    // detaching, which only removes links): SubtreeQuota and localQuota.
    t.bottom_up.resize(t.nodes.size());
    for (std::size_t i = 0; i < t.bottom_up.size(); ++i) t.bottom_up[i] = static_cast<int>(i);
    std::stable_sort(t.bottom_up.begin(), t.bottom_up.end(), [&](int a, int b) { return depth[a] > depth[b]; });
    for (int id : t.bottom_up) {
        QuotaNode& n = t.nodes[id];
        for (const auto& [fr, q] : n.quotas) n.subtree.set(fr, q.nominal);
        for (int ch : n.children) {
            const QuotaNode& child = t.nodes[ch];
            for (const auto& [fr, q] : child.subtree) {
                Amount& s = n.subtree.at(fr);
                s = amt_add(s, amt_sub(q, child.local.get(fr)));
            }
        }
        for (const auto& [fr, q] : n.quotas)
            if (q.lending_limit) n.local.set(fr, std::max<Amount>(0, amt_sub(n.subtree.get(fr), *q.lending_limit)));
    }
    // Parents before children: potentialAvailable.
    for (auto it = t.bottom_up.rbegin(); it != t.bottom_up.rend(); ++it) {
        QuotaNode& n = t.nodes[*it];
        if (n.parent < 0) {
            n.potential = n.subtree;
            continue;
        }
        const QuotaNode& p = t.nodes[n.parent];
        FlatMap<Amount> pot;
        for (const auto& [fr, v] : p.potential) pot.set(fr, v);
        for (const auto& [fr, v] : n.subtree) pot.at(fr);
        for (auto& [fr, v] : pot) {
            v = amt_add(n.local.get(fr), p.potential.get(fr));
            if (const Quota* q = n.quotas.find(fr); q && q->borrowing_limit)
                v = std::min(amt_add(n.subtree.get(fr), *q->borrowing_limit), v);
        }
        n.potential = std::move(pot);
    }
    return t;
}

}  // namespace queueforge::model
