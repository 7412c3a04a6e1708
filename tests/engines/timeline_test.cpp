// Timeline mode: scenario reading, virtual-time semantics worked out by hand,
// thresholds, determinism, Kueue's own scheduler-perf configurations.
#include <catch2/catch.hpp>

#include <queueforge/backends/html_report.hpp>
#include <queueforge/frontend/manifests.hpp>
#include <queueforge/engines/scheduler_engine.hpp>
#include <queueforge/engines/timeline.hpp>

#include "test_util.hpp"
#include "timeline_util.hpp"

#include <algorithm>

using namespace queueforge;

namespace {

using qf_timeline::errors_of;
using qf_timeline::parse_ok;
using qf_timeline::wl_class;

timeline::Report run(const std::string& text, Diagnostics& d, const std::vector<Resource>& cluster = {}) {
    auto s = parse_ok(text);
    return timeline::run(s, cluster, {}, d);
}


// One cohort, one ClusterQueue of 2 cpu; four 1-cpu workloads arrive every
// 100 ms and run 250 ms each.
const char* kTwoCpu = R"(cohorts:
- className: cohort
  count: 1
  queuesSets:
  - className: cq
    count: 1
    nominalQuota: 2
    workloadsSets:
    - count: 4
      creationIntervalMs: 100
      workloads:
      - className: small
        runtimeMs: 250
        priority: 0
        request: 1
)";

}  // namespace

TEST_CASE("timeline: a queue of 2 cpu serves four 1-cpu workloads as worked out by hand", "[timeline]") {
    Diagnostics d;
    auto r = run(kTwoCpu, d);
    INFO(render_text(d, {}));
    CHECK(!d.has_errors());
    // Arrivals 100, 200, 300, 400. 300 waits for 100's end (350), 400 for
    // 200's (450); the last finishes at 450 + 250.
    CHECK(r.makespan_ms == 700);
    CHECK(r.workloads == 4);
    CHECK(r.admissions == 4);
    CHECK(r.preemptions == 0);
    const auto& c = wl_class(r, "small");
    CHECK(c.admitted == 4);
    CHECK(c.finished == 4);
    CHECK(c.time_to_admission.mean == 25);
    CHECK(c.time_to_admission.p50 == 0);
    CHECK(c.time_to_admission.p95 == 50);
    CHECK(c.time_to_admission.max == 50);
    CHECK(c.mean_time_to_finish == 275);
    REQUIRE(r.queues.size() == 1);
    CHECK(r.queues[0].name == "cq-0-0-cohort-0");
    CHECK(r.queues[0].cohort == "cohort-0");
    REQUIRE(r.queues[0].usage.size() == 1);
    // 1 cpu over [100,200), 2 over [200,600), 1 over [600,700): 1000 cpu-ms of 1400.
    CHECK(r.queues[0].usage[0].average_percent == Approx(71.43));
    CHECK(r.queues[0].usage[0].peak == 2000);
    REQUIRE(r.queue_classes.size() == 1);
    CHECK(r.queue_classes[0].average_usage_percent == Approx(71.43));
    CHECK(r.queue_classes[0].resource == "cpu");
    CHECK(r.passed());
}

TEST_CASE("timeline: a higher priority arrival preempts within its queue and the victim starts over", "[timeline]") {
    Diagnostics d;
    auto r = run(qf_timeline::kPreemptWithinQueue, d);
    INFO(render_text(d, {}));
    // low runs from 100; high arrives at 300, evicts it and runs to 500;
    // low is admitted again at 500 and runs its full 1000 ms.
    CHECK(r.preemptions == 1);
    CHECK(wl_class(r, "low").evictions == 1);
    CHECK(wl_class(r, "high").time_to_admission.max == 0);
    CHECK(wl_class(r, "low").time_to_admission.max == 400);  // last admission (500) - creation (100)
    CHECK(r.makespan_ms == 1500);
    CHECK(r.admissions == 3);
    CHECK(r.queues[0].preemptions == 1);
}

TEST_CASE("timeline: without preemption the late high-priority workload waits", "[timeline]") {
    Diagnostics d;
    auto r = run(qf_timeline::one_queue(2, R"(    - count: 1
      creationIntervalMs: 100
      workloads:
      - {className: low, runtimeMs: 1000, priority: 10, request: 2}
    - count: 1
      creationIntervalMs: 300
      workloads:
      - {className: high, runtimeMs: 200, priority: 100, request: 2}
)"),
                 d);
    CHECK(r.preemptions == 0);
    CHECK(wl_class(r, "high").time_to_admission.max == 800);
    CHECK(r.makespan_ms == 1300);
}

TEST_CASE("timeline: queues borrow idle quota of their cohort within borrowingLimit", "[timeline]") {
    Diagnostics d;
    // Two queues of 2 cpu in one cohort; only the first gets work, and may
    // borrow 1 cpu of the other's.
    auto r = run(R"(cohorts:
- className: c
  count: 1
  queuesSets:
  - className: busy
    count: 1
    nominalQuota: 2
    borrowingLimit: 1
    workloadsSets:
    - count: 4
      creationIntervalMs: 0
      workloads:
      - {className: w, runtimeMs: 100, request: 1}
  - className: idle
    count: 1
    nominalQuota: 2
)",
                 d);
    INFO(render_text(d, {}));
    // All four arrive at 0: three fit (2 nominal + 1 borrowed), the fourth
    // waits until 100.
    const auto& c = wl_class(r, "w");
    CHECK(c.time_to_admission.max == 100);
    CHECK(c.time_to_admission.p50 == 0);
    CHECK(r.makespan_ms == 200);
    auto busy = std::find_if(r.queues.begin(), r.queues.end(), [](auto& q) { return q.class_name == "busy"; });
    REQUIRE(busy != r.queues.end());
    CHECK(busy->usage[0].peak == 3000);
}

TEST_CASE("timeline: a workload larger than any quota is never admitted and fails the run", "[timeline]") {
    Diagnostics d;
    auto r = run(qf_timeline::one_queue(2, R"(    - count: 2
      creationIntervalMs: 10
      workloads:
      - {className: huge, runtimeMs: 100, request: 3}
)"),
                 d);
    CHECK(!r.passed());
    REQUIRE(r.never_admitted.size() == 2);
    CHECK(r.never_admitted[0].reason == "ExceedsMaxQuota");
    CHECK(r.never_admitted[1].message.find("same shape") != std::string::npos);  // parked by equivalence
    auto text = render_text(d, {});
    CHECK(text.find("2 workload(s) of class huge were never admitted") != std::string::npos);
    CHECK(text.find("timeline.never-admitted") != std::string::npos);
    CHECK(wl_class(r, "huge").never_admitted == 2);
}

TEST_CASE("timeline: arrivals into an existing LocalQueue with any resources", "[timeline]") {
    Diagnostics d;
    LoadedResources lr;
    load_resources_from_text("cluster.yaml", R"(apiVersion: kueue.x-k8s.io/v1beta1
kind: ResourceFlavor
metadata: {name: gpu}
---
apiVersion: kueue.x-k8s.io/v1beta1
kind: ClusterQueue
metadata: {name: team}
spec:
  namespaceSelector: {}
  resourceGroups:
  - coveredResources: [cpu, nvidia.com/gpu]
    flavors:
    - name: gpu
      resources:
      - {name: cpu, nominalQuota: 64}
      - {name: nvidia.com/gpu, nominalQuota: 8}
---
apiVersion: kueue.x-k8s.io/v1beta1
kind: LocalQueue
metadata: {name: q, namespace: ml}
spec: {clusterQueue: team}
---
apiVersion: v1
kind: Namespace
metadata: {name: ml}
)",
                              lr, d);
    REQUIRE(!d.has_errors());
    auto r = run(R"(localQueues:
- localQueue: ml/q
  workloadsSets:
  - count: 3
    creationIntervalMs: 1000
    workloads:
    - className: train
      runtimeMs: 5000
      request: {cpu: 8, nvidia.com/gpu: 4}
)",
                 d, lr.resources);
    INFO(render_text(d, {}));
    CHECK(!d.has_errors());
    // 4 GPUs each on 8: the third (t=3000) waits for the first (ends 6000).
    CHECK(wl_class(r, "train").time_to_admission.max == 3000);
    REQUIRE(r.queue_classes.size() == 1);
    CHECK(r.queue_classes[0].name == "team");
    CHECK(r.queue_classes[0].resource == "nvidia.com/gpu");  // the dominant resource
    CHECK(r.makespan_ms == 11000);

    Diagnostics d2;
    auto bad = parse_ok(R"(localQueues:
- localQueue: ml/qq
  workloadsSets: []
)");
    timeline::run(bad, lr.resources, {}, d2);
    auto text = render_text(d2, {});
    CHECK(text.find("LocalQueue ml/qq is not in the site or manifests given; did you mean \"ml/q\"?") != std::string::npos);
    CHECK(text.find("timeline.unknown-queue") != std::string::npos);
}

TEST_CASE("timeline: scenario errors are positioned, strict and bounded", "[timeline]") {
    auto e = errors_of("cohorts:\n- className: c\n  count: 1\n  queueSets: []\n");
    CHECK(e.find("scenario.yaml:4:3: error: cohorts[0]: unknown field \"queueSets\"; did you mean \"queuesSets\"?") !=
          std::string::npos);
    e = errors_of(R"(cohorts:
- className: c
  count: 1
  queuesSets:
  - className: q
    count: 1
    nominalQuota: 2
    withinClusterQueue: LowerPriorty
)");
    CHECK(e.find("did you mean \"LowerPriority\"?") != std::string::npos);
    e = errors_of(R"(cohorts:
- className: c
  count: 1
  queuesSets:
  - className: q
    count: -1
)");
    CHECK(e.find("count: -1 is out of range") != std::string::npos);
    CHECK(e.find("nominalQuota: required") != std::string::npos);
    e = errors_of(R"(cohorts:
- className: c
  count: 1
  queuesSets:
  - className: q
    count: 1
    nominalQuota: 2
    workloadsSets:
    - count: 1
      workloads:
      - {className: w, request: 1, devices: [gpu]}
)");
    CHECK(e.find("devices: DRA devices are not simulated") != std::string::npos);
    e = errors_of(R"(cohorts:
- className: c
  count: 1000
  queuesSets:
  - className: q
    count: 1000
    nominalQuota: 2
)");
    CHECK(e.find("more than 100000 ClusterQueues") != std::string::npos);
    e = errors_of(R"(cohorts:
- className: c
  count: 100
  queuesSets:
  - className: q
    count: 100
    nominalQuota: 2
    workloadsSets:
    - count: 1000
      creationIntervalMs: 1
      workloads: [{className: w, request: 1}]
)");
    CHECK(e.find("more than 1000000 workloads") != std::string::npos);
    e = errors_of("localQueues:\n- localQueue: no-slash\n  workloadsSets: []\n");
    CHECK(e.find("expected namespace/name") != std::string::npos);
    e = errors_of("{}\n");
    CHECK(e.find("give cohorts") != std::string::npos);
    e = errors_of("cohorts: [\n");
    CHECK(!e.empty());
    e = errors_of(R"(cohorts:
- className: c
  count: 1
  queuesSets:
  - className: q
    count: 1
    nominalQuota: -2
)");
    CHECK(e.find("must not be negative") != std::string::npos);
}

TEST_CASE("timeline: thresholds in Kueue's rangespec shape pass, fail and name unknown classes", "[timeline]") {
    Diagnostics d;
    auto r = run(kTwoCpu, d);
    auto t = timeline::parse_thresholds("range.yaml", R"(cmd:
  maxWallMs: 425_000
clusterQueueClassesMinUsage:
  cq: 80 #%
wlClassesMaxAvgTimeToAdmissionMs:
  small: 10
wlClassesMaxP95TimeToAdmissionMs:
  smal: 100
)",
                                        d);
    REQUIRE(t);
    REQUIRE(t->max_wall_ms);
    CHECK(*t->max_wall_ms == 425000);
    timeline::check_thresholds(*t, r, 12, 1000, 900, d);
    REQUIRE(r.checks.size() == 3);
    CHECK(r.checks[0].name == "cmd.maxWallMs");
    CHECK(r.checks[0].met);
    CHECK(r.checks[1].name == "clusterQueueClassesMinUsage.cq");
    CHECK(!r.checks[1].met);  // 71.43% < 80%
    CHECK(r.checks[2].name == "wlClassesMaxAvgTimeToAdmissionMs.small");
    CHECK(!r.checks[2].met);  // 25 ms > 10 ms
    CHECK(!r.passed());
    auto text = render_text(d, {});
    CHECK(text.find("range.yaml:4:3: error: threshold not met: clusterQueueClassesMinUsage.cq: average usage 71.43% is below the minimum 80%") !=
          std::string::npos);
    CHECK(text.find("range.yaml:8:3: error: wlClassesMaxP95TimeToAdmissionMs: the run has no class \"smal\"; did you mean \"small\"?") !=
          std::string::npos);

    Diagnostics bad;
    CHECK(!timeline::parse_thresholds("range.yaml", "cmd: {maxWall: 1}\n", bad));
    CHECK(render_text(bad, {}).find("did you mean \"maxWallMs\"?") != std::string::npos);
}

TEST_CASE("timeline: same scenario, same report, whatever the cluster's input order", "[timeline]") {
    const char* scenario = R"(cohorts:
- className: co
  count: 2
  queuesSets:
  - className: cq
    count: 3
    nominalQuota: 4
    borrowingLimit: 4
    reclaimWithinCohort: Any
    withinClusterQueue: LowerPriority
    workloadsSets:
    - count: 30
      creationIntervalMs: 7
      workloads:
      - {className: a, runtimeMs: 40, priority: 1, request: 1}
      - {className: b, runtimeMs: 90, priority: 5, request: 3}
)";
    Diagnostics d1, d2;
    auto s = parse_ok(scenario);
    auto r1 = timeline::render_json(timeline::run(s, {}, {}, d1));
    auto r2 = timeline::render_json(timeline::run(s, {}, {}, d2));
    CHECK(r1 == r2);
    CHECK(r1.find("\"kind\": \"TimelineReport\"") != std::string::npos);
    CHECK(r1.find("\"settled\": true") != std::string::npos);
}

TEST_CASE("timeline: the engine steps arrivals, cycles and finishes", "[timeline][engine]") {
    LoadedResources lr;
    Diagnostics d;
    load_resources_from_text("in.yaml", R"(apiVersion: kueue.x-k8s.io/v1beta1
kind: ResourceFlavor
metadata: {name: rf}
---
apiVersion: kueue.x-k8s.io/v1beta1
kind: ClusterQueue
metadata: {name: cq}
spec:
  namespaceSelector: {}
  resourceGroups:
  - coveredResources: [cpu]
    flavors: [{name: rf, resources: [{name: cpu, nominalQuota: 1}]}]
---
apiVersion: kueue.x-k8s.io/v1beta1
kind: LocalQueue
metadata: {name: lq, namespace: ns}
spec: {clusterQueue: cq}
---
apiVersion: v1
kind: Namespace
metadata: {name: ns}
---
apiVersion: kueue.x-k8s.io/v1beta1
kind: Workload
metadata: {name: a, namespace: ns, creationTimestamp: "2026-01-01T00:00:00Z"}
spec:
  queueName: lq
  podSets: [{name: main, count: 1, template: {spec: {containers: [{name: c, resources: {requests: {cpu: 1}}}]}}}]
---
apiVersion: kueue.x-k8s.io/v1beta1
kind: Workload
metadata: {name: b, namespace: ns, creationTimestamp: "2026-01-01T00:00:01Z"}
spec:
  queueName: lq
  podSets: [{name: main, count: 1, template: {spec: {containers: [{name: c, resources: {requests: {cpu: 1}}}]}}}]
)",
                              lr, d);
    scheduler::Engine e(lr.resources, d);
    int a = e.workload_id("ns", "a"), b = e.workload_id("ns", "b");
    REQUIRE(a >= 0);
    REQUIRE(b >= 0);
    CHECK(e.workload_id("ns", "zzz") == -1);
    e.hold_back(b);
    auto ev = e.cycle(0);
    CHECK(ev.admitted == std::vector<int>{a});
    CHECK(!e.has_work());  // b has not arrived
    e.arrive(b);
    ev = e.cycle(1);
    CHECK(ev.admitted.empty());  // no room: b is parked
    CHECK(!e.has_work());
    CHECK(e.finish(a));
    CHECK(!e.finish(a));
    CHECK(e.has_work());  // the finish requeued b
    ev = e.cycle(2);
    CHECK(ev.admitted == std::vector<int>{b});
    CHECK(e.holds_quota(b));
    CHECK(e.cluster_queue_of(b) == "cq");
    REQUIRE(e.held(b).size() == 1);
    CHECK(e.held(b)[0].value == 1000);
}

TEST_CASE("timeline: Kueue's scheduler-perf configurations run to the end within their rangespec", "[timeline][shared][slow]") {
    auto shared = qf_test::shared_dir();
    if (!shared) {
        WARN("skipped: ../shared is absent (upstream/kueue-perf)");
        return;
    }
    for (const char* name : {"baseline", "large-scale"}) {
        auto dir = *shared / "upstream" / "kueue-perf" / name;
        Diagnostics d;
        auto s = timeline::parse_scenario((dir / "generator.yaml").string(), qf_test::read_text(dir / "generator.yaml"), d);
        REQUIRE(s);
        auto t = timeline::parse_thresholds((dir / "rangespec.yaml").string(), qf_test::read_text(dir / "rangespec.yaml"), d);
        REQUIRE(t);
        auto r = timeline::run(*s, {}, {}, d);
        timeline::check_thresholds(*t, r, 0, 0, 0, d);
        INFO(name << "\n" << render_text(d, {}));
        CHECK(!d.has_errors());
        CHECK(r.settled);
        CHECK(r.never_admitted.empty());
        CHECK(r.workloads == (std::string(name) == "baseline" ? 15000 : 50000));
        CHECK(r.queues.size() == (std::string(name) == "baseline" ? 30u : 1000u));
        for (const auto& c : r.workload_classes) CHECK(c.finished == c.workloads);
        CHECK(r.checks.size() == 5);  // maxWallMs, one usage class, three workload classes
        CHECK(r.passed());
    }
}

TEST_CASE("timeline: a borrow-only queue shows its usage against what it may borrow", "[timeline][defects]") {
    Diagnostics d;
    // The lender's 4 cpu are idle; the borrower (nominal 0) runs two 1-cpu
    // workloads for 100 ms: half of what it may borrow, all of its time.
    auto r = run(R"(cohorts:
- className: c
  count: 1
  queuesSets:
  - className: lender
    count: 1
    nominalQuota: 4
  - className: borrower
    count: 1
    nominalQuota: 0
    workloadsSets:
    - count: 2
      creationIntervalMs: 0
      workloads:
      - {className: w, runtimeMs: 100, request: 1}
)",
                 d);
    INFO(render_text(d, {}));
    REQUIRE(!d.has_errors());
    auto q = std::find_if(r.queues.begin(), r.queues.end(), [](auto& x) { return x.class_name == "borrower"; });
    REQUIRE(q != r.queues.end());
    REQUIRE(q->usage.size() == 1);
    const auto& u = q->usage[0];
    CHECK(u.nominal == 0);
    CHECK(u.basis == timeline::ResourceUsage::Basis::Borrowable);
    CHECK(u.reference == 4000);
    CHECK(u.peak == 2000);
    CHECK(u.average_percent == Approx(50.0));
    REQUIRE(!u.series.percent.empty());
    CHECK(*std::max_element(u.series.percent.begin(), u.series.percent.end()) == Approx(50.0));
    // The lender keeps its nominal basis.
    auto lender = std::find_if(r.queues.begin(), r.queues.end(), [](auto& x) { return x.class_name == "lender"; });
    REQUIRE(lender != r.queues.end());
    CHECK(lender->usage[0].basis == timeline::ResourceUsage::Basis::Nominal);
    CHECK(lender->usage[0].reference == 4000);

    // Text, JSON and HTML show the same figure with its basis.
    std::string text = timeline::render_text(r);
    INFO(text);
    CHECK(text.find("cpu 50.0% 2/4 borrowable") != std::string::npos);
    std::string json = timeline::render_json(r);
    CHECK(json.find("\"usageBasis\": \"borrowable\"") != std::string::npos);
    Diagnostics hd;
    std::vector<SourceText> sources;
    auto in = html_report::collect({.site = (qf_test::source_dir() / "examples/multi-team").string()}, hd, sources);
    REQUIRE(in);
    in->timeline = r;
    std::string html = html_report::render(*in);
    CHECK(html.find("cpu avg 50.0% of borrowable") != std::string::npos);
}

TEST_CASE("timeline: unknown scenario fields at every level get a suggestion", "[timeline][defects]") {
    std::string e = errors_of(R"(cohorts:
- className: c
  count: 1
  queuesSets:
  - className: q
    count: 1
    nominalQuota: 2
    borowingLimit: 1
    workloadsSets:
    - count: 1
      creationIntervalMS: 0
      workloads:
      - {className: w, runtimeMS: 100, request: 1}
)");
    CHECK(e.find("unknown field \"borowingLimit\"; did you mean \"borrowingLimit\"?") != std::string::npos);
    CHECK(e.find("unknown field \"creationIntervalMS\"; did you mean \"creationIntervalMs\"?") != std::string::npos);
    CHECK(e.find("unknown field \"runtimeMS\"; did you mean \"runtimeMs\"?") != std::string::npos);
}
