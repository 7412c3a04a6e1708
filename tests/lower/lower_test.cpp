// Lowering rules: resource groups, shares, selectors, limits, per-target
// spelling and DataScienceCluster rules.
#include "test_util.hpp"

#include <queueforge/base/node_json.hpp>

#include <catch2/catch.hpp>

using namespace queueforge;

namespace {

std::string make_site(const std::string& target, const std::string& body) {
    return "apiVersion: queueforge.io/v1alpha1\nkind: Site\nmetadata:\n  name: t\nspec:\n  target: " + target + "\n" + body;
}

const std::string kPools = R"(  pools:
    - name: h100
      nodes: 4
      nodeLabels: {gpu: h100}
      taints: [{key: nvidia.com/gpu, value: "true", effect: NoSchedule}]
      allocatable: {cpu: 112, memory: 2000Gi, nvidia.com/gpu: 8}
    - name: a100
      nodes: 2
      allocatable: {cpu: 96, memory: 1000Gi, nvidia.com/gpu: 8}
    - name: cpu
      nodes: 3
      allocatable: {cpu: 10, memory: 256Gi}
)";

std::optional<Lowered> compile(const std::string& text, Diagnostics& d, const std::string& target = {}) {
    return compile_site("site.yaml", text, d, {.target_override = target});
}

const Object* find(const Lowered& l, const std::string& kind, const std::string& name, const std::string& ns = {}) {
    for (const auto& o : l.objects)
        if (o.kind == kind && o.name == name && o.namespace_ == ns) return &o;
    return nullptr;
}

nlohmann::ordered_json spec_of(const Object* o) {
    REQUIRE(o);
    return to_json(o->doc)["spec"];
}

}  // namespace

TEST_CASE("lowering: pools sharing resources form one resource group, missing resources get quota 0") {
    Diagnostics d;
    auto l = compile(make_site("kueue-0.19", kPools + R"(  teams:
    - name: ml
      namespaces: [ml]
      quota:
        - pool: h100
          nominal: {nvidia.com/gpu: 16, cpu: 100, memory: 1Ti}
        - pool: a100
          nominal: {cpu: 50, memory: 500Gi, nvidia.com/gpu: 8}
        - pool: cpu
          nominal: {memory: 100Gi, cpu: 20}
)"), d);
    INFO(qf_test::messages(d));
    REQUIRE(l);
    auto s = spec_of(find(*l, "ClusterQueue", "ml"));
    REQUIRE(s["resourceGroups"].size() == 1);
    auto rg = s["resourceGroups"][0];
    CHECK(rg["coveredResources"] == nlohmann::ordered_json({"cpu", "memory", "nvidia.com/gpu"}));
    // Preference order is the order written, never sorted.
    CHECK(rg["flavors"][0]["name"] == "h100");
    CHECK(rg["flavors"][1]["name"] == "a100");
    CHECK(rg["flavors"][2]["name"] == "cpu");
    for (const auto& f : rg["flavors"])
        for (std::size_t i = 0; i < 3; ++i) CHECK(f["resources"][i]["name"] == rg["coveredResources"][i]);
    CHECK(rg["flavors"][0]["resources"][2]["nominalQuota"] == "16");
    CHECK(rg["flavors"][0]["resources"][1]["nominalQuota"] == "1Ti");
    CHECK(rg["flavors"][2]["resources"][2]["nominalQuota"] == "0");
}

TEST_CASE("lowering: disjoint resources form separate groups in order of first use") {
    Diagnostics d;
    auto l = compile(make_site("kueue-0.19", kPools + R"(  teams:
    - name: ml
      namespaces: [ml]
      quota:
        - pool: cpu
          nominal: {cpu: 20, memory: 100Gi}
        - pool: h100
          nominal: {nvidia.com/gpu: 16}
        - pool: a100
          nominal: {nvidia.com/gpu: 8}
)"), d);
    REQUIRE(l);
    auto s = spec_of(find(*l, "ClusterQueue", "ml"));
    REQUIRE(s["resourceGroups"].size() == 2);
    CHECK(s["resourceGroups"][0]["coveredResources"] == nlohmann::ordered_json({"cpu", "memory"}));
    CHECK(s["resourceGroups"][1]["coveredResources"] == nlohmann::ordered_json({"nvidia.com/gpu"}));
    CHECK(s["resourceGroups"][1]["flavors"].size() == 2);
}

TEST_CASE("lowering: shares resolve exactly against pool capacity and round down to Kueue's unit with a warning") {
    Diagnostics d;
    auto l = compile(make_site("kueue-0.19", kPools + R"(  teams:
    - name: a
      namespaces: [a]
      quota:
        - pool: cpu
          nominal: {cpu: 12.5%, memory: 50%}
        - pool: h100
          nominal: {nvidia.com/gpu: 33%}
)"), d);
    INFO(qf_test::messages(d));
    REQUIRE(l);
    auto rgs = spec_of(find(*l, "ClusterQueue", "a"))["resourceGroups"];
    CHECK(rgs[0]["flavors"][0]["resources"][0]["nominalQuota"] == "3750m");  // 12.5% of 30 cpu
    CHECK(rgs[0]["flavors"][0]["resources"][1]["nominalQuota"] == "384Gi");  // 50% of 768Gi
    CHECK(rgs[1]["flavors"][0]["resources"][0]["nominalQuota"] == "10");     // 33% of 32 = 10.56
    CHECK(qf_test::has_rule(d, "site.share-rounded"));
}

TEST_CASE("lowering: a share needs the pool's capacity") {
    Diagnostics d;
    auto l = compile(make_site("kueue-0.19", "  pools: [{name: p}]\n  teams: [{name: a, namespaces: [a], quota: [{pool: p, nominal: {cpu: 50%}}]}]\n"), d);
    CHECK_FALSE(l);
    CHECK(qf_test::has_rule(d, "site.share"));
}

TEST_CASE("lowering: namespaceSelector is always written") {
    Diagnostics d;
    auto l = compile(make_site("kueue-0.19", kPools + R"(  teams:
    - {name: one, namespaces: [a], quota: [{pool: cpu, nominal: {cpu: 1}}]}
    - {name: two, namespaces: [b, c], quota: [{pool: cpu, nominal: {cpu: 1}}]}
    - {name: all, namespaces: [d], namespaceSelector: all, quota: [{pool: cpu, nominal: {cpu: 1}}]}
    - name: custom
      namespaces: [e]
      namespaceSelector: {matchLabels: {team: custom}, matchExpressions: [{key: tier, operator: Exists}]}
      quota: [{pool: cpu, nominal: {cpu: 1}}]
)"), d);
    INFO(qf_test::messages(d));
    REQUIRE(l);
    CHECK(spec_of(find(*l, "ClusterQueue", "one"))["namespaceSelector"].dump() ==
          R"({"matchLabels":{"kubernetes.io/metadata.name":"a"}})");
    CHECK(spec_of(find(*l, "ClusterQueue", "two"))["namespaceSelector"].dump() ==
          R"({"matchExpressions":[{"key":"kubernetes.io/metadata.name","operator":"In","values":["b","c"]}]})");
    CHECK(spec_of(find(*l, "ClusterQueue", "all"))["namespaceSelector"].dump() == "{}");
    CHECK(spec_of(find(*l, "ClusterQueue", "custom"))["namespaceSelector"].dump() ==
          R"({"matchLabels":{"team":"custom"},"matchExpressions":[{"key":"tier","operator":"Exists"}]})");

    Diagnostics bad;
    CHECK_FALSE(compile(make_site("kueue-0.19", kPools + "  teams: [{name: x, quota: [{pool: cpu, nominal: {cpu: 1}}]}]\n"), bad));
    CHECK(qf_test::has_rule(bad, "site.namespaces"));
    Diagnostics bad2;
    CHECK_FALSE(compile(make_site("kueue-0.19", kPools + "  teams: [{name: x, namespaces: [a], namespaceSelector: {matchExpressions: [{key: k, operator: In}]}, quota: [{pool: cpu, nominal: {cpu: 1}}]}]\n"), bad2));
    CHECK(qf_test::has_rule(bad2, "V32"));
}

TEST_CASE("lowering: borrowing and lending limits follow Kueue's webhook rules") {
    Diagnostics no_cohort;
    CHECK_FALSE(compile(make_site("kueue-0.19", kPools + "  teams: [{name: x, namespaces: [a], quota: [{pool: cpu, nominal: {cpu: 1}, borrowingLimit: {cpu: 1}}]}]\n"), no_cohort));
    CHECK(qf_test::has_rule(no_cohort, "V29"));
    Diagnostics lend;
    CHECK_FALSE(compile(make_site("kueue-0.19", kPools + "  cohorts: [{name: c}]\n  teams: [{name: x, cohort: c, namespaces: [a], quota: [{pool: cpu, nominal: {cpu: 1}, lendingLimit: {cpu: 2}}]}]\n"), lend));
    CHECK(qf_test::has_rule(lend, "V31"));
    Diagnostics orphan;
    CHECK_FALSE(compile(make_site("kueue-0.19", kPools + "  cohorts: [{name: c}]\n  teams: [{name: x, cohort: c, namespaces: [a], quota: [{pool: cpu, nominal: {cpu: 1}, borrowingLimit: {memory: 2Gi}}]}]\n"), orphan));
    CHECK(qf_test::has_rule(orphan, "site.limit-without-nominal"));
    Diagnostics dup;
    CHECK_FALSE(compile(make_site("kueue-0.19", kPools + "  teams: [{name: x, namespaces: [a], quota: [{pool: cpu, nominal: {cpu: 1}}, {pool: cpu, nominal: {cpu: 2}}]}]\n"), dup));
    CHECK(qf_test::has_rule(dup, "V26"));
    Diagnostics v34;
    CHECK_FALSE(compile(make_site("kueue-0.19", kPools + "  teams: [{name: x, namespaces: [a], preemption: {borrowWithinCohort: {policy: LowerPriority}}, quota: [{pool: cpu, nominal: {cpu: 1}}]}]\n"), v34));
    CHECK(qf_test::has_rule(v34, "V34"));
    Diagnostics v33;
    CHECK_FALSE(compile(make_site("kueue-0.19", kPools + "  teams: [{name: x, namespaces: [a], flavorFungibility: {preference: BorrowingOverPreemption}, quota: [{pool: cpu, nominal: {cpu: 1}}]}]\n"), v33));
    CHECK(qf_test::has_rule(v33, "V33"));
}

TEST_CASE("lowering: v1beta1 and v1beta2 spellings") {
    const std::string body = kPools + R"(  cohorts: [{name: c}]
  teams: [{name: x, cohort: c, namespaces: [a], quota: [{pool: cpu, nominal: {cpu: 1}}]}]
)";
    Diagnostics d1, d2;
    auto old = compile(make_site("kueue-0.13", body), d1);
    auto now = compile(make_site("kueue-0.19", body), d2);
    REQUIRE(old);
    REQUIRE(now);
    auto so = spec_of(find(*old, "ClusterQueue", "x"));
    auto sn = spec_of(find(*now, "ClusterQueue", "x"));
    CHECK(so["cohort"] == "c");
    CHECK_FALSE(so.contains("cohortName"));
    CHECK(sn["cohortName"] == "c");
    CHECK(so["flavorFungibility"]["whenCanBorrow"] == "Borrow");
    CHECK(sn["flavorFungibility"]["whenCanBorrow"] == "MayStopSearch");
    CHECK(find(*old, "Cohort", "c")->api_version == "kueue.x-k8s.io/v1beta1");
    CHECK(find(*now, "Cohort", "c")->api_version == "kueue.x-k8s.io/v1beta2");
}

TEST_CASE("lowering: cohort hierarchy needs a target that serves Cohort, v1alpha1 spells parent") {
    const std::string body = "  cohorts: [{name: root}, {name: child, parent: root}]\n";
    Diagnostics none;
    CHECK_FALSE(compile(make_site("rhoai-2.16", body), none));
    CHECK(qf_test::has_rule(none, "target.cohort"));
    Diagnostics alpha;
    auto l = compile(make_site("rhoai-2.19", body), alpha);
    REQUIRE(l);
    CHECK(spec_of(find(*l, "Cohort", "child"))["parent"] == "root");
    Diagnostics beta;
    auto l2 = compile(make_site("rhoai-3.5", body), beta);
    REQUIRE(l2);
    CHECK(spec_of(find(*l2, "Cohort", "child"))["parentName"] == "root");
}

TEST_CASE("lowering: DataScienceCluster component rules per target") {
    Diagnostics managed;
    CHECK_FALSE(compile(make_site("rhoai-3.0", "  dataScienceCluster: {components: {kueue: Managed}}\n"), managed));
    CHECK(qf_test::has_rule(managed, "target.component-state"));
    CHECK(qf_test::messages(managed).find("use Unmanaged") != std::string::npos);

    Diagnostics renamed;
    CHECK_FALSE(compile(make_site("rhoai-3.5", "  dataScienceCluster: {components: {datasciencepipelines: Managed}}\n"), renamed));
    CHECK(qf_test::messages(renamed).find("aipipelines") != std::string::npos);

    Diagnostics trainer;
    CHECK_FALSE(compile(make_site("rhoai-3.0", "  dataScienceCluster: {components: {trainer: Managed}}\n"), trainer));
    CHECK(qf_test::has_rule(trainer, "target.component"));

    Diagnostics auto_old;
    CHECK_FALSE(compile(make_site("rhoai-3.4", "  dataScienceCluster: {autoCreateQueues: false}\n"), auto_old));
    CHECK(qf_test::has_rule(auto_old, "target.field"));

    Diagnostics ok;
    auto l = compile(make_site("rhoai-3.5", kPools + "  teams: [{name: x, namespaces: [a], quota: [{pool: cpu, nominal: {cpu: 1}}]}]\n"), ok);
    REQUIRE(l);
    auto dsc = find(*l, "DataScienceCluster", "default-dsc");
    REQUIRE(dsc);
    CHECK(dsc->api_version == "datasciencecluster.opendatahub.io/v2");
    auto kueue = spec_of(dsc)["components"]["kueue"];
    CHECK(kueue["managementState"] == "Unmanaged");
    CHECK(kueue["autoCreateQueues"] == false);
    CHECK(dsc->wave == 10);

    Diagnostics embedded;
    auto l2 = compile(make_site("rhoai-2.10", ""), embedded);
    REQUIRE(l2);
    CHECK(find(*l2, "DataScienceCluster", "default-dsc")->wave == -10);
}

TEST_CASE("lowering: names that collide with the operator's auto-created queues warn on 2.23-3.4") {
    const std::string body = "  pools: [{name: default-flavor}]\n  teams: [{name: default, namespaces: [a], quota: [{pool: default-flavor, nominal: {cpu: 1}}]}]\n";
    Diagnostics d;
    REQUIRE(compile(make_site("rhoai-2.25", body), d));
    CHECK(d.count(Severity::Warning) == 3);  // flavor, ClusterQueue and LocalQueue
    Diagnostics old;
    REQUIRE(compile(make_site("rhoai-2.22", body), old));
    CHECK_FALSE(qf_test::has_rule(old, "target.auto-queues"));
    Diagnostics v35;
    REQUIRE(compile(make_site("rhoai-3.5", body), v35));
    CHECK_FALSE(qf_test::has_rule(v35, "target.auto-queues"));
}

TEST_CASE("lowering: labels, annotations, sync waves and stream order") {
    Diagnostics d;
    auto l = compile(make_site("rhoai-2.25", kPools + R"(  manageNamespaces: true
  cohorts: [{name: c}]
  priorityClasses: [{name: high, value: 100}]
  teams: [{name: x, cohort: c, namespaces: [a], localQueue: q, quota: [{pool: cpu, nominal: {cpu: 1}}]}]
)"), d);
    INFO(qf_test::messages(d));
    REQUIRE(l);
    std::vector<std::string> kinds;
    for (const auto& o : l->objects) kinds.push_back(o.kind);
    CHECK(kinds == std::vector<std::string>{"Namespace", "DataScienceCluster", "ResourceFlavor", "ResourceFlavor",
                                            "ResourceFlavor", "Cohort", "WorkloadPriorityClass", "ClusterQueue",
                                            "LocalQueue"});
    auto meta = to_json(find(*l, "LocalQueue", "q", "a")->doc)["metadata"];
    CHECK(meta["labels"]["app.kubernetes.io/managed-by"] == "queueforge");
    CHECK(meta["labels"]["app.kubernetes.io/part-of"] == "t");
    CHECK(meta["labels"]["queueforge.io/team"] == "x");
    CHECK(meta["annotations"]["argocd.argoproj.io/sync-wave"] == "2");
    CHECK(meta["annotations"]["argocd.argoproj.io/sync-options"] == "SkipDryRunOnMissingResource=true");
    CHECK(meta["annotations"]["kueue.x-k8s.io/default-queue"] == "true");
    auto ns = to_json(find(*l, "Namespace", "a")->doc)["metadata"];
    CHECK(ns["labels"]["kueue.openshift.io/managed"] == "true");
    CHECK_FALSE((ns.contains("annotations") && ns["annotations"].contains("argocd.argoproj.io/sync-options")));
    auto dsc = to_json(find(*l, "DataScienceCluster", "default-dsc")->doc)["metadata"];
    CHECK(dsc["annotations"]["argocd.argoproj.io/sync-options"] == "SkipDryRunOnMissingResource=true,Prune=false,Delete=false");
}

TEST_CASE("lowering: OpenShift AI 2.10 support statements warn") {
    Diagnostics d;
    REQUIRE(compile(make_site("rhoai-2.10", kPools + R"(  teams:
    - {name: x, namespaces: [a], quota: [{pool: cpu, nominal: {cpu: 1}}]}
    - {name: team-y, namespaces: [b], quota: [{pool: cpu, nominal: {cpu: 1}}]}
)"), d));
    CHECK(d.count(Severity::Warning) == 2);  // a tainted, labelled flavor and a second ClusterQueue
    CHECK(qf_test::has_rule(d, "target.support"));
}

TEST_CASE("lowering: duplicate names and objects are refused") {
    Diagnostics d;
    CHECK_FALSE(compile(make_site("kueue-0.19", "  pools: [{name: p}, {name: p}]\n"), d));
    CHECK(qf_test::has_rule(d, "site.duplicate-name"));
    Diagnostics lq;
    CHECK_FALSE(compile(make_site("kueue-0.19", kPools + R"(  teams:
    - {name: x, namespaces: [a], quota: [{pool: cpu, nominal: {cpu: 1}}]}
    - {name: team-y, namespaces: [a], quota: [{pool: cpu, nominal: {cpu: 1}}]}
)"), lq));
    CHECK(qf_test::has_rule(lq, "site.duplicate-object"));
}

TEST_CASE("lowering: whenCanBorrow/whenCanPreempt in either spelling, written as the target serves it", "[lower][defects]") {
    auto site = [](const std::string& borrow, const std::string& preempt) {
        return kPools + "  teams:\n    - name: a\n      namespaces: [a]\n      flavorFungibility: {whenCanBorrow: " + borrow +
               ", whenCanPreempt: " + preempt + "}\n      quota: [{pool: cpu, nominal: {cpu: 4}}]\n";
    };
    struct Case {
        std::string target, borrow, preempt, want_borrow, want_preempt;
    };
    // Kueue 0.13 serves Borrow/Preempt only (CRD enum); 0.15 and newer
    // (v1beta2) MayStopSearch only.
    for (const auto& c : std::vector<Case>{{"kueue-0.19", "Borrow", "Preempt", "MayStopSearch", "MayStopSearch"},
                                           {"kueue-0.19", "MayStopSearch", "TryNextFlavor", "MayStopSearch", "TryNextFlavor"},
                                           {"kueue-0.13", "MayStopSearch", "MayStopSearch", "Borrow", "Preempt"},
                                           {"kueue-0.13", "Borrow", "Preempt", "Borrow", "Preempt"},
                                           {"kueue-0.13", "TryNextFlavor", "TryNextFlavor", "TryNextFlavor", "TryNextFlavor"}}) {
        INFO(c.target << " " << c.borrow << " " << c.preempt);
        Diagnostics d;
        auto l = compile(make_site(c.target, site(c.borrow, c.preempt)), d);
        INFO(qf_test::messages(d));
        REQUIRE(l);
        CHECK_FALSE(d.has_errors());
        auto spec = spec_of(find(*l, "ClusterQueue", "a"));
        CHECK(spec["flavorFungibility"]["whenCanBorrow"] == c.want_borrow);
        CHECK(spec["flavorFungibility"]["whenCanPreempt"] == c.want_preempt);
    }
    // The other field's old spelling is still refused, with a suggestion.
    Diagnostics d;
    compile(make_site("kueue-0.19", site("Preempt", "TryNextFlavor")), d);
    CHECK(d.has_errors());
}

TEST_CASE("lowering: the namespaceSelector In list is sorted", "[lower][defects]") {
    auto text = [](const std::string& namespaces) {
        return make_site("kueue-0.19", kPools + "  teams:\n    - name: a\n      namespaces: " + namespaces +
                                           "\n      quota: [{pool: cpu, nominal: {cpu: 4}}]\n");
    };
    Diagnostics d;
    auto sorted = compile(text("[alpha, beta, gamma]"), d);
    auto shuffled = compile(text("[gamma, alpha, beta]"), d);
    INFO(qf_test::messages(d));
    REQUIRE(sorted);
    REQUIRE(shuffled);
    CHECK(render_stream(shuffled->objects, "") == render_stream(sorted->objects, ""));
    auto values = spec_of(find(*shuffled, "ClusterQueue", "a"))["namespaceSelector"]["matchExpressions"][0]["values"];
    CHECK(values == nlohmann::ordered_json{"alpha", "beta", "gamma"});
    // A namespace named twice is refused elsewhere (two default LocalQueues);
    // the selector itself would still list it once.
}
