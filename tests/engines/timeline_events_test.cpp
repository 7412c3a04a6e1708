// Timeline mode: the event log, Kueue's pending vocabulary and
// waitForPodsReady (timeout, backoff, deactivation, blockAdmission). Figures
// are worked out by hand from Kueue ff69552e (pkg/controller/core
// workload_controller.go reconcileNotReadyTimeout, pkg/workload
// UpdateRequeueState, pkg/util/wait/backoff.go, pkg/scheduler/scheduler.go
// waitForPodsReadyIfNeeded).
#include <catch2/catch.hpp>

#include <queueforge/frontend/manifests.hpp>
#include <queueforge/engines/timeline.hpp>

#include "test_util.hpp"
#include "timeline_util.hpp"

#include <nlohmann/json.hpp>

#include <cstdlib>

using namespace queueforge;

namespace {

using qf_timeline::errors_of;
using qf_timeline::parse_ok;
using qf_timeline::wl_class;

std::vector<Resource> load(const std::string& text, Diagnostics& d) {
    LoadedResources lr;
    load_resources_from_text("config.yaml", text, lr, d);
    return lr.resources;
}

timeline::Report run(const std::string& text, Diagnostics& d, const std::string& config = {}, std::int64_t max_events = 10000) {
    auto s = parse_ok(text);
    std::vector<Resource> cluster;
    if (!config.empty()) cluster = load(config, d);
    timeline::Options o;
    o.max_events = max_events;
    return timeline::run(s, cluster, o, d);
}

std::vector<const timeline::TimelineEvent*> of_type(const timeline::Report& r, const std::string& type) {
    std::vector<const timeline::TimelineEvent*> out;
    for (const auto& e : r.events)
        if (e.type == type) out.push_back(&e);
    return out;
}

const char* kPreempt = qf_timeline::kPreemptWithinQueue;

// One workload whose pods take `ready` ms, on a queue of 1 cpu.
std::string slow_pods(const std::string& ready, int count = 1, int interval = 100) {
    return qf_timeline::one_queue(1, R"(    - count: )") + std::to_string(count) + R"(
      creationIntervalMs: )" + std::to_string(interval) + R"(
      workloads:
      - {className: gang, runtimeMs: 1000, request: 1, podsReadyMs: )" + ready + R"(}
)";
}

std::string config_v1beta2(const std::string& body) {
    return "apiVersion: config.kueue.x-k8s.io/v1beta2\nkind: Configuration\nwaitForPodsReady:\n" + body;
}

}  // namespace

TEST_CASE("timeline events: preemption names preemptor, victim, Kueue's reason and both queue paths", "[timeline][events]") {
    Diagnostics d;
    auto r = run(kPreempt, d);
    INFO(render_text(d, {}));
    auto pre = of_type(r, "Preempted");
    REQUIRE(pre.size() == 1);
    CHECK(pre[0]->at_ms == 300);
    CHECK(pre[0]->reason == "InClusterQueue");
    CHECK(pre[0]->workload.find("low-") != std::string::npos);
    CHECK(pre[0]->preemptor.find("high-") != std::string::npos);
    CHECK(pre[0]->preemptor_path == pre[0]->victim_path);
    CHECK(pre[0]->victim_path.find("/" + pre[0]->cluster_queue) != std::string::npos);
    auto ev = of_type(r, "Evicted");
    REQUIRE(ev.size() == 1);
    CHECK(ev[0]->reason == "Preempted");
    CHECK(ev[0]->requeue_at_ms == 300);
    // admitted 100 (low), 300 (high), 500 (low again); finished 500 (high), 1500 (low).
    auto adm = of_type(r, "Admitted");
    REQUIRE(adm.size() == 3);
    CHECK(adm[0]->at_ms == 100);
    CHECK(adm[1]->at_ms == 300);
    CHECK(adm[2]->at_ms == 500);
    auto fin = of_type(r, "Finished");
    REQUIRE(fin.size() == 2);
    CHECK(fin[0]->at_ms == 500);
    CHECK(fin[1]->at_ms == 1500);
    CHECK(of_type(r, "Requeued").size() == 1);
    // In time order.
    for (std::size_t i = 1; i < r.events.size(); ++i) CHECK(r.events[i - 1].at_ms <= r.events[i].at_ms);
    CHECK(r.events_total == static_cast<std::int64_t>(r.events.size()));
    CHECK(r.events_dropped == 0);
}

TEST_CASE("timeline events: the log is capped and the rest counted", "[timeline][events]") {
    Diagnostics d;
    auto full = run(kPreempt, d);
    auto capped = run(kPreempt, d, {}, 3);
    REQUIRE(full.events.size() > 3);
    CHECK(capped.events.size() == 3);
    CHECK(capped.events_total == full.events_total);
    CHECK(capped.events_dropped == full.events_total - 3);
    CHECK(timeline::render_events(capped).find("not kept: raise --max-events") != std::string::npos);
    auto none = run(kPreempt, d, {}, 0);
    CHECK(none.events.empty());
    CHECK(none.events_dropped == full.events_total);
}

TEST_CASE("timeline events: the --events listing of a small scenario matches its golden file", "[timeline][events]") {
    Diagnostics d;
    auto r = run(kPreempt, d);
    std::string text = timeline::render_events(r);
    auto golden = qf_test::source_dir() / "tests/golden/timeline-preempt.events.txt";
    if (std::getenv("QF_UPDATE_GOLDEN")) qf_test::write_text(golden, text);
    CHECK(text == qf_test::read_text(golden));
    // Deterministic.
    Diagnostics d2;
    CHECK(timeline::render_events(run(kPreempt, d2)) == text);
}

TEST_CASE("timeline events: JSON carries events, their count and the pending reasons", "[timeline][events]") {
    Diagnostics d;
    auto r = run(kPreempt, d, {}, 2);
    auto j = nlohmann::json::parse(timeline::render_json(r));
    REQUIRE(j["events"].is_array());
    CHECK(j["events"].size() == 2);
    CHECK(j["eventsDropped"] == r.events_total - 2);
    CHECK(j["events"][0]["type"] == "Admitted");
    CHECK(j["events"][0]["atMs"] == 100);
    CHECK(j["pendingReasons"].is_object());
    auto full = nlohmann::json::parse(timeline::render_json(run(kPreempt, d)));
    bool seen = false;
    for (const auto& e : full["events"])
        if (e["type"] == "Preempted") {
            seen = true;
            CHECK(e["reason"] == "InClusterQueue");
            CHECK(e.contains("preemptor"));
            CHECK(e.contains("preemptorPath"));
            CHECK(e.contains("preempteePath"));
        }
    CHECK(seen);
}

TEST_CASE("timeline pending: never-admitted workloads carry Kueue's QuotaReserved=False reasons, counted per class and queue",
          "[timeline][events]") {
    Diagnostics d;
    // 3 cpu never fits a queue of 2 (no cohort to borrow from).
    auto r = run(qf_timeline::one_queue(2, R"(    - count: 2
      creationIntervalMs: 100
      workloads:
      - {className: huge, runtimeMs: 100, request: 3}
)"),
                 d);
    REQUIRE(!r.never_admitted.empty());
    CHECK(r.never_admitted[0].reason == "ExceedsMaxQuota");
    // The first is evaluated (ExceedsMaxQuota); the second, of the same
    // shape, is parked behind it unevaluated: PendingEvaluation.
    INFO(timeline::render_text(r));
    REQUIRE(r.pending_reasons.size() == 2);
    CHECK(r.pending_reasons[0] == std::pair<std::string, std::int64_t>{"ExceedsMaxQuota", 1});
    CHECK(r.pending_reasons[1] == std::pair<std::string, std::int64_t>{"PendingEvaluation", 1});
    CHECK(wl_class(r, "huge").pending_reasons == r.pending_reasons);
    CHECK(r.queues[0].pending_reasons == r.pending_reasons);
    CHECK(timeline::render_text(r).find("ExceedsMaxQuota 1, PendingEvaluation 1") != std::string::npos);
}

TEST_CASE("timeline podsReady: Kueue's backoff formula (pkg/util/wait TestBackoff_WaitTime, jitter 0)", "[timeline][podsready]") {
    // Translated from Kueue ff69552e pkg/util/wait/backoff_test.go with
    // seconds as the unit (queueforge's backoff is in whole seconds).
    CHECK(timeline::requeue_backoff_ms(1, 1000, 0) == 0);     // iteration zero returns zero
    CHECK(timeline::requeue_backoff_ms(1, 1000, -3) == 0);    // negative iteration returns zero
    CHECK(timeline::requeue_backoff_ms(1, 1000, 4) == 8000);  // 1, 2, 4, 8
    CHECK(timeline::requeue_backoff_ms(1, 5, 4) == 5000);     // 1, 2, 4, 8 -> cap 5
    CHECK(timeline::requeue_backoff_ms(1, 1000, 1000) == 1000000);  // very large iteration returns the cap
    // Kueue's defaults: 60 s * 2^(n-1), capped at 3600 s.
    CHECK(timeline::requeue_backoff_ms(60, 3600, 1) == 60000);
    CHECK(timeline::requeue_backoff_ms(60, 3600, 2) == 120000);
    CHECK(timeline::requeue_backoff_ms(60, 3600, 6) == 1920000);
    CHECK(timeline::requeue_backoff_ms(60, 3600, 7) == 3600000);
    // A base above the cap: the first wait is the base (only the next step is capped).
    CHECK(timeline::requeue_backoff_ms(10, 5, 1) == 10000);
    CHECK(timeline::requeue_backoff_ms(10, 5, 2) == 5000);
}

TEST_CASE("timeline podsReady: pods never ready are evicted at the timeout, requeued after the backoff, deactivated past the limit",
          "[timeline][podsready]") {
    Diagnostics d;
    // timeout 10s, base 1s, max 3600s, limit 2: admitted 100; evicted 10100
    // (count 1, back at 11100); admitted 11100, evicted 21100 (count 2, back
    // at 23100); admitted 23100, at 33100 count 2 + 1 > 2: deactivated.
    auto r = run(slow_pods("never"), d,
                 config_v1beta2("  timeout: 10s\n  requeuingStrategy: {backoffBaseSeconds: 1, backoffLimitCount: 2}\n"));
    INFO(render_text(d, {}));
    auto ev = of_type(r, "Evicted");
    REQUIRE(ev.size() == 3);
    CHECK(ev[0]->at_ms == 10100);
    CHECK(ev[0]->reason == "PodsReadyTimeout");
    CHECK(ev[0]->requeue_at_ms == 11100);
    CHECK(ev[0]->requeue_count == 1);
    CHECK(ev[1]->at_ms == 21100);
    CHECK(ev[1]->requeue_at_ms == 23100);
    CHECK(ev[1]->requeue_count == 2);
    CHECK(ev[2]->at_ms == 33100);
    CHECK(ev[2]->reason == "DeactivatedDueToRequeuingLimitExceeded");
    CHECK(ev[2]->message == "The workload is deactivated due to exceeding the maximum number of re-queuing retries");
    CHECK(ev[2]->requeue_at_ms == -1);
    auto rq = of_type(r, "Requeued");
    REQUIRE(rq.size() == 2);
    CHECK(rq[0]->at_ms == 11100);
    CHECK(rq[0]->reason == "BackoffFinished");
    CHECK(r.pods_ready_timeouts == 2);
    CHECK(r.deactivated == 1);
    CHECK(wl_class(r, "gang").pods_ready_timeouts == 0);  // class figure: see evictions
    CHECK(wl_class(r, "gang").evictions == 3);
    REQUIRE(r.never_admitted.size() == 1);
    CHECK(r.never_admitted[0].reason == "Deactivated");
    CHECK(qf_test::has_rule(d, "timeline.never-admitted"));
    // The timeline simulates it: no "not simulated" warning (one-shot keeps
    // it: sim_input_test "not-simulated features").
    CHECK(!qf_test::has_rule(d, "sim.not-simulated"));
}

TEST_CASE("timeline podsReady: Kueue's deactivation cases (workload_controller_eviction_test.go, ff69552e)", "[timeline][podsready]") {
    // "trigger deactivation of workload when reaching backoffLimitCount":
    // limit 1, requeueState.count already 1 -> 1 + 1 > 1 deactivates at the
    // next timeout. Here: evicted once (count 1), deactivated at the second.
    Diagnostics d;
    auto one = run(slow_pods("never"), d, config_v1beta2("  timeout: 3s\n  requeuingStrategy: {backoffBaseSeconds: 10, backoffLimitCount: 1}\n"));
    auto ev = of_type(one, "Evicted");
    REQUIRE(ev.size() == 2);
    CHECK(ev[0]->reason == "PodsReadyTimeout");
    CHECK(ev[0]->at_ms == 3100);
    CHECK(ev[0]->requeue_at_ms == 13100);
    CHECK(ev[1]->at_ms == 16100);
    CHECK(ev[1]->reason == "DeactivatedDueToRequeuingLimitExceeded");
    // The limit-0 case: 0 + 1 > 0, deactivated at the first timeout.
    Diagnostics d2;
    auto zero = run(slow_pods("never"), d2, config_v1beta2("  timeout: 3s\n  requeuingStrategy: {backoffBaseSeconds: 10, backoffLimitCount: 0}\n"));
    ev = of_type(zero, "Evicted");
    REQUIRE(ev.size() == 1);
    CHECK(ev[0]->at_ms == 3100);
    CHECK(ev[0]->reason == "DeactivatedDueToRequeuingLimitExceeded");
    CHECK(of_type(zero, "Requeued").empty());
    CHECK(zero.deactivated == 1);
}

TEST_CASE("timeline podsReady: pods ready within the timeout run their runtime from readiness", "[timeline][podsready]") {
    Diagnostics d;
    // Kueue's v1beta2 defaults (timeout 30m): ready 5000 ms after admission at 100, runs 1000 ms.
    auto r = run(slow_pods("5000"), d);
    INFO(render_text(d, {}));
    CHECK(!d.has_errors());
    CHECK(of_type(r, "Evicted").empty());
    auto ready = of_type(r, "PodsReady");
    REQUIRE(ready.size() == 1);
    CHECK(ready[0]->at_ms == 5100);
    auto fin = of_type(r, "Finished");
    REQUIRE(fin.size() == 1);
    CHECK(fin[0]->at_ms == 6100);
    // With a v1beta1 Configuration that does not enable it, never-ready pods hold quota and are never evicted.
    Diagnostics d2;
    auto off = run(slow_pods("never"), d2, "apiVersion: config.kueue.x-k8s.io/v1beta1\nkind: Configuration\n");
    CHECK(of_type(off, "Evicted").empty());
    CHECK(off.pods_ready.empty());
}

TEST_CASE("timeline podsReady: blockAdmission holds admissions until the admitted workload's pods are ready", "[timeline][podsready]") {
    // Two 1-cpu workloads on a queue of 4 cpu (quota for both) whose pods take
    // 3000 ms. Without blockAdmission both are admitted at once; with it the
    // second waits for the first's pods (3000 ms after its admission at 100).
    auto scenario = qf_timeline::one_queue(4, R"(    - count: 2
      creationIntervalMs: 0
      workloads:
      - {className: gang, runtimeMs: 1000, request: 1, podsReadyMs: 3000}
)");
    Diagnostics d;
    auto open = run(scenario, d);
    auto adm = of_type(open, "Admitted");
    REQUIRE(adm.size() == 2);
    CHECK(adm[1]->at_ms == adm[0]->at_ms);
    CHECK(open.admission_blocked_ms == 0);

    Diagnostics d2;
    auto blocked = run(scenario, d2, config_v1beta2("  timeout: 10s\n  blockAdmission: true\n"));
    INFO(render_text(d2, {}));
    adm = of_type(blocked, "Admitted");
    REQUIRE(adm.size() == 2);
    CHECK(adm[1]->at_ms == adm[0]->at_ms + 3000);
    CHECK(blocked.admission_blocked_ms == 3000);
    auto held = of_type(blocked, "Pending");
    REQUIRE(held.size() == 1);
    CHECK(held[0]->at_ms == adm[0]->at_ms);
    CHECK(held[0]->reason == "WaitingForPodsReady");
    CHECK(held[0]->workload == adm[1]->workload);
    CHECK(of_type(open, "Pending").empty());
    CHECK(blocked.makespan_ms == adm[0]->at_ms + 3000 + 3000 + 1000);
}

TEST_CASE("timeline podsReady: blockAdmission also holds the second admission of one cycle (two ClusterQueues)", "[timeline][podsready]") {
    // Two queues, one workload each at 0: one cycle has both heads. Kueue
    // admits the first and blocks before the second until the first's pods
    // are ready (3000 ms).
    auto scenario = R"(cohorts:
- className: c
  count: 1
  queuesSets:
  - className: cq
    count: 2
    nominalQuota: 4
    workloadsSets:
    - count: 1
      creationIntervalMs: 0
      workloads:
      - {className: gang, runtimeMs: 1000, request: 1, podsReadyMs: 3000}
)";
    Diagnostics d;
    auto r = run(scenario, d, config_v1beta2("  blockAdmission: true\n"));
    INFO(render_text(d, {}));
    auto adm = of_type(r, "Admitted");
    REQUIRE(adm.size() == 2);
    CHECK(adm[0]->at_ms == 0);
    CHECK(adm[1]->at_ms == 3000);
    auto held = of_type(r, "Pending");
    REQUIRE(held.size() == 1);
    CHECK(held[0]->at_ms == 0);
    CHECK(held[0]->workload == adm[1]->workload);
    CHECK(r.admission_blocked_ms == 3000);
}

TEST_CASE("timeline podsReady: the Red Hat build's gangScheduling maps to waitForPodsReady as its operator renders it",
          "[timeline][podsready]") {
    Diagnostics d;
    // ByWorkload, Sequential -> blockAdmission; timeoutSeconds 10; retryLimit 1.
    auto r = run(slow_pods("never"), d, R"(apiVersion: kueue.openshift.io/v1
kind: Kueue
metadata: {name: cluster}
spec:
  config:
    gangScheduling:
      policy: ByWorkload
      byWorkload:
        admission: Sequential
        timeoutSeconds: 10
        requeuingStrategy: {retryLimit: 1, backoffBaseSeconds: 2}
)");
    INFO(render_text(d, {}));
    CHECK(r.pods_ready.find("blockAdmission true") != std::string::npos);
    auto ev = of_type(r, "Evicted");
    REQUIRE(ev.size() == 2);
    CHECK(ev[0]->at_ms == 10100);
    CHECK(ev[0]->requeue_at_ms == 12100);
    CHECK(ev[1]->at_ms == 22100);
    CHECK(ev[1]->reason == "DeactivatedDueToRequeuingLimitExceeded");
}

TEST_CASE("timeline podsReady: bad podsReadyMs and waitForPodsReady values are positioned errors", "[timeline][podsready]") {
    auto e = errors_of(slow_pods("-5"));
    CHECK(e.find("scenario.yaml:12:") != std::string::npos);
    CHECK(e.find("podsReadyMs") != std::string::npos);
    e = errors_of(slow_pods("soon"));
    CHECK(e.find("podsReadyMs") != std::string::npos);

    Diagnostics d;
    auto s = parse_ok(slow_pods("1"));
    auto cluster = load(config_v1beta2("  timeout: -5m\n  requeuingStrategy: {backoffBaseSeconds: -1}\n"), d);
    timeline::run(s, cluster, {}, d);
    std::string text = render_text(d, {});
    CHECK(text.find("config.yaml:4:") != std::string::npos);
    CHECK(text.find("waitForPodsReady.timeout") != std::string::npos);
    CHECK(text.find("backoffBaseSeconds") != std::string::npos);
    CHECK(d.has_errors());
}
