// `queueforge check`: build + validate + simulate + drift in one report.
#include "test_util.hpp"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

using qf_test::run_cli;
using qf_test::shell_quote;

namespace {

const std::string kSite = R"(apiVersion: queueforge.io/v1alpha1
kind: Site
metadata: {name: s}
spec:
  target: kueue-0.19
  pools:
    - {name: gpu, nodes: 1, allocatable: {cpu: 16, nvidia.com/gpu: 4}}
  teams:
    - name: team-a
      namespaces: [team-a]
      quota: [{pool: gpu, nominal: {cpu: 16, nvidia.com/gpu: 4}}]
  workloads:
    - name: small
      namespace: team-a
      podSets: [{name: main, count: 1, requests: {cpu: 4, nvidia.com/gpu: 2}}]
      expect: {status: Admitted, flavor: gpu}
)";

}  // namespace

TEST_CASE("check: a good site passes, the example sites pass") {
    qf_test::TempDir tmp;
    qf_test::write_text(tmp.path / "queueforge-site.yaml", kSite);
    auto r = run_cli("check " + shell_quote(tmp.path.string()));
    INFO(r.out << r.err);
    CHECK(r.exit == 0);
    for (const char* ex : {"seed-minimal", "multi-team", "rhoai-3"}) {
        INFO(ex);
        CHECK(run_cli("check " + shell_quote((qf_test::source_dir() / "examples" / ex).string())).exit == 0);
    }
}

TEST_CASE("check: a bad quota, a failed expectation and drifted manifests each fail, with positions") {
    qf_test::TempDir tmp;
    std::string bad = kSite;
    bad.replace(bad.find("nominal: {cpu: 16"), 17, "nominal: {cpu: -16");
    qf_test::write_text(tmp.path / "bad/queueforge-site.yaml", bad);
    auto b = run_cli("check -o github " + shell_quote((tmp.path / "bad").string()));
    CHECK(b.exit == 1);
    CHECK(b.out.find("::error file=") != std::string::npos);
    CHECK(b.out.find("line=11") != std::string::npos);

    std::string wrong = kSite;
    wrong.replace(wrong.find("expect: {status: Admitted, flavor: gpu}"), 39, "expect: {status: Pending}");
    qf_test::write_text(tmp.path / "wrong/queueforge-site.yaml", wrong);
    auto w = run_cli("check -o json " + shell_quote((tmp.path / "wrong").string()));
    CHECK(w.exit == 1);
    auto j = nlohmann::json::parse(w.out);
    bool found = false;
    for (const auto& x : j["findings"])
        if (x["rule"] == "sim.expectation" && x["line"] == 13) found = true;
    CHECK(found);
    CHECK(run_cli("check --no-simulate " + shell_quote((tmp.path / "wrong").string())).exit == 0);

    qf_test::write_text(tmp.path / "good/queueforge-site.yaml", kSite);
    const std::string rendered = shell_quote((tmp.path / "rendered").string());
    const std::string good = shell_quote((tmp.path / "good").string());
    CHECK(run_cli("check --rendered " + rendered + " " + good).exit == 1);  // nothing rendered yet
    REQUIRE(run_cli("build -o " + rendered + " " + good).exit == 0);
    CHECK(run_cli("check --rendered " + rendered + " " + good).exit == 0);
    CHECK(run_cli("check -o yamlish " + good).exit == 2);
}

TEST_CASE("check and simulate: a sample's missing or looping file: is a positioned finding, exit 1", "[check][defects]") {
    for (const std::string name : {"missing.yaml", "loop.yaml"}) {
        INFO(name);
        qf_test::TempDir tmp;
        qf_test::write_text(tmp.path / "queueforge-site.yaml",
                            kSite + "    - name: from-file\n      namespace: team-a\n      file: " + name + "\n");
        if (name == "loop.yaml") std::filesystem::create_symlink("loop.yaml", tmp.path / "loop.yaml");
        for (const std::string cmd : {"check", "simulate"}) {
            INFO(cmd);
            auto r = run_cli(cmd + " " + shell_quote(tmp.path.string()));
            INFO(r.out << r.err);
            CHECK(r.exit == 1);
            // The `file:` value of the last entry: line 19 of the site, column 13.
            CHECK((r.out + r.err).find("queueforge-site.yaml:19:13: error: workload \"from-file\": cannot read \"" + name) !=
                  std::string::npos);
            CHECK((r.out + r.err).find("[site.workload-file]") != std::string::npos);
        }
    }
}
