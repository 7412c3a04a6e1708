// Tests for compiler/checks/rules/unused_flavors.cpp (xref.unused-flavor).
#include "rules_test_util.hpp"

using namespace rules_test;

namespace {

const char* kTwoFlavorsOneQueue = R"(
apiVersion: kueue.x-k8s.io/v1beta2
kind: ResourceFlavor
metadata:
  name: a100
---
apiVersion: kueue.x-k8s.io/v1beta2
kind: ResourceFlavor
metadata:
  name: h100
---
apiVersion: kueue.x-k8s.io/v1beta2
kind: ClusterQueue
metadata:
  name: team-a
spec:
  namespaceSelector: {}
  resourceGroups:
  - coveredResources: [nvidia.com/gpu]
    flavors:
    - name: h100
      resources: [{name: nvidia.com/gpu, nominalQuota: "8"}]
)";

}  // namespace

TEST_CASE("rules: xref.unused-flavor a flavor no ClusterQueue or Cohort lists", "[rules]") {
    auto d = cross(yaml(kTwoFlavorsOneQueue));
    auto f = one(d, "xref.unused-flavor", "metadata.name", 4, 9);
    CHECK(f.severity == Severity::Warning);
    CHECK(f.object.name == "a100");
    CHECK(has(f.message, "ResourceFlavor \"a100\" is not listed by any ClusterQueue or Cohort in the input"));
}

TEST_CASE("rules: xref.unused-flavor is quiet when a Cohort lists the flavor or no queue is in the input", "[rules]") {
    std::string text = yaml(kTwoFlavorsOneQueue);
    SECTION("a Cohort's quota names it") {
        text += R"(---
apiVersion: kueue.x-k8s.io/v1beta2
kind: Cohort
metadata:
  name: research
spec:
  resourceGroups:
  - coveredResources: [nvidia.com/gpu]
    flavors:
    - name: a100
      resources: [{name: nvidia.com/gpu, nominalQuota: "8"}]
)";
        none(cross(text), "xref.unused-flavor");
    }
    SECTION("flavors kept apart from the queues") {
        none(cross(text.substr(0, text.find("---\napiVersion: kueue.x-k8s.io/v1beta2\nkind: ClusterQueue"))),
             "xref.unused-flavor");
    }
}
