// Tests for compiler/engines/workloads: batch/v1 Job turned into the Workloads
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

// ---------------------------------------------------------------- batch/Job

TEST_CASE("jobs: batch Job is one podSet main with count min(parallelism, completions)") {
    Run r(yaml(R"(
apiVersion: batch/v1
kind: Job
metadata:
  name: train
  namespace: default
  uid: 0b6e1d2c-1111-2222-3333-444455556666
  creationTimestamp: "2026-03-01T10:00:00Z"
  labels:
    kueue.x-k8s.io/queue-name: lq
    kueue.x-k8s.io/max-exec-time-seconds: "3600"
  annotations:
    kueue.x-k8s.io/job-min-parallelism: "2"
    provreq.kueue.x-k8s.io/maxRunDurationSeconds: "600"
spec:
  parallelism: 5
  completions: 4
  template:
    metadata:
      labels: {app: train, controller-uid: abc, batch.kubernetes.io/job-name: train}
    spec:
      priorityClassName: pod-low
      containers:
        - name: c
          resources: {requests: {cpu: "1"}}
      restartPolicy: Never
)"));
    INFO(qf_test::messages(r.d));
    REQUIRE(r.out.size() == 1);
    CHECK(r.d.empty());
    const Resource& wl = r.out[0];
    CHECK(wl.ref.kind == "Workload");
    CHECK(wl.ref.api_version == "kueue.x-k8s.io/v1beta2");
    CHECK(wl.ref.name == "job-train");
    CHECK(str(wl.doc, {"metadata", "name"}) == "job-train");
    CHECK(str(wl.doc, {"metadata", "namespace"}) == "default");
    CHECK(str(wl.doc, {"metadata", "creationTimestamp"}) == "2026-03-01T10:00:00Z");
    CHECK(str(wl.doc, {"metadata", "uid"}) == "0b6e1d2c-1111-2222-3333-444455556666");
    CHECK(str(wl.doc, {"metadata", "labels", "kueue.x-k8s.io/job-uid"}) == "0b6e1d2c-1111-2222-3333-444455556666");
    CHECK(str(wl.doc, {"metadata", "annotations", "provreq.kueue.x-k8s.io/maxRunDurationSeconds"}) == "600");
    CHECK(str(wl.doc, {"metadata", "ownerReferences", "0", "kind"}) == "Job");
    CHECK(str(wl.doc, {"spec", "queueName"}) == "lq");
    CHECK(pod_sets(wl) == "main:4/min2");
    CHECK(num(wl.doc, {"spec", "maximumExecutionTimeSeconds"}) == 3600);
    // priorityClassName of the template: a PriorityClass reference.
    CHECK(num(wl.doc, {"spec", "priority"}) == 50);
    CHECK(str(wl.doc, {"spec", "priorityClassRef", "group"}) == "scheduling.k8s.io");
    CHECK(str(wl.doc, {"spec", "priorityClassRef", "kind"}) == "PriorityClass");
    CHECK(str(wl.doc, {"spec", "priorityClassRef", "name"}) == "pod-low");
    // The template is copied with its positions; the Job controller's labels are dropped.
    const Node* tmpl = at(wl.doc, {"spec", "podSets", "0", "template"});
    REQUIRE(tmpl);
    CHECK(str(*tmpl, {"spec", "containers", "0", "resources", "requests", "cpu"}) == "1");
    CHECK(at(*tmpl, {"metadata", "labels", "controller-uid"}) == nullptr);
    CHECK(str(*tmpl, {"metadata", "labels", "batch.kubernetes.io/job-name"}) == "train");
    CHECK(at(*tmpl, {"spec", "containers", "0", "resources", "requests", "cpu"})->mark().line == 24);
    CHECK(at(wl.doc, {"spec", "queueName"})->mark().line == 9);
    CHECK(wl.file == "jobs.yaml");
}

TEST_CASE("jobs: batch Job defaults: parallelism 1, completions only caps, no timestamp unless asked") {
    const std::string job = yaml(R"(
apiVersion: batch/v1
kind: Job
metadata: {name: a, labels: {kueue.x-k8s.io/queue-name: lq}}
spec: {template: {spec: {containers: [{name: c}]}}}
---
apiVersion: batch/v1
kind: Job
metadata: {name: b, labels: {kueue.x-k8s.io/queue-name: lq}}
spec: {parallelism: 3, completions: 10, template: {spec: {containers: [{name: c}]}}}
---
apiVersion: batch/v1
kind: Job
metadata: {name: c, labels: {kueue.x-k8s.io/queue-name: lq}}
spec: {parallelism: 0, template: {spec: {containers: [{name: c}]}}}
)");
    {
        Run r(job);
        REQUIRE(r.out.size() == 3);
        CHECK(pod_sets(r.out[0]) == "main:1");
        CHECK(pod_sets(r.out[1]) == "main:3");
        CHECK(pod_sets(r.out[2]) == "main:0");
        CHECK(at(r.out[0].doc, {"metadata", "creationTimestamp"}) == nullptr);
        // No class anywhere: priority 0 and no reference.
        CHECK(num(r.out[0].doc, {"spec", "priority"}) == 0);
        CHECK(at(r.out[0].doc, {"spec", "priorityClassRef"}) == nullptr);
        CHECK(at(r.out[0].doc, {"metadata", "labels"}) == nullptr);  // no uid, no job-uid label
    }
    {
        Run r(job, yaml(kCluster), {.fallback_epoch = "2026-01-01T00:00:00Z"});
        REQUIRE(r.out.size() == 3);
        CHECK(str(r.out[0].doc, {"metadata", "creationTimestamp"}) == "2026-01-01T00:00:00Z");
        CHECK(str(r.out[2].doc, {"metadata", "creationTimestamp"}) == "2026-01-01T00:00:02Z");
    }
}

TEST_CASE("jobs: batch Job partial admission and elastic annotations are checked as Kueue's webhook does") {
    auto job = [](const std::string& annotations, int parallelism) {
        return "apiVersion: batch/v1\nkind: Job\nmetadata:\n  name: j\n  labels: {kueue.x-k8s.io/queue-name: lq}\n  annotations: " +
               annotations + "\nspec: {parallelism: " + std::to_string(parallelism) +
               ", template: {spec: {containers: [{name: c}]}}}\n";
    };
    for (const std::string bad : {"{kueue.x-k8s.io/job-min-parallelism: \"5\"}", "{kueue.x-k8s.io/job-min-parallelism: \"0\"}",
                                  "{kueue.x-k8s.io/job-min-parallelism: \"x\"}",
                                  "{kueue.x-k8s.io/job-min-parallelism: \"2\", kueue.x-k8s.io/elastic-job: \"true\"}"}) {
        Run r(job(bad, 5));
        INFO(bad << "\n" << qf_test::messages(r.d));
        CHECK(r.out.empty());
        REQUIRE(r.count("jobs.invalid") == 1);
        CHECK(r.first("jobs.invalid")->mark.line == 6);
        CHECK(r.first("jobs.invalid")->path == "metadata.annotations[kueue.x-k8s.io/job-min-parallelism]");
    }
    Run ok(job("{kueue.x-k8s.io/job-min-parallelism: \"4\"}", 5));
    REQUIRE(ok.out.size() == 1);
    CHECK(pod_sets(ok.out[0]) == "main:5/min4");
    Run el(job("{kueue.x-k8s.io/elastic-job: \"true\"}", 5));
    REQUIRE(el.out.size() == 1);
    CHECK(str(el.out[0].doc, {"metadata", "annotations", "kueue.x-k8s.io/elastic-job"}) == "true");
}
