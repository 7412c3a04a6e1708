// The admin's authoring commands as a user runs them: import, explain,
// capacity and report through the binary, every command's help, and
// progress shown on a terminal only.
#include "test_util.hpp"

#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

#include <filesystem>

namespace fs = std::filesystem;
using qf_test::run_cli;
using qf_test::shell_quote;
using qf_test::source_dir;

namespace {

std::string example(const char* name) { return shell_quote((source_dir() / "examples" / name).string()); }

bool contains(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

}  // namespace

TEST_CASE("cli: every command's --help has examples and exit codes", "[cli]") {
    auto top = run_cli("--help");
    REQUIRE(top.exit == 0);
    for (const char* c : {"build", "validate", "simulate", "check", "diff", "generate", "cmp-parameters", "import",
                          "explain", "capacity", "report", "init", "schema", "version"}) {
        INFO(c);
        CHECK(contains(top.out, std::string("  ") + c + " "));
        auto help = run_cli(std::string(c) + " --help");
        CHECK(help.exit == 0);
        CHECK(contains(help.out, "Example"));
        CHECK(contains(help.out, "Exit codes"));
    }
}

TEST_CASE("cli: import of a rendered folder builds the same bytes again", "[cli][import]") {
    qf_test::TempDir tmp;
    for (const char* name : {"multi-team", "rhoai-3", "seed-minimal"}) {
        INFO(name);
        auto rendered = tmp.path / name / "rendered";
        auto site = tmp.path / name / "site.yaml";
        REQUIRE(run_cli("build " + example(name) + " -o " + shell_quote(rendered.string())).exit == 0);
        auto imp = run_cli("import " + shell_quote(rendered.string()) + " -o " + shell_quote(site.string()));
        INFO(imp.err);
        REQUIRE(imp.exit == 0);
        CHECK(imp.out.empty());
        // rhoai-3's 11 HardwareProfiles count the pools' GPUs, whose pool a
        // build's output does not name: they are kept whole (and rebuild the
        // same bytes below).
        CHECK(contains(imp.err, std::string(name) == "rhoai-3" ? " 11 kept whole in spec.passthrough"
                                                                : " 0 kept whole in spec.passthrough"));
        auto again = run_cli("build --no-header " + shell_quote(site.string()));
        auto original = run_cli("build --no-header " + example(name));
        REQUIRE(again.exit == 0);
        CHECK(again.out == original.out);
    }
    // From stdin, to stdout: a kubectl-style stream.
    auto stream = run_cli("build " + example("multi-team"));
    auto imp = run_cli("import -", stream.out);
    REQUIRE(imp.exit == 0);
    CHECK(imp.out.starts_with("# Written by queueforge import."));
    CHECK(contains(imp.out, "kind: Site\n"));
}

TEST_CASE("cli: import keeps unknown kinds with a warning, --strict fails, nothing half-written", "[cli][import]") {
    const std::string dump = R"(apiVersion: v1
kind: List
items:
  - apiVersion: kueue.x-k8s.io/v1beta1
    kind: ResourceFlavor
    metadata: {name: gpu, resourceVersion: "12", uid: 1b2c, managedFields: [{manager: kubectl}]}
    spec: {nodeLabels: {pool: gpu}}
  - apiVersion: monitoring.coreos.com/v1
    kind: PrometheusRule
    metadata: {name: kueue-alerts, namespace: kueue-system}
    spec: {groups: []}
)";
    auto r = run_cli("import -", dump);
    INFO(r.err);
    REQUIRE(r.exit == 0);
    CHECK(contains(r.err, "PrometheusRule"));
    CHECK(contains(r.err, "warning"));
    CHECK(contains(r.out, "passthrough:"));
    CHECK_FALSE(contains(r.out, "managedFields"));
    CHECK_FALSE(contains(r.out, "resourceVersion"));
    CHECK(run_cli("import --strict -", dump).exit == 1);

    qf_test::TempDir tmp;
    auto target = tmp.path / "missing" / "site.yaml";
    auto bad = run_cli("import - -o " + shell_quote(target.string()), dump);
    CHECK(bad.exit == 1);
    CHECK_FALSE(fs::exists(tmp.path / "missing"));
    CHECK(run_cli("import " + shell_quote((tmp.path / "nope.yaml").string())).exit == 2);
    CHECK(run_cli("import -", "").exit == 1);  // nothing to import
}

TEST_CASE("cli: explain answers with the site position and the rule", "[cli][explain]") {
    auto r = run_cli("explain ClusterQueue/llm 'spec.resourceGroups[0].flavors[0].resources[0].nominalQuota' " +
                     example("multi-team"));
    INFO(r.err);
    REQUIRE(r.exit == 0);
    CHECK(contains(r.out, "queueforge-site.yaml:54:26: 50% of pool h100 (4 nodes × 112 cpu = 448) = 224"));
    CHECK(r.err.empty());  // the site's notes belong to build and check

    auto j = run_cli("explain cq/llm spec.preemption -o json " + example("multi-team"));
    REQUIRE(j.exit == 0);
    auto doc = nlohmann::json::parse(j.out);
    CHECK(doc["fields"][1]["derivation"] == "teamDefaults");

    auto unknown = run_cli("explain cq/lllm " + example("multi-team"));
    CHECK(unknown.exit == 1);
    CHECK(contains(unknown.err, "did you mean ClusterQueue/llm?"));
    auto field = run_cli("explain cq/llm spec.nope " + example("multi-team"));
    CHECK(field.exit == 1);
    CHECK(contains(field.err, "no field spec.nope"));
    CHECK(run_cli("explain llm " + example("multi-team")).exit == 2);
    CHECK(run_cli("explain cq/llm -o yaml " + example("multi-team")).exit == 2);

    qf_test::TempDir tmp;
    qf_test::write_text(tmp.path / "queueforge-site.yaml", "apiVersion: queueforge.io/v1alpha1\nkind: Site\n");
    auto invalid = run_cli("explain cq/llm " + shell_quote(tmp.path.string()));
    CHECK(invalid.exit == 1);
    CHECK(contains(invalid.err, "queueforge-site.yaml:"));
}

TEST_CASE("cli: capacity in text and JSON", "[cli][capacity]") {
    auto t = run_cli("capacity " + example("multi-team"));
    INFO(t.err);
    REQUIRE(t.exit == 0);
    CHECK(t.out == qf_test::read_text(source_dir() / "tests/golden/multi-team.capacity.txt"));
    auto j = run_cli("capacity -o json " + example("multi-team"));
    REQUIRE(j.exit == 0);
    auto doc = nlohmann::json::parse(j.out);
    CHECK(doc["kind"] == "CapacityReport");
    CHECK(doc["teams"][0]["quota"][2]["largestPod"] == "8");
    CHECK(run_cli("capacity -o xml " + example("multi-team")).exit == 2);
    qf_test::TempDir tmp;
    CHECK(run_cli("capacity " + shell_quote(tmp.path.string())).exit == 2);  // no site there: an unreadable path
}

TEST_CASE("cli: report writes one HTML file, or nothing", "[cli][report]") {
    qf_test::TempDir tmp;
    auto out = tmp.path / "report.html";
    auto r = run_cli("report " + example("multi-team") + " -o " + shell_quote(out.string()));
    INFO(r.err);
    REQUIRE(r.exit == 0);
    auto html = qf_test::read_text(out);
    CHECK(html.starts_with("<!DOCTYPE html>"));
    CHECK_FALSE(contains(html, "<script"));
    auto again = run_cli("report " + example("multi-team") + " -o -");
    CHECK(again.out == html);
    auto missing = tmp.path / "no" / "report.html";
    CHECK(run_cli("report " + example("multi-team") + " -o " + shell_quote(missing.string())).exit == 1);
    CHECK_FALSE(fs::exists(tmp.path / "no"));
}

TEST_CASE("cli: import shows progress on a terminal only", "[cli][import]") {
    qf_test::TempDir tmp;
    auto rendered = tmp.path / "rendered";
    REQUIRE(run_cli("build " + example("multi-team") + " -o " + shell_quote(rendered.string())).exit == 0);
    const std::string args = "import " + shell_quote(rendered.string()) + " -o " + shell_quote((tmp.path / "s.yaml").string());
    auto piped = run_cli(args);
    REQUIRE(piped.exit == 0);
    CHECK_FALSE(contains(piped.err, "\r"));
    // util-linux's script(1) runs the command on a pseudo-terminal.
    if (std::system("command -v script >/dev/null 2>&1") != 0) {
        WARN("skipped: script(1) is not installed");
        return;
    }
    auto log = tmp.path / "tty.log";
    std::string cmd = "script -qec " + shell_quote(shell_quote(QF_BINARY) + " " + args) + " " +
                      shell_quote(log.string()) + " >/dev/null 2>&1 </dev/null";
    REQUIRE(std::system(cmd.c_str()) == 0);
    auto seen = qf_test::read_text(log);
    CHECK(contains(seen, "queueforge import: reading manifests"));
    CHECK(contains(seen, "queueforge import: inferring the site from 32 objects"));
    CHECK(contains(seen, "\r\033[K"));
}

TEST_CASE("cli: diagnostics are coloured on a terminal only, and never with NO_COLOR", "[cli]") {
    auto piped = run_cli("build " + example("multi-team"));
    REQUIRE(piped.exit == 0);
    CHECK(contains(piped.err, ": note: "));
    CHECK_FALSE(contains(piped.err, "\x1b["));
    if (std::system("command -v script >/dev/null 2>&1") != 0) {
        WARN("skipped: script(1) is not installed");
        return;
    }
    qf_test::TempDir tmp;
    auto on_tty = [&](const std::string& env) {
        auto log = tmp.path / "tty.log";
        std::string cmd = env + "script -qec " + shell_quote(shell_quote(QF_BINARY) + " build " + example("multi-team") +
                                                       " -o " + shell_quote((tmp.path / "out").string())) +
                          " " + shell_quote(log.string()) + " >/dev/null 2>&1 </dev/null";
        REQUIRE(std::system(cmd.c_str()) == 0);
        return qf_test::read_text(log);
    };
    auto coloured = on_tty("");
    CHECK(contains(coloured, "\x1b[01;36mnote\x1b[0m: cohort \"research\""));
    auto plain = on_tty("NO_COLOR=1 ");
    CHECK(contains(plain, ": note: cohort \"research\""));
    CHECK_FALSE(contains(plain, "\x1b["));
}

TEST_CASE("cli: the README shows the capacity table multi-team has today", "[cli][capacity]") {
    auto readme = qf_test::read_text(source_dir() / "README.md");
    auto table = qf_test::read_text(source_dir() / "tests/golden/multi-team.capacity.txt");
    CHECK(contains(readme, "$ queueforge capacity examples/multi-team\n" + table + "```"));
    CHECK(contains(readme, "](docs/multi-team-report.png)"));
    CHECK(fs::exists(source_dir() / "docs/multi-team-report.png"));
}
