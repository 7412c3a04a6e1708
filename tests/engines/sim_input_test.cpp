// What the simulator reads: request aggregation (kueue-semantics.md 4.2-4.5),
// LimitRanges, requests above limits (V71), reclaimable pods, partial
// admission, the Kueue Configuration, input-order independence, and bad input
// (unknown queues, zero counts, negative requests, cyclic cohorts, malformed
// objects, inactive ClusterQueues, 100k workloads).
#include "sim_util.hpp"
#include "test_util.hpp"

#include <catch2/catch.hpp>

#include <queueforge/frontend/manifests.hpp>
#include <queueforge/engines/scheduler.hpp>

#include <algorithm>
#include <chrono>
#include <random>
#include <string>

using namespace queueforge;

namespace {

using qf_sim::Run;

Run run(const std::string& yaml, scheduler::Options opts = {}) { return qf_sim::run(yaml, opts, "input.yaml"); }

// A roomy ClusterQueue covering `resources` with flavor "default".
std::string big_cq(const std::string& resources = "cpu, memory, nvidia.com/gpu, pods") {
    std::string quotas;
    std::string list = resources;
    std::size_t pos = 0;
    while (pos < list.size()) {
        std::size_t comma = list.find(',', pos);
        std::string r = list.substr(pos, comma == std::string::npos ? std::string::npos : comma - pos);
        r.erase(0, r.find_first_not_of(' '));
        quotas += (quotas.empty() ? "" : ", ") + std::string("{name: ") + r + ", nominalQuota: 1000Gi}";
        if (comma == std::string::npos) break;
        pos = comma + 1;
    }
    return R"(
apiVersion: v1
kind: Namespace
metadata: {name: ns}
---
apiVersion: kueue.x-k8s.io/v1beta2
kind: ResourceFlavor
metadata: {name: default}
---
apiVersion: kueue.x-k8s.io/v1beta2
kind: LocalQueue
metadata: {name: q, namespace: ns}
spec: {clusterQueue: big}
---
apiVersion: kueue.x-k8s.io/v1beta2
kind: ClusterQueue
metadata: {name: big}
spec: {namespaceSelector: {}, resourceGroups: [{coveredResources: [)" +
           resources + "], flavors: [{name: default, resources: [" + quotas + "]}]}]}\n";
}

std::string workload(const std::string& name, const std::string& podset_yaml, const std::string& extra = "") {
    return "---\napiVersion: kueue.x-k8s.io/v1beta2\nkind: Workload\nmetadata: {name: " + name +
           ", namespace: ns, creationTimestamp: '2025-06-01T10:00:00Z'}\n" + extra + "spec:\n  queueName: q\n  podSets:\n" +
           podset_yaml;
}

}  // namespace

TEST_CASE("simulate: request aggregation - the worked example of 4.5", "[simulate][requests]") {
    std::string ps = R"(
  - name: main
    count: 4
    template:
      spec:
        overhead: {cpu: 100m, memory: 64Mi}
        initContainers:
        - {name: i1, resources: {requests: {cpu: "2", memory: 512Mi}}}
        - {name: s1, restartPolicy: Always, resources: {requests: {cpu: 250m, memory: 128Mi}}}
        - {name: i2, resources: {requests: {cpu: "3", memory: 256Mi}}}
        containers:
        - {name: c1, resources: {requests: {cpu: "1", memory: 1Gi}}}
        - {name: c2, resources: {limits: {cpu: 500m, nvidia.com/gpu: "1"}}}
)";
    auto r = run(big_cq() + workload("agg", ps));
    const auto& w = r.wl("agg");
    REQUIRE(w.admitted);
    CHECK(w.assignments[0].resource_usage ==
          std::map<std::string, std::string>{{"cpu", "13400m"}, {"memory", "4864Mi"}, {"nvidia.com/gpu", "4"}, {"pods", "4"}});
    auto no_pods = run(big_cq("cpu, memory, nvidia.com/gpu") + workload("agg", ps));
    CHECK(no_pods.wl("agg").assignments[0].resource_usage.count("pods") == 0);
}

TEST_CASE("simulate: quantities are summed and formatted as Kueue does", "[simulate][requests]") {
    auto ps = [](int count, const std::string& req) {
        return "  - {name: main, count: " + std::to_string(count) +
               ", template: {spec: {containers: [{name: c, resources: {requests: " + req + "}}]}}}\n";
    };
    auto usage = [&](int count, const std::string& req) {
        auto r = run(big_cq("cpu, memory, example.com/x") + workload("w", ps(count, req)));
        return r.wl("w").assignments.empty() ? std::map<std::string, std::string>{} : r.wl("w").assignments[0].resource_usage;
    };
    CHECK(usage(3, "{cpu: 500m}").at("cpu") == "1500m");
    CHECK(usage(4, "{cpu: 500m}").at("cpu") == "2");
    CHECK(usage(3, "{memory: 512Mi}").at("memory") == "1536Mi");
    CHECK(usage(2, "{memory: 512Mi}").at("memory") == "1Gi");
    CHECK(usage(3, "{memory: 1G}").at("memory") == "3G");
    CHECK(usage(1, "{memory: 100m}").at("memory") == "1");       // sub-unit -> 1 per pod
    CHECK(usage(2, "{example.com/x: '0.5'}").at("example.com/x") == "2");
    CHECK(usage(1000, "{example.com/x: '1'}").at("example.com/x") == "1k");
}

TEST_CASE("simulate: LimitRange defaults fill missing requests, max violations are Misconfigured", "[simulate][requests]") {
    std::string lr = R"(
---
apiVersion: v1
kind: LimitRange
metadata: {name: defaults, namespace: ns}
spec:
  limits:
  - type: Container
    default: {cpu: "1"}
    defaultRequest: {cpu: 250m}
    max: {cpu: "2"}
)";
    auto r = run(big_cq() + lr +
                 workload("empty", "  - {name: main, count: 2, template: {spec: {containers: [{name: c}]}}}\n") +
                 workload("too-big", "  - {name: main, count: 1, template: {spec: {containers: [{name: c, resources: {requests: {cpu: '3'}, limits: {cpu: '3'}}}]}}}\n"));
    REQUIRE(r.wl("empty").admitted);
    CHECK(r.wl("empty").assignments[0].resource_usage.at("cpu") == "500m");
    CHECK_FALSE(r.wl("too-big").admitted);
    CHECK(r.wl("too-big").reason == "Misconfigured");
    CHECK(r.wl("too-big").message == "resources didn't satisfy LimitRange constraints: spec.podSets[0].template.spec."
                                     "containers[0]: Invalid value: [\"cpu\"]: requests must not be above the limitRange max");
    CHECK(r.has_rule("sim.never-admitted"));
}

TEST_CASE("simulate: requests above limits are Misconfigured (V71)", "[simulate][requests]") {
    auto r = run(big_cq() + workload("bad", "  - {name: main, count: 1, template: {spec: {containers: [{name: ok, resources: {requests: {cpu: 100m}}}, "
                                            "{name: c, resources: {requests: {cpu: 200m, memory: 2Gi}, limits: {cpu: 100m, memory: 1Gi}}}]}}}\n"));
    CHECK(r.wl("bad").reason == "Misconfigured");
    CHECK(r.wl("bad").message == "resources validation failed: spec.podSets[0].template.spec.containers[1]: Invalid value: "
                                 "[\"cpu\",\"memory\"]: requests must not exceed its limits");
}

TEST_CASE("simulate: reclaimable pods lower usage and admitted counts", "[simulate][requests]") {
    std::string admitted = R"(
---
apiVersion: kueue.x-k8s.io/v1beta2
kind: Workload
metadata: {name: running, namespace: ns}
spec: {podSets: [{name: main, count: 5, template: {spec: {containers: [{name: c, resources: {requests: {cpu: "1"}}}]}}}]}
status:
  reclaimablePods: [{name: main, count: 3}]
  conditions: [{type: QuotaReserved, status: "True", reason: QuotaReserved, message: x, lastTransitionTime: "2025-06-01T09:00:00Z"}]
  admission: {clusterQueue: big, podSetAssignments: [{name: main, count: 5, flavors: {cpu: default}, resourceUsage: {cpu: "5"}}]}
)";
    auto r = run(big_cq("cpu") + admitted +
                 workload("pending", "  - {name: main, count: 4, template: {spec: {containers: [{name: c, resources: {requests: {cpu: '1'}}}]}}}\n",
                          "status: {reclaimablePods: [{name: main, count: 1}]}\n"));
    for (const auto& c : r.result.cluster_queues)
        if (c.name == "big") CHECK(c.usage[0].total == "5");  // 2 (running) + 3 (pending)
    REQUIRE(r.wl("pending").admitted);
    CHECK(r.wl("pending").assignments[0].count == 3);
    CHECK(r.wl("pending").assignments[0].resource_usage.at("cpu") == "3");
}

TEST_CASE("simulate: partial admission over several podsets", "[simulate][requests]") {
    std::string small = R"(
apiVersion: v1
kind: Namespace
metadata: {name: ns}
---
apiVersion: kueue.x-k8s.io/v1beta2
kind: ResourceFlavor
metadata: {name: default}
---
apiVersion: kueue.x-k8s.io/v1beta2
kind: LocalQueue
metadata: {name: q, namespace: ns}
spec: {clusterQueue: small}
---
apiVersion: kueue.x-k8s.io/v1beta2
kind: ClusterQueue
metadata: {name: small}
spec: {namespaceSelector: {}, resourceGroups: [{coveredResources: [cpu], flavors: [{name: default, resources: [{name: cpu, nominalQuota: "10"}]}]}]}
)";
    auto r = run(small + workload("p", "  - {name: a, count: 4, template: {spec: {containers: [{name: c, resources: {requests: {cpu: '1'}}}]}}}\n"
                                       "  - {name: b, count: 10, minCount: 2, template: {spec: {containers: [{name: c, resources: {requests: {cpu: '1'}}}]}}}\n"));
    REQUIRE(r.wl("p").admitted);
    CHECK(r.wl("p").assignments[0].count == 4);
    CHECK(r.wl("p").assignments[1].count == 6);
    auto none = run(small + workload("p", "  - {name: a, count: 12, template: {spec: {containers: [{name: c, resources: {requests: {cpu: '1'}}}]}}}\n"));
    CHECK(none.wl("p").reason == "ExceedsMaxQuota");
}

TEST_CASE("simulate: Kueue Configuration - ConfigMap, excluded prefixes, not-simulated features", "[simulate][config]") {
    std::string cm = R"(
---
apiVersion: v1
kind: ConfigMap
metadata: {name: kueue-manager-config, namespace: kueue-system}
data:
  controller_manager_config.yaml: |
    apiVersion: config.kueue.x-k8s.io/v1beta1
    kind: Configuration
    waitForPodsReady: {enable: true}
    resources:
      excludeResourcePrefixes: [example.com/]
)";
    auto r = run(big_cq("cpu") + cm +
                 workload("w", "  - {name: main, count: 1, template: {spec: {containers: [{name: c, resources: {requests: {cpu: '1', example.com/thing: '3'}}}]}}}\n"));
    CHECK(r.wl("w").admitted);  // example.com/thing is not counted
    CHECK(r.has_rule("sim.not-simulated"));
}

TEST_CASE("simulate: a kueue-manager-config ConfigMap Kueue would not load is reported as validate reports it", "[simulate][config]") {
    // One reading of the ConfigMap (model/kueue_config.hpp): the text is a
    // YAML list, not a Configuration, and Kueue's defaults are used.
    std::string cm = R"(
---
apiVersion: v1
kind: ConfigMap
metadata: {name: kueue-manager-config, namespace: kueue-system}
data:
  controller_manager_config.yaml: "[1, 2]"
)";
    auto r = run(big_cq("cpu") + cm + workload("w", "  - {name: main, count: 1, template: {spec: {containers: [{name: c, resources: {requests: {cpu: '1'}}}]}}}\n"));
    CHECK(r.wl("w").admitted);
    const auto* d = r.find_rule("kueue-config.embedded");
    REQUIRE(d);
    CHECK(d->severity == Severity::Error);
    CHECK(d->message.find("is a YAML list, not a Configuration") != std::string::npos);
}

TEST_CASE("simulate: the result does not depend on the order of the input", "[simulate][determinism]") {
    std::string objs = R"(
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
---
apiVersion: kueue.x-k8s.io/v1beta2
kind: ClusterQueue
metadata: {name: a}
spec: {cohortName: co, namespaceSelector: {}, preemption: {withinClusterQueue: LowerPriority, reclaimWithinCohort: Any},
       resourceGroups: [{coveredResources: [cpu], flavors: [{name: f1, resources: [{name: cpu, nominalQuota: "6"}]}, {name: f2, resources: [{name: cpu, nominalQuota: "2"}]}]}]}
---
apiVersion: kueue.x-k8s.io/v1beta2
kind: ClusterQueue
metadata: {name: b}
spec: {cohortName: co, namespaceSelector: {}, resourceGroups: [{coveredResources: [cpu], flavors: [{name: f1, resources: [{name: cpu, nominalQuota: "2"}]}]}]}
---
apiVersion: kueue.x-k8s.io/v1beta2
kind: LocalQueue
metadata: {name: a, namespace: ns}
spec: {clusterQueue: a}
---
apiVersion: kueue.x-k8s.io/v1beta2
kind: LocalQueue
metadata: {name: b, namespace: ns}
spec: {clusterQueue: b}
)";
    for (int i = 0; i < 12; ++i) {
        std::string q = i % 3 == 0 ? "a" : "b";
        objs += "---\napiVersion: kueue.x-k8s.io/v1beta2\nkind: Workload\nmetadata: {name: w" + std::to_string(i) +
                ", namespace: ns, creationTimestamp: '2025-06-01T10:00:0" + std::to_string(i % 3) + "Z'}\nspec: {queueName: " +
                q + ", priority: " + std::to_string(i % 4) + ", podSets: [{name: main, count: 1, template: {spec: {containers: "
                "[{name: c, resources: {requests: {cpu: '" + std::to_string(1 + i % 3) + "'}}}]}}}]}\n";
    }
    auto serialize = [](const scheduler::Result& r) {
        std::string s = std::to_string(r.cycles) + ";";
        for (const auto& w : r.workloads) {
            s += w.name + ":" + (w.admitted ? "A" : "P") + w.reason + w.message + std::to_string(w.preempted);
            for (const auto& a : w.assignments)
                for (const auto& [k, v] : a.flavors) s += k + "=" + v;
            s += "|";
        }
        for (const auto& e : r.evicted) s += e + ",";
        return s;
    };
    LoadedResources lr;
    Diagnostics d;
    load_resources_from_text("order.yaml", objs, lr, d);
    auto reference = serialize(scheduler::simulate(lr.resources, {}, d));
    std::mt19937 rng(7);
    for (int round = 0; round < 5; ++round) {
        auto shuffled = lr.resources;
        std::shuffle(shuffled.begin(), shuffled.end(), rng);
        Diagnostics d2;
        CHECK(serialize(scheduler::simulate(shuffled, {}, d2)) == reference);
    }
}

TEST_CASE("simulate: bad input is reported with positions and never crashes", "[simulate][badinput]") {
    std::string base = R"(
apiVersion: v1
kind: Namespace
metadata: {name: ns}
---
apiVersion: kueue.x-k8s.io/v1beta2
kind: ResourceFlavor
metadata: {name: default}
---
apiVersion: kueue.x-k8s.io/v1beta2
kind: ClusterQueue
metadata: {name: cq}
spec: {namespaceSelector: {}, resourceGroups: [{coveredResources: [cpu], flavors: [{name: default, resources: [{name: cpu, nominalQuota: "4"}]}]}]}
---
apiVersion: kueue.x-k8s.io/v1beta2
kind: LocalQueue
metadata: {name: q, namespace: ns}
spec: {clusterQueue: cq}
---
apiVersion: kueue.x-k8s.io/v1beta2
kind: LocalQueue
metadata: {name: dangling, namespace: ns}
spec: {clusterQueue: nowhere}
)";
    SECTION("unknown LocalQueue and ClusterQueue") {
        std::string w = "---\napiVersion: kueue.x-k8s.io/v1beta2\nkind: Workload\nmetadata: {name: lost, namespace: ns}\n"
                        "spec: {queueName: missing, podSets: [{name: main, count: 1, template: {spec: {containers: [{name: c}]}}}]}\n"
                        "---\napiVersion: kueue.x-k8s.io/v1beta2\nkind: Workload\nmetadata: {name: stray, namespace: ns}\n"
                        "spec: {queueName: dangling, podSets: [{name: main, count: 1, template: {spec: {containers: [{name: c}]}}}]}\n";
        auto r = run(base + w);
        CHECK(r.wl("lost").reason == "Misconfigured");
        CHECK(r.wl("lost").message == "LocalQueue missing doesn't exist");
        CHECK(r.wl("stray").message == "ClusterQueue nowhere doesn't exist");
        const Diagnostic* d = r.find_rule("sim.unknown-queue");
        REQUIRE(d);
        CHECK(d->mark.line > 0);
    }
    SECTION("zero count and negative requests") {
        auto r = run(base + "---\napiVersion: kueue.x-k8s.io/v1beta2\nkind: Workload\nmetadata: {name: zero, namespace: ns}\n"
                            "spec: {queueName: q, podSets: [{name: main, count: 0, template: {spec: {containers: [{name: c, resources: {requests: {cpu: '1'}}}]}}}]}\n"
                            "---\napiVersion: kueue.x-k8s.io/v1beta2\nkind: Workload\nmetadata: {name: neg, namespace: ns}\n"
                            "spec: {queueName: q, podSets: [{name: main, count: 2, template: {spec: {containers: [{name: c, resources: {requests: {cpu: '-1'}}}]}}}]}\n");
        CHECK(r.has_rule("sim.zero-count"));
        CHECK(r.has_rule("sim.negative-request"));
        CHECK(r.wl("zero").admitted);
        CHECK(r.wl("zero").assignments[0].resource_usage.at("cpu") == "0");
        CHECK(r.wl("neg").admitted);
        CHECK(r.wl("neg").assignments[0].resource_usage.at("cpu") == "0");
    }
    SECTION("cyclic cohorts: ClusterQueues under the cycle never admit") {
        std::string cyc = R"(
---
apiVersion: kueue.x-k8s.io/v1beta2
kind: Cohort
metadata: {name: left}
spec: {parentName: right}
---
apiVersion: kueue.x-k8s.io/v1beta2
kind: Cohort
metadata: {name: right}
spec: {parentName: left}
---
apiVersion: kueue.x-k8s.io/v1beta2
kind: ClusterQueue
metadata: {name: looped}
spec: {cohortName: left, namespaceSelector: {}, resourceGroups: [{coveredResources: [cpu], flavors: [{name: default, resources: [{name: cpu, nominalQuota: "4"}]}]}]}
---
apiVersion: kueue.x-k8s.io/v1beta2
kind: LocalQueue
metadata: {name: lq, namespace: ns}
spec: {clusterQueue: looped}
---
apiVersion: kueue.x-k8s.io/v1beta2
kind: Workload
metadata: {name: stuck, namespace: ns}
spec: {queueName: lq, podSets: [{name: main, count: 1, template: {spec: {containers: [{name: c, resources: {requests: {cpu: '1'}}}]}}}]}
)";
        auto r = run(base + cyc);
        CHECK(r.has_rule("sim.cohort-cycle"));
        CHECK_FALSE(r.wl("stuck").admitted);
        CHECK(r.wl("stuck").reason == "Suspended");
        CHECK(r.wl("stuck").message == "ClusterQueue looped is inactive");
        CHECK(r.result.converged);
        for (const auto& c : r.result.cluster_queues)
            if (c.name == "looped") CHECK(c.inactive_reason == "HasCycle");
    }
    SECTION("a cohort chain thousands of levels deep neither crashes nor hangs") {
        std::string chain;
        for (int i = 0; i < 3000; ++i)
            chain += "---\n{apiVersion: kueue.x-k8s.io/v1beta2, kind: Cohort, metadata: {name: c" + std::to_string(i) +
                     "}, spec: {parentName: c" + std::to_string(i + 1) + "}}\n";
        chain += "---\n{apiVersion: kueue.x-k8s.io/v1beta2, kind: ClusterQueue, metadata: {name: deep}, spec: {cohortName: c0, "
                 "namespaceSelector: {}, resourceGroups: [{coveredResources: [cpu], flavors: [{name: default, resources: "
                 "[{name: cpu, nominalQuota: '4'}]}]}]}}\n---\n{apiVersion: kueue.x-k8s.io/v1beta2, kind: LocalQueue, "
                 "metadata: {name: dq, namespace: ns}, spec: {clusterQueue: deep}}\n---\n{apiVersion: kueue.x-k8s.io/v1beta2, "
                 "kind: Workload, metadata: {name: dw, namespace: ns}, spec: {queueName: dq, podSets: [{name: main, count: 1, "
                 "template: {spec: {containers: [{name: c, resources: {requests: {cpu: '1'}}}]}}}]}}\n";
        auto r = run(base + chain);
        CHECK(r.has_rule("sim.cohort-depth"));
        CHECK(r.result.converged);
        CHECK_FALSE(r.wl("dw").admitted);
    }
    SECTION("inactive ClusterQueues: missing flavor, stopPolicy") {
        std::string cqs = R"(
---
apiVersion: kueue.x-k8s.io/v1beta2
kind: ClusterQueue
metadata: {name: ghost}
spec: {namespaceSelector: {}, resourceGroups: [{coveredResources: [cpu], flavors: [{name: no-such-flavor, resources: [{name: cpu, nominalQuota: "4"}]}]}]}
---
apiVersion: kueue.x-k8s.io/v1beta2
kind: ClusterQueue
metadata: {name: held}
spec: {stopPolicy: Hold, namespaceSelector: {}, resourceGroups: [{coveredResources: [cpu], flavors: [{name: default, resources: [{name: cpu, nominalQuota: "4"}]}]}]}
---
apiVersion: kueue.x-k8s.io/v1beta2
kind: LocalQueue
metadata: {name: g, namespace: ns}
spec: {clusterQueue: ghost}
---
apiVersion: kueue.x-k8s.io/v1beta2
kind: LocalQueue
metadata: {name: h, namespace: ns}
spec: {clusterQueue: held}
---
apiVersion: kueue.x-k8s.io/v1beta2
kind: Workload
metadata: {name: wg, namespace: ns}
spec: {queueName: g, podSets: [{name: main, count: 1, template: {spec: {containers: [{name: c, resources: {requests: {cpu: '1'}}}]}}}]}
---
apiVersion: kueue.x-k8s.io/v1beta2
kind: Workload
metadata: {name: wh, namespace: ns}
spec: {queueName: h, podSets: [{name: main, count: 1, template: {spec: {containers: [{name: c, resources: {requests: {cpu: '1'}}}]}}}]}
)";
        auto r = run(base + cqs);
        CHECK_FALSE(r.wl("wg").admitted);
        CHECK_FALSE(r.wl("wh").admitted);
        CHECK(r.wl("wg").message == "ClusterQueue ghost is inactive");
        CHECK(r.has_rule("sim.inactive-cluster-queue"));
        for (const auto& c : r.result.cluster_queues) {
            if (c.name == "ghost") CHECK(c.inactive_reason == "FlavorNotFound");
            if (c.name == "held") CHECK(c.inactive_reason == "Stopped");
        }
    }
    SECTION("malformed objects and quantities") {
        std::string bad = R"(
---
apiVersion: kueue.x-k8s.io/v1beta2
kind: ClusterQueue
metadata: {name: Bad_Name}
spec: {namespaceSelector: {}, resourceGroups: [{coveredResources: [cpu], flavors: [{name: default, resources: [{name: cpu, nominalQuota: "4Kb"}]}]}]}
---
apiVersion: kueue.x-k8s.io/v1beta2
kind: Workload
metadata: {name: nospec, namespace: ns}
---
apiVersion: kueue.x-k8s.io/v1beta2
kind: Workload
metadata: {name: weird, namespace: ns}
spec: {queueName: q, podSets: "not a list"}
---
apiVersion: kueue.x-k8s.io/v1beta2
kind: Workload
metadata: {name: badqty, namespace: ns, creationTimestamp: yesterday}
spec: {queueName: q, podSets: [{name: main, count: 1, template: {spec: {containers: [{name: c, resources: {requests: {cpu: 1.2.3}}}]}}}]}
)";
        auto r = run(base + bad);
        CHECK(r.diags.has_errors());
        CHECK(r.has_rule("sim.name"));
        bool positioned = true;
        for (const auto& d : r.diags.all())
            if (d.rule == "sim.invalid" && d.mark.line == 0) positioned = false;
        CHECK(positioned);
        // A request Kueue cannot account is an error and the Workload is not
        // simulated: dropping the request and admitting the rest was a false
        // all-clear.
        CHECK(r.has_rule("sim.invalid"));
        CHECK(std::none_of(r.result.workloads.begin(), r.result.workloads.end(),
                           [](const auto& w) { return w.name == "badqty"; }));
    }
}

TEST_CASE("simulate: 100,000 workloads finish quickly", "[simulate][badinput][scale][slow]") {
    LoadedResources lr;
    Diagnostics d;
    load_resources_from_text("head.yaml", R"(
apiVersion: v1
kind: Namespace
metadata: {name: ns}
---
apiVersion: kueue.x-k8s.io/v1beta2
kind: ResourceFlavor
metadata: {name: default}
---
apiVersion: kueue.x-k8s.io/v1beta2
kind: ClusterQueue
metadata: {name: best}
spec: {namespaceSelector: {}, resourceGroups: [{coveredResources: [cpu], flavors: [{name: default, resources: [{name: cpu, nominalQuota: "100"}]}]}]}
---
apiVersion: kueue.x-k8s.io/v1beta2
kind: ClusterQueue
metadata: {name: strict}
spec: {namespaceSelector: {}, queueingStrategy: StrictFIFO, resourceGroups: [{coveredResources: [cpu], flavors: [{name: default, resources: [{name: cpu, nominalQuota: "100"}]}]}]}
---
apiVersion: kueue.x-k8s.io/v1beta2
kind: LocalQueue
metadata: {name: best, namespace: ns}
spec: {clusterQueue: best}
---
apiVersion: kueue.x-k8s.io/v1beta2
kind: LocalQueue
metadata: {name: strict, namespace: ns}
spec: {clusterQueue: strict}
)", lr, d);
    for (int chunk = 0; chunk < 20; ++chunk) {
        std::string text;
        for (int i = 0; i < 5000; ++i) {
            int n = chunk * 5000 + i;
            text += "---\n{apiVersion: kueue.x-k8s.io/v1beta2, kind: Workload, metadata: {name: w" + std::to_string(n) +
                    ", namespace: ns}, spec: {queueName: " + (n % 2 ? "best" : "strict") +
                    ", podSets: [{name: main, count: 1, template: {spec: {containers: [{name: c, resources: {requests: {cpu: '" +
                    std::to_string(1 + n % 3) + "'}}}]}}}]}}\n";
        }
        load_resources_from_text("many.yaml", text, lr, d);
    }
    REQUIRE(lr.resources.size() == 100006);
    auto t0 = std::chrono::steady_clock::now();
    auto r = scheduler::simulate(lr.resources, {}, d);
    double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    WARN("100,000 workloads: " << r.cycles << " cycles in " << s << " s");
    CHECK(r.converged);
    CHECK(r.workloads.size() == 100000);
    int admitted = 0;
    for (const auto& w : r.workloads) admitted += w.admitted;
    CHECK(admitted > 0);
    CHECK(s < 30);
}

TEST_CASE("simulate: unknown queue names get a suggestion", "[simulate][defects]") {
    auto r = qf_sim::run(R"(
apiVersion: v1
kind: Namespace
metadata: {name: ns}
---
apiVersion: kueue.x-k8s.io/v1beta2
kind: ResourceFlavor
metadata: {name: default}
---
apiVersion: kueue.x-k8s.io/v1beta2
kind: ClusterQueue
metadata: {name: training}
spec: {namespaceSelector: {}, resourceGroups: [{coveredResources: [cpu], flavors: [{name: default, resources: [{name: cpu, nominalQuota: "4"}]}]}]}
---
apiVersion: kueue.x-k8s.io/v1beta2
kind: LocalQueue
metadata: {name: team-queue, namespace: ns}
spec: {clusterQueue: training}
---
apiVersion: kueue.x-k8s.io/v1beta2
kind: LocalQueue
metadata: {name: typo, namespace: ns}
spec: {clusterQueue: trainin}
---
apiVersion: kueue.x-k8s.io/v1beta2
kind: Workload
metadata: {name: lost, namespace: ns}
spec: {queueName: team-queu, podSets: [{name: main, count: 1, template: {spec: {containers: [{name: c}]}}}]}
---
apiVersion: kueue.x-k8s.io/v1beta2
kind: Workload
metadata: {name: far, namespace: ns}
spec: {queueName: zzzzzzzzzzzz, podSets: [{name: main, count: 1, template: {spec: {containers: [{name: c}]}}}]}
)", {}, "queues.yaml");
    std::vector<std::string> messages;
    for (const auto& d : r.diags.all())
        if (d.rule == "sim.unknown-queue") messages.push_back(d.message);
    INFO(qf_test::messages(r.diags));
    auto has = [&](const std::string& text) {
        return std::any_of(messages.begin(), messages.end(), [&](const std::string& m) { return m.find(text) != std::string::npos; });
    };
    CHECK(has("LocalQueue \"ns/team-queu\" does not exist; the workload is never admitted; did you mean \"team-queue\"?"));
    CHECK(has("ClusterQueue \"trainin\", which does not exist; its workloads are never admitted; did you mean \"training\"?"));
    // Nothing close: no suggestion.
    CHECK(has("LocalQueue \"ns/zzzzzzzzzzzz\" does not exist; the workload is never admitted"));
    CHECK_FALSE(has("zzzzzzzzzzzz\" does not exist; the workload is never admitted; did you mean"));
}
