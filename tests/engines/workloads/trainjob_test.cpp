// Tests for compiler/engines/workloads/trainjob.cpp: a TrainJob and its
// (Cluster)TrainingRuntime turned into the Workload Kueue creates for the
// JobSet the Trainer builds. The first rows are translated from Kueue
// ff69552e79ad21652c36caa97038382e55625cf7,
// pkg/controller/jobs/trainjob/trainjob_controller_test.go (TestReconciler:
// a ClusterTrainingRuntime "test" with replicatedJobs `node` -- the trainer
// step -- and `foo`, one replica of parallelism 1 each, and no mlPolicy); the
// others follow Kubeflow Trainer v2.3.0's runtime plugins (torch, mpi,
// plainml) and newRuntimeInfo. Kueue's GetWorkloadName appends a hash of the
// uid, which queueforge leaves out (workloads.hpp). Expected values are
// restated here on purpose.
#include "workloads_util.hpp"

#include <queueforge/engines/scheduler.hpp>

#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

using namespace queueforge;
using namespace wl_test;

namespace {

// TestReconciler's runtime: ClusterTrainingRuntime "test".
constexpr const char* kTestRuntime = R"(---
apiVersion: trainer.kubeflow.org/v1alpha1
kind: ClusterTrainingRuntime
metadata: {name: test}
spec:
  template:
    spec:
      replicatedJobs:
      - name: node
        replicas: 1
        template:
          metadata:
            labels: {trainer.kubeflow.org/trainjob-ancestor-step: trainer}
          spec:
            parallelism: 1
            completions: 1
            template:
              spec:
                containers: [{name: node, image: pause, resources: {requests: {cpu: "1"}}}]
      - name: foo
        replicas: 1
        template:
          spec:
            parallelism: 1
            completions: 1
            template:
              spec:
                containers: [{name: foo, image: pause, resources: {requests: {cpu: 500m}}}]
)";

// Trainer's torch-distributed runtime, shortened: an mlPolicy with numNodes 1.
constexpr const char* kTorchRuntime = R"(---
apiVersion: trainer.kubeflow.org/v1alpha1
kind: ClusterTrainingRuntime
metadata: {name: torch-distributed}
spec:
  mlPolicy:
    numNodes: 1
    torch: {numProcPerNode: auto}
  template:
    spec:
      replicatedJobs:
      - name: dataset-initializer
        template:
          metadata:
            labels: {trainer.kubeflow.org/trainjob-ancestor-step: dataset-initializer}
          spec:
            template:
              spec:
                containers: [{name: dataset-initializer, image: init, resources: {requests: {cpu: 250m}}}]
      - name: node
        replicas: 3
        template:
          metadata:
            labels: {trainer.kubeflow.org/trainjob-ancestor-step: trainer}
          spec:
            template:
              spec:
                containers:
                - name: node
                  image: pytorch
                  resources: {requests: {cpu: "2", memory: 8Gi}, limits: {memory: 8Gi}}
                - name: sidecar
                  image: s
                  resources: {requests: {cpu: 100m}}
)";

// Trainer's mpi runtime, shortened: launcher and node, runLauncherAsNode.
constexpr const char* kMpiRuntime = R"(---
apiVersion: trainer.kubeflow.org/v1alpha1
kind: TrainingRuntime
metadata: {name: mpi, namespace: default}
spec:
  mlPolicy:
    numNodes: 1
    mpi: {numProcPerNode: 1, runLauncherAsNode: true}
  template:
    spec:
      replicatedJobs:
      - name: launcher
        template:
          metadata:
            labels: {trainer.kubeflow.org/trainjob-ancestor-step: trainer}
          spec:
            template:
              spec:
                containers: [{name: node, image: mpi, resources: {requests: {cpu: "1"}}}]
      - name: node
        template:
          spec:
            template:
              spec:
                containers: [{name: node, image: mpi, resources: {requests: {cpu: "1"}}}]
)";

std::string cluster_with(const char* runtime) { return yaml(kCluster) + runtime; }

// TrainJob "trainjob" in `default`, queued to lq, on runtime `ref` (a map).
std::string tj(const std::string& ref = "{name: test}", const std::string& spec_extra = "") {
    return "apiVersion: trainer.kubeflow.org/v1alpha1\nkind: TrainJob\nmetadata:\n  name: trainjob\n  namespace: default\n"
           "  uid: tj-uid\n  labels: {kueue.x-k8s.io/queue-name: lq}\nspec:\n  runtimeRef: " +
           ref + "\n" + spec_extra;
}

std::string cpu_of(const Resource& wl, std::size_t ps, std::size_t c = 0) {
    return str(wl.doc, {"spec", "podSets", std::to_string(ps), "template", "spec", "containers", std::to_string(c), "resources",
                        "requests", "cpu"});
}

}  // namespace

TEST_CASE("trainjob: workload is created with the corresponding podsets (TestReconciler)", "[trainjob]") {
    Run r(tj(), cluster_with(kTestRuntime));
    INFO(qf_test::messages(r.d));
    CHECK(r.d.all().empty());
    REQUIRE(r.out.size() == 1);
    const Resource& wl = r.out[0];
    CHECK(wl.ref.name == "trainjob-trainjob");
    CHECK(pod_sets(wl) == "node:1 foo:1");
    CHECK(str(wl.doc, {"spec", "queueName"}) == "lq");
    CHECK(str(wl.doc, {"metadata", "labels", "kueue.x-k8s.io/job-uid"}) == "tj-uid");
    CHECK(str(wl.doc, {"metadata", "ownerReferences", "0", "kind"}) == "TrainJob");
    CHECK(cpu_of(wl, 0) == "1");
    CHECK(cpu_of(wl, 1) == "500m");
    // The template is the runtime's, positioned in the runtime's file.
    const Node* c = at(wl.doc, {"spec", "podSets", "1", "template", "spec", "containers", "0"});
    REQUIRE(c);
    REQUIRE(c->mark().file);
    CHECK(*c->mark().file == "cluster.yaml");
    std::string what;
    CHECK(schema_errors(r.out, &what) == 0);
    INFO(what);
}

TEST_CASE("trainjob: podset count for the trainer job is set to .Spec.Trainer.NumNodes (TestReconciler)", "[trainjob]") {
    Run r(tj("{name: test}", "  trainer: {numNodes: 2}\n"), cluster_with(kTestRuntime));
    INFO(qf_test::messages(r.d));
    REQUIRE(r.out.size() == 1);
    CHECK(pod_sets(r.out[0]) == "node:2 foo:1");
}

TEST_CASE("trainjob: runtimeRef kind and apiGroup take the API's defaults, explicit ones agree", "[trainjob]") {
    Run r(tj("{name: test, kind: ClusterTrainingRuntime, apiGroup: trainer.kubeflow.org}"), cluster_with(kTestRuntime));
    REQUIRE(r.out.size() == 1);
    CHECK(pod_sets(r.out[0]) == "node:1 foo:1");
}

TEST_CASE("trainjob: a torch runtime's trainer step counts mlPolicy.numNodes, one replica, numNodes overrides", "[trainjob]") {
    {
        Run r(tj("{name: torch-distributed}"), cluster_with(kTorchRuntime));
        INFO(qf_test::messages(r.d));
        REQUIRE(r.out.size() == 1);
        // replicas 3 of the trainer step is forced to 1 by the JobSet builder.
        CHECK(pod_sets(r.out[0]) == "dataset-initializer:1 node:1");
    }
    {
        Run r(tj("{name: torch-distributed}", "  trainer: {numNodes: 4}\n"), cluster_with(kTorchRuntime));
        REQUIRE(r.out.size() == 1);
        CHECK(pod_sets(r.out[0]) == "dataset-initializer:1 node:4");
    }
    {
        Run r(tj("{name: torch-distributed}", "  trainer: {numNodes: 0}\n"), cluster_with(kTorchRuntime));
        REQUIRE(r.out.size() == 1);
        CHECK(pod_sets(r.out[0]) == "dataset-initializer:1 node:0");
    }
}

TEST_CASE("trainjob: resourcesPerNode merges into the trainer container, key by key", "[trainjob]") {
    Run r(tj("{name: torch-distributed}", "  trainer:\n    numNodes: 2\n    resourcesPerNode:\n      requests: {cpu: \"8\", nvidia.com/gpu: 4}\n"
                                          "      limits: {nvidia.com/gpu: 4}\n"),
          cluster_with(kTorchRuntime));
    INFO(qf_test::messages(r.d));
    REQUIRE(r.out.size() == 1);
    const Resource& wl = r.out[0];
    CHECK(pod_sets(wl) == "dataset-initializer:1 node:2");
    const std::string res = "resources";
    CHECK(str(wl.doc, {"spec", "podSets", "1", "template", "spec", "containers", "0", res, "requests", "cpu"}) == "8");
    CHECK(str(wl.doc, {"spec", "podSets", "1", "template", "spec", "containers", "0", res, "requests", "memory"}) == "8Gi");
    CHECK(str(wl.doc, {"spec", "podSets", "1", "template", "spec", "containers", "0", res, "requests", "nvidia.com/gpu"}) == "4");
    CHECK(str(wl.doc, {"spec", "podSets", "1", "template", "spec", "containers", "0", res, "limits", "memory"}) == "8Gi");
    CHECK(str(wl.doc, {"spec", "podSets", "1", "template", "spec", "containers", "0", res, "limits", "nvidia.com/gpu"}) == "4");
    // Other containers and other steps keep theirs.
    CHECK(cpu_of(wl, 1, 1) == "100m");
    CHECK(cpu_of(wl, 0) == "250m");
}

TEST_CASE("trainjob: without an mlPolicy resourcesPerNode is not applied (newRuntimeInfo)", "[trainjob]") {
    Run r(tj("{name: test}", "  trainer: {resourcesPerNode: {requests: {cpu: \"8\"}}}\n"), cluster_with(kTestRuntime));
    REQUIRE(r.out.size() == 1);
    CHECK(cpu_of(r.out[0], 0) == "1");
}

TEST_CASE("trainjob: MPI with runLauncherAsNode gives the node step numNodes - 1, at least 1", "[trainjob]") {
    const std::string ref = "{name: mpi, kind: TrainingRuntime}";
    for (const auto& [n, want] : {std::pair{4, std::string("launcher:1 node:3")}, std::pair{1, std::string("launcher:1 node:1")}}) {
        CAPTURE(n);
        Run r(tj(ref, "  trainer:\n    numNodes: " + std::to_string(n) + "\n    resourcesPerNode: {requests: {cpu: \"3\"}}\n"),
              cluster_with(kMpiRuntime));
        INFO(qf_test::messages(r.d));
        REQUIRE(r.out.size() == 1);
        CHECK(pod_sets(r.out[0]) == want);
        // resourcesPerNode reaches the launcher (trainer step) and the node step.
        CHECK(cpu_of(r.out[0], 0) == "3");
        CHECK(cpu_of(r.out[0], 1) == "3");
    }
    // Without numNodes: the runtime's counts (parallelism 1 each).
    Run r(tj(ref), cluster_with(kMpiRuntime));
    REQUIRE(r.out.size() == 1);
    CHECK(pod_sets(r.out[0]) == "launcher:1 node:1");
}

TEST_CASE("trainjob: a TrainingRuntime is looked up in the TrainJob's namespace", "[trainjob]") {
    std::string job = tj("{name: mpi, kind: TrainingRuntime}");
    job.replace(job.find("namespace: default"), 18, "namespace: team-a");
    Run r(job, cluster_with(kMpiRuntime));
    CHECK(r.out.empty());
    const Diagnostic* e = r.first("jobs.invalid");
    REQUIRE(e);
    CHECK(e->message.find("runtime 'mpi' not found: no TrainingRuntime \"mpi\" in namespace \"team-a\"") != std::string::npos);
}

TEST_CASE("trainjob: runtimePatches apply their placement fields", "[trainjob]") {
    const std::string patches = R"(  runtimePatches:
  - manager: example.com/tuner
    trainingRuntimeSpec:
      template:
        spec:
          replicatedJobs:
          - name: node
            template:
              spec:
                template:
                  spec:
                    nodeSelector: {gpu: h100}
                    tolerations: [{key: gpu, operator: Exists}]
                    containers: [{name: node, env: [{name: A, value: b}]}]
)";
    Run r(tj("{name: test}", patches), cluster_with(kTestRuntime));
    INFO(qf_test::messages(r.d));
    REQUIRE(r.out.size() == 1);
    const Resource& wl = r.out[0];
    CHECK(str(wl.doc, {"spec", "podSets", "0", "template", "spec", "nodeSelector", "gpu"}) == "h100");
    CHECK(str(wl.doc, {"spec", "podSets", "0", "template", "spec", "tolerations", "0", "key"}) == "gpu");
    CHECK(at(wl.doc, {"spec", "podSets", "1", "template", "spec", "nodeSelector"}) == nullptr);
    // Containers keep their requests.
    CHECK(cpu_of(wl, 0) == "1");

    // A patch naming a replicatedJob the runtime does not have.
    std::string bad = patches;
    bad.replace(bad.find("- name: node"), 12, "- name: nope");
    Run b(tj("{name: test}", bad), cluster_with(kTestRuntime));
    CHECK(b.out.empty());
    const Diagnostic* e = b.first("jobs.invalid");
    REQUIRE(e);
    CHECK(e->message.find("\"nope\": runtime \"test\" has no replicatedJob of that name") != std::string::npos);
    CHECK(e->mark.line == 16);
}

TEST_CASE("trainjob: bad input gives positioned jobs.invalid errors", "[trainjob]") {
    struct Case {
        std::string text, path, words;
        int line;
    };
    const Case cases[] = {
        {tj("{name: missing}"), "spec.runtimeRef.name", "runtime 'missing' not found: no ClusterTrainingRuntime \"missing\"", 9},
        {tj("{name: test, kind: Runtime}"), "spec.runtimeRef.kind", "unsupported runtime: Runtime.trainer.kubeflow.org", 9},
        {tj("{name: test, apiGroup: example.com}"), "spec.runtimeRef.apiGroup", "unsupported runtime: ClusterTrainingRuntime.example.com", 9},
        {tj("{kind: TrainingRuntime}"), "spec.runtimeRef.name", "Required value", 9},
        {tj("{name: test}", "  trainer: {numNodes: -1}\n"), "spec.trainer.numNodes", "must be greater than or equal to 0, got -1", 10},
        {tj("{name: test}", "  trainer: {numNodes: many}\n"), "spec.trainer.numNodes", "must be an integer (int32)", 10},
        {tj("{name: test}", "  trainer: {numNodes: 4294967296}\n"), "spec.trainer.numNodes", "must be an integer (int32)", 10},
        {tj("{name: test}", "  trainer: {resourcesPerNode: [cpu]}\n"), "spec.trainer.resourcesPerNode", "must be a map", 10},
        {"apiVersion: trainer.kubeflow.org/v1alpha1\nkind: TrainJob\nmetadata: {name: t, labels: {kueue.x-k8s.io/queue-name: lq}}\n",
         "spec", "Required value", 1},
    };
    for (const auto& c : cases) {
        CAPTURE(c.text);
        Run r(c.text, cluster_with(kTestRuntime));
        CHECK(r.out.empty());
        const Diagnostic* e = r.first("jobs.invalid");
        REQUIRE(e);
        CHECK(e->path == c.path);
        CHECK(e->message.find(c.words) != std::string::npos);
        CHECK(e->file == "jobs.yaml");
        CHECK(e->mark.line == c.line);
        CHECK(e->mark.col > 0);
    }
}

TEST_CASE("trainjob: a broken runtime is reported in the runtime's file", "[trainjob]") {
    const std::string rt = "---\napiVersion: trainer.kubeflow.org/v1alpha1\nkind: ClusterTrainingRuntime\nmetadata: {name: test}\n"
                           "spec:\n  mlPolicy: {numNodes: -3}\n  template: {spec: {replicatedJobs: []}}\n";
    Run r(tj(), yaml(kCluster) + rt);
    CHECK(r.out.empty());
    const Diagnostic* e = r.first("jobs.invalid");
    REQUIRE(e);
    CHECK(e->file == "cluster.yaml");
    CHECK(e->path == "spec.mlPolicy.numNodes");
    CHECK(e->message.find("ClusterTrainingRuntime") != std::string::npos);
}

TEST_CASE("trainjob: a Flux runtime is not converted, with a warning", "[trainjob]") {
    std::string rt = kTorchRuntime;
    rt.replace(rt.find("torch: {numProcPerNode: auto}"), 29, "flux: {numProcPerNode: 1}");
    Run r(tj("{name: torch-distributed}"), cluster_with(rt.c_str()));
    CHECK(r.out.empty());
    REQUIRE(r.count("jobs.unsupported") == 1);
    CHECK_FALSE(r.d.has_errors());
}

namespace {

std::string gpu_cluster(const std::string& gpus) {
    return R"(apiVersion: kueue.x-k8s.io/v1beta2
kind: ResourceFlavor
metadata: {name: default-flavor}
---
apiVersion: kueue.x-k8s.io/v1beta2
kind: ClusterQueue
metadata: {name: cluster-queue}
spec:
  namespaceSelector: {}
  resourceGroups:
  - coveredResources: [cpu, memory, nvidia.com/gpu]
    flavors:
    - name: default-flavor
      resources: [{name: cpu, nominalQuota: 100}, {name: memory, nominalQuota: 1Ti}, {name: nvidia.com/gpu, nominalQuota: )" +
           gpus + R"(}]
---
apiVersion: kueue.x-k8s.io/v1beta2
kind: LocalQueue
metadata: {name: lq, namespace: default}
spec: {clusterQueue: cluster-queue}
)" + kTorchRuntime;
}

}  // namespace

TEST_CASE("trainjob: simulated all or nothing at the quota boundary", "[trainjob]") {
    // 4 nodes of 2 GPUs: 8 GPUs, admitted at quota 8, pending at 7.
    const std::string job = tj("{name: torch-distributed}", "  trainer:\n    numNodes: 4\n    resourcesPerNode: {requests: {nvidia.com/gpu: 2}, limits: {nvidia.com/gpu: 2}}\n");
    for (const auto& [quota, admitted] : {std::pair{std::string("8"), true}, std::pair{std::string("7"), false}}) {
        CAPTURE(quota);
        Run r(job, gpu_cluster(quota));
        INFO(qf_test::messages(r.d));
        REQUIRE(r.out.size() == 1);
        std::vector<Resource> all = r.cluster.resources;
        all.push_back(r.out[0]);
        all.back().doc.find("metadata")->set("creationTimestamp", Node::string("2026-01-01T00:00:00Z"));
        Diagnostics sd;
        auto result = scheduler::simulate(all, {}, sd);
        INFO(qf_test::messages(sd));
        CHECK_FALSE(sd.has_errors());
        REQUIRE(result.workloads.size() == 1);
        CHECK(result.workloads[0].admitted == admitted);
        if (admitted) CHECK(result.workloads[0].assignments.at(1).resource_usage.at("nvidia.com/gpu") == "8");
    }
}

TEST_CASE("trainjob: queueforge simulate takes the TrainJob and its runtime from the inputs", "[trainjob]") {
    qf_test::TempDir tmp;
    qf_test::write_text(tmp.path / "queues.yaml", gpu_cluster("8"));
    qf_test::write_text(tmp.path / "tj.yaml", tj("{name: torch-distributed}", "  trainer:\n    numNodes: 4\n    resourcesPerNode: {requests: {nvidia.com/gpu: 2}, limits: {nvidia.com/gpu: 2}}\n"));
    auto r = qf_test::run_cli("simulate -o json " + qf_test::shell_quote((tmp.path / "queues.yaml").string()) + " " +
                              qf_test::shell_quote((tmp.path / "tj.yaml").string()));
    INFO(r.out << r.err);
    REQUIRE(r.exit == 0);
    auto j = nlohmann::json::parse(r.out);
    REQUIRE(j["workloads"].size() == 1);
    CHECK(j["workloads"][0]["name"] == "trainjob-trainjob");
    CHECK(j["workloads"][0]["status"] == "Admitted");

    // Without the runtime: a positioned error naming it, exit 1.
    auto e = qf_test::run_cli("simulate " + qf_test::shell_quote((tmp.path / "tj.yaml").string()));
    INFO(e.out << e.err);
    CHECK(e.exit == 1);
    CHECK((e.out + e.err).find("tj.yaml:9:") != std::string::npos);
    CHECK((e.out + e.err).find("runtime 'torch-distributed' not found") != std::string::npos);
}
