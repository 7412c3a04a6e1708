// Tests for compiler/checks/rules: --target (kueue-semantics.md section 2).
// Every rule has a case that fires (checked by rule id, field path,
// position and wording) and one that must stay quiet. The wording is Kueue's
// own (pkg/webhooks, the CRD x-kubernetes-validations), restated on purpose.
#include "rules_test_util.hpp"

using namespace rules_test;

TEST_CASE("rules: target.unserved kinds and API versions", "[rules]") {
    auto cohort = "apiVersion: kueue.x-k8s.io/v1beta1\nkind: Cohort\nmetadata:\n  name: org\n";
    auto old = one(cross(cohort, "rhoai-2.16"), "target.unserved", "apiVersion", 1, 13);
    CHECK(has(old.message, "Cohort objects need Kueue 0.9 or newer"));
    // 0.10 serves Cohort only as v1alpha1; 0.13 only as v1beta1.
    CHECK(has(one(cross(cohort, "kueue-0.10"), "target.unserved", "apiVersion", 1, 13).message, "served there: kueue.x-k8s.io/v1alpha1"));
    one(cross("apiVersion: kueue.x-k8s.io/v1alpha1\nkind: Cohort\nmetadata:\n  name: org\n", "kueue-0.13"), "target.unserved",
        "apiVersion", 1, 13);
    none(cross(cohort, "kueue-0.13"), "target.unserved");

    auto v2 = cross(std::string(kFlavor), "rhoai-3.4");
    CHECK(has(one(v2, "target.unserved", "apiVersion", 1, 13).message, "Kueue 0.14 of target rhoai-3.4 (served there: kueue.x-k8s.io/v1beta1)"));
    none(cross(std::string(kFlavor), "rhoai-3.5"), "target.unserved");
    // v1beta1 is deprecated from Kueue 0.16.
    auto dep = one(cross("apiVersion: kueue.x-k8s.io/v1beta1\nkind: ResourceFlavor\nmetadata:\n  name: f\n", "kueue-0.16"),
                   "target.deprecated", "apiVersion", 1, 13);
    CHECK(dep.severity == Severity::Warning);
    CHECK(has(dep.message, "use kueue.x-k8s.io/v1beta2"));
    // Kueue 0.20 serves no v1beta1 (kubernetes-sigs/kueue#14558): refused, with the rewrite.
    for (const char* target : {"kueue-0.20", "kubernetes"}) {
        auto gone = one(cross(cq("", kGoodGroups, "v1beta1"), target), "target.unserved", "apiVersion", 1, 13);
        CHECK(has(gone.message, "served there: kueue.x-k8s.io/v1beta2"));
        CHECK(has(gone.message, "rewrite the object as kueue.x-k8s.io/v1beta2 (spec.cohort becomes spec.cohortName)"));
    }
    none(cross(cq("", kGoodGroups, "v1beta1"), "kueue-0.19"), "target.unserved");
}

TEST_CASE("rules: target.unserved fields", "[rules]") {
    auto cq1 = [](const std::string& extra) {
        return "apiVersion: kueue.x-k8s.io/v1beta1\nkind: ClusterQueue\nmetadata:\n  name: cq\nspec:\n  namespaceSelector: {}\n" + extra;
    };
    auto fs = one(cross(cq1("  fairSharing:\n    weight: 2\n"), "rhoai-2.10"), "target.unserved", "spec.fairSharing", 8, 5);
    CHECK(has(fs.message, "needs Kueue 0.7 or newer"));
    none(cross(cq1("  fairSharing:\n    weight: 2\n"), "rhoai-2.16"), "target.unserved");
    auto pref = cross(cq1("  flavorFungibility:\n    whenCanBorrow: TryNextFlavor\n    preference: BorrowingOverPreemption\n"), "kueue-0.14");
    one(pref, "target.unserved", "spec.flavorFungibility.preference", 9, 17);
    none(cross(cq1("  flavorFungibility:\n    whenCanBorrow: TryNextFlavor\n    preference: BorrowingOverPreemption\n"), "kueue-0.15"),
         "target.unserved");
    auto lq = "apiVersion: kueue.x-k8s.io/v1beta1\nkind: LocalQueue\nmetadata:\n  name: q\n  namespace: a\nspec:\n  clusterQueue: cq\n  stopPolicy: Hold\n";
    one(cross(lq, "kueue-0.7"), "target.unserved", "spec.stopPolicy", 8, 15);
    none(cross(lq, "kueue-0.8"), "target.unserved");
    // Cohort fairSharing arrived in v1alpha1 with Kueue 0.11.
    auto co = "apiVersion: kueue.x-k8s.io/v1alpha1\nkind: Cohort\nmetadata:\n  name: org\nspec:\n  fairSharing:\n    weight: 1\n";
    one(cross(co, "kueue-0.10"), "target.unserved", "spec.fairSharing", 7, 5);
    none(cross(co, "rhoai-2.22"), "target.unserved");
    // Without a target nothing is judged.
    none(cross(cq1("  fairSharing:\n    weight: 2\n")), "target.unserved");
}

TEST_CASE("rules: DataScienceCluster against the target", "[rules]") {
    const std::string v2 = yaml(R"(
apiVersion: datasciencecluster.opendatahub.io/v2
kind: DataScienceCluster
metadata:
  name: default-dsc
spec:
  components:
    kueue:
      managementState: Managed
      defaultLocalQueueName: default
    codeflare:
      managementState: Managed
    trainer:
      managementState: Removed
)");
    auto on30 = cross(v2, "rhoai-3.0");
    auto state = one(on30, "target.component-state", "spec.components.kueue.managementState", 8, 24);
    CHECK(has(state.message, "use Unmanaged"));
    auto comp = of_rule(on30, "target.component");
    INFO(dump(on30));
    REQUIRE(comp.size() == 2);
    CHECK(comp[0].path == "spec.components.codeflare");
    CHECK(comp[0].mark.line == 10);
    CHECK(comp[0].mark.col == 5);
    CHECK(has(comp[0].message, "removed in DataScienceCluster v2"));
    CHECK(comp[1].path == "spec.components.trainer");
    CHECK(has(comp[1].message, "needs OpenShift AI 3.2 or newer"));

    // v2 before 3.0; no DSC on plain Kubernetes.
    auto on225 = cross(v2, "rhoai-2.25");
    CHECK(has(one(on225, "target.unserved", "apiVersion", 1, 13).message, "needs OpenShift AI 3.0 or newer"));
    one(cross(v2, "kueue-0.14"), "target.unserved", "apiVersion", 1, 13);

    // v1 is still served on 3.x, with the 2.25 keys and without kueue Managed.
    const std::string v1 = yaml(R"(
apiVersion: datasciencecluster.opendatahub.io/v1
kind: DataScienceCluster
metadata:
  name: default-dsc
spec:
  components:
    codeflare:
      managementState: Managed
    kueue:
      managementState: Unmanaged
      defaultClusterQueueName: default
)");
    no_errors(cross(v1, "rhoai-3.3"));
    no_errors(cross(v1, "rhoai-2.25"));
    auto on222 = cross(v1, "rhoai-2.22");
    one(on222, "target.component-state", "spec.components.kueue.managementState", 10, 24);
    one(on222, "target.unserved", "spec.components.kueue.defaultClusterQueueName", 11, 32);
}
