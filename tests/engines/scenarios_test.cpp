// The `simulate` runner (engines/scenarios) at its boundary, without the
// CLI: a site's samples run together and each alone, expectations checked,
// the never-admitted and node-shape verdicts, and the findings they become.
#include <catch2/catch.hpp>

#include "test_util.hpp"

#include <queueforge/engines/scenarios.hpp>

#include <algorithm>

using namespace queueforge;
using qf_test::TempDir;
using qf_test::write_text;

namespace {

// One pool of two 8-GPU nodes; the team's quota is 12 GPUs. `samples` is
// appended under `workloads:`.
std::string site_with(const std::string& samples) {
    return R"(apiVersion: queueforge.io/v1alpha1
kind: Site
metadata:
  name: lab
spec:
  target: kueue-0.14
  pools:
    - name: a100
      nodes: 2
      allocatable: {cpu: 64, memory: 512Gi, nvidia.com/gpu: 8, pods: 110}
  teams:
    - name: research
      namespaces: [research]
      quota:
        - pool: a100
          nominal: {cpu: 128, memory: 1Ti, nvidia.com/gpu: 12}
  workloads:
)" + samples;
}

std::string sample(const std::string& name, int count, int gpus, const std::string& expect = "") {
    return "    - name: " + name + "\n      namespace: research\n" + (expect.empty() ? "" : "      expect: " + expect + "\n") +
           "      podSets:\n        - name: main\n          count: " + std::to_string(count) +
           "\n          requests: {cpu: 1, memory: 1Gi, nvidia.com/gpu: " + std::to_string(gpus) + "}\n";
}

struct Ran {
    TempDir dir;
    Diagnostics d;
    std::optional<scenarios::Report> report;
    explicit Ran(const std::string& text) {
        write_text(dir.path / "queueforge-site.yaml", text);
        scenarios::Options o;
        o.paths = {dir.path.string()};
        report = scenarios::run(o, d);
    }
    const scenarios::SampleReport* find(const std::string& name) const {
        auto it = std::find_if(report->workloads.begin(), report->workloads.end(),
                               [&](const auto& w) { return w.together.name == name; });
        return it == report->workloads.end() ? nullptr : &*it;
    }
};

}  // namespace

TEST_CASE("scenarios: together the second sample waits, alone each fits", "[scenarios]") {
    Ran r(site_with(sample("first", 1, 8) + sample("second", 1, 8)));
    INFO(qf_test::messages(r.d));
    REQUIRE(r.report);
    const auto* first = r.find("first");
    const auto* second = r.find("second");
    REQUIRE(first);
    REQUIRE(second);
    CHECK(first->together.admitted);
    CHECK_FALSE(second->together.admitted);  // 8 + 8 > 12
    REQUIRE(second->alone);
    CHECK(second->alone->admitted);
    CHECK_FALSE(r.report->some_never_admitted);
    CHECK(r.report->all_expectations_met);
}

TEST_CASE("scenarios: a sample over the quota is never admitted and becomes a finding", "[scenarios]") {
    Ran r(site_with(sample("huge", 2, 8)));  // 16 GPUs > 12
    REQUIRE(r.report);
    CHECK(r.report->some_never_admitted);
    auto f = scenarios::findings(*r.report);
    REQUIRE(qf_test::has_rule(f, "sim.never-admitted"));
    const auto& finding = *std::find_if(f.all().begin(), f.all().end(), [](const auto& x) { return x.rule == "sim.never-admitted"; });
    CHECK(finding.mark.line > 0);  // at the sample in the site
}

TEST_CASE("scenarios: an unmet expectation says why", "[scenarios]") {
    Ran r(site_with(sample("first", 1, 8) + sample("second", 1, 8, "{status: Admitted}")));
    REQUIRE(r.report);
    CHECK_FALSE(r.report->all_expectations_met);
    const auto* second = r.find("second");
    REQUIRE(second);
    CHECK_FALSE(second->expectation_met);
    CHECK_FALSE(second->expectation_detail.empty());
    CHECK(qf_test::has_rule(scenarios::findings(*r.report), "sim.expectation"));
}

TEST_CASE("scenarios: a pod larger than every node is admitted by quota but flagged by node shape", "[scenarios]") {
    Ran r(site_with(sample("wide", 1, 12)));  // quota 12 fits; no node has 12 GPUs
    REQUIRE(r.report);
    const auto* wide = r.find("wide");
    REQUIRE(wide);
    CHECK(wide->together.admitted);
    CHECK(r.report->node_shape_problems);
    CHECK_FALSE(wide->node_shape_problem.empty());
    CHECK(qf_test::has_rule(scenarios::findings(*r.report), "sim.node-shape"));
}

TEST_CASE("scenarios: an unreadable path is an error, not a report", "[scenarios]") {
    Diagnostics d;
    scenarios::Options o;
    o.paths = {"/nonexistent/queueforge-site.yaml"};
    CHECK_FALSE(scenarios::run(o, d));
    CHECK(d.has_errors());
}
