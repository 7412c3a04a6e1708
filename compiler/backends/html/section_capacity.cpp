// Pools (quota against capacity), teams (guaranteed, nominal, burst) and the
// cohort tree.
#include "backends/html/sections.hpp"
#include "backends/html/svg.hpp"

#include "engines/capacity/arith.hpp"

#include <map>

namespace queueforge::html {

namespace {

using capacity::Amount;

// Bounds that keep the document readable (and loadable) for sites with
// hundreds of teams; `capacity -o json` has every figure.
constexpr std::size_t kSegmentsPerBar = 24;
constexpr std::size_t kTeamsCharted = 60;
constexpr std::size_t kTableRows = 2000;

std::string more_rows(std::size_t n, const char* what) {
    return n ? "<p class=\"muted\">" + std::to_string(n) + " more " + what +
                   " not listed; <code>queueforge capacity -o json</code> has them all.</p>"
             : std::string();
}

double as_double(const Amount& a) { return static_cast<double>(static_cast<long double>(a.nanos) / 1e9L); }

std::string opt(const std::optional<Amount>& a) { return a ? a->str() : "-"; }

std::string cell(const std::string& text, bool num = false) {
    return std::string(num ? "<td class=\"num\">" : "<td>") + esc(text) + "</td>";
}

std::string header_row(std::initializer_list<const char*> names) {
    std::string s = "<thead><tr>";
    for (const char* n : names) s += std::string("<th>") + n + "</th>";
    return s + "</tr></thead>";
}

const capacity::PoolResource* find_resource(const capacity::Report& r, const std::string& pool, const std::string& res) {
    for (const auto& p : r.pools)
        if (p.name == pool)
            for (const auto& x : p.resources)
                if (x.resource == res) return &x;
    return nullptr;
}

std::string team_legend(const capacity::Report& r, const Palette& colors, bool cohort_quota) {
    std::vector<LegendItem> items;
    for (const auto& t : r.teams)
        if (items.size() + 1 < kSegmentsPerBar) items.push_back({t.name, colors.color(t.cluster_queue)});
    if (r.teams.size() + 1 > kSegmentsPerBar)
        items.push_back({std::to_string(r.teams.size() - items.size()) + " more teams", Palette::cohort_color(), 0.6});
    if (cohort_quota) items.push_back({"cohort quota", Palette::cohort_color()});
    return legend(items);
}

std::string pool_chart(const capacity::Pool& p, const Palette& colors) {
    std::vector<Bar> bars;
    std::vector<const capacity::PoolResource*> shown;
    for (const auto& res : p.resources)
        if (!res.nominal.zero()) shown.push_back(&res);
    if (shown.empty())
        for (const auto& res : p.resources) shown.push_back(&res);
    for (const auto* res : shown) {
        Bar b;
        b.label = res->resource;
        Amount scale = res->nominal;
        if (res->capacity && res->capacity->nanos > scale.nanos) scale = *res->capacity;
        b.scale = as_double(scale);
        // Past kSegmentsPerBar holders the rest is one grey segment: a bar
        // of a thousand slivers shows nothing and weighs megabytes.
        Amount rest;
        std::size_t rest_count = 0;
        for (const auto& s : res->shares) {
            if (b.segments.size() + 1 >= kSegmentsPerBar && res->shares.size() > kSegmentsPerBar) {
                rest = capacity::plus(rest, s.nominal);
                ++rest_count;
                continue;
            }
            b.segments.push_back({as_double(s.nominal), colors.color(s.cohort ? std::string() : s.owner), 1, false,
                                  (s.cohort ? "cohort " : "") + s.owner + ": " + s.nominal.str()});
        }
        if (rest_count)
            b.segments.push_back({as_double(rest), Palette::cohort_color(), 0.6, false,
                                  std::to_string(rest_count) + " more: " + rest.str()});
        if (res->capacity) {
            b.marker = as_double(*res->capacity);
            b.marker_title = "capacity " + res->capacity->str();
            b.value_text = res->nominal.str() + " / " + res->capacity->str();
            if (res->commit_permille) b.value_text += " · " + capacity::percent_text(*res->commit_permille);
            if (res->commit == capacity::Commit::Over) {
                b.value_text += " over";
                b.warn = true;
            }
        } else {
            b.value_text = res->nominal.str() + " · capacity unknown";
        }
        bars.push_back(std::move(b));
    }
    std::string per_node;
    for (const auto& res : p.resources)
        if (res.per_node) per_node += (per_node.empty() ? "" : ", ") + res.resource + " " + res.per_node->str();
    std::string caption = "<b>" + esc(p.name) + "</b>";
    if (!p.in_site) caption += " <span class=\"muted\">(no pool in the site)</span>";
    caption += " · " + (p.nodes ? esc(std::to_string(*p.nodes)) + (*p.nodes == 1 ? " node" : " nodes") : std::string("nodes unknown"));
    if (!per_node.empty()) caption += " · largest pod: " + esc(per_node);
    return "<figure class=\"pool-chart\" data-pool=\"" + esc(p.name) + "\"><figcaption>" + caption + "</figcaption>" +
           bar_chart(bars, {.width = 580, .label_width = 120, .value_width = 170, .css_class = "bars",
                            .title = "quota against capacity of pool " + p.name}) +
           "</figure>";
}

}  // namespace

std::string primary_resource(const capacity::Pool& p) {
    for (const auto& r : p.resources)
        if (r.resource != "cpu" && r.resource != "memory" && r.resource != "ephemeral-storage" && r.resource != "pods")
            return r.resource;
    for (const auto& r : p.resources)
        if (r.resource == "cpu") return r.resource;
    return p.resources.empty() ? std::string() : p.resources.front().resource;
}

std::string pools_section(const capacity::Report& r, const Palette& colors) {
    std::string s = "<section id=\"pools\"><h2>Pools: quota against capacity</h2>";
    s += "<p class=\"note\">One bar per resource of a pool: the nominal quotas of the teams stacked, the black line at "
         "the pool's capacity (nodes × allocatable). Quota past the line is promised twice.</p>";
    bool cohort_quota = false;
    for (const auto& p : r.pools)
        for (const auto& res : p.resources)
            for (const auto& sh : res.shares) cohort_quota = cohort_quota || sh.cohort;
    s += team_legend(r, colors, cohort_quota);
    s += "<div class=\"grid\">";
    for (const auto& p : r.pools) s += pool_chart(p, colors);
    s += "</div>";
    s += "<details><summary>Pool figures</summary><table class=\"figures\">" +
         header_row({"Pool", "Nodes", "Resource", "Per node", "Capacity", "Nominal", "Commit"}) + "<tbody>";
    std::size_t rows = 0, skipped = 0;
    for (const auto& p : r.pools)
        for (const auto& res : p.resources)
            if (++rows > kTableRows) ++skipped;
            else s += "<tr>" + cell(p.name) + cell(p.nodes ? std::to_string(*p.nodes) : "-", true) + cell(res.resource) +
                 cell(opt(res.per_node), true) + cell(opt(res.capacity), true) + cell(res.nominal.str(), true) +
                 cell(res.commit_permille ? capacity::percent_text(*res.commit_permille) + " " + capacity::commit_name(res.commit) : "-", true) +
                 "</tr>";
    s += "</tbody></table>" + more_rows(skipped, "rows") + "</details></section>";
    return s;
}

std::string teams_section(const capacity::Report& r, const Palette& colors) {
    std::string s = "<section id=\"teams\"><h2>Teams: guaranteed, nominal and maximum burst</h2>";
    s += "<p class=\"note\">Per pool and resource: <b>guaranteed</b> is the part of the nominal quota never lent to the "
         "cohort (nominal − lendingLimit; without a lendingLimit all of it may be lent while unused), <b>nominal</b> the "
         "quota, <b>max burst</b> the most the queue can hold (nominal + borrowingLimit, capped by what its cohort "
         "tree can lend: Kueue's maximum capacity). The line marks the pool's capacity.</p>";
    s += legend({{"guaranteed", "#555555"}, {"lendable nominal", "#555555", 0.45}, {"borrowable up to max burst", "#555555", 0.12, true}});
    s += "<div class=\"grid\">";
    std::size_t charted = 0;
    for (const auto& t : r.teams) {
        if (++charted > kTeamsCharted) break;
        const char* color = colors.color(t.cluster_queue);
        std::vector<Bar> bars;
        for (const auto& q : t.quota) {
            if (q.nominal.zero() && q.max_burst.zero()) continue;
            Bar b;
            b.label = q.pool + " " + q.resource;
            Amount scale = q.max_burst.nanos > q.nominal.nanos ? q.max_burst : q.nominal;
            const auto* pool = find_resource(r, q.pool, q.resource);
            if (pool && pool->capacity) {
                if (pool->capacity->nanos > scale.nanos) scale = *pool->capacity;
                b.marker = as_double(*pool->capacity);
                b.marker_title = "pool capacity " + pool->capacity->str();
            }
            b.scale = as_double(scale);
            b.segments.push_back({as_double(q.guaranteed), color, 1, false, "guaranteed " + q.guaranteed.str()});
            b.segments.push_back({as_double(q.lendable), color, 0.45, false, "lendable " + q.lendable.str()});
            Amount extra = capacity::minus_floor0(q.max_burst, q.nominal);
            b.segments.push_back({as_double(extra), color, 0.12, true, "borrowable " + extra.str()});
            b.value_text = q.guaranteed.str() + " / " + q.nominal.str() + " / " + q.max_burst.str();
            b.warn = pool && pool->capacity && q.max_burst.nanos > pool->capacity->nanos;
            bars.push_back(std::move(b));
        }
        std::string caption = "<span class=\"swatch\" style=\"background:" + esc(color) + "\"></span><b>" + esc(t.name) + "</b>";
        if (t.cluster_queue != t.name) caption += " (ClusterQueue " + esc(t.cluster_queue) + ")";
        caption += t.cohort.empty() ? std::string(" · no cohort") : " · cohort " + esc(t.cohort);
        caption += " · reclaimWithinCohort " + esc(t.reclaim_within_cohort);
        s += "<figure class=\"team-chart\" data-team=\"" + esc(t.name) + "\"><figcaption>" + caption + "</figcaption>";
        if (bars.empty()) s += "<p class=\"muted\">no quota</p>";
        else
            s += bar_chart(bars, {.width = 580, .label_width = 150, .value_width = 140, .css_class = "bars",
                                  .title = "guaranteed / nominal / max burst of team " + t.name});
        s += "</figure>";
    }
    s += "</div>";
    if (r.teams.size() > kTeamsCharted) s += more_rows(r.teams.size() - kTeamsCharted, "teams charted");
    s += "<details><summary>Team figures</summary><table class=\"figures\">" +
         header_row({"Team", "Cohort", "Pool", "Resource", "Nominal", "Borrowing limit", "Lending limit", "Guaranteed",
                     "Lendable", "Max burst", "Largest pod"}) +
         "<tbody>";
    std::size_t rows = 0, skipped = 0;
    for (const auto& t : r.teams)
        for (const auto& q : t.quota)
            if (++rows > kTableRows) ++skipped;
            else s += "<tr>" + cell(t.name) + cell(t.cohort.empty() ? "-" : t.cohort) + cell(q.pool) + cell(q.resource) +
                 cell(q.nominal.str(), true) + cell(opt(q.borrowing_limit), true) + cell(opt(q.lending_limit), true) +
                 cell(q.guaranteed.str(), true) + cell(q.lendable.str(), true) + cell(q.max_burst.str(), true) +
                 cell(opt(q.largest_pod), true) + "</tr>";
    s += "</tbody></table>" + more_rows(skipped, "rows") + "</details></section>";
    return s;
}

namespace {

struct TreeContext {
    const capacity::Report& report;
    const Palette& colors;
    std::map<std::string, const capacity::Cohort*> cohorts;
    std::map<std::string, const capacity::Team*> teams;  // by ClusterQueue
    std::map<std::string, std::string> primary;          // pool -> resource
};

std::string cohort_item(const TreeContext& cx, const capacity::Cohort& c, int budget) {
    std::string s = "<li><span class=\"cohort\">" + esc(c.name) + "</span>";
    if (!c.has_object) s += " <span class=\"muted\">(implicit)</span>";
    if (c.in_cycle) s += " <span class=\"warn\">(parent cycle)</span>";
    for (const auto& t : c.totals) {
        auto p = cx.primary.find(t.pool);
        if (p == cx.primary.end() || p->second != t.resource || t.subtree_nominal.zero()) continue;
        s += " <span class=\"chip\" title=\"shared (after lending limits) / all nominal quota\">" + esc(t.pool) + " " +
             esc(t.resource) + " <b>" + esc(t.shared.str()) + "</b> / " + esc(t.subtree_nominal.str()) + "</span>";
    }
    // The cohort list is a forest; the budget only bounds a malformed report.
    if (budget > 0 && (!c.cohorts.empty() || !c.cluster_queues.empty())) {
        s += "<ul>";
        for (const auto& k : c.cohorts) {
            auto it = cx.cohorts.find(k);
            if (it != cx.cohorts.end()) s += cohort_item(cx, *it->second, budget - 1);
        }
        for (const auto& q : c.cluster_queues) {
            auto t = cx.teams.find(q);
            std::string label = t != cx.teams.end() && t->second->name != q ? t->second->name + " (" + q + ")" : q;
            s += "<li><span class=\"swatch\" style=\"background:" + esc(cx.colors.color(q)) + "\"></span><span class=\"queue\">" +
                 esc(label) + "</span></li>";
        }
        s += "</ul>";
    }
    return s + "</li>";
}

}  // namespace

std::string cohorts_section(const capacity::Report& r, const Palette& colors) {
    TreeContext cx{r, colors, {}, {}, {}};
    for (const auto& c : r.cohorts) cx.cohorts.emplace(c.name, &c);
    for (const auto& t : r.teams) cx.teams.emplace(t.cluster_queue, &t);
    for (const auto& p : r.pools) cx.primary.emplace(p.name, primary_resource(p));
    std::string s = "<section id=\"cohorts\"><h2>Cohorts</h2>";
    s += "<p class=\"note\">The quota tree Kueue builds. Per cohort and pool: <b>shared</b> (what the members can borrow "
         "from each other after lending limits) / all nominal quota in the subtree.</p>";
    s += "<ul class=\"tree\">";
    for (const auto& c : r.cohorts)
        if (c.parent.empty()) s += cohort_item(cx, c, 10000);
    std::string lone;
    for (const auto& t : r.teams)
        if (t.cohort.empty())
            lone += "<li><span class=\"swatch\" style=\"background:" + esc(colors.color(t.cluster_queue)) +
                    "\"></span><span class=\"queue\">" + esc(t.name) + "</span></li>";
    if (!lone.empty()) s += "<li><span class=\"muted\">no cohort</span><ul>" + lone + "</ul></li>";
    s += "</ul>";
    if (!r.cohorts.empty()) {
        s += "<details><summary>Cohort totals</summary><table class=\"figures\">" +
             header_row({"Cohort", "Parent", "Pool", "Resource", "Nominal", "Shared", "Own quota", "Borrowing limit",
                         "Lending limit", "Max burst"}) +
             "<tbody>";
        std::size_t rows = 0, skipped = 0;
        for (const auto& c : r.cohorts)
            for (const auto& t : c.totals)
                if (++rows > kTableRows) ++skipped;
                else s += "<tr>" + cell(c.name) + cell(c.parent.empty() ? "-" : c.parent) + cell(t.pool) + cell(t.resource) +
                     cell(t.subtree_nominal.str(), true) + cell(t.shared.str(), true) + cell(t.own_nominal.str(), true) +
                     cell(opt(t.borrowing_limit), true) + cell(opt(t.lending_limit), true) + cell(t.max_burst.str(), true) +
                     "</tr>";
        s += "</tbody></table>" + more_rows(skipped, "rows") + "</details>";
    }
    return s + "</section>";
}

}  // namespace queueforge::html
