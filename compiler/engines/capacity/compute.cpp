// The capacity view: the quota tree of the compiled objects laid against the
// site's pools.
#include <queueforge/engines/capacity.hpp>

#include "engines/capacity/arith.hpp"
#include "engines/capacity/tree.hpp"

#include <algorithm>
#include <map>
#include <set>

namespace queueforge::capacity {

const char* commit_name(Commit c) {
    switch (c) {
        case Commit::Under: return "under";
        case Commit::Full: return "full";
        case Commit::Over: return "over";
        case Commit::Unknown: break;
    }
    return "unknown";
}

bool resource_less(const std::string& a, const std::string& b) {
    static constexpr const char* kFirst[] = {"cpu", "memory", "ephemeral-storage", "pods"};
    auto rank = [](const std::string& r) {
        for (int i = 0; i < 4; ++i)
            if (r == kFirst[i]) return i;
        return 4;
    };
    int ra = rank(a), rb = rank(b);
    return ra != rb ? ra < rb : a < b;
}

namespace {

// Pools in site order, then flavors the objects use without a pool, by name.
std::vector<std::string> pool_order(const site::Site& s, const QuotaTree& t,
                                    const std::vector<Object>& objects) {
    std::vector<std::string> order;
    std::set<std::string> seen;
    for (const auto& p : s.pools)
        if (seen.insert(p.name.value).second) order.push_back(p.name.value);
    std::set<std::string> extra;
    for (const auto& c : t.columns)
        if (!seen.count(c.flavor)) extra.insert(c.flavor);
    for (const auto& o : objects)
        if (o.kind == "ResourceFlavor" && !seen.count(o.name) && !o.name.empty()) extra.insert(o.name);
    order.insert(order.end(), extra.begin(), extra.end());
    return order;
}

// Teams: site order (by the queueforge.io/team label of their ClusterQueue),
// then queues without a known team by name.
std::vector<int> queue_order(const site::Site& s, const QuotaTree& t) {
    std::map<std::string, std::size_t> team_rank;
    for (std::size_t i = 0; i < s.teams.size(); ++i) team_rank.emplace(s.teams[i].name.value, i);
    std::vector<int> order;
    for (const auto& [name, id] : t.queues) order.push_back(id);
    std::stable_sort(order.begin(), order.end(), [&](int a, int b) {
        auto ra = team_rank.find(t.nodes[a].team), rb = team_rank.find(t.nodes[b].team);
        std::size_t xa = ra == team_rank.end() ? s.teams.size() : ra->second;
        std::size_t xb = rb == team_rank.end() ? s.teams.size() : rb->second;
        return xa != xb ? xa < xb : t.nodes[a].name < t.nodes[b].name;
    });
    return order;
}

std::vector<Pool> pools_of(const site::Site& s, const QuotaTree& t, const std::vector<std::string>& order,
                           const std::vector<int>& queues) {
    std::map<std::string, const site::Pool*> site_pools;
    for (const auto& p : s.pools) site_pools.emplace(p.name.value, &p);
    std::vector<Pool> pools;
    for (const auto& name : order) {
        Pool pool;
        pool.name = name;
        auto sp = site_pools.find(name);
        pool.in_site = sp != site_pools.end();
        std::map<std::string, PoolResource, decltype(&resource_less)> res(&resource_less);
        if (pool.in_site) {
            const site::Pool& p = *sp->second;
            if (p.nodes) pool.nodes = p.nodes->value;
            for (const auto& a : p.allocatable) {
                if (!a.absolute || a.resource.empty()) continue;
                PoolResource& r = res[a.resource];
                r.resource = a.resource;
                r.per_node = amount_of(*a.absolute);
                if (p.nodes) r.capacity = times(*r.per_node, p.nodes->value);
            }
        }
        for (std::size_t c = 0; c < t.columns.size(); ++c) {
            if (t.columns[c].flavor != name) continue;
            PoolResource& r = res[t.columns[c].resource];
            r.resource = t.columns[c].resource;
            for (int q : queues) {
                const Limits& l = t.nodes[q].limits[c];
                if (!l.present) continue;
                r.nominal = plus(r.nominal, l.nominal);
                if (!l.nominal.zero()) r.shares.push_back({t.nodes[q].name, false, t.nodes[q].team, l.nominal});
            }
            for (const auto& [cname, id] : t.cohorts) {
                const Limits& l = t.nodes[id].limits[c];
                if (!l.present) continue;
                r.nominal = plus(r.nominal, l.nominal);
                if (!l.nominal.zero()) r.shares.push_back({cname, true, "", l.nominal});
            }
        }
        for (auto& [rname, r] : res) {
            // Resource groups give every flavor of a group every resource,
            // with quota 0 where the site set none: a resource the nodes do
            // not have and nobody holds quota for says nothing about the pool.
            if (!r.per_node && r.nominal.zero()) continue;
            if (r.capacity) r.commit_permille = permille(r.nominal, *r.capacity);
            if (r.commit_permille)
                r.commit = *r.commit_permille > 1000 || r.nominal.nanos > r.capacity->nanos ? Commit::Over
                           : r.nominal.nanos == r.capacity->nanos                          ? Commit::Full
                                                                                           : Commit::Under;
            pool.resources.push_back(std::move(r));
        }
        pools.push_back(std::move(pool));
    }
    return pools;
}

Team team_of(const QuotaTree& t, int id) {
    const TreeNode& n = t.nodes[id];
    Team team;
    team.name = n.team.empty() ? n.name : n.team;
    team.cluster_queue = n.name;
    if (n.parent >= 0) team.cohort = t.nodes[n.parent].name;
    team.reclaim_within_cohort = n.reclaim_within_cohort;
    for (int c : n.spec_order) {
        const Limits& l = n.limits[c];
        QuotaRow row;
        row.pool = t.columns[c].flavor;
        row.resource = t.columns[c].resource;
        row.nominal = l.nominal;
        row.borrowing_limit = l.borrowing_limit;
        row.lending_limit = l.lending_limit;
        // Without a cohort nothing is lent: all of the nominal quota is the queue's own.
        row.guaranteed = n.parent < 0 ? l.nominal : n.local_quota[c];
        row.lendable = minus_floor0(l.nominal, row.guaranteed);
        row.max_burst = n.potential[c];
        team.quota.push_back(std::move(row));
    }
    return team;
}

std::optional<Amount> largest_pod(const std::vector<Pool>& pools, const QuotaRow& row) {
    for (const auto& p : pools) {
        if (p.name != row.pool) continue;
        for (const auto& res : p.resources)
            if (res.resource == row.resource && res.per_node)
                return res.per_node->nanos < row.max_burst.nanos ? *res.per_node : row.max_burst;
    }
    return std::nullopt;
}

std::vector<Cohort> cohorts_of(const QuotaTree& t, const std::vector<std::string>& pool_names) {
    std::map<std::string, std::size_t> pool_rank;
    for (std::size_t i = 0; i < pool_names.size(); ++i) pool_rank.emplace(pool_names[i], i);
    // Columns in report order: pools as listed, resources in Kueue's order.
    std::vector<int> cols(t.columns.size());
    for (std::size_t i = 0; i < cols.size(); ++i) cols[i] = static_cast<int>(i);
    std::sort(cols.begin(), cols.end(), [&](int a, int b) {
        const auto& x = t.columns[a];
        const auto& y = t.columns[b];
        std::size_t px = pool_rank.count(x.flavor) ? pool_rank.at(x.flavor) : pool_names.size();
        std::size_t py = pool_rank.count(y.flavor) ? pool_rank.at(y.flavor) : pool_names.size();
        if (px != py) return px < py;
        if (x.flavor != y.flavor) return x.flavor < y.flavor;
        return resource_less(x.resource, y.resource);
    });
    std::vector<Cohort> out;
    std::vector<int> stack;
    for (auto it = t.roots.rbegin(); it != t.roots.rend(); ++it)
        if (!t.nodes[*it].cluster_queue) stack.push_back(*it);
    while (!stack.empty()) {
        const TreeNode& n = t.nodes[stack.back()];
        stack.pop_back();
        Cohort c;
        c.name = n.name;
        c.parent = n.parent >= 0 ? t.nodes[n.parent].name : "";
        c.has_object = n.has_object;
        c.in_cycle = n.in_cycle;
        c.depth = n.depth;
        for (int k : n.children) (t.nodes[k].cluster_queue ? c.cluster_queues : c.cohorts).push_back(t.nodes[k].name);
        for (int col : cols) {
            if (!n.subtree_present[col]) continue;
            CohortRow r;
            r.pool = t.columns[col].flavor;
            r.resource = t.columns[col].resource;
            r.own_nominal = n.limits[col].nominal;
            r.subtree_nominal = n.subtree_nominal[col];
            r.shared = n.subtree_quota[col];
            r.borrowing_limit = n.limits[col].borrowing_limit;
            r.lending_limit = n.limits[col].lending_limit;
            r.guaranteed = n.parent < 0 ? n.subtree_quota[col] : n.local_quota[col];
            r.max_burst = n.potential[col];
            c.totals.push_back(std::move(r));
        }
        out.push_back(std::move(c));
        for (auto it = n.children.rbegin(); it != n.children.rend(); ++it)
            if (!t.nodes[*it].cluster_queue) stack.push_back(*it);
    }
    return out;
}

}  // namespace

Report compute(const site::Site& s, const Lowered& lowered) {
    Report r;
    r.site = s.name.value;
    r.target = lowered.target.name;
    QuotaTree t = build_tree(lowered.objects);
    std::vector<std::string> order = pool_order(s, t, lowered.objects);
    std::vector<int> queues = queue_order(s, t);
    r.pools = pools_of(s, t, order, queues);
    for (int q : queues) r.teams.push_back(team_of(t, q));
    for (auto& team : r.teams)
        for (auto& row : team.quota) row.largest_pod = largest_pod(r.pools, row);
    r.cohorts = cohorts_of(t, order);
    return r;
}

std::vector<Team> teams_of(const model::Cluster& cluster) {
    QuotaTree t = build_tree(cluster);
    std::vector<Team> out;
    for (const auto& [name, id] : t.queues) out.push_back(team_of(t, id));
    return out;
}

}  // namespace queueforge::capacity
