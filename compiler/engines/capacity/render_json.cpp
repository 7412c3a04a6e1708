// `capacity -o json`. The shape is documented in capacity.hpp; keys
// are written in a fixed order and amounts as canonical quantity strings, so
// the document is byte-stable and exact.
#include <queueforge/engines/capacity.hpp>

#include "engines/capacity/arith.hpp"

#include <nlohmann/json.hpp>

namespace queueforge::capacity {

namespace {

using json = nlohmann::ordered_json;

json opt(const std::optional<Amount>& a) { return a ? json(a->str()) : json(nullptr); }

json pool_json(const Pool& p) {
    json resources = json::array();
    for (const auto& r : p.resources) {
        json shares = json::array();
        for (const auto& s : r.shares) {
            json j = {{"kind", s.cohort ? "Cohort" : "ClusterQueue"}, {"name", s.owner}};
            if (!s.cohort) j["team"] = s.team;
            j["nominal"] = s.nominal.str();
            shares.push_back(std::move(j));
        }
        resources.push_back({{"resource", r.resource},
                             {"perNode", opt(r.per_node)},
                             {"capacity", opt(r.capacity)},
                             {"nominal", r.nominal.str()},
                             {"commitPercent", r.commit_permille ? json(static_cast<double>(*r.commit_permille) / 10.0) : json(nullptr)},
                             {"commit", commit_name(r.commit)},
                             {"shares", std::move(shares)}});
    }
    return {{"name", p.name},
            {"inSite", p.in_site},
            {"nodes", p.nodes ? json(*p.nodes) : json(nullptr)},
            {"resources", std::move(resources)}};
}

json team_json(const Team& t) {
    json quota = json::array();
    for (const auto& q : t.quota)
        quota.push_back({{"pool", q.pool},
                         {"resource", q.resource},
                         {"nominal", q.nominal.str()},
                         {"borrowingLimit", opt(q.borrowing_limit)},
                         {"lendingLimit", opt(q.lending_limit)},
                         {"guaranteed", q.guaranteed.str()},
                         {"lendable", q.lendable.str()},
                         {"maxBurst", q.max_burst.str()},
                         {"largestPod", opt(q.largest_pod)}});
    return {{"name", t.name},
            {"clusterQueue", t.cluster_queue},
            {"cohort", t.cohort.empty() ? json(nullptr) : json(t.cohort)},
            {"reclaimWithinCohort", t.reclaim_within_cohort},
            {"quota", std::move(quota)}};
}

json cohort_json(const Cohort& c) {
    json totals = json::array();
    for (const auto& r : c.totals)
        totals.push_back({{"pool", r.pool},
                          {"resource", r.resource},
                          {"nominal", r.subtree_nominal.str()},
                          {"shared", r.shared.str()},
                          {"ownNominal", r.own_nominal.str()},
                          {"borrowingLimit", opt(r.borrowing_limit)},
                          {"lendingLimit", opt(r.lending_limit)},
                          {"guaranteed", r.guaranteed.str()},
                          {"maxBurst", r.max_burst.str()}});
    return {{"name", c.name},
            {"parent", c.parent.empty() ? json(nullptr) : json(c.parent)},
            {"object", c.has_object},
            {"cycle", c.in_cycle},
            {"depth", c.depth},
            {"cohorts", c.cohorts},
            {"clusterQueues", c.cluster_queues},
            {"totals", std::move(totals)}};
}

}  // namespace

std::string render_json(const Report& r) {
    json pools = json::array(), teams = json::array(), cohorts = json::array();
    for (const auto& p : r.pools) pools.push_back(pool_json(p));
    for (const auto& t : r.teams) teams.push_back(team_json(t));
    for (const auto& c : r.cohorts) cohorts.push_back(cohort_json(c));
    json doc = {{"apiVersion", "queueforge.io/v1alpha1"},
                {"kind", "CapacityReport"},
                {"site", r.site},
                {"target", r.target},
                {"pools", std::move(pools)},
                {"teams", std::move(teams)},
                {"cohorts", std::move(cohorts)}};
    // Replacement keeps invalid UTF-8 in names from throwing.
    return doc.dump(2, ' ', false, json::error_handler_t::replace) + "\n";
}

}  // namespace queueforge::capacity
