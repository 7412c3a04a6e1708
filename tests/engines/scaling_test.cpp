// Paths that were quadratic in the input, held to linear time: a deep cohort
// chain (the cycle check walked every cohort to its root) and a timeline
// backlog (the queue manager moved every parked workload one at a time on each
// requeue). The bounds are several times what the fixed code needs on a busy
// 2-core machine and a fraction of what the old code took.
#include "test_util.hpp"

#include <queueforge/compile.hpp>
#include <queueforge/engines/timeline.hpp>

#include <catch2/catch.hpp>

#include <chrono>

using namespace queueforge;

namespace {

// The sanitizer build (CI stage 2: ASan and UBSan at -O0) runs this code
// several times slower; the bounds scale with it and still fail quadratic code
// (7 s per build before the fix, several times that under the sanitizers).
// The test files are not instrumented (tests/CMakeLists.txt), so the build
// says so with QF_SANITIZED: __SANITIZE_ADDRESS__ alone left the bound at 1×
// and a 10,000-deep chain took 3.4 s of its 3 under ASan in CI.
#if defined(__SANITIZE_ADDRESS__) || defined(QF_SANITIZED)
constexpr double kSlowdown = 10.0;
#else
constexpr double kSlowdown = 1.0;
#endif

double seconds_since(std::chrono::steady_clock::time_point t0) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

// Cohorts c0..c(n-1), each the parent of the next; c0's parent is `root`.
std::string chain_site(int n, const std::string& root) {
    std::string s = "apiVersion: queueforge.io/v1alpha1\nkind: Site\nmetadata:\n  name: chain\nspec:\n"
                    "  target: rhoai-3.5\n  pools:\n    - name: default-flavor\n  cohorts:\n";
    for (int i = 0; i < n; ++i) {
        s += "    - name: c" + std::to_string(i) + "\n";
        const std::string parent = i > 0 ? "c" + std::to_string(i - 1) : root;
        if (!parent.empty()) s += "      parent: " + parent + "\n";
    }
    s += "  teams:\n    - name: team-a\n      namespaces: [team-a]\n      cohort: c" + std::to_string(n - 1) +
         "\n      quota:\n        - pool: default-flavor\n          nominal: {cpu: 9, memory: 36Gi}\n";
    return s;
}

}  // namespace

TEST_CASE("build: a 10,000-deep cohort chain compiles in linear time", "[scale][lower]") {
    Diagnostics d;
    const auto t0 = std::chrono::steady_clock::now();
    auto lowered = compile_site("site.yaml", chain_site(10'000, ""), d);
    const double s = seconds_since(t0);
    INFO(render_text(d, {}));
    CHECK(lowered);
    CHECK(!d.has_errors());
    CHECK(s < 3.0 * kSlowdown);  // 7 s on an idle machine before the fix
}

TEST_CASE("build: a 10,000-cohort cycle is found once, at its first cohort", "[scale][lower]") {
    Diagnostics d;
    const auto t0 = std::chrono::steady_clock::now();
    compile_site("site.yaml", chain_site(10'000, "c9999"), d);
    const double s = seconds_since(t0);
    std::vector<Diagnostic> cycles;
    for (const auto& x : d.all())
        if (x.rule == "V45") cycles.push_back(x);
    REQUIRE(cycles.size() == 1);
    INFO(cycles[0].message);
    CHECK(cycles[0].message.starts_with("Cohort/c0: Cohort hierarchy has a cycle (c0 -> c9999 -> c9998 -> "));
    CHECK(cycles[0].message.ends_with(
        "-> c1 -> c0); the API accepts it, but cycles make every ClusterQueue in the cycle inactive: the scheduler "
        "admits nothing there while their status still looks ready (affected: ClusterQueue team-a)"));
    CHECK(s < 3.0 * kSlowdown);
}

TEST_CASE("timeline: 2 x 40,000 workloads arriving at once are scheduled in linear time", "[scale][timeline][slow]") {
    const std::string text = R"(cohorts:
- className: cohort
  count: 1
  queuesSets:
  - className: cq
    count: 2
    nominalQuota: 20
    borrowingLimit: 100
    reclaimWithinCohort: Any
    withinClusterQueue: LowerPriority
    workloadsSets:
    - count: 40000
      creationIntervalMs: 0
      workloads:
      - className: small
        runtimeMs: 200
        priority: 50
        request: 1
)";
    Diagnostics d;
    auto scenario = timeline::parse_scenario("scenario.yaml", text, d);
    REQUIRE(scenario);
    const auto t0 = std::chrono::steady_clock::now();
    const timeline::Report r = timeline::run(*scenario, {}, {}, d);
    const double s = seconds_since(t0);
    REQUIRE(r.workload_classes.size() == 1);
    CHECK(r.workload_classes[0].workloads == 80'000);
    CHECK(r.workload_classes[0].admitted == 80'000);
    CHECK(r.workload_classes[0].never_admitted == 0);
    CHECK(s < 20.0);  // 81 s before the fix
}
