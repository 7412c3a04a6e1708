// One exit-code policy for every command (README, "Exit codes"): 0 when no
// finding reaches the fail level, 1 when one does (invalid input included),
// 2 for usage errors and unreadable command-line paths, 70 for an internal
// error. Rule configuration through the CLI: .queueforge.yaml, --config,
// --no-config, --disable, --enable.
#include "test_util.hpp"

#include <catch2/catch.hpp>

namespace {

using qf_test::run_cli;
using qf_test::run_cli_in;
using qf_test::shell_quote;

std::string ex(const char* rel) { return shell_quote((qf_test::source_dir() / "examples" / rel).string()); }

const char* kBrokenSite = R"(apiVersion: queueforge.io/v1alpha1
kind: Site
metadata: {name: broken}
spec:
  target: kueue-0.13
  pools: [{name: gpu}]
  teams:
    - name: a
      namespaces: [a]
      quota: [{pool: nowhere, nominal: {cpu: 1}}]
)";

// A sample that can never be admitted: more GPUs than the whole quota.
const char* kTooBigSite = R"(apiVersion: queueforge.io/v1alpha1
kind: Site
metadata: {name: too-big}
spec:
  target: kueue-0.13
  pools: [{name: gpu}]
  teams:
    - name: a
      namespaces: [a]
      quota: [{pool: gpu, nominal: {cpu: 8, nvidia.com/gpu: 4}}]
  workloads:
    - name: huge
      namespace: a
      podSets: [{name: main, count: 1, requests: {cpu: 1, nvidia.com/gpu: 8}}]
)";

const char* kTenantQueue = R"(apiVersion: kueue.x-k8s.io/v1beta1
kind: LocalQueue
metadata: {name: team-a-queue, namespace: team-a}
spec: {clusterQueue: team-a}
)";

}  // namespace

TEST_CASE("exit codes: build, capacity, report, explain", "[cli][exit-codes]") {
    qf_test::TempDir tmp;
    qf_test::write_text(tmp.path / "broken/queueforge-site.yaml", kBrokenSite);
    const std::string broken = shell_quote((tmp.path / "broken").string());
    const std::string missing = shell_quote((tmp.path / "missing").string());
    for (const char* cmd : {"build", "capacity"}) {
        INFO(cmd);
        CHECK(run_cli(std::string(cmd) + " " + ex("multi-team")).exit == 0);
        auto bad = run_cli(std::string(cmd) + " " + broken);
        CHECK(bad.exit == 1);
        CHECK(bad.err.find("queueforge-site.yaml:10:") != std::string::npos);
        CHECK(run_cli(std::string(cmd) + " " + missing).exit == 2);
        CHECK(run_cli(std::string(cmd) + " --no-such-flag").exit == 2);
    }
    const std::string html = shell_quote((tmp.path / "r.html").string());
    CHECK(run_cli("report " + ex("multi-team") + " -o " + html).exit == 0);
    CHECK(run_cli("report " + broken + " -o " + html).exit == 1);
    CHECK(run_cli("report " + missing + " -o " + html).exit == 2);
    CHECK(run_cli("report " + ex("multi-team")).exit == 2);  // -o is required
    CHECK(run_cli("explain ClusterQueue/llm " + ex("multi-team")).exit == 0);
    CHECK(run_cli("explain ClusterQueue/nope " + ex("multi-team")).exit == 1);
    CHECK(run_cli("explain").exit == 2);
}

TEST_CASE("exit codes: validate, check, simulate", "[cli][exit-codes]") {
    qf_test::TempDir tmp;
    qf_test::write_text(tmp.path / "broken/queueforge-site.yaml", kBrokenSite);
    qf_test::write_text(tmp.path / "too-big/queueforge-site.yaml", kTooBigSite);
    const std::string broken = shell_quote((tmp.path / "broken").string());
    const std::string too_big = shell_quote((tmp.path / "too-big").string());
    const std::string missing = shell_quote((tmp.path / "missing.yaml").string());
    CHECK(run_cli("validate " + ex("seed-minimal")).exit == 0);
    CHECK(run_cli("validate " + broken).exit == 1);
    CHECK(run_cli("validate " + missing).exit == 2);
    CHECK(run_cli("validate").exit == 2);
    CHECK(run_cli("check " + ex("multi-team")).exit == 0);
    CHECK(run_cli("check " + broken).exit == 1);
    CHECK(run_cli("check " + missing).exit == 2);
    CHECK(run_cli("check -o nonsense " + ex("multi-team")).exit == 2);
    CHECK(run_cli("simulate " + ex("multi-team")).exit == 0);
    CHECK(run_cli("simulate " + broken).exit == 1);
    CHECK(run_cli("simulate " + missing).exit == 2);
    auto never = run_cli("simulate " + too_big);
    CHECK(never.exit == 1);
    CHECK(run_cli("check " + too_big).exit == 1);
    // The gate levels the simulator's findings like any other.
    CHECK(run_cli("simulate --disable sim.never-admitted " + too_big).exit == 0);
    CHECK(run_cli("check --disable sim.never-admitted " + too_big).exit == 0);
    auto sarif = run_cli("simulate -o sarif " + too_big);
    CHECK(sarif.exit == 1);
    CHECK(sarif.out.find("\"sim.never-admitted\"") != std::string::npos);
}

TEST_CASE("exit codes: import, init, generate, rules, schema, version, diff", "[cli][exit-codes]") {
    qf_test::TempDir tmp;
    auto rendered = tmp.path / "rendered";
    REQUIRE(run_cli("build " + ex("seed-minimal") + " -o " + shell_quote(rendered.string())).exit == 0);
    CHECK(run_cli("import " + shell_quote(rendered.string())).exit == 0);
    CHECK(run_cli("import " + shell_quote((tmp.path / "nothing-here").string())).exit == 2);
    qf_test::write_text(tmp.path / "conflict/a.yaml",
                        "apiVersion: kueue.x-k8s.io/v1beta1\nkind: ResourceFlavor\nmetadata: {name: f}\nspec: {nodeLabels: {a: b}}\n");
    qf_test::write_text(tmp.path / "conflict/b.yaml",
                        "apiVersion: kueue.x-k8s.io/v1beta1\nkind: ResourceFlavor\nmetadata: {name: f}\nspec: {nodeLabels: {a: c}}\n");
    CHECK(run_cli("import " + shell_quote((tmp.path / "conflict").string())).exit == 1);
    CHECK(run_cli("init " + shell_quote((tmp.path / "new").string())).exit == 0);
    CHECK(run_cli("init " + shell_quote((tmp.path / "new").string())).exit == 1);  // exists
    CHECK(run_cli("init --template nope " + shell_quote((tmp.path / "other").string())).exit == 2);
    CHECK(run_cli_in(qf_test::source_dir() / "examples/multi-team", "generate").exit == 0);
    qf_test::write_text(tmp.path / "app/queueforge-site.yaml", kBrokenSite);
    CHECK(run_cli_in(tmp.path / "app", "generate").exit == 1);
    CHECK(run_cli_in(qf_test::source_dir() / "examples/multi-team", "cmp-parameters").exit == 0);
    CHECK(run_cli("rules").exit == 0);
    CHECK(run_cli("rules xref.missing-flavor").exit == 0);
    auto unknown = run_cli("rules xref.missing-flavour");
    CHECK(unknown.exit == 1);
    CHECK(unknown.err.find("did you mean \"xref.missing-flavor\"") != std::string::npos);
    CHECK(run_cli("schema").exit == 0);
    CHECK(run_cli("version").exit == 0);
    CHECK(run_cli("--version").exit == 0);
    CHECK(run_cli("diff").exit == 2);  // --base is required
    CHECK(run_cli("").exit == 2);
    CHECK(run_cli("no-such-command").exit == 2);
}

TEST_CASE("exit codes: whatever escapes a command is one internal-error line and exit 70", "[cli][exit-codes]") {
    // QUEUEFORGE_TEST_INTERNAL_ERROR makes the command throw before it runs.
    qf_test::TempDir tmp;
    const std::string cmd = "QUEUEFORGE_TEST_INTERNAL_ERROR=1 " + shell_quote(QF_BINARY) + " version >" +
                            shell_quote((tmp.path / "out").string()) + " 2>" + shell_quote((tmp.path / "err").string());
    const int status = std::system(cmd.c_str());
    REQUIRE(WIFEXITED(status));  // not a signal, no core dump
    CHECK(WEXITSTATUS(status) == 70);
    CHECK(qf_test::read_text(tmp.path / "out").empty());
    CHECK(qf_test::read_text(tmp.path / "err") ==
          "queueforge version: internal error: fault injected for a test (please report this with the input that "
          "caused it)\n");
    CHECK(run_cli("version").exit == 0);  // and only then
}

TEST_CASE("rule configuration from the command line and .queueforge.yaml", "[cli][gate]") {
    qf_test::TempDir tmp;
    qf_test::write_text(tmp.path / "tenant/queues/lq.yaml", kTenantQueue);
    // A tenant repository holding only LocalQueues: the reference is a note.
    auto plain = run_cli_in(tmp.path / "tenant", "validate queues/");
    INFO(plain.out << plain.err);
    CHECK(plain.exit == 0);
    CHECK(plain.out.find("note:") != std::string::npos);
    // .queueforge.yaml in the working folder re-levels it.
    qf_test::write_text(tmp.path / "tenant/.queueforge.yaml", "rules:\n  xref.missing-clusterqueue: error\n");
    auto strict = run_cli_in(tmp.path / "tenant", "validate queues/");
    CHECK(strict.exit == 1);
    CHECK(strict.out.find("error:") != std::string::npos);
    // Found from a subfolder too.
    CHECK(run_cli_in(tmp.path / "tenant/queues", "validate lq.yaml").exit == 1);
    CHECK(run_cli_in(tmp.path / "tenant", "validate --no-config queues/").exit == 0);
    CHECK(run_cli_in(tmp.path / "tenant", "validate --disable xref.missing-clusterqueue queues/").exit == 0);
    // Per-path override.
    qf_test::write_text(tmp.path / "tenant/.queueforge.yaml",
                        "rules:\n  xref.missing-clusterqueue: error\noverrides:\n  - files: [\"queues/**\"]\n    rules:\n"
                        "      xref.missing-clusterqueue: \"off\"\n");
    auto over = run_cli_in(tmp.path / "tenant", "validate queues/");
    CHECK(over.exit == 0);
    CHECK(over.out.find("xref.missing-clusterqueue") == std::string::npos);
    // --config names another file; an unreadable one is exit 2, a broken one 1.
    qf_test::write_text(tmp.path / "other.yaml", "rules:\n  xref.missing-clusterqueue: warning\n");
    auto other = run_cli_in(tmp.path / "tenant", "validate --config ../other.yaml --fail-level warning queues/");
    CHECK(other.exit == 1);
    CHECK(run_cli_in(tmp.path / "tenant", "validate --config ../nope.yaml queues/").exit == 2);
    qf_test::write_text(tmp.path / "bad.yaml", "rules:\n  V24: loud\n");
    auto bad = run_cli_in(tmp.path / "tenant", "validate --config ../bad.yaml queues/");
    CHECK(bad.exit == 1);
    CHECK(bad.err.find("bad.yaml:2:") != std::string::npos);
    // The annotation suppresses a finding, and says so.
    qf_test::write_text(tmp.path / "typo/q.yaml", std::string(kTenantQueue) + R"(---
apiVersion: kueue.x-k8s.io/v1beta1
kind: ClusterQueue
metadata:
  name: team-b
  annotations: {queueforge.io/ignore: "xref.all-namespaces"}
spec: {namespaceSelector: {}}
)");
    auto typo = run_cli("validate " + shell_quote((tmp.path / "typo").string()));
    CHECK(typo.exit == 1);  // team-a is not among the ClusterQueues present: a typo
    qf_test::write_text(tmp.path / "typo2/q.yaml", std::string(R"(apiVersion: kueue.x-k8s.io/v1beta1
kind: LocalQueue
metadata:
  name: team-a-queue
  namespace: team-a
  annotations: {queueforge.io/ignore: xref.missing-clusterqueue}
spec: {clusterQueue: team-a}
---
apiVersion: kueue.x-k8s.io/v1beta1
kind: ClusterQueue
metadata: {name: team-b}
spec: {namespaceSelector: {}}
)"));
    auto suppressed = run_cli("validate " + shell_quote((tmp.path / "typo2").string()));
    INFO(suppressed.out);
    CHECK(suppressed.exit == 0);
    CHECK(suppressed.out.find("1 finding suppressed by queueforge.io/ignore: xref.missing-clusterqueue") !=
          std::string::npos);
    // JSON prints no source line, so validate lets go of the inputs' texts,
    // but not of one the gate reads its annotations from.
    auto suppressed_json = run_cli("validate -o json " + shell_quote((tmp.path / "typo2").string()));
    INFO(suppressed_json.out);
    CHECK(suppressed_json.exit == 0);
    CHECK(suppressed_json.out.find("\"xref.missing-clusterqueue\"") == std::string::npos);
    // SARIF describes each rule from the catalogue.
    auto sarif = run_cli("validate -o sarif " + shell_quote((tmp.path / "typo").string()));
    CHECK(sarif.out.find("\"shortDescription\"") != std::string::npos);
    CHECK(sarif.out.find("\"helpUri\": \"https://queueforge.io/docs/rules.md#xref-missing-clusterqueue\"") !=
          std::string::npos);
}

TEST_CASE("check --rendered reports drift even when a sample fails", "[cli][check][defects]") {
    qf_test::TempDir tmp;
    const auto site = tmp.path / "too-big";
    qf_test::write_text(site / "queueforge-site.yaml", kTooBigSite);
    REQUIRE(run_cli("build " + shell_quote(site.string()) + " -o " + shell_quote((site / "rendered").string())).exit == 0);
    // The site changes; the committed rendered output does not.
    std::string changed = kTooBigSite;
    changed.replace(changed.find("nvidia.com/gpu: 4}"), 18, "nvidia.com/gpu: 2}");
    qf_test::write_text(site / "queueforge-site.yaml", changed);
    auto r = run_cli("check -o json " + shell_quote(site.string()) + " --rendered " + shell_quote((site / "rendered").string()));
    INFO(r.out << r.err);
    CHECK(r.exit == 1);
    CHECK(r.out.find("\"sim.never-admitted\"") != std::string::npos);
    CHECK(r.out.find("\"drift.changed\"") != std::string::npos);
}
