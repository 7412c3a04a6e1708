// Tests for compiler/checks/rules: Workload (kueue-semantics.md section 2).
// Every rule has a case that fires (checked by rule id, field path,
// position and wording) and one that must stay quiet. The wording is Kueue's
// own (pkg/webhooks, the CRD x-kubernetes-validations), restated on purpose.
#include "rules_test_util.hpp"

using namespace rules_test;

namespace {

std::string workload(const std::string& pod_sets, const std::string& rest = "", const std::string& annotations = "") {
    return "apiVersion: kueue.x-k8s.io/v1beta2\n"  // 1
           "kind: Workload\n"                      // 2
           "metadata:\n"                           // 3
           "  name: wl\n"                          // 4
           "  namespace: team-a\n" +               // 5
           annotations +                           //
           "spec:\n"                               // 6
           "  queueName: lq\n"                     // 7
           "  podSets:\n" +                        // 8
           pod_sets + rest;
}

std::string pod_set(const std::string& name, int count, const std::string& extra, const std::string& resources) {
    return "  - name: " + name + "\n    count: " + std::to_string(count) + "\n" + extra +
           "    template:\n"
           "      spec:\n"
           "        containers:\n"
           "        - name: c\n"
           "          resources:\n" +
           resources;
}

const std::string kCpu1 = "            requests:\n              cpu: 1\n";

}  // namespace

TEST_CASE("rules: a valid Workload has no findings", "[rules]") {
    CHECK(check(workload(pod_set("main", 3, "    minCount: 2\n", kCpu1))).empty());
}

TEST_CASE("rules: V61 V62 V63 minCount", "[rules]") {
    auto over = check(workload(pod_set("main", 3, "    minCount: 4\n", kCpu1)));
    auto v61 = one(over, "V61", "spec.podSets[0].minCount", 11, 15);
    CHECK(v61.message == "spec.podSets[0]: Invalid value: \"object\": minCount should be positive and less or equal to count");
    // count defaults to 1.
    one(check(workload("  - name: main\n    minCount: 2\n    template: {}\n")), "V61", "spec.podSets[0].minCount", 10, 15);

    auto two = check(workload(pod_set("a", 3, "    minCount: 1\n", kCpu1) + pod_set("b", 3, "    minCount: 1\n", kCpu1)));
    auto v62 = one(two, "V62", "spec.podSets", 9, 3);
    CHECK(v62.message == "spec.podSets: Invalid value: 2: at most one podSet can use minCount");
    none(check(workload(pod_set("a", 3, "    minCount: 1\n", kCpu1) + pod_set("b", 3, "", kCpu1))), "V62");

    const std::string elastic = "  annotations:\n    kueue.x-k8s.io/elastic-job: \"true\"\n";
    auto el = check(workload(pod_set("a", 3, "    minCount: 1\n", kCpu1), "", elastic));
    auto v63 = one(el, "V63", "spec.podSets", 11, 3);
    CHECK(v63.message == "spec.podSets: Invalid value: 1: partial admission and elastic job cannot be used together");
    none(check(workload(pod_set("a", 3, "", kCpu1), "", elastic)), "V63");
}

TEST_CASE("rules: V64 V65 container resources", "[rules]") {
    auto bad = check(workload(pod_set("main", 1, "",
                                      "            requests:\n              pods: 1\n              memory: -1Gi\n"
                                      "            limits:\n              cpu: 2x\n")));
    auto v64 = one(bad, "V64", "spec.podSets[0].template.spec.containers[0].resources.requests[pods]", 17, 15);
    CHECK(v64.message == "spec.podSets[0].template.spec.containers[0].resources.requests[pods]: Invalid value: \"pods\": the "
                         "key is reserved for internal kueue use");
    auto v65 = one(bad, "V65", "spec.podSets[0].template.spec.containers[0].resources.requests[memory]", 18, 23);
    CHECK(v65.message ==
          "spec.podSets[0].template.spec.containers[0].resources.requests[memory]: Invalid value: \"-1Gi\": must be greater than or equal to 0");
    one(bad, "V4", "spec.podSets[0].template.spec.containers[0].resources.limits[cpu]", 20, 20);

    auto good = check(workload(pod_set("main", 1, "", "            requests:\n              cpu: 0\n              nvidia.com/gpu: 1\n")));
    none(good, "V64");
    none(good, "V65");
}

TEST_CASE("rules: V66 pod template labels and annotations", "[rules]") {
    auto bad = check(workload(
        "  - name: main\n    template:\n      metadata:\n        labels:\n          app: \"a b\"\n        annotations:\n"
        "          Example.COM/Owner: me\n          \"bad key\": x\n      spec: {}\n"));
    auto v66 = of_rule(bad, "V66");
    INFO(dump(bad));
    REQUIRE(v66.size() == 2);  // annotation keys are compared lower-cased, so Example.COM is fine
    CHECK(v66[0].path == "spec.podSets[0].template.metadata.labels[app]");
    CHECK(v66[0].mark.line == 13);
    CHECK(v66[1].path == "spec.podSets[0].template.metadata.annotations[bad key]");
    CHECK(v66[1].mark.line == 16);
    CHECK(v66[1].mark.col == 11);
    CHECK(v66[1].message.starts_with("spec.podSets[0].template.metadata.annotations: Invalid value: \"bad key\": name part"));
}

TEST_CASE("rules: V67 priorityClassRef and priority", "[rules]") {
    auto bad = check(workload(pod_set("main", 1, "", kCpu1), "  priorityClassRef:\n    group: scheduling.k8s.io\n    kind: WorkloadPriorityClass\n    name: high\n"));
    auto v67 = of_rule(bad, "V67");
    INFO(dump(bad));
    REQUIRE(v67.size() == 2);
    CHECK(v67[0].path == "spec.priorityClassRef");
    CHECK(v67[0].message == "spec: Invalid value: \"object\": priority should not be nil when priorityClassRef is set");
    CHECK(v67[1].path == "spec.priorityClassRef.kind");
    CHECK(v67[0].mark.line == 19);  // a block map's position is its first key's
    CHECK(v67[1].mark.line == 20);
    CHECK(v67[1].mark.col == 11);
    CHECK(v67[1].message == "spec.priorityClassRef: Invalid value: \"object\": only the PriorityClass kind is allowed for the "
                            "scheduling.k8s.io group");
    none(check(workload(pod_set("main", 1, "", kCpu1),
                        "  priority: 100\n  priorityClassRef:\n    group: kueue.x-k8s.io\n    kind: WorkloadPriorityClass\n    name: high\n")),
         "V67");

    // v1beta1: priorityClassName needs priority.
    auto v1 = check(yaml(R"(
apiVersion: kueue.x-k8s.io/v1beta1
kind: Workload
metadata:
  name: wl
  namespace: a
spec:
  queueName: lq
  priorityClassName: high
  priorityClassSource: kueue.x-k8s.io/workloadpriorityclass
  podSets:
  - name: main
    count: 1
    template: {}
)"));
    auto d = one(v1, "V67", "spec.priorityClassName", 8, 22);
    CHECK(d.message == "spec: Invalid value: \"object\": priority should not be nil when priorityClassName is set");
}

TEST_CASE("rules: V69 V70 admission and reclaimable pods", "[rules]") {
    const std::string reserved = "status:\n  conditions:\n  - type: QuotaReserved\n    status: \"True\"\n";
    auto missing = check(workload(pod_set("main", 2, "", kCpu1), reserved));
    auto req = one(missing, "V69", "status.admission", 19, 3);
    CHECK(req.message == "status.admission: Required value: must be set while the QuotaReserved condition is true");

    auto bad = check(workload(pod_set("main", 2, "", kCpu1), reserved +
                                                                  "  admission:\n    clusterQueue: cq\n    podSetAssignments:\n"
                                                                  "    - name: main\n      count: 2\n      resourceUsage:\n        cpu: 2\n"
                                                                  "        memory: 3\n"
                                                                  "    - name: other\n      count: 1\n"
                                                                  "  reclaimablePods:\n  - name: main\n    count: 3\n  - name: ghost\n    count: 1\n"));
    auto v69 = of_rule(bad, "V69");
    INFO(dump(bad));
    REQUIRE(v69.size() == 3);
    CHECK(v69[0].message == "<nil>: Invalid value: \"object\": podSetAssignments must have the same number of podSets as the spec");
    CHECK(v69[0].path == "status.admission.podSetAssignments");
    CHECK(v69[1].path == "status.admission.podSetAssignments[0].resourceUsage[memory]");
    CHECK(v69[1].mark.line == 29);
    CHECK(v69[1].message == "status.admission.podSetAssignments[0].resourceUsage[memory]: Invalid value: \"3\": is not a multiple of 2");
    CHECK(v69[2].path == "status.admission.podSetAssignments[1].name");
    CHECK(v69[2].message == "status.admission.podSetAssignments[1].name: Not found: \"other\"");
    auto v70 = of_rule(bad, "V70");
    REQUIRE(v70.size() == 2);
    CHECK(v70[0].path == "status.reclaimablePods[main].count");
    CHECK(v70[0].mark.line == 34);
    CHECK(v70[0].message == "status.reclaimablePods[main].count: Invalid value: 3: should be less or equal to 2");
    CHECK(v70[1].message == "status.reclaimablePods[ghost].name: Unsupported value: \"ghost\": supported values: \"main\"");

    auto good = check(workload(pod_set("main", 2, "", kCpu1), reserved +
                                                                   "  admission:\n    clusterQueue: cq\n    podSetAssignments:\n"
                                                                   "    - name: main\n      count: 2\n      resourceUsage:\n        cpu: 2\n"
                                                                   "  reclaimablePods:\n  - name: main\n    count: 1\n"));
    none(good, "V69");
    none(good, "V70");
    // No QuotaReserved condition: no admission needed.
    none(check(workload(pod_set("main", 2, "", kCpu1))), "V69");
}

TEST_CASE("rules: V71 requests above limits make a Workload inadmissible", "[rules]") {
    auto bad = check(workload(pod_set("main", 1, "",
                                      "            requests:\n              cpu: 200m\n              memory: 1Gi\n"
                                      "            limits:\n              cpu: 100m\n              memory: 2Gi\n")));
    auto d = one(bad, "V71", "spec.podSets[0].template.spec.containers[0].resources.requests[cpu]", 17, 20);
    CHECK(d.severity == Severity::Error);
    CHECK(d.message.starts_with("resources validation failed: spec.podSets[0].template.spec.containers[0]: Invalid value: "
                                "[\"cpu\"]: requests must not exceed its limits"));
    // Compared in Kueue's integer units: 1.5 cpu = 1500m, equal is fine.
    none(check(workload(pod_set("main", 1, "", "            requests:\n              cpu: 1.5\n            limits:\n              cpu: 1500m\n"))),
         "V71");
}

TEST_CASE("rules: objects outside kueue.x-k8s.io are not checked per object", "[rules]") {
    CHECK(check("apiVersion: example.com/v1\nkind: ClusterQueue\nmetadata:\n  name: x\nspec:\n  fairSharing:\n    weight: -1\n").empty());
}
