// Tests for compiler/checks/rules: ResourceFlavor (kueue-semantics.md section 2).
// Every rule has a case that fires (checked by rule id, field path,
// position and wording) and one that must stay quiet. The wording is Kueue's
// own (pkg/webhooks, the CRD x-kubernetes-validations), restated on purpose.
#include "rules_test_util.hpp"

using namespace rules_test;

TEST_CASE("rules: V11 ResourceFlavor nodeLabels are label keys and values", "[rules]") {
    auto bad = check(yaml(R"(
apiVersion: kueue.x-k8s.io/v1beta2
kind: ResourceFlavor
metadata:
  name: gpu
spec:
  nodeLabels:
    "bad key!": a100
    ok: "bad value!"
)"));
    auto d = of_rule(bad, "V11");
    REQUIRE(d.size() == 2);
    CHECK(d[0].path == "spec.nodeLabels[bad key!]");
    CHECK(d[0].mark.line == 7);
    CHECK(d[0].mark.col == 5);
    CHECK(d[0].object.kind == "ResourceFlavor");
    CHECK(d[0].object.name == "gpu");
    CHECK(d[0].message.starts_with("spec.nodeLabels: Invalid value: \"bad key!\": name part must consist of"));
    CHECK(d[1].path == "spec.nodeLabels[ok]");
    CHECK(d[1].mark.line == 8);
    CHECK(d[1].mark.col == 9);
    CHECK(d[1].message.starts_with("spec.nodeLabels: Invalid value: \"bad value!\": a valid label must be"));

    no_errors(check(yaml(R"(
apiVersion: kueue.x-k8s.io/v1beta2
kind: ResourceFlavor
metadata:
  name: gpu
spec:
  nodeLabels:
    nvidia.com/gpu.product: NVIDIA-A100-SXM4-80GB
    empty: ""
)")));
}

TEST_CASE("rules: V12 V13 V14 ResourceFlavor nodeTaints", "[rules]") {
    auto bad = check(yaml(R"(
apiVersion: kueue.x-k8s.io/v1beta2
kind: ResourceFlavor
metadata:
  name: spot
spec:
  nodeTaints:
  - key: spot
    value: "true"
    effect: NoSchedule
  - key: spot
    effect: NoSchedule
  - key: "-bad"
    value: "no spaces"
    effect: Sometimes
)"));
    auto v12 = one(bad, "V12", "spec.nodeTaints[2].effect", 14, 13);
    CHECK(v12.message == "spec.nodeTaints: Invalid value: \"array\": supported taint effect values: 'NoSchedule', "
                         "'PreferNoSchedule', 'NoExecute'");
    auto v14 = one(bad, "V14", "spec.nodeTaints[1]", 10, 5);
    CHECK(v14.message == "spec.nodeTaints[1]: Duplicate value: {\"key\":\"spot\",\"effect\":\"NoSchedule\"}: "
                         "taints must be unique by key and effect pair");
    auto v13 = of_rule(bad, "V13");
    REQUIRE(v13.size() == 2);
    CHECK(v13[0].path == "spec.nodeTaints[2].key");
    CHECK(v13[0].mark.line == 12);
    CHECK(v13[0].message.starts_with("spec.nodeTaints[2].key: Invalid value: \"-bad\": name part must consist"));
    CHECK(v13[1].path == "spec.nodeTaints[2].value");
    CHECK(v13[1].mark.line == 13);

    // Same key with another effect is a different taint.
    no_errors(check(yaml(R"(
apiVersion: kueue.x-k8s.io/v1beta2
kind: ResourceFlavor
metadata:
  name: spot
spec:
  nodeTaints:
  - key: spot
    effect: NoSchedule
  - key: spot
    effect: NoExecute
)")));
}

TEST_CASE("rules: V15 V16 ResourceFlavor tolerations", "[rules]") {
    auto bad = check(yaml(R"(
apiVersion: kueue.x-k8s.io/v1beta2
kind: ResourceFlavor
metadata:
  name: f
spec:
  tolerations:
  - operator: Equal
  - key: a
    tolerationSeconds: 30
    effect: NoSchedule
  - key: b
    operator: Maybe
  - key: c
    operator: Exists
    value: x
  - key: d
    effect: Never
  - key: "e f"
    operator: Exists
)"));
    auto v15 = of_rule(bad, "V15");
    INFO(dump(bad));
    REQUIRE(v15.size() == 5);
    CHECK(v15[0].message == "spec.tolerations: Invalid value: \"array\": operator must be Exists when 'key' is empty, "
                            "which means 'match all values and all keys'");
    CHECK(v15[0].mark.line == 7);
    CHECK(v15[0].mark.col == 15);
    CHECK(v15[0].path == "spec.tolerations[0]");
    CHECK(v15[1].message == "spec.tolerations: Invalid value: \"array\": effect must be 'NoExecute' when 'tolerationSeconds' is set");
    CHECK(v15[1].mark.line == 10);
    CHECK(v15[2].message == "spec.tolerations: Invalid value: \"array\": supported toleration values: 'Equal'(default), 'Exists'");
    CHECK(v15[2].path == "spec.tolerations[2].operator");
    CHECK(v15[2].mark.line == 12);
    CHECK(v15[3].message == "spec.tolerations: Invalid value: \"array\": a value must be empty when 'operator' is 'Exists'");
    CHECK(v15[3].path == "spec.tolerations[3].value");
    CHECK(v15[3].mark.line == 15);
    CHECK(v15[4].path == "spec.tolerations[4].effect");
    CHECK(v15[4].mark.line == 17);
    auto v16 = one(bad, "V16", "spec.tolerations[5].key", 18, 10);
    CHECK(v16.message.starts_with("spec.tolerations[5].key: Invalid value: \"e f\": name part must consist"));

    no_errors(check(yaml(R"(
apiVersion: kueue.x-k8s.io/v1beta2
kind: ResourceFlavor
metadata:
  name: f
spec:
  tolerations:
  - operator: Exists
  - key: a
    operator: Exists
    effect: NoExecute
    tolerationSeconds: 30
  - key: nvidia.com/gpu
    value: present
    effect: NoSchedule
)")));
}

TEST_CASE("rules: V17 a topology flavor needs node labels", "[rules]") {
    auto bad = check(yaml(R"(
apiVersion: kueue.x-k8s.io/v1beta2
kind: ResourceFlavor
metadata:
  name: tas
spec:
  topologyName: default
)"));
    auto d = one(bad, "V17", "spec.topologyName", 6, 17);
    CHECK(d.message == "spec: Invalid value: \"object\": at least one nodeLabel is required when topology is set");

    none(check(yaml(R"(
apiVersion: kueue.x-k8s.io/v1beta2
kind: ResourceFlavor
metadata:
  name: tas
spec:
  topologyName: default
  nodeLabels:
    node-group: tas
)")),
         "V17");
}
