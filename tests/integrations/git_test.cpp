// Git-aware commands in real repositories made in temporary folders:
// diff between revisions / the index / the work tree, check and build
// --staged, bad repositories and revisions, and Debian's real pre-commit
// running the hooks of .pre-commit-hooks.yaml.
#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

#include "git_util.hpp"

#include <filesystem>

namespace fs = std::filesystem;
using qf_test::read_text;
using qf_test::shell_quote;
using qf_test::TempDir;
using qf_test::write_text;
using qf_test::Shell;
using qf_test::sh;

namespace {

void copy_example(const std::string& name, const fs::path& to) {
    fs::create_directories(to);
    fs::copy(qf_test::source_dir() / "examples" / name, to, fs::copy_options::recursive);
}

// A repository with the multi-team site under clusters/prod, committed.
void make_repo(const fs::path& repo) {
    copy_example("multi-team", repo / "clusters" / "prod");
    auto r = sh(repo, "git init -q && git add -A && git commit -qm base");
    REQUIRE(r.exit == 0);
}

void replace_in(const fs::path& file, const std::string& from, const std::string& to) {
    std::string s = read_text(file);
    auto at = s.find(from);
    REQUIRE(at != std::string::npos);
    s.replace(at, from.size(), to);
    write_text(file, s);
}

const std::string kSearchA100 = "nominal: {cpu: 192, memory: 2000Gi, nvidia.com/gpu: 16}";

}  // namespace

TEST_CASE("git: diff shows quotas before -> after between two commits and for the work tree", "[git]") {
    TempDir t;
    make_repo(t.path);
    auto site = t.path / "clusters/prod/queueforge-site.yaml";
    replace_in(site, kSearchA100, "nominal: {cpu: 192, memory: 2000Gi, nvidia.com/gpu: 12}");
    // Uncommitted: base HEAD against the work tree.
    auto r = sh(t.path, "queueforge diff --base HEAD clusters/prod");
    INFO(r.err);
    CHECK(r.exit == 0);
    CHECK(r.out.find("to the work tree") != std::string::npos);
    CHECK(r.out.find("search a100/nvidia.com/gpu nominalQuota: 16 -> 12") != std::string::npos);
    CHECK(r.out.find("spec.resourceGroups[0].flavors[a100].resources[nvidia.com/gpu].nominalQuota: 16 -> 12") != std::string::npos);
    // Committed on a branch: two revisions, from a subfolder (paths are relative to it).
    r = sh(t.path, "git checkout -qb smaller && git commit -qam smaller && cd clusters && "
                   "queueforge diff --base main --head smaller prod -o json");
    INFO(r.err);
    REQUIRE(r.exit == 0);
    auto doc = nlohmann::json::parse(r.out);
    CHECK(doc["kind"] == "Review");
    REQUIRE(doc["quotas"].size() == 1);
    CHECK(doc["quotas"][0]["before"] == "16");
    CHECK(doc["quotas"][0]["after"] == "12");
    CHECK(doc["simulated"] == true);
    // Same revision: nothing changed.
    r = sh(t.path, "queueforge diff --base HEAD --head smaller clusters/prod");
    CHECK(r.out.find("no object changes") != std::string::npos);
}

TEST_CASE("git: diff reports admission changes of the site's sample workloads (markdown)", "[git]") {
    TempDir t;
    make_repo(t.path);
    // search loses its a100 GPUs: its 8-GPU ranker can no longer run there.
    replace_in(t.path / "clusters/prod/queueforge-site.yaml", kSearchA100, "nominal: {cpu: 192, memory: 2000Gi, nvidia.com/gpu: 0}");
    replace_in(t.path / "clusters/prod/queueforge-site.yaml", "          lendingLimit: {nvidia.com/gpu: 8}\n        - pool: l40s\n          nominal: {cpu: 128",
               "        - pool: l40s\n          nominal: {cpu: 128");
    auto r = sh(t.path, "git add -A && queueforge diff --base HEAD --staged clusters/prod -o markdown");
    INFO(r.err);
    CHECK(r.exit == 0);
    CHECK(r.out.find("### queueforge diff: HEAD (") != std::string::npos);
    CHECK(r.out.find("the index (staged changes)") != std::string::npos);
    CHECK(r.out.find("| search | a100 | nvidia.com/gpu | nominalQuota | `16` | `0` |") != std::string::npos);
    CHECK(r.out.find("| search/search-ranker-8gpu | Admitted on a100 |") != std::string::npos);
}

TEST_CASE("git: a removed ClusterQueue that running workloads use is flagged", "[git]") {
    TempDir t;
    make_repo(t.path);
    write_text(t.path / "running.yaml", R"(apiVersion: kueue.x-k8s.io/v1beta1
kind: Workload
metadata: {name: ranker-live, namespace: search, creationTimestamp: "2026-01-01T00:00:00Z"}
spec:
  queueName: team-queue
  podSets: [{name: main, count: 1, template: {spec: {containers: [{name: c, resources: {requests: {cpu: "1"}}}]}}}]
status:
  admission:
    clusterQueue: search
    podSetAssignments: [{name: main, count: 1, flavors: {cpu: a100}, resourceUsage: {cpu: "1"}}]
  conditions:
  - {type: QuotaReserved, status: "True", reason: QuotaReserved, lastTransitionTime: "2026-01-01T00:00:00Z"}
)");
    // The search team leaves the site.
    std::string s = read_text(t.path / "clusters/prod/queueforge-site.yaml");
    auto from = s.find("    - name: search\n");
    auto to = s.find("    - name: recsys\n");
    REQUIRE(from != std::string::npos);
    s.erase(from, to - from);
    auto sample = s.find("    - name: search-ranker-8gpu");
    auto sample_end = s.find("    - name: nightly-report");
    s.erase(sample, sample_end - sample);
    write_text(t.path / "clusters/prod/queueforge-site.yaml", s);
    auto r = sh(t.path, "queueforge diff --base HEAD clusters/prod --running running.yaml");
    CHECK(r.exit == 1);
    CHECK(r.out.find("- ClusterQueue/search") != std::string::npos);
    CHECK(r.out.find("BLOCKED: ClusterQueue search is removed but still used by search/ranker-live") != std::string::npos);
    CHECK(r.out.find("search/ranker-live (running): Admitted on a100 -> Pending") != std::string::npos);
    CHECK(r.out.find("[loses its quota]") != std::string::npos);
    CHECK(r.err.find("review.deletion-blocked") != std::string::npos);
}

TEST_CASE("git: a site split across files, renamed files and binary files are read from revisions", "[git]") {
    TempDir t;
    make_repo(t.path);
    // The PyTorchJob the site references moves; the reference follows.
    auto r = sh(t.path, "git mv clusters/prod/jobs/llm-pretrain-pytorchjob.yaml clusters/prod/jobs/pretrain.yaml && "
                        "sed -i 's#jobs/llm-pretrain-pytorchjob.yaml#jobs/pretrain.yaml#' clusters/prod/queueforge-site.yaml && "
                        "printf '\\x89PNG\\r\\n\\x1a\\n\\x00\\x00' > clusters/prod/diagram.png && git add -A && git commit -qm rename && "
                        "queueforge diff --base HEAD~1 --head HEAD clusters/prod");
    INFO(r.err);
    CHECK(r.exit == 0);
    CHECK(r.out.find("no object changes") != std::string::npos);
    CHECK(r.out.find("no sample or running workload changes") != std::string::npos);
}

TEST_CASE("git: bad repositories and revisions give clear messages and exit codes", "[git][slow]") {
    TempDir t;
    make_repo(t.path);
    auto r = sh(t.path, "queueforge diff --base no-such-branch clusters/prod || echo exit=$?");
    CHECK(r.out.find("exit=1") != std::string::npos);
    CHECK(r.err.find("unknown revision \"no-such-branch\"") != std::string::npos);

    TempDir plain;
    r = sh(plain.path, "queueforge diff --base HEAD || echo exit=$?");
    CHECK(r.out.find("exit=2") != std::string::npos);
    CHECK(r.err.find("not a git repository") != std::string::npos);

    // A revision where the site did not exist yet: the site was added.
    r = sh(t.path, "mkdir -p other && cp clusters/prod/queueforge-site.yaml other/ && "
                   "sed -i 's/^  name: multi-team/  name: other/' other/queueforge-site.yaml && git add -A && git commit -qm other && "
                   "queueforge diff --base HEAD~1 other || echo exit=$?");
    INFO(r.err);
    CHECK(r.out.find("exit=") == std::string::npos);
    CHECK(r.out.find("== other (site added)") != std::string::npos);

    // A revision where the site is invalid: named with the revision.
    r = sh(t.path, "sed -i 's/target: rhoai-2.25/target: rhoai-9.9/' other/queueforge-site.yaml && git commit -qam broken && "
                   "queueforge diff --base HEAD --head HEAD~1 other || echo exit=$?");
    CHECK(r.out.find("exit=1") != std::string::npos);
    CHECK(r.err.find("HEAD:other/queueforge-site.yaml:") != std::string::npos);
    CHECK(r.err.find("(in HEAD (") != std::string::npos);

    // Bare and shallow clones.
    r = sh(t.path, "git clone -q --bare . ../bare.git && cd ../bare.git && queueforge diff --base HEAD~1 --head HEAD clusters/prod");
    INFO(r.err);
    CHECK(r.exit == 0);
    r = sh(t.path, "cd ../bare.git && queueforge diff --base HEAD clusters/prod || echo exit=$?");
    CHECK(r.err.find("bare") != std::string::npos);
    r = sh(t.path, "git clone -q --depth 1 file://$PWD ../shallow && cd ../shallow && queueforge diff --base HEAD~1 clusters/prod || echo exit=$?");
    CHECK(r.out.find("exit=1") != std::string::npos);
    CHECK(r.err.find("shallow") != std::string::npos);
    fs::remove_all(t.path.parent_path() / "bare.git");
    fs::remove_all(t.path.parent_path() / "shallow");

    r = sh(t.path, "queueforge diff --base HEAD --head HEAD --staged || echo exit=$?");
    CHECK(r.out.find("exit=2") != std::string::npos);
    r = sh(t.path, "queueforge diff --base HEAD /etc || echo exit=$?");
    CHECK(r.out.find("exit=2") != std::string::npos);
    CHECK(r.err.find("outside the repository") != std::string::npos);
}

TEST_CASE("git: check and build --staged judge the index, not the work tree, and leave it alone", "[git]") {
    TempDir t;
    make_repo(t.path);
    auto site = t.path / "clusters/prod/queueforge-site.yaml";
    replace_in(site, kSearchA100, "nominal: {cpu: 192, memory: 2000Gi, nvidia.com/gpu: 4}");
    auto r = sh(t.path, "git add -A && git diff --cached --stat");
    REQUIRE(r.exit == 0);
    // The work tree is fixed again, but not staged: the commit would still be bad.
    replace_in(site, "nominal: {cpu: 192, memory: 2000Gi, nvidia.com/gpu: 4}", kSearchA100);
    std::string index_before = sh(t.path, "git ls-files -s && stat -c %Y .git/index").out;
    r = sh(t.path, "queueforge check --staged clusters/prod || echo exit=$?");
    INFO(r.err);
    CHECK(r.out.find("exit=1") != std::string::npos);
    CHECK(r.out.find("index:clusters/prod/queueforge-site.yaml:88:42: error:") != std::string::npos);
    r = sh(t.path, "queueforge check clusters/prod");
    CHECK(r.exit == 0);  // the work tree is fine
    CHECK(sh(t.path, "git ls-files -s && stat -c %Y .git/index").out == index_before);

    // build --staged --fail-on-change renders the staged site into the work tree.
    r = sh(t.path, "git reset -q --hard && queueforge build --staged clusters/prod -o rendered --prune --fail-on-change || echo exit=$?");
    INFO(r.err);
    CHECK(r.out.find("exit=1") != std::string::npos);
    CHECK(r.err.find("updated the rendered manifests in rendered") != std::string::npos);
    CHECK(fs::exists(t.path / "rendered/05-clusterqueue-search.yaml"));
    r = sh(t.path, "queueforge build --staged clusters/prod -o rendered --prune --fail-on-change");
    CHECK(r.exit == 0);  // up to date now
}

TEST_CASE("git: Debian's pre-commit runs queueforge's hooks on the staged site", "[git][pre-commit][slow]") {
    if (std::system("command -v pre-commit >/dev/null 2>&1") != 0) {
        WARN("skipped: pre-commit is not installed (scripts/setup.sh installs it)");
        return;
    }
    TempDir t;
    std::string rev = qf_test::commit_hook_repository(t.path / "hooks");
    REQUIRE(rev.size() == 40);
    Shell r;
    fs::create_directories(t.path / "work");
    copy_example("seed-minimal", t.path / "work" / "site");
    write_text(t.path / "work/.pre-commit-config.yaml", "repos:\n- repo: " + (t.path / "hooks").string() + "\n  rev: " + rev +
                                                            "\n  hooks:\n  - id: queueforge-check\n  - id: queueforge-render\n");
    r = sh(t.path / "work", "git init -q && pre-commit install >/dev/null && git add -A && git commit -m good 2>&1 || "
                            "{ git add -A && git commit -qm good; }");
    INFO(r.out << r.err);
    // The render hook wrote the site's rendered/ on the first attempt; the second commit passes.
    CHECK(r.exit == 0);
    CHECK(fs::exists(t.path / "work/site/rendered/05-clusterqueue-cluster-queue.yaml"));
    CHECK(sh(t.path / "work", "git log --oneline | wc -l").out == "1\n");

    replace_in(t.path / "work/site/queueforge-site.yaml", "nvidia.com/gpu: 5}", "nvidia.com/gpu: -5}");
    r = sh(t.path / "work", "git add -A && git commit -m bad 2>&1 || echo exit=$?");
    INFO(r.out << r.err);
    CHECK(r.out.find("exit=1") != std::string::npos);
    CHECK(r.out.find("queueforge check") != std::string::npos);
    CHECK(r.out.find("index:site/queueforge-site.yaml:16:") != std::string::npos);
    CHECK(r.out.find("must not be negative") != std::string::npos);
    CHECK(sh(t.path / "work", "git log --oneline | wc -l").out == "1\n");
}

TEST_CASE("git: diff --running with a file that cannot be read is an error naming it", "[git][defects]") {
    TempDir t;
    make_repo(t.path);
    auto missing = sh(t.path, "queueforge diff --base HEAD --running nowhere.yaml clusters/prod");
    CHECK(missing.exit == 2);
    CHECK(missing.err.find("nowhere.yaml") != std::string::npos);
    CHECK(missing.out.empty());
    fs::create_symlink("loop.yaml", t.path / "loop.yaml");
    auto loop = sh(t.path, "queueforge diff --base HEAD --running loop.yaml clusters/prod");
    CHECK(loop.exit == 2);
    CHECK(loop.err.find("loop.yaml") != std::string::npos);
    // The option takes one value: the site path after it stays positional.
    write_text(t.path / "running.yaml", "apiVersion: v1\nkind: List\nitems: []\n");
    auto ok = sh(t.path, "queueforge diff --base HEAD --running running.yaml clusters/prod");
    INFO(ok.err);
    CHECK(ok.exit == 0);
}

TEST_CASE("git: no usable temporary folder is an error naming it, not an internal error", "[git][defects]") {
    // A minimal image (FROM scratch) has no /tmp unless one is mounted: diff
    // of a revision used to end in exit 70 (temp_directory_path threw).
    TempDir t;
    make_repo(t.path);
    auto r = sh(t.path, "TMPDIR=" + shell_quote((t.path / "no-such-folder").string()) +
                            " queueforge diff --base HEAD clusters/prod");
    INFO(r.err);
    CHECK(r.exit == 1);
    CHECK(r.err.find("no-such-folder") != std::string::npos);
    CHECK(r.err.find("internal error") == std::string::npos);
}
