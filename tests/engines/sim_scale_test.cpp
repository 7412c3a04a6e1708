// Scale: the simulator's loops are bounded and indexed by ClusterQueue and
// cohort, so large clusters finish in seconds (Kueue's own perf baseline runs
// 15,000 workloads and 1,000 ClusterQueues x 50,000 workloads).
#include <catch2/catch.hpp>

#include <queueforge/frontend/manifests.hpp>
#include <queueforge/engines/scheduler.hpp>

#include <chrono>
#include <string>

using namespace queueforge;

namespace {

// `cqs` ClusterQueues in cohorts of `per_cohort`, `per_cq` workloads each,
// mixed priorities and sizes, preemption on, so that admission, borrowing,
// reclaim and priority preemption all happen.
std::vector<Resource> generate(int cqs, int per_cohort, int per_cq, Diagnostics& diags, const char* reclaim = "LowerPriority") {
    LoadedResources lr;
    std::string head = R"(
apiVersion: kueue.x-k8s.io/v1beta2
kind: ResourceFlavor
metadata: {name: default}
---
apiVersion: kueue.x-k8s.io/v1beta2
kind: ResourceFlavor
metadata: {name: spot}
---
apiVersion: v1
kind: Namespace
metadata: {name: team}
)";
    load_resources_from_text("head.yaml", head, lr, diags);
    std::string chunk;
    int in_chunk = 0;
    auto flush = [&](bool force) {
        if (in_chunk && (force || in_chunk >= 5000)) {
            load_resources_from_text("gen.yaml", chunk, lr, diags);
            chunk.clear();
            in_chunk = 0;
        }
    };
    for (int c = 0; c < cqs; ++c) {
        std::string name = "cq-" + std::to_string(c);
        chunk += "---\n{apiVersion: kueue.x-k8s.io/v1beta2, kind: ClusterQueue, metadata: {name: " + name +
                 "}, spec: {cohortName: cohort-" + std::to_string(c / per_cohort) +
                 ", namespaceSelector: {}, preemption: {withinClusterQueue: LowerPriority, reclaimWithinCohort: " +
                 std::string(reclaim) + "}, "
                 "resourceGroups: [{coveredResources: [cpu, memory], flavors: [{name: default, resources: [{name: cpu, "
                 "nominalQuota: '20'}, {name: memory, nominalQuota: 40Gi}]}, {name: spot, resources: [{name: cpu, "
                 "nominalQuota: '5'}, {name: memory, nominalQuota: 10Gi}]}]}]}}\n---\n{apiVersion: kueue.x-k8s.io/v1beta2, "
                 "kind: LocalQueue, metadata: {name: " + name + ", namespace: team}, spec: {clusterQueue: " + name + "}}\n";
        ++in_chunk;
        // Low-priority workloads already running (some borrowing), so that
        // priority preemption and reclamation have victims.
        for (int k = 0; k < 1 + (c % 2) + (c % 4 == 0); ++k) {
            int cpu = k == 2 ? 6 : 8 + 2 * k;
            std::string usage = "{cpu: '" + std::to_string(cpu) + "', memory: " + std::to_string(cpu * 2) + "Gi}";
            chunk += "---\n{apiVersion: kueue.x-k8s.io/v1beta2, kind: Workload, metadata: {name: pre-" + std::to_string(c) + "-" +
                     std::to_string(k) + ", namespace: team, creationTimestamp: '2025-06-01T09:00:00Z'}, spec: {queueName: " +
                     name + ", priority: 0, podSets: [{name: main, count: 1, template: {spec: {containers: [{name: c, "
                     "resources: {requests: " + usage + "}}]}}}]}, status: {conditions: [{type: QuotaReserved, status: 'True', "
                     "reason: QuotaReserved, message: x, lastTransitionTime: '2025-06-01T09:00:0" + std::to_string(k) +
                     "Z'}], admission: {clusterQueue: " + name + ", podSetAssignments: [{name: main, count: 1, flavors: "
                     "{cpu: default, memory: default}, resourceUsage: " + usage + "}]}}}\n";
            ++in_chunk;
        }
        for (int w = 0; w < per_cq; ++w) {
            int cpu = 1 + (w * 7 + c) % 6;
            int prio = (w * 13 + c) % 5;
            chunk += "---\n{apiVersion: kueue.x-k8s.io/v1beta2, kind: Workload, metadata: {name: wl-" + std::to_string(c) +
                     "-" + std::to_string(w) + ", namespace: team, creationTimestamp: '2025-06-01T10:" +
                     (w % 60 < 10 ? "0" : "") + std::to_string(w % 60) + ":00Z'}, spec: {queueName: " + name +
                     ", priority: " + std::to_string(prio) + ", podSets: [{name: main, count: " + std::to_string(1 + w % 3) +
                     ", template: {spec: {containers: [{name: c, resources: {requests: {cpu: '" + std::to_string(cpu) +
                     "', memory: " + std::to_string(cpu * 2) + "Gi}}}]}}}]}}\n";
            ++in_chunk;
            flush(false);
        }
    }
    flush(true);
    return std::move(lr.resources);
}

double seconds_since(std::chrono::steady_clock::time_point t0) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

}  // namespace

TEST_CASE("simulate: 15,000 workloads over 300 ClusterQueues run to a fixpoint in seconds", "[simulate][scale][slow]") {
    Diagnostics d;
    auto objects = generate(300, 10, 50, d);
    auto t0 = std::chrono::steady_clock::now();
    auto r = scheduler::simulate(objects, {}, d);
    double s = seconds_since(t0);
    WARN("15,000 workloads: " << r.cycles << " cycles in " << s << " s");
    CHECK(r.converged);
    int pending = 0, admitted = 0, preempted = 0;
    for (const auto& w : r.workloads) {
        pending += !w.held_before;
        admitted += w.admitted && !w.held_before;
        preempted += w.preempted;
    }
    CHECK(pending == 15000);
    CHECK(admitted > 0);
    CHECK(preempted > 0);
    CHECK(s < 30);
}

TEST_CASE("simulate: 1,000 ClusterQueues x 50,000 workloads run to a fixpoint in seconds", "[simulate][scale][slow]") {
    Diagnostics d;
    auto objects = generate(1000, 20, 50, d);
    auto t0 = std::chrono::steady_clock::now();
    auto r = scheduler::simulate(objects, {}, d);
    double s = seconds_since(t0);
    WARN("1,000 CQs x 50,000 workloads: " << r.cycles << " cycles in " << s << " s");
    CHECK(r.converged);
    CHECK(r.cluster_queues.size() == 1000);
    int pending = 0;
    for (const auto& w : r.workloads) pending += !w.held_before;
    CHECK(pending == 50000);
    CHECK(s < 60);
}

TEST_CASE("simulate: preemption churn stays bounded by the cycle cap", "[simulate][scale][slow]") {
    // reclaimWithinCohort: Any together with priority preemption inside the
    // queues can make workloads evict each other for a long time (Kueue does
    // the same with jobs that stop instantly); the run is capped, not endless.
    Diagnostics d;
    auto objects = generate(100, 20, 50, d, "Any");
    auto t0 = std::chrono::steady_clock::now();
    auto r = scheduler::simulate(objects, {}, d);
    double s = seconds_since(t0);
    WARN("oscillating configuration: " << r.cycles << " cycles in " << s << " s");
    CHECK(r.cycles <= 1000);
    CHECK(s < 30);
    auto capped = scheduler::simulate(objects, {.max_cycles = 25}, d);
    CHECK(capped.cycles <= 25);
}
