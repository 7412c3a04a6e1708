// examples/gitops-repo: one repository holding several clusters built on one
// base (issue 13 items 2 and 6), and import --into adding a cluster to it.
#include "git_util.hpp"

#include <catch2/catch.hpp>

#include <filesystem>

using qf_test::run_cli_in;
using qf_test::shell_quote;
using qf_test::source_dir;
namespace fs = std::filesystem;

TEST_CASE("gitops-repo: check passes, one summary line per cluster, the base is no cluster", "[gitops-repo]") {
    auto r = run_cli_in(source_dir(), "check examples/gitops-repo --policy examples/gitops-repo/policies");
    INFO(r.out << r.err);
    CHECK(r.exit == 0);
    CHECK(r.out.find("examples/gitops-repo/clusters/dev: 0 errors") != std::string::npos);
    CHECK(r.out.find("examples/gitops-repo/clusters/prod: 0 errors") != std::string::npos);
    CHECK(r.out.find("examples/gitops-repo/clusters/staging: 0 errors") != std::string::npos);
    CHECK(r.out.find("examples/gitops-repo/base:") == std::string::npos);
}

TEST_CASE("gitops-repo: each cluster builds its overrides on the base", "[gitops-repo]") {
    auto prod = run_cli_in(source_dir(), "build examples/gitops-repo/clusters/prod");
    auto dev = run_cli_in(source_dir(), "build examples/gitops-repo/clusters/dev");
    INFO(prod.err << dev.err);
    REQUIRE(prod.exit == 0);
    REQUIRE(dev.exit == 0);
    // prod adds a team; dev deletes the H100 pool and every quota entry for it.
    CHECK(prod.out.find("name: search") != std::string::npos);
    CHECK(dev.out.find("name: search") == std::string::npos);
    CHECK(prod.out.find("name: h100") != std::string::npos);
    CHECK(dev.out.find("h100") == std::string::npos);
    // The base alone is refused, saying why.
    auto base = run_cli_in(source_dir(), "build examples/gitops-repo/base");
    CHECK(base.exit == 1);
    CHECK(base.err.find("[extends.base-alone]") != std::string::npos);
}

TEST_CASE("gitops-repo: import --into adds a cluster as a new site folder, never over an existing name",
          "[gitops-repo]") {
    qf_test::TempDir tmp;
    const fs::path repo = tmp.path / "repo";
    fs::copy(source_dir() / "examples/gitops-repo", repo, fs::copy_options::recursive);
    fs::create_directories(repo / ".git");
    // A dump of the staging cluster: its objects carry the part-of label "staging".
    auto dump = run_cli_in(repo, "build clusters/staging -o " + shell_quote((tmp.path / "dump").string()));
    INFO(dump.err);
    REQUIRE(dump.exit == 0);

    auto taken = run_cli_in(repo, "import ../dump --into clusters");
    INFO(taken.out << taken.err);
    CHECK(taken.exit == 1);
    CHECK(taken.err.find("clusters/staging/queueforge-site.yaml:") != std::string::npos);
    CHECK(taken.err.find("[import.name-taken]") != std::string::npos);
    CHECK(!fs::exists(repo / "clusters/staging/staging"));

    auto added = run_cli_in(repo, "import ../dump --name east --into clusters");
    INFO(added.err);
    REQUIRE(added.exit == 0);
    REQUIRE(fs::exists(repo / "clusters/east/queueforge-site.yaml"));
    auto again = run_cli_in(repo, "import ../dump --name east --into clusters");
    CHECK(again.exit == 1);


    // As an overlay of the base: only what differs, and it builds the same objects.
    auto overlay = run_cli_in(repo, "import ../dump --name west --into clusters --extends base");
    INFO(overlay.err);
    REQUIRE(overlay.exit == 0);
    const std::string west = qf_test::read_text(repo / "clusters/west/queueforge-site.yaml");
    INFO(west);
    CHECK(west.find("extends: ../../base") != std::string::npos);
    CHECK(west.size() < qf_test::read_text(repo / "clusters/east/queueforge-site.yaml").size());
    REQUIRE(run_cli_in(repo, "import ../dump --name west -o ../west-whole.yaml").exit == 0);
    auto whole_objects = run_cli_in(repo, "build ../west-whole.yaml --no-header");
    auto west_objects = run_cli_in(repo, "build clusters/west --no-header");
    REQUIRE(west_objects.exit == 0);
    CHECK(west_objects.out == whole_objects.out);

    CHECK(run_cli_in(repo, "import ../dump --into nowhere").exit == 2);
    CHECK(run_cli_in(repo, "import ../dump --name north --extends base").exit == 2);
    CHECK(run_cli_in(repo, "import ../dump --into clusters -o x.yaml").exit == 2);

    auto check = run_cli_in(repo, "check");
    INFO(check.out << check.err);
    CHECK(check.exit == 0);
    CHECK(check.out.find("clusters/east: 0 errors") != std::string::npos);
    CHECK(check.out.find("clusters/west: 0 errors") != std::string::npos);
}

// A change to the base reaches every cluster built on it: in diff (real git
// history) and in the pre-commit hook, which checks exactly the sites a
// staged file reaches (issue 13 items 3 and 4).
TEST_CASE("gitops-repo: a base change shows under every cluster in diff and the hook checks them all", "[gitops-repo][git]") {
    qf_test::TempDir tmp;
    const fs::path repo = tmp.path / "repo";
    fs::copy(source_dir() / "examples/gitops-repo", repo, fs::copy_options::recursive);
    auto sh = [&](const std::string& script) { return qf_test::sh(repo, script); };
    REQUIRE(sh("git init -q && git add -A && git commit -qm fleet").exit == 0);
    qf_test::replace_once(repo / "base/queueforge-site.yaml",
                          "        - pool: cpu\n          nominal: {cpu: 50%, memory: 50%}",
                          "        - pool: cpu\n          nominal: {cpu: 25%, memory: 25%}");
    REQUIRE(sh("git commit -qam 'cut analytics in the base'").exit == 0);

    auto diff = sh("queueforge diff --base HEAD~1 --head HEAD");
    INFO(diff.out << diff.err);
    REQUIRE(diff.exit == 0);
    for (const char* site : {"clusters/dev", "clusters/prod", "clusters/staging"}) {
        INFO(site);
        const auto at = diff.out.find(std::string("== ") + site + "\n");
        REQUIRE(at != std::string::npos);
        const auto next = diff.out.find("\n== ", at + 1);
        const std::string section = diff.out.substr(at, next == std::string::npos ? std::string::npos : next - at);
        CHECK(section.find("~ ClusterQueue/analytics") != std::string::npos);
        CHECK(section.find("nominalQuota: 256 -> 128") != std::string::npos);
    }
    CHECK(sh("queueforge diff --base HEAD~1 --head HEAD --exit-code >/dev/null 2>&1 || echo exit=$?").out == "exit=1\n");

    // The hook given the base checks all three clusters; given one cluster's file, that cluster only.
    auto all = sh("queueforge hook check base/queueforge-site.yaml");
    INFO(all.out << all.err);
    CHECK(all.exit == 0);
    for (const char* site : {"clusters/dev: 0 errors", "clusters/prod: 0 errors", "clusters/staging: 0 errors"})
        CHECK((all.out + all.err).find(site) != std::string::npos);
    // A staged error in prod fails prod's file and the base's (which reaches prod), never dev's.
    qf_test::replace_once(repo / "clusters/prod/queueforge-site.yaml", "nvidia.com/gpu: 32}", "nvidia.com/gpu: -32}");
    REQUIRE(sh("git add -A").exit == 0);
    CHECK(sh("queueforge hook check clusters/dev/queueforge-site.yaml").exit == 0);
    auto prod = sh("queueforge hook check clusters/prod/queueforge-site.yaml || echo exit=$?");
    CHECK(prod.out.find("exit=1") != std::string::npos);
    auto base = sh("queueforge hook check base/queueforge-site.yaml 2>&1 || echo exit=$?");
    CHECK(base.out.find("exit=1") != std::string::npos);
    CHECK(base.out.find("clusters/prod: 1 error") != std::string::npos);
    CHECK(base.out.find("clusters/dev: 0 errors") != std::string::npos);
}

// The example repository through diff with real history: a prod-only change
// shows under prod alone; a site added and a site removed (issue 13 tests).
TEST_CASE("gitops-repo: diff reports a prod-only change under prod, and sites added and removed", "[gitops-repo][git]") {
    qf_test::TempDir tmp;
    const fs::path repo = tmp.path / "repo";
    fs::copy(source_dir() / "examples/gitops-repo", repo, fs::copy_options::recursive);
    auto sh = [&](const std::string& script) { return qf_test::sh(repo, script); };
    REQUIRE(sh("git init -q && git add -A && git commit -qm fleet").exit == 0);

    // prod cuts llm's A100 GPUs: 32 -> 24.
    REQUIRE(qf_test::replace_once(repo / "clusters/prod/queueforge-site.yaml", "nvidia.com/gpu: 32}", "nvidia.com/gpu: 24}"));
    REQUIRE(sh("git commit -qam 'prod: cut llm'").exit == 0);
    auto cut = sh("queueforge diff --base HEAD~1 --head HEAD");
    INFO(cut.out << cut.err);
    REQUIRE(cut.exit == 0);
    CHECK(cut.out.find("== clusters/prod\n  ~ ClusterQueue/llm\n") != std::string::npos);
    CHECK(cut.out.find("== clusters/staging") == std::string::npos);
    CHECK(cut.out.find("== clusters/dev") == std::string::npos);

    // qa added (a copy of staging under another name), dev removed.
    fs::copy(repo / "clusters/staging", repo / "clusters/qa", fs::copy_options::recursive);
    REQUIRE(qf_test::replace_once(repo / "clusters/qa/queueforge-site.yaml", "  name: staging\n", "  name: qa\n"));
    REQUIRE(sh("git rm -rq clusters/dev && git add -A && git commit -qm 'qa in, dev out'").exit == 0);
    auto moved = sh("queueforge diff --base HEAD~1 --head HEAD");
    INFO(moved.out << moved.err);
    REQUIRE(moved.exit == 0);
    CHECK(moved.out.find("== clusters/dev (site removed)") != std::string::npos);
    CHECK(moved.out.find("== clusters/qa (site added)") != std::string::npos);
    CHECK(moved.out.find("== clusters/prod") == std::string::npos);
}

TEST_CASE("gitops-repo: Debian's pre-commit with one entry per hook renders every cluster and a base change "
          "reaches them all",
          "[gitops-repo][git][slow]") {
    if (std::system("command -v pre-commit >/dev/null 2>&1") != 0) {
        WARN("skipped: pre-commit is not installed (scripts/setup.sh installs it; apt-get install pre-commit)");
        return;
    }
    qf_test::TempDir t;
    const std::string rev = qf_test::commit_hook_repository(t.path / "hooks");
    REQUIRE(rev.size() == 40);
    const fs::path work = t.path / "work";
    fs::copy(source_dir() / "examples/gitops-repo", work, fs::copy_options::recursive);
    qf_test::write_text(work / ".pre-commit-config.yaml",
                        "repos:\n- repo: " + (t.path / "hooks").string() + "\n  rev: " + rev +
                            "\n  hooks:\n  - id: queueforge-check\n  - id: queueforge-render\n");
    const std::string scratch = (t.path / "scratch").string();
    const std::string env = "mkdir -p " + scratch + " && export TMPDIR=" + scratch + " && ";
    // The first commit renders each cluster into its own folder; staged, it passes.
    auto r = qf_test::sh(work, env + "git init -q && pre-commit install >/dev/null && git add -A && "
                                     "{ git commit -qm first 2>&1 || { git add -A && git commit -qm first 2>&1; }; }");
    INFO(r.out << r.err);
    REQUIRE(r.exit == 0);
    for (const char* c : {"dev", "prod", "staging"})
        CHECK(fs::exists(work / "clusters" / c / "rendered"));
    CHECK(!fs::exists(work / "base/rendered"));

    // A change to the base alone: the render hook updates all three clusters.
    REQUIRE(qf_test::replace_once(work / "base/queueforge-site.yaml", "{name: standard, value: 100,",
                                  "{name: standard, value: 150,"));
    r = qf_test::sh(work, env + "git add -A && git commit -qm base 2>&1 || echo exit=$?");
    INFO(r.out << r.err);
    CHECK(r.out.find("exit=1") != std::string::npos);
    for (const char* c : {"dev", "prod", "staging"})
        CHECK(r.out.find(std::string("updated the rendered manifests in clusters/") + c + "/rendered") !=
              std::string::npos);
    r = qf_test::sh(work, env + "git add -A && git commit -qm base 2>&1");
    INFO(r.out << r.err);
    CHECK(r.exit == 0);
    CHECK(qf_test::sh(work, "git log --oneline | wc -l").out == "2\n");

    // A cut of prod's H100 pool that moves the base's sample jobs off H100: the check hook fails under prod,
    // at the base's lines that set the expectations, and checks no other cluster.
    REQUIRE(qf_test::replace_once(work / "clusters/prod/queueforge-site.yaml", "- name: h100\n      nodes: 8",
                                  "- name: h100\n      nodes: 1"));
    r = qf_test::sh(work, env + "git add -A && git commit -qm cut 2>&1 || echo exit=$?");
    INFO(r.out << r.err);
    CHECK(r.out.find("exit=1") != std::string::npos);
    CHECK(r.out.find("base/queueforge-site.yaml:80:7: error: expectation not met") != std::string::npos);
    CHECK(r.out.find("index:clusters/prod: 2 errors, 0 warnings") != std::string::npos);
    CHECK(r.out.find("clusters/staging") == std::string::npos);
    CHECK(r.out.find("clusters/dev") == std::string::npos);
    CHECK(r.out.find(scratch) == std::string::npos);
}

TEST_CASE("gitops-repo: generate in an application folder renders the cluster with its base", "[gitops-repo]") {
    qf_test::TempDir t;
    fs::copy(source_dir() / "examples/gitops-repo", t.path, fs::copy_options::recursive);
    fs::create_directories(t.path / ".git");
    auto prod = run_cli_in(t.path / "clusters/prod", "generate");
    auto build = run_cli_in(t.path, "build clusters/prod");
    INFO(prod.err << build.err);
    REQUIRE(prod.exit == 0);
    REQUIRE(build.exit == 0);
    CHECK(prod.out.find("name: search") != std::string::npos);       // prod's own team
    CHECK(prod.out.find("name: production") != std::string::npos);   // a priority class of the base
    // The base is read, never rendered as a cluster: what the plugin prints is prod's build.
    CHECK(prod.out.find("kind: ClusterQueue") != std::string::npos);
    CHECK(prod.out.find("app.kubernetes.io/part-of: prod") != std::string::npos);
}
