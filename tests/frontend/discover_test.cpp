// Repositories, not files: every site beneath the paths is one cluster,
// compiled, validated and simulated on its own (discover.hpp; issue 13).
#include "test_util.hpp"

#include <queueforge/frontend/discover.hpp>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <filesystem>

using qf_test::run_cli_in;
using qf_test::shell_quote;
namespace fs = std::filesystem;

namespace {

// prod and staging share pool, flavor and team names: merged, they would be
// "defined twice".
std::string site_text(const std::string& name, const std::string& cpu = "16") {
    return R"(apiVersion: queueforge.io/v1alpha1
kind: Site
metadata: {name: )" + name + R"(}
spec:
  target: kueue-0.19
  pools:
    - {name: a100, nodes: 1, allocatable: {cpu: 16, nvidia.com/gpu: 4}}
  teams:
    - name: team-a
      namespaces: [team-a]
      quota: [{pool: a100, nominal: {cpu: )" + cpu + R"(, nvidia.com/gpu: 4}}]
  workloads:
    - name: small
      namespace: team-a
      podSets: [{name: main, count: 1, requests: {cpu: 4, nvidia.com/gpu: 2}}]
      expect: {status: Admitted, flavor: a100}
)";
}

// A repository with clusters/prod and clusters/staging.
struct Repo {
    qf_test::TempDir tmp;
    fs::path root() const { return tmp.path; }
    Repo() {
        fs::create_directories(tmp.path / ".git");
        qf_test::write_text(tmp.path / "clusters/prod/queueforge-site.yaml", site_text("prod"));
        qf_test::write_text(tmp.path / "clusters/staging/queueforge-site.yaml", site_text("staging"));
    }
};

bool every_site_line(const std::string& out, const std::string& errors) {
    return out.find("clusters/prod: " + errors) != std::string::npos &&
           out.find("clusters/staging: ") != std::string::npos;
}

}  // namespace

TEST_CASE("discover: check at the root, on clusters/ and on both sites checks each site alone", "[discover]") {
    Repo repo;
    for (const std::string args : {"check", "check .", "check clusters/", "check clusters/prod clusters/staging",
                                   "check clusters/staging clusters/prod"}) {
        INFO(args);
        auto r = run_cli_in(repo.root(), args);
        INFO(r.out << r.err);
        CHECK(r.exit == 0);
        CHECK(r.out.find("defined twice") == std::string::npos);
        CHECK(r.out.find("clusters/prod: 0 errors, 0 warnings\nclusters/staging: 0 errors, 0 warnings\n") !=
              std::string::npos);
    }
    // --as-one-cluster keeps the old merge: the shared names clash.
    auto merged = run_cli_in(repo.root(), "check --as-one-cluster clusters/prod clusters/staging");
    CHECK(merged.exit == 1);
    CHECK(merged.out.find("defined twice") != std::string::npos);
    // validate and simulate split the same way.
    CHECK(run_cli_in(repo.root(), "validate clusters/").exit == 0);
    CHECK(run_cli_in(repo.root(), "validate --as-one-cluster clusters/prod/queueforge-site.yaml "
                                  "clusters/staging/queueforge-site.yaml").exit == 1);
    auto sim = run_cli_in(repo.root(), "simulate -o json");
    INFO(sim.out << sim.err);
    REQUIRE(sim.exit == 0);
    auto j = nlohmann::json::parse(sim.out);
    REQUIRE(j["sites"].size() == 2);
    CHECK(j["sites"][0]["site"] == "clusters/prod");
    CHECK(j["sites"][1]["site"] == "clusters/staging");
}

TEST_CASE("discover: a genuine error in staging is reported under staging only", "[discover]") {
    Repo repo;
    qf_test::write_text(repo.root() / "clusters/staging/queueforge-site.yaml", site_text("staging", "-16"));
    auto text = run_cli_in(repo.root(), "check");
    INFO(text.out << text.err);
    CHECK(text.exit == 1);
    CHECK(text.out.find("clusters/prod: 0 errors, 0 warnings\n") != std::string::npos);
    CHECK(text.out.find("clusters/staging: 0 errors") == std::string::npos);
    CHECK(text.out.find("clusters/staging/queueforge-site.yaml:11:") != std::string::npos);

    auto json = run_cli_in(repo.root(), "check -o json");
    CHECK(json.exit == 1);
    auto j = nlohmann::json::parse(json.out);
    REQUIRE(!j["findings"].empty());
    for (const auto& f : j["findings"]) CHECK(f["site"] == "clusters/staging");

    auto sarif = run_cli_in(repo.root(), "check -o sarif");
    auto s = nlohmann::json::parse(sarif.out);
    REQUIRE(!s["runs"][0]["results"].empty());
    for (const auto& r : s["runs"][0]["results"]) CHECK(r["properties"]["site"] == "clusters/staging");

    auto junit = run_cli_in(repo.root(), "check -o junit");
    CHECK(junit.out.find("<testsuite name=\"clusters/staging: clusters/staging/queueforge-site.yaml\"") !=
          std::string::npos);
}

TEST_CASE("discover: two sites with the same metadata.name are an error naming both paths", "[discover]") {
    Repo repo;
    qf_test::write_text(repo.root() / "clusters/staging/queueforge-site.yaml", site_text("prod"));
    auto r = run_cli_in(repo.root(), "check");
    INFO(r.out << r.err);
    CHECK(r.exit == 1);
    CHECK(r.out.find("clusters/staging/queueforge-site.yaml:3:18: error: two sites are named \"prod\": "
                     "clusters/prod/queueforge-site.yaml:3:18 and clusters/staging/queueforge-site.yaml") !=
          std::string::npos);
    CHECK(r.out.find("[discover.duplicate-site-name]") != std::string::npos);
}

TEST_CASE("discover: .git, rendered folders, git-ignored and symlinked folders are skipped", "[discover]") {
    Repo repo;
    // Found, any of these would be a second site named "prod".
    const std::string broken = site_text("prod");
    qf_test::write_text(repo.root() / ".git/x/queueforge-site.yaml", broken);
    qf_test::write_text(repo.root() / ".gitignore", "# scratch space\nscratch/\n/clusters/tmp\n*.bak.yaml\n");
    qf_test::write_text(repo.root() / "scratch/queueforge-site.yaml", broken);
    qf_test::write_text(repo.root() / "clusters/scratch/queueforge-site.yaml", broken);
    qf_test::write_text(repo.root() / "clusters/tmp/queueforge-site.yaml", broken);
    qf_test::write_text(repo.root() / "clusters/old.bak.yaml", broken);
    fs::create_directory_symlink(repo.root() / "scratch", repo.root() / "clusters/link");

    // Render prod into its own folder, then put a site inside that folder.
    auto build = run_cli_in(repo.root(), "build . --output-per-site rendered");
    INFO(build.out << build.err);
    REQUIRE(build.exit == 0);
    REQUIRE(fs::exists(repo.root() / "clusters/prod/rendered/.queueforge-owned"));
    REQUIRE(fs::exists(repo.root() / "clusters/staging/rendered/.queueforge-owned"));
    qf_test::write_text(repo.root() / "clusters/prod/rendered/queueforge-site.yaml", broken);

    for (const std::string args : {"check", "check clusters"}) {
        INFO(args);
        auto r = run_cli_in(repo.root(), args);
        INFO(r.out << r.err);
        CHECK(r.exit == 0);
        CHECK(r.out.find("clusters/prod: 0 errors, 0 warnings\nclusters/staging: 0 errors, 0 warnings\n") !=
              std::string::npos);
        CHECK(r.out.find("clusters/prod/rendered/queueforge-site.yaml: warning:") != std::string::npos);
        CHECK(r.out.find("[discover.site-in-rendered-folder]") != std::string::npos);
        CHECK(r.out.find("two sites are named") == std::string::npos);
    }
    // Library view: the same two clusters, sorted, with their site files.
    queueforge::Diagnostics diags;
    auto clusters = queueforge::discover::find_clusters({(repo.root() / "clusters").string()}, {}, diags);
    REQUIRE(clusters.size() == 2);
    CHECK(clusters[0].site_file == (repo.root() / "clusters/prod/queueforge-site.yaml").generic_string());
    CHECK(clusters[1].label == (repo.root() / "clusters/staging").generic_string());
}

TEST_CASE("discover: a file of kind Site counts; plain manifests stay with a lone site", "[discover]") {
    qf_test::TempDir tmp;
    qf_test::write_text(tmp.path / "east.yaml", site_text("east"));
    qf_test::write_text(tmp.path / "west/cluster.yml", site_text("west"));
    qf_test::write_text(tmp.path / "notes.yaml", "kind: Site  # but not queueforge.io\napiVersion: v1\n");
    queueforge::Diagnostics diags;
    auto clusters = queueforge::discover::find_clusters({tmp.path.string()}, {}, diags);
    REQUIRE(clusters.size() == 2);
    CHECK(clusters[0].site_file == (tmp.path / "east.yaml").generic_string());
    CHECK(clusters[0].label == (tmp.path / "east.yaml").generic_string());
    CHECK(clusters[1].site_file == (tmp.path / "west/cluster.yml").generic_string());
    CHECK(diags.empty());

    // One site and a plain manifest file: one cluster, as before.
    qf_test::TempDir one;
    qf_test::write_text(one.path / "site/queueforge-site.yaml", site_text("s"));
    qf_test::write_text(one.path / "extra.yaml", "apiVersion: v1\nkind: Namespace\nmetadata: {name: x}\n");
    auto single = queueforge::discover::find_clusters({(one.path / "site").string(), (one.path / "extra.yaml").string()},
                                                      {}, diags);
    REQUIRE(single.size() == 1);
    CHECK(single[0].inputs.size() == 2);
}

TEST_CASE("discover: nesting past the depth limit is a clear error, not a crash", "[discover]") {
    qf_test::TempDir tmp;
    fs::path deep = tmp.path;
    for (int i = 0; i < 6; ++i) deep /= "d";
    fs::create_directories(deep);
    queueforge::Diagnostics diags;
    auto clusters = queueforge::discover::find_clusters({tmp.path.string()}, {.max_depth = 4}, diags);
    CHECK(clusters.empty());
    REQUIRE(diags.has_errors());
    CHECK(diags.all().front().rule == "discover.limit");
    CHECK(diags.all().front().message.find("deeper than 4") != std::string::npos);
    queueforge::Diagnostics many;
    CHECK(queueforge::discover::find_clusters({tmp.path.string()}, {.max_entries = 3}, many).empty());
    CHECK(many.has_errors());
}

TEST_CASE("discover: two site files in one folder render into folders of their own with --output-per-site", "[discover]") {
    // Before, both went to fleet/rendered and the second silently replaced the first.
    qf_test::TempDir tmp;
    fs::create_directories(tmp.path / ".git");
    qf_test::write_text(tmp.path / "fleet/east.yaml", site_text("east"));
    qf_test::write_text(tmp.path / "fleet/west.yaml", site_text("west"));
    auto r = run_cli_in(tmp.path, "build fleet --output-per-site rendered");
    INFO(r.out << r.err);
    REQUIRE(r.exit == 0);
    CHECK(fs::exists(tmp.path / "fleet/rendered/east/.queueforge-owned"));
    CHECK(fs::exists(tmp.path / "fleet/rendered/west/.queueforge-owned"));
    auto holds = [&](const std::string& site) {
        for (const auto& e : fs::directory_iterator(tmp.path / "fleet/rendered" / site))
            if (qf_test::read_text(e.path()).find("app.kubernetes.io/part-of: " + site + "\n") != std::string::npos) return true;
        return false;
    };
    CHECK(holds("east"));
    CHECK(holds("west"));
    CHECK(queueforge::discover::rendered_folder("fleet/east.yaml", "rendered") == "fleet/rendered/east");
    CHECK(queueforge::discover::rendered_folder("clusters/prod/queueforge-site.yaml", "out") == "clusters/prod/out");
    // The rendered folders are output: the repository still holds exactly two sites.
    auto again = run_cli_in(tmp.path, "check");
    INFO(again.out << again.err);
    CHECK(again.exit == 0);
    CHECK(again.out.find("fleet/east.yaml: 0 errors") != std::string::npos);
    CHECK(again.out.find("fleet/west.yaml: 0 errors") != std::string::npos);
}

TEST_CASE("discover: build refuses several sites with one output, writes each with --output-per-site", "[discover]") {
    Repo repo;
    auto one_out = run_cli_in(repo.root(), "build clusters -o out");
    CHECK(one_out.exit == 2);
    CHECK(one_out.err.find("--output-per-site") != std::string::npos);
    CHECK(run_cli_in(repo.root(), "build clusters").exit == 2);
    CHECK(run_cli_in(repo.root(), "build clusters/prod").exit == 0);
    CHECK(run_cli_in(repo.root(), "build clusters --output-per-site rendered --prune").exit == 0);
    CHECK(fs::exists(repo.root() / "clusters/prod/rendered/.queueforge-owned"));
    CHECK(fs::exists(repo.root() / "clusters/staging/rendered/.queueforge-owned"));
    CHECK(run_cli_in(repo.root(), "build --prune clusters/prod").exit == 2);
    // Rendered folders are output: a second check still sees exactly two sites.
    auto again = run_cli_in(repo.root(), "check");
    CHECK(again.exit == 0);
    CHECK(again.out.find("clusters/prod: 0 errors, 0 warnings\nclusters/staging: 0 errors, 0 warnings\n") !=
          std::string::npos);
    // capacity covers both; report wants one.
    auto cap = run_cli_in(repo.root(), "capacity clusters -o json");
    INFO(cap.out << cap.err);
    REQUIRE(cap.exit == 0);
    CHECK(nlohmann::json::parse(cap.out)["sites"].size() == 2);
    CHECK(run_cli_in(repo.root(), "report clusters -o -").exit == 2);
    CHECK(run_cli_in(repo.root(), "report clusters/prod -o -").exit == 0);
}
