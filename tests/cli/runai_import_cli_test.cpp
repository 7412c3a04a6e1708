// queueforge import --from runai on the command line: exit codes, positioned
// messages, where the site and the report go.
#include "test_util.hpp"

#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

namespace fs = std::filesystem;

TEST_CASE("import --from runai: the example imports, and the site validates", "[cli][runai]") {
    qf_test::TempDir dir;
    const std::string example = (qf_test::source_dir() / "examples/runai/export.yaml").string();
    const std::string site = (dir.path / "site.yaml").string();
    const std::string json = (dir.path / "report.json").string();
    auto r = qf_test::run_cli("import --from runai " + example + " -o " + site + " --report " + json);
    INFO(r.err);
    REQUIRE(r.exit == 0);
    CHECK(r.out.empty());
    CHECK_THAT(r.err, Catch::Contains("2 node pools, 2 departments, 4 projects -> 4 teams for target rhoai-3.5"));
    auto j = nlohmann::json::parse(qf_test::read_text(json));
    CHECK(j["fidelity"].size() > 20);
    REQUIRE(j["comparisons"].size() == 1);
    CHECK(j["comparisons"][0]["rows"].size() == 8);
    auto v = qf_test::run_cli("validate " + site);
    INFO(v.out << v.err);
    CHECK(v.exit == 0);
}

TEST_CASE("import --from runai: bad input exits 1 with file:line:col, nothing written", "[cli][runai]") {
    qf_test::TempDir dir;
    const std::string in = (dir.path / "export.yaml").string();
    const std::string site = (dir.path / "site.yaml").string();
    qf_test::write_text(in, "nodePools:\n  - {name: h100, labelKey: k, labelValue: v}\nprojects:\n  - name: llm\n"
                            "    resources: [{nodePool: {name: h100}, gpu: {deserved: 2, limit: 1}}]\n");
    auto r = qf_test::run_cli("import --from runai " + in + " -o " + site);
    CHECK(r.exit == 1);
    CHECK_THAT(r.err, Catch::Contains("export.yaml:4:5: error: project \"llm\" has no namespace"));
    CHECK_THAT(r.err, Catch::Contains("export.yaml:5:68: error: project \"llm\", node pool \"h100\", gpu.limit: 1 is below deserved 2"));
    CHECK_FALSE(fs::exists(site));
}

TEST_CASE("import --from runai: usage errors exit 2", "[cli][runai]") {
    CHECK(qf_test::run_cli("import --from runai /nonexistent/export.yaml").exit == 2);
    CHECK(qf_test::run_cli("import --from slurm x.yaml").exit == 2);
    const std::string example = (qf_test::source_dir() / "examples/runai/export.yaml").string();
    CHECK(qf_test::run_cli("import --from runai " + example + " --runai-weights median").exit == 2);
    qf_test::TempDir dir;
    auto r = qf_test::run_cli("import --from runai " + example + " --into " + dir.path.string());
    CHECK(r.exit == 2);
    CHECK_THAT(r.err, Catch::Contains("with --from runai use -o"));
}

TEST_CASE("report --runai: the site's HTML report gains the migration section", "[cli][runai]") {
    qf_test::TempDir dir;
    const std::string example = (qf_test::source_dir() / "examples/runai/export.yaml").string();
    const std::string demands = (qf_test::source_dir() / "examples/runai/demands.yaml").string();
    const std::string site = (dir.path / "site.yaml").string();
    const std::string html = (dir.path / "report.html").string();
    REQUIRE(qf_test::run_cli("import --from runai " + example + " -o " + site).exit == 0);
    auto r = qf_test::run_cli("report " + site + " --runai " + example + " --demands " + demands + " -o " + html);
    INFO(r.err);
    REQUIRE(r.exit == 0);
    const std::string text = qf_test::read_text(html);
    CHECK_THAT(text, Catch::Contains("<a href=\"#runai-migration\">Run:ai migration</a>"));
    CHECK_THAT(text, Catch::Contains("<section id=\"runai-migration\">"));
    CHECK_THAT(text, Catch::Contains("GPUs per project and node pool: everyone asks for everything"));
    CHECK_THAT(text, Catch::Contains("demands.yaml</h3>"));
    // A bad export fails the report, nothing written.
    const std::string bad = (dir.path / "bad.yaml").string();
    qf_test::write_text(bad, "projects:\n  - name: llm\n");
    const std::string html2 = (dir.path / "report2.html").string();
    auto b = qf_test::run_cli("report " + site + " --runai " + bad + " -o " + html2);
    CHECK(b.exit == 1);
    CHECK_THAT(b.err, Catch::Contains("project \"llm\" has no namespace"));
    CHECK_FALSE(fs::exists(html2));
}
