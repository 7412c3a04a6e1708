// The capacity view: Kueue's quota tree of the compiled objects (the one the
// simulator schedules with, model/quota_tree.hpp) laid against the site's
// pools. Every quota figure is Kueue's int64 amount (cpu in milli-units,
// everything else in units rounded up), so capacity and simulate agree to the
// unit on what a team may borrow.
#include <queueforge/engines/capacity.hpp>

#include "engines/capacity/arith.hpp"

#include <queueforge/model/cluster.hpp>
#include <queueforge/model/quota_tree.hpp>

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

// Kueue's quota tree of the objects (model/quota_tree.hpp) and what the
// report adds: per (flavor, resource) id the spelling family the manifests
// write it in, and the cohorts' display tree.
struct View {
    model::Cluster cluster;
    model::QuotaColumns ids;
    model::QuotaTree tree;
    std::vector<bool> binary;  // by id: the first quantity written for it is binary (Gi, Ti)

    std::string team_of(const model::QuotaNode& n) const {
        if (!n.is_cq) return "";
        const auto& labels = cluster.cluster_queues[n.index].labels;
        auto it = labels.find("queueforge.io/team");
        return it == labels.end() ? "" : it->second;
    }
    // A Kueue amount as the report writes it: Kueue's unit (milli for cpu)
    // back to nano units, in the family of the id's quantities.
    Amount amount(int fr, model::Amount v) const {
        const int128 unit = ids.resource_of(fr) == "cpu" ? 1000000 : 1000000000;
        return Amount{static_cast<int128>(v) * unit, binary[fr]};
    }
    std::optional<Amount> amount(int fr, const std::optional<model::Amount>& v) const {
        if (!v) return std::nullopt;
        return amount(fr, *v);
    }
};

void note_family(View& v, const std::vector<model::ResourceGroup>& groups, std::vector<bool>& seen) {
    for (const auto& g : groups)
        for (const auto& f : g.flavors)
            for (const auto& r : f.resources) {
                if (f.name.empty() || r.name.empty()) continue;
                int fr = v.ids.flavor_resource(v.ids.flavor(f.name), v.ids.resource(r.name));
                if (static_cast<std::size_t>(fr) >= seen.size()) {
                    seen.resize(fr + 1, false);
                    v.binary.resize(fr + 1, false);
                }
                for (const auto* q : {&r.nominal, &r.borrowing_limit, &r.lending_limit}) {
                    if (seen[fr] || !*q || (*q)->sign() == 0) continue;
                    seen[fr] = true;
                    v.binary[fr] = (*q)->format() == Quantity::Format::BinarySI;
                }
            }
}

View view_of(model::Cluster cluster) {
    View v;
    v.cluster = std::move(cluster);
    v.tree = model::build_quota_tree(v.cluster, v.ids);
    std::vector<bool> seen;
    for (const auto& co : v.cluster.cohorts) note_family(v, co.resource_groups, seen);
    for (const auto& q : v.cluster.cluster_queues) note_family(v, q.resource_groups, seen);
    v.binary.resize(v.ids.pairs.size(), false);
    return v;
}

// Pools in site order, then flavors the objects use without a pool, by name.
std::vector<std::string> pool_order(const site::Site& s, const View& v) {
    std::vector<std::string> order;
    std::set<std::string> seen;
    for (const auto& p : s.pools)
        if (seen.insert(p.name.value).second) order.push_back(p.name.value);
    std::set<std::string> extra;
    for (std::size_t fr = 0; fr < v.ids.pairs.size(); ++fr)
        if (!seen.count(v.ids.flavor_of(static_cast<int>(fr)))) extra.insert(v.ids.flavor_of(static_cast<int>(fr)));
    for (const auto& f : v.cluster.flavors)
        if (!seen.count(f.name)) extra.insert(f.name);
    order.insert(order.end(), extra.begin(), extra.end());
    return order;
}

// Teams: site order (by the queueforge.io/team label of their ClusterQueue),
// then queues without a known team by name.
std::vector<int> queue_order(const site::Site& s, const View& v) {
    std::map<std::string, std::size_t> team_rank;
    for (std::size_t i = 0; i < s.teams.size(); ++i) team_rank.emplace(s.teams[i].name.value, i);
    std::vector<int> order(v.tree.cq_node);
    const auto& nodes = v.tree.nodes;
    std::sort(order.begin(), order.end(), [&](int a, int b) { return nodes[a].name < nodes[b].name; });
    std::stable_sort(order.begin(), order.end(), [&](int a, int b) {
        auto ra = team_rank.find(v.team_of(nodes[a])), rb = team_rank.find(v.team_of(nodes[b]));
        std::size_t xa = ra == team_rank.end() ? s.teams.size() : ra->second;
        std::size_t xb = rb == team_rank.end() ? s.teams.size() : rb->second;
        return xa < xb;
    });
    return order;
}

// Cohort nodes by name.
std::vector<int> cohorts_by_name(const View& v) {
    std::vector<int> out;
    for (int id : v.tree.cohort_node) out.push_back(id);
    std::sort(out.begin(), out.end(), [&](int a, int b) { return v.tree.nodes[a].name < v.tree.nodes[b].name; });
    return out;
}

std::vector<Pool> pools_of(const site::Site& s, const View& v, const std::vector<std::string>& order,
                           const std::vector<int>& queues) {
    std::map<std::string, const site::Pool*> site_pools;
    for (const auto& p : s.pools) site_pools.emplace(p.name.value, &p);
    const std::vector<int> cohorts = cohorts_by_name(v);
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
        for (std::size_t c = 0; c < v.ids.pairs.size(); ++c) {
            const int fr = static_cast<int>(c);
            if (v.ids.flavor_of(fr) != name) continue;
            PoolResource& r = res[v.ids.resource_of(fr)];
            r.resource = v.ids.resource_of(fr);
            auto add = [&](const model::QuotaNode& n, bool cohort) {
                const model::Quota* q = n.quotas.find(fr);
                if (!q) return;
                Amount nominal = v.amount(fr, q->nominal);
                r.nominal = plus(r.nominal, nominal);
                if (!nominal.zero()) r.shares.push_back({n.name, cohort, v.team_of(n), nominal});
            };
            for (int q : queues) add(v.tree.nodes[q], false);
            for (int co : cohorts) add(v.tree.nodes[co], true);
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

Team team_of(const View& v, int id) {
    const model::QuotaNode& n = v.tree.nodes[id];
    const model::ClusterQueue& q = v.cluster.cluster_queues[n.index];
    Team team;
    std::string label = v.team_of(n);
    team.name = label.empty() ? n.name : label;
    team.cluster_queue = n.name;
    team.cohort = q.cohort;
    team.reclaim_within_cohort = q.preemption.reclaim_within_cohort;
    for (int fr : n.fr_order) {
        const model::Quota& l = *n.quotas.find(fr);
        QuotaRow row;
        row.pool = v.ids.flavor_of(fr);
        row.resource = v.ids.resource_of(fr);
        row.nominal = v.amount(fr, l.nominal);
        row.borrowing_limit = v.amount(fr, l.borrowing_limit);
        row.lending_limit = v.amount(fr, l.lending_limit);
        // Without a cohort nothing is lent: all of the nominal quota is the queue's own.
        row.guaranteed = n.parent < 0 ? row.nominal : v.amount(fr, n.local_quota(fr));
        row.lendable = minus_floor0(row.nominal, row.guaranteed);
        row.max_burst = v.amount(fr, n.potential_available(fr));
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

std::vector<Cohort> cohorts_of(const View& v, const std::vector<std::string>& pool_names) {
    const auto& nodes = v.tree.nodes;
    std::map<std::string, std::size_t> pool_rank;
    for (std::size_t i = 0; i < pool_names.size(); ++i) pool_rank.emplace(pool_names[i], i);
    // Ids in report order: pools as listed, resources in Kueue's order.
    std::vector<int> cols(v.ids.pairs.size());
    for (std::size_t i = 0; i < cols.size(); ++i) cols[i] = static_cast<int>(i);
    std::sort(cols.begin(), cols.end(), [&](int a, int b) {
        const std::string& fa = v.ids.flavor_of(a);
        const std::string& fb = v.ids.flavor_of(b);
        std::size_t px = pool_rank.count(fa) ? pool_rank.at(fa) : pool_names.size();
        std::size_t py = pool_rank.count(fb) ? pool_rank.at(fb) : pool_names.size();
        if (px != py) return px < py;
        if (fa != fb) return fa < fb;
        return resource_less(v.ids.resource_of(a), v.ids.resource_of(b));
    });
    // Every nominal quota at and below each node (what the subtree holds
    // before lending limits), children first.
    std::vector<model::FlatMap<model::Amount>> subtree_nominal(nodes.size());
    for (int id : v.tree.bottom_up) {
        auto& sum = subtree_nominal[id];
        for (const auto& [fr, q] : nodes[id].quotas) sum.at(fr) = model::amt_add(sum.get(fr), q.nominal);
        for (int ch : nodes[id].children)
            for (const auto& [fr, x] : subtree_nominal[ch]) sum.at(fr) = model::amt_add(sum.get(fr), x);
    }
    // Display order: cohorts before queues, each by name.
    auto less = [&](int a, int b) {
        if (nodes[a].is_cq != nodes[b].is_cq) return !nodes[a].is_cq;
        return nodes[a].name < nodes[b].name;
    };
    std::vector<int> roots;
    for (int id : v.tree.cohort_node)
        if (nodes[id].parent < 0) roots.push_back(id);
    std::sort(roots.begin(), roots.end(), less);
    std::vector<Cohort> out;
    std::vector<std::pair<int, int>> stack;  // node, depth
    for (auto it = roots.rbegin(); it != roots.rend(); ++it) stack.emplace_back(*it, 0);
    while (!stack.empty()) {
        auto [id, depth] = stack.back();
        stack.pop_back();
        const model::QuotaNode& n = nodes[id];
        const model::Cohort& co = v.cluster.cohorts[n.index];
        Cohort c;
        c.name = n.name;
        c.parent = n.parent >= 0 ? nodes[n.parent].name : "";
        c.has_object = co.has_object;
        c.in_cycle = n.has_cycle && !n.too_deep;
        c.depth = depth;
        std::vector<int> kids(n.children);
        std::sort(kids.begin(), kids.end(), less);
        for (int k : kids) (nodes[k].is_cq ? c.cluster_queues : c.cohorts).push_back(nodes[k].name);
        for (int fr : cols) {
            if (!n.subtree.find(fr)) continue;  // nothing at or below this cohort names it
            const model::Quota* own = n.quotas.find(fr);
            CohortRow r;
            r.pool = v.ids.flavor_of(fr);
            r.resource = v.ids.resource_of(fr);
            r.own_nominal = v.amount(fr, own ? own->nominal : 0);
            r.subtree_nominal = v.amount(fr, subtree_nominal[id].get(fr));
            r.shared = v.amount(fr, n.subtree.get(fr));
            if (own) {
                r.borrowing_limit = v.amount(fr, own->borrowing_limit);
                r.lending_limit = v.amount(fr, own->lending_limit);
            }
            r.guaranteed = v.amount(fr, n.parent < 0 ? n.subtree.get(fr) : n.local_quota(fr));
            r.max_burst = v.amount(fr, n.potential_available(fr));
            c.totals.push_back(std::move(r));
        }
        out.push_back(std::move(c));
        for (auto it = kids.rbegin(); it != kids.rend(); ++it)
            if (!nodes[*it].is_cq) stack.emplace_back(*it, depth + 1);
    }
    return out;
}

}  // namespace

Report compute(const site::Site& s, const Lowered& lowered, model::Cluster cluster) {
    Report r;
    r.site = s.name.value;
    r.target = lowered.target.name;
    const View v = view_of(std::move(cluster));
    std::vector<std::string> order = pool_order(s, v);
    std::vector<int> queues = queue_order(s, v);
    r.pools = pools_of(s, v, order, queues);
    for (int q : queues) r.teams.push_back(team_of(v, q));
    for (auto& team : r.teams)
        for (auto& row : team.quota) row.largest_pod = largest_pod(r.pools, row);
    r.cohorts = cohorts_of(v, order);
    return r;
}

std::vector<Team> teams_of(const model::Cluster& cluster) {
    const View v = view_of(cluster);
    std::vector<int> order(v.tree.cq_node);
    std::sort(order.begin(), order.end(), [&](int a, int b) { return v.tree.nodes[a].name < v.tree.nodes[b].name; });
    std::vector<Team> out;
    for (int q : order) out.push_back(team_of(v, q));
    return out;
}

}  // namespace queueforge::capacity
