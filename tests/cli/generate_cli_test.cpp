// `queueforge generate` driven as Argo CD's repo-server drives a
// config-management plugin: the Application's environment, the source folder
// as working directory, a timeout -- and a repository that tries to escape.
#include "test_util.hpp"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

using qf_test::shell_quote;

namespace {

// Runs `queueforge <args>` in `dir` with only the given environment (as the
// sidecar does) and a 30 s limit, the plugin's ARGOCD_EXEC_TIMEOUT budget.
qf_test::RunResult run_in(const std::filesystem::path& dir, const std::string& env, const std::string& args) {
    qf_test::TempDir tmp;
    auto out = tmp.path / "out", err = tmp.path / "err";
    std::string cmd = "cd " + shell_quote(dir.string()) + " && env -i PATH=/usr/bin:/bin ARGOCD_APP_NAME=gpu-queues " +
                      "ARGOCD_APP_NAMESPACE=openshift-gitops ARGOCD_APP_REVISION=0123456789abcdef " +
                      "ARGOCD_APP_SOURCE_PATH=clusters/prod/queues " + env + " timeout 30 " + shell_quote(QF_BINARY) +
                      " " + args + " >" + shell_quote(out.string()) + " 2>" + shell_quote(err.string()) + " </dev/null";
    int status = std::system(cmd.c_str());
    qf_test::RunResult r;
    r.exit = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    r.out = qf_test::read_text(out);
    r.err = qf_test::read_text(err);
    return r;
}

struct Repo {
    qf_test::TempDir root;
    std::filesystem::path app;
    Repo() {
        app = root.path / "repo/clusters/prod/queues";
        auto site = qf_test::read_text(qf_test::source_dir() / "examples/multi-team/queueforge-site.yaml");
        qf_test::write_text(app / "queueforge-site.yaml", site);
        qf_test::write_text(root.path / "secret.yaml", "apiVersion: v1\nkind: Secret\n");
    }
};

}  // namespace

TEST_CASE("generate: renders the site of the source folder, manifests only, deterministic") {
    Repo repo;
    auto r = run_in(repo.app, "", "generate");
    INFO(r.err);
    REQUIRE(r.exit == 0);
    CHECK(r.out.starts_with("---\napiVersion: "));
    CHECK(r.out.find("# Generated") == std::string::npos);
    auto golden = qf_test::read_text(qf_test::source_dir() / "tests/golden/multi-team.yaml");
    CHECK(golden.substr(golden.find('\n') + 1) == r.out);
    CHECK(run_in(repo.app, "", "generate").out == r.out);
}

TEST_CASE("generate: Application parameters, PARAM_* fallback and ARGOCD_ENV overrides") {
    Repo repo;
    auto target = run_in(repo.app, "'ARGOCD_APP_PARAMETERS=[{\"name\":\"target\",\"string\":\"rhoai-3.5\"}]'", "generate");
    INFO(target.err);
    REQUIRE(target.exit == 0);
    CHECK(target.out.find("datasciencecluster.opendatahub.io/v2") != std::string::npos);
    auto teams = run_in(repo.app, "'ARGOCD_APP_PARAMETERS=[{\"name\":\"teams\",\"array\":[\"llm\"]}]'", "generate");
    REQUIRE(teams.exit == 0);
    CHECK(teams.out.find("name: llm\n") != std::string::npos);
    CHECK(teams.out.find("name: vision\n") == std::string::npos);
    auto param = run_in(repo.app, "PARAM_TARGET=kueue-0.13", "generate");
    REQUIRE(param.exit == 0);
    CHECK(param.out.find("DataScienceCluster") == std::string::npos);
    auto env = run_in(repo.app, "PARAM_TARGET=kueue-0.13 ARGOCD_ENV_QUEUEFORGE_TARGET=rhoai-3.5", "generate");
    CHECK(env.out.find("datasciencecluster.opendatahub.io/v2") != std::string::npos);

    auto unknown = run_in(repo.app, "'ARGOCD_APP_PARAMETERS=[{\"name\":\"simulatee\",\"string\":\"x\"}]'", "generate");
    CHECK(unknown.exit == 2);
    CHECK(unknown.out.empty());
    auto bad_team = run_in(repo.app, "'ARGOCD_APP_PARAMETERS=[{\"name\":\"teams\",\"array\":[\"nobody\"]}]'", "generate");
    CHECK(bad_team.exit == 1);
    CHECK(bad_team.out.empty());

    auto params = run_in(repo.app, "", "cmp-parameters");
    REQUIRE(params.exit == 0);
    auto j = nlohmann::json::parse(params.out);
    CHECK(j[0]["name"] == "teams");
    CHECK(j[0]["array"].size() == 6);
}

TEST_CASE("generate: follows the Kueue API version the destination cluster serves") {
    Repo repo;
    auto r = run_in(repo.app, "'ARGOCD_APP_PARAMETERS=[{\"name\":\"target\",\"string\":\"rhoai-3.5\"}]' KUBE_API_VERSIONS=v1,apps/v1,kueue.x-k8s.io/v1beta1",
                    "generate");
    INFO(r.err);
    REQUIRE(r.exit == 0);
    CHECK(r.out.find("kueue.x-k8s.io/v1beta2") == std::string::npos);
    CHECK(r.err.find("serves kueue.x-k8s.io/v1beta1") != std::string::npos);
}

TEST_CASE("generate: an untrusted repository cannot make it read outside the source folder") {
    Repo repo;
    for (const std::string site : {"../../../../secret.yaml", "/etc/passwd", "../queues/../../../secret.yaml"}) {
        INFO(site);
        auto r = run_in(repo.app, "'ARGOCD_APP_PARAMETERS=[{\"name\":\"site\",\"string\":\"" + site + "\"}]'", "generate");
        CHECK(r.exit == 1);
        CHECK(r.out.empty());
    }
    std::filesystem::create_symlink(repo.root.path / "secret.yaml", repo.app / "link.yaml");
    auto link = run_in(repo.app, "PARAM_SITE=link.yaml", "generate");
    CHECK(link.exit == 1);
    CHECK(link.out.empty());
    CHECK(link.err.find("outside") != std::string::npos);
    std::filesystem::create_directory_symlink(repo.root.path, repo.app / "up");
    CHECK(run_in(repo.app, "PARAM_SITE=up/secret.yaml", "generate").exit == 1);
}

TEST_CASE("generate: a broken or missing site fails with nothing on stdout") {
    Repo repo;
    qf_test::write_text(repo.app / "queueforge-site.yaml", "apiVersion: queueforge.io/v1alpha1\nkind: Site\nmetadata: {name: x}\nspec:\n  target: rhoai-9.9\n");
    auto bad = run_in(repo.app, "", "generate");
    CHECK(bad.exit == 1);
    CHECK(bad.out.empty());
    CHECK(bad.err.find("queueforge-site.yaml:5:11: error:") != std::string::npos);
    std::filesystem::remove(repo.app / "queueforge-site.yaml");
    auto missing = run_in(repo.app, "", "generate");
    CHECK(missing.exit == 1);
    CHECK(missing.out.empty());
    // A huge file is refused before it is read.
    {
        std::ofstream f(repo.app / "queueforge-site.yaml", std::ios::binary);
        std::string chunk(1 << 20, '#');
        for (int i = 0; i < 40; ++i) f << chunk;
    }
    auto huge = run_in(repo.app, "", "generate");
    CHECK(huge.exit == 1);
    CHECK(huge.out.empty());
}

TEST_CASE("generate: a malformed parameter is a clear error, never an abort", "[argocd][defects]") {
    Repo repo;
    for (const std::string json : {R"([{"name": 5}])", R"([{"name": null}])", R"([{"string": "x"}])", R"([7])",
                                   R"([{"name":"site","string":5}])", R"([{"name":"target","array":["a"]}])",
                                   R"({"name":"site"})", R"(not json)"}) {
        for (const std::string cmd : {"generate", "cmp-parameters"}) {
            INFO(cmd << " " << json);
            auto r = run_in(repo.app, "'ARGOCD_APP_PARAMETERS=" + json + "'", cmd);
            CHECK(r.exit == 1);
            CHECK(r.out.empty());
            CHECK(r.err.find("ARGOCD_APP_PARAMETERS") != std::string::npos);
            CHECK(r.err.find("[cmp.parameter]") != std::string::npos);
        }
    }
    auto name = run_in(repo.app, R"('ARGOCD_APP_PARAMETERS=[{"name": 5}]')", "generate");
    CHECK(name.err.find("\"name\" must be a string, got a number") != std::string::npos);
}

TEST_CASE("generate: an unusable teams parameter renders nothing rather than every team", "[argocd][defects]") {
    Repo repo;
    for (const std::string json : {R"([{"name":"teams","array":[1,2]}])", R"([{"name":"teams","array":{"a":"llm"}}])",
                                   R"([{"name":"teams","map":{"a":"llm"}}])", R"([{"name":"teams","array":["llm",null]}])",
                                   R"([{"name":"teams","string":7}])", R"([{"name":"teams"}])"}) {
        INFO(json);
        auto r = run_in(repo.app, "'ARGOCD_APP_PARAMETERS=" + json + "'", "generate");
        CHECK(r.exit == 1);
        CHECK(r.out.empty());
        CHECK(r.err.find("\"teams\"") != std::string::npos);
    }
}

TEST_CASE("generate: an unknown team or parameter name gets a suggestion", "[argocd][defects]") {
    Repo repo;
    auto team = run_in(repo.app, R"('ARGOCD_APP_PARAMETERS=[{"name":"teams","array":["llm","visoin"]}]')", "generate");
    CHECK(team.exit == 1);
    CHECK(team.out.empty());
    CHECK(team.err.find("\"visoin\", which the site does not define; did you mean \"vision\"?") != std::string::npos);
    auto param = run_in(repo.app, R"('ARGOCD_APP_PARAMETERS=[{"name":"team","array":["llm"]}]')", "generate");
    CHECK(param.exit == 2);
    CHECK(param.err.find("did you mean \"teams\"?") != std::string::npos);
}

TEST_CASE("cmp-parameters: says why it refuses the site path", "[argocd][defects]") {
    Repo repo;
    auto r = run_in(repo.app, "PARAM_SITE=../../../../secret.yaml", "cmp-parameters");
    CHECK(r.exit == 1);
    CHECK(r.err.find("site file \"../../../../secret.yaml\" climbs out with \"..\"") != std::string::npos);
    std::filesystem::remove(repo.app / "queueforge-site.yaml");
    auto missing = run_in(repo.app, "", "cmp-parameters");
    CHECK(missing.exit == 1);
    CHECK_FALSE(missing.err.empty());
}
