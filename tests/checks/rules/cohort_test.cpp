// Tests for compiler/checks/rules: Cohort (kueue-semantics.md section 2).
// Every rule has a case that fires (checked by rule id, field path,
// position and wording) and one that must stay quiet. The wording is Kueue's
// own (pkg/webhooks, the CRD x-kubernetes-validations), restated on purpose.
#include "rules_test_util.hpp"

using namespace rules_test;

TEST_CASE("rules: V42 V43 V44 Cohort limits and weight", "[rules]") {
    auto cohort = [](const std::string& api, const std::string& parent, const std::string& lending) {
        return "apiVersion: kueue.x-k8s.io/" + api +
               "\n"
               "kind: Cohort\n"
               "metadata:\n"
               "  name: org\n"
               "spec:\n" +
               parent +
               "  fairSharing:\n"
               "    weight: -2\n"
               "  resourceGroups:\n"
               "  - coveredResources: [cpu]\n"
               "    flavors:\n"
               "    - name: a\n"
               "      resources:\n"
               "      - name: cpu\n"
               "        nominalQuota: 4\n"
               "        lendingLimit: " +
               lending + "\n";
    };
    auto bad = check(cohort("v1beta2", "", "8"));
    auto v42 = one(bad, "V42", "spec.resourceGroups[0].flavors[0].resources[0].lendingLimit", 15, 23);
    CHECK(v42.message == "spec.resourceGroups[0].flavors[0].resources[0].lendingLimit: Invalid value: \"8\": must be nil when parent is empty");
    auto v44 = one(bad, "V44", "spec.fairSharing.weight", 7, 13);
    CHECK(v44.message == "spec.fairSharing: Invalid value: \"-2\": must be greater than or equal to 0");
    none(bad, "V31");  // V43: a Cohort may lend more than its own nominalQuota

    // v1beta2/v1beta1 parentName, v1alpha1 parent.
    none(check(cohort("v1beta2", "  parentName: root\n", "8")), "V42");
    none(check(cohort("v1beta1", "  parentName: root\n", "8")), "V42");
    none(check(cohort("v1alpha1", "  parent: root\n", "8")), "V42");
    CHECK(of_rule(check(cohort("v1alpha1", "  parentName: root\n", "8")), "V42").size() == 1);
}

TEST_CASE("rules: Cohort resource groups follow the ClusterQueue rules except V27", "[rules]") {
    auto bad = check(yaml(R"(
apiVersion: kueue.x-k8s.io/v1beta2
kind: Cohort
metadata:
  name: org
spec:
  resourceGroups:
  - coveredResources: [cpu, cpu]
    flavors:
    - name: a
      resources:
      - name: memory
        nominalQuota: -1
      - name: cpu
        nominalQuota: 1
)"));
    one(bad, "V25", "spec.resourceGroups[0].coveredResources[1]", 7, 29);
    one(bad, "V24", "spec.resourceGroups[0].flavors[0].resources[0].name", 11, 15);
    one(bad, "V28", "spec.resourceGroups[0].flavors[0].resources[0].nominalQuota", 12, 23);
    none(bad, "V27");
}
