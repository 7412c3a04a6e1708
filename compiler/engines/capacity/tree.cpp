#include "engines/capacity/tree.hpp"

#include "engines/capacity/arith.hpp"

#include <queueforge/model/cohort_cycles.hpp>

#include <algorithm>

namespace queueforge::capacity {

namespace {

std::optional<Amount> amount_of_opt(const std::optional<Quantity>& q) {
    if (!q) return std::nullopt;
    return amount_of(*q);
}

struct Reader {
    QuotaTree& tree;
    std::map<std::pair<std::string, std::string>, int> column_ids;

    int column(const std::string& flavor, const std::string& resource) {
        auto [it, added] = column_ids.try_emplace({flavor, resource}, static_cast<int>(tree.columns.size()));
        if (added) tree.columns.push_back({flavor, resource});
        return it->second;
    }

    // resourceGroups[].flavors[].resources[] of a ClusterQueue or Cohort.
    void read_groups(const std::vector<model::ResourceGroup>& groups, TreeNode& n) {
        for (const auto& g : groups)
            for (const auto& f : g.flavors) {
                if (f.name.empty()) continue;
                for (const auto& r : f.resources) {
                    if (r.name.empty()) continue;
                    int id = column(f.name, r.name);
                    if (static_cast<int>(n.limits.size()) <= id) n.limits.resize(id + 1);
                    Limits& l = n.limits[id];
                    if (l.present) continue;  // a repeated flavor/resource: Kueue's webhook refuses it; keep the first
                    l.present = true;
                    l.nominal = amount_of_opt(r.nominal).value_or(Amount{});
                    l.borrowing_limit = amount_of_opt(r.borrowing_limit);
                    l.lending_limit = amount_of_opt(r.lending_limit);
                    n.spec_order.push_back(id);
                }
            }
    }
};

int add_node(QuotaTree& t, TreeNode n) {
    t.nodes.push_back(std::move(n));
    return static_cast<int>(t.nodes.size()) - 1;
}

// The cohort named `name`, created as an implicit (object-less) one when the
// objects only refer to it, as Kueue does.
int cohort_node(QuotaTree& t, const std::string& name) {
    auto it = t.cohorts.find(name);
    if (it != t.cohorts.end()) return it->second;
    TreeNode n;
    n.name = name;
    n.has_object = false;
    int id = add_node(t, std::move(n));
    t.cohorts.emplace(name, id);
    return id;
}

bool child_less(const QuotaTree& t, int a, int b) {
    const TreeNode& x = t.nodes[a];
    const TreeNode& y = t.nodes[b];
    if (x.cluster_queue != y.cluster_queue) return !x.cluster_queue;
    return x.name < y.name;
}

// Breaks parent cycles among cohorts so the tree is a forest: the member of
// each cycle with the smallest name becomes a root, so the choice does not
// depend on object order.
void break_cycles(QuotaTree& t) {
    std::vector<int> parent(t.nodes.size());
    for (std::size_t i = 0; i < t.nodes.size(); ++i) parent[i] = t.nodes[i].parent;
    const model::CohortCycles cycles = model::find_cohort_cycles(parent);
    for (const auto& members : cycles.cycles) {
        int smallest = members.front();
        for (int m : members) {
            t.nodes[m].in_cycle = true;
            if (t.nodes[m].name < t.nodes[smallest].name) smallest = m;
        }
        t.nodes[smallest].parent = -1;
    }
}

void compute_tree(QuotaTree& t) {
    const std::size_t cols = t.columns.size();
    std::vector<int> preorder;
    preorder.reserve(t.nodes.size());
    std::vector<int> stack(t.roots.rbegin(), t.roots.rend());
    while (!stack.empty()) {
        int n = stack.back();
        stack.pop_back();
        preorder.push_back(n);
        const auto& ch = t.nodes[n].children;
        for (auto it = ch.rbegin(); it != ch.rend(); ++it) {
            t.nodes[*it].depth = t.nodes[n].depth + 1;
            stack.push_back(*it);
        }
    }
    for (auto& n : t.nodes) {
        n.limits.resize(cols);
        n.subtree_present.assign(cols, false);
        n.subtree_nominal.assign(cols, Amount{});
        n.subtree_quota.assign(cols, Amount{});
        n.local_quota.assign(cols, Amount{});
        n.potential.assign(cols, Amount{});
    }
    // Children before parents: SubtreeQuota and localQuota.
    for (auto it = preorder.rbegin(); it != preorder.rend(); ++it) {
        TreeNode& n = t.nodes[*it];
        for (std::size_t c = 0; c < cols; ++c) {
            const Limits& l = n.limits[c];
            bool present = l.present;
            Amount nominal = l.nominal;
            Amount quota = l.nominal;
            for (int child : n.children) {
                const TreeNode& k = t.nodes[child];
                present = present || k.subtree_present[c];
                nominal = plus(nominal, k.subtree_nominal[c]);
                quota = plus(quota, minus_floor0(k.subtree_quota[c], k.local_quota[c]));
            }
            n.subtree_present[c] = present;
            n.subtree_nominal[c] = nominal;
            n.subtree_quota[c] = quota;
            n.local_quota[c] = l.lending_limit ? minus_floor0(quota, *l.lending_limit) : Amount{0, quota.binary};
        }
    }
    // Parents before children: potentialAvailable.
    for (int id : preorder) {
        TreeNode& n = t.nodes[id];
        for (std::size_t c = 0; c < cols; ++c) {
            if (n.parent < 0) {
                n.potential[c] = n.subtree_quota[c];
                continue;
            }
            Amount p = plus(n.local_quota[c], t.nodes[n.parent].potential[c]);
            if (n.limits[c].borrowing_limit) p = min_of(p, plus(n.subtree_quota[c], *n.limits[c].borrowing_limit));
            n.potential[c] = p;
        }
    }
}

}  // namespace

QuotaTree build_tree(const std::vector<Object>& objects) { return build_tree(model::build_cluster(objects)); }

QuotaTree build_tree(const model::Cluster& cluster) {
    QuotaTree t;
    Reader rd{t, {}};
    // ClusterQueues and Cohort objects in input order (column ids follow it).
    std::vector<std::pair<int, int>> order;  // (source, +cq index or -(cohort index) - 1)
    for (std::size_t i = 0; i < cluster.cluster_queues.size(); ++i)
        order.emplace_back(cluster.cluster_queues[i].source, static_cast<int>(i));
    for (std::size_t i = 0; i < cluster.cohorts.size(); ++i)
        if (cluster.cohorts[i].has_object) order.emplace_back(cluster.cohorts[i].source, -static_cast<int>(i) - 1);
    std::sort(order.begin(), order.end());
    std::vector<std::pair<int, std::string>> parent_names;
    for (const auto& [source, which] : order) {
        int id;
        if (which >= 0) {
            const model::ClusterQueue& q = cluster.cluster_queues[which];
            TreeNode n;
            n.name = q.name;
            n.cluster_queue = true;
            if (auto it = q.labels.find("queueforge.io/team"); it != q.labels.end()) n.team = it->second;
            n.reclaim_within_cohort = q.preemption.reclaim_within_cohort;
            id = add_node(t, std::move(n));
            t.queues.emplace(q.name, id);
            if (!q.cohort.empty()) parent_names.emplace_back(id, q.cohort);
            rd.read_groups(q.resource_groups, t.nodes[id]);
        } else {
            const model::Cohort& co = cluster.cohorts[-which - 1];
            id = cohort_node(t, co.name);
            t.nodes[id].has_object = true;
            if (!co.parent.empty()) parent_names.emplace_back(id, co.parent);
            rd.read_groups(co.resource_groups, t.nodes[id]);
        }
    }
    for (const auto& [id, parent] : parent_names) {
        int p = cohort_node(t, parent);
        t.nodes[id].parent = p;
    }
    break_cycles(t);
    for (int i = 0; i < static_cast<int>(t.nodes.size()); ++i) {
        if (t.nodes[i].parent >= 0) t.nodes[t.nodes[i].parent].children.push_back(i);
        else t.roots.push_back(i);
    }
    auto less = [&t](int a, int b) { return child_less(t, a, b); };
    for (auto& n : t.nodes) std::sort(n.children.begin(), n.children.end(), less);
    std::sort(t.roots.begin(), t.roots.end(), less);
    compute_tree(t);
    return t;
}

}  // namespace queueforge::capacity
