// report: the HTML document for a site -- every part present, nothing
// external, every input string escaped, the same bytes each time, atomic
// writes -- and the multi-team report rendered by headless Chromium.
#include "test_util.hpp"

#include <queueforge/backends/html_report.hpp>
#include <queueforge/base/safe_write.hpp>

#include <catch2/catch.hpp>

#include <filesystem>
#include <regex>

using namespace queueforge;
using qf_test::source_dir;

namespace {

std::size_t count(const std::string& hay, const std::string& needle) {
    std::size_t n = 0;
    for (auto p = hay.find(needle); p != std::string::npos; p = hay.find(needle, p + needle.size())) ++n;
    return n;
}

html_report::Input collect_ok(const html_report::Options& o) {
    Diagnostics diags;
    std::vector<SourceText> sources;
    auto in = html_report::collect(o, diags, sources);
    INFO(qf_test::messages(diags));
    REQUIRE(in);
    return *in;
}

std::string multi_team_site() { return (source_dir() / "examples/multi-team").string(); }
std::string multi_team_day() { return (source_dir() / "examples/timeline/multi-team-day.yaml").string(); }

// Nothing in the document may reach the network: no scripts, no URLs, and
// every link an in-page anchor.
void check_self_contained(const std::string& html) {
    CHECK(html.find("<script") == std::string::npos);
    CHECK(html.find("http://") == std::string::npos);
    CHECK(html.find("https://") == std::string::npos);
    CHECK(html.find("src=") == std::string::npos);
    CHECK(html.find("url(") == std::string::npos);
    CHECK(html.find("@import") == std::string::npos);
    std::regex href(R"(href=\"([^\"]*)\")");
    for (auto it = std::sregex_iterator(html.begin(), html.end(), href); it != std::sregex_iterator(); ++it) {
        INFO((*it)[1].str());
        CHECK((*it)[1].str().rfind("#", 0) == 0);
    }
}

bool have_chromium() { return std::system("command -v chromium >/dev/null 2>&1") == 0; }

}  // namespace

TEST_CASE("report: the multi-team document has every part", "[report]") {
    auto in = collect_ok({.site = multi_team_site()});
    std::string html = html_report::render(in);
    CHECK(html.rfind("<!DOCTYPE html>\n", 0) == 0);
    CHECK(html.find("<title>queueforge report: multi-team</title>") != std::string::npos);
    CHECK(html.find("<svg") != std::string::npos);
    // One chart (bars per resource) per pool.
    CHECK(count(html, "class=\"pool-chart\"") == 4);
    for (const char* pool : {"h100", "a100", "l40s", "cpu"})
        CHECK(html.find(std::string("data-pool=\"") + pool + "\"") != std::string::npos);
    CHECK(count(html, "class=\"team-chart\"") == 6);
    for (const char* team : {"llm", "vision", "speech", "search", "recsys", "analytics"}) {
        CHECK(html.find(std::string("data-team=\"") + team + "\"") != std::string::npos);
        CHECK(html.find(std::string("<span class=\"queue\">") + team + "</span>") != std::string::npos);  // the cohort tree
    }
    CHECK(count(html, "<span class=\"cohort\">") == 2);
    // The simulation table: one row per sample workload.
    CHECK(count(html, "<tr class=\"sim-row\">") == 5);
    for (const char* w : {"llm-train/pytorchjob-llm-pretrain", "vision/vision-finetune", "speech/speech-asr",
                          "search/search-ranker-8gpu", "reporting/nightly-report"})
        CHECK(html.find(std::string("<td>") + w + "</td>") != std::string::npos);
    CHECK(html.find("id=\"timeline\"") == std::string::npos);
    // Figures the charts are drawn from.
    CHECK(html.find("32 / 32 · 100.0%") != std::string::npos);  // h100 GPUs
    CHECK(html.find("8 / 16 / 24") != std::string::npos);       // llm on h100 GPUs: guaranteed / nominal / burst
    CHECK(html.find("<th>Largest pod</th>") != std::string::npos);  // the team figures, as `capacity` has them
    CHECK(html.find("<td class=\"num\">24</td><td class=\"num\">8</td></tr>") != std::string::npos);  // llm h100 GPUs
    check_self_contained(html);
}

TEST_CASE("report: a TAS flavor's occupancy, a row per rack and a cell per node", "[report][tas]") {
    auto in = collect_ok({.site = (source_dir() / "examples/tas").string()});
    std::string html = html_report::render(in);
    CHECK(html.find("<h3>Topology placement on h100</h3>") != std::string::npos);
    CHECK(count(html, "<td class=\"node") == 128);  // 4 blocks x 4 racks x 8 nodes
    CHECK(count(html, "<tr><th>h100-block") == 16);   // one row per rack
    // rack-64 (8 pods), block-256 (32), prefer-rack-72 (9) and sliced-16 (16) run on 65 nodes.
    CHECK(count(html, "<td class=\"node used\"") == 65);
    CHECK(html.find("65 of 128 nodes run pods of admitted workloads") != std::string::npos);
    check_self_contained(html);
}

TEST_CASE("report: timeline mode charts usage over time and time to admission", "[report]") {
    auto in = collect_ok({.site = multi_team_site(), .scenario = multi_team_day()});
    REQUIRE(in.timeline);
    std::string html = html_report::render(in);
    CHECK(html.find("id=\"timeline\"") != std::string::npos);
    CHECK(html.find("Timeline: multi-team-day.yaml") != std::string::npos);
    CHECK(count(html, "class=\"usage-chart\"") == in.timeline->queues.size());
    CHECK(count(html, "<polyline ") >= in.timeline->queues.size());
    CHECK(count(html, "<tr class=\"class-row\">") == 6);
    // A marker per preemption on the victim's usage chart, naming preemptor and Kueue's reason.
    REQUIRE(in.timeline->preemptions > 0);
    CHECK(count(html, "<line class=\"preemption\"") == static_cast<std::size_t>(in.timeline->preemptions));
    CHECK(html.find(" preempted by ") != std::string::npos);
    for (const char* c : {"llm-pretrain", "llm-eval", "vision-finetune", "search-ranker", "recsys-train", "report"})
        CHECK(html.find(std::string("<tr class=\"class-row\"><td>") + c + "</td>") != std::string::npos);
    check_self_contained(html);
}

TEST_CASE("report: the same input gives the same bytes", "[report]") {
    html_report::Options o{.site = multi_team_site(), .scenario = multi_team_day()};
    std::string a = html_report::render(collect_ok(o));
    std::string b = html_report::render(collect_ok(o));
    CHECK(a == b);
    // No NaN, infinities or signed zeros in coordinates.
    CHECK(a.find("nan") == std::string::npos);
    CHECK(a.find("inf\"") == std::string::npos);
    CHECK(a.find("\"-0.0\"") == std::string::npos);
}

TEST_CASE("report: every input string is escaped", "[report]") {
    const std::string evil = "<script>alert('x')</script>\"&<img src=x onerror=1>";
    html_report::Input in;
    in.capacity.site = evil;
    in.capacity.target = evil;
    capacity::Pool pool;
    pool.name = evil;
    pool.nodes = 2;
    capacity::PoolResource res;
    res.resource = evil;
    res.per_node = capacity::Amount{1000000000, false};
    res.capacity = capacity::Amount{2000000000, false};
    res.nominal = capacity::Amount{3000000000, false};
    res.shares.push_back({evil, false, evil, res.nominal});
    res.commit_permille = 1500;
    res.commit = capacity::Commit::Over;
    pool.resources.push_back(res);
    in.capacity.pools.push_back(pool);
    capacity::Team team;
    team.name = evil;
    team.cluster_queue = evil + "cq";
    team.cohort = evil;
    team.reclaim_within_cohort = evil;
    team.quota.push_back({evil, evil, res.nominal, res.nominal, std::nullopt, res.nominal, {}, res.nominal});
    in.capacity.teams.push_back(team);
    capacity::Cohort cohort;
    cohort.name = evil;
    cohort.cluster_queues = {evil + "cq"};
    cohort.totals.push_back({evil, evil, {}, res.nominal, res.nominal, std::nullopt, std::nullopt, {}, res.nominal});
    in.capacity.cohorts.push_back(cohort);
    scenarios::Report sim;
    scenarios::SampleReport s;
    s.together.namespace_ = evil;
    s.together.name = evil;
    s.together.cluster_queue = evil;
    s.together.reason = evil;
    s.together.message = evil;
    s.expect = scenarios::Expectation{"Admitted", evil, std::nullopt};
    s.expectation_met = false;
    s.expectation_detail = evil;
    s.node_shape_problem = evil;
    sim.workloads.push_back(s);
    scheduler::ClusterQueueUsage u;
    u.name = evil;
    u.usage.push_back({evil, evil, evil, evil, 1, 1});
    sim.cluster_queues.push_back(u);
    in.simulation = sim;
    timeline::Report tl;
    tl.scenario = evil;
    tl.workload_classes.push_back({.name = evil, .workloads = 1});
    timeline::QueueReport q;
    q.name = evil;
    q.cohort = evil;
    q.usage.push_back({.resource = evil, .series = {60000, {10, 200, std::nan(""), -5}}});
    tl.queues.push_back(q);
    tl.never_admitted.push_back({evil, evil, evil, evil, evil});
    in.timeline = tl;
    in.scenario_name = evil;
    std::string html = html_report::render(in);
    CHECK(html.find("<script") == std::string::npos);
    CHECK(html.find("<img") == std::string::npos);
    CHECK(html.find("&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;&quot;&amp;&lt;img src=x onerror=1&gt;") != std::string::npos);
    CHECK(html.find("nan") == std::string::npos);
    CHECK(html_report::escape("a<b>&\"'") == "a&lt;b&gt;&amp;&quot;&#39;");
}

TEST_CASE("report: an empty or degenerate report still renders", "[report]") {
    html_report::Input in;
    std::string html = html_report::render(in);
    CHECK(html.find("</html>") != std::string::npos);
    check_self_contained(html);
    // A site without workloads, pools without nodes.
    qf_test::TempDir tmp;
    qf_test::write_text(tmp.path / "queueforge-site.yaml", R"(apiVersion: queueforge.io/v1alpha1
kind: Site
metadata: {name: bare}
spec:
  target: kueue-0.13
  pools: [{name: default-flavor}]
  teams:
    - name: solo
      namespaces: [solo]
      quota: [{pool: default-flavor, nominal: {cpu: 4}}]
)");
    auto bare = collect_ok({.site = tmp.path.string()});
    html = html_report::render(bare);
    CHECK(html.find("no sample workloads") != std::string::npos);
    CHECK(html.find("capacity unknown") != std::string::npos);
    check_self_contained(html);
}

TEST_CASE("report: invalid input is refused before anything is written", "[report]") {
    qf_test::TempDir tmp;
    qf_test::write_text(tmp.path / "bad/queueforge-site.yaml", "apiVersion: queueforge.io/v1alpha1\nkind: Site\nspec: {pools: 3}\n");
    Diagnostics d1;
    std::vector<SourceText> sources;
    CHECK_FALSE(html_report::collect({.site = (tmp.path / "bad").string()}, d1, sources));
    CHECK(d1.has_errors());
    Diagnostics d2;
    CHECK_FALSE(html_report::collect({.site = multi_team_site(), .scenario = (tmp.path / "missing.yaml").string()}, d2, sources));
    CHECK(d2.has_errors());
    qf_test::write_text(tmp.path / "scenario.yaml", "localQueues:\n  - localQueue: nowhere/none\n    workloadsSets: [{count: 1, creationIntervalMs: 1, workloads: [{className: a, runtimeMs: 1, request: {cpu: 1}}]}]\n");
    Diagnostics d3;
    CHECK_FALSE(html_report::collect({.site = multi_team_site(), .scenario = (tmp.path / "scenario.yaml").string()}, d3, sources));
    CHECK(d3.has_errors());
    qf_test::write_text(tmp.path / "garbage.yaml", "{{{");
    Diagnostics d4;
    CHECK_FALSE(html_report::collect({.site = multi_team_site(), .scenario = (tmp.path / "garbage.yaml").string()}, d4, sources));
    CHECK(d4.has_errors());
}

TEST_CASE("report: headless Chromium renders the multi-team report", "[report][chromium][slow]") {
    if (!have_chromium()) {
        WARN("skipped: chromium is not installed (scripts/setup.sh installs it)");
        return;
    }
    qf_test::TempDir tmp;
    auto page = tmp.path / "multi-team-report.html";
    auto png = tmp.path / "shot.png";
    std::string error;
    REQUIRE(replace_file_atomically(page.string(),
                                      html_report::render(collect_ok({.site = multi_team_site(), .scenario = multi_team_day()})),
                                      error));
    const std::string common = "timeout 60 chromium --headless --no-sandbox --disable-gpu --no-first-run "
                               "--disable-background-networking --user-data-dir=" +
                               qf_test::shell_quote((tmp.path / "profile").string()) + " ";
    const std::string url = qf_test::shell_quote("file://" + page.string());
    const std::string shot = common + "--screenshot=" + qf_test::shell_quote(png.string()) +
                             " --window-size=1280,2400 --enable-logging=stderr --v=0 " + url + " >" +
                             qf_test::shell_quote((tmp.path / "shot.out").string()) + " 2>" +
                             qf_test::shell_quote((tmp.path / "shot.err").string());
    int status = std::system(shot.c_str());
    std::string log = qf_test::read_text(tmp.path / "shot.err");
    INFO(log);
    REQUIRE(WIFEXITED(status));
    REQUIRE(WEXITSTATUS(status) == 0);
    REQUIRE(std::filesystem::exists(png));
    std::string bytes = qf_test::read_text(png);
    CHECK(bytes.size() > 20000);  // a blank 1280x2400 page compresses to a few kB
    CHECK(bytes.rfind("\x89PNG\r\n\x1a\n", 0) == 0);
    // The page loaded without console errors (Chromium logs them as CONSOLE lines).
    CHECK(log.find(":CONSOLE") == std::string::npos);
    CHECK(log.find("Uncaught") == std::string::npos);
    // The DOM Chromium built holds the report's elements.
    const std::string dump = common + "--dump-dom " + url + " >" + qf_test::shell_quote((tmp.path / "dom.html").string()) +
                             " 2>/dev/null";
    status = std::system(dump.c_str());
    REQUIRE(WIFEXITED(status));
    REQUIRE(WEXITSTATUS(status) == 0);
    std::string dom = qf_test::read_text(tmp.path / "dom.html");
    CHECK(count(dom, "class=\"pool-chart\"") == 4);
    CHECK(count(dom, "class=\"team-chart\"") == 6);
    CHECK(count(dom, "class=\"sim-row\"") == 5);
    CHECK(count(dom, "class=\"usage-chart\"") == 6);
    CHECK(count(dom, "<svg") >= 17);
    for (const char* team : {"llm", "vision", "speech", "search", "recsys", "analytics"})
        CHECK(dom.find(std::string("data-team=\"") + team + "\"") != std::string::npos);
}

TEST_CASE("report: many teams stay readable and bounded", "[report]") {
    std::string site = "apiVersion: queueforge.io/v1alpha1\nkind: Site\nmetadata: {name: many}\nspec:\n  target: kueue-0.13\n"
                       "  pools:\n    - {name: shared, nodes: 10, allocatable: {cpu: 100}}\n  cohorts: [{name: all}]\n  teams:\n";
    for (int t = 0; t < 100; ++t)
        site += "    - {name: team-" + std::to_string(t) + ", namespaces: [ns-" + std::to_string(t) +
                "], cohort: all, quota: [{pool: shared, nominal: {cpu: 10}}]}\n";
    qf_test::TempDir tmp;
    qf_test::write_text(tmp.path / "queueforge-site.yaml", site);
    std::string html = html_report::render(collect_ok({.site = tmp.path.string()}));
    CHECK(count(html, "class=\"team-chart\"") == 60);
    CHECK(html.find("40 more teams charted not listed") != std::string::npos);
    CHECK(html.find("77 more teams") != std::string::npos);  // the legend: 23 named
    CHECK(html.find("<title>77 more: 770</title>") != std::string::npos);  // the pool bar: 23 segments and the rest
    CHECK(html.find("1k / 1k · 100.0%") != std::string::npos);  // canonical quantities, as the manifests spell them
    CHECK(count(html, "<span class=\"queue\">") == 100);  // the cohort tree lists every queue
    check_self_contained(html);
}
