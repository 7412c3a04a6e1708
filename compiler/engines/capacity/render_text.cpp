// `capacity -o text`: pools, teams, the cohort tree and its totals, as
// aligned tables.
#include <queueforge/engines/capacity.hpp>

#include "engines/capacity/arith.hpp"

#include <algorithm>
#include <map>

namespace queueforge::capacity {

namespace {

// Display width of UTF-8 text (one column per code point; names are ASCII,
// the tree's box-drawing characters are not).
std::size_t width(const std::string& s) {
    std::size_t w = 0;
    for (unsigned char c : s) w += (c & 0xC0) != 0x80;
    return w;
}

struct Table {
    std::vector<std::string> header;
    std::vector<std::vector<std::string>> rows;

    std::string render() const {
        std::vector<std::size_t> w(header.size(), 0);
        for (std::size_t i = 0; i < header.size(); ++i) w[i] = width(header[i]);
        for (const auto& r : rows)
            for (std::size_t i = 0; i < r.size() && i < w.size(); ++i) w[i] = std::max(w[i], width(r[i]));
        auto line = [&](const std::vector<std::string>& cells) {
            std::string out;
            for (std::size_t i = 0; i < cells.size() && i < w.size(); ++i) {
                out += cells[i];
                if (i + 1 < cells.size()) out.append(w[i] - width(cells[i]) + 2, ' ');
            }
            while (!out.empty() && out.back() == ' ') out.pop_back();
            return out + "\n";
        };
        std::string out = line(header);
        for (const auto& r : rows) out += line(r);
        return out;
    }
};

std::string text_or_dash(const std::optional<Amount>& a) { return a ? a->str() : "-"; }

std::string pools_table(const Report& r) {
    Table t{{"POOL", "NODES", "RESOURCE", "PER NODE", "CAPACITY", "NOMINAL", "COMMIT", ""}, {}};
    for (const auto& p : r.pools) {
        bool first = true;
        std::string name = p.in_site ? p.name : p.name + " (no pool)";
        if (p.resources.empty()) t.rows.push_back({name, p.nodes ? std::to_string(*p.nodes) : "-", "-", "", "", "", "", ""});
        for (const auto& res : p.resources) {
            t.rows.push_back({first ? name : "", first ? (p.nodes ? std::to_string(*p.nodes) : "-") : "", res.resource,
                              text_or_dash(res.per_node), text_or_dash(res.capacity), res.nominal.str(),
                              res.commit_permille ? percent_text(*res.commit_permille) : "-",
                              res.commit == Commit::Unknown ? "" : commit_name(res.commit)});
            first = false;
        }
    }
    return t.render();
}

bool all_zero(const QuotaRow& q) {
    auto z = [](const std::optional<Amount>& a) { return !a || a->zero(); };
    return q.nominal.zero() && q.max_burst.zero() && z(q.borrowing_limit) && z(q.lending_limit);
}

std::string teams_table(const Report& r) {
    Table t{{"TEAM", "COHORT", "POOL", "RESOURCE", "NOMINAL", "BORROW LIMIT", "LEND LIMIT", "GUARANTEED", "LENDABLE",
             "MAX BURST", "LARGEST POD"},
            {}};
    for (const auto& team : r.teams) {
        std::string name = team.name == team.cluster_queue ? team.name : team.name + " (" + team.cluster_queue + ")";
        bool first = true;
        for (const auto& q : team.quota) {
            // A covered resource with no quota at all (resource groups give
            // every flavor every resource) says nothing.
            if (all_zero(q)) continue;
            t.rows.push_back({first ? name : "", first ? (team.cohort.empty() ? "-" : team.cohort) : "", q.pool,
                              q.resource, q.nominal.str(), text_or_dash(q.borrowing_limit), text_or_dash(q.lending_limit),
                              q.guaranteed.str(), q.lendable.str(), q.max_burst.str(), text_or_dash(q.largest_pod)});
            first = false;
        }
        if (first) t.rows.push_back({name, team.cohort.empty() ? "-" : team.cohort, "-", "", "", "", "", "", "", "", ""});
    }
    return t.render();
}

std::string cohort_label(const Cohort& c) {
    std::string s = c.name;
    if (!c.has_object) s += " (implicit)";
    if (c.in_cycle) s += " (parent cycle)";
    return s;
}

void tree_lines(const Report& r, const std::map<std::string, const Cohort*>& by_name, const Cohort& c,
                const std::string& prefix, std::string& out, int budget) {
    // The cohort list is a forest (cycles are broken when it is built); the
    // budget only guards against a malformed Report built by hand.
    if (budget <= 0) return;
    std::vector<std::pair<std::string, const Cohort*>> kids;
    for (const auto& k : c.cohorts) {
        auto it = by_name.find(k);
        kids.emplace_back(k, it == by_name.end() ? nullptr : it->second);
    }
    for (const auto& q : c.cluster_queues) kids.emplace_back(q, nullptr);
    for (std::size_t i = 0; i < kids.size(); ++i) {
        const bool last = i + 1 == kids.size();
        out += prefix + (last ? "└─ " : "├─ ") + (kids[i].second ? cohort_label(*kids[i].second) : kids[i].first) + "\n";
        if (kids[i].second)
            tree_lines(r, by_name, *kids[i].second, prefix + (last ? "   " : "│  "), out, budget - 1);
    }
}

std::string cohorts_section(const Report& r) {
    std::string out;
    std::map<std::string, const Cohort*> by_name;
    for (const auto& c : r.cohorts) by_name.emplace(c.name, &c);
    for (const auto& c : r.cohorts) {
        if (!c.parent.empty()) continue;
        out += cohort_label(c) + "\n";
        tree_lines(r, by_name, c, "", out, 10000);
    }
    std::string lone;
    for (const auto& t : r.teams)
        if (t.cohort.empty()) lone += (lone.empty() ? "" : ", ") + t.cluster_queue;
    if (!lone.empty()) out += "(no cohort): " + lone + "\n";
    Table t{{"COHORT", "POOL", "RESOURCE", "NOMINAL", "SHARED", "OWN", "BORROW LIMIT", "LEND LIMIT", "MAX BURST"}, {}};
    for (const auto& c : r.cohorts) {
        bool first = true;
        for (const auto& row : c.totals) {
            if (row.subtree_nominal.zero() && row.max_burst.zero()) continue;
            t.rows.push_back({first ? std::string(2 * static_cast<std::size_t>(std::min(c.depth, 32)), ' ') + c.name : "",
                              row.pool, row.resource, row.subtree_nominal.str(), row.shared.str(),
                              row.own_nominal.str(), text_or_dash(row.borrowing_limit), text_or_dash(row.lending_limit),
                              row.max_burst.str()});
            first = false;
        }
    }
    if (!t.rows.empty()) out += "\n" + t.render();
    return out;
}

}  // namespace

std::string render_text(const Report& r) {
    std::string out = "Capacity of site " + r.site + " (target " + r.target + ")\n\n";
    out += "Pools: CAPACITY = nodes x PER NODE (the largest pod one node holds); NOMINAL = all quotas on the pool\n";
    out += pools_table(r);
    out += "\nTeams: GUARANTEED = nominal never lent to the cohort (nominal - lendingLimit; 0 without a lendingLimit;\n"
           "all of it without a cohort); MAX BURST = the most the queue can hold (nominal + borrowingLimit, capped\n"
           "by what its cohort tree can lend); LARGEST POD = the biggest pod of the team that is admitted and fits\n"
           "on one node of the pool (min of MAX BURST and PER NODE)\n";
    out += teams_table(r);
    if (!r.cohorts.empty()) {
        out += "\nCohorts: NOMINAL = every quota in the subtree; SHARED = what its members can borrow from each other\n"
               "(Kueue's subtree quota, after lending limits)\n";
        out += cohorts_section(r);
    }
    return out;
}

}  // namespace queueforge::capacity
