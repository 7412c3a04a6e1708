// capacity: Kueue's quota-tree figures (guaranteed, max burst, subtree
// quota) from compiled objects, pools against nominal quotas, the text and
// JSON renderings, and robustness against objects the compiler would never
// write (cycles, garbage, huge quantities).
#include "test_util.hpp"

#include <queueforge/engines/capacity.hpp>
#include <queueforge/frontend/manifests.hpp>
#include <queueforge/frontend/site_parse.hpp>

#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

using namespace queueforge;
using qf_test::source_dir;

namespace {

capacity::Report multi_team() {
    Diagnostics diags;
    std::vector<SourceText> sources;
    auto r = capacity::load((source_dir() / "examples/multi-team").string(), {}, diags, sources);
    INFO(qf_test::messages(diags));
    REQUIRE(r);
    return *r;
}

const capacity::PoolResource& pool_res(const capacity::Report& r, const std::string& pool, const std::string& res) {
    for (const auto& p : r.pools)
        if (p.name == pool)
            for (const auto& x : p.resources)
                if (x.resource == res) return x;
    FAIL("no " << pool << "/" << res);
    throw 0;
}

const capacity::QuotaRow& row(const capacity::Report& r, const std::string& team, const std::string& pool,
                              const std::string& res) {
    for (const auto& t : r.teams)
        if (t.name == team)
            for (const auto& q : t.quota)
                if (q.pool == pool && q.resource == res) return q;
    FAIL("no " << team << " " << pool << "/" << res);
    throw 0;
}

// The capacity of hand-written Kueue objects (no site): the quota tree only.
capacity::Report of_objects(const std::string& yaml) {
    Diagnostics diags;
    LoadedResources loaded;
    load_resources_from_text("objects.yaml", yaml, loaded, diags);
    Lowered lowered;
    lowered.target.name = "kubernetes";
    for (auto& res : loaded.resources)
        lowered.objects.push_back({res.ref.api_version, res.ref.kind, res.ref.name, res.ref.namespace_, res.doc});
    return capacity::compute(site::Site{}, lowered, model::build_cluster(lowered.objects));
}

}  // namespace

TEST_CASE("capacity: multi-team pools against their quotas", "[capacity]") {
    auto r = multi_team();
    REQUIRE(r.pools.size() == 4);
    CHECK(r.pools[0].name == "h100");
    CHECK(r.pools[3].name == "cpu");
    const auto& gpu = pool_res(r, "h100", "nvidia.com/gpu");
    CHECK(gpu.per_node->str() == "8");
    CHECK(gpu.capacity->str() == "32");
    CHECK(gpu.nominal.str() == "32");
    CHECK(gpu.commit == capacity::Commit::Full);
    REQUIRE(gpu.shares.size() == 3);
    CHECK(gpu.shares[0].owner == "llm");  // site order of the teams
    CHECK(gpu.shares[0].nominal.str() == "16");
    CHECK(pool_res(r, "h100", "memory").capacity->str() == "8000Gi");
    // Shares resolved by the compiler: 50% + 25% + 25% of 4 x 2000Gi.
    CHECK(pool_res(r, "h100", "memory").nominal.str() == "8000Gi");
    CHECK(pool_res(r, "l40s", "nvidia.com/gpu").nominal.str() == "20");
    CHECK(*pool_res(r, "l40s", "nvidia.com/gpu").commit_permille == 833);
    CHECK(pool_res(r, "l40s", "nvidia.com/gpu").commit == capacity::Commit::Under);
    // cpu pool: 64 + 32 + 192 + 25% of 640.
    CHECK(pool_res(r, "cpu", "cpu").nominal.str() == "448");
    CHECK(*pool_res(r, "cpu", "cpu").commit_permille == 700);
    // pods are allocatable but never quota'd here.
    CHECK(pool_res(r, "cpu", "pods").capacity->str() == "2500");
    CHECK(pool_res(r, "cpu", "pods").nominal.zero());
}

TEST_CASE("capacity: guaranteed and max burst follow Kueue's quota tree", "[capacity]") {
    auto r = multi_team();
    REQUIRE(r.teams.size() == 6);
    CHECK(r.teams[0].name == "llm");
    CHECK(r.teams[0].cohort == "research");
    CHECK(r.teams[0].reclaim_within_cohort == "Any");
    // research on h100 GPUs: llm 16 (lends at most 8), vision 8 (lends all), speech 8 (lends at most 4):
    // the cohort shares 8 + 8 + 4 = 20.
    const auto& llm = row(r, "llm", "h100", "nvidia.com/gpu");
    CHECK(llm.guaranteed.str() == "8");
    CHECK(llm.lendable.str() == "8");
    CHECK(llm.max_burst.str() == "24");  // 8 own + 20 shared, capped at 16 + borrowingLimit 8
    CHECK(llm.largest_pod->str() == "8");  // an h100 node holds 8 GPUs
    const auto& vision = row(r, "vision", "h100", "nvidia.com/gpu");
    CHECK(vision.guaranteed.str() == "0");
    CHECK(vision.max_burst.str() == "16");  // 20 shared, capped at 8 + 8
    const auto& speech = row(r, "speech", "h100", "nvidia.com/gpu");
    CHECK(speech.guaranteed.str() == "4");
    CHECK(speech.max_burst.str() == "24");  // 4 own + 20 shared, no borrowing limit
    // product on the cpu pool: recsys 192 + analytics 160 (search has none there).
    CHECK(row(r, "analytics", "cpu", "cpu").max_burst.str() == "224");  // capped at 160 + 64
    CHECK(row(r, "recsys", "cpu", "cpu").max_burst.str() == "352");
    CHECK(row(r, "search", "a100", "nvidia.com/gpu").guaranteed.str() == "8");
    REQUIRE(r.cohorts.size() == 2);
    CHECK(r.cohorts[0].name == "product");
    CHECK(r.cohorts[1].cluster_queues == std::vector<std::string>{"llm", "speech", "vision"});
    for (const auto& t : r.cohorts[1].totals)
        if (t.pool == "h100" && t.resource == "nvidia.com/gpu") {
            CHECK(t.subtree_nominal.str() == "32");
            CHECK(t.shared.str() == "20");
        }
}

TEST_CASE("capacity: kueue-semantics example 9, hierarchical cohorts with a lending limit", "[capacity]") {
    auto r = of_objects(R"(
apiVersion: kueue.x-k8s.io/v1beta2
kind: Cohort
metadata: {name: root}
spec: {}
---
apiVersion: kueue.x-k8s.io/v1beta2
kind: Cohort
metadata: {name: child}
spec: {parentName: root}
---
apiVersion: kueue.x-k8s.io/v1beta2
kind: ClusterQueue
metadata: {name: cq-lender}
spec: {cohortName: child, resourceGroups: [{coveredResources: [cpu], flavors: [{name: on-demand, resources: [{name: cpu, nominalQuota: "10", lendingLimit: "3"}]}]}]}
---
apiVersion: kueue.x-k8s.io/v1beta2
kind: ClusterQueue
metadata: {name: cq-borrower}
spec: {cohortName: child, resourceGroups: [{coveredResources: [cpu], flavors: [{name: on-demand, resources: [{name: cpu, nominalQuota: "5", borrowingLimit: "10"}]}]}]}
)");
    REQUIRE(r.teams.size() == 2);
    CHECK(r.teams[0].name == "cq-borrower");
    CHECK(r.teams[0].quota[0].max_burst.str() == "8");  // the child subtree shares 3 + 5
    CHECK(r.teams[1].quota[0].guaranteed.str() == "7");
    CHECK(r.teams[1].quota[0].max_burst.str() == "15");
    REQUIRE(r.cohorts.size() == 2);
    CHECK(r.cohorts[0].name == "root");
    CHECK(r.cohorts[1].name == "child");
    CHECK(r.cohorts[1].depth == 1);
    CHECK(r.cohorts[0].cohorts == std::vector<std::string>{"child"});
    CHECK(r.cohorts[1].totals.at(0).shared.str() == "8");
    CHECK(r.cohorts[1].totals.at(0).subtree_nominal.str() == "15");
    // A flavor no site pool describes is still listed, capacity unknown.
    REQUIRE(r.pools.size() == 1);
    CHECK_FALSE(r.pools[0].in_site);
    CHECK(r.pools[0].resources.at(0).nominal.str() == "15");
    CHECK(r.pools[0].resources.at(0).commit == capacity::Commit::Unknown);
}

TEST_CASE("capacity: cohort borrowing and lending limits cap the subtree", "[capacity]") {
    auto r = of_objects(R"(
apiVersion: kueue.x-k8s.io/v1beta1
kind: Cohort
metadata: {name: org}
spec: {resourceGroups: [{coveredResources: [cpu], flavors: [{name: f, resources: [{name: cpu, nominalQuota: "4"}]}]}]}
---
apiVersion: kueue.x-k8s.io/v1beta1
kind: Cohort
metadata: {name: a}
spec: {parent: org, resourceGroups: [{coveredResources: [cpu], flavors: [{name: f, resources: [{name: cpu, nominalQuota: "0", lendingLimit: "2", borrowingLimit: "1"}]}]}]}
---
apiVersion: kueue.x-k8s.io/v1beta1
kind: ClusterQueue
metadata: {name: qa}
spec: {cohort: a, resourceGroups: [{coveredResources: [cpu], flavors: [{name: f, resources: [{name: cpu, nominalQuota: "10"}]}]}]}
---
apiVersion: kueue.x-k8s.io/v1beta1
kind: ClusterQueue
metadata: {name: qb}
spec: {cohort: org, resourceGroups: [{coveredResources: [cpu], flavors: [{name: f, resources: [{name: cpu, nominalQuota: "6"}]}]}]}
)");
    // a: subtree 10, lends at most 2 (keeps 8), borrows at most 1.
    // org: 4 own + 2 from a + 6 from qb = 12.
    // qa: 0 own + potential(a) = min(8 + 12, 10 + 1) = 11.
    // qb: 0 + 12.
    REQUIRE(r.teams.size() == 2);
    CHECK(r.teams[0].quota[0].max_burst.str() == "11");
    CHECK(r.teams[1].quota[0].max_burst.str() == "12");
    REQUIRE(r.cohorts.size() == 2);
    CHECK(r.cohorts[0].totals[0].shared.str() == "12");
    CHECK(r.cohorts[0].totals[0].subtree_nominal.str() == "20");
    CHECK(r.cohorts[1].totals[0].guaranteed.str() == "8");
    CHECK(r.cohorts[1].totals[0].max_burst.str() == "11");
    CHECK(r.pools[0].resources[0].nominal.str() == "20");
}

TEST_CASE("capacity: implicit cohorts, queues without a cohort, cycles and garbage never crash", "[capacity]") {
    auto r = of_objects(R"(
apiVersion: kueue.x-k8s.io/v1beta2
kind: Cohort
metadata: {name: x}
spec: {parentName: y}
---
apiVersion: kueue.x-k8s.io/v1beta2
kind: Cohort
metadata: {name: y}
spec: {parentName: x}
---
apiVersion: kueue.x-k8s.io/v1beta2
kind: Cohort
metadata: {name: self}
spec: {parentName: self}
---
apiVersion: kueue.x-k8s.io/v1beta2
kind: ClusterQueue
metadata: {name: in-cycle}
spec: {cohortName: x, resourceGroups: [{flavors: [{name: f, resources: [{name: cpu, nominalQuota: "2"}]}]}]}
---
apiVersion: kueue.x-k8s.io/v1beta2
kind: ClusterQueue
metadata: {name: alone}
spec: {resourceGroups: [{flavors: [{name: f, resources: [{name: cpu, nominalQuota: "3", lendingLimit: "1"}]}]}]}
---
apiVersion: kueue.x-k8s.io/v1beta2
kind: ClusterQueue
metadata: {name: implicit-member}
spec: {cohortName: nowhere, resourceGroups: [{flavors: [{name: f, resources: [{name: cpu, nominalQuota: "1"}]}]}]}
---
apiVersion: kueue.x-k8s.io/v1beta2
kind: ClusterQueue
metadata: {name: garbage}
spec: {resourceGroups: [7, {flavors: "no"}, {flavors: [{name: f, resources: [{name: cpu, nominalQuota: "not-a-quantity"}, {nominalQuota: "1"}, 3]}]}]}
---
apiVersion: kueue.x-k8s.io/v1beta2
kind: ClusterQueue
metadata: {name: huge}
spec: {resourceGroups: [{flavors: [{name: f, resources: [{name: cpu, nominalQuota: "9e28"}]}]}, {flavors: [{name: g, resources: [{name: cpu, nominalQuota: "9e28"}]}]}]}
---
apiVersion: kueue.x-k8s.io/v1beta2
kind: ClusterQueue
metadata: {name: huge2}
spec: {resourceGroups: [{flavors: [{name: f, resources: [{name: cpu, nominalQuota: "9e28"}]}]}]}
---
apiVersion: kueue.x-k8s.io/v1beta2
kind: ClusterQueue
metadata: {name: no-spec}
)");
    CHECK(r.teams.size() == 7);
    bool cycle_seen = false;
    for (const auto& c : r.cohorts) cycle_seen = cycle_seen || c.in_cycle;
    CHECK(cycle_seen);
    for (const auto& t : r.teams)
        if (t.cluster_queue == "alone") {
            CHECK(t.cohort.empty());
            CHECK(t.quota.at(0).guaranteed.str() == "3");  // nothing is lent without a cohort
            CHECK(t.quota.at(0).max_burst.str() == "3");
        } else if (t.cluster_queue == "implicit-member") {
            CHECK(t.cohort == "nowhere");
        } else if (t.cluster_queue == "garbage") {
            REQUIRE(t.quota.size() == 1);
            CHECK(t.quota[0].nominal.zero());
        }
    for (const auto& c : r.cohorts)
        if (c.name == "nowhere") CHECK_FALSE(c.has_object);
    // Sums beyond Quantity's range stop at its edge instead of wrapping.
    for (const auto& p : r.pools)
        if (p.name == "f") CHECK(p.resources.at(0).nominal.nanos > 0);
    CHECK_FALSE(capacity::render_text(r).empty());
    CHECK_NOTHROW(nlohmann::json::parse(capacity::render_json(r)));
}

TEST_CASE("capacity: a pool without a node count has no capacity, shares in site order", "[capacity]") {
    Diagnostics diags;
    auto s = parse_site_text("site.yaml", R"(apiVersion: queueforge.io/v1alpha1
kind: Site
metadata: {name: s}
spec:
  target: kueue-0.13
  pools:
    - name: gpu
      allocatable: {cpu: 8, nvidia.com/gpu: 2}
    - name: big
      nodes: 2
      allocatable: {cpu: 10}
  teams:
    - name: zeta
      namespaces: [z]
      quota:
        - pool: big
          nominal: {cpu: 30}
    - name: alpha
      namespaces: [a]
      quota:
        - pool: big
          nominal: {cpu: 5}
        - pool: gpu
          nominal: {cpu: 4, nvidia.com/gpu: 1}
)", diags);
    REQUIRE(s);
    auto lowered = lower_site(*s, diags);
    INFO(qf_test::messages(diags));
    REQUIRE(lowered);
    auto r = capacity::compute(*s, *lowered, model::build_cluster(lowered->objects));
    REQUIRE(r.pools.size() == 2);
    CHECK(r.pools[0].name == "gpu");
    CHECK_FALSE(r.pools[0].nodes);
    CHECK(r.pools[0].resources[0].per_node->str() == "8");
    CHECK_FALSE(r.pools[0].resources[0].capacity);
    CHECK(r.pools[0].resources[0].commit == capacity::Commit::Unknown);
    const auto& big = r.pools[1].resources.at(0);
    CHECK(big.capacity->str() == "20");
    CHECK(big.nominal.str() == "35");
    CHECK(*big.commit_permille == 1750);
    CHECK(big.commit == capacity::Commit::Over);
    REQUIRE(big.shares.size() == 2);
    CHECK(big.shares[0].team == "zeta");
    CHECK(r.teams[0].name == "zeta");
    CHECK(r.teams[0].cohort.empty());
    CHECK(r.teams[0].quota[0].guaranteed.str() == "30");
    CHECK(capacity::render_text(r).find("175.0%  over") != std::string::npos);
    // The largest pod: the queue's max burst when a node holds more, the node otherwise.
    CHECK(row(r, "alpha", "gpu", "nvidia.com/gpu").largest_pod->str() == "1");  // burst 1, node 2
    CHECK(row(r, "alpha", "gpu", "cpu").largest_pod->str() == "4");             // burst 4, node 8
    CHECK(row(r, "zeta", "big", "cpu").largest_pod->str() == "10");             // burst 30, node 10
    CHECK(row(r, "alpha", "big", "cpu").largest_pod->str() == "5");
}

TEST_CASE("capacity: invalid sites are refused with their errors", "[capacity]") {
    qf_test::TempDir tmp;
    qf_test::write_text(tmp.path / "queueforge-site.yaml", "apiVersion: queueforge.io/v1alpha1\nkind: Site\nspec: {pools: 3}\n");
    Diagnostics diags;
    std::vector<SourceText> sources;
    CHECK_FALSE(capacity::load(tmp.path.string(), {}, diags, sources));
    CHECK(diags.has_errors());
    Diagnostics missing;
    CHECK_FALSE(capacity::load((tmp.path / "nope.yaml").string(), {}, missing, sources));
    CHECK(missing.has_errors());
}

TEST_CASE("capacity: multi-team text matches its golden file", "[capacity]") {
    auto text = capacity::render_text(multi_team());
    auto golden = source_dir() / "tests/golden/multi-team.capacity.txt";
    if (std::getenv("QF_UPDATE_GOLDEN")) qf_test::write_text(golden, text);
    CHECK(text == qf_test::read_text(golden));
}

TEST_CASE("capacity: JSON shape", "[capacity]") {
    auto j = nlohmann::json::parse(capacity::render_json(multi_team()));
    CHECK(j["kind"] == "CapacityReport");
    CHECK(j["site"] == "multi-team");
    CHECK(j["target"] == "rhoai-2.25");
    const auto& h100 = j["pools"].at(0);
    CHECK(h100["name"] == "h100");
    CHECK(h100["nodes"] == 4);
    REQUIRE(h100["resources"].size() == 4);
    CHECK(h100["resources"][2]["resource"] == "pods");  // Kueue's order: cpu, memory, ephemeral-storage, pods, then by name
    const auto& gpu = h100["resources"][3];
    CHECK(gpu["resource"] == "nvidia.com/gpu");
    CHECK(gpu["perNode"] == "8");
    CHECK(gpu["capacity"] == "32");
    CHECK(gpu["commitPercent"] == 100.0);
    CHECK(gpu["commit"] == "full");
    CHECK(gpu["shares"].at(0) == nlohmann::json{{"kind", "ClusterQueue"}, {"name", "llm"}, {"team", "llm"}, {"nominal", "16"}});
    const auto& llm = j["teams"].at(0);
    CHECK(llm["clusterQueue"] == "llm");
    CHECK(llm["cohort"] == "research");
    const auto& q = llm["quota"].at(2);
    CHECK(q == nlohmann::json{{"pool", "h100"}, {"resource", "nvidia.com/gpu"}, {"nominal", "16"}, {"borrowingLimit", "8"},
                              {"lendingLimit", "8"}, {"guaranteed", "8"}, {"lendable", "8"}, {"maxBurst", "24"}, {"largestPod", "8"}});
    CHECK(llm["quota"][0]["borrowingLimit"].is_null());
    const auto& research = j["cohorts"].at(1);
    CHECK(research["name"] == "research");
    CHECK(research["parent"].is_null());
    CHECK(research["clusterQueues"].size() == 3);
    CHECK(research["totals"].at(0).contains("shared"));
    // Byte-stable.
    CHECK(capacity::render_json(multi_team()) == capacity::render_json(multi_team()));
}

TEST_CASE("capacity: amounts are Kueue's, rounded as Kueue rounds them", "[capacity]") {
    // Kueue compares quotas as int64 (pkg/resources): milli-units for cpu,
    // units rounded up for everything else. A memory quota of 1.5 bytes is 2
    // for Kueue, and 0.0005 cpu is 1m; capacity says what Kueue will enforce.
    auto r = of_objects(R"(
apiVersion: kueue.x-k8s.io/v1beta2
kind: ClusterQueue
metadata: {name: a}
spec: {cohortName: c, resourceGroups: [{coveredResources: [cpu, memory], flavors: [{name: f, resources: [{name: cpu, nominalQuota: "0.0005", borrowingLimit: "0.0015"}, {name: memory, nominalQuota: "1.5", lendingLimit: "0.5"}]}]}]}
---
apiVersion: kueue.x-k8s.io/v1beta2
kind: ClusterQueue
metadata: {name: b}
spec: {cohortName: c, resourceGroups: [{coveredResources: [cpu, memory], flavors: [{name: f, resources: [{name: cpu, nominalQuota: "0.0005"}, {name: memory, nominalQuota: "1.5"}]}]}]}
)");
    REQUIRE(r.teams.size() == 2);
    const auto& cpu = row(r, "a", "f", "cpu");
    CHECK(cpu.nominal.str() == "1m");
    CHECK(cpu.borrowing_limit->str() == "2m");
    CHECK(cpu.max_burst.str() == "2m");  // the cohort holds 1m + 1m
    const auto& mem = row(r, "a", "f", "memory");
    CHECK(mem.nominal.str() == "2");
    CHECK(mem.lending_limit->str() == "1");
    CHECK(mem.guaranteed.str() == "1");  // 2 - 1
    CHECK(mem.max_burst.str() == "4");   // 1 kept + the cohort's 1 + 2
    CHECK(pool_res(r, "f", "memory").nominal.str() == "4");
}

TEST_CASE("capacity: queues under a cohort cycle are detached, as Kueue's snapshot leaves them", "[capacity]") {
    // hierarchy.HasCycle: the cohorts of a cycle and everything below them are
    // left out of the tree; their ClusterQueues admit nothing and lend nothing.
    auto r = of_objects(R"(
apiVersion: kueue.x-k8s.io/v1beta2
kind: Cohort
metadata: {name: x}
spec: {parentName: y, resourceGroups: [{coveredResources: [cpu], flavors: [{name: f, resources: [{name: cpu, nominalQuota: "10"}]}]}]}
---
apiVersion: kueue.x-k8s.io/v1beta2
kind: Cohort
metadata: {name: y}
spec: {parentName: x}
---
apiVersion: kueue.x-k8s.io/v1beta2
kind: Cohort
metadata: {name: below}
spec: {parentName: x}
---
apiVersion: kueue.x-k8s.io/v1beta2
kind: ClusterQueue
metadata: {name: in-cycle}
spec: {cohortName: below, resourceGroups: [{coveredResources: [cpu], flavors: [{name: f, resources: [{name: cpu, nominalQuota: "2", lendingLimit: "1"}]}]}]}
)");
    REQUIRE(r.teams.size() == 1);
    CHECK(r.teams[0].cohort == "below");
    CHECK(r.teams[0].quota.at(0).max_burst.str() == "2");  // its own quota, nothing borrowed
    CHECK(r.teams[0].quota.at(0).guaranteed.str() == "2");
    REQUIRE(r.cohorts.size() == 3);
    for (const auto& c : r.cohorts) {
        INFO(c.name);
        CHECK(c.in_cycle);
        CHECK(c.parent.empty());
        CHECK(c.depth == 0);
        CHECK(c.cluster_queues.empty());
    }
}
