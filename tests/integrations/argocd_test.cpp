// The Argo CD plugin's parameters, read from an environment as the
// repo-server passes it.
#include <queueforge/integrations/argocd.hpp>
#include <queueforge/frontend/site_parse.hpp>

#include "test_util.hpp"

#include <catch2/catch.hpp>

using namespace queueforge;

TEST_CASE("argocd parameters: ARGOCD_APP_PARAMETERS, PARAM_* and overrides", "[argocd]") {
    Diagnostics d;
    auto p = argocd::read_parameters({R"(ARGOCD_APP_PARAMETERS=[{"name":"teams","array":["vision","llm","llm"]},)"
                                      R"({"name":"target","string":"rhoai-3.5"}])",
                                      "PARAM_SITE=ignored.yaml", "ARGOCD_ENV_QUEUEFORGE_SITE=other.yaml"},
                                     d);
    REQUIRE(p);
    CHECK(p->teams == std::vector<std::string>{"llm", "vision"});
    CHECK(p->target == "rhoai-3.5");
    CHECK(p->site == "other.yaml");
    auto csv = argocd::read_parameters({R"(ARGOCD_APP_PARAMETERS=[{"name":"teams","string":"b,a,"}])"}, d);
    REQUIRE(csv);
    CHECK(csv->teams == std::vector<std::string>{"a", "b"});
    auto fallback = argocd::read_parameters({"PARAM_TEAMS_0=llm", "PARAM_TARGET=kueue-0.13"}, d);
    REQUIRE(fallback);
    CHECK(fallback->teams == std::vector<std::string>{"llm"});
    CHECK(fallback->site == "queueforge-site.yaml");
    CHECK_FALSE(d.has_errors());
}

TEST_CASE("argocd parameters: wrong types are diagnostics naming the parameter", "[argocd][defects]") {
    struct Case {
        std::string json, says;
    };
    for (const auto& c : std::vector<Case>{{R"([{"name": 5}])", "[0]: parameter \"name\" must be a string, got a number"},
                                           {R"([{"name": null}])", "got null"},
                                           {R"([{"name":"site","string":"a"},{"name":"teams","array":[1,2]}])",
                                            "[1]: plugin parameter \"teams\": item 0 must be a team name, got a number"},
                                           {R"([{"name":"teams","map":{"x":"y"}}])", "not a map"},
                                           {R"([{"name":"target","string":false}])", "\"target\" must be a string, got a boolean"},
                                           {R"({"a":1})", "expected a list of parameters, got a map"}}) {
        INFO(c.json);
        Diagnostics d;
        CHECK_FALSE(argocd::read_parameters({"ARGOCD_APP_PARAMETERS=" + c.json}, d));
        REQUIRE(d.all().size() == 1);
        CHECK(d.all()[0].rule == "cmp.parameter");
        CHECK(d.all()[0].file == "ARGOCD_APP_PARAMETERS");
        CHECK(d.all()[0].message.find(c.says) != std::string::npos);
    }
    Diagnostics d;
    CHECK_FALSE(argocd::read_parameters({R"(ARGOCD_APP_PARAMETERS=[{"name":"trget","string":"x"}])"}, d));
    REQUIRE(d.all().size() == 1);
    CHECK(d.all()[0].rule == "cmp.unknown-parameter");
    CHECK(d.all()[0].message.find("did you mean \"target\"?") != std::string::npos);
}

TEST_CASE("argocd parameters: select_teams keeps the named teams and suggests for unknown ones", "[argocd][defects]") {
    Diagnostics d;
    auto site = load_site_file((qf_test::source_dir() / "examples/multi-team/queueforge-site.yaml").string(), d);
    REQUIRE(site);
    auto copy = *site;
    argocd::select_teams(copy, {"llm"}, d);
    CHECK_FALSE(d.has_errors());
    REQUIRE(copy.teams.size() == 1);
    CHECK(copy.teams[0].name.value == "llm");
    copy = *site;
    argocd::select_teams(copy, {"lm"}, d);
    REQUIRE(d.has_errors());
    CHECK(d.all().back().rule == "cmp.teams");
    CHECK(d.all().back().message.find("did you mean \"llm\"?") != std::string::npos);
    CHECK(copy.teams.size() == site->teams.size());
}

TEST_CASE("argocd cluster API: KUBE_API_VERSIONS names the Kueue versions the cluster serves", "[argocd]") {
    using S = std::set<std::string>;
    CHECK(argocd::served_kueue_versions("") == S{});
    CHECK(argocd::served_kueue_versions("v1,apps/v1,batch/v1") == S{});
    CHECK(argocd::served_kueue_versions("v1,kueue.x-k8s.io/v1beta2,apps/v1") == S{"v1beta2"});
    // group/version/Kind entries and both versions at once
    CHECK(argocd::served_kueue_versions("kueue.x-k8s.io/v1beta1/ClusterQueue,kueue.x-k8s.io/v1beta2,"
                                        "kueue.x-k8s.io/v1beta2/LocalQueue") == S{"v1beta1", "v1beta2"});
    // a look-alike group and an empty version are not Kueue's
    CHECK(argocd::served_kueue_versions("notkueue.x-k8s.io/v1beta2,kueue.x-k8s.io/,,") == S{});
}

TEST_CASE("argocd cluster API: a site that pins no version follows the cluster, a pinned one does not", "[argocd]") {
    auto parse = [](const std::string& target) {
        Diagnostics d;
        auto s = parse_site_text("queueforge-site.yaml",
                                 "apiVersion: queueforge.io/v1alpha1\nkind: Site\nmetadata: {name: lab}\n"
                                 "spec:\n  target: " + target + "\n" +
                                     "  pools: [{name: a100}]\n  teams:\n    - name: research\n"
                                     "      namespaces: [research]\n      quota: [{pool: a100, nominal: {cpu: 1}}]\n",
                                 d);
        INFO(qf_test::messages(d));
        REQUIRE(s);
        return *s;
    };
    {
        auto s = parse("kueue-0.15");  // emits v1beta2, can emit v1beta1
        CHECK(argocd::follow_cluster_api(s, "", {"v1beta1", "v1beta2"}).empty());  // served: nothing to do
        CHECK(argocd::follow_cluster_api(s, "", {}).empty());                      // unknown: nothing to do
        CHECK(s.target.kueue_api_version.value.empty());
        const std::string note = argocd::follow_cluster_api(s, "", {"v1beta1"});
        CHECK(note == "the destination cluster serves kueue.x-k8s.io/v1beta1, not v1beta2; emitting v1beta1");
        CHECK(s.target.kueue_api_version.value == "v1beta1");
    }
    {
        auto s = parse("{kueue: \"0.15\", kueueAPIVersion: v1beta2}");  // pinned
        CHECK(argocd::follow_cluster_api(s, "", {"v1beta1"}).empty());
        CHECK(s.target.kueue_api_version.value == "v1beta2");
    }
    {
        // The plugin's target parameter decides, not the site's: 0.14 emits v1beta1.
        auto s = parse("kueue-0.15");
        CHECK(argocd::follow_cluster_api(s, "kueue-0.14", {"v1beta1"}).empty());
    }
    {
        // Kueue 0.14 cannot emit v1beta2: nothing to follow.
        auto s = parse("kueue-0.14");
        CHECK(argocd::follow_cluster_api(s, "", {"v1beta2"}).empty());
        CHECK(s.target.kueue_api_version.value.empty());
    }
}
