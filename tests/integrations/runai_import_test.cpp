// queueforge import --from runai: reading a Run:ai export, the site it
// becomes (no double-counted department quota, weights, fair sharing on),
// bad input with positions, and the before/after comparison.
#include "test_util.hpp"

#include <queueforge/base/node_read.hpp>
#include <queueforge/base/yaml_emit.hpp>
#include <queueforge/compile.hpp>
#include <queueforge/integrations/runai.hpp>

#include <catch2/catch.hpp>

#include <map>

using namespace queueforge;
using namespace queueforge::importer::runai;

namespace {

std::string example_path() { return (qf_test::source_dir() / "examples/runai/export.yaml").string(); }

Organization example() {
    Diagnostics d;
    auto org = read_organization({example_path()}, d);
    INFO(qf_test::messages(d));
    REQUIRE(org);
    return *org;
}

// The messages of reading `text` as an export, which must fail.
std::string errors_of(const std::string& text) {
    Diagnostics d;
    auto org = read_organization_text("export.yaml", text, d);
    CHECK_FALSE(org);
    std::string out;
    for (const auto& x : d.all())
        out += x.rule + " " + std::to_string(x.mark.line) + ":" + std::to_string(x.mark.col) + " " + x.message + "\n";
    return out;
}

const Node* find_named(const Node& list, const std::string& name) {
    for (const auto& n : list.items())
        if (n.find("name") && n.find("name")->text() == name) return &n;
    return nullptr;
}

const char* kPools = R"(nodePools:
  - {name: h100, labelKey: run.ai/node-pool, labelValue: h100, nodes: 2, allocatable: {nvidia.com/gpu: "8"}}
)";

}  // namespace

TEST_CASE("runai import: the example reads in both API spellings", "[runai]") {
    const Organization org = example();
    REQUIRE(org.pools.size() == 2);
    REQUIRE(org.departments.size() == 2);
    REQUIRE(org.projects.size() == 4);
    const auto& recsys = org.projects[3];  // previous API spelling
    CHECK(recsys.parent == "product");
    CHECK(recsys.namespaces == std::vector<std::string>{"runai-recsys"});
    REQUIRE(recsys.resources.size() == 2);
    CHECK(recsys.resources[0].gpu.limit == 8);
    CHECK(org.projects[0].parent == "research");  // parentId "2"
    CHECK(org.projects[1].namespaces == std::vector<std::string>{"runai-vision"});  // status.namespace
    CHECK(org.projects[1].resources[0].priority == 6);                               // rank High
    CHECK(org.projects[0].resources[0].cpu.deserved == 96000);
    CHECK(org.projects[0].resources[0].memory.deserved == 1048576);
    CHECK(org.priority_classes.size() == 4);  // KAI's defaults
}

TEST_CASE("runai import: the example's site builds and validates", "[runai]") {
    const Organization org = example();
    Diagnostics d;
    auto m = migrate(org, {}, d);
    REQUIRE(m);
    Compilation c = compile({.path = "runai-site.yaml", .text = render_site(*m)});
    INFO(render_site(*m));
    INFO(qf_test::messages(c.diagnostics));
    CHECK(c.ok());
    CHECK(c.diagnostics.count(Severity::Warning) == 0);
}

TEST_CASE("runai import: department quota is not counted twice", "[runai]") {
    const Organization org = example();
    Diagnostics d;
    auto m = migrate(org, {}, d);
    REQUIRE(m);
    const Node& spec = *m->site.find("spec");
    const Node* research = find_named(*spec.find("cohorts"), "research");
    REQUIRE(research);
    CHECK(research->find("parent")->text() == "runai");
    CHECK(research->find("fairSharingWeight")->text() == "2");
    // h100: the department deserves 20, its projects 12 + 6: the cohort adds 2.
    const Node& q = research->find("quota")->items().at(0);
    CHECK(q.find("pool")->text() == "h100");
    CHECK(q.find("nominal")->find("nvidia.com/gpu")->text() == "2");
    // a100: deserves 8 = 4 + 4, limit 24: nothing of its own, borrowing up to 24 - 8.
    const Node& a = research->find("quota")->items().at(1);
    CHECK(a.find("nominal")->find("nvidia.com/gpu")->text() == "0");
    CHECK(a.find("borrowingLimit")->find("nvidia.com/gpu")->text() == "16");
    // Fair sharing is switched on.
    CHECK(spec.find("kueueOperator")->find("preemptionPolicy")->text() == "FairSharing");
}

TEST_CASE("runai import: projects become teams with nominal and borrowing limits", "[runai]") {
    const Organization org = example();
    Diagnostics d;
    auto m = migrate(org, {}, d);
    REQUIRE(m);
    const Node& teams = *m->site.find("spec")->find("teams");
    const Node* llm = find_named(teams, "llm");
    REQUIRE(llm);
    CHECK(llm->find("cohort")->text() == "research");
    CHECK(llm->find("namespaces")->items().at(0).text() == "runai-llm");
    // Weights 3 (h100) and 1 (a100), averaged.
    CHECK(llm->find("fairSharingWeight")->text() == "2");
    const Node& h = llm->find("quota")->items().at(0);
    CHECK(h.find("nominal")->find("nvidia.com/gpu")->text() == "12");
    CHECK(h.find("nominal")->find("cpu")->text() == "96");
    CHECK(h.find("nominal")->find("memory")->text() == "1024Gi");
    CHECK_FALSE(h.find("borrowingLimit"));
    const Node& a = llm->find("quota")->items().at(1);
    CHECK(a.find("borrowingLimit")->find("nvidia.com/gpu")->text() == "12");  // 16 - 4
    bool averaged = false, rank_lost = false;
    for (const auto& f : m->fidelity) {
        if (f.object == "project llm" && f.setting == "overQuotaWeight per node pool" && f.status == "approximated")
            averaged = true;
        if (f.object == "project vision" && f.setting == "over-quota priority (h100)" && f.status == "not expressible")
            rank_lost = true;
    }
    CHECK(averaged);
    CHECK(rank_lost);
    bool time_limit = false;
    for (const auto& f : m->fidelity)
        time_limit = time_limit || (f.object == "project search" && f.setting == "trainingJobTimeLimitSecs" &&
                                    f.kueue.find("max-exec-time-seconds: \"86400\"") != std::string::npos);
    CHECK(time_limit);
}

TEST_CASE("runai import: --runai-weights split makes one ClusterQueue per node pool", "[runai]") {
    const Organization org = example();
    Diagnostics d;
    MigrationOptions opts;
    opts.weights = WeightMode::Split;
    auto m = migrate(org, opts, d);
    REQUIRE(m);
    const Node& teams = *m->site.find("spec")->find("teams");
    CHECK_FALSE(find_named(teams, "llm"));
    const Node* h = find_named(teams, "llm-h100");
    const Node* a = find_named(teams, "llm-a100");
    REQUIRE(h);
    REQUIRE(a);
    CHECK(h->find("fairSharingWeight")->text() == "3");
    CHECK(a->find("fairSharingWeight")->text() == "1");
    CHECK(h->find("localQueue")->text() == "llm-h100");
    CHECK(find_named(teams, "vision"));  // equal weights: not split
    Compilation c = compile({.path = "runai-site.yaml", .text = render_site(*m)});
    INFO(qf_test::messages(c.diagnostics));
    CHECK(c.ok());
}

TEST_CASE("runai import: bad input names the Run:ai object and its position", "[runai]") {
    SECTION("a project without a namespace") {
        auto e = errors_of(std::string(kPools) + "projects:\n  - name: llm\n    resources: [{nodePool: {name: h100}, gpu: {deserved: 4}}]\n");
        CHECK_THAT(e, Catch::Contains("runai.no-namespace 4:5 project \"llm\" has no namespace"));
    }
    SECTION("duplicate node pools") {
        auto e = errors_of(std::string(kPools) + "  - {name: h100, labelKey: k, labelValue: v}\n");
        CHECK_THAT(e, Catch::Contains("runai.duplicate 3:5 node pool \"h100\" is defined twice (first at export.yaml:2:5)"));
    }
    SECTION("a limit below deserved") {
        auto e = errors_of(std::string(kPools) +
                           "projects:\n  - name: llm\n    namespace: llm\n    resources:\n"
                           "      - nodePool: {name: h100}\n        gpu: {deserved: 8, limit: 4}\n");
        CHECK_THAT(e, Catch::Contains("runai.limit-below-deserved 8:35 project \"llm\", node pool \"h100\", gpu.limit: 4 is below deserved 8"));
    }
    SECTION("a weight of zero") {
        auto e = errors_of(std::string(kPools) +
                           "departments:\n  - name: research\n    resources:\n"
                           "      - nodePool: {name: h100}\n        gpu: {deserved: 8, overQuotaWeight: 0}\n");
        CHECK_THAT(e, Catch::Contains("runai.weight 7:45 department \"research\", node pool \"h100\", gpu.overQuotaWeight: 0 is not positive"));
    }
    SECTION("an unknown node pool") {
        auto e = errors_of(std::string(kPools) +
                           "projects:\n  - name: llm\n    namespace: llm\n    resources:\n      - nodePool: {name: b200}\n");
        CHECK_THAT(e, Catch::Contains("runai.unknown-reference 7:9 project \"llm\": node pool \"b200\" is not among the node pools (h100)"));
    }
    SECTION("an unknown department") {
        auto e = errors_of(std::string(kPools) + "projects:\n  - name: llm\n    namespace: llm\n    parentName: ops\n");
        CHECK_THAT(e, Catch::Contains("runai.unknown-reference 4:5 project \"llm\": department \"ops\" is not among the departments"));
    }
    SECTION("fractional GPU deserved") {
        auto e = errors_of(std::string(kPools) +
                           "projects:\n  - name: llm\n    namespace: llm\n    resources:\n"
                           "      - nodePool: {name: h100}\n        gpu: {deserved: 1.5}\n");
        CHECK_THAT(e, Catch::Contains("runai.fractional-gpu 8:25 project \"llm\", node pool \"h100\", gpu.deserved: 1.5 GPUs is a fraction"));
    }
    SECTION("not a number") {
        auto e = errors_of(std::string(kPools) +
                           "projects:\n  - name: llm\n    namespace: llm\n    resources:\n"
                           "      - nodePool: {name: h100}\n        gpu: {deserved: twelve}\n");
        CHECK_THAT(e, Catch::Contains("runai.input 8:25 project \"llm\", node pool \"h100\", gpu.deserved: \"twelve\" is not a number"));
    }
    SECTION("a namespace Kubernetes would refuse") {
        auto e = errors_of(std::string(kPools) + "projects:\n  - name: llm\n    namespace: Bad_NS\n");
        CHECK_THAT(e, Catch::Contains("runai.input 5:16 project \"llm\": namespace \"Bad_NS\" is not a lowercase RFC 1123 label"));
    }
    SECTION("a project name that cannot name a ClusterQueue") {
        auto e = errors_of(std::string(kPools) + "projects:\n  - name: LLM.team\n    namespace: llm\n");
        CHECK_THAT(e, Catch::Contains("runai.input 4:11 project \"LLM.team\": not a lowercase RFC 1123 label"));
    }
    SECTION("an empty file") {
        auto e = errors_of("");
        CHECK_THAT(e, Catch::Contains("runai.input 1:1 the file holds no document"));
    }
    SECTION("not an export at all") {
        auto e = errors_of("apiVersion: v1\nkind: ConfigMap\n");
        CHECK_THAT(e, Catch::Contains("runai.input 1:1 no nodePools, departments or projects"));
    }
}

TEST_CASE("runai import: a department whose projects deserve more is reported as approximated", "[runai]") {
    Diagnostics d;
    auto org = read_organization_text("export.yaml",
                                      std::string(kPools) +
                                          "departments:\n  - name: research\n    resources: [{nodePool: {name: h100}, gpu: {deserved: 4}}]\n"
                                          "projects:\n  - name: a\n    namespace: a\n    parentName: research\n"
                                          "    resources: [{nodePool: {name: h100}, gpu: {deserved: 6}}]\n",
                                      d);
    REQUIRE(org);
    auto m = migrate(*org, {}, d);
    REQUIRE(m);
    bool found = false;
    for (const auto& f : m->fidelity)
        if (f.object == "department research" && f.setting == "gpu (h100) deserved") {
            found = true;
            CHECK(f.status == "approximated");
            CHECK_THAT(f.note, Catch::Contains("the department gets 2 more"));
        }
    CHECK(found);
}

TEST_CASE("runai import: on plain Kueue the emitted Configuration turns fair sharing on for the after side", "[runai]") {
    // The kueue-0.x site's kueueConfig emits the kueue-manager-config
    // ConfigMap with fairSharing, which the simulator reads as Kueue would:
    // the Kueue column is the one of the Red Hat build's CR with
    // preemptionPolicy FairSharing, not classical admission.
    const Organization org = example();
    Diagnostics d;
    auto rhoai = migrate(org, {}, d);
    MigrationOptions k;
    k.target = "kueue-0.16";
    auto kueue = migrate(org, k, d);
    REQUIRE(rhoai);
    REQUIRE(kueue);
    auto a = compare(org, *rhoai, {}, demand_everything(org), "everything", d);
    auto b = compare(org, *kueue, k, demand_everything(org), "everything", d);
    INFO(qf_test::messages(d));
    REQUIRE(a);
    REQUIRE(b);
    REQUIRE(a->rows.size() == b->rows.size());
    for (std::size_t i = 0; i < a->rows.size(); ++i) {
        INFO(a->rows[i].pool << "/" << a->rows[i].project);
        CHECK(a->rows[i].kueue == b->rows[i].kueue);
    }
    // Without it (fairSharing: false) the weights are ignored: a different split.
    Migration off = *kueue;
    Node* kc = off.site.find("spec")->find("kueueConfig");
    REQUIRE(kc);
    kc->set("fairSharing", Node::boolean(false));
    for (auto* list : {off.site.find("spec")->find("teams"), off.site.find("spec")->find("cohorts")})
        if (list)
            for (auto& t : list->items()) t.erase("fairSharingWeight");
    auto c = compare(org, off, k, demand_everything(org), "everything", d);
    REQUIRE(c);
    bool differs = false;
    for (std::size_t i = 0; i < a->rows.size(); ++i) differs = differs || a->rows[i].kueue != c->rows[i].kueue;
    CHECK(differs);
}

TEST_CASE("runai import: before and after, everyone asking for everything", "[runai]") {
    const Organization org = example();
    Diagnostics d;
    auto m = migrate(org, {}, d);
    REQUIRE(m);
    auto c = compare(org, *m, {}, demand_everything(org), "everything", d);
    INFO(qf_test::messages(d));
    REQUIRE(c);
    std::map<std::string, ComparisonRow> rows;
    for (const auto& r : c->rows) rows[r.pool + "/" + r.project] = r;
    REQUIRE(rows.size() == 8);
    // Run:ai (worked by hand from resource_division.go): h100 32 GPUs, research
    // 20 + 2 + 1 = 23 (weights 2:1, the remainder to the larger fraction),
    // product 9; vision's rank High takes research's 5 over quota before llm.
    CHECK(rows["h100/llm"].runai == 12);
    CHECK(rows["h100/vision"].runai == 11);
    CHECK(rows["h100/search"].runai == 7);
    CHECK(rows["h100/recsys"].runai == 2);
    CHECK(rows["a100/llm"].runai == 6);
    CHECK(rows["a100/vision"].runai == 5);
    CHECK(rows["a100/search"].runai == 13);
    CHECK(rows["a100/recsys"].runai == 8);
    // Kueue: every queue gets at least its nominal quota when it asks for
    // more, within its limit, and the pool is used up.
    for (const char* pool : {"h100", "a100"}) {
        double sum = 0;
        for (const auto& r : c->rows) {
            if (r.pool != pool) continue;
            INFO(r.pool << "/" << r.project);
            CHECK(r.kueue >= r.deserved);
            sum += r.kueue;
        }
        CHECK(sum == 32);
    }
    CHECK(rows["h100/vision"].kueue <= 12);  // limit 12
    CHECK(rows["h100/recsys"].kueue <= 8);   // limit 8
}

TEST_CASE("runai import: a target without Cohorts is refused with the site's reason", "[runai]") {
    const Organization org = example();
    Diagnostics d;
    MigrationOptions opts;
    opts.target = "kueue-0.8";
    auto m = migrate(org, opts, d);
    REQUIRE(m);
    CHECK_FALSE(check_site(*m, "site.yaml", d));
    REQUIRE(d.has_errors());
    CHECK(d.all()[0].rule == "runai.site");
    CHECK_THAT(d.all()[0].message, Catch::Contains("serves no Cohort objects"));
    // Fair sharing is switched on in Kueue's own Configuration there.
    auto fidelity = [](const Migration& mig, const std::string& object, const std::string& setting) {
        for (const auto& f : mig.fidelity)
            if (f.object == object && f.setting == setting) return f.status + ": " + f.kueue;
        return std::string("missing");
    };
    CHECK_THAT(fidelity(*m, "organization", "fair sharing of over-quota resources"),
               Catch::StartsWith("exact: kueueConfig.fairSharing true"));
    CHECK(text_at(*m->site.find("spec")->find("kueueConfig"), {"fairSharing"}) == "true");
    // Kueue 0.6 has none: the weights are left out rather than emitted to do nothing.
    MigrationOptions k6;
    k6.target = "kueue-0.6";
    auto m6 = migrate(org, k6, d);
    REQUIRE(m6);
    CHECK(fidelity(*m6, "organization", "fair sharing of over-quota resources").starts_with("not expressible: "));
    CHECK(emit_yaml(m6->site).find("fairSharingWeight") == std::string::npos);
    // OpenShift AI 2.x configures its embedded Kueue itself.
    MigrationOptions r2;
    r2.target = "rhoai-2.25";
    auto m2 = migrate(org, r2, d);
    REQUIRE(m2);
    CHECK(fidelity(*m2, "organization", "fair sharing of over-quota resources").starts_with("approximated: "));
}

TEST_CASE("runai import: a demands file naming unknown projects or pools is refused", "[runai]") {
    const Organization org = example();
    qf_test::TempDir dir;
    const auto file = (dir.path / "demands.yaml").string();
    qf_test::write_text(file, "demands:\n  - {project: llm, pool: b200, gpus: 8}\n  - {project: ops, pool: h100, gpus: 1}\n  - {project: llm, pool: h100}\n");
    Diagnostics d;
    CHECK_FALSE(read_demands(file, org, d));
    std::string all;
    for (const auto& x : d.all()) {
        CHECK(x.rule == "runai.scenario");
        all += std::to_string(x.mark.line) + ":" + std::to_string(x.mark.col) + " " + x.message + "\n";
    }
    CHECK_THAT(all, Catch::Contains("2:26 node pool \"b200\" is not in the Run:ai export"));
    CHECK_THAT(all, Catch::Contains("3:15 project \"ops\" is not in the Run:ai export"));
    CHECK_THAT(all, Catch::Contains("4:5 a demand needs project, pool and gpus"));
}

TEST_CASE("runai import: a scenario of demands is compared too", "[runai]") {
    const Organization org = example();
    Diagnostics d;
    auto demands = read_demands((qf_test::source_dir() / "examples/runai/demands.yaml").string(), org, d);
    REQUIRE(demands);
    auto m = migrate(org, {}, d);
    REQUIRE(m);
    auto c = compare(org, *m, {}, *demands, "demands", d);
    REQUIRE(c);
    std::map<std::string, ComparisonRow> rows;
    for (const auto& r : c->rows) rows[r.pool + "/" + r.project] = r;
    // vision asks 10 and ranks High in h100: Run:ai serves it first over quota.
    CHECK(rows["h100/vision"].runai == 10);
    CHECK(rows["a100/vision"].demand == 0);
    CHECK(rows["a100/vision"].kueue == 0);
    for (const auto& r : c->rows) CHECK(r.kueue <= r.demand);
}

TEST_CASE("runai import: the README's before/after table is the example's", "[runai]") {
    const Organization org = example();
    Diagnostics d;
    auto m = migrate(org, {}, d);
    REQUIRE(m);
    auto c = compare(org, *m, {}, demand_everything(org), "everything", d);
    REQUIRE(c);
    const std::string readme = qf_test::read_text(qf_test::source_dir() / "README.md");
    CHECK_THAT(readme, Catch::Contains(render_comparison_markdown(*c)));
}

TEST_CASE("runai import: the HTML report escapes input and highlights differences", "[runai]") {
    Diagnostics d;
    auto org = read_organization_text("export.yaml",
                                      "nodePools:\n  - {name: h100, labelKey: \"<b>key</b>\", labelValue: v}\n"
                                      "projects:\n  - name: a\n    namespace: a\n"
                                      "    resources: [{nodePool: {name: h100}, gpu: {deserved: 4, limit: 8}}]\n",
                                      d);
    REQUIRE(org);
    auto m = migrate(*org, {}, d);
    REQUIRE(m);
    Comparison c;
    c.scenario = "s";
    c.rows.push_back({"a", "", "h100", 8, 4, 6, 8});
    c.rows.push_back({"b", "", "h100", 8, 4, 6, 6});
    const std::string html = render_report_html(*m, {c});
    CHECK_THAT(html, Catch::Contains("&lt;b&gt;key&lt;/b&gt;"));
    CHECK_THAT(html, !Catch::Contains("<b>key"));
    CHECK_THAT(html, Catch::Contains("text-align:right;background:#e3f4e3;font-weight:bold\">+2</td>"));
    CHECK_THAT(html, Catch::Contains("text-align:right\">=</td>"));
    CHECK_THAT(html, Catch::Contains("<section id=\"runai-migration\">"));
}

TEST_CASE("runai import: MIG profiles on a pool turn GPU fractions from lost to approximated", "[runai]") {
    auto status_of_fractions = [](const std::string& alloc) {
        Diagnostics d;
        auto org = read_organization_text(
            "export.yaml",
            "nodePools:\n  - {name: a100, labelKey: k, labelValue: v, nodes: 1, allocatable: {" + alloc +
                "}}\nprojects:\n  - name: a\n    namespace: a\n    resources: [{nodePool: {name: a100}, gpu: {deserved: 1}}]\n",
            d);
        REQUIRE(org);
        auto m = migrate(*org, {}, d);
        REQUIRE(m);
        for (const auto& f : m->fidelity)
            if (f.setting == "GPU fractions and dynamic fractions") return f.status + ": " + f.kueue;
        return std::string("missing");
    };
    CHECK(status_of_fractions("nvidia.com/gpu: \"8\"") == "not expressible: ");
    CHECK(status_of_fractions("nvidia.com/mig-1g.10gb: \"14\"") ==
          "approximated: MIG profiles the pools declare: a100 nvidia.com/mig-1g.10gb");
}

// The Kueue side simulates one Workload per GPU asked for: a pool of 100,000
// GPUs that every project asks for in full would be millions of Workloads,
// running for minutes. Bounded, with the pool named.
TEST_CASE("runai import: a comparison beyond 100,000 Workloads is refused at the node pool, not run", "[runai]") {
    Organization org = example();
    REQUIRE_FALSE(org.pools.empty());
    REQUIRE(org.pools[0].gpus_per_node > 0);
    org.pools[0].nodes = 1000000 / static_cast<std::int64_t>(org.pools[0].gpus_per_node);
    Diagnostics d;
    auto m = migrate(org, {}, d);
    REQUIRE(m);
    auto c = compare(org, *m, {}, demand_everything(org), "everyone asks for everything", d);
    CHECK_FALSE(c);
    INFO(qf_test::messages(d));
    REQUIRE(qf_test::has_rule(d, "runai.scenario"));
    CHECK_THAT(qf_test::messages(d), Catch::Contains("node pool \"" + org.pools[0].name + "\": the comparison (everyone asks for everything)"));
    CHECK_THAT(qf_test::messages(d), Catch::Contains("more than 100000 here, over its limit"));
}

// ---- Placement: network topology, bin packing / spread, DRA DeviceClasses ----

namespace {

std::string topology_example_path() { return (qf_test::source_dir() / "examples/runai/export-topology.yaml").string(); }

Organization topology_example() {
    Diagnostics d;
    auto org = read_organization({topology_example_path()}, d);
    INFO(qf_test::messages(d));
    REQUIRE(org);
    return *org;
}

// "status: kueue" of the fidelity item of `object` and `setting`, or "missing".
std::string fidelity(const Migration& m, const std::string& object, const std::string& setting) {
    for (const auto& f : m.fidelity)
        if (f.object == object && f.setting == setting) return f.status + ": " + f.kueue;
    return "missing";
}

std::string fidelity_note(const Migration& m, const std::string& object, const std::string& setting) {
    for (const auto& f : m.fidelity)
        if (f.object == object && f.setting == setting) return f.note;
    return "missing";
}

const char* kTopology = R"(networkTopologies:
  - {id: t1, name: fabric, levels: [cloud.provider.com/topology-rack, kubernetes.io/hostname]}
)";

}  // namespace

TEST_CASE("runai import: node pools' topology, placement strategy and DeviceClasses are read", "[runai]") {
    const Organization org = topology_example();
    REQUIRE(org.topologies.size() == 1);
    CHECK(org.topologies[0].levels ==
          std::vector<std::string>{"cloud.provider.com/topology-block", "cloud.provider.com/topology-rack",
                                   "kubernetes.io/hostname"});
    REQUIRE(org.pools.size() == 2);
    const auto& h100 = org.pools[0];
    CHECK(h100.topology == "fabric");  // by networkTopologyId
    CHECK(h100.topology_shape == std::vector<std::int64_t>{1, 2, 2});
    CHECK(h100.gpu_strategy == "binpack");  // schedulingConfiguration.placementStrategy
    CHECK(h100.cpu_strategy == "spread");
    const auto& a100 = org.pools[1];
    CHECK(a100.topology == "fabric");  // by networkTopologyName
    CHECK(a100.gpu_strategy == "spread");  // placementStrategy
    CHECK(a100.device_classes == std::vector<std::string>{"gpu.nvidia.com", "mig.nvidia.com"});
}

TEST_CASE("runai import: a declared topology becomes the site's Topology and the pool's topology", "[runai]") {
    const Organization org = topology_example();
    Diagnostics d;
    auto m = migrate(org, {}, d);
    REQUIRE(m);
    const Node& spec = *m->site.find("spec");
    REQUIRE(spec.find("topologies"));
    const Node* fabric = find_named(*spec.find("topologies"), "fabric");
    REQUIRE(fabric);
    REQUIRE(fabric->find("levels")->items().size() == 3);
    CHECK(fabric->find("levels")->items()[2].text() == "kubernetes.io/hostname");
    const Node* h100 = find_named(*spec.find("pools"), "h100");
    REQUIRE(h100);
    REQUIRE(h100->find("topology"));
    CHECK(h100->find("topology")->find("name")->text() == "fabric");
    REQUIRE(h100->find("topology")->find("shape")->items().size() == 3);
    CHECK(h100->find("topology")->find("shape")->items()[2].text() == "2");
    CHECK(fidelity(*m, "node pool h100", "network topology") ==
          "approximated: Topology fabric and pool topology.shape [1, 2, 2] (ResourceFlavor spec.topologyName)");
    CHECK_THAT(fidelity_note(*m, "node pool h100", "network topology"),
               Catch::Contains("kueue.x-k8s.io/podset-preferred-topology: kubernetes.io/hostname"));
    // The site builds, validates and lowers the pools to topology-aware flavors.
    Compilation c = compile({.path = "runai-site.yaml", .text = render_site(*m)});
    INFO(render_site(*m));
    INFO(qf_test::messages(c.diagnostics));
    CHECK(c.ok());
    CHECK(c.diagnostics.count(Severity::Warning) == 0);
    CHECK(check_site(*m, "runai-site.yaml", d));
}

TEST_CASE("runai import: binpack maps to Kueue's TAS profiles, spread is not expressible", "[runai]") {
    const Organization org = topology_example();
    Diagnostics d;
    auto m = migrate(org, {}, d);
    REQUIRE(m);
    // rhoai-3.5 (Kueue 0.18): TASProfileMixed is on.
    CHECK_THAT(fidelity(*m, "node pool h100", "gpu placement strategy"),
               Catch::StartsWith("approximated: TAS: LeastFreeCapacity (the fullest domains first) for podsets without a topology request"));
    CHECK_THAT(fidelity_note(*m, "node pool h100", "gpu placement strategy"),
               Catch::Contains("Kueue packs domains down to the nodes"));
    CHECK(fidelity(*m, "node pool h100", "cpu placement strategy") == "not expressible: ");
    CHECK(fidelity(*m, "node pool a100", "gpu placement strategy") == "not expressible: ");
    CHECK_THAT(fidelity_note(*m, "node pool a100", "gpu placement strategy"), Catch::Contains("none spreads them"));
    CHECK_THAT(fidelity_note(*m, "node pool a100", "cpu placement strategy"),
               Catch::Contains("the cpu and gpu strategies are not told apart"));
    // Kueue 0.14: TAS without the mixed profile.
    MigrationOptions old;
    old.target = "kueue-0.14";
    auto m14 = migrate(org, old, d);
    REQUIRE(m14);
    CHECK_THAT(fidelity(*m14, "node pool h100", "gpu placement strategy"), Catch::StartsWith("approximated: TAS BestFit"));
}

TEST_CASE("runai import: placement without a topology stays not expressible, and no Topology is emitted", "[runai]") {
    Diagnostics d;
    auto org = read_organization_text(
        "export.yaml",
        "nodePools:\n  - {name: h100, labelKey: k, labelValue: v, nodes: 2, allocatable: {nvidia.com/gpu: \"8\"}, "
        "placementStrategy: {gpu: binpack, cpu: spread}}\n"
        "projects:\n  - name: a\n    namespace: a\n    resources: [{nodePool: {name: h100}, gpu: {deserved: 1}}]\n",
        d);
    INFO(qf_test::messages(d));
    REQUIRE(org);
    auto m = migrate(*org, {}, d);
    REQUIRE(m);
    CHECK_FALSE(m->site.find("spec")->find("topologies"));
    CHECK(fidelity(*m, "node pool h100", "gpu placement strategy") == "not expressible: ");
    CHECK_THAT(fidelity_note(*m, "node pool h100", "gpu placement strategy"),
               Catch::Contains("no network topology with a topologyShape"));
    CHECK(fidelity(*m, "organization", "bin packing / spread (node-level scheduler)") == "missing");

    // A topology without the shape the site needs: said, not emitted.
    auto org2 = read_organization_text(
        "export.yaml",
        std::string(kTopology) +
            "nodePools:\n  - {name: h100, labelKey: k, labelValue: v, networkTopologyId: t1}\n",
        d);
    REQUIRE(org2);
    auto m2 = migrate(*org2, {}, d);
    REQUIRE(m2);
    CHECK_FALSE(m2->site.find("spec")->find("topologies"));
    CHECK(fidelity(*m2, "node pool h100", "network topology") == "not expressible: ");
    CHECK_THAT(fidelity_note(*m2, "node pool h100", "network topology"), Catch::Contains("add topologyShape"));

    // A target without topology-aware scheduling.
    MigrationOptions old;
    old.target = "kueue-0.13";
    const Organization topo = topology_example();
    auto m3 = migrate(topo, old, d);
    REQUIRE(m3);
    CHECK_FALSE(m3->site.find("spec")->find("topologies"));
    CHECK(fidelity(*m3, "node pool h100", "network topology") == "not expressible: ");
}

namespace {

// The compiled object of a kind, or nullptr.
const Object* compiled(const Compilation& c, const std::string& kind) {
    for (const auto& o : c.objects())
        if (o.kind == kind) return &o;
    return nullptr;
}

}  // namespace

TEST_CASE("runai import: DRA DeviceClasses become the site's deviceClassMappings", "[runai]") {
    const Organization org = topology_example();
    Diagnostics d;
    auto m = migrate(org, {}, d);
    REQUIRE(m);
    CHECK_THAT(fidelity(*m, "node pool a100", "GPU fractions as DRA DeviceClasses"),
               Catch::StartsWith("approximated: deviceClassMappings gpu.nvidia.com/devices <- gpu.nvidia.com, "
                                 "mig.nvidia.com/devices <- mig.nvidia.com in spec.kueueOperator.deviceClassMappings "
                                 "(the Kueue CR's spec.config.resources)"));
    CHECK_THAT(fidelity_note(*m, "node pool a100", "GPU fractions as DRA DeviceClasses"),
               Catch::Contains("Kueue counts whole devices per claim"));
    CHECK_THAT(fidelity(*m, "organization", "GPU fractions and dynamic fractions"),
               Catch::StartsWith("approximated: DRA DeviceClasses the pools declare: a100 gpu.nvidia.com mig.nvidia.com"));
    const std::string site = render_site(*m);
    CHECK_THAT(site, Catch::Contains("  kueueOperator:\n"));
    CHECK_THAT(site, Catch::Contains("    deviceClassMappings:\n"
                                     "      - name: gpu.nvidia.com/devices\n"
                                     "        deviceClassNames:\n"
                                     "          - gpu.nvidia.com\n"
                                     "      - name: mig.nvidia.com/devices\n"));
    CHECK(site.find("\n#", site.find("apiVersion")) == std::string::npos);  // nothing left to copy by hand
    // The Kueue CR carries them.
    Compilation c = compile({.path = "runai-site.yaml", .text = site});
    INFO(qf_test::messages(c.diagnostics));
    REQUIRE(c.ok());
    const Object* cr = compiled(c, "Kueue");
    REQUIRE(cr);
    const Node* res = cr->doc.find("spec")->find("config")->find("resources");
    REQUIRE(res);
    REQUIRE(res->find("deviceClassMappings")->items().size() == 2);
    CHECK(res->find("deviceClassMappings")->items()[1].find("name")->text() == "mig.nvidia.com/devices");

    // Upstream Kueue: the Configuration, with the alpha gate before 0.18.
    MigrationOptions k16;
    k16.target = "kueue-0.16";
    auto m16 = migrate(org, k16, d);
    REQUIRE(m16);
    CHECK_THAT(fidelity(*m16, "node pool a100", "GPU fractions as DRA DeviceClasses"),
               Catch::Contains("in spec.kueueConfig.deviceClassMappings (Kueue's Configuration "
                               "resources.deviceClassMappings, with the feature gate DynamicResourceAllocation the "
                               "site turns on)"));
    Compilation c16 = compile({.path = "runai-site.yaml", .text = render_site(*m16)});
    INFO(qf_test::messages(c16.diagnostics));
    REQUIRE(c16.ok());
    const Object* cm = compiled(c16, "ConfigMap");
    REQUIRE(cm);
    const std::string text = cm->doc.find("data")->find("controller_manager_config.yaml")->text();
    CHECK_THAT(text, Catch::Contains("resources:\n  deviceClassMappings:\n    - name: gpu.nvidia.com/devices\n"));
    CHECK_THAT(text, Catch::Contains("featureGates:\n  DynamicResourceAllocation: true\n"));
    CHECK_THAT(text, Catch::Contains("fairSharing:\n  preemptionStrategies:"));

    MigrationOptions k13;
    k13.target = "kueue-0.13";
    auto m13 = migrate(org, k13, d);
    REQUIRE(m13);
    CHECK(fidelity(*m13, "node pool a100", "GPU fractions as DRA DeviceClasses") == "not expressible: ");
    CHECK_FALSE(m13->site.find("spec")->find("kueueConfig")->find("deviceClassMappings"));
}

TEST_CASE("runai import: the topology example's before and after is computed on the placed nodes", "[runai]") {
    const Organization org = topology_example();
    Diagnostics d;
    auto m = migrate(org, {}, d);
    REQUIRE(m);
    auto c = compare(org, *m, {}, demand_everything(org), "everything", d);
    INFO(qf_test::messages(d));
    REQUIRE(c);
    for (const char* pool : {"h100", "a100"}) {
        double runai = 0, kueue = 0;
        for (const auto& r : c->rows) {
            if (r.pool != pool) continue;
            INFO(r.pool << "/" << r.project);
            CHECK(r.kueue >= r.deserved);
            runai += r.runai;
            kueue += r.kueue;
        }
        CHECK(runai == 32);
        CHECK(kueue == 32);
    }
}

TEST_CASE("runai import: bad placement input names the node pool or topology and its position", "[runai]") {
    const std::string pool = "nodePools:\n  - name: h100\n    labelKey: k\n    labelValue: v\n";
    SECTION("an unknown placement strategy") {
        auto e = errors_of(pool + "    placementStrategy: {gpu: pack}\n");
        CHECK_THAT(e, Catch::Contains("runai.input 5:30 node pool \"h100\": placementStrategy.gpu: \"pack\" is neither binpack nor spread"));
    }
    SECTION("an unknown strategy in the current API's spelling") {
        auto e = errors_of(pool + "    schedulingConfiguration:\n      placementStrategy: {cpu: fill}\n");
        CHECK_THAT(e, Catch::Contains("runai.input 6:32 node pool \"h100\": placementStrategy.cpu: \"fill\" is neither binpack nor spread"));
    }
    SECTION("a DeviceClass name that is not a DNS subdomain") {
        auto e = errors_of(pool + "    deviceClasses: [GPU_Class]\n");
        CHECK_THAT(e, Catch::Contains("runai.input 5:21 node pool \"h100\": deviceClasses: \"GPU_Class\" is not a DeviceClass name"));
    }
    SECTION("a DeviceClass listed twice") {
        auto e = errors_of(pool + "    deviceClasses: [gpu.nvidia.com, gpu.nvidia.com]\n");
        CHECK_THAT(e, Catch::Contains("runai.duplicate 5:37 node pool \"h100\": deviceClasses: \"gpu.nvidia.com\" is listed twice"));
    }
    SECTION("an unknown network topology id") {
        auto e = errors_of(std::string(kTopology) + pool + "    networkTopologyId: t9\n");
        CHECK_THAT(e, Catch::Contains("runai.unknown-reference 4:5 node pool \"h100\": its network topology id t9 is not among the networkTopologies"));
    }
    SECTION("an unknown network topology name") {
        auto e = errors_of(pool + "    networkTopologyName: fabric\n");
        CHECK_THAT(e, Catch::Contains("runai.unknown-reference 2:5 node pool \"h100\": network topology \"fabric\" is not among the networkTopologies"));
    }
    SECTION("a shape that does not fit the levels") {
        auto e = errors_of(std::string(kTopology) + pool + "    networkTopologyId: t1\n    topologyShape: [2, 2, 2]\n");
        CHECK_THAT(e, Catch::Contains("runai.input 4:5 node pool \"h100\": topologyShape has 3 numbers; network topology \"fabric\" needs 2"));
    }
    SECTION("a shape that does not add up to the pool's nodes") {
        auto e = errors_of(std::string(kTopology) + pool + "    nodes: 5\n    networkTopologyId: t1\n    topologyShape: [2, 2]\n");
        CHECK_THAT(e, Catch::Contains("runai.input 4:5 node pool \"h100\": topologyShape describes 4 nodes, but the pool has nodes: 5"));
    }
    SECTION("a shape without a topology") {
        auto e = errors_of(pool + "    topologyShape: [2]\n");
        CHECK_THAT(e, Catch::Contains("runai.input 2:5 node pool \"h100\": topologyShape without a network topology"));
    }
    SECTION("a shape count of zero") {
        auto e = errors_of(std::string(kTopology) + pool + "    networkTopologyId: t1\n    topologyShape: [0, 2]\n");
        CHECK_THAT(e, Catch::Contains("runai.input 8:21 node pool \"h100\": topologyShape: \"0\" is not a count from 1 to 100000"));
    }
    SECTION("a level that is not a label key") {
        auto e = errors_of("networkTopologies:\n  - name: fabric\n    levels: [\"bad key!\"]\n");
        CHECK_THAT(e, Catch::Contains("runai.input 3:14 network topology \"fabric\": levels[0]: \"bad key!\" is not a node label key"));
    }
    SECTION("a level listed twice") {
        auto e = errors_of("networkTopologies:\n  - name: fabric\n    levels: [rack, rack]\n");
        CHECK_THAT(e, Catch::Contains("runai.duplicate 3:20 network topology \"fabric\": levels[1]: \"rack\" is listed twice"));
    }
    SECTION("the hostname above another level") {
        auto e = errors_of("networkTopologies:\n  - name: fabric\n    levels: [kubernetes.io/hostname, rack]\n");
        CHECK_THAT(e, Catch::Contains("runai.input 3:14 network topology \"fabric\": levels[0]: kubernetes.io/hostname can only be the lowest level"));
    }
    SECTION("a topology without levels") {
        auto e = errors_of("networkTopologies:\n  - name: fabric\n");
        CHECK_THAT(e, Catch::Contains("runai.input 2:5 network topology \"fabric\": levels: expected a list of node labels"));
    }
    SECTION("two topologies of one name") {
        auto e = errors_of("networkTopologies:\n  - {name: fabric, levels: [rack]}\n  - {name: fabric, levels: [block]}\n");
        CHECK_THAT(e, Catch::Contains("runai.duplicate 3:5 network topology \"fabric\" is defined twice (first at export.yaml:2:5)"));
    }
}

TEST_CASE("runai import: the placement items are in every report format", "[runai]") {
    const Organization org = topology_example();
    Diagnostics d;
    auto m = migrate(org, {}, d);
    REQUIRE(m);
    const std::string text = render_report_text(*m, {});
    const std::string json = render_report_json(*m, {}).dump();
    const std::string md = render_report_markdown(*m, {});
    const std::string html = render_report_html(*m, {});
    for (const std::string* out : {&text, &json, &md, &html}) {
        CHECK_THAT(*out, Catch::Contains("network topology"));
        CHECK_THAT(*out, Catch::Contains("gpu placement strategy"));
        CHECK_THAT(*out, Catch::Contains("GPU fractions as DRA DeviceClasses"));
    }
    CHECK_THAT(json, Catch::Contains("\"setting\":\"cpu placement strategy\",\"runai\":\"spread\",\"kueue\":\"\",\"status\":\"not expressible\""));
}

TEST_CASE("runai import: node-level scheduler options are reported as not expressible", "[runai]") {
    Diagnostics d;
    auto org = read_organization_text(
        "export.yaml",
        "nodePools:\n  - name: h100\n    labelKey: k\n    labelValue: v\n"
        "    schedulingConfiguration:\n      placementStrategy: {gpu: binpack}\n"
        "      minRuntime: {preemptMinRuntime: 4h, reclaimMinRuntime: 1h}\n"
        "    kValue: 0.5\n",
        d);
    INFO(qf_test::messages(d));
    REQUIRE(org);
    auto m = migrate(*org, {}, d);
    REQUIRE(m);
    CHECK(fidelity(*m, "node pool h100", "scheduler option minRuntime") == "not expressible: ");
    CHECK_THAT(fidelity_note(*m, "node pool h100", "scheduler option minRuntime"),
               Catch::Contains("without a minimum runtime"));
    CHECK(fidelity(*m, "node pool h100", "scheduler option kValue") == "not expressible: ");
    CHECK(fidelity(*m, "node pool h100", "scheduler option placementStrategy") == "missing");
    for (const auto& f : m->fidelity)
        if (f.setting == "scheduler option minRuntime") CHECK(f.runai == "{preemptMinRuntime: 4h, reclaimMinRuntime: 1h}");
}

TEST_CASE("runai import: node pools become pools with their node labels, priorities WorkloadPriorityClasses", "[runai]") {
    const Organization org = example();
    Diagnostics d;
    auto m = migrate(org, {}, d);
    REQUIRE(m);
    const Node& spec = *m->site.find("spec");
    const Node* h100 = find_named(*spec.find("pools"), "h100");
    REQUIRE(h100);
    REQUIRE(h100->find("nodeLabels"));
    CHECK(h100->find("nodeLabels")->find("run.ai/node-pool")->text() == "h100");
    CHECK(h100->find("nodes")->text() == "4");
    // KAI's PriorityClasses, as the export names none.
    REQUIRE(spec.find("priorityClasses"));
    std::map<std::string, std::string> classes;
    for (const auto& pc : spec.find("priorityClasses")->items())
        classes[pc.find("name")->text()] = pc.find("value")->text();
    CHECK(classes == std::map<std::string, std::string>{
                         {"inference", "125"}, {"build", "100"}, {"build-preemptible", "75"}, {"train", "50"}});
    // The export's own classes replace them.
    auto own = read_organization_text("export.yaml",
                                      std::string(kPools) + "priorityClasses:\n  - {name: urgent, value: 1000}\n", d);
    REQUIRE(own);
    auto m2 = migrate(*own, {}, d);
    REQUIRE(m2);
    const Node* pcs = m2->site.find("spec")->find("priorityClasses");
    REQUIRE(pcs);
    REQUIRE(pcs->items().size() == 1);
    CHECK(pcs->items()[0].find("name")->text() == "urgent");
    CHECK(pcs->items()[0].find("value")->text() == "1000");
}
