#pragma once
// What the tests of engines/workloads share: the cluster most of them use,
// one conversion run and readers of the Workloads it produces.
#include <catch2/catch.hpp>

#include "test_util.hpp"

#include <queueforge/compile.hpp>
#include <queueforge/frontend/manifests.hpp>
#include <queueforge/engines/workloads.hpp>
#include <queueforge/frontend/site_parse.hpp>
#include <queueforge/checks/validate.hpp>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

namespace wl_test {
using namespace queueforge;
}

namespace wl_test {

inline std::string yaml(const char* text) {
    std::string s = text;
    if (!s.empty() && s.front() == '\n') s.erase(0, 1);
    return s;
}

// Cluster objects most tests share: a LocalQueue `default` in `team-a`, a
// LocalQueue `lq` in `default`, three WorkloadPriorityClasses and two
// PriorityClasses (none globalDefault).
inline constexpr const char* kCluster = R"(
apiVersion: kueue.x-k8s.io/v1beta2
kind: LocalQueue
metadata: {name: default, namespace: team-a}
spec: {clusterQueue: cq}
---
apiVersion: kueue.x-k8s.io/v1beta2
kind: LocalQueue
metadata: {name: lq, namespace: default}
spec: {clusterQueue: cq}
---
apiVersion: kueue.x-k8s.io/v1beta2
kind: WorkloadPriorityClass
metadata: {name: high}
value: 1000
---
apiVersion: kueue.x-k8s.io/v1beta2
kind: WorkloadPriorityClass
metadata: {name: low}
value: 10
---
apiVersion: scheduling.k8s.io/v1
kind: PriorityClass
metadata: {name: pod-high}
value: 5000
---
apiVersion: scheduling.k8s.io/v1
kind: PriorityClass
metadata: {name: pod-low}
value: 50
)";

// One conversion: the cluster, the jobs, the Workloads and the findings.
struct Run {
    LoadedResources cluster;
    LoadedResources jobs;
    workloads::ClusterContext ctx;
    Diagnostics d;
    std::vector<Resource> out;

    Run(const std::string& job_text, const std::string& cluster_text = yaml(kCluster), const workloads::JobOptions& opts = {}) {
        Diagnostics load;
        load_resources_from_text("cluster.yaml", cluster_text, cluster, load);
        load_resources_from_text("jobs.yaml", job_text, jobs, load);
        INFO(qf_test::messages(load));
        REQUIRE_FALSE(load.has_errors());
        ctx = workloads::cluster_context(cluster.resources);
        out = workloads::workloads_from_jobs(jobs.resources, ctx, d, opts);
    }
    Run(const Run&) = delete;
    Run& operator=(const Run&) = delete;

    std::size_t count(const std::string& rule) const {
        std::size_t n = 0;
        for (const auto& x : d.all()) n += x.rule == rule;
        return n;
    }
    const Diagnostic* first(const std::string& rule) const {
        for (const auto& x : d.all())
            if (x.rule == rule) return &x;
        return nullptr;
    }
};

// Walks a Node by keys; numeric segments index sequences.
inline const Node* at(const Node& root, std::initializer_list<std::string> path) {
    const Node* n = &root;
    for (const auto& p : path) {
        if (!n) return nullptr;
        if (n->is_seq()) {
            std::size_t i = std::stoul(p);
            n = i < n->items().size() ? &n->items()[i] : nullptr;
        } else {
            n = n->find(p);
        }
    }
    return n;
}

inline std::string str(const Node& root, std::initializer_list<std::string> path) {
    const Node* n = at(root, path);
    return n && n->is_scalar() ? n->text() : "<none>";
}

inline std::int64_t num(const Node& root, std::initializer_list<std::string> path) {
    const Node* n = at(root, path);
    return n && n->as_int() ? *n->as_int() : -999;
}

// "name:count" per podSet, in order.
inline std::string pod_sets(const Resource& wl) {
    std::string s;
    const Node* ps = at(wl.doc, {"spec", "podSets"});
    for (const auto& p : ps ? ps->items() : Node::Items{}) {
        s += (s.empty() ? "" : " ") + str(p, {"name"}) + ":" + str(p, {"count"});
        if (const Node* m = p.find("minCount")) s += "/min" + m->text();
    }
    return s;
}

inline std::size_t schema_errors(std::vector<Resource> workloads, std::string* what = nullptr) {
    LoadedResources in;
    in.resources = std::move(workloads);
    ValidationOptions o;
    o.ignore_missing_schemas = true;
    Diagnostics d;
    validate_all(in, o, d);
    std::size_t n = 0;
    for (const auto& x : d.all())
        if (x.severity == Severity::Error && x.rule.starts_with("schema.")) {
            ++n;
            if (what) *what += x.path + ": " + x.message + "\n";
        }
    return n;
}

// The cluster of Kueue's job and serving samples (queue-name user-queue in
// namespace default): ResourceFlavor default-flavor and ClusterQueue
// cluster-queue with this cpu quota, and memory too when given.
inline std::string user_queue_cluster(const std::string& cpu, const std::string& memory = "") {
    return "apiVersion: kueue.x-k8s.io/v1beta2\nkind: ResourceFlavor\nmetadata: {name: default-flavor}\n---\n"
           "apiVersion: kueue.x-k8s.io/v1beta2\nkind: ClusterQueue\nmetadata: {name: cluster-queue}\nspec:\n"
           "  namespaceSelector: {}\n  resourceGroups:\n  - coveredResources: [cpu" +
           std::string(memory.empty() ? "" : ", memory") +
           "]\n    flavors:\n    - name: default-flavor\n      resources: [{name: cpu, nominalQuota: " + cpu + "}" +
           (memory.empty() ? std::string() : ", {name: memory, nominalQuota: " + memory + "}") +
           "]\n---\napiVersion: kueue.x-k8s.io/v1beta2\nkind: LocalQueue\nmetadata: {name: user-queue, namespace: default}\n"
           "spec: {clusterQueue: cluster-queue}\n";
}

// One bad-input row: converting `text` (with kCluster) makes no Workload and
// reports jobs.invalid at `path`, in jobs.yaml on `line`, with `words` in the
// message.
inline void check_invalid(const std::string& text, const std::string& path, const std::string& words, int line) {
    CAPTURE(text);
    Run r(text);
    CHECK(r.out.empty());
    const Diagnostic* e = r.first("jobs.invalid");
    REQUIRE(e);
    CHECK(e->path == path);
    CHECK(e->message.find(words) != std::string::npos);
    CHECK(e->file == "jobs.yaml");
    CHECK(e->mark.line == line);
    CHECK(e->mark.col > 0);
}

}  // namespace wl_test
