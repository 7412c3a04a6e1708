// Tests for compiler/engines/workloads: the Kubeflow training jobs turned into the Workloads
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

// ---------------------------------------------------------------- Kubeflow

TEST_CASE("jobs: PyTorchJob, XGBoostJob, PaddleJob: master then worker, replicas default 1, keys in any case") {
    for (const std::string kind : {"PyTorchJob", "XGBoostJob", "PaddleJob"}) {
        const std::string field = kind == "PyTorchJob" ? "pytorchReplicaSpecs" : kind == "XGBoostJob" ? "xgbReplicaSpecs" : "paddleReplicaSpecs";
        Run r("apiVersion: kubeflow.org/v1\nkind: " + kind +
              "\nmetadata: {name: t, namespace: team-a}\nspec:\n  " + field +
              ":\n    worker: {replicas: 3, template: {spec: {containers: [{name: c}]}}}\n"
              "    Master: {template: {spec: {containers: [{name: c}]}}}\n");
        INFO(kind << "\n" << qf_test::messages(r.d));
        REQUIRE(r.out.size() == 1);
        CHECK(pod_sets(r.out[0]) == "master:1 worker:3");
        std::string lowered = kind;
        for (auto& ch : lowered) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
        CHECK(r.out[0].ref.name == lowered + "-t");
        // No label, LocalQueue `default` in the namespace.
        CHECK(str(r.out[0].doc, {"spec", "queueName"}) == "default");
    }
}

TEST_CASE("jobs: TFJob podSets follow Kueue's order chief, master, ps, worker, evaluator") {
    Run r(yaml(R"(
apiVersion: kubeflow.org/v1
kind: TFJob
metadata: {name: tf, labels: {kueue.x-k8s.io/queue-name: lq}}
spec:
  tfReplicaSpecs:
    Evaluator: {replicas: 1, template: {spec: {containers: [{name: tensorflow}]}}}
    Worker: {replicas: 4, template: {spec: {containers: [{name: tensorflow}]}}}
    PS: {replicas: 2, template: {spec: {containers: [{name: tensorflow}]}}}
    Chief: {replicas: 1, template: {spec: {containers: [{name: tensorflow}]}}}
)"));
    INFO(qf_test::messages(r.d));
    REQUIRE(r.out.size() == 1);
    CHECK(pod_sets(r.out[0]) == "chief:1 ps:2 worker:4 evaluator:1");
}

TEST_CASE("jobs: JAXJob is workers only, MPIJob is launcher then worker") {
    Run r(yaml(R"(
apiVersion: kubeflow.org/v1
kind: JAXJob
metadata: {name: jax, labels: {kueue.x-k8s.io/queue-name: lq}}
spec:
  jaxReplicaSpecs:
    Worker: {replicas: 2, template: {spec: {containers: [{name: jax}]}}}
---
apiVersion: kubeflow.org/v2beta1
kind: MPIJob
metadata: {name: pi, labels: {kueue.x-k8s.io/queue-name: lq}}
spec:
  mpiReplicaSpecs:
    Worker: {replicas: 8, template: {spec: {containers: [{name: w}]}}}
    Launcher: {replicas: 1, template: {spec: {containers: [{name: l}]}}}
)"));
    INFO(qf_test::messages(r.d));
    REQUIRE(r.out.size() == 2);
    CHECK(r.out[0].ref.name == "jaxjob-jax");
    CHECK(pod_sets(r.out[0]) == "worker:2");
    CHECK(r.out[1].ref.name == "mpijob-pi");
    CHECK(pod_sets(r.out[1]) == "launcher:1 worker:8");
}

TEST_CASE("jobs: Kubeflow replica specs: unknown types, a second master, missing launcher are invalid") {
    Run r(yaml(R"(
apiVersion: kubeflow.org/v1
kind: PyTorchJob
metadata: {name: a, labels: {kueue.x-k8s.io/queue-name: lq}}
spec:
  pytorchReplicaSpecs:
    Launcher: {template: {spec: {containers: [{name: c}]}}}
---
apiVersion: kubeflow.org/v1
kind: PyTorchJob
metadata: {name: b, labels: {kueue.x-k8s.io/queue-name: lq}}
spec:
  pytorchReplicaSpecs:
    Master: {replicas: 2, template: {spec: {containers: [{name: c}]}}}
---
apiVersion: kubeflow.org/v2beta1
kind: MPIJob
metadata: {name: c, labels: {kueue.x-k8s.io/queue-name: lq}}
spec:
  mpiReplicaSpecs:
    Worker: {template: {spec: {containers: [{name: c}]}}}
---
apiVersion: kubeflow.org/v1
kind: PyTorchJob
metadata: {name: d, labels: {kueue.x-k8s.io/queue-name: lq}}
spec:
  pytorchReplicaSpecs:
    Worker: {template: {spec: {containers: [{name: c}]}}}
    worker: {template: {spec: {containers: [{name: c}]}}}
)"));
    INFO(qf_test::messages(r.d));
    CHECK(r.out.empty());
    CHECK(r.count("jobs.invalid") == 4);
    std::vector<int> lines;
    for (const auto& x : r.d.all()) lines.push_back(x.mark.line);
    CHECK(lines == std::vector<int>{6, 13, 20, 28});
}
