// Scheduling behaviour beyond the worked examples: queueing strategies,
// priority order, taints and node affinity, flavor fungibility, borrowing and
// lending limits, hierarchical cohorts, each preemption policy and victim
// order, and fair sharing (kueue-semantics.md 5.2-5.8).
#include "sim_util.hpp"

#include <catch2/catch.hpp>

#include <queueforge/frontend/manifests.hpp>
#include <queueforge/engines/scheduler.hpp>

#include <string>

using namespace queueforge;

namespace {

using qf_sim::Run;

Run run(const std::string& yaml, scheduler::Options opts = {}) { return qf_sim::run(yaml, opts, "behaviour.yaml"); }

const std::string kHead = R"(
apiVersion: v1
kind: Namespace
metadata: {name: ns}
---
apiVersion: kueue.x-k8s.io/v1beta2
kind: ResourceFlavor
metadata: {name: f1}
---
apiVersion: kueue.x-k8s.io/v1beta2
kind: ResourceFlavor
metadata: {name: f2}
)";

// A ClusterQueue `name` with LocalQueue `name` in namespace ns.
std::string cq(const std::string& name, const std::string& flavors, const std::string& extra = "") {
    return "---\napiVersion: kueue.x-k8s.io/v1beta2\nkind: ClusterQueue\nmetadata: {name: " + name +
           "}\nspec: {namespaceSelector: {}, " + extra + "resourceGroups: [{coveredResources: [cpu], flavors: [" + flavors +
           "]}]}\n---\napiVersion: kueue.x-k8s.io/v1beta2\nkind: LocalQueue\nmetadata: {name: " + name +
           ", namespace: ns}\nspec: {clusterQueue: " + name + "}\n";
}
std::string fl(const std::string& name, const std::string& nominal, const std::string& limits = "") {
    return "{name: " + name + ", resources: [{name: cpu, nominalQuota: '" + nominal + "'" + limits + "}]}";
}
std::string pending(const std::string& name, const std::string& queue, const std::string& cpu, int priority = 0,
                    const std::string& created = "2025-06-01T10:00:00Z", const std::string& pod_extra = "") {
    return "---\napiVersion: kueue.x-k8s.io/v1beta2\nkind: Workload\nmetadata: {name: " + name +
           ", namespace: ns, creationTimestamp: '" + created + "'}\nspec: {queueName: " + queue +
           ", priority: " + std::to_string(priority) + ", podSets: [{name: main, count: 1, template: {spec: {" + pod_extra +
           "containers: [{name: c, resources: {requests: {cpu: '" + cpu + "'}}}]}}}]}\n";
}
std::string running(const std::string& name, const std::string& cq_name, const std::string& flavor, const std::string& cpu,
                    int priority = 0, const std::string& reserved = "2025-06-01T09:00:00Z") {
    return "---\napiVersion: kueue.x-k8s.io/v1beta2\nkind: Workload\nmetadata: {name: " + name +
           ", namespace: ns, creationTimestamp: '2025-06-01T08:00:00Z'}\nspec: {priority: " + std::to_string(priority) +
           ", podSets: [{name: main, count: 1, template: {spec: {containers: [{name: c, resources: {requests: {cpu: '" + cpu +
           "'}}}]}}}]}\nstatus:\n  conditions: [{type: QuotaReserved, status: 'True', reason: QuotaReserved, message: x, "
           "lastTransitionTime: '" + reserved + "'}]\n  admission: {clusterQueue: " + cq_name +
           ", podSetAssignments: [{name: main, count: 1, flavors: {cpu: " + flavor + "}, resourceUsage: {cpu: '" + cpu + "'}}]}\n";
}

}  // namespace

TEST_CASE("simulate: StrictFIFO blocks behind its head, BestEffortFIFO moves on", "[simulate][queueing]") {
    auto objs = [](const std::string& strategy) {
        return kHead + cq("q", fl("f1", "10"), "queueingStrategy: " + strategy + ", ") + running("big", "q", "f1", "5") +
               pending("head", "q", "8", 0, "2025-06-01T10:00:00Z") + pending("small", "q", "2", 0, "2025-06-01T10:00:01Z");
    };
    auto strict = run(objs("StrictFIFO"));
    CHECK(strict.result.converged);
    CHECK_FALSE(strict.wl("head").admitted);
    CHECK(strict.wl("head").reason == "WaitingForQuota");
    CHECK_FALSE(strict.wl("small").admitted);
    auto best = run(objs("BestEffortFIFO"));
    CHECK_FALSE(best.wl("head").admitted);
    CHECK(best.wl("small").admitted);
    CHECK(best.wl("small").admitted_in_cycle == 2);
    for (const auto& c : best.result.cluster_queues)
        if (c.name == "q") CHECK(c.pending_inadmissible == std::vector<std::string>{"ns/head"});
}

TEST_CASE("simulate: higher priority is popped first, then the older workload", "[simulate][queueing]") {
    auto r = run(kHead + cq("q", fl("f1", "4")) + pending("low", "q", "3", 0, "2025-06-01T10:00:00Z") +
                 pending("high", "q", "3", 10, "2025-06-01T10:00:05Z") + pending("old", "q", "1", 10, "2025-06-01T09:00:00Z"));
    CHECK(r.wl("old").admitted_in_cycle == 1);
    CHECK(r.wl("high").admitted_in_cycle == 2);
    CHECK_FALSE(r.wl("low").admitted);
    CHECK(r.wl("low").reason == "WaitingForQuota");
}

TEST_CASE("simulate: taints need tolerations (pod or flavor), PreferNoSchedule is ignored", "[simulate][flavors]") {
    std::string flavors = R"(
apiVersion: v1
kind: Namespace
metadata: {name: ns}
---
apiVersion: kueue.x-k8s.io/v1beta2
kind: ResourceFlavor
metadata: {name: gpu-nodes}
spec: {nodeTaints: [{key: dedicated, value: gpu, effect: NoSchedule}]}
---
apiVersion: kueue.x-k8s.io/v1beta2
kind: ResourceFlavor
metadata: {name: self-tolerating}
spec: {nodeTaints: [{key: spot, value: "true", effect: NoExecute}], tolerations: [{key: spot, operator: Exists}]}
---
apiVersion: kueue.x-k8s.io/v1beta2
kind: ResourceFlavor
metadata: {name: soft}
spec: {nodeTaints: [{key: soft, value: x, effect: PreferNoSchedule}]}
---
apiVersion: kueue.x-k8s.io/v1beta2
kind: ResourceFlavor
metadata: {name: general}
)";
    auto r = run(flavors + cq("q", fl("gpu-nodes", "10") + ", " + fl("general", "10")) + pending("plain", "q", "1") +
                 pending("tolerant", "q", "1", 0, "2025-06-01T10:00:00Z",
                         "tolerations: [{key: dedicated, operator: Equal, value: gpu, effect: NoSchedule}], ") +
                 pending("wrong-value", "q", "1", 0, "2025-06-01T10:00:00Z",
                         "tolerations: [{key: dedicated, operator: Equal, value: cpu, effect: NoSchedule}], ") +
                 pending("exists", "q", "1", 0, "2025-06-01T10:00:00Z", "tolerations: [{operator: Exists}], "));
    CHECK(r.flavor("plain") == "general");
    CHECK(r.flavor("tolerant") == "gpu-nodes");
    CHECK(r.flavor("wrong-value") == "general");
    CHECK(r.flavor("exists") == "gpu-nodes");
    auto r2 = run(flavors + cq("q", fl("self-tolerating", "10") + ", " + fl("soft", "10")) + pending("a", "q", "12") +
                  pending("b", "q", "1"));
    CHECK(r2.flavor("b") == "self-tolerating");
    CHECK(r2.wl("a").reason == "ExceedsMaxQuota");
}

TEST_CASE("simulate: nodeSelector and required node affinity choose flavors by their labels", "[simulate][flavors]") {
    std::string flavors = R"(
apiVersion: v1
kind: Namespace
metadata: {name: ns}
---
apiVersion: kueue.x-k8s.io/v1beta2
kind: ResourceFlavor
metadata: {name: zone-a}
spec: {nodeLabels: {zone: a}}
---
apiVersion: kueue.x-k8s.io/v1beta2
kind: ResourceFlavor
metadata: {name: zone-b}
spec: {nodeLabels: {zone: b}}
)";
    std::string q = cq("q", fl("zone-a", "10") + ", " + fl("zone-b", "10"));
    auto affinity = [](const std::string& op, const std::string& values) {
        return "affinity: {nodeAffinity: {requiredDuringSchedulingIgnoredDuringExecution: {nodeSelectorTerms: "
               "[{matchExpressions: [{key: zone, operator: " + op + ", values: " + values + "}]}]}}}, ";
    };
    auto r = run(flavors + q + pending("sel-b", "q", "1", 0, "2025-06-01T10:00:00Z", "nodeSelector: {zone: b}, ") +
                 pending("not-a", "q", "1", 0, "2025-06-01T10:00:00Z", affinity("NotIn", "[a]")) +
                 pending("in-c", "q", "1", 0, "2025-06-01T10:00:00Z", affinity("In", "[c]")) +
                 pending("other-key", "q", "1", 0, "2025-06-01T10:00:00Z", "nodeSelector: {disk: ssd}, "));
    CHECK(r.flavor("sel-b") == "zone-b");
    CHECK(r.flavor("not-a") == "zone-b");
    CHECK(r.flavor("other-key") == "zone-a");  // keys no flavor labels are ignored
    CHECK(r.wl("in-c").reason == "NoMatchingFlavor");
    CHECK(r.wl("in-c").message == "couldn't assign flavors to pod set main: flavor zone-a doesn't match node affinity, "
                                  "flavor zone-b doesn't match node affinity");
}

TEST_CASE("simulate: flavor fungibility - whenCanBorrow, whenCanPreempt and preference", "[simulate][flavors]") {
    SECTION("whenCanBorrow: MayStopSearch borrows on the first flavor, TryNextFlavor looks further") {
        auto objs = [](const std::string& ff) {
            return kHead + cq("lender", fl("f1", "10"), "cohortName: co, ") +
                   cq("q", fl("f1", "2") + ", " + fl("f2", "10"), "cohortName: co, flavorFungibility: " + ff + ", ") +
                   pending("w", "q", "4");
        };
        auto stop = run(objs("{whenCanBorrow: MayStopSearch}"));
        CHECK(stop.flavor("w") == "f1");
        CHECK(stop.wl("w").borrowing);
        auto next = run(objs("{whenCanBorrow: TryNextFlavor}"));
        CHECK(next.flavor("w") == "f2");
        CHECK_FALSE(next.wl("w").borrowing);
    }
    SECTION("whenCanPreempt: TryNextFlavor avoids preemption, MayStopSearch preempts on the first flavor") {
        auto objs = [](const std::string& ff) {
            return kHead + cq("q", fl("f1", "4") + ", " + fl("f2", "4"),
                              "preemption: {withinClusterQueue: LowerPriority}, flavorFungibility: " + ff + ", ") +
                   running("low", "q", "f1", "4", 0) + pending("high", "q", "4", 5);
        };
        auto next = run(objs("{whenCanPreempt: TryNextFlavor}"), {.max_cycles = 1});
        CHECK(next.flavor("high") == "f2");
        CHECK_FALSE(next.wl("low").preempted);
        auto stop = run(objs("{whenCanPreempt: MayStopSearch}"), {.max_cycles = 1});
        CHECK_FALSE(stop.wl("high").admitted);
        CHECK(stop.wl("low").preempted);
        CHECK(stop.wl("high").reason == "WaitingForPreemptedWorkloads");
        auto stop_all = run(objs("{whenCanPreempt: MayStopSearch}"));
        CHECK(stop_all.flavor("high") == "f1");
    }
    SECTION("preference: BorrowingOverPreemption (default) vs PreemptionOverBorrowing") {
        auto objs = [](const std::string& pref) {
            return kHead + cq("lender", fl("f2", "10"), "cohortName: co, ") +
                   cq("q", fl("f1", "4") + ", " + fl("f2", "0"),
                      "cohortName: co, preemption: {withinClusterQueue: LowerPriority}, flavorFungibility: "
                      "{whenCanBorrow: TryNextFlavor, whenCanPreempt: TryNextFlavor" + pref + "}, ") +
                   running("low", "q", "f1", "4", 0) + pending("high", "q", "4", 5);
        };
        auto borrow = run(objs(""), {.max_cycles = 1});
        CHECK(borrow.flavor("high") == "f2");
        CHECK(borrow.wl("high").borrowing);
        auto preempt = run(objs(", preference: PreemptionOverBorrowing"), {.max_cycles = 1});
        CHECK_FALSE(preempt.wl("high").admitted);
        CHECK(preempt.wl("low").preempted);
    }
}

TEST_CASE("simulate: nominal quota, borrowingLimit and lendingLimit", "[simulate][quota]") {
    auto objs = [](const std::string& a_limits, const std::string& b_limits, const std::string& cpu) {
        return kHead + cq("a", fl("f1", "10", a_limits), "cohortName: co, ") + cq("b", fl("f1", "10", b_limits), "cohortName: co, ") +
               pending("w", "a", cpu);
    };
    auto over = run(objs(", borrowingLimit: '2'", "", "13"));
    CHECK(over.wl("w").reason == "ExceedsMaxQuota");
    CHECK(over.wl("w").message.find("maximum capacity (12)") != std::string::npos);
    auto at = run(objs(", borrowingLimit: '2'", "", "12"));
    CHECK(at.wl("w").admitted);
    CHECK(at.wl("w").borrowing);
    for (const auto& c : at.result.cluster_queues)
        if (c.name == "a") CHECK(c.usage[0].borrowed == "2");
    auto lend = run(objs("", ", lendingLimit: '1'", "12"));
    CHECK(lend.wl("w").reason == "ExceedsMaxQuota");
    CHECK(lend.wl("w").message.find("maximum capacity (11)") != std::string::npos);
    auto no_cohort = run(kHead + cq("solo", fl("f1", "10")) + pending("w", "solo", "11"));
    CHECK(no_cohort.wl("w").reason == "ExceedsMaxQuota");
}

TEST_CASE("simulate: hierarchical cohorts share a cohort's own quota and limit what subtrees borrow", "[simulate][quota]") {
    std::string tree = kHead + R"(
---
apiVersion: kueue.x-k8s.io/v1beta2
kind: Cohort
metadata: {name: org}
spec: {resourceGroups: [{coveredResources: [cpu], flavors: [{name: f1, resources: [{name: cpu, nominalQuota: "10"}]}]}]}
---
apiVersion: kueue.x-k8s.io/v1beta2
kind: Cohort
metadata: {name: team-a}
spec: {parentName: org, resourceGroups: [{coveredResources: [cpu], flavors: [{name: f1, resources: [{name: cpu, nominalQuota: "0", borrowingLimit: "6"}]}]}]}
)" + cq("a1", fl("f1", "2"), "cohortName: team-a, ") + cq("b1", fl("f1", "0"), "cohortName: org, ");
    auto r = run(tree + pending("big-a", "a1", "9") + pending("ok-a", "a1", "8", 0, "2025-06-01T10:00:01Z") +
                 pending("b", "b1", "4"));
    CHECK(r.wl("big-a").reason == "ExceedsMaxQuota");  // 2 own + 6 from org
    CHECK(r.wl("ok-a").admitted);
    CHECK(r.wl("ok-a").borrowing);
    CHECK(r.wl("b").admitted);  // 10 + 2 - 8 = 4 left in org
    CHECK(r.flavor("b") == "f1");
}

TEST_CASE("simulate: preemption policies and victim order", "[simulate][preemption]") {
    SECTION("withinClusterQueue Never: no preemption") {
        auto r = run(kHead + cq("q", fl("f1", "4")) + running("low", "q", "f1", "4", 0) + pending("high", "q", "2", 9),
                     {.max_cycles = 1});
        CHECK_FALSE(r.wl("low").preempted);
        CHECK(r.wl("high").reason == "WaitingForQuota");
    }
    SECTION("LowerPriority: the lowest priority first, then the most recently admitted") {
        auto r = run(kHead + cq("q", fl("f1", "6"), "preemption: {withinClusterQueue: LowerPriority}, ") +
                         running("p1-old", "q", "f1", "2", 1, "2025-06-01T09:00:00Z") +
                         running("p1-new", "q", "f1", "2", 1, "2025-06-01T09:30:00Z") + running("p0", "q", "f1", "2", 0) +
                         pending("high", "q", "4", 9),
                     {.max_cycles = 1});
        CHECK(r.wl("p0").preempted);
        CHECK(r.wl("p1-new").preempted);
        CHECK_FALSE(r.wl("p1-old").preempted);
        CHECK(r.wl("p0").preemption_reason == "InClusterQueue");
        CHECK(r.wl("high").message.find("Pending the preemption of 2 workload(s)") != std::string::npos);
    }
    SECTION("LowerPriority never preempts equal priority") {
        auto r = run(kHead + cq("q", fl("f1", "2"), "preemption: {withinClusterQueue: LowerPriority}, ") +
                         running("same", "q", "f1", "2", 3) + pending("in", "q", "2", 3),
                     {.max_cycles = 1});
        CHECK_FALSE(r.wl("same").preempted);
    }
    SECTION("reclaimWithinCohort LowerPriority vs Any") {
        auto objs = [](const std::string& policy) {
            return kHead + cq("a", fl("f1", "4"), "cohortName: co, preemption: {reclaimWithinCohort: " + policy + "}, ") +
                   cq("b", fl("f1", "0"), "cohortName: co, ") + running("borrower", "b", "f1", "4", 5) +
                   pending("mine", "a", "4", 1);
        };
        auto lower = run(objs("LowerPriority"), {.max_cycles = 1});
        CHECK_FALSE(lower.wl("borrower").preempted);
        CHECK(lower.wl("mine").reason == "WaitingForQuota");
        auto any = run(objs("Any"), {.max_cycles = 1});
        CHECK(any.wl("borrower").preempted);
        CHECK(any.wl("borrower").preemption_reason == "InCohortReclamation");
        auto all = run(objs("Any"));
        CHECK(all.wl("mine").admitted);
        CHECK_FALSE(all.wl("borrower").admitted);
        CHECK(all.wl("borrower").reason == "PendingEvaluation");
    }
    SECTION("a ClusterQueue that is not borrowing is never reclaimed from") {
        auto r = run(kHead + cq("a", fl("f1", "4"), "cohortName: co, preemption: {reclaimWithinCohort: Any}, ") +
                         cq("b", fl("f1", "4"), "cohortName: co, ") + running("a-own", "a", "f1", "4", 0) +
                         running("b-own", "b", "f1", "4", 0) + pending("more", "a", "2", 9),
                     {.max_cycles = 1});
        CHECK_FALSE(r.wl("b-own").preempted);
        CHECK_FALSE(r.wl("a-own").preempted);
    }
}

TEST_CASE("simulate: fair sharing orders the cycle by dominant resource share and weights", "[simulate][fairsharing]") {
    const std::string config = R"(
---
apiVersion: config.kueue.x-k8s.io/v1beta2
kind: Configuration
fairSharing: {}
)";
    auto objs = [&](const std::string& wa, const std::string& wb) {
        return kHead + config + cq("pool", fl("f1", "9"), "cohortName: co, ") +
               cq("a", fl("f1", "0"), "cohortName: co, fairSharing: {weight: '" + wa + "'}, ") +
               cq("b", fl("f1", "0"), "cohortName: co, fairSharing: {weight: '" + wb + "'}, ") + running("a0", "a", "f1", "4") +
               running("b0", "b", "f1", "4") + pending("a1", "a", "1", 0, "2025-06-01T10:00:00Z") +
               pending("b1", "b", "1", 0, "2025-06-01T10:00:05Z");
    };
    // Equal weights and shares: the older workload wins the last cpu.
    auto equal = run(objs("1", "1"), {.max_cycles = 1});
    CHECK(equal.wl("a1").admitted);
    CHECK(equal.wl("b1").message == "Workload no longer fits after processing another workload");
    // b weighs twice as much: its share after admission is lower, it wins.
    auto weighted = run(objs("1", "2"), {.max_cycles = 1});
    CHECK(weighted.wl("b1").admitted);
    CHECK_FALSE(weighted.wl("a1").admitted);
    // Weight 0 while borrowing: an infinite share, it loses.
    auto zero = run(objs("0", "1"), {.max_cycles = 1});
    CHECK(zero.wl("b1").admitted);
    CHECK_FALSE(zero.wl("a1").admitted);
}

TEST_CASE("simulate: the Red Hat build's Kueue CR with preemptionPolicy FairSharing turns fair sharing on", "[simulate][fairsharing]") {
    // The operator renders FairSharing as Kueue's fairSharing with both
    // preemption strategies (openshift/kueue-operator dc3b6577,
    // pkg/configmap/configmap.go buildFairSharing); Classical as none.
    auto objs = [&](const std::string& policy) {
        return kHead + R"(
---
apiVersion: kueue.openshift.io/v1
kind: Kueue
metadata: {name: cluster}
spec:
  managementState: Managed
  config:
    integrations: {frameworks: [BatchJob]}
    preemption: {preemptionPolicy: )" + policy + R"(}
)" + cq("pool", fl("f1", "9"), "cohortName: co, ") +
               cq("a", fl("f1", "0"), "cohortName: co, fairSharing: {weight: '1'}, ") +
               cq("b", fl("f1", "0"), "cohortName: co, fairSharing: {weight: '2'}, ") + running("a0", "a", "f1", "4") +
               running("b0", "b", "f1", "4") + pending("a1", "a", "1", 0, "2025-06-01T10:00:00Z") +
               pending("b1", "b", "1", 0, "2025-06-01T10:00:05Z");
    };
    // Fair sharing: b's lower weighted share wins the last cpu.
    auto fair = run(objs("FairSharing"), {.max_cycles = 1});
    CHECK(fair.wl("b1").admitted);
    CHECK_FALSE(fair.wl("a1").admitted);
    // Classical: the older workload wins, whatever the weights.
    auto classical = run(objs("Classical"), {.max_cycles = 1});
    CHECK(classical.wl("a1").admitted);
    CHECK_FALSE(classical.wl("b1").admitted);
}
