#include "lower/quota.hpp"

#include "frontend/site/reader.hpp"

#include <algorithm>
#include <map>
#include <numeric>
#include <set>

namespace queueforge::lower {

namespace {

int resource_rank(const std::string& r) {
    if (r == "cpu") return 0;
    if (r == "memory") return 1;
    if (r == "ephemeral-storage") return 2;
    if (r == "pods") return 3;
    return 4;
}

std::string pct(std::int64_t micro) {
    std::string s = std::to_string(micro / 1000000);
    std::int64_t frac = micro % 1000000;
    if (frac) {
        std::string f = std::to_string(frac);
        f.insert(0, 6 - f.size(), '0');
        while (f.back() == '0') f.pop_back();
        s += "." + f;
    }
    return s + "%";
}

// Kueue counts cpu in milli-units and every other resource in whole units
// (kueue-semantics.md 3.3), so a share is floored to that unit: the team
// never gets more than the share it was given.
std::optional<Quantity> resolve_share(Context& ctx, const site::Amount& a, const site::Pool& pool,
                                      const std::string& what, Origin& from) {
    auto alloc = std::find_if(pool.allocatable.begin(), pool.allocatable.end(),
                              [&](const site::Amount& x) { return x.resource == a.resource; });
    if (!pool.nodes || alloc == pool.allocatable.end()) {
        ctx.error(a.mark,
                  what + ": the share " + a.written + " needs the capacity of pool \"" + pool.name.value +
                      "\" (set its nodes and allocatable." + a.resource + ")",
                  "site.share");
        return std::nullopt;
    }
    auto capacity = alloc->absolute->mul(pool.nodes->value);
    auto exact = capacity ? capacity->scale(*a.share_micro_pct, 100000000) : std::nullopt;
    if (!exact) {
        ctx.error(a.mark, what + ": the share " + a.written + " overflows", "site.quantity");
        return std::nullopt;
    }
    const int128 unit = a.resource == "cpu" ? 1000000 : 1000000000;
    int128 floored = exact->nanos() / unit;
    std::optional<Quantity> q = a.resource == "cpu"
                                    ? Quantity::from_milli(static_cast<std::int64_t>(floored), capacity->format())
                                    : Quantity::from_int(static_cast<std::int64_t>(floored), capacity->format());
    if (!(*q == *exact))
        ctx.warning(a.mark,
                    what + ": " + a.written + " of " + capacity->to_string() + " is " + exact->to_string() +
                        "; rounded down to " + q->to_string() + " because Kueue counts " + a.resource +
                        (a.resource == "cpu" ? " in milli-units" : " in whole units"),
                    "site.share-rounded");
    std::string rule = pct(*a.share_micro_pct) + " of pool " + pool.name.value + " (" +
                       std::to_string(pool.nodes->value) + " nodes × " + alloc->absolute->to_string() + " " +
                       a.resource + " = " + capacity->to_string() + ") = " + exact->to_string();
    if (!(*q == *exact))
        rule += ", rounded down to " + q->to_string() + " (Kueue counts " + a.resource +
                (a.resource == "cpu" ? " in milli-units)" : " in whole units)");
    from = {a.mark, Derivation::Share, std::move(rule)};
    return q;
}

// `from` says how the amount was derived (explain, build --annotate).
std::optional<Quantity> resolve(Context& ctx, const site::Amount& a, const site::Pool& pool, const std::string& what,
                                Origin& from) {
    if (a.absolute) {
        from = {a.mark, Derivation::Written, {}};
        // The API server writes quantities back in canonical form; say so
        // where the site spells it differently.
        std::string canonical = a.absolute->to_string();
        if (canonical != a.written) from.rule = "written in the site as " + a.written + " (canonical form " + canonical + ")";
        return a.absolute;
    }
    return resolve_share(ctx, a, pool, what, from);
}

struct UnionFind {
    std::vector<std::size_t> parent;
    std::size_t add() {
        parent.push_back(parent.size());
        return parent.size() - 1;
    }
    std::size_t find(std::size_t x) {
        while (parent[x] != x) x = parent[x] = parent[parent[x]];
        return x;
    }
    void join(std::size_t a, std::size_t b) { parent[find(b)] = find(a); }
};

const site::Amount* find_amount(const std::vector<site::Amount>& v, const std::string& r) {
    for (const auto& a : v)
        if (a.resource == r) return &a;
    return nullptr;
}

}  // namespace

bool resource_before(const std::string& a, const std::string& b) {
    int ra = resource_rank(a), rb = resource_rank(b);
    if (ra != rb) return ra < rb;
    return a < b;
}

std::vector<ResourceGroup> form_resource_groups(Context& ctx, const std::vector<site::QuotaEntry>& quota,
                                                const std::string& owner) {
    // Resources that share a pool must share a resource group (a pod's cpu and
    // GPU should come from the same node type), so groups are the connected
    // components of "appear together in one pool's quota".
    std::map<std::string, std::size_t> index;
    UnionFind uf;
    std::vector<const site::QuotaEntry*> entries;
    for (const auto& e : quota) {
        const std::string what = owner + " quota for pool \"" + e.pool.value + "\"";
        auto pool = ctx.pools.find(e.pool.value);
        if (pool == ctx.pools.end()) {
            std::string msg = owner + ": unknown pool \"" + e.pool.value + "\"";
            std::vector<std::string> names;
            for (const auto& [n, _] : ctx.pools) names.push_back(n);
            std::string hint = site::did_you_mean(e.pool.value, names);
            if (!hint.empty()) msg += "; did you mean \"" + hint + "\"?";
            ctx.error(e.pool.mark, msg, "site.unknown-pool");
            continue;
        }
        // A pool listed twice is lowered twice: Kueue's V26 (checks/rules)
        // refuses the flavor that repeats.
        if (e.nominal.empty()) {
            ctx.error(e.mark, what + ": nominal must list at least one resource", "V20");
            continue;
        }
        for (const auto* limits : {&e.borrowing_limit, &e.lending_limit}) {
            bool borrowing = limits == &e.borrowing_limit;
            for (const auto& l : *limits) {
                if (!find_amount(e.nominal, l.resource))
                    ctx.error(l.resource_mark,
                              what + ": " + (borrowing ? "borrowingLimit" : "lendingLimit") + " for " + l.resource +
                                  " needs a nominal quota for it (0 is allowed)",
                              "site.limit-without-nominal");
            }
        }
        entries.push_back(&e);
        std::size_t first = SIZE_MAX;
        for (const auto& a : e.nominal) {
            auto [it, inserted] = index.try_emplace(a.resource, 0);
            if (inserted) it->second = uf.add();
            if (first == SIZE_MAX) first = it->second;
            else uf.join(first, it->second);
        }
    }

    std::vector<ResourceGroup> groups;
    std::map<std::size_t, std::size_t> group_of_root;
    for (const auto* e : entries) {
        std::size_t root = uf.find(index[e->nominal.front().resource]);
        auto [it, inserted] = group_of_root.try_emplace(root, groups.size());
        if (inserted) {
            ResourceGroup g;
            for (const auto& [name, id] : index)
                if (uf.find(id) == root) g.covered.push_back(name);
            std::sort(g.covered.begin(), g.covered.end(), resource_before);
            for (const auto& r : g.covered) {
                Mark first;
                for (const auto* x : entries)
                    if (const auto* a = find_amount(x->nominal, r); a && !first.known()) first = a->resource_mark;
                g.covered_marks.push_back(first);
            }
            groups.push_back(std::move(g));
        }
        ResourceGroup& g = groups[it->second];
        const site::Pool& pool = *ctx.pools.at(e->pool.value);
        FlavorQuota fq{e->pool.value, e->mark, e->pool.mark, {}};
        const std::string what = owner + " quota for pool \"" + e->pool.value + "\"";
        for (const auto& r : g.covered) {
            ResourceQuota rq{r, Quantity{}, std::nullopt, std::nullopt, {}, {}, {}, {}};
            // A pool that does not offer a resource of its group gets quota 0 for it: the
            // webhook requires every flavor to list every covered resource (V23, V24).
            if (const auto* a = find_amount(e->nominal, r)) {
                rq.name_from = {a->resource_mark, Derivation::Written, {}};
                if (auto q = resolve(ctx, *a, pool, what + " nominal." + r, rq.nominal_from)) rq.nominal = *q;
            } else {
                rq.name_from = {e->mark, Derivation::ZeroFilled,
                                "zero-filled: resource groups need every resource in every flavor (the quota for pool " +
                                    e->pool.value + " lists no " + r + ")"};
                rq.nominal_from = rq.name_from;
            }
            if (const auto* a = find_amount(e->borrowing_limit, r))
                rq.borrowing_limit = resolve(ctx, *a, pool, what + " borrowingLimit." + r, rq.borrowing_from);
            if (const auto* a = find_amount(e->lending_limit, r))
                rq.lending_limit = resolve(ctx, *a, pool, what + " lendingLimit." + r, rq.lending_from);
            fq.resources.push_back(std::move(rq));
        }
        g.flavors.push_back(std::move(fq));
    }

    // The CRD's list limits (kueue-semantics.md V20: a schema rule, which
    // checks/rules does not repeat). The webhook's V27 limits, the limits'
    // V29/V30/V31/V42 and V26 are Kueue's rules in checks/rules, which the
    // compile step runs on the objects.
    Mark where = quota.empty() ? Mark{} : quota.front().mark;
    if (groups.size() > 16)
        ctx.error(where, owner + ": " + std::to_string(groups.size()) + " resource groups; at most 16 are allowed", "V20");
    for (const auto& g : groups)
        if (g.covered.size() > 64 || g.flavors.size() > 64)
            ctx.error(where, owner + ": a resource group may cover at most 64 resources and list at most 64 flavors", "V20");
    return groups;
}

void release_amounts(site::Team& t, bool keep_pools) {
    if (!keep_pools) {
        std::vector<site::QuotaEntry>().swap(t.quota);
        return;
    }
    for (auto& e : t.quota) {
        std::vector<site::Amount>().swap(e.nominal);
        std::vector<site::Amount>().swap(e.borrowing_limit);
        std::vector<site::Amount>().swap(e.lending_limit);
    }
}

void check_share_sums(const Context& ctx, const std::vector<site::Team>& teams, Diagnostics& out) {
    std::map<std::pair<std::string, std::string>, std::int64_t> sums;
    for (const auto& t : teams)
        for (const auto& e : t.quota)
            for (const auto& a : e.nominal) {
                if (!a.share_micro_pct) continue;
                auto key = std::make_pair(e.pool.value, a.resource);
                std::int64_t before = sums[key];
                std::int64_t after = before + *a.share_micro_pct;
                sums[key] = after;
                if (before <= 100000000 && after > 100000000)
                    out.warning(ctx.site.file, a.mark,
                                "shares of " + a.resource + " in pool \"" + e.pool.value + "\" add up to " + pct(after) +
                                    " (more than 100% of the pool) with team \"" + t.name.value + "\"",
                                "site.share-sum");
            }
}

}  // namespace queueforge::lower
