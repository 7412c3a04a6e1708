// Engine::fork: a copy of a compiled cluster that runs one-off variants (the
// one-shot simulate runs each sample alone on one) gives what a rebuild of
// the same objects gives, and leaves the original untouched.
#include <catch2/catch.hpp>

#include <queueforge/frontend/manifests.hpp>
#include <queueforge/engines/scheduler_engine.hpp>

#include <string>

using namespace queueforge;

namespace {

// Two teams whose namespaceSelectors read the namespace's labels, one of
// them the label every Namespace carries (kubernetes.io/metadata.name).
const char* kCluster = R"(apiVersion: kueue.x-k8s.io/v1beta1
kind: ResourceFlavor
metadata: {name: rf}
---
apiVersion: kueue.x-k8s.io/v1beta1
kind: ClusterQueue
metadata: {name: cq-a}
spec:
  namespaceSelector: {matchLabels: {team: a}}
  resourceGroups:
  - coveredResources: [cpu]
    flavors: [{name: rf, resources: [{name: cpu, nominalQuota: 2}]}]
---
apiVersion: kueue.x-k8s.io/v1beta1
kind: ClusterQueue
metadata: {name: cq-b}
spec:
  namespaceSelector: {matchLabels: {kubernetes.io/metadata.name: ns-b}}
  resourceGroups:
  - coveredResources: [cpu]
    flavors: [{name: rf, resources: [{name: cpu, nominalQuota: 2}]}]
---
apiVersion: kueue.x-k8s.io/v1beta1
kind: LocalQueue
metadata: {name: lq, namespace: ns-a}
spec: {clusterQueue: cq-a}
---
apiVersion: kueue.x-k8s.io/v1beta1
kind: LocalQueue
metadata: {name: lq, namespace: ns-b}
spec: {clusterQueue: cq-b}
---
apiVersion: v1
kind: Namespace
metadata: {name: ns-a, labels: {team: a}}
---
apiVersion: v1
kind: Namespace
metadata: {name: ns-b, labels: {kubernetes.io/metadata.name: ns-b}}
)";

std::string workload(const std::string& ns, const std::string& name, int cpu) {
    return "---\napiVersion: kueue.x-k8s.io/v1beta1\nkind: Workload\nmetadata: {name: " + name + ", namespace: " + ns +
           ", creationTimestamp: \"2026-01-01T00:00:00Z\"}\nspec:\n  queueName: lq\n  podSets: [{name: main, count: 1, "
           "template: {spec: {containers: [{name: c, resources: {requests: {cpu: " + std::to_string(cpu) + "}}}]}}}]\n";
}

std::vector<Resource> load(const std::string& text) {
    LoadedResources lr;
    Diagnostics d;
    load_resources_from_text("fork.yaml", text, lr, d);
    REQUIRE_FALSE(d.has_errors());
    return lr.resources;
}

// The outcome of every workload, one line each, for comparing two runs.
std::string outcomes(const scheduler::Result& r) {
    std::string s;
    for (const auto& w : r.workloads)
        s += w.namespace_ + "/" + w.name + " " + (w.admitted ? "admitted " + w.cluster_queue : "pending " + w.reason) + "\n";
    return s;
}

}  // namespace

TEST_CASE("a forked engine runs a workload as a rebuild of the same objects does", "[simulate][fork]") {
    Diagnostics d;
    const scheduler::Engine base(load(kCluster), d);
    for (const auto& [ns, cpu] : std::vector<std::pair<std::string, int>>{{"ns-a", 1}, {"ns-b", 2}, {"ns-a", 3}}) {
        const std::string one = workload(ns, "w", cpu);
        scheduler::Engine forked = base.fork();
        forked.add_workloads(load(one), d);
        scheduler::Options so;
        const scheduler::Result from_fork = scheduler::simulate(forked, so, d);
        const scheduler::Result rebuilt = scheduler::simulate(load(std::string(kCluster) + one), so, d);
        CHECK(outcomes(from_fork) == outcomes(rebuilt));
        REQUIRE(from_fork.workloads.size() == 1);
        CHECK(from_fork.workloads[0].admitted == (cpu <= 2));
    }
    // The original is untouched: it never saw a workload.
    CHECK_FALSE(base.has_workload("ns-a", "w"));
    CHECK(base.fork().workload_count() == 0);
}

TEST_CASE("a fork takes a new namespace's labels along with the workload", "[simulate][fork]") {
    Diagnostics d;
    // ns-c has no Namespace in the cluster; its Namespace comes with the workload.
    const std::string cluster = std::string(kCluster) +
                                "---\napiVersion: kueue.x-k8s.io/v1beta1\nkind: LocalQueue\nmetadata: {name: lq, namespace: ns-c}\n"
                                "spec: {clusterQueue: cq-a}\n";
    const scheduler::Engine base(load(cluster), d);
    const std::string ns = "---\napiVersion: v1\nkind: Namespace\nmetadata: {name: ns-c, labels: {team: a}}\n";
    scheduler::Engine forked = base.fork();
    forked.add_workloads(load(ns + workload("ns-c", "w", 1)), d);
    scheduler::Options so;
    const scheduler::Result r = scheduler::simulate(forked, so, d);
    REQUIRE(r.workloads.size() == 1);
    CHECK(r.workloads[0].admitted);  // cq-a selects team=a, the label the namespace brought
    CHECK(outcomes(r) == outcomes(scheduler::simulate(load(cluster + ns + workload("ns-c", "w", 1)), so, d)));
    // A Namespace the engine already has is not replaced.
    scheduler::Engine other = base.fork();
    other.add_workloads(load("---\napiVersion: v1\nkind: Namespace\nmetadata: {name: ns-a}\n" + workload("ns-a", "w", 1)), d);
    const scheduler::Result kept = scheduler::simulate(other, so, d);
    REQUIRE(kept.workloads.size() == 1);
    CHECK(kept.workloads[0].admitted);
}
