// Sites built on bases (spec.extends, kind SiteBase; issue 13 item 2): the
// merge rules, positions that name the file that set a value, and every bad
// input (cycles, paths out of the repository, missing or wrong bases).
#include "test_util.hpp"

#include <queueforge/frontend/discover.hpp>
#include <queueforge/frontend/site_parse.hpp>

#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>

using namespace queueforge;
using qf_test::run_cli_in;
namespace fs = std::filesystem;

namespace {

const char* kBase = R"(apiVersion: queueforge.io/v1alpha1
kind: SiteBase
metadata: {name: base}
spec:
  target: kueue-0.19
  pools:
    - name: h100
      nodes: 4
      allocatable: {cpu: 16, nvidia.com/gpu: 8}
    - name: cpu
      nodes: 2
      allocatable: {cpu: 32, memory: 64Gi}
  cohorts:
    - name: research
  teams:
    - name: llm
      namespaces: [llm]
      cohort: research
      quota:
        - pool: h100
          nominal: {cpu: 32, nvidia.com/gpu: 16}
        - pool: cpu
          nominal: {cpu: 16, memory: 32Gi}
    - name: vision
      namespaces: [vision, vision-eval]
      cohort: research
      quota:
        - pool: cpu
          nominal: {cpu: 16, memory: 32Gi}
  workloads:
    - name: train
      namespace: llm
      file: jobs/train.yaml
)";

const char* kJob = R"(apiVersion: batch/v1
kind: Job
metadata:
  name: train
  namespace: llm
  labels: {kueue.x-k8s.io/queue-name: default}
spec:
  template:
    spec:
      restartPolicy: Never
      containers:
        - name: main
          image: busybox
          resources:
            requests: {cpu: "4"}
)";

std::string site_doc(const std::string& name, const std::string& extends, const std::string& spec_rest = "") {
    return "apiVersion: queueforge.io/v1alpha1\nkind: Site\nmetadata: {name: " + name + "}\nspec:\n  extends: " +
           extends + "\n" + spec_rest;
}

// A repository: base/ (a SiteBase with a job sample) and clusters/prod.
struct Repo {
    qf_test::TempDir tmp;
    fs::path root() const { return tmp.path; }
    fs::path prod() const { return tmp.path / "clusters/prod/queueforge-site.yaml"; }
    explicit Repo(const std::string& prod_spec = "") {
        fs::create_directories(tmp.path / ".git");
        qf_test::write_text(tmp.path / "base/queueforge-site.yaml", kBase);
        qf_test::write_text(tmp.path / "base/jobs/train.yaml", kJob);
        qf_test::write_text(prod(), site_doc("prod", "../../base", prod_spec));
    }
    std::optional<site::Site> load(Diagnostics& d, std::vector<SourceText>* bases = nullptr) const {
        return load_site_file(prod().string(), d, nullptr, bases);
    }
};

std::string all_messages(const Diagnostics& d) {
    std::string s;
    for (const auto& x : d.all()) s += x.file + ":" + std::to_string(x.mark.line) + ": " + x.message + " [" + x.rule + "]\n";
    return s;
}

bool has_rule(const Diagnostics& d, const std::string& rule) {
    return std::any_of(d.all().begin(), d.all().end(), [&](const Diagnostic& x) { return x.rule == rule; });
}

template <class T>
std::vector<std::string> names(const std::vector<T>& items) {
    std::vector<std::string> out;
    for (const auto& i : items) out.push_back(i.name.value);
    return out;
}

}  // namespace

TEST_CASE("extends: a site without overrides is its base, named after itself", "[extends]") {
    Repo repo;
    Diagnostics d;
    auto s = repo.load(d);
    INFO(all_messages(d));
    REQUIRE(s);
    CHECK(s->name.value == "prod");
    CHECK(names(s->pools) == std::vector<std::string>{"h100", "cpu"});
    CHECK(names(s->teams) == std::vector<std::string>{"llm", "vision"});
    // Every file the result depends on, for the pre-commit hook.
    const std::string base = (repo.root() / "base/queueforge-site.yaml").lexically_normal().generic_string();
    const std::string job = (repo.root() / "base/jobs/train.yaml").lexically_normal().generic_string();
    CHECK(s->inputs == std::vector<std::string>{repo.prod().string(), base, job});
}

TEST_CASE("extends: maps merge key by key, named items by name, other lists replace", "[extends]") {
    Repo repo(R"(  pools:
    - name: h100
      nodes: 8
  teams:
    - name: search
      namespaces: [search]
      quota: [{pool: cpu, nominal: {cpu: 8}}]
    - name: vision
      namespaces: [vision-prod]
      quota:
        - pool: cpu
          nominal: {cpu: 12}
)");
    Diagnostics d;
    auto s = repo.load(d);
    INFO(all_messages(d));
    REQUIRE(s);
    // The pool: nodes from the overlay, allocatable from the base.
    REQUIRE(s->pools.size() == 2);
    CHECK(s->pools[0].nodes->value == 8);
    CHECK(s->pools[0].allocatable.size() == 2);
    // Base order, then the new items in overlay order.
    CHECK(names(s->teams) == std::vector<std::string>{"llm", "vision", "search"});
    const auto& vision = s->teams[1];
    // A list of strings is replaced as a whole.
    REQUIRE(vision.namespaces.size() == 1);
    CHECK(vision.namespaces[0].value == "vision-prod");
    // A quota entry merges by pool, its nominal map key by key: memory stays.
    REQUIRE(vision.quota.size() == 1);
    REQUIRE(vision.quota[0].nominal.size() == 2);
    CHECK(vision.quota[0].nominal[0].resource == "cpu");
    CHECK(vision.quota[0].nominal[0].written == "12");
    CHECK(vision.quota[0].nominal[1].resource == "memory");
    CHECK(vision.cohort.value == "research");
}

TEST_CASE("extends: null removes a key, $delete removes a named item", "[extends]") {
    Repo repo(R"(  cohorts: null
  pools:
    - {name: h100, $delete: true}
  teams:
    - name: llm
      cohort: null
      quota:
        - {pool: h100, $delete: true}
    - name: vision
      cohort: null
)");
    Diagnostics d;
    auto s = repo.load(d);
    INFO(all_messages(d));
    REQUIRE(s);
    CHECK(d.empty());
    CHECK(s->cohorts.empty());
    CHECK(names(s->pools) == std::vector<std::string>{"cpu"});
    REQUIRE(s->teams.size() == 2);
    CHECK(s->teams[0].cohort.value.empty());
    REQUIRE(s->teams[0].quota.size() == 1);
    CHECK(s->teams[0].quota[0].pool.value == "cpu");
}

TEST_CASE("extends: deleting an item the base does not have is a warning at the overlay line", "[extends]") {
    Repo repo("  pools:\n    - {name: a100, $delete: true}\n");
    Diagnostics d;
    auto s = repo.load(d);
    REQUIRE(s);
    REQUIRE(d.all().size() == 1);
    CHECK(d.all()[0].rule == "extends.delete-missing");
    CHECK(d.all()[0].severity == Severity::Warning);
    CHECK(d.all()[0].file == repo.prod().string());
    CHECK(d.all()[0].mark.line == 7);
    CHECK(names(s->pools) == std::vector<std::string>{"h100", "cpu"});

    Repo bad("  pools:\n    - {name: cpu, $delete: 1}\n");
    Diagnostics d2;
    CHECK(!bad.load(d2));
    CHECK(has_rule(d2, "extends.delete"));
}

TEST_CASE("extends: a list of bases applies in order, later wins, the site last; bases extend bases", "[extends]") {
    Repo repo;
    qf_test::write_text(repo.root() / "big/queueforge-site.yaml", R"(apiVersion: queueforge.io/v1alpha1
kind: SiteBase
metadata: {name: big}
spec:
  extends: ../base
  pools:
    - {name: h100, nodes: 16}
    - {name: cpu, nodes: 16}
)");
    // A folder without queueforge-site.yaml: its one SiteBase file.
    qf_test::write_text(repo.root() / "eu/region.yaml", R"(apiVersion: queueforge.io/v1alpha1
kind: SiteBase
metadata: {name: eu}
spec:
  pools:
    - {name: cpu, nodes: 3}
)");
    qf_test::write_text(repo.prod(), site_doc("prod", "[../../big, ../../eu]", "  pools:\n    - {name: h100, nodes: 5}\n"));
    Diagnostics d;
    auto s = repo.load(d);
    INFO(all_messages(d));
    REQUIRE(s);
    REQUIRE(s->pools.size() == 2);
    CHECK(s->pools[0].nodes->value == 5);   // the site
    CHECK(s->pools[1].nodes->value == 3);   // eu, after big
    CHECK(s->pools[1].allocatable.size() == 2);  // base, under big
    CHECK(s->inputs.size() == 5);  // prod, big, base, eu, the job
}

TEST_CASE("extends: each value keeps the file and line that set it", "[extends]") {
    Repo repo("  pools:\n    - name: h100\n      nodes: 8\n");
    Diagnostics d;
    auto s = repo.load(d);
    REQUIRE(s);
    const auto& h100 = s->pools[0];
    CHECK(h100.nodes->mark.line == 8);
    CHECK(!h100.nodes->mark.file);  // the site's own file
    REQUIRE(h100.allocatable[0].mark.file);
    CHECK(*h100.allocatable[0].mark.file ==
          (repo.root() / "base/queueforge-site.yaml").lexically_normal().generic_string());
    CHECK(h100.allocatable[0].mark.line == 9);
}

TEST_CASE("extends: a finding about a base's value names the base's line, with its caret", "[extends]") {
    Repo repo;
    std::string base = kBase;
    base.replace(base.find("nodes: 2"), 8, "nodes: -2");
    qf_test::write_text(repo.root() / "base/queueforge-site.yaml", base);
    auto r = run_cli_in(repo.root(), "build clusters/prod");
    INFO(r.out << r.err);
    CHECK(r.exit == 1);
    CHECK(r.err.find("base/queueforge-site.yaml:11:14: error: ") != std::string::npos);
    // The base's line under the finding, a caret under the value.
    const auto at = r.err.find("      nodes: -2\n");
    REQUIRE(at != std::string::npos);
    CHECK(r.err.find("^", at) != std::string::npos);
    CHECK(r.err.find("clusters/prod/queueforge-site.yaml:11") == std::string::npos);

    // The same value set by the overlay: the overlay's line.
    Repo over("  pools:\n    - name: cpu\n      nodes: -3\n");
    auto o = run_cli_in(over.root(), "build clusters/prod");
    INFO(o.err);
    CHECK(o.exit == 1);
    CHECK(o.err.find("clusters/prod/queueforge-site.yaml:8:14: error: ") != std::string::npos);
}

TEST_CASE("extends: a finding about a base's key names the base's file and the key's line and column", "[extends]") {
    // A key's position holds no file of its own: it is its value's.
    auto nodez_at = [](const Repo& repo) {
        Diagnostics d;
        repo.load(d);
        INFO(all_messages(d));
        for (const auto& x : d.all())
            if (x.rule == "site.unknown-field" && x.message.find("nodez") != std::string::npos)
                return x.file + ":" + std::to_string(x.mark.line) + ":" + std::to_string(x.mark.col);
        return std::string("none");
    };
    Repo repo;
    std::string base = kBase;
    base.replace(base.find("      nodes: 2\n"), 15, "      nodes: 2\n      nodez: 3\n");
    qf_test::write_text(repo.root() / "base/queueforge-site.yaml", base);
    CHECK(nodez_at(repo) == (repo.root() / "base/queueforge-site.yaml").lexically_normal().generic_string() + ":12:7");
    // The same key in the overlay: the overlay's file.
    Repo over("  pools:\n    - name: cpu\n      nodez: 3\n");
    CHECK(nodez_at(over) == over.prod().string() + ":8:7");
}

TEST_CASE("extends: explain answers with the base's file and line", "[extends]") {
    Repo repo("  pools:\n    - name: h100\n      nodes: 8\n");
    auto r = run_cli_in(repo.root(), "explain ResourceFlavor/cpu clusters/prod");
    INFO(r.out << r.err);
    REQUIRE(r.exit == 0);
    CHECK(r.out.find("base/queueforge-site.yaml:10:") != std::string::npos);
    CHECK(r.out.find("    - name: cpu\n") != std::string::npos);  // the base's line, with a caret
    auto j = run_cli_in(repo.root(), "explain ResourceFlavor/cpu clusters/prod -o json");
    REQUIRE(j.exit == 0);
    CHECK(j.out.find("base/queueforge-site.yaml\"") != std::string::npos);
}

TEST_CASE("extends: cycles, missing bases and files that are not bases", "[extends]") {
    SECTION("a cycle names the chain") {
        Repo repo;
        std::string base = kBase;
        base.replace(base.find("spec:\n"), 6, "spec:\n  extends: ../clusters/prod\n");
        base.replace(base.find("kind: SiteBase"), 14, "kind: Site");
        qf_test::write_text(repo.root() / "base/queueforge-site.yaml", base);
        Diagnostics d;
        CHECK(!repo.load(d));
        INFO(all_messages(d));
        REQUIRE(has_rule(d, "extends.cycle"));
        CHECK(all_messages(d).find("a cycle: " + repo.prod().string() + " -> ") != std::string::npos);
        CHECK(all_messages(d).find("-> " + repo.prod().lexically_normal().generic_string() + " [") != std::string::npos);
    }
    SECTION("a missing base") {
        Repo repo;
        qf_test::write_text(repo.prod(), site_doc("prod", "../../bse"));
        Diagnostics d;
        CHECK(!repo.load(d));
        CHECK(has_rule(d, "extends.missing-base"));
        CHECK(d.all()[0].mark.line == 5);
    }
    SECTION("a folder without a base") {
        Repo repo;
        fs::create_directories(repo.root() / "empty");
        qf_test::write_text(repo.prod(), site_doc("prod", "../../empty"));
        Diagnostics d;
        CHECK(!repo.load(d));
        CHECK(has_rule(d, "extends.missing-base"));
    }
    SECTION("a base that is not a site") {
        Repo repo;
        qf_test::write_text(repo.prod(), site_doc("prod", "../../base/jobs/train.yaml"));
        Diagnostics d;
        CHECK(!repo.load(d));
        CHECK(has_rule(d, "extends.not-a-site"));
    }
    SECTION("a SiteBase extending a Site") {
        Repo repo;
        qf_test::write_text(repo.root() / "clusters/staging/queueforge-site.yaml", site_doc("staging", "../../base"));
        std::string base = kBase;
        base.replace(base.find("spec:\n"), 6, "spec:\n  extends: ../clusters/staging\n");
        qf_test::write_text(repo.root() / "base/queueforge-site.yaml", base);
        Diagnostics d;
        CHECK(!repo.load(d));
        CHECK(has_rule(d, "extends.base-extends-site"));
        // The finding is in the base, where the reference is written.
        CHECK(d.all()[0].file == (repo.root() / "base/queueforge-site.yaml").lexically_normal().generic_string());
    }
    SECTION("bases nested too deep") {
        Repo repo;
        for (int i = 0; i < 20; ++i)
            qf_test::write_text(repo.root() / ("b" + std::to_string(i)) / "queueforge-site.yaml",
                                "apiVersion: queueforge.io/v1alpha1\nkind: SiteBase\nmetadata: {name: b}\nspec:\n  extends: " +
                                    (i == 0 ? std::string("../base") : "../b" + std::to_string(i - 1)) + "\n");
        qf_test::write_text(repo.prod(), site_doc("prod", "../../b19"));
        Diagnostics d;
        CHECK(!repo.load(d));
        CHECK(has_rule(d, "extends.depth"));
    }
    SECTION("extends that is not a path") {
        Repo repo;
        qf_test::write_text(repo.prod(), site_doc("prod", "{path: ../../base}"));
        Diagnostics d;
        CHECK(!repo.load(d));
        CHECK(has_rule(d, "site.type"));
    }
}

TEST_CASE("extends: bases outside the repository are refused, never read", "[extends]") {
    qf_test::TempDir outside;
    qf_test::write_text(outside.path / "base/queueforge-site.yaml", kBase);
    SECTION("\"..\" past the root") {
        Repo repo;
        // The repository is tmp/; its parent holds other test folders.
        const std::string rel = "../../../" + outside.path.filename().string() + "/base";
        qf_test::write_text(repo.prod(), site_doc("prod", rel));
        Diagnostics d;
        std::vector<SourceText> bases;
        CHECK(!repo.load(d, &bases));
        INFO(all_messages(d));
        CHECK(has_rule(d, "extends.outside-root"));
        CHECK(bases.empty());
    }
    SECTION("an absolute path") {
        Repo repo;
        qf_test::write_text(repo.prod(), site_doc("prod", (outside.path / "base").string()));
        Diagnostics d;
        std::vector<SourceText> bases;
        CHECK(!repo.load(d, &bases));
        CHECK(has_rule(d, "extends.outside-root"));
        CHECK(all_messages(d).find("is absolute") != std::string::npos);
        CHECK(bases.empty());
    }
    SECTION("a symlink out") {
        Repo repo;
        fs::create_directory_symlink(outside.path / "base", repo.root() / "linked");
        qf_test::write_text(repo.prod(), site_doc("prod", "../../linked"));
        Diagnostics d;
        std::vector<SourceText> bases;
        CHECK(!repo.load(d, &bases));
        CHECK(has_rule(d, "extends.outside-root"));
        CHECK(bases.empty());
    }
    SECTION("the CLI exits 1 with the path named") {
        Repo repo;
        qf_test::write_text(repo.prod(), site_doc("prod", "/etc/passwd"));
        auto r = run_cli_in(repo.root(), "check clusters/prod");
        INFO(r.out << r.err);
        CHECK(r.exit == 1);
        CHECK((r.out + r.err).find("\"/etc/passwd\" is absolute") != std::string::npos);
    }
}

TEST_CASE("extends: a SiteBase is never discovered, never built alone", "[extends]") {
    Repo repo;
    Diagnostics d;
    auto clusters = discover::find_clusters({repo.root().string()}, {}, d);
    REQUIRE(clusters.size() == 1);
    CHECK(clusters[0].site_file.find("clusters/prod") != std::string::npos);

    auto check = run_cli_in(repo.root(), "check");
    INFO(check.out << check.err);
    CHECK(check.exit == 0);
    CHECK(check.out.find("[extends.") == std::string::npos);

    auto build = run_cli_in(repo.root(), "build base/");
    INFO(build.err);
    CHECK(build.exit == 1);
    CHECK(build.err.find("is a SiteBase") != std::string::npos);
    CHECK(build.err.find("[extends.base-alone]") != std::string::npos);
}

TEST_CASE("extends: generate renders an application folder's site with its base, inside the repository only",
          "[extends]") {
    Repo repo("  pools:\n    - name: h100\n      nodes: 8\n");
    auto env_run = [](const fs::path& dir) {
        return run_cli_in(dir, "generate");
    };
    auto r = env_run(repo.root() / "clusters/prod");
    INFO(r.err);
    REQUIRE(r.exit == 0);
    CHECK(r.out.find("kind: ResourceFlavor") != std::string::npos);
    CHECK(r.out.find("name: vision") != std::string::npos);  // a team of the base

    qf_test::TempDir outside;
    qf_test::write_text(outside.path / "base/queueforge-site.yaml", kBase);
    fs::create_directory_symlink(outside.path / "base", repo.root() / "linked");
    qf_test::write_text(repo.prod(), site_doc("prod", "../../linked"));
    auto out = env_run(repo.root() / "clusters/prod");
    CHECK(out.exit == 1);
    CHECK(out.out.empty());
    CHECK(out.err.find("[extends.outside-root]") != std::string::npos);
}

TEST_CASE("extends: check --staged reads the staged bases of a staged site", "[extends]") {
    Repo repo;
    fs::remove_all(repo.root() / ".git");
    const std::string git = "git -c user.email=t@t -c user.name=t ";
    REQUIRE(std::system(("cd " + qf_test::shell_quote(repo.root().string()) + " && git init -q . && " + git +
                         "add -A && " + git + "commit -qm base")
                            .c_str()) == 0);
    auto clean = run_cli_in(repo.root(), "check --staged clusters/prod");
    INFO(clean.out << clean.err);
    CHECK(clean.exit == 0);
    CHECK((clean.out + clean.err).find("extends.missing-base") == std::string::npos);

    // A broken base, staged: the finding names the staged base.
    std::string base = kBase;
    base.replace(base.find("nodes: 2"), 8, "nodes: -2");
    qf_test::write_text(repo.root() / "base/queueforge-site.yaml", base);
    REQUIRE(std::system(("cd " + qf_test::shell_quote(repo.root().string()) + " && git add -A").c_str()) == 0);
    auto broken = run_cli_in(repo.root(), "check --staged clusters/prod");
    INFO(broken.out << broken.err);
    CHECK(broken.exit == 1);
    CHECK((broken.out + broken.err).find("index:base/queueforge-site.yaml:11:14: error: ") != std::string::npos);
}
