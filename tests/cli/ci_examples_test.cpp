// The CI and Argo CD examples are real: the queueforge command lines of
// examples/ci/*-diff.yaml run (as the CI systems would) against a repository
// with a pull request's history, and the ApplicationSet of deploy/argocd uses
// the plugin deploy/argocd ships.
#include <catch2/catch.hpp>

#include "git_util.hpp"

#include <queueforge/base/yaml_load.hpp>

#include <filesystem>

namespace fs = std::filesystem;
using queueforge::Diagnostics;
using queueforge::Node;
using qf_test::read_text;
using qf_test::sh;
using qf_test::TempDir;

namespace {

Node load(const fs::path& file) {
    Diagnostics diags;
    auto docs = queueforge::load_yaml(file.string(), read_text(file), diags);
    INFO(file.string());
    REQUIRE(docs.size() == 1);
    REQUIRE(!diags.has_errors());
    return docs.front().root;
}

const Node& at(const Node& n, std::initializer_list<const char*> path) {
    const Node* cur = &n;
    for (const char* key : path) {
        INFO(key);
        REQUIRE(cur->is_map());
        cur = cur->find(key);
        REQUIRE(cur);
    }
    return *cur;
}

// The `queueforge ...` command lines of shell script texts, up to a `||`.
std::vector<std::string> queueforge_lines(const std::vector<std::string>& scripts) {
    std::vector<std::string> out;
    for (const auto& s : scripts) {
        std::size_t at = 0;
        while ((at = s.find("queueforge diff", at)) != std::string::npos) {
            std::size_t end = s.find('\n', at);
            std::string line = s.substr(at, end == std::string::npos ? std::string::npos : end - at);
            if (auto bar = line.find(" || "); bar != std::string::npos) line.erase(bar);
            out.push_back(line);
            at += 15;
        }
    }
    return out;
}

// A repository whose pull request (HEAD, branch "pr") cuts prod's quota so
// that a sample workload loses its flavor; main is the target branch, also
// known as origin/main.
void make_pr_repo(const fs::path& repo) {
    qf_test::add_multi_team_site(repo / "clusters/prod", "prod");
    qf_test::add_multi_team_site(repo / "clusters/staging", "staging");
    REQUIRE(sh(repo, "git init -q && git add -A && git commit -qm fleet && git update-ref refs/remotes/origin/main main && "
                     "git checkout -qb pr").exit == 0);
    REQUIRE(qf_test::replace_once(repo / "clusters/prod/queueforge-site.yaml",
                                  "nominal: {cpu: 192, memory: 2000Gi, nvidia.com/gpu: 16}",
                                  "nominal: {cpu: 192, memory: 2000Gi, nvidia.com/gpu: 0}"));
    REQUIRE(qf_test::replace_once(repo / "clusters/prod/queueforge-site.yaml",
                                  "          lendingLimit: {nvidia.com/gpu: 8}\n        - pool: l40s\n", "        - pool: l40s\n"));
    REQUIRE(sh(repo, "git commit -qam 'cut prod'").exit == 0);
}

void run_in_pr(const std::vector<std::string>& lines, const std::string& env) {
    REQUIRE(!lines.empty());
    for (const auto& line : lines) {
        TempDir t;
        make_pr_repo(t.path);
        auto r = sh(t.path, env + line + " || echo exit=$?");
        INFO(line << "\n" << r.out << r.err);
        CHECK(r.out.find("exit=1") != std::string::npos);  // --fail-on regression: the cut fails the job
        const std::string md = read_text(t.path / "queueforge-diff.md");
        CHECK(md.rfind("<!-- queueforge-diff -->\n", 0) == 0);
        CHECK(md.find("| `clusters/prod` | changed |") != std::string::npos);
        CHECK(md.find("| `clusters/staging` | unchanged |") != std::string::npos);
    }
}

}  // namespace

TEST_CASE("ci examples: the GitHub Actions diff job's command runs against a pull request", "[ci-examples][diff-sites]") {
    const Node doc = load(qf_test::source_dir() / "examples/ci/github-actions-diff.yaml");
    // `on:` is a plain key in YAML 1.2 (the boolean of YAML 1.1 to some readers).
    bool on_pull_request = false;
    for (const auto& e : doc.entries())
        if ((e.key == "on" || e.key == "true") && e.value.is_map() && e.value.find("pull_request")) on_pull_request = true;
    CHECK(on_pull_request);
    CHECK(at(doc, {"permissions", "pull-requests"}).text() == "write");
    std::vector<std::string> scripts;
    bool fetches_history = false, posts = false;
    for (const auto& job : at(doc, {"jobs"}).entries())
        for (const auto& step : at(job.value, {"steps"}).items()) {
            if (const Node* run = step.find("run")) scripts.push_back(run->text());
            if (const Node* with = step.find("with"))
                if (const Node* depth = with->find("fetch-depth"); depth && depth->text() == "0") fetches_history = true;
            if (const Node* uses = step.find("uses"); uses && uses->text().rfind("actions/github-script", 0) == 0)
                posts = at(step, {"with", "script"}).text().find("<!-- queueforge-diff -->") != std::string::npos;
        }
    CHECK(fetches_history);
    CHECK(posts);
    auto lines = queueforge_lines(scripts);
    for (auto& l : lines) {
        const std::string expr = "${{ github.base_ref }}";
        if (auto at = l.find(expr); at != std::string::npos) l.replace(at, expr.size(), "main");
    }
    run_in_pr(lines, "");
}

TEST_CASE("ci examples: the GitLab merge-request diff job's command runs against a merge request", "[ci-examples][diff-sites]") {
    const Node doc = load(qf_test::source_dir() / "examples/ci/gitlab-ci-diff.yaml");
    const Node& job = at(doc, {"queueforge-diff"});
    CHECK(at(job, {"variables", "GIT_DEPTH"}).text() == "0");
    std::vector<std::string> scripts;
    for (const auto& s : at(job, {"script"}).items()) scripts.push_back(s.text());
    bool notes = false;
    for (const auto& s : scripts) notes = notes || s.find("/merge_requests/$CI_MERGE_REQUEST_IID/notes") != std::string::npos;
    CHECK(notes);
    run_in_pr(queueforge_lines(scripts), "export CI_MERGE_REQUEST_DIFF_BASE_SHA=$(git rev-parse main) && ");
}

TEST_CASE("ci examples: the GitLab check job writes a Code Quality report and a JUnit report, and fails on drift", "[ci-examples][gitlab]") {
    const Node doc = load(qf_test::source_dir() / "examples/ci/gitlab-ci.yaml");
    const Node& job = at(doc, {"queueforge-check"});
    CHECK(at(job, {"artifacts", "reports", "codequality"}).text() == "gl-code-quality-report.json");
    CHECK(at(job, {"artifacts", "reports", "junit"}).text() == "queueforge-junit.xml");
    std::string script;  // sh() runs it under set -e, as GitLab's runner does
    for (const auto& s : at(job, {"script"}).items()) script += s.text() + "\n";
    TempDir t;
    qf_test::add_multi_team_site(t.path / "clusters/prod", "prod");
    REQUIRE(sh(t.path, "queueforge build clusters/prod -o clusters/prod/rendered").exit == 0);
    {
        auto r = sh(t.path, script);
        INFO(r.out << r.err);
        CHECK(r.exit == 0);  // rendered output in step with the site: the job passes
        const auto quality = read_text(t.path / "gl-code-quality-report.json");
        CHECK(quality.rfind("[", 0) == 0);
        CHECK(quality.find("\"severity\": \"major\"") == std::string::npos);  // notes only
    }
    {
        // The site changes but the rendered folder is not rebuilt: drift.
        REQUIRE(qf_test::replace_once(t.path / "clusters/prod/queueforge-site.yaml",
                                      "nominal: {cpu: 192, memory: 2000Gi, nvidia.com/gpu: 16}",
                                      "nominal: {cpu: 192, memory: 2000Gi, nvidia.com/gpu: 12}"));
        auto r = sh(t.path, script);
        INFO(r.out << r.err);
        CHECK(r.exit != 0);
        const auto quality = read_text(t.path / "gl-code-quality-report.json");
        CHECK(quality.find("\"check_name\"") != std::string::npos);
        CHECK(quality.find("\"severity\": \"major\"") != std::string::npos);
        CHECK(read_text(t.path / "queueforge-junit.xml").find("<failure") != std::string::npos);
    }
}

TEST_CASE("argocd: the ApplicationSet makes one Application per cluster folder with the shipped plugin", "[argocd][ci-examples]") {
    const auto dir = qf_test::source_dir() / "deploy/argocd";
    const Node plugin = load(dir / "plugin.yaml");
    const Node set = load(dir / "applicationset.yaml");
    CHECK(at(set, {"kind"}).text() == "ApplicationSet");
    const Node& generators = at(set, {"spec", "generators"});
    REQUIRE(generators.is_seq());
    REQUIRE(generators.items().size() == 1);
    const Node& dirs = at(generators.items()[0], {"git", "directories"});
    REQUIRE(dirs.is_seq());
    CHECK(at(dirs.items()[0], {"path"}).text() == "clusters/*");
    const Node& source = at(set, {"spec", "template", "spec", "source"});
    CHECK(at(source, {"plugin", "name"}).text() == at(plugin, {"metadata", "name"}).text());
    CHECK(at(source, {"path"}).text() == "{{.path.path}}");
    CHECK(at(source, {"repoURL"}).text() == at(generators.items()[0], {"git", "repoURL"}).text());
    // One Application per folder: the name and the destination follow the folder.
    CHECK(at(set, {"spec", "template", "metadata", "name"}).text().find("{{.path.basename}}") != std::string::npos);
    CHECK(at(set, {"spec", "template", "spec", "destination", "name"}).text() == "{{.path.basename}}");
    // The plugin is found in such a folder: its discover rule names the site file.
    CHECK(at(plugin, {"spec", "discover", "fileName"}).text() == "queueforge-site.yaml");
    // The sidecar's ConfigMap carries the same plugin definition.
    Diagnostics diags;
    const auto sidecar = queueforge::load_yaml("plugin-configmap.yaml", read_text(dir / "plugin-configmap.yaml"), diags);
    REQUIRE(!sidecar.empty());
    const Node& embedded_text = at(sidecar.front().root, {"data", "plugin.yaml"});
    auto embedded = queueforge::load_yaml("plugin.yaml", embedded_text.text(), diags);
    REQUIRE(!diags.has_errors());
    REQUIRE(embedded.size() == 1);
    CHECK(at(embedded.front().root, {"metadata", "name"}).text() == at(source, {"plugin", "name"}).text());
}
