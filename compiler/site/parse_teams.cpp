#include "site/parse_parts.hpp"

#include <algorithm>
#include <iterator>

namespace queueforge::site {

namespace {

void read_preemption(const Reader& r, const Node& n, const std::string& what, Preemption& p) {
    if (!r.expect_map(n, what, {"reclaimWithinCohort", "withinClusterQueue", "borrowWithinCohort"})) return;
    r.read_enum(n.find("reclaimWithinCohort"), what + ".reclaimWithinCohort", p.reclaim_within_cohort,
                {"Never", "LowerPriority", "Any"});
    r.read_enum(n.find("withinClusterQueue"), what + ".withinClusterQueue", p.within_cluster_queue,
                {"Never", "LowerPriority", "LowerOrNewerEqualPriority"});
    if (const Node* b = n.find("borrowWithinCohort")) {
        std::string bw = what + ".borrowWithinCohort";
        if (r.expect_map(*b, bw, {"policy", "maxPriorityThreshold"})) {
            r.read_enum(b->find("policy"), bw + ".policy", p.borrow_policy, {"Never", "LowerPriority"});
            r.read_int(b->find("maxPriorityThreshold"), bw + ".maxPriorityThreshold", p.max_priority_threshold,
                       INT32_MIN, INT32_MAX);
        }
    }
}

void read_fungibility(const Reader& r, const Node& n, const std::string& what, FlavorFungibility& f) {
    if (!r.expect_map(n, what, {"whenCanBorrow", "whenCanPreempt", "preference"})) return;
    // Either spelling of "stop here": MayStopSearch (Kueue 0.15 and newer)
    // or Borrow / Preempt (before); lowering writes the one the target serves.
    r.read_enum(n.find("whenCanBorrow"), what + ".whenCanBorrow", f.when_can_borrow,
                {"MayStopSearch", "TryNextFlavor", "Borrow"});
    r.read_enum(n.find("whenCanPreempt"), what + ".whenCanPreempt", f.when_can_preempt,
                {"MayStopSearch", "TryNextFlavor", "Preempt"});
    r.read_enum(n.find("preference"), what + ".preference", f.preference,
                {"BorrowingOverPreemption", "PreemptionOverBorrowing"});
}

void read_settings(const Reader& r, const Node& n, const std::string& what, QueueSettings& s) {
    r.read_enum(n.find("queueingStrategy"), what + ".queueingStrategy", s.queueing_strategy,
                {"BestEffortFIFO", "StrictFIFO"});
    if (const Node* p = n.find("preemption")) read_preemption(r, *p, what + ".preemption", s.preemption);
    if (const Node* f = n.find("flavorFungibility")) read_fungibility(r, *f, what + ".flavorFungibility", s.fungibility);
    r.read_quantity(n.find("fairSharingWeight"), what + ".fairSharingWeight", s.fair_sharing_weight);
    r.read_enum(n.find("stopPolicy"), what + ".stopPolicy", s.stop_policy, {"None", "Hold", "HoldAndDrain"});
    r.read_bool(n.find("defaultQueue"), what + ".defaultQueue", s.default_queue);
    r.read_name(n.find("localQueue"), what + ".localQueue", s.local_queue);
}

}  // namespace

void read_quota(const Reader& r, const Node* n, const std::string& what, std::vector<QuotaEntry>& out) {
    if (!n || !r.expect_seq(*n, what)) return;
    for (std::size_t i = 0; i < n->items().size(); ++i) {
        const Node& q = n->items()[i];
        std::string label = what + "[" + std::to_string(i) + "]";
        if (!r.expect_map(q, label, {"pool", "nominal", "borrowingLimit", "lendingLimit"})) continue;
        QuotaEntry e;
        e.mark = q.mark();
        if (!q.find("pool")) r.error(q.mark(), label + ".pool: required", "site.required");
        if (!q.find("nominal")) r.error(q.mark(), label + ".nominal: required (resource: quantity or share)", "site.required");
        r.read_name(q.find("pool"), label + ".pool", e.pool);
        r.read_amounts(q.find("nominal"), label + ".nominal", e.nominal, true);
        r.read_amounts(q.find("borrowingLimit"), label + ".borrowingLimit", e.borrowing_limit, true);
        r.read_amounts(q.find("lendingLimit"), label + ".lendingLimit", e.lending_limit, true);
        out.push_back(std::move(e));
    }
}

void read_team_defaults(const Reader& r, const Node& n, QueueSettings& out) {
    // The queue settings only (README "teamDefaults", site schema): what
    // names or sizes a team -- its name, ClusterQueue, namespaces and their
    // selector, cohort, quota -- is set per team, and saying so beats
    // "unknown field".
    static constexpr std::string_view kPerTeam[] = {"name", "clusterQueue", "namespaces", "namespaceSelector", "cohort",
                                                    "quota"};
    if (!r.expect_map(n, "spec.teamDefaults",
                      {"queueingStrategy", "preemption", "flavorFungibility", "fairSharingWeight", "stopPolicy",
                       "defaultQueue", "localQueue", "name", "clusterQueue", "namespaces", "namespaceSelector", "cohort",
                       "quota"}))
        return;
    for (const auto& e : n.entries())
        if (std::find(std::begin(kPerTeam), std::end(kPerTeam), e.key) != std::end(kPerTeam))
            r.error(e.key_mark,
                    "spec.teamDefaults: \"" + e.key +
                        "\" is set per team (spec.teams[]), not in teamDefaults; teamDefaults takes queueingStrategy, "
                        "preemption, flavorFungibility, fairSharingWeight, stopPolicy, defaultQueue and localQueue",
                    r.rule("unknown-field"));
    read_settings(r, n, "spec.teamDefaults", out);
}

bool read_team(const Reader& r, const Node& n, const std::string& what, Team& out) {
    if (!r.expect_map(n, what,
                      {"name", "clusterQueue", "namespaces", "namespaceSelector", "cohort", "quota",
                       "queueingStrategy", "preemption", "flavorFungibility", "fairSharingWeight", "stopPolicy",
                       "defaultQueue", "localQueue", "ignore"}))
        return false;
    out.mark = n.mark();
    r.read_rule_list(n.find("ignore"), what + ".ignore", out.ignore);
    if (!n.find("name")) {
        r.error(n.mark(), what + ".name: required", "site.required");
        return false;
    }
    bool ok = r.read_name(n.find("name"), what + ".name", out.name);
    r.read_name(n.find("clusterQueue"), what + ".clusterQueue", out.cluster_queue);
    r.read_name_list(n.find("namespaces"), what + ".namespaces", out.namespaces);
    if (const Node* sel = n.find("namespaceSelector")) {
        if (sel->kind() == Node::Kind::String)
            r.read_enum(sel, what + ".namespaceSelector", out.selector_mode, {"namespaces", "all"});
        else if (sel->is_map())
            out.selector = *sel;  // a LabelSelector; checked when lowered
        else
            r.error(sel->mark(), what + ".namespaceSelector: expected \"namespaces\", \"all\" or a label selector",
                    "site.type");
    }
    r.read_name(n.find("cohort"), what + ".cohort", out.cohort);
    read_settings(r, n, what, out.settings);
    read_quota(r, n.find("quota"), what + ".quota", out.quota);
    return ok;
}

bool read_cohort(const Reader& r, const Node& n, const std::string& what, Cohort& out) {
    if (!r.expect_map(n, what, {"name", "parent", "fairSharingWeight", "quota"})) return false;
    out.mark = n.mark();
    if (!n.find("name")) {
        r.error(n.mark(), what + ".name: required", "site.required");
        return false;
    }
    bool ok = r.read_name(n.find("name"), what + ".name", out.name);
    r.read_name(n.find("parent"), what + ".parent", out.parent);
    r.read_quantity(n.find("fairSharingWeight"), what + ".fairSharingWeight", out.fair_sharing_weight);
    read_quota(r, n.find("quota"), what + ".quota", out.quota);
    return ok;
}

}  // namespace queueforge::site
