// The repository's one pair of pre-commit hooks (.pre-commit-hooks.yaml,
// `queueforge hook check|render`, pass_filenames: true): exactly the sites
// the staged files reach are checked and rendered, each into its own folder.
// Through `queueforge hook` directly, and through Debian's real pre-commit.
#include <catch2/catch.hpp>

#include "git_util.hpp"

#include <filesystem>

namespace fs = std::filesystem;
using qf_test::add_multi_team_site;
using qf_test::read_text;
using qf_test::replace_once;
using qf_test::sh;
using qf_test::TempDir;
using qf_test::write_text;

namespace {

// Two sites, fleet/east.yaml and fleet/west.yaml, sharing the job manifest
// fleet/jobs/llm-pretrain-pytorchjob.yaml, plus a site of its own in
// clusters/solo; a README that reaches none.
void make_fleet(const fs::path& repo) {
    add_multi_team_site(repo / "fleet", "east");
    fs::rename(repo / "fleet/queueforge-site.yaml", repo / "fleet/east.yaml");
    std::string west = read_text(repo / "fleet/east.yaml");
    west.replace(west.find("  name: east\n"), 12, "  name: west\n");
    write_text(repo / "fleet/west.yaml", west);
    add_multi_team_site(repo / "clusters/solo", "solo");
    write_text(repo / "notes/plan.yaml", "not: a site\n");
}

const std::string kJobRequest = "requests: {cpu: \"16\", memory: 200Gi, nvidia.com/gpu: \"4\"}";

}  // namespace

TEST_CASE("precommit: queueforge hook acts on exactly the sites the files reach", "[precommit]") {
    TempDir t;
    make_fleet(t.path);
    REQUIRE(sh(t.path, "git init -q && git add -A && git commit -qm fleet").exit == 0);
    const std::string scratch = (t.path / "scratch").string();
    const std::string env = "mkdir -p " + scratch + " && export TMPDIR=" + scratch + " && ";

    // Nothing passed, or nothing that reaches a site: nothing to do.
    CHECK(sh(t.path, env + "queueforge hook check").exit == 0);
    CHECK(sh(t.path, env + "queueforge hook render notes/plan.yaml").exit == 0);
    CHECK(!fs::exists(t.path / "fleet/rendered"));

    // A site file: that site only, rendered into its own folder.
    auto r = sh(t.path, env + "queueforge hook render fleet/east.yaml || echo exit=$?");
    INFO(r.out << r.err);
    CHECK(r.out.find("exit=1") != std::string::npos);  // the folder had to be written
    CHECK(fs::exists(t.path / "fleet/rendered/east"));
    CHECK(!fs::exists(t.path / "fleet/rendered/west"));
    CHECK(!fs::exists(t.path / "clusters/solo/rendered"));
    CHECK(sh(t.path, env + "queueforge hook render fleet/east.yaml").exit == 0);  // now up to date

    // The shared job manifest, made invalid and staged: both sites that read it, not solo.
    REQUIRE(replace_once(t.path / "fleet/jobs/llm-pretrain-pytorchjob.yaml", kJobRequest,
                         "requests: {cpu: \"16\", memory: 200Gi, nvidia.com/gpu: \"4x\"}"));
    r = sh(t.path, env + "git add -A && queueforge hook check fleet/jobs/llm-pretrain-pytorchjob.yaml || echo exit=$?");
    INFO(r.out << r.err);
    CHECK(r.out.find("exit=1") != std::string::npos);
    // The job's errors, and one summary line per site that reads it.
    const std::string all = r.out + r.err;
    CHECK(all.find("index:fleet/jobs/llm-pretrain-pytorchjob.yaml:22:70: error:") != std::string::npos);
    CHECK(all.find("\nindex:fleet/east.yaml: 1 error") != std::string::npos);
    CHECK(all.find("\nindex:fleet/west.yaml: 1 error") != std::string::npos);
    CHECK(all.find("clusters/solo") == std::string::npos);
    CHECK(all.find(scratch) == std::string::npos);  // never the temporary folder
    // Only what is staged counts: the work tree's fix is not seen until it is added.
    REQUIRE(replace_once(t.path / "fleet/jobs/llm-pretrain-pytorchjob.yaml", "\"4x\"", "\"4\""));
    CHECK(sh(t.path, env + "queueforge hook check fleet/jobs/llm-pretrain-pytorchjob.yaml").exit == 1);
    CHECK(sh(t.path, env + "git add -A && queueforge hook check fleet/jobs/llm-pretrain-pytorchjob.yaml").exit == 0);

    // A folder in the hook's args reaches the sites beneath it; a path outside the repository is a usage error.
    r = sh(t.path, env + "queueforge hook render clusters || echo exit=$?");
    CHECK(fs::exists(t.path / "clusters/solo/rendered"));
    CHECK(sh(t.path, env + "queueforge hook check /etc/hostname || echo exit=$?").out.find("exit=2") != std::string::npos);
}

TEST_CASE("precommit: Debian's pre-commit with one entry per hook for the whole repository", "[precommit][slow]") {
    if (std::system("command -v pre-commit >/dev/null 2>&1") != 0) {
        WARN("skipped: pre-commit is not installed (scripts/setup.sh installs it; apt-get install pre-commit)");
        return;
    }
    TempDir t;
    const std::string rev = qf_test::commit_hook_repository(t.path / "hooks");
    REQUIRE(rev.size() == 40);
    qf_test::Shell r;
    const fs::path work = t.path / "work";
    make_fleet(work);
    write_text(work / ".pre-commit-config.yaml", "repos:\n- repo: " + (t.path / "hooks").string() + "\n  rev: " + rev +
                                                     "\n  hooks:\n  - id: queueforge-check\n  - id: queueforge-render\n");
    const std::string scratch = (t.path / "scratch").string();
    const std::string env = "mkdir -p " + scratch + " && export TMPDIR=" + scratch + " && ";
    // The first commit renders every site; after staging the result it passes.
    r = sh(work, env + "git init -q && pre-commit install >/dev/null && git add -A && { git commit -qm first 2>&1 || "
                       "{ git add -A && git commit -qm first 2>&1; }; }");
    INFO(r.out << r.err);
    REQUIRE(r.exit == 0);
    CHECK(fs::exists(work / "fleet/rendered/east"));
    CHECK(fs::exists(work / "fleet/rendered/west"));
    CHECK(fs::exists(work / "clusters/solo/rendered"));
    CHECK(sh(work, "git log --oneline | wc -l").out == "1\n");

    // A change to one site: only that site is re-rendered.
    REQUIRE(replace_once(work / "fleet/east.yaml", "nominal: {cpu: 192, memory: 2000Gi, nvidia.com/gpu: 16}",
                         "nominal: {cpu: 192, memory: 2000Gi, nvidia.com/gpu: 12}"));
    r = sh(work, env + "git add -A && git commit -qm east 2>&1 || echo exit=$?");
    INFO(r.out << r.err);
    CHECK(r.out.find("exit=1") != std::string::npos);
    CHECK(r.out.find("updated the rendered manifests in fleet/rendered/east") != std::string::npos);
    CHECK(r.out.find("fleet/rendered/west") == std::string::npos);
    CHECK(r.out.find("clusters/solo") == std::string::npos);
    CHECK(sh(work, "git status --porcelain").out == "M  fleet/east.yaml\n M fleet/rendered/east/05-clusterqueue-search.yaml\n");
    r = sh(work, env + "git add -A && git commit -qm east 2>&1");
    INFO(r.out << r.err);
    CHECK(r.exit == 0);

    // A change to the shared job file: both sites that read it are checked.
    REQUIRE(replace_once(work / "fleet/jobs/llm-pretrain-pytorchjob.yaml", kJobRequest,
                         "requests: {cpu: \"16\", memory: 200Gi, nvidia.com/gpu: \"4x\"}"));
    r = sh(work, env + "git add -A && git commit -qm job 2>&1 || echo exit=$?");
    INFO(r.out << r.err);
    CHECK(r.out.find("exit=1") != std::string::npos);
    CHECK(r.out.find("index:fleet/jobs/llm-pretrain-pytorchjob.yaml:22:70: error:") != std::string::npos);
    CHECK(r.out.find("\nindex:fleet/east.yaml: 1 error") != std::string::npos);
    CHECK(r.out.find("\nindex:fleet/west.yaml: 1 error") != std::string::npos);
    CHECK(r.out.find("clusters/solo") == std::string::npos);
    CHECK(r.out.find(scratch) == std::string::npos);
    CHECK(sh(work, "git log --oneline | wc -l").out == "2\n");

    // A file that reaches no site: both hooks pass without doing anything.
    r = sh(work, env + "git reset -q && git checkout -q -- fleet && echo 'more: notes' >> notes/plan.yaml && "
                       "git add notes && git commit -qm notes 2>&1");
    INFO(r.out << r.err);
    CHECK(r.exit == 0);
}
