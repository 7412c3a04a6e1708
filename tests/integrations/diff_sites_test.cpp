// queueforge diff over a repository of several clusters, with real git
// history: sites compared one by one (a prod-only quota cut shows under prod
// only), a shared job file under every site that reads it, sites added,
// removed and moved, --exit-code and --fail-on, and the one markdown comment.
#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

#include "git_util.hpp"

#include <queueforge/integrations/diff.hpp>

#include <filesystem>
#include <regex>

namespace fs = std::filesystem;
using qf_test::add_multi_team_site;
using qf_test::read_text;
using qf_test::replace_once;
using qf_test::sh;
using qf_test::TempDir;
using qf_test::write_text;

namespace {

// clusters/prod and clusters/staging, the same site under two names, committed.
void make_fleet(const fs::path& repo) {
    add_multi_team_site(repo / "clusters/prod", "prod");
    add_multi_team_site(repo / "clusters/staging", "staging");
    REQUIRE(sh(repo, "git init -q && git add -A && git commit -qm fleet").exit == 0);
}

const std::string kSearchA100 = "nominal: {cpu: 192, memory: 2000Gi, nvidia.com/gpu: 16}";
const std::string kSearchLend = "          lendingLimit: {nvidia.com/gpu: 8}\n        - pool: l40s\n";

// prod's search team loses its a100 GPUs; staging is untouched.
void cut_prod_quota(const fs::path& repo, const std::string& gpus = "0") {
    REQUIRE(replace_once(repo / "clusters/prod/queueforge-site.yaml", kSearchA100,
                         "nominal: {cpu: 192, memory: 2000Gi, nvidia.com/gpu: " + gpus + "}"));
    REQUIRE(replace_once(repo / "clusters/prod/queueforge-site.yaml", kSearchLend, "        - pool: l40s\n"));
}

// A running workload admitted to prod's search ClusterQueue on a100.
void write_running(const fs::path& file) {
    write_text(file, R"(apiVersion: kueue.x-k8s.io/v1beta1
kind: Workload
metadata: {name: ranker-live, namespace: search, creationTimestamp: "2026-01-01T00:00:00Z"}
spec:
  queueName: team-queue
  podSets: [{name: main, count: 1, template: {spec: {containers: [{name: c, resources: {requests: {nvidia.com/gpu: "8"}}}]}}}]
status:
  admission:
    clusterQueue: search
    podSetAssignments: [{name: main, count: 1, flavors: {nvidia.com/gpu: a100}, resourceUsage: {nvidia.com/gpu: "8"}}]
  conditions:
  - {type: QuotaReserved, status: "True", reason: QuotaReserved, lastTransitionTime: "2026-01-01T00:00:00Z"}
)");
}

std::size_t count(const std::string& s, const std::string& what) {
    std::size_t n = 0;
    for (auto at = s.find(what); at != std::string::npos; at = s.find(what, at + 1)) ++n;
    return n;
}

}  // namespace

TEST_CASE("diff-sites: a prod-only quota cut is reported under prod, not hidden by staging", "[diff-sites]") {
    TempDir t;
    make_fleet(t.path);
    cut_prod_quota(t.path);
    for (const std::string paths : {"clusters/prod clusters/staging", "clusters", ""}) {
        auto r = sh(t.path, "queueforge diff --base HEAD " + paths);
        INFO(paths << "\n" << r.out << r.err);
        CHECK(r.exit == 0);  // like git diff: changes alone do not fail
        CHECK(r.out.find("no object changes\n") == std::string::npos);
        CHECK(r.out.find("== clusters/prod\n") != std::string::npos);
        CHECK(r.out.find("search a100/nvidia.com/gpu nominalQuota: 16 -> 0") != std::string::npos);
        CHECK(r.out.find("== clusters/staging") == std::string::npos);
        CHECK(r.out.find("  clusters/staging: no changes\n") != std::string::npos);
        CHECK(r.out.find("[regression]") != std::string::npos);
    }
    auto j = sh(t.path, "queueforge diff --base HEAD clusters -o json");
    REQUIRE(j.exit == 0);
    auto doc = nlohmann::json::parse(j.out);
    REQUIRE(doc["sites"].size() == 2);
    CHECK(doc["sites"][0]["site"] == "clusters/prod");
    CHECK(doc["sites"][0]["change"] == "Changed");
    CHECK(doc["sites"][1]["site"] == "clusters/staging");
    CHECK(doc["sites"][1]["change"] == "Unchanged");
    REQUIRE(!doc["quotas"].empty());
    for (const auto& key : {"objects", "quotas", "admissions"})
        for (const auto& e : doc[key]) CHECK(e["site"] == "clusters/prod");
    CHECK(doc["found"]["regression"] == true);
}

TEST_CASE("diff-sites: a job file two sites share shows under both", "[diff-sites]") {
    TempDir t;
    // Two site files in one folder, both running fleet/jobs/llm-pretrain-pytorchjob.yaml.
    add_multi_team_site(t.path / "fleet", "east");
    fs::rename(t.path / "fleet/queueforge-site.yaml", t.path / "fleet/east.yaml");
    std::string west = read_text(t.path / "fleet/east.yaml");
    west.replace(west.find("  name: east\n"), 12, "  name: west\n");
    write_text(t.path / "fleet/west.yaml", west);
    REQUIRE(sh(t.path, "git init -q && git add -A && git commit -qm fleet").exit == 0);
    // The shared job grows from 16 to 64 GPUs: no longer admissible in either cluster.
    REQUIRE(replace_once(t.path / "fleet/jobs/llm-pretrain-pytorchjob.yaml", "    Worker:\n      replicas: 3",
                         "    Worker:\n      replicas: 15"));
    auto r = sh(t.path, "git commit -qam bigger && queueforge diff --base HEAD~1 --head HEAD");
    INFO(r.out << r.err);
    CHECK(r.exit == 0);
    CHECK(r.out.find("== fleet/east.yaml\n") != std::string::npos);
    CHECK(r.out.find("== fleet/west.yaml\n") != std::string::npos);
    CHECK(count(r.out, "llm-train/pytorchjob-llm-pretrain: Admitted on h100 -> Pending") == 2);
    auto gate = sh(t.path, "queueforge diff --base HEAD~1 --head HEAD --fail-on regression fleet/west.yaml || echo exit=$?");
    CHECK(gate.out.find("exit=1") != std::string::npos);
    CHECK(gate.out.find("east") == std::string::npos);
}

TEST_CASE("diff-sites: sites added, removed and moved", "[diff-sites]") {
    TempDir t;
    make_fleet(t.path);
    SECTION("added") {
        add_multi_team_site(t.path / "clusters/dev", "dev");
        auto r = sh(t.path, "queueforge diff --base HEAD");
        INFO(r.out << r.err);
        CHECK(r.exit == 0);
        CHECK(r.out.find("== clusters/dev (site added)\n  + ClusterQueue/analytics\n") != std::string::npos);
        CHECK(r.out.find("  clusters/prod: no changes\n") != std::string::npos);
        // A folder the base does not have at all is an added site too.
        r = sh(t.path, "git add -A && git commit -qm dev && queueforge diff --base HEAD~1 clusters/dev -o json");
        INFO(r.err);
        CHECK(r.exit == 0);
        CHECK(nlohmann::json::parse(r.out)["sites"][0]["change"] == "Added");
    }
    SECTION("removed") {
        auto r = sh(t.path, "git rm -rq clusters/staging && queueforge diff --base HEAD --staged");
        INFO(r.out << r.err);
        CHECK(r.exit == 0);
        CHECK(r.out.find("== clusters/staging (site removed)\n  - ClusterQueue/analytics\n") != std::string::npos);
        CHECK(r.out.find("  clusters/prod: no changes\n") != std::string::npos);
    }
    SECTION("moved: the same metadata.name at another path") {
        auto r = sh(t.path, "git mv clusters/staging clusters/stage && git commit -qm move && "
                            "queueforge diff --base HEAD~1 --head HEAD -o json");
        INFO(r.out << r.err);
        REQUIRE(r.exit == 0);
        auto doc = nlohmann::json::parse(r.out);
        REQUIRE(doc["sites"].size() == 2);
        CHECK(doc["sites"][1]["site"] == "clusters/stage");
        CHECK(doc["sites"][1]["change"] == "Renamed");
        CHECK(doc["sites"][1]["renamedFrom"] == "clusters/staging");
        CHECK(doc["objects"].empty());
        auto text = sh(t.path, "queueforge diff --base HEAD~1 --head HEAD");
        CHECK(text.out.find("== clusters/stage (site moved from clusters/staging)\n  no object changes\n") != std::string::npos);
        // Another name at the new path: one site removed, another added.
        r = sh(t.path, "sed -i 's/  name: staging/  name: stage/' clusters/stage/queueforge-site.yaml && "
                       "queueforge diff --base HEAD~1");
        CHECK(r.out.find("== clusters/stage (site added)") != std::string::npos);
        CHECK(r.out.find("== clusters/staging (site removed)") != std::string::npos);
    }
    SECTION("neither side has a site, or the path") {
        auto r = sh(t.path, "mkdir docs && echo hi > docs/README.md && git add -A && queueforge diff --base HEAD docs || echo exit=$?");
        CHECK(r.out.find("exit=1") != std::string::npos);
        CHECK(r.err.find("review.missing-site") != std::string::npos);
        r = sh(t.path, "queueforge diff --base HEAD nowhere || echo exit=$?");
        CHECK(r.out.find("exit=2") != std::string::npos);
        CHECK(r.err.find("\"nowhere\" exists neither in HEAD (") != std::string::npos);
    }
}

TEST_CASE("diff-sites: --exit-code and every --fail-on kind", "[diff-sites]") {
    TempDir t;
    make_fleet(t.path);
    auto code = [&](const std::string& args) { return sh(t.path, "queueforge diff --base HEAD " + args).exit; };
    // Nothing changed: 0 whatever is asked.
    CHECK(code("--exit-code") == 0);
    CHECK(code("--fail-on any --fail-on regression") == 0);

    SECTION("regression, any") {
        cut_prod_quota(t.path);
        CHECK(code("") == 0);
        CHECK(code("--exit-code") == 1);
        CHECK(code("--fail-on any") == 1);
        CHECK(code("--fail-on regression") == 1);
        CHECK(code("--fail-on regression clusters/staging") == 0);  // staging did not change
        CHECK(code("--fail-on deletion-blocked --fail-on quota-below-usage") == 0);
        CHECK(code("--no-simulate --fail-on regression") == 0);  // no simulation, no admission regressions
    }
    SECTION("a quota change that is not a regression") {
        REQUIRE(replace_once(t.path / "clusters/prod/queueforge-site.yaml", kSearchA100,
                             "nominal: {cpu: 192, memory: 2000Gi, nvidia.com/gpu: 24}"));
        CHECK(code("--fail-on regression") == 0);
        CHECK(code("--exit-code") == 1);
    }
    SECTION("quota-below-usage") {
        write_running(t.path / "running.yaml");
        cut_prod_quota(t.path, "4");
        auto r = sh(t.path, "queueforge diff --base HEAD clusters/prod --running running.yaml");
        INFO(r.out << r.err);
        CHECK(r.out.find("QUOTA BELOW USAGE: search a100/nvidia.com/gpu nominalQuota 4 < 8 in use by search/ranker-live") !=
              std::string::npos);
        CHECK(code("clusters/prod --running running.yaml --fail-on quota-below-usage") == 1);
        CHECK(code("clusters/prod --running running.yaml --fail-on deletion-blocked") == 0);
        // A cut that stays at or above usage is not one.
        REQUIRE(replace_once(t.path / "clusters/prod/queueforge-site.yaml", "2000Gi, nvidia.com/gpu: 4}", "2000Gi, nvidia.com/gpu: 8}"));
        CHECK(code("clusters/prod --running running.yaml --fail-on quota-below-usage") == 0);
    }
    SECTION("deletion-blocked") {
        write_running(t.path / "running.yaml");
        std::string s = read_text(t.path / "clusters/prod/queueforge-site.yaml");
        auto from = s.find("    - name: search\n");
        auto to = s.find("    - name: recsys\n");
        s.erase(from, to - from);
        auto sample = s.find("    - name: search-ranker-8gpu");
        s.erase(sample, s.find("    - name: nightly-report") - sample);
        write_text(t.path / "clusters/prod/queueforge-site.yaml", s);
        // The finding itself is an error (exit 1); with it disabled, only --fail-on gates.
        CHECK(code("clusters/prod --running running.yaml") == 1);
        CHECK(code("clusters/prod --running running.yaml --disable review.deletion-blocked") == 0);
        CHECK(code("clusters/prod --running running.yaml --disable review.deletion-blocked --fail-on deletion-blocked") == 1);
        // --running names one cluster: several sites with it are refused.
        auto r = sh(t.path, "queueforge diff --base HEAD --running running.yaml || echo exit=$?");
        CHECK(r.out.find("exit=1") != std::string::npos);
        CHECK(r.err.find("review.running-several-sites") != std::string::npos);
    }
    SECTION("an unknown kind is a usage error with a suggestion") {
        auto r = sh(t.path, "queueforge diff --base HEAD --fail-on regresion || echo exit=$?");
        CHECK(r.out.find("exit=2") != std::string::npos);
        CHECK(r.err.find("unknown --fail-on kind \"regresion\"; did you mean \"regression\"?") != std::string::npos);
    }
}

TEST_CASE("diff-sites: one markdown comment for every cluster (golden)", "[diff-sites]") {
    TempDir t;
    make_fleet(t.path);
    cut_prod_quota(t.path);
    add_multi_team_site(t.path / "clusters/dev", "dev");
    auto r = sh(t.path, "git add -A && git commit -qm change && queueforge diff --base HEAD~1 --head HEAD -o markdown");
    INFO(r.err);
    REQUIRE(r.exit == 0);
    // Commit ids change with the clock: named COMMIT in the golden file.
    const std::string out = std::regex_replace(r.out, std::regex("\\((?:[0-9a-f]{7,40})\\)"), "(COMMIT)");
    const auto golden = qf_test::source_dir() / "tests/golden/diff-sites.md";
    if (std::getenv("QF_UPDATE_GOLDEN")) write_text(golden, out);
    CHECK(out == read_text(golden));
    // The summary table comes first, one row per site.
    const auto table = out.find("| Site | Change | Objects changed | Admission regressions | Verdict |");
    REQUIRE(table != std::string::npos);
    CHECK(table < out.find("#### "));
    CHECK(out.find("| `clusters/prod` | changed |") != std::string::npos);
    CHECK(out.find("| `clusters/staging` | unchanged | 0 | 0 | no changes |") != std::string::npos);
    CHECK(out.find("| `clusters/dev` | site added |") != std::string::npos);
    // The added site's long object list is collapsed.
    CHECK(out.find("<details><summary><b>Object changes</b>") != std::string::npos);
}

TEST_CASE("diff-sites: the markdown comment stays within the size limit", "[diff-sites]") {
    using namespace queueforge::diff;
    MultiReview r;
    r.base = "main";
    r.head = "HEAD";
    for (int i = 0; i < 200; ++i) {
        SiteReview s;
        s.site = "clusters/c" + std::to_string(1000 + i);
        s.change = "Changed";
        for (int k = 0; k < 20; ++k)
            s.review.objects.push_back({"ClusterQueue", "", "queue-" + std::to_string(k), "Changed",
                                        {{"spec.resourceGroups[0].flavors[a100].resources[nvidia.com/gpu].nominalQuota", "16", "8"}}});
        r.sites.push_back(std::move(s));
    }
    const std::string md = render_markdown(r, 65000);
    CHECK(md.size() <= 65000);
    CHECK(md.find("| `clusters/c1199` | changed | 20 |") != std::string::npos);  // every site in the summary
    CHECK(md.find("#### `clusters/c1000`") != std::string::npos);                // details while they fit
    CHECK(md.find("#### `clusters/c1199`") == std::string::npos);
    CHECK(md.find("shortened to stay within the comment size limit; not shown: `clusters/c") != std::string::npos);
    // Without a limit problem, nothing is cut.
    CHECK(render_markdown(r, 10'000'000).find("shortened") == std::string::npos);
    // Even a limit below the summary gives a bounded note.
    CHECK(render_markdown(r, 500).size() <= 500);
}
