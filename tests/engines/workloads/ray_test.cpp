// Tests for compiler/engines/workloads: RayCluster and RayJob turned into the Workloads
// Kueue's job integrations create. Facts come from Kueue's pkg/controller/jobs
// (cited in the sources); expected values are restated here on purpose.
#include "workloads_util.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <map>
#include <set>
#include <string>
#include <vector>

using namespace queueforge;
using namespace wl_test;
namespace fs = std::filesystem;

// ---------------------------------------------------------------- Ray

TEST_CASE("jobs: RayCluster is head (1) then one podSet per worker group, replicas x numOfHosts") {
    Run r(yaml(R"(
apiVersion: ray.io/v1
kind: RayCluster
metadata: {name: rc, labels: {kueue.x-k8s.io/queue-name: lq}}
spec:
  headGroupSpec:
    template: {spec: {containers: [{name: ray-head, image: rayproject/ray:2.9.0, resources: {requests: {cpu: "2"}}}]}}
  workerGroupSpecs:
    - groupName: Small-Group
      replicas: 2
      minReplicas: 1
      maxReplicas: 5
      template: {spec: {containers: [{name: w}]}}
    - groupName: tpu
      replicas: 2
      numOfHosts: 4
      minReplicas: 0
      maxReplicas: 2
      template: {spec: {containers: [{name: w}]}}
    - groupName: unset
      minReplicas: 1
      maxReplicas: 3
      template: {spec: {containers: [{name: w}]}}
)"));
    INFO(qf_test::messages(r.d));
    REQUIRE(r.out.size() == 1);
    CHECK(r.out[0].ref.name == "raycluster-rc");
    // An absent replicas is 0 after the KubeRay CRD default, with a warning
    // because KubeRay starts minReplicas workers.
    CHECK(pod_sets(r.out[0]) == "head:1 small-group:2 tpu:8 unset:0");
    REQUIRE(r.count("jobs.ray-replicas") == 1);
    CHECK(r.first("jobs.ray-replicas")->mark.line == 19);
    CHECK(str(r.out[0].doc, {"spec", "podSets", "0", "template", "spec", "containers", "0", "resources", "requests", "cpu"}) == "2");
}

TEST_CASE("jobs: RayCluster autoscaling adds the autoscaler container and needs an elastic workload") {
    const std::string base = yaml(R"(
apiVersion: ray.io/v1
kind: RayCluster
metadata:
  name: rc
  labels: {kueue.x-k8s.io/queue-name: lq}
  ANNOTATIONS
spec:
  enableInTreeAutoscaling: true
  AUTOSCALER
  headGroupSpec:
    template: {spec: {containers: [{name: ray-head}]}}
)");
    auto make = [&](const std::string& ann, const std::string& opts) {
        std::string s = base;
        s.replace(s.find("ANNOTATIONS"), 11, ann);
        s.replace(s.find("AUTOSCALER"), 10, opts);
        return s;
    };
    Run refused(make("annotations: {}", "rayVersion: '2.9.0'"));
    CHECK(refused.out.empty());
    REQUIRE(refused.count("jobs.invalid") == 1);
    CHECK(refused.first("jobs.invalid")->mark.line == 8);

    Run dflt(make("annotations: {kueue.x-k8s.io/elastic-job: \"true\"}", "rayVersion: '2.9.0'"));
    INFO(qf_test::messages(dflt.d));
    REQUIRE(dflt.out.size() == 1);
    const Node* c = at(dflt.out[0].doc, {"spec", "podSets", "0", "template", "spec", "containers", "1"});
    REQUIRE(c);
    CHECK(str(*c, {"name"}) == "autoscaler");
    CHECK(str(*c, {"resources", "requests", "cpu"}) == "500m");
    CHECK(str(*c, {"resources", "requests", "memory"}) == "512Mi");
    CHECK(str(*c, {"resources", "limits", "memory"}) == "512Mi");
    CHECK(c->mark().line == 8);

    Run custom(make("annotations: {kueue.x-k8s.io/elastic-job: \"true\"}",
                    "autoscalerOptions: {resources: {requests: {cpu: 250m, memory: 1Gi}}}"));
    REQUIRE(custom.out.size() == 1);
    CHECK(str(custom.out[0].doc, {"spec", "podSets", "0", "template", "spec", "containers", "1", "resources", "requests", "memory"}) == "1Gi");
}

TEST_CASE("jobs: RayCluster GCS fault tolerance raises the head's Ray container to cpu 200m / memory 256Mi") {
    Run r(yaml(R"(
apiVersion: ray.io/v1
kind: RayCluster
metadata: {name: a, labels: {kueue.x-k8s.io/queue-name: lq}, annotations: {ray.io/ft-enabled: "True"}}
spec:
  headGroupSpec:
    template: {spec: {containers: [{name: ray-head, resources: {requests: {cpu: "1", memory: 100Mi}}}, {name: side}]}}
---
apiVersion: ray.io/v1
kind: RayCluster
metadata: {name: b, labels: {kueue.x-k8s.io/queue-name: lq}}
spec:
  gcsFaultToleranceOptions: {redisAddress: "redis:6379"}
  headGroupSpec:
    template: {spec: {containers: [{name: ray-head}]}}
)"));
    INFO(qf_test::messages(r.d));
    REQUIRE(r.out.size() == 2);
    const Node& a = *at(r.out[0].doc, {"spec", "podSets", "0", "template", "spec", "containers"});
    CHECK(str(a, {"0", "resources", "requests", "cpu"}) == "1");        // already above the floor
    CHECK(str(a, {"0", "resources", "requests", "memory"}) == "256Mi");  // raised
    CHECK(at(a, {"1", "resources"}) == nullptr);                         // only the Ray container
    const Node& b = *at(r.out[1].doc, {"spec", "podSets", "0", "template", "spec", "containers"});
    CHECK(str(b, {"0", "resources", "requests", "cpu"}) == "200m");
    CHECK(str(b, {"0", "resources", "requests", "memory"}) == "256Mi");
}

TEST_CASE("jobs: RayJob adds a submitter podSet in K8sJobMode, a sidecar in SidecarMode, nothing in HTTPMode") {
    auto rayjob = [](const std::string& extra) {
        return "apiVersion: ray.io/v1\nkind: RayJob\nmetadata: {name: rj, labels: {kueue.x-k8s.io/queue-name: lq}}\n"
               "spec:\n  shutdownAfterJobFinishes: true\n" +
               extra +
               "  rayClusterSpec:\n    headGroupSpec:\n      template: {spec: {containers: [{name: ray-head, image: "
               "rayproject/ray:2.9.0}]}}\n    workerGroupSpecs:\n      - {groupName: g, replicas: 2, minReplicas: 0, "
               "maxReplicas: 4, template: {spec: {containers: [{name: w}]}}}\n";
    };
    {
        Run r(rayjob(""));
        INFO(qf_test::messages(r.d));
        REQUIRE(r.out.size() == 1);
        CHECK(r.out[0].ref.name == "rayjob-rj");
        CHECK(pod_sets(r.out[0]) == "head:1 g:2 submitter:1");
        const Node& sub = *at(r.out[0].doc, {"spec", "podSets", "2", "template", "spec"});
        CHECK(str(sub, {"containers", "0", "name"}) == "ray-job-submitter");
        CHECK(str(sub, {"containers", "0", "image"}) == "rayproject/ray:2.9.0");
        CHECK(str(sub, {"containers", "0", "resources", "requests", "cpu"}) == "500m");
        CHECK(str(sub, {"containers", "0", "resources", "requests", "memory"}) == "200Mi");
        CHECK(str(sub, {"containers", "0", "resources", "limits", "cpu"}) == "1");
        CHECK(str(sub, {"containers", "0", "resources", "limits", "memory"}) == "1Gi");
        CHECK(str(sub, {"restartPolicy"}) == "Never");
    }
    {
        Run r(rayjob("  submitterPodTemplate: {spec: {containers: [{name: mine, resources: {requests: {cpu: 100m}}}]}}\n"));
        REQUIRE(r.out.size() == 1);
        CHECK(str(r.out[0].doc, {"spec", "podSets", "2", "template", "spec", "containers", "0", "name"}) == "mine");
    }
    {
        Run r(rayjob("  submissionMode: SidecarMode\n"));
        REQUIRE(r.out.size() == 1);
        CHECK(pod_sets(r.out[0]) == "head:1 g:2");
        CHECK(str(r.out[0].doc, {"spec", "podSets", "0", "template", "spec", "containers", "1", "name"}) == "ray-job-submitter");
        CHECK(at(r.out[0].doc, {"spec", "podSets", "0", "template", "spec", "containers", "1"})->mark().line == 6);
    }
    {
        Run r(rayjob("  submissionMode: HTTPMode\n"));
        REQUIRE(r.out.size() == 1);
        CHECK(pod_sets(r.out[0]) == "head:1 g:2");
    }
}

TEST_CASE("jobs: RayJob webhook rules: keep-cluster, clusterSelector, missing cluster spec") {
    Run r(yaml(R"(
apiVersion: ray.io/v1
kind: RayJob
metadata: {name: keep, labels: {kueue.x-k8s.io/queue-name: lq}}
spec:
  rayClusterSpec:
    headGroupSpec: {template: {spec: {containers: [{name: h}]}}}
---
apiVersion: ray.io/v1
kind: RayJob
metadata: {name: existing, labels: {kueue.x-k8s.io/queue-name: lq}}
spec:
  clusterSelector: {ray.io/cluster: shared}
---
apiVersion: ray.io/v1
kind: RayJob
metadata: {name: none, labels: {kueue.x-k8s.io/queue-name: lq}}
spec:
  shutdownAfterJobFinishes: true
)"));
    INFO(qf_test::messages(r.d));
    CHECK(r.out.empty());
    CHECK(r.count("jobs.invalid") == 2);
    CHECK(r.count("jobs.not-managed") == 1);
    CHECK(r.first("jobs.not-managed")->mark.line == 12);
}
