// Tests for compiler/engines/workloads: malformed and mutated jobs turned into the Workloads
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

// ---------------------------------------------------------------- bad input

TEST_CASE("jobs: malformed jobs are positioned errors, never crashes") {
    struct Case {
        const char* what;
        const char* text;
        int line;
    };
    const Case cases[] = {
        {"no template", "apiVersion: batch/v1\nkind: Job\nmetadata: {name: j}\nspec:\n  parallelism: 2\n", 5},
        {"no spec", "apiVersion: batch/v1\nkind: Job\nmetadata: {name: j}\n", 1},
        {"spec is a list", "apiVersion: batch/v1\nkind: Job\nmetadata: {name: j}\nspec: [1]\n", 4},
        {"template is a string", "apiVersion: batch/v1\nkind: Job\nmetadata: {name: j}\nspec:\n  template: nope\n", 5},
        {"parallelism is a string", "apiVersion: batch/v1\nkind: Job\nmetadata: {name: j}\nspec:\n  parallelism: \"3\"\n  template: {spec: {}}\n", 5},
        {"negative completions", "apiVersion: batch/v1\nkind: Job\nmetadata: {name: j}\nspec:\n  completions: -1\n  template: {spec: {}}\n", 5},
        {"parallelism past int32", "apiVersion: batch/v1\nkind: Job\nmetadata: {name: j}\nspec:\n  parallelism: 99999999999\n  template: {spec: {}}\n", 5},
        {"no name", "apiVersion: batch/v1\nkind: Job\nmetadata: {labels: {a: b}}\nspec: {template: {spec: {}}}\n", 3},
        {"replicas not an integer", "apiVersion: kubeflow.org/v1\nkind: PyTorchJob\nmetadata: {name: j}\nspec:\n  pytorchReplicaSpecs:\n    Worker: {replicas: two, template: {spec: {}}}\n", 6},
        {"negative replicas", "apiVersion: kubeflow.org/v1\nkind: TFJob\nmetadata: {name: j}\nspec:\n  tfReplicaSpecs:\n    Worker:\n      replicas: -2\n      template: {spec: {}}\n", 7},
        {"unknown replica type", "apiVersion: kubeflow.org/v1\nkind: JAXJob\nmetadata: {name: j}\nspec:\n  jaxReplicaSpecs:\n    Master: {template: {spec: {}}}\n", 6},
        {"replica specs a list", "apiVersion: kubeflow.org/v1\nkind: PaddleJob\nmetadata: {name: j}\nspec:\n  paddleReplicaSpecs: [a]\n", 5},
        {"replica spec a string", "apiVersion: kubeflow.org/v1\nkind: XGBoostJob\nmetadata: {name: j}\nspec:\n  xgbReplicaSpecs:\n    Master: x\n", 6},
        {"jobset without jobs", "apiVersion: jobset.x-k8s.io/v1alpha2\nkind: JobSet\nmetadata: {name: j}\nspec:\n  replicatedJobs: []\n", 5},
        {"jobset job without template", "apiVersion: jobset.x-k8s.io/v1alpha2\nkind: JobSet\nmetadata: {name: j}\nspec:\n  replicatedJobs:\n    - name: w\n", 6},
        {"jobset duplicate names", "apiVersion: jobset.x-k8s.io/v1alpha2\nkind: JobSet\nmetadata: {name: j}\nspec:\n  replicatedJobs:\n    - {name: w, template: {spec: {template: {spec: {}}}}}\n    - {name: W, template: {spec: {template: {spec: {}}}}}\n", 7},
        {"jobset bad name", "apiVersion: jobset.x-k8s.io/v1alpha2\nkind: JobSet\nmetadata: {name: j}\nspec:\n  replicatedJobs:\n    - {name: a_b, template: {spec: {template: {spec: {}}}}}\n", 6},
        {"ray worker group named head", "apiVersion: ray.io/v1\nkind: RayCluster\nmetadata: {name: j}\nspec:\n  headGroupSpec: {template: {spec: {containers: [{name: h}]}}}\n  workerGroupSpecs:\n    - {groupName: head, template: {spec: {}}}\n", 7},
        {"ray head without containers", "apiVersion: ray.io/v1\nkind: RayCluster\nmetadata: {name: j}\nspec:\n  headGroupSpec: {template: {spec: {}}}\n", 5},
        {"ray worker groups not a list", "apiVersion: ray.io/v1\nkind: RayCluster\nmetadata: {name: j}\nspec:\n  headGroupSpec: {template: {spec: {containers: [{name: h}]}}}\n  workerGroupSpecs: {a: b}\n", 6},
        {"pod without spec", "apiVersion: v1\nkind: Pod\nmetadata: {name: j}\n", 1},
        {"pod group total not a number", "apiVersion: v1\nkind: Pod\nmetadata:\n  name: j\n  labels: {kueue.x-k8s.io/pod-group-name: g}\n  annotations: {kueue.x-k8s.io/pod-group-total-count: many}\nspec: {containers: []}\n", 6},
        {"elastic not supported", "apiVersion: jobset.x-k8s.io/v1alpha2\nkind: JobSet\nmetadata:\n  name: j\n  annotations: {kueue.x-k8s.io/elastic-job: \"true\"}\nspec: {}\n", 5},
    };
    for (const auto& c : cases) {
        // Every case is in namespace `default`, which has a LocalQueue `default`.
        Run r(c.text, yaml(kCluster) + "---\napiVersion: kueue.x-k8s.io/v1beta2\nkind: LocalQueue\nmetadata: {name: default, namespace: default}\n");
        INFO(c.what << "\n" << qf_test::messages(r.d));
        CHECK(r.out.empty());
        REQUIRE(r.count("jobs.invalid") >= 1);
        CHECK(r.first("jobs.invalid")->mark.line == c.line);
        CHECK(r.first("jobs.invalid")->file == "jobs.yaml");
    }
}

namespace {

// Paths to every node of `n` (sequence items as "#i"), up to `depth` levels.
void node_paths(const Node& n, std::vector<std::string>& prefix, std::vector<std::vector<std::string>>& out, int depth) {
    out.push_back(prefix);
    if (depth == 0) return;
    if (n.is_map())
        for (const auto& e : n.entries()) {
            prefix.push_back(e.key);
            node_paths(e.value, prefix, out, depth - 1);
            prefix.pop_back();
        }
    if (n.is_seq())
        for (std::size_t i = 0; i < n.items().size(); ++i) {
            prefix.push_back("#" + std::to_string(i));
            node_paths(n.items()[i], prefix, out, depth - 1);
            prefix.pop_back();
        }
}

Node* walk(Node& root, const std::vector<std::string>& path) {
    Node* n = &root;
    for (const auto& p : path) {
        if (p.front() == '#') n = &n->items()[std::stoul(p.substr(1))];
        else n = n->find(p);
    }
    return n;
}

}  // namespace

TEST_CASE("jobs: every single-node mutation of the Kueue samples converts or fails cleanly") {
    auto shared = qf_test::shared_dir();
    if (!shared) {
        WARN("skipped: ../shared (Kueue's samples) is not beside this checkout");
        return;
    }
    LoadedResources cluster;
    Diagnostics d0;
    load_resources_from_text("cluster.yaml", yaml(kCluster), cluster, d0);
    const auto ctx = workloads::cluster_context(cluster.resources);
    const Node replacements[] = {Node::null_value(), Node::string("x"), Node::integer(-1), Node::sequence(), Node::mapping()};
    std::size_t variants = 0;
    for (const auto& dir : {*shared / "upstream/kueue-examples/jobs", *shared / "upstream/kueue-examples/pods-kueue"}) {
        for (const auto& e : fs::directory_iterator(dir)) {
            LoadedResources in;
            Diagnostics d;
            load_resources_from_text(e.path().string(), qf_test::read_text(e.path()), in, d);
            for (std::size_t i = 0; i < in.resources.size(); ++i) {
                if (!workloads::is_job(in.resources[i])) continue;
                std::vector<std::vector<std::string>> paths;
                std::vector<std::string> prefix;
                node_paths(in.resources[i].doc, prefix, paths, 12);
                for (const auto& path : paths) {
                    if (path.empty() || path.front() == "apiVersion" || path.front() == "kind") continue;
                    for (const auto& rep : replacements) {
                        std::vector<Resource> one = in.resources;
                        *walk(one[i].doc, path) = rep;
                        Diagnostics dd;
                        auto out = workloads::workloads_from_jobs(one, ctx, dd);
                        // Whatever happens, it is said with a rule and a position.
                        for (const auto& x : dd.all()) {
                            CHECK_FALSE(x.rule.empty());
                            CHECK(x.mark.line > 0);
                        }
                        ++variants;
                    }
                }
            }
        }
    }
    INFO("variants: " << variants);
    CHECK(variants > 1000);
}

TEST_CASE("jobs: unsupported job kinds are skipped with their reason, other objects are ignored") {
    Run r(yaml(R"(
apiVersion: batch/v1
kind: CronJob
metadata: {name: c}
---
apiVersion: v1
kind: ConfigMap
metadata: {name: code}
---
apiVersion: kubeflow.org/v1
kind: MPIJob
metadata: {name: old}
)"));
    CHECK(r.out.empty());
    CHECK(r.count("jobs.unsupported") == 2);
    CHECK(r.d.all().size() == 2);
    CHECK(r.first("jobs.unsupported")->message.find("jobTemplate") != std::string::npos);
}
