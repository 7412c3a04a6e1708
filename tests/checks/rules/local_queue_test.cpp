// Tests for compiler/checks/rules: LocalQueue, WorkloadPriorityClass (kueue-semantics.md section 2).
// Every rule has a case that fires (checked by rule id, field path,
// position and wording) and one that must stay quiet. The wording is Kueue's
// own (pkg/webhooks, the CRD x-kubernetes-validations), restated on purpose.
#include "rules_test_util.hpp"

using namespace rules_test;

TEST_CASE("rules: V2 LocalQueue and WorkloadPriorityClass names are label values", "[rules]") {
    const std::string long_name(70, 'q');
    auto bad = check("apiVersion: kueue.x-k8s.io/v1beta2\nkind: LocalQueue\nmetadata:\n  name: " + long_name +
                     "\n  namespace: team-a\nspec:\n  clusterQueue: cq\n---\n"
                     "apiVersion: kueue.x-k8s.io/v1beta2\nkind: WorkloadPriorityClass\nmetadata:\n  name: prio.high\nvalue: 100\n");
    auto v2 = of_rule(bad, "V2");
    REQUIRE(v2.size() == 1);  // dots are fine in label values
    CHECK(v2[0].severity == Severity::Warning);
    CHECK(v2[0].path == "metadata.name");
    CHECK(v2[0].mark.line == 4);
    CHECK(v2[0].mark.col == 9);
    CHECK(has(v2[0].message, "kueue.x-k8s.io/queue-name"));
    CHECK(has(v2[0].message, "must be no more than 63 characters"));

    auto wpc = check("apiVersion: kueue.x-k8s.io/v1beta2\nkind: WorkloadPriorityClass\nmetadata:\n  name: " + long_name + "\nvalue: 1\n");
    CHECK(has(one(wpc, "V2", "metadata.name", 4, 9).message, "kueue.x-k8s.io/priority-class"));
}

TEST_CASE("rules: V4 LocalQueue fairSharing weight must parse", "[rules]") {
    auto bad = check(yaml(R"(
apiVersion: kueue.x-k8s.io/v1beta2
kind: LocalQueue
metadata:
  name: lq
  namespace: team-a
spec:
  clusterQueue: cq
  fairSharing:
    weight: 1.5.0
)"));
    one(bad, "V4", "spec.fairSharing.weight", 9, 13);
    CHECK(check(yaml(R"(
apiVersion: kueue.x-k8s.io/v1beta2
kind: LocalQueue
metadata:
  name: lq
  namespace: team-a
spec:
  clusterQueue: cq
  fairSharing:
    weight: "1.5"
)")).empty());
}
