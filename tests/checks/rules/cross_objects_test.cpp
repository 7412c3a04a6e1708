// Tests for compiler/checks/rules: cross-object (kueue-semantics.md section 2).
// Every rule has a case that fires (checked by rule id, field path,
// position and wording) and one that must stay quiet. The wording is Kueue's
// own (pkg/webhooks, the CRD x-kubernetes-validations), restated on purpose.
#include "rules_test_util.hpp"

using namespace rules_test;

TEST_CASE("rules: xref.duplicate objects", "[rules]") {
    auto d = cross(std::string(kFlavor) + "---\napiVersion: kueue.x-k8s.io/v1beta1\nkind: ResourceFlavor\nmetadata:\n  name: default-flavor\n");
    auto dup = one(d, "xref.duplicate", "metadata.name", 9, 9);
    CHECK(has(dup.message, "ResourceFlavor/default-flavor is defined twice (first at x.yaml:1:1)"));
    // Same name, different namespace or kind: not a duplicate.
    none(cross("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n  namespace: x\n---\n"
               "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n  namespace: y\n---\n"
               "apiVersion: v1\nkind: Secret\nmetadata:\n  name: a\n  namespace: x\n"),
         "xref.duplicate");
}

TEST_CASE("rules: xref.missing-clusterqueue and xref.missing-flavor", "[rules]") {
    auto d = cross(std::string(kFlavor) + "---\n" + cq("", R"(  - coveredResources: ["cpu"]
    flavors:
    - name: default-flavour
      resources:
      - name: cpu
        nominalQuota: 1
)") + "---\napiVersion: kueue.x-k8s.io/v1beta2\nkind: LocalQueue\nmetadata:\n  name: lq\n  namespace: team-a\nspec:\n  clusterQueue: team-b\n");
    auto f = one(d, "xref.missing-flavor", "spec.resourceGroups[0].flavors[0].name", 15, 13);
    CHECK(has(f.message, "ResourceFlavor \"default-flavour\" is not in the input (did you mean \"default-flavor\"?)"));
    CHECK(has(f.message, "FlavorNotFound"));
    CHECK(f.object.name == "team-a");
    auto q = one(d, "xref.missing-clusterqueue", "spec.clusterQueue", 26, 17);
    CHECK(has(q.message, "ClusterQueue \"team-b\" is not in the input (did you mean \"team-a\"?)"));

    auto ok = cross(std::string(kFlavor) + "---\n" + cq("", kGoodGroups) +
                    "---\napiVersion: kueue.x-k8s.io/v1beta2\nkind: LocalQueue\nmetadata:\n  name: lq\n  namespace: team-a\nspec:\n  clusterQueue: team-a\n");
    no_errors(ok);
}

TEST_CASE("rules: cohort references, missing parents and V45 cycles", "[rules]") {
    auto co = [](const std::string& name, const std::string& parent) {
        return "apiVersion: kueue.x-k8s.io/v1beta2\nkind: Cohort\nmetadata:\n  name: " + name + "\nspec:\n" +
               (parent.empty() ? "  {}\n" : "  parentName: " + parent + "\n");
    };
    // a -> b -> a, c -> a (under the cycle), root without parent.
    auto d = cross(co("a", "b") + "---\n" + co("b", "a") + "---\n" + co("c", "a") + "---\n" + co("root", "") + "---\n" +
                   cq("  cohortName: c\n", kGoodGroups) + "---\n" + std::string(kFlavor));
    auto v45 = one(d, "V45", "spec.parentName", 6, 15);
    CHECK(v45.severity == Severity::Error);
    CHECK(has(v45.message, "(a -> b -> a)"));
    CHECK(has(v45.message, "cycles make every ClusterQueue in the cycle inactive"));
    CHECK(has(v45.message, "affected: ClusterQueue team-a"));

    // Self-parent is a cycle too; a root is not.
    one(cross(co("x", "x")), "V45", "spec.parentName", 6, 15);
    none(cross(co("root", "") + "---\n" + co("child", "root")), "V45");

    // Missing parent: warning. CQ cohort without object: a note only when Cohorts exist.
    auto m = cross(co("child", "rot") + "---\n" + co("root", "") + "---\n" + cq("  cohortName: roof\n", kGoodGroups) + "---\n" +
                   std::string(kFlavor));
    auto w = one(m, "xref.missing-parent-cohort", "spec.parentName", 6, 15);
    CHECK(w.severity == Severity::Warning);
    CHECK(has(w.message, "(did you mean \"root\"?)"));
    auto n = one(m, "xref.implicit-cohort", "spec.cohortName", 21, 15);
    CHECK(n.severity == Severity::Note);
    CHECK(has(n.message, "(did you mean \"root\"?)"));
    none(cross(cq("  cohortName: roof\n", kGoodGroups) + "---\n" + std::string(kFlavor)), "xref.implicit-cohort");

    // v1alpha1 Cohorts use spec.parent.
    one(cross("apiVersion: kueue.x-k8s.io/v1alpha1\nkind: Cohort\nmetadata:\n  name: x\nspec:\n  parent: x\n"), "V45", "spec.parent", 6, 11);
}

TEST_CASE("rules: namespaceSelector null, {} and LocalQueues outside it", "[rules]") {
    auto no_sel = cross(yaml(R"(
apiVersion: kueue.x-k8s.io/v1beta2
kind: ClusterQueue
metadata:
  name: cq
spec:
  resourceGroups: []
)"));
    auto e = one(no_sel, "xref.no-namespace-selector", "spec.namespaceSelector", 6, 3);
    CHECK(e.severity == Severity::Error);
    auto all = one(cross(cq("", kGoodGroups) + "---\n" + kFlavor), "xref.all-namespaces", "spec.namespaceSelector", 6, 22);
    CHECK(all.severity == Severity::Note);

    const std::string selective = yaml(R"(
apiVersion: kueue.x-k8s.io/v1beta2
kind: ClusterQueue
metadata:
  name: cq
spec:
  namespaceSelector:
    matchLabels:
      team: ml
---
apiVersion: kueue.x-k8s.io/v1beta2
kind: LocalQueue
metadata:
  name: lq
  namespace: research
spec:
  clusterQueue: cq
)");
    // Without the Namespace object only kubernetes.io/metadata.name is known.
    auto unknown = one(cross(selective), "xref.namespace-mismatch", "spec.clusterQueue", 16, 17);
    CHECK(unknown.severity == Severity::Warning);
    CHECK(has(unknown.message, "Namespace research is not in the input"));
    auto labelled = cross(selective + "---\napiVersion: v1\nkind: Namespace\nmetadata:\n  name: research\n  labels:\n    team: ml\n");
    none(labelled, "xref.namespace-mismatch");
    auto wrong = cross(selective + "---\napiVersion: v1\nkind: Namespace\nmetadata:\n  name: research\n  labels:\n    team: web\n");
    CHECK(has(one(wrong, "xref.namespace-mismatch", "spec.clusterQueue", 16, 17).message, "team=web"));
    // The automatic name label is enough for a name-based selector.
    none(cross(yaml(R"(
apiVersion: kueue.x-k8s.io/v1beta2
kind: ClusterQueue
metadata:
  name: cq
spec:
  namespaceSelector:
    matchExpressions:
    - key: kubernetes.io/metadata.name
      operator: In
      values: [research]
---
apiVersion: kueue.x-k8s.io/v1beta2
kind: LocalQueue
metadata:
  name: lq
  namespace: research
spec:
  clusterQueue: cq
)")),
         "xref.namespace-mismatch");
}

TEST_CASE("rules: several default LocalQueues in one namespace", "[rules]") {
    auto lq = [](const std::string& name, const std::string& ns) {
        return "apiVersion: kueue.x-k8s.io/v1beta2\nkind: LocalQueue\nmetadata:\n  name: " + name + "\n  namespace: " + ns +
               "\n  annotations:\n    kueue.x-k8s.io/default-queue: \"true\"\nspec:\n  clusterQueue: cq\n";
    };
    auto d = cross(lq("a", "ns1") + "---\n" + lq("b", "ns1") + "---\n" + lq("c", "ns2"));
    auto w = one(d, "xref.multiple-default-queues", "metadata.annotations[kueue.x-k8s.io/default-queue]", 17, 35);
    CHECK(w.severity == Severity::Warning);
    CHECK(w.object.name == "b");
    none(cross(lq("a", "ns1") + "---\n" + lq("c", "ns2")), "xref.multiple-default-queues");
}

TEST_CASE("rules: xref.overcommit compares quota with Node allocatable", "[rules]") {
    const std::string objects = yaml(R"(
apiVersion: kueue.x-k8s.io/v1beta2
kind: ResourceFlavor
metadata:
  name: a100
spec:
  nodeLabels:
    gpu: a100
---
apiVersion: kueue.x-k8s.io/v1beta2
kind: ClusterQueue
metadata:
  name: cq-1
spec:
  namespaceSelector: {}
  resourceGroups:
  - coveredResources: [nvidia.com/gpu, memory]
    flavors:
    - name: a100
      resources:
      - name: nvidia.com/gpu
        nominalQuota: 8
      - name: memory
        nominalQuota: 512Gi
---
apiVersion: kueue.x-k8s.io/v1beta2
kind: ClusterQueue
metadata:
  name: cq-2
spec:
  namespaceSelector: {}
  resourceGroups:
  - coveredResources: [nvidia.com/gpu, memory]
    flavors:
    - name: a100
      resources:
      - name: nvidia.com/gpu
        nominalQuota: 4
      - name: memory
        nominalQuota: 256Gi
)");
    auto node = [](const std::string& name, const std::string& label, int gpus) {
        return "---\napiVersion: v1\nkind: Node\nmetadata:\n  name: " + name + "\n  labels:\n    gpu: " + label +
               "\nstatus:\n  allocatable:\n    nvidia.com/gpu: \"" + std::to_string(gpus) + "\"\n    memory: 1Ti\n";
    };
    auto d = cross(objects + node("n1", "a100", 8) + node("n2", "h100", 8));
    auto w = one(d, "xref.overcommit", "spec.resourceGroups[0].flavors[0].resources[0].nominalQuota", 37, 23);
    CHECK(w.severity == Severity::Warning);
    CHECK(w.object.name == "cq-2");
    CHECK(has(w.message, "nominalQuota of nvidia.com/gpu in flavor a100 adds up to 12"));
    CHECK(has(w.message, "the 1 Node matching its nodeLabels allocate 8"));

    none(cross(objects + node("n1", "a100", 8) + node("n2", "a100", 8)), "xref.overcommit");
    none(cross(objects), "xref.overcommit");  // no Node objects: capacity unknown
}
