#include "frontend/site/parse_parts.hpp"

#include <queueforge/base/text.hpp>

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
    out.reserve(out.size() + n->items().size());  // kept for every team while the site is lowered
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
            r.error(e.key_mark(),
                    "spec.teamDefaults: \"" + e.key +
                        "\" is set per team (spec.teams[]), not in teamDefaults; teamDefaults takes queueingStrategy, "
                        "preemption, flavorFungibility, fairSharingWeight, stopPolicy, defaultQueue and localQueue",
                    r.rule("unknown-field"));
    read_settings(r, n, "spec.teamDefaults", out);
}

// A User or Group name: the API server only demands a non-empty name
// (rbac validation.ValidateRoleBindingSubject); a name with blanks or control
// characters matches no identity a provider issues, so it is refused too.
void read_subjects(const Reader& r, const Node* n, const std::string& what, std::vector<Text>& out) {
    r.read_text_list(n, what, out);
    for (const auto& s : out) {
        if (s.value.empty())
            r.error(s.mark, what + ": a subject name cannot be empty", r.rule("rbac-subject"));
        else if (std::any_of(s.value.begin(), s.value.end(), [](unsigned char c) { return c <= 0x20 || c == 0x7f; }))
            r.error(s.mark, what + ": " + go_quote(s.value) + " holds blanks or control characters; no identity provider issues such a name",
                    r.rule("rbac-subject"));
    }
}

void read_members(const Reader& r, const Node& n, const std::string& what, Members& out) {
    if (!r.expect_map(n, what, {"groups", "users", "serviceAccounts", "projectRole"})) return;
    out.mark = n.mark();
    read_subjects(r, n.find("groups"), what + ".groups", out.groups);
    read_subjects(r, n.find("users"), what + ".users", out.users);
    r.read_text_list(n.find("serviceAccounts"), what + ".serviceAccounts", out.service_accounts);
    for (const auto& sa : out.service_accounts) {
        // "name" or "namespace/name": ValidateServiceAccountName (a DNS-1123
        // subdomain) and a namespace name (a DNS-1123 label).
        auto slash = sa.value.find('/');
        std::string ns = slash == std::string::npos ? std::string() : sa.value.substr(0, slash);
        std::string name = slash == std::string::npos ? sa.value : sa.value.substr(slash + 1);
        std::string why = slash != std::string::npos ? check_dns1123_label(ns) : std::string();
        if (why.empty()) why = check_dns1123_subdomain(name);
        if (!why.empty())
            r.error(sa.mark, what + ".serviceAccounts: " + go_quote(sa.value) + ": " + why, r.rule("rbac-subject"));
    }
    // A ClusterRole name is a path segment name (rbac validation.ValidateRoleBinding).
    if (r.read_text(n.find("projectRole"), what + ".projectRole", out.project_role)) {
        const std::string& role = out.project_role.value;
        if (role.empty() || role == "." || role == ".." || role.find_first_of("/%") != std::string::npos)
            r.error(out.project_role.mark,
                    what + ".projectRole: " + go_quote(role) + " is not a valid ClusterRole name (may not be empty, \".\" or \"..\", or contain '/' or '%')",
                    r.rule("rbac-subject"));
    }
    if (out.project_role.value == "kueue-batch-admin-role" || out.project_role.value == "cluster-admin")
        r.error(out.project_role.mark,
                what + ".projectRole: " + out.project_role.value +
                    " gives a team's members power over every team's queues; tenants get kueue-batch-user-role "
                    "(always bound) and at most a project role such as edit",
                r.rule("rbac-admin-role"));
}

bool read_team(const Reader& r, const Node& n, const std::string& what, Team& out) {
    if (!r.expect_map(n, what,
                      {"name", "displayName", "clusterQueue", "namespaces", "namespaceSelector", "cohort", "quota",
                       "queueingStrategy", "preemption", "flavorFungibility", "fairSharingWeight", "stopPolicy",
                       "defaultQueue", "localQueue", "members", "ignore"}))
        return false;
    out.mark = n.mark();
    r.read_rule_list(n.find("ignore"), what + ".ignore", out.ignore);
    if (!r.require(n, "name", what)) return false;
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
    r.read_text(n.find("displayName"), what + ".displayName", out.display_name);
    read_settings(r, n, what, out.settings);
    read_quota(r, n.find("quota"), what + ".quota", out.quota);
    if (const Node* m = n.find("members")) {
        read_members(r, *m, what + ".members", out.members.emplace());
        if (out.namespaces.empty())
            r.error(m->mark(), what + ".members: the team has no namespaces to bind its members in; add " + what + ".namespaces",
                    r.rule("members-without-namespaces"));
    }
    return ok;
}

bool read_cohort(const Reader& r, const Node& n, const std::string& what, Cohort& out) {
    if (!r.expect_map(n, what, {"name", "parent", "fairSharingWeight", "quota"})) return false;
    out.mark = n.mark();
    if (!r.require(n, "name", what)) return false;
    bool ok = r.read_name(n.find("name"), what + ".name", out.name);
    r.read_name(n.find("parent"), what + ".parent", out.parent);
    r.read_quantity(n.find("fairSharingWeight"), what + ".fairSharingWeight", out.fair_sharing_weight);
    read_quota(r, n.find("quota"), what + ".quota", out.quota);
    return ok;
}

}  // namespace queueforge::site
