#pragma once
// Reading timeline scenarios in tests, shared by the timeline_*_test files.
#include <queueforge/base/diagnostics.hpp>
#include <queueforge/engines/timeline.hpp>

#include <catch2/catch.hpp>

#include <algorithm>
#include <string>

namespace qf_timeline {

// One queue of 2 cpu: `low` (2 cpu, priority 10) runs from 100 ms; `high`
// (2 cpu, priority 100) arrives at 300 ms and preempts it.
inline constexpr const char* kPreemptWithinQueue = R"(cohorts:
- className: c
  count: 1
  queuesSets:
  - className: cq
    count: 1
    nominalQuota: 2
    withinClusterQueue: LowerPriority
    workloadsSets:
    - count: 1
      creationIntervalMs: 100
      workloads:
      - {className: low, runtimeMs: 1000, priority: 10, request: 2}
    - count: 1
      creationIntervalMs: 300
      workloads:
      - {className: high, runtimeMs: 200, priority: 100, request: 2}
)";

// A scenario of one ClusterQueue `cq` (cohort class `c`) of `nominal` cpu
// whose workloadsSets are `sets` (YAML list items indented by 4 spaces).
inline std::string one_queue(int nominal, const std::string& sets) {
    return "cohorts:\n- className: c\n  count: 1\n  queuesSets:\n  - className: cq\n    count: 1\n    nominalQuota: " +
           std::to_string(nominal) + "\n    workloadsSets:\n" + sets;
}

// A scenario that must parse without errors.
inline queueforge::timeline::Scenario parse_ok(const std::string& text) {
    queueforge::Diagnostics d;
    auto s = queueforge::timeline::parse_scenario("scenario.yaml", text, d);
    INFO(queueforge::render_text(d, {}));
    REQUIRE(s);
    REQUIRE(!d.has_errors());
    return *s;
}

// The rendered findings of a scenario that must be refused.
inline std::string errors_of(const std::string& text) {
    queueforge::Diagnostics d;
    auto s = queueforge::timeline::parse_scenario("scenario.yaml", text, d);
    CHECK(!s);
    return queueforge::render_text(d, {});
}

inline const queueforge::timeline::WorkloadClassReport& wl_class(const queueforge::timeline::Report& r,
                                                                  const std::string& name) {
    auto it = std::find_if(r.workload_classes.begin(), r.workload_classes.end(), [&](auto& c) { return c.name == name; });
    REQUIRE(it != r.workload_classes.end());
    return *it;
}

}  // namespace qf_timeline
