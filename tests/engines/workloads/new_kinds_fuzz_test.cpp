// Every field of Kueue's samples of the newer kinds (Deployment, RayService,
// SparkApplication, AppWrapper) and of a TrainJob with its runtime, replaced
// in turn by junk, gives positioned findings or a Workload -- never a crash,
// never a silent drop.
#include "workloads_util.hpp"

#include <catch2/catch.hpp>

#include <functional>
#include <string>
#include <vector>

using namespace queueforge;
using namespace wl_test;

namespace {

void paths(const Node& n, std::vector<std::string>& prefix, std::vector<std::vector<std::string>>& out) {
    out.push_back(prefix);
    if (n.is_map())
        for (const auto& e : n.entries()) {
            prefix.push_back(e.key);
            paths(e.value, prefix, out);
            prefix.pop_back();
        }
    else if (n.is_seq())
        for (std::size_t i = 0; i < n.items().size(); ++i) {
            prefix.push_back(std::to_string(i));
            paths(n.items()[i], prefix, out);
            prefix.pop_back();
        }
}

constexpr const char* kQueues = R"(apiVersion: kueue.x-k8s.io/v1beta2
kind: LocalQueue
metadata: {name: user-queue, namespace: default}
spec: {clusterQueue: cq}
)";

constexpr const char* kTrainJob = R"(apiVersion: trainer.kubeflow.org/v1alpha1
kind: TrainJob
metadata: {name: tj, namespace: default, labels: {kueue.x-k8s.io/queue-name: user-queue}}
spec:
  runtimeRef: {name: torch}
  trainer:
    numNodes: 2
    resourcesPerNode: {requests: {nvidia.com/gpu: 1}}
  runtimePatches:
  - manager: x
    trainingRuntimeSpec: {template: {spec: {replicatedJobs: [{name: node, template: {spec: {template: {spec: {nodeSelector: {a: b}}}}}}]}}}
---
apiVersion: trainer.kubeflow.org/v1alpha1
kind: ClusterTrainingRuntime
metadata: {name: torch}
spec:
  mlPolicy: {numNodes: 1, torch: {}}
  template:
    spec:
      replicatedJobs:
      - name: node
        template:
          metadata: {labels: {trainer.kubeflow.org/trainjob-ancestor-step: trainer}}
          spec:
            parallelism: 1
            template: {spec: {containers: [{name: node, resources: {requests: {cpu: "1"}}}]}}
)";

}  // namespace

TEST_CASE("new kinds: any field of the samples replaced by junk gives positioned findings, never a crash", "[new-kinds]") {
    auto shared = qf_test::shared_dir();
    if (!shared) {
        WARN("skipped: ../shared (Kueue's samples) is not beside this checkout");
        return;
    }
    const Node junk[] = {Node::null_value(), Node::string("x"), Node::integer(-1), Node::integer(0), Node::sequence(), Node::mapping()};
    struct Input {
        std::string name, text;
    };
    std::vector<Input> inputs;
    for (const char* f : {"serving-workloads/sample-deployment.yaml", "jobs/ray-service-sample.yaml", "jobs/sample-sparkapplication.yaml",
                          "appwrapper/pytorch-sample.yaml", "appwrapper/deployment-sample.yaml", "appwrapper/leaderworkerset-sample.yaml"})
        inputs.push_back({f, qf_test::read_text(*shared / "upstream/kueue-examples" / f)});
    inputs.push_back({"trainjob", kTrainJob});
    std::size_t variants = 0;
    for (const auto& input : inputs) {
        LoadedResources in;
        Diagnostics d;
        load_resources_from_text("jobs.yaml", input.text, in, d);
        REQUIRE_FALSE(d.has_errors());
        // Every document in turn (the TrainJob's runtime too).
        for (std::size_t doc = 0; doc < in.resources.size(); ++doc) {
            std::vector<std::vector<std::string>> all;
            std::vector<std::string> prefix;
            paths(in.resources[doc].doc, prefix, all);
            for (const auto& p : all) {
                if (p.empty() || p.front() == "apiVersion" || p.front() == "kind") continue;
                for (const auto& j : junk) {
                    std::vector<Resource> res = in.resources;
                    Node* n = &res[doc].doc;
                    for (const auto& k : p) n = n->is_seq() ? &n->items()[std::stoul(k)] : n->find(k);
                    *n = j;
                    // The runtime is a cluster object; the rest are jobs.
                    std::vector<Resource> cluster, jobs;
                    LoadedResources queues;
                    Diagnostics qd;
                    load_resources_from_text("cluster.yaml", kQueues, queues, qd);
                    cluster = queues.resources;
                    for (auto& r : res) (workloads::is_job(r) ? jobs : cluster).push_back(r);
                    const auto ctx = workloads::cluster_context(cluster);
                    Diagnostics dd;
                    std::vector<Resource> out;
                    std::string where;
                    for (const auto& k : p) where += "/" + k;
                    CAPTURE(input.name, doc, where, j.text());
                    REQUIRE_NOTHROW(out = workloads::workloads_from_jobs(jobs, ctx, dd));
                    for (const auto& x : dd.all()) {
                        CHECK_FALSE(x.rule.empty());
                        CHECK(x.mark.line > 0);
                    }
                    // No Workload, then something says why -- except a
                    // Deployment scaled to 0, which has no pods.
                    const bool no_pods = input.name.find("sample-deployment") != std::string::npos && where == "/spec/replicas" &&
                                         j.as_int() == 0;
                    if (out.empty() && !no_pods && !jobs.empty()) CHECK_FALSE(dd.all().empty());
                    ++variants;
                }
            }
        }
    }
    INFO("variants: " << variants);
    CHECK(variants > 1000);
}
