// Tests for compiler/engines/workloads/appwrapper.cpp: an AppWrapper turned into
// the Workload Kueue creates from its components. Rows translated from Kueue
// ff69552e79ad21652c36caa97038382e55625cf7,
// pkg/controller/jobs/appwrapper/appwrapper_controller_test.go (TestPodSets
// "no annotations": a PyTorchJob of Master 1 and Worker 4 then a Job of
// parallelism 2 give aw-0:1 aw-1:4 aw-2:2; TestReconciler: a Job of
// parallelism 2 gives aw-0:2, three Jobs aw-0..aw-2), the AppWrapper webhook's
// refusals (project-codeflare/appwrapper v1.2.1,
// internal/webhook/appwrapper_webhook.go), and Kueue's samples in
// kueue-examples/appwrapper simulated at their quota boundary. Expected values
// are restated here on purpose.
#include "workloads_util.hpp"

#include <queueforge/engines/scheduler.hpp>

#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

using namespace queueforge;
using namespace wl_test;

namespace {

std::string aw(const std::string& components, const std::string& name = "aw") {
    return "apiVersion: workload.codeflare.dev/v1beta2\nkind: AppWrapper\nmetadata:\n  name: " + name +
           "\n  namespace: default\n  labels: {kueue.x-k8s.io/queue-name: lq}\nspec:\n  components:\n" + components;
}

const std::string kPyTorch = R"(  - template:
      apiVersion: kubeflow.org/v1
      kind: PyTorchJob
      metadata: {name: pytorchjob, namespace: default}
      spec:
        pytorchReplicaSpecs:
          Master:
            replicas: 1
            template: {spec: {containers: [{name: pytorch, resources: {requests: {cpu: "1"}}}]}}
          Worker:
            replicas: 4
            template: {spec: {containers: [{name: pytorch, resources: {requests: {cpu: "2"}}}]}}
)";

std::string job(int parallelism, const std::string& extra = "") {
    return "  - template:\n      apiVersion: batch/v1\n      kind: Job\n      metadata: {name: job}\n      spec:\n        parallelism: " +
           std::to_string(parallelism) + "\n" + extra +
           "        template: {spec: {containers: [{name: c, resources: {requests: {cpu: \"1\"}}}], restartPolicy: Never}}\n";
}

}  // namespace

TEST_CASE("appwrapper: no annotations (TestPodSets): podSets inferred per component, named <aw>-<i>", "[appwrapper]") {
    Run r(aw(kPyTorch + job(2)));
    INFO(qf_test::messages(r.d));
    CHECK(r.d.all().empty());
    REQUIRE(r.out.size() == 1);
    const Resource& wl = r.out[0];
    CHECK(wl.ref.name == "appwrapper-aw");
    CHECK(pod_sets(wl) == "aw-0:1 aw-1:4 aw-2:2");
    CHECK(str(wl.doc, {"spec", "podSets", "1", "template", "spec", "containers", "0", "resources", "requests", "cpu"}) == "2");
    std::string what;
    CHECK(schema_errors(r.out, &what) == 0);
    INFO(what);
}

TEST_CASE("appwrapper: workload is created with the corresponding podsets (TestReconciler)", "[appwrapper]") {
    {
        Run r(aw(job(2)));
        REQUIRE(r.out.size() == 1);
        CHECK(pod_sets(r.out[0]) == "aw-0:2");
    }
    {
        Run r(aw(job(1) + job(1) + job(1)));
        REQUIRE(r.out.size() == 1);
        CHECK(pod_sets(r.out[0]) == "aw-0:1 aw-1:1 aw-2:1");
    }
    {
        // InferPodSets caps parallelism by completions.
        Run r(aw(job(4, "        completions: 3\n")));
        REQUIRE(r.out.size() == 1);
        CHECK(pod_sets(r.out[0]) == "aw-0:3");
    }
}

TEST_CASE("appwrapper: declared podSets of an unknown kind, and the copied template subset", "[appwrapper]") {
    const std::string comp = R"(  - podSets:
    - {path: template.spec.workers.template, replicas: 5}
    - {path: template.spec.head}
    template:
      apiVersion: example.com/v1
      kind: Thing
      metadata: {name: thing}
      spec:
        head:
          spec:
            runtimeClassName: fast
            resources: {requests: {cpu: "9"}}
            containers: [{name: h, ports: [{containerPort: 80}], resources: {requests: {cpu: 500m}}}]
        workers:
          template:
            metadata: {labels: {role: w}}
            spec:
              nodeSelector: {gpu: a100}
              containers: [{name: w, resources: {requests: {nvidia.com/gpu: 1}}}]
)";
    Run r(aw(comp));
    INFO(qf_test::messages(r.d));
    REQUIRE(r.out.size() == 1);
    const Resource& wl = r.out[0];
    CHECK(pod_sets(wl) == "aw-0:5 aw-1:1");
    CHECK(str(wl.doc, {"spec", "podSets", "0", "template", "spec", "nodeSelector", "gpu"}) == "a100");
    CHECK(str(wl.doc, {"spec", "podSets", "0", "template", "metadata", "labels", "role"}) == "w");
    // GetPodTemplateSpec keeps neither pod-level resources, runtimeClassName nor ports.
    CHECK(at(wl.doc, {"spec", "podSets", "1", "template", "spec", "resources"}) == nullptr);
    CHECK(at(wl.doc, {"spec", "podSets", "1", "template", "spec", "runtimeClassName"}) == nullptr);
    CHECK(at(wl.doc, {"spec", "podSets", "1", "template", "spec", "containers", "0", "ports"}) == nullptr);
    CHECK(str(wl.doc, {"spec", "podSets", "1", "template", "spec", "containers", "0", "resources", "requests", "cpu"}) == "500m");
}

TEST_CASE("appwrapper: the webhook's refusals are positioned jobs.invalid errors", "[appwrapper]") {
    struct Case {
        std::string text, path, words;
        int line;
    };
    const Case cases[] = {
        {aw("  - podSets:\n    - {path: template.spec.nope}\n    template: {apiVersion: v1, kind: Pod, metadata: {name: p}, spec: {containers: [{name: c}]}}\n"),
         "spec.components[0].podSets[0].path", "path does not refer to a v1.PodSpecTemplate: at path position 'template.spec.' missing field 'nope'", 10},
        {aw("  - podSets:\n    - {replicas: 2}\n    template: {apiVersion: v1, kind: Pod, metadata: {name: p}, spec: {containers: [{name: c}]}}\n"),
         "spec.components[0].podSets[0].path", "podspec must specify path", 10},
        {aw("  - podSets:\n    - {path: template, replicas: -1}\n    template: {apiVersion: v1, kind: Pod, metadata: {name: p}, spec: {containers: [{name: c}]}}\n"),
         "spec.components[0].podSets[0].replicas", "must be greater than or equal to 0, got -1", 10},
        {aw("  - podSets:\n    - {path: template.spec.template, replicas: 2}\n    " + job(3).substr(4)),
         "spec.components[0].podSets", "replica count 2 differs from inferred count 3 for PodSet at path position 'template.spec.template'", 10},
        {aw("  - template: {apiVersion: workload.codeflare.dev/v1beta2, kind: AppWrapper, metadata: {name: inner}}\n"),
         "spec.components[0].template", "Nested AppWrappers are forbidden", 9},
        {aw("  - template: {apiVersion: v1, kind: Pod, metadata: {name: p, namespace: other}, spec: {containers: [{name: c}]}}\n"),
         "spec.components[0].template.metadata.namespace", "cannot create objects in other namespaces", 9},
        {aw("  - template: {apiVersion: v1, kind: ConfigMap, metadata: {name: cm}}\n"), "spec.components", "components contains no podspecs", 9},
        {aw("  - template:\n      apiVersion: apps/v1\n      kind: Deployment\n      metadata: {name: d}\n      spec:\n        replicas: many\n"
            "        template: {spec: {containers: [{name: c}]}}\n"),
         "spec.components[0].template", "error inferring PodSets: at path position 'template.spec.replicas' non-int value many", 10},
        {aw(job(1) + job(1) + job(1) + job(1) + job(1) + job(1) + job(1) + job(1) + job(1)), "spec.components",
         "components contains 9 podspecs; at most 8 are allowed", 9},
        {aw(job(1), std::string(62, 'a')), "metadata.name", "podSet name \"" + std::string(62, 'a') + "-0\" is not valid", 4},
        {"apiVersion: workload.codeflare.dev/v1beta2\nkind: AppWrapper\nmetadata: {name: a, labels: {kueue.x-k8s.io/queue-name: lq}}\nspec: {}\n",
         "spec.components", "Required value", 4},
    };
    for (const auto& c : cases) check_invalid(c.text, c.path, c.words, c.line);
}

TEST_CASE("appwrapper: Kueue's samples convert and simulate at their quota boundary", "[appwrapper]") {
    auto shared = qf_test::shared_dir();
    if (!shared) {
        WARN("skipped: ../shared (Kueue's samples, upstream/kueue-examples/appwrapper) is not beside this checkout");
        return;
    }
    struct Sample {
        const char* file;
        const char* name;
        const char* pod_sets;
        const char* fits;       // exactly the total
        const char* too_small;  // just below it
    };
    const Sample samples[] = {
        {"pytorch-sample.yaml", "appwrapper-sample-appwrapper-pytorch-job", "sample-appwrapper-pytorch-job-0:1 sample-appwrapper-pytorch-job-1:1", "2", "1999m"},
        {"deployment-sample.yaml", "appwrapper-sample-appwrapper-deployment", "sample-appwrapper-deployment-0:3", "300m", "299m"},
    };
    for (const auto& s : samples) {
        const auto path = *shared / "upstream/kueue-examples/appwrapper" / s.file;
        REQUIRE(std::filesystem::exists(path));
        for (const auto& [quota, admitted] : {std::pair{std::string(s.fits), true}, std::pair{std::string(s.too_small), false}}) {
            CAPTURE(s.file, quota);
            Run r(qf_test::read_text(path), user_queue_cluster(quota));
            INFO(qf_test::messages(r.d));
            CHECK_FALSE(r.d.has_errors());
            REQUIRE(r.out.size() == 1);
            CHECK(r.out[0].ref.name == s.name);
            CHECK(pod_sets(r.out[0]) == s.pod_sets);
            std::vector<Resource> all = r.cluster.resources;
            all.push_back(r.out[0]);
            all.back().doc.find("metadata")->set("creationTimestamp", Node::string("2026-01-01T00:00:00Z"));
            Diagnostics sd;
            auto result = scheduler::simulate(all, {}, sd);
            INFO(qf_test::messages(sd));
            CHECK_FALSE(sd.has_errors());
            REQUIRE(result.workloads.size() == 1);
            CHECK(result.workloads[0].admitted == admitted);
        }
    }
}

TEST_CASE("appwrapper: queueforge simulate takes Kueue's samples, schema-checked", "[appwrapper]") {
    auto shared = qf_test::shared_dir();
    if (!shared) {
        WARN("skipped: ../shared (Kueue's samples) is not beside this checkout");
        return;
    }
    qf_test::TempDir tmp;
    qf_test::write_text(tmp.path / "queues.yaml", user_queue_cluster("100"));
    const auto dir = *shared / "upstream/kueue-examples/appwrapper";
    auto r = qf_test::run_cli("simulate -o json " + qf_test::shell_quote((tmp.path / "queues.yaml").string()) + " " +
                              qf_test::shell_quote((dir / "pytorch-sample.yaml").string()) + " " +
                              qf_test::shell_quote((dir / "deployment-sample.yaml").string()) + " " +
                              qf_test::shell_quote((dir / "leaderworkerset-sample.yaml").string()));
    INFO(r.out << r.err);
    REQUIRE(r.exit == 0);
    auto j = nlohmann::json::parse(r.out);
    REQUIRE(j["workloads"].size() == 3);
    for (const auto& w : j["workloads"]) CHECK(w["status"] == "Admitted");
}
