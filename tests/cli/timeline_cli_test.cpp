// `simulate --scenario` as a process: output formats, exit codes, usage errors.
#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

#include "test_util.hpp"
#include "timeline_util.hpp"

using qf_test::run_cli;
using qf_test::shell_quote;

namespace {

std::string example(const std::string& rel) { return shell_quote((qf_test::source_dir() / rel).string()); }

}  // namespace

TEST_CASE("timeline cli: the multi-team example day runs and passes", "[timeline][cli]") {
    auto r = run_cli("simulate " + example("examples/multi-team") + " --scenario " + example("examples/timeline/multi-team-day.yaml"));
    INFO(r.err);
    CHECK(r.exit == 0);
    CHECK(r.out.find("Timeline of ") != std::string::npos);
    CHECK(r.out.find("llm-pretrain") != std::string::npos);
    CHECK(r.out.find("nvidia.com/gpu") != std::string::npos);
    CHECK(r.out.find("PASSED") != std::string::npos);
    CHECK(r.err.find("timeline.samples-ignored") != std::string::npos);

    auto j = run_cli("simulate " + example("examples/multi-team") + " --scenario " +
                     example("examples/timeline/multi-team-day.yaml") + " -o json --series-points 10");
    REQUIRE(j.exit == 0);
    auto doc = nlohmann::json::parse(j.out);
    CHECK(doc["kind"] == "TimelineReport");
    CHECK(doc["workloads"] == 116);
    CHECK(doc["passed"] == true);
    CHECK(doc["clusterQueueClasses"][0]["usage"]["percent"].size() == 10);
    auto again = run_cli("simulate " + example("examples/multi-team") + " --scenario " +
                         example("examples/timeline/multi-team-day.yaml") + " -o json --series-points 10");
    CHECK(again.out == j.out);
}

TEST_CASE("timeline cli: failed thresholds exit 1 and show in JUnit", "[timeline][cli]") {
    qf_test::TempDir tmp;
    qf_test::write_text(tmp.path / "range.yaml", "wlClassesMaxAvgTimeToAdmissionMs:\n  llm-pretrain: 1000\n");
    auto args = "simulate " + example("examples/multi-team") + " --scenario " + example("examples/timeline/multi-team-day.yaml") +
                " --thresholds " + shell_quote((tmp.path / "range.yaml").string());
    auto r = run_cli(args);
    CHECK(r.exit == 1);
    CHECK(r.out.find("FAILED  wlClassesMaxAvgTimeToAdmissionMs.llm-pretrain") != std::string::npos);
    CHECK(r.err.find("range.yaml:2:3: error: threshold not met") != std::string::npos);
    auto j = run_cli(args + " -o junit");
    CHECK(j.exit == 1);
    CHECK(j.out.find("<failure") != std::string::npos);
    CHECK(j.out.find("Threshold/wlClassesMaxAvgTimeToAdmissionMs.llm-pretrain") != std::string::npos);
}

TEST_CASE("timeline cli: usage errors and unreadable scenarios", "[timeline][cli]") {
    CHECK(run_cli("simulate --thresholds x.yaml").exit == 2);
    CHECK(run_cli("simulate --scenario x.yaml --cycles 2").exit == 2);
    CHECK(run_cli("simulate --scenario x.yaml -o yaml").exit == 2);
    CHECK(run_cli("simulate --scenario x.yaml --series-points 0").exit == 2);
    auto r = run_cli("simulate --scenario /nonexistent/generator.yaml");
    CHECK(r.exit == 2);  // a command-line path that cannot be read
    CHECK(r.err.find("/nonexistent/generator.yaml") != std::string::npos);
    CHECK(r.out.empty());
    qf_test::TempDir tmp;
    qf_test::write_text(tmp.path / "s.yaml", "cohorts:\n- className: c\n  count: 1\n  queuesSets: 3\n");
    r = run_cli("simulate --scenario " + shell_quote((tmp.path / "s.yaml").string()));
    CHECK(r.exit == 1);
    CHECK(r.err.find("s.yaml:4:15: error: cohorts[0].queuesSets: expected a list") != std::string::npos);
    CHECK(r.out.empty());
}

TEST_CASE("timeline cli: --events lists the event log, --max-events bounds it, usage errors exit 2", "[timeline][cli][events]") {
    qf_test::TempDir tmp;
    qf_test::write_text(tmp.path / "s.yaml", qf_timeline::kPreemptWithinQueue);
    const std::string s = shell_quote((tmp.path / "s.yaml").string());
    auto r = run_cli("simulate --scenario " + s + " --events");
    INFO(r.err);
    CHECK(r.exit == 0);
    CHECK(r.out.rfind("TIME(ms)     EVENT", 0) == 0);
    CHECK(r.out.find("300          Preempted  InClusterQueue") != std::string::npos);
    auto capped = run_cli("simulate --scenario " + s + " --events --max-events 2");
    CHECK(capped.exit == 0);
    CHECK(capped.out.find("(6 more events of 8 not kept: raise --max-events)") != std::string::npos);
    auto j = run_cli("simulate --scenario " + s + " -o json --max-events 1");
    REQUIRE(j.exit == 0);
    auto doc = nlohmann::json::parse(j.out);
    CHECK(doc["events"].size() == 1);
    CHECK(doc["eventsDropped"] == 7);
    CHECK(run_cli("simulate --scenario " + s + " --events -o json").exit == 2);
    CHECK(run_cli("simulate --scenario " + s + " --max-events -1").exit == 2);
    CHECK(run_cli("simulate " + example("examples/multi-team") + " --events").exit == 2);
}

TEST_CASE("timeline cli: a negative or unparsable podsReadyMs is a positioned error, exit 1", "[timeline][cli][podsready]") {
    qf_test::TempDir tmp;
    qf_test::write_text(tmp.path / "s.yaml", qf_timeline::one_queue(2, R"(    - count: 1
      creationIntervalMs: 100
      workloads:
      - {className: low, runtimeMs: 1000, request: 2, podsReadyMs: -1}
)"));
    auto r = run_cli("simulate --scenario " + shell_quote((tmp.path / "s.yaml").string()));
    CHECK(r.exit == 1);
    CHECK(r.err.find("s.yaml:12:") != std::string::npos);
    CHECK(r.err.find("podsReadyMs") != std::string::npos);
}
