// Cohort: Kueue's cohort webhook (kueue-semantics.md 2.4,
// pkg/webhooks/cohort_webhook.go). The resource-group rules are the
// ClusterQueue ones minus V27 and V31; limits need a parent instead of a
// cohort (V42). Cycles (V45) need the other Cohorts: see cohort_graph.cpp.
#include "checks/rules/kinds.hpp"

namespace queueforge::rules::detail {

void check_cohort(const Reporter& rep) {
    const Node* spec = present(&rep.r.doc, "spec");
    if (!spec) return;
    check_fair_sharing(rep, spec, "V44");
    check_resource_groups(rep, spec, {.has_parent = cohort_parent(rep.r) != nullptr, .is_cohort = true});
}

}  // namespace queueforge::rules::detail
