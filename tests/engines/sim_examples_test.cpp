// The worked examples of kueue-semantics.md section 7 (derived from Kueue's
// scheduler, flavor-assigner and preemption unit tests), reasons and
// messages included where the document gives them.
#include "sim_util.hpp"

#include <catch2/catch.hpp>

#include <queueforge/frontend/manifests.hpp>
#include <queueforge/engines/scheduler.hpp>

#include <string>

using namespace queueforge;

namespace {

using qf_sim::Run;

Run run(const std::string& yaml, scheduler::Options opts = {}) { return qf_sim::run(yaml, opts, "example.yaml"); }
Run one_cycle(const std::string& yaml) { return run(yaml, {.max_cycles = 1}); }

// kueue-semantics.md 7, fixture ENG.
const std::string kEng = R"(
apiVersion: v1
kind: Namespace
metadata: {name: eng-alpha}
---
apiVersion: v1
kind: Namespace
metadata: {name: eng-beta}
---
apiVersion: v1
kind: List
items:
- {apiVersion: kueue.x-k8s.io/v1beta2, kind: ResourceFlavor, metadata: {name: on-demand}}
- {apiVersion: kueue.x-k8s.io/v1beta2, kind: ResourceFlavor, metadata: {name: spot}}
- {apiVersion: kueue.x-k8s.io/v1beta2, kind: ResourceFlavor, metadata: {name: model-a}}
- {apiVersion: kueue.x-k8s.io/v1beta2, kind: LocalQueue, metadata: {name: main, namespace: eng-alpha}, spec: {clusterQueue: eng-alpha}}
- {apiVersion: kueue.x-k8s.io/v1beta2, kind: LocalQueue, metadata: {name: main, namespace: eng-beta}, spec: {clusterQueue: eng-beta}}
---
apiVersion: kueue.x-k8s.io/v1beta2
kind: ClusterQueue
metadata: {name: eng-alpha}
spec:
  {cohortName: eng, namespaceSelector: {}, queueingStrategy: StrictFIFO, resourceGroups: [{coveredResources: [cpu], flavors: [
    {name: on-demand, resources: [{name: cpu, nominalQuota: "50", borrowingLimit: "50"}]},
    {name: spot,      resources: [{name: cpu, nominalQuota: "100", borrowingLimit: "0"}]}]}]}
---
apiVersion: kueue.x-k8s.io/v1beta2
kind: ClusterQueue
metadata: {name: eng-beta}
spec:
  cohortName: eng
  namespaceSelector: {}
  queueingStrategy: StrictFIFO
  preemption: {reclaimWithinCohort: Any, withinClusterQueue: LowerPriority}
  resourceGroups:
  - coveredResources: [cpu]
    flavors:
    - {name: on-demand, resources: [{name: cpu, nominalQuota: "50", borrowingLimit: "10"}]}
    - {name: spot,      resources: [{name: cpu, nominalQuota: "0", borrowingLimit: "100"}]}
  - coveredResources: [example.com/gpu]
    flavors:
    - {name: model-a, resources: [{name: example.com/gpu, nominalQuota: "20", borrowingLimit: "0"}]}
)";

// A pending workload: one podset of `count` pods with the given requests.
std::string pending(const std::string& ns, const std::string& name, const std::string& podset, int count,
                    const std::string& requests, const std::string& extra_spec = "",
                    const std::string& created = "2025-06-01T10:00:00Z") {
    return "---\napiVersion: kueue.x-k8s.io/v1beta2\nkind: Workload\nmetadata: {name: " + name + ", namespace: " + ns +
           ", creationTimestamp: '" + created + "'}\nspec: {queueName: main, " + extra_spec + "podSets: [{name: " + podset +
           ", count: " + std::to_string(count) + ", template: {spec: {containers: [{name: c, resources: {requests: " +
           requests + "}}]}}}]}\n";
}

// An admitted workload holding `usage` of one flavor in `cq`.
std::string admitted(const std::string& ns, const std::string& name, const std::string& cq, const std::string& podset,
                     int count, const std::string& requests, const std::string& flavors, const std::string& usage,
                     const std::string& extra_spec = "", const std::string& reserved = "2025-06-01T09:00:00Z",
                     const std::string& created = "2025-06-01T09:00:00Z") {
    return "---\napiVersion: kueue.x-k8s.io/v1beta2\nkind: Workload\nmetadata: {name: " + name + ", namespace: " + ns +
           ", creationTimestamp: '" + created + "'}\nspec: {" + extra_spec + "podSets: [{name: " + podset +
           ", count: " + std::to_string(count) + ", template: {spec: {containers: [{name: c, resources: {requests: " +
           requests + "}}]}}}]}\nstatus:\n  conditions: [{type: QuotaReserved, status: 'True', reason: QuotaReserved, "
           "message: x, lastTransitionTime: '" +
           reserved + "'}]\n  admission: {clusterQueue: " + cq + ", podSetAssignments: [{name: " + podset +
           ", count: " + std::to_string(count) + ", flavors: " + flavors + ", resourceUsage: " + usage + "}]}\n";
}

const std::string kSales = R"(
apiVersion: v1
kind: Namespace
metadata: {name: sales}
---
apiVersion: kueue.x-k8s.io/v1beta2
kind: ResourceFlavor
metadata: {name: default}
---
apiVersion: kueue.x-k8s.io/v1beta2
kind: LocalQueue
metadata: {name: main, namespace: sales}
spec: {clusterQueue: sales}
---
apiVersion: kueue.x-k8s.io/v1beta2
kind: ClusterQueue
metadata: {name: sales}
spec:
  namespaceSelector: {}
  queueingStrategy: StrictFIFO
  resourceGroups: [{coveredResources: [cpu], flavors: [{name: default, resources: [{name: cpu, nominalQuota: "50"}]}]}]
)";

}  // namespace

TEST_CASE("simulate: example 1 - single ClusterQueue full, and exceeding the maximum", "[simulate][examples]") {
    SECTION("1: 1 cpu short -> WaitingForQuota, stays at the StrictFIFO head") {
        auto r = one_cycle(kSales + admitted("sales", "assigned", "sales", "one", 40, "{cpu: '1'}", "{cpu: default}", "{cpu: '40'}") +
                           pending("sales", "new", "one", 11, "{cpu: '1'}") +
                           pending("sales", "later", "one", 1, "{cpu: '1'}", "", "2025-06-01T10:00:05Z"));
        const auto& w = r.wl("sales/new");
        CHECK_FALSE(w.admitted);
        CHECK(w.reason == "WaitingForQuota");
        CHECK(w.message == "couldn't assign flavors to pod set one: insufficient unused quota for cpu in flavor default, 1 more needed");
        // Run to the end: StrictFIFO keeps `new` at the head, `later` waits behind it.
        auto all = run(kSales + admitted("sales", "assigned", "sales", "one", 40, "{cpu: '1'}", "{cpu: default}", "{cpu: '40'}") +
                       pending("sales", "new", "one", 11, "{cpu: '1'}") +
                       pending("sales", "later", "one", 1, "{cpu: '1'}", "", "2025-06-01T10:00:05Z"));
        CHECK(all.result.converged);
        CHECK_FALSE(all.wl("sales/later").admitted);
        CHECK(all.wl("sales/later").reason.empty());  // never evaluated
    }
    SECTION("1b: more than the maximum -> ExceedsMaxQuota") {
        auto r = one_cycle(kSales + pending("sales", "new", "one", 1, "{cpu: '100'}"));
        const auto& w = r.wl("sales/new");
        CHECK(w.reason == "ExceedsMaxQuota");
        CHECK(w.message == "couldn't assign flavors to pod set one: insufficient quota for cpu in flavor default, previously "
                           "considered podsets requests (0) + current podset request (100) > maximum capacity (50)");
    }
}

TEST_CASE("simulate: example 2 - several resources, two resource groups, borrowing", "[simulate][examples]") {
    std::string wl = R"(
---
apiVersion: kueue.x-k8s.io/v1beta2
kind: Workload
metadata: {name: new, namespace: eng-beta}
spec:
  queueName: main
  podSets:
  - {name: one, count: 10, template: {spec: {containers: [{name: c, resources: {requests: {cpu: "6", example.com/gpu: "1"}}}]}}}
  - {name: two, count: 40, template: {spec: {containers: [{name: c, resources: {requests: {cpu: "1"}}}]}}}
)";
    auto r = one_cycle(kEng + wl);
    const auto& w = r.wl("eng-beta/new");
    REQUIRE(w.admitted);
    CHECK(w.cluster_queue == "eng-beta");
    CHECK(w.borrowing);
    REQUIRE(w.assignments.size() == 2);
    CHECK(w.assignments[0].name == "one");
    CHECK(w.assignments[0].count == 10);
    CHECK(w.assignments[0].flavors == std::map<std::string, std::string>{{"cpu", "on-demand"}, {"example.com/gpu", "model-a"}});
    CHECK(w.assignments[0].resource_usage == std::map<std::string, std::string>{{"cpu", "60"}, {"example.com/gpu", "10"}});
    CHECK(w.assignments[1].count == 40);
    CHECK(w.assignments[1].flavors == std::map<std::string, std::string>{{"cpu", "spot"}});
    CHECK(w.assignments[1].resource_usage == std::map<std::string, std::string>{{"cpu", "40"}});
}

TEST_CASE("simulate: example 3 - cohort capacity taken earlier in the same cycle", "[simulate][examples]") {
    std::string objs = kEng + pending("eng-alpha", "new", "one", 45, "{cpu: '1'}") + pending("eng-beta", "new", "one", 56, "{cpu: '1'}");
    auto r = one_cycle(objs);
    const auto& alpha = r.wl("eng-alpha/new");
    REQUIRE(alpha.admitted);
    CHECK(alpha.assignments[0].flavors.at("cpu") == "on-demand");
    CHECK(alpha.assignments[0].resource_usage.at("cpu") == "45");
    const auto& beta = r.wl("eng-beta/new");
    CHECK_FALSE(beta.admitted);
    CHECK(beta.reason == "WaitingForQuota");
    CHECK(beta.message == "Workload no longer fits after processing another workload");
    // Derived next cycle: beta on spot.
    auto all = run(objs);
    REQUIRE(all.wl("eng-beta/new").admitted);
    CHECK(all.wl("eng-beta/new").assignments[0].flavors.at("cpu") == "spot");
    CHECK(all.wl("eng-beta/new").assignments[0].resource_usage.at("cpu") == "56");
    CHECK(all.wl("eng-beta/new").admitted_in_cycle == 2);
}

TEST_CASE("simulate: example 4 - cannot borrow enough, fall back to the next flavor", "[simulate][examples]") {
    auto r = one_cycle(kEng + admitted("eng-beta", "existing", "eng-beta", "one", 45, "{cpu: '1'}", "{cpu: on-demand}", "{cpu: '45'}") +
                       pending("eng-alpha", "new", "one", 60, "{cpu: '1'}"));
    const auto& w = r.wl("eng-alpha/new");
    REQUIRE(w.admitted);
    CHECK(w.assignments[0].count == 60);
    CHECK(w.assignments[0].flavors.at("cpu") == "spot");
    CHECK(w.assignments[0].resource_usage.at("cpu") == "60");
}

TEST_CASE("simulate: example 5 - taints and node labels", "[simulate][examples]") {
    const std::string flavors = R"(
apiVersion: v1
kind: Namespace
metadata: {name: sales}
---
apiVersion: v1
kind: List
items:
- {apiVersion: kueue.x-k8s.io/v1beta2, kind: ResourceFlavor, metadata: {name: spot-tainted}, spec: {nodeTaints: [{key: key, value: val, effect: NoSchedule}]}}
- {apiVersion: kueue.x-k8s.io/v1beta2, kind: ResourceFlavor, metadata: {name: spot-tainted-2}, spec: {nodeTaints: [{key: key, value: val2, effect: NoSchedule}]}}
- {apiVersion: kueue.x-k8s.io/v1beta2, kind: ResourceFlavor, metadata: {name: on-demand}}
- {apiVersion: kueue.x-k8s.io/v1beta2, kind: ResourceFlavor, metadata: {name: default}}
- {apiVersion: kueue.x-k8s.io/v1beta2, kind: ResourceFlavor, metadata: {name: two}, spec: {nodeLabels: {type: two}}}
)";
    auto cq = [](const std::string& name, const std::string& f1, const std::string& q1, const std::string& f2, const std::string& q2) {
        return "---\napiVersion: kueue.x-k8s.io/v1beta2\nkind: ClusterQueue\nmetadata: {name: " + name +
               "}\nspec: {namespaceSelector: {}, queueingStrategy: StrictFIFO, resourceGroups: [{coveredResources: [cpu], "
               "flavors: [{name: " + f1 + ", resources: [{name: cpu, nominalQuota: '" + q1 + "'}]}, {name: " + f2 +
               ", resources: [{name: cpu, nominalQuota: '" + q2 + "'}]}]}]}\n---\napiVersion: kueue.x-k8s.io/v1beta2\n"
               "kind: LocalQueue\nmetadata: {name: main, namespace: sales}\nspec: {clusterQueue: " + name + "}\n";
    };
    SECTION("5a: tainted flavor skipped, the other exceeds its maximum") {
        auto r = one_cycle(flavors + cq("custom-cq2", "spot-tainted", "20", "on-demand", "5") + pending("sales", "new-job2", "main", 1, "{cpu: '10'}"));
        const auto& w = r.wl("sales/new-job2");
        CHECK(w.reason == "ExceedsMaxQuota");
        CHECK(w.message == "couldn't assign flavors to pod set main: insufficient quota for cpu in flavor on-demand, previously "
                           "considered podsets requests (0) + current podset request (10) > maximum capacity (5), "
                           "untolerated taint {key val NoSchedule <nil>} in flavor spot-tainted");
    }
    SECTION("5b: every flavor tainted -> NoMatchingFlavor") {
        auto r = one_cycle(flavors + cq("custom-cq3", "spot-tainted", "20", "spot-tainted-2", "5") + pending("sales", "new-job3", "main", 1, "{cpu: '1'}"));
        const auto& w = r.wl("sales/new-job3");
        CHECK(w.reason == "NoMatchingFlavor");
        CHECK(w.message == "couldn't assign flavors to pod set main: untolerated taint {key val NoSchedule <nil>} in flavor "
                           "spot-tainted, untolerated taint {key val2 NoSchedule <nil>} in flavor spot-tainted-2");
    }
    SECTION("5c: a label-less flavor ignores the selector key and wins") {
        auto r = one_cycle(flavors + cq("labels", "default", "4", "two", "4") +
                           pending("sales", "sel", "main", 1, "{cpu: '1'}", "") );
        REQUIRE(r.wl("sales/sel").admitted);
        CHECK(r.wl("sales/sel").assignments[0].flavors.at("cpu") == "default");
        // With a nodeSelector on type: two the result is the same (key unknown to `default`).
        std::string wl = R"(
---
apiVersion: kueue.x-k8s.io/v1beta2
kind: Workload
metadata: {name: sel2, namespace: sales}
spec: {queueName: main, podSets: [{name: main, count: 1, template: {spec: {nodeSelector: {type: two}, containers: [{name: c, resources: {requests: {cpu: "1"}}}]}}}]}
)";
        auto r2 = one_cycle(flavors + cq("labels", "default", "4", "two", "4") + wl);
        REQUIRE(r2.wl("sales/sel2").admitted);
        CHECK(r2.wl("sales/sel2").assignments[0].flavors.at("cpu") == "default");
    }
}

TEST_CASE("simulate: example 6 - uncovered resource and the implicit pods resource", "[simulate][examples]") {
    SECTION("6a: a resource the ClusterQueue does not cover") {
        auto r = one_cycle(kEng + pending("eng-alpha", "new", "main", 1, "{example.com/gpu: '1'}"));
        CHECK(r.wl("eng-alpha/new").reason == "NoMatchingFlavor");
        CHECK(r.wl("eng-alpha/new").message == "couldn't assign flavors to pod set main: resource example.com/gpu unavailable in ClusterQueue");
        auto zero = one_cycle(kEng + pending("eng-alpha", "new", "main", 1, "{cpu: '1', example.com/gpu: '0'}"));
        REQUIRE(zero.wl("eng-alpha/new").admitted);
        CHECK(zero.wl("eng-alpha/new").assignments[0].flavors == std::map<std::string, std::string>{{"cpu", "on-demand"}});
    }
    auto pods_cq = [](const std::string& pods) {
        return R"(
apiVersion: v1
kind: Namespace
metadata: {name: sales}
---
apiVersion: kueue.x-k8s.io/v1beta2
kind: ResourceFlavor
metadata: {name: default}
---
apiVersion: kueue.x-k8s.io/v1beta2
kind: LocalQueue
metadata: {name: main, namespace: sales}
spec: {clusterQueue: pods-cq}
---
apiVersion: kueue.x-k8s.io/v1beta2
kind: ClusterQueue
metadata: {name: pods-cq}
spec: {namespaceSelector: {}, resourceGroups: [{coveredResources: [pods, cpu],
       flavors: [{name: default, resources: [{name: pods, nominalQuota: ")" + pods + R"("}, {name: cpu, nominalQuota: "10"}]}]}]}
)";
    };
    SECTION("6b: 3 pods against a pods quota of 2") {
        auto r = one_cycle(pods_cq("2") + pending("sales", "p", "main", 3, "{cpu: '1'}"));
        CHECK(r.wl("sales/p").reason == "ExceedsMaxQuota");
        CHECK(r.wl("sales/p").message == "couldn't assign flavors to pod set main: insufficient quota for pods in flavor default, "
                                         "previously considered podsets requests (0) + current podset request (3) > maximum capacity (2)");
        auto ok = one_cycle(pods_cq("3") + pending("sales", "p", "main", 3, "{cpu: '1'}"));
        REQUIRE(ok.wl("sales/p").admitted);
        CHECK(ok.wl("sales/p").assignments[0].flavors == std::map<std::string, std::string>{{"cpu", "default"}, {"pods", "default"}});
        CHECK(ok.wl("sales/p").assignments[0].resource_usage == std::map<std::string, std::string>{{"cpu", "3"}, {"pods", "3"}});
    }
}

TEST_CASE("simulate: example 7 - preemption inside the ClusterQueue and reclamation from the cohort", "[simulate][examples]") {
    std::string objs = kEng +
                       admitted("eng-alpha", "use-all-spot", "eng-alpha", "main", 1, "{cpu: '100'}", "{cpu: spot}", "{cpu: '100'}") +
                       admitted("eng-alpha", "borrower", "eng-alpha", "main", 1, "{cpu: '60'}", "{cpu: on-demand}", "{cpu: '60'}") +
                       admitted("eng-beta", "low-1", "eng-beta", "main", 1, "{cpu: '30'}", "{cpu: on-demand}", "{cpu: '30'}", "priority: -1, ") +
                       admitted("eng-beta", "low-2", "eng-beta", "main", 1, "{cpu: '10'}", "{cpu: on-demand}", "{cpu: '10'}", "priority: -2, ") + R"(
---
apiVersion: kueue.x-k8s.io/v1beta2
kind: Workload
metadata: {name: preemptor, namespace: eng-beta, uid: wl-preemptor, labels: {kueue.x-k8s.io/job-uid: job-preemptor}, creationTimestamp: '2025-06-01T10:00:00Z'}
spec: {queueName: main, podSets: [{name: main, count: 1, template: {spec: {containers: [{name: c, resources: {requests: {cpu: "20"}}}]}}}]}
)";
    auto r = one_cycle(objs);
    const auto& borrower = r.wl("eng-alpha/borrower");
    CHECK(borrower.preempted);
    CHECK(borrower.preemption_reason == "InCohortReclamation");
    CHECK(borrower.preemption_message == "Preempted to accommodate a workload (UID: wl-preemptor, JobUID: job-preemptor) due to "
                                         "reclamation within the cohort; preemptor path: /eng/eng-beta; preemptee path: /eng/eng-alpha");
    const auto& low2 = r.wl("eng-beta/low-2");
    CHECK(low2.preempted);
    CHECK(low2.preemption_reason == "InClusterQueue");
    CHECK(low2.preemption_message == "Preempted to accommodate a workload (UID: wl-preemptor, JobUID: job-preemptor) due to "
                                     "prioritization in the ClusterQueue; preemptor path: /eng/eng-beta; preemptee path: /eng/eng-beta");
    CHECK_FALSE(r.wl("eng-beta/low-1").preempted);
    CHECK_FALSE(r.wl("eng-alpha/use-all-spot").preempted);
    const auto& pre = r.wl("eng-beta/preemptor");
    CHECK_FALSE(pre.admitted);
    CHECK(pre.reason == "WaitingForPreemptedWorkloads");
    CHECK(pre.message == "couldn't assign flavors to pod set main: insufficient unused quota for cpu in flavor on-demand, 20 more "
                         "needed, insufficient unused quota for cpu in flavor spot, 20 more needed. Pending the preemption of 2 workload(s)");
    // A preemptor without a UID (a sample or converted job) is named by
    // namespace/name instead of "UNKNOWN"; no job-uid label stays UNKNOWN.
    std::string no_uid = objs;
    no_uid.replace(no_uid.find("uid: wl-preemptor, labels: {kueue.x-k8s.io/job-uid: job-preemptor}, "), 68, "");
    auto anon = one_cycle(no_uid);
    CHECK(anon.wl("eng-beta/low-2").preemption_message ==
          "Preempted to accommodate a workload (UID: eng-beta/preemptor, JobUID: UNKNOWN) due to "
          "prioritization in the ClusterQueue; preemptor path: /eng/eng-beta; preemptee path: /eng/eng-beta");
    // Once the victims are gone the preemptor is admitted on on-demand.
    auto all = run(objs);
    REQUIRE(all.wl("eng-beta/preemptor").admitted);
    CHECK(all.wl("eng-beta/preemptor").assignments[0].flavors.at("cpu") == "on-demand");
    CHECK(all.result.evicted == std::vector<std::string>{"eng-alpha/borrower", "eng-beta/low-2"});
}

TEST_CASE("simulate: example 8 - no preemption unless the workload fits in nominal quota", "[simulate][examples]") {
    std::string objs = R"(
apiVersion: v1
kind: Namespace
metadata: {name: eng-alpha}
---
apiVersion: v1
kind: Namespace
metadata: {name: eng-beta}
---
apiVersion: v1
kind: List
items:
- {apiVersion: kueue.x-k8s.io/v1beta2, kind: ResourceFlavor, metadata: {name: on-demand}}
- {apiVersion: kueue.x-k8s.io/v1beta2, kind: ClusterQueue, metadata: {name: other-alpha}, spec: {cohortName: other, namespaceSelector: {},
   preemption: {reclaimWithinCohort: Any, withinClusterQueue: LowerPriority},
   resourceGroups: [{coveredResources: [cpu], flavors: [{name: on-demand, resources: [{name: cpu, nominalQuota: "2"}]}]}]}}
- {apiVersion: kueue.x-k8s.io/v1beta2, kind: ClusterQueue, metadata: {name: other-beta}, spec: {cohortName: other, namespaceSelector: {},
   resourceGroups: [{coveredResources: [cpu], flavors: [{name: on-demand, resources: [{name: cpu, nominalQuota: "2"}]}]}]}}
- {apiVersion: kueue.x-k8s.io/v1beta2, kind: LocalQueue, metadata: {name: main, namespace: eng-alpha}, spec: {clusterQueue: other-alpha}}
- {apiVersion: kueue.x-k8s.io/v1beta2, kind: LocalQueue, metadata: {name: main, namespace: eng-beta}, spec: {clusterQueue: other-beta}}
)" + admitted("eng-alpha", "a1", "other-alpha", "main", 1, "{cpu: '1'}", "{cpu: on-demand}", "{cpu: '1'}", "priority: -1, ") +
                       admitted("eng-beta", "b1", "other-beta", "main", 1, "{cpu: '1'}", "{cpu: on-demand}", "{cpu: '1'}", "priority: -1, ") +
                       pending("eng-alpha", "incoming", "main", 1, "{cpu: '3'}", "priority: 1, ");
    auto r = one_cycle(objs);
    const auto& w = r.wl("eng-alpha/incoming");
    CHECK_FALSE(w.admitted);
    CHECK(w.reason == "WaitingForQuota");
    CHECK(w.message == "couldn't assign flavors to pod set main: insufficient unused quota for cpu in flavor on-demand, 1 more needed");
    CHECK_FALSE(r.wl("eng-alpha/a1").preempted);
    for (const auto& cq : r.result.cluster_queues)
        if (cq.name == "other-alpha") CHECK(cq.pending_inadmissible == std::vector<std::string>{"eng-alpha/incoming"});
}

TEST_CASE("simulate: example 9 - hierarchical cohorts and lendingLimit", "[simulate][examples]") {
    auto objs = [](const std::string& lending, const std::string& cpu) {
        return R"(
apiVersion: v1
kind: Namespace
metadata: {name: eng-alpha}
---
apiVersion: v1
kind: List
items:
- {apiVersion: kueue.x-k8s.io/v1beta2, kind: ResourceFlavor, metadata: {name: on-demand}}
- {apiVersion: kueue.x-k8s.io/v1beta2, kind: Cohort, metadata: {name: root}, spec: {}}
- {apiVersion: kueue.x-k8s.io/v1beta2, kind: Cohort, metadata: {name: child}, spec: {parentName: root}}
- {apiVersion: kueue.x-k8s.io/v1beta2, kind: ClusterQueue, metadata: {name: cq-lender}, spec: {cohortName: child, namespaceSelector: {},
   resourceGroups: [{coveredResources: [cpu], flavors: [{name: on-demand, resources: [{name: cpu, nominalQuota: "10", lendingLimit: ")" +
               lending + R"("}]}]}]}}
- {apiVersion: kueue.x-k8s.io/v1beta2, kind: ClusterQueue, metadata: {name: cq-borrower}, spec: {cohortName: child, namespaceSelector: {},
   resourceGroups: [{coveredResources: [cpu], flavors: [{name: on-demand, resources: [{name: cpu, nominalQuota: "5", borrowingLimit: "10"}]}]}]}}
- {apiVersion: kueue.x-k8s.io/v1beta2, kind: LocalQueue, metadata: {name: main, namespace: eng-alpha}, spec: {clusterQueue: cq-borrower}}
)" + admitted("eng-alpha", "wl-existing", "cq-borrower", "main", 1, "{cpu: '5'}", "{cpu: on-demand}", "{cpu: '5'}") +
               pending("eng-alpha", "wl-pending", "main", 1, "{cpu: '" + cpu + "'}");
    };
    auto r = one_cycle(objs("3", "4"));
    CHECK(r.wl("eng-alpha/wl-pending").reason == "WaitingForQuota");
    CHECK(r.wl("eng-alpha/wl-pending").message == "couldn't assign flavors to pod set main: insufficient unused quota for cpu in flavor on-demand, 1 more needed");
    auto v = one_cycle(objs("5", "5"));
    REQUIRE(v.wl("eng-alpha/wl-pending").admitted);
    CHECK(v.wl("eng-alpha/wl-pending").assignments[0].flavors.at("cpu") == "on-demand");
    CHECK(v.wl("eng-alpha/wl-pending").borrowing);
}

TEST_CASE("simulate: example 10 - partial admission", "[simulate][examples]") {
    std::string wl = R"(
---
apiVersion: kueue.x-k8s.io/v1beta2
kind: Workload
metadata: {name: new, namespace: sales}
spec: {queueName: main, podSets: [{name: one, count: 50, minCount: 20, template: {spec: {containers: [{name: c, resources: {requests: {cpu: "2"}}}]}}}]}
)";
    auto r = one_cycle(kSales + wl);
    const auto& w = r.wl("sales/new");
    REQUIRE(w.admitted);
    CHECK(w.assignments[0].count == 25);
    CHECK(w.assignments[0].flavors.at("cpu") == "default");
    CHECK(w.assignments[0].resource_usage.at("cpu") == "50");
}

TEST_CASE("simulate: example 11 - LowerOrNewerEqualPriority", "[simulate][examples]") {
    std::string objs = R"(
apiVersion: v1
kind: Namespace
metadata: {name: default}
---
apiVersion: kueue.x-k8s.io/v1beta2
kind: ResourceFlavor
metadata: {name: default}
---
apiVersion: kueue.x-k8s.io/v1beta2
kind: LocalQueue
metadata: {name: main, namespace: default}
spec: {clusterQueue: prevent-starvation}
---
apiVersion: kueue.x-k8s.io/v1beta2
kind: ClusterQueue
metadata: {name: prevent-starvation}
spec: {namespaceSelector: {}, preemption: {withinClusterQueue: LowerOrNewerEqualPriority},
       resourceGroups: [{coveredResources: [cpu], flavors: [{name: default, resources: [{name: cpu, nominalQuota: "6"}]}]}]}
)" + admitted("default", "wl1", "prevent-starvation", "main", 1, "{cpu: '2'}", "{cpu: default}", "{cpu: '2'}", "priority: 2, ",
              "2025-06-01T12:00:00Z", "2025-06-01T12:00:00Z") +
                       admitted("default", "wl2", "prevent-starvation", "main", 1, "{cpu: '2'}", "{cpu: default}", "{cpu: '2'}", "priority: 1, ",
                                "2025-06-01T12:00:01Z", "2025-06-01T12:00:00Z") +
                       admitted("default", "wl3", "prevent-starvation", "main", 1, "{cpu: '2'}", "{cpu: default}", "{cpu: '2'}", "priority: 1, ",
                                "2025-06-01T12:00:00Z", "2025-06-01T12:00:00Z") + R"(
---
apiVersion: kueue.x-k8s.io/v1beta2
kind: Workload
metadata: {name: in, namespace: default, uid: wl-in, labels: {kueue.x-k8s.io/job-uid: job-in}, creationTimestamp: '2025-06-01T11:59:45Z'}
spec: {queueName: main, priority: 1, podSets: [{name: main, count: 1, template: {spec: {containers: [{name: c, resources: {requests: {cpu: "2"}}}]}}}]}
)";
    auto r = one_cycle(objs);
    CHECK(r.wl("default/wl2").preempted);
    CHECK(r.wl("default/wl2").preemption_reason == "InClusterQueue");
    CHECK(r.wl("default/wl2").preemption_message ==
          "Preempted to accommodate a workload (UID: wl-in, JobUID: job-in) due to prioritization in the ClusterQueue; "
          "preemptor path: /prevent-starvation; preemptee path: /prevent-starvation");
    CHECK_FALSE(r.wl("default/wl1").preempted);
    CHECK_FALSE(r.wl("default/wl3").preempted);
}

TEST_CASE("simulate: example 12 - borrowWithinCohort and maxPriorityThreshold", "[simulate][examples]") {
    const std::string base = R"(
apiVersion: v1
kind: Namespace
metadata: {name: default}
---
apiVersion: v1
kind: List
items:
- {apiVersion: kueue.x-k8s.io/v1beta2, kind: ResourceFlavor, metadata: {name: default}}
- {apiVersion: kueue.x-k8s.io/v1beta2, kind: ClusterQueue, metadata: {name: a-standard}, spec: {cohortName: shared-pool, namespaceSelector: {},
   preemption: {withinClusterQueue: Never, reclaimWithinCohort: LowerPriority, borrowWithinCohort: {policy: LowerPriority, maxPriorityThreshold: 0}},
   resourceGroups: [{coveredResources: [cpu], flavors: [{name: default, resources: [{name: cpu, nominalQuota: "1", borrowingLimit: "12"}]}]}]}}
- {apiVersion: kueue.x-k8s.io/v1beta2, kind: ClusterQueue, metadata: {name: b-standard}, spec: {cohortName: shared-pool, namespaceSelector: {},
   resourceGroups: [{coveredResources: [cpu], flavors: [{name: default, resources: [{name: cpu, nominalQuota: "1", borrowingLimit: "12"}]}]}]}}
- {apiVersion: kueue.x-k8s.io/v1beta2, kind: ClusterQueue, metadata: {name: shared}, spec: {cohortName: shared-pool, namespaceSelector: {},
   resourceGroups: [{coveredResources: [cpu], flavors: [{name: default, resources: [{name: cpu, nominalQuota: "10"}]}]}]}}
- {apiVersion: kueue.x-k8s.io/v1beta2, kind: LocalQueue, metadata: {name: main, namespace: default}, spec: {clusterQueue: a-standard}}
)";
    SECTION("12a: above the threshold and still borrowing -> no targets") {
        auto r = one_cycle(base + admitted("default", "b-high", "b-standard", "main", 1, "{cpu: '10'}", "{cpu: default}", "{cpu: '10'}", "priority: 1, ") +
                           pending("default", "incoming", "main", 1, "{cpu: '10'}", "priority: 2, "));
        CHECK_FALSE(r.wl("default/b-high").preempted);
        CHECK(r.wl("default/incoming").reason == "WaitingForQuota");
        CHECK(r.wl("default/incoming").message == "couldn't assign flavors to pod set main: insufficient unused quota for cpu in flavor default, 8 more needed");
    }
    SECTION("12b: fits its own nominal -> hierarchical reclaim") {
        auto r = one_cycle(base + admitted("default", "b-all", "b-standard", "main", 1, "{cpu: '12'}", "{cpu: default}", "{cpu: '12'}", "priority: 1, ") +
                           pending("default", "incoming", "main", 1, "{cpu: '1'}", "priority: 2, "));
        CHECK(r.wl("default/b-all").preempted);
        CHECK(r.wl("default/b-all").preemption_reason == "InCohortReclamation");
        CHECK(r.wl("default/b-all").preemption_message.find("due to reclamation within the cohort; preemptor path: /shared-pool/a-standard; "
                                                           "preemptee path: /shared-pool/b-standard") != std::string::npos);
    }
    SECTION("12c: at/below the threshold -> reclaim while borrowing, then admitted borrowing 9") {
        std::string objs = base + admitted("default", "b-low", "b-standard", "main", 1, "{cpu: '10'}", "{cpu: default}", "{cpu: '10'}", "priority: -1, ") +
                           pending("default", "incoming", "main", 1, "{cpu: '10'}", "priority: 0, ");
        auto r = one_cycle(objs);
        CHECK(r.wl("default/b-low").preempted);
        CHECK(r.wl("default/b-low").preemption_reason == "InCohortReclaimWhileBorrowing");
        CHECK(r.wl("default/b-low").preemption_message.find("due to reclamation within the cohort while borrowing") != std::string::npos);
        auto all = run(objs);
        REQUIRE(all.wl("default/incoming").admitted);
        CHECK(all.wl("default/incoming").borrowing);
        for (const auto& cq : all.result.cluster_queues)
            if (cq.name == "a-standard") {
                REQUIRE(cq.usage.size() == 1);
                CHECK(cq.usage[0].total == "10");
                CHECK(cq.usage[0].borrowed == "9");
            }
    }
}
