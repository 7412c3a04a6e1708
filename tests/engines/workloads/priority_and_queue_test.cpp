// Tests for compiler/engines/workloads: priority and queue resolution turned into the Workloads
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

// ---------------------------------------------------------------- priority

TEST_CASE("jobs: priority resolution: WPC label, then template priorityClassName, then globalDefault, else 0") {
    const std::string jobs = yaml(R"(
apiVersion: batch/v1
kind: Job
metadata: {name: wpc, labels: {kueue.x-k8s.io/queue-name: lq, kueue.x-k8s.io/priority-class: high}}
spec: {template: {spec: {priorityClassName: pod-low, containers: [{name: c}]}}}
---
apiVersion: batch/v1
kind: Job
metadata: {name: pcn, labels: {kueue.x-k8s.io/queue-name: lq}}
spec: {template: {spec: {priorityClassName: pod-high, containers: [{name: c}]}}}
---
apiVersion: batch/v1
kind: Job
metadata: {name: none, labels: {kueue.x-k8s.io/queue-name: lq}}
spec: {template: {spec: {containers: [{name: c}]}}}
---
apiVersion: batch/v1
kind: Job
metadata: {name: system, labels: {kueue.x-k8s.io/queue-name: lq}}
spec: {template: {spec: {priorityClassName: system-cluster-critical, containers: [{name: c}]}}}
)");
    {
        Run r(jobs);
        INFO(qf_test::messages(r.d));
        REQUIRE(r.out.size() == 4);
        CHECK(num(r.out[0].doc, {"spec", "priority"}) == 1000);
        CHECK(str(r.out[0].doc, {"spec", "priorityClassRef", "group"}) == "kueue.x-k8s.io");
        CHECK(str(r.out[0].doc, {"spec", "priorityClassRef", "kind"}) == "WorkloadPriorityClass");
        CHECK(str(r.out[0].doc, {"spec", "priorityClassRef", "name"}) == "high");
        CHECK(at(r.out[0].doc, {"spec", "priority"})->mark().line == 3);
        CHECK(num(r.out[1].doc, {"spec", "priority"}) == 5000);
        CHECK(str(r.out[1].doc, {"spec", "priorityClassRef", "name"}) == "pod-high");
        CHECK(num(r.out[2].doc, {"spec", "priority"}) == 0);
        CHECK(num(r.out[3].doc, {"spec", "priority"}) == 2000000000);
    }
    {
        // Two globalDefault classes: the lower value wins.
        Run r(jobs, yaml(kCluster) + yaml(R"(
---
apiVersion: scheduling.k8s.io/v1
kind: PriorityClass
metadata: {name: gd-a}
value: 300
globalDefault: true
---
apiVersion: scheduling.k8s.io/v1
kind: PriorityClass
metadata: {name: gd-b}
value: 200
globalDefault: true
)"));
        REQUIRE(r.out.size() == 4);
        CHECK(num(r.out[2].doc, {"spec", "priority"}) == 200);
        CHECK(str(r.out[2].doc, {"spec", "priorityClassRef", "kind"}) == "PriorityClass");
        CHECK(str(r.out[2].doc, {"spec", "priorityClassRef", "name"}) == "gd-b");
        CHECK(num(r.out[1].doc, {"spec", "priority"}) == 5000);  // a named class still wins
    }
    {
        // WorkloadPriorityClass `default` (gate WorkloadPriorityClassDefaulting) labels every job without one.
        Run r(jobs, yaml(kCluster) + "---\napiVersion: kueue.x-k8s.io/v1beta2\nkind: WorkloadPriorityClass\nmetadata: {name: default}\nvalue: 7\n");
        REQUIRE(r.out.size() == 4);
        CHECK(num(r.out[0].doc, {"spec", "priority"}) == 1000);
        for (std::size_t i = 1; i < 4; ++i) {
            CHECK(num(r.out[i].doc, {"spec", "priority"}) == 7);
            CHECK(str(r.out[i].doc, {"spec", "priorityClassRef", "name"}) == "default");
        }
    }
}

TEST_CASE("jobs: an unknown priority class means no Workload, with a warning") {
    Run r(yaml(R"(
apiVersion: batch/v1
kind: Job
metadata: {name: a, labels: {kueue.x-k8s.io/queue-name: lq, kueue.x-k8s.io/priority-class: nope}}
spec: {template: {spec: {containers: [{name: c}]}}}
---
apiVersion: batch/v1
kind: Job
metadata: {name: b, labels: {kueue.x-k8s.io/queue-name: lq}}
spec: {template: {spec: {priorityClassName: nope, containers: [{name: c}]}}}
)"));
    CHECK(r.out.empty());
    CHECK_FALSE(r.d.has_errors());
    REQUIRE(r.count("jobs.priority-class-not-found") == 2);
    CHECK(r.first("jobs.priority-class-not-found")->mark.line == 3);
    CHECK(r.first("jobs.priority-class-not-found")->message.find("WorkloadPriorityClassNotFound") != std::string::npos);
}

TEST_CASE("jobs: Kubeflow priority: runPolicy.schedulingPolicy.priorityClass, then replica templates in podSet order") {
    Run r(yaml(R"(
apiVersion: kubeflow.org/v1
kind: PyTorchJob
metadata: {name: a, labels: {kueue.x-k8s.io/queue-name: lq}}
spec:
  runPolicy: {schedulingPolicy: {priorityClass: pod-high}}
  pytorchReplicaSpecs:
    Master: {template: {spec: {priorityClassName: pod-low, containers: [{name: c}]}}}
---
apiVersion: kubeflow.org/v1
kind: PyTorchJob
metadata: {name: b, labels: {kueue.x-k8s.io/queue-name: lq}}
spec:
  pytorchReplicaSpecs:
    Worker: {template: {spec: {priorityClassName: pod-low, containers: [{name: c}]}}}
    Master: {template: {spec: {priorityClassName: pod-high, containers: [{name: c}]}}}
)"));
    INFO(qf_test::messages(r.d));
    REQUIRE(r.out.size() == 2);
    CHECK(num(r.out[0].doc, {"spec", "priority"}) == 5000);
    CHECK(num(r.out[1].doc, {"spec", "priority"}) == 5000);  // master comes first
}

// ---------------------------------------------------------------- queues

TEST_CASE("jobs: queue: the label, else LocalQueue default of the namespace, else skipped with a warning") {
    Run r(yaml(R"(
apiVersion: batch/v1
kind: Job
metadata: {name: labelled, namespace: elsewhere, labels: {kueue.x-k8s.io/queue-name: anything}}
spec: {template: {spec: {containers: [{name: c}]}}}
---
apiVersion: batch/v1
kind: Job
metadata: {name: defaulted, namespace: team-a}
spec: {template: {spec: {containers: [{name: c}]}}}
---
apiVersion: batch/v1
kind: Job
metadata: {name: ignored, namespace: team-b}
spec: {template: {spec: {containers: [{name: c}]}}}
---
apiVersion: batch/v1
kind: Job
metadata: {name: bad, labels: {kueue.x-k8s.io/queue-name: Not_A_Name}}
spec: {template: {spec: {containers: [{name: c}]}}}
)"));
    INFO(qf_test::messages(r.d));
    REQUIRE(r.out.size() == 2);
    CHECK(str(r.out[0].doc, {"spec", "queueName"}) == "anything");
    CHECK(str(r.out[0].doc, {"metadata", "namespace"}) == "elsewhere");
    CHECK(str(r.out[1].doc, {"spec", "queueName"}) == "default");
    REQUIRE(r.count("jobs.no-queue") == 1);
    CHECK(r.first("jobs.no-queue")->mark.line == 13);
    CHECK(r.first("jobs.no-queue")->severity == Severity::Warning);
    CHECK(r.count("jobs.invalid") == 1);
}

TEST_CASE("jobs: maximum execution time label") {
    auto job = [](const std::string& v) {
        return "apiVersion: batch/v1\nkind: Job\nmetadata: {name: j, labels: {kueue.x-k8s.io/queue-name: lq, "
               "kueue.x-k8s.io/max-exec-time-seconds: \"" + v + "\"}}\nspec: {template: {spec: {containers: [{name: c}]}}}\n";
    };
    CHECK(num(Run(job("60")).out.at(0).doc, {"spec", "maximumExecutionTimeSeconds"}) == 60);
    CHECK(Run(job("0")).count("jobs.invalid") == 1);
    CHECK(Run(job("soon")).count("jobs.invalid") == 1);
    Run big(job("9999999999"));
    REQUIRE(big.out.size() == 1);
    CHECK(at(big.out[0].doc, {"spec", "maximumExecutionTimeSeconds"}) == nullptr);
    CHECK(big.count("jobs.max-exec-time-ignored") == 1);
}
