#include "capacity/tree.hpp"

#include "capacity/arith.hpp"

#include <algorithm>

namespace queueforge::capacity {

namespace {

std::string text_at(const Node* map, std::string_view key) {
    if (!map || !map->is_map()) return {};
    const Node* v = map->find(key);
    return v && v->is_scalar() && !v->is_null() ? v->text() : std::string();
}

std::optional<Amount> amount_at(const Node* map, std::string_view key) {
    std::string t = text_at(map, key);
    if (t.empty()) return std::nullopt;
    return parse_amount(t);
}

struct Reader {
    QuotaTree& tree;
    std::map<std::pair<std::string, std::string>, int> column_ids;

    int column(const std::string& flavor, const std::string& resource) {
        auto [it, added] = column_ids.try_emplace({flavor, resource}, static_cast<int>(tree.columns.size()));
        if (added) tree.columns.push_back({flavor, resource});
        return it->second;
    }

    // resourceGroups[].flavors[].resources[] of a ClusterQueue or Cohort spec.
    void read_groups(const Node* spec, TreeNode& n) {
        const Node* groups = spec && spec->is_map() ? spec->find("resourceGroups") : nullptr;
        if (!groups || !groups->is_seq()) return;
        for (const Node& g : groups->items()) {
            const Node* flavors = g.is_map() ? g.find("flavors") : nullptr;
            if (!flavors || !flavors->is_seq()) continue;
            for (const Node& f : flavors->items()) {
                std::string flavor = text_at(&f, "name");
                const Node* resources = f.is_map() ? f.find("resources") : nullptr;
                if (flavor.empty() || !resources || !resources->is_seq()) continue;
                for (const Node& r : resources->items()) {
                    std::string resource = text_at(&r, "name");
                    if (resource.empty()) continue;
                    int id = column(flavor, resource);
                    if (static_cast<int>(n.limits.size()) <= id) n.limits.resize(id + 1);
                    Limits& l = n.limits[id];
                    if (l.present) continue;  // a repeated flavor/resource: Kueue's webhook refuses it; keep the first
                    l.present = true;
                    l.nominal = amount_at(&r, "nominalQuota").value_or(Amount{});
                    l.borrowing_limit = amount_at(&r, "borrowingLimit");
                    l.lending_limit = amount_at(&r, "lendingLimit");
                    n.spec_order.push_back(id);
                }
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
// each cycle with the smallest name becomes a root. Visiting cohorts by name
// makes the choice independent of object order.
void break_cycles(QuotaTree& t) {
    std::vector<int> state(t.nodes.size(), 0);  // 0 new, 1 on the current path, 2 done
    for (const auto& [name, start] : t.cohorts) {
        std::vector<int> path;
        int n = start;
        while (n >= 0 && state[n] == 0) {
            state[n] = 1;
            path.push_back(n);
            n = t.nodes[n].parent;
        }
        if (n >= 0 && state[n] == 1) {
            auto from = std::find(path.begin(), path.end(), n);
            int smallest = n;
            for (auto it = from; it != path.end(); ++it) {
                t.nodes[*it].in_cycle = true;
                if (t.nodes[*it].name < t.nodes[smallest].name) smallest = *it;
            }
            t.nodes[smallest].parent = -1;
        }
        for (int p : path) state[p] = 2;
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

QuotaTree build_tree(const std::vector<Object>& objects) {
    QuotaTree t;
    Reader rd{t, {}};
    std::vector<std::pair<int, std::string>> parent_names;
    for (const Object& o : objects) {
        const bool cq = o.kind == "ClusterQueue";
        if ((!cq && o.kind != "Cohort") || o.name.empty()) continue;
        const Node* spec = o.doc.is_map() ? o.doc.find("spec") : nullptr;
        int id;
        if (cq) {
            if (t.queues.count(o.name)) continue;
            TreeNode n;
            n.name = o.name;
            n.cluster_queue = true;
            const Node* meta = o.doc.is_map() ? o.doc.find("metadata") : nullptr;
            n.team = text_at(meta && meta->is_map() ? meta->find("labels") : nullptr, "queueforge.io/team");
            std::string reclaim = text_at(spec && spec->is_map() ? spec->find("preemption") : nullptr, "reclaimWithinCohort");
            if (!reclaim.empty()) n.reclaim_within_cohort = reclaim;
            id = add_node(t, std::move(n));
            t.queues.emplace(o.name, id);
            std::string cohort = text_at(spec, "cohortName");
            if (cohort.empty()) cohort = text_at(spec, "cohort");
            if (!cohort.empty()) parent_names.emplace_back(id, cohort);
        } else {
            auto it = t.cohorts.find(o.name);
            if (it != t.cohorts.end() && t.nodes[it->second].has_object) continue;
            id = cohort_node(t, o.name);
            t.nodes[id].has_object = true;
            std::string parent = text_at(spec, "parentName");
            if (parent.empty()) parent = text_at(spec, "parent");
            if (!parent.empty()) parent_names.emplace_back(id, parent);
        }
        rd.read_groups(spec, t.nodes[id]);
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
