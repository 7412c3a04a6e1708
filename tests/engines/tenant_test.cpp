// queues --namespace: the tenant view of sites and hand-written clusters
// (LocalQueues, Queue HardwareProfiles, quota figures, the largest pod).
#include "test_util.hpp"

#include <queueforge/engines/capacity.hpp>
#include <queueforge/engines/tenant.hpp>

#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

using namespace queueforge;
using qf_test::source_dir;

namespace {

tenant::Report view_of(const std::string& path, const std::string& ns, const std::string& target = {}) {
    Diagnostics diags;
    auto in = tenant::load({(source_dir() / path).string()}, target, diags);
    INFO(qf_test::messages(diags));
    REQUIRE(in);
    return tenant::view(*in, ns);
}

const tenant::Queue& queue(const tenant::Report& r, const std::string& kind, const std::string& name) {
    for (const auto& q : r.queues)
        if (q.kind == kind && q.name == name) return q;
    FAIL("no " << kind << " " << name);
    throw 0;
}

const tenant::ResourceFit& fit(const tenant::Queue& q, const std::string& flavor, const std::string& res) {
    for (const auto& f : q.flavors)
        if (f.flavor == flavor)
            for (const auto& r : f.resources)
                if (r.resource == res) return r;
    FAIL("no " << flavor << "/" << res);
    throw 0;
}

const tenant::FlavorFit& flavor(const tenant::Queue& q, const std::string& name) {
    for (const auto& f : q.flavors)
        if (f.flavor == name) return f;
    FAIL("no flavor " << name);
    throw 0;
}

constexpr const char* kCluster = "tests/fixtures/tenant/cluster.yaml";

}  // namespace

TEST_CASE("queues: a site's LocalQueue with the capacity engine's figures", "[tenant]") {
    auto r = view_of("examples/rhoai-3", "llm-train");
    CHECK(r.target == "rhoai-3.5");
    // The LocalQueue, then llm's 4 HardwareProfiles: each team names its own
    // LocalQueue, so the other teams' profiles are not offered here.
    REQUIRE(r.queues.size() == 5);
    for (const auto& p : r.queues) CHECK(p.cluster_queue == "llm");
    const auto& q = r.queues[0];
    CHECK(q.kind == "LocalQueue");
    CHECK(q.name == "llm-queue");
    CHECK(q.cluster_queue == "llm");
    CHECK(q.cohort == "research");
    CHECK(q.usable);
    // The same figures as `capacity` for team llm.
    Diagnostics diags;
    std::vector<SourceText> sources;
    auto cap = capacity::load((source_dir() / "examples/rhoai-3").string(), {}, diags, sources);
    REQUIRE(cap);
    for (const auto& t : cap->teams) {
        if (t.cluster_queue != "llm") continue;
        for (const auto& row : t.quota) {
            const auto& x = fit(q, row.pool, row.resource);
            CHECK(x.max_burst == row.max_burst.str());
            CHECK(x.guaranteed == row.guaranteed.str());
            CHECK(x.nominal == row.nominal.str());
            // capacity leaves the largest pod open where the pool has none
            // of the resource; the tenant view says 0 there.
            CHECK(x.largest_pod == (row.largest_pod ? row.largest_pod->str() : std::string("0")));
        }
    }
    CHECK(fit(q, "h100", "nvidia.com/gpu").largest_pod == "8");
    CHECK(fit(q, "h100", "nvidia.com/gpu").max_burst == "24");
    CHECK(fit(q, "h100", "nvidia.com/gpu").guaranteed == "8");
    CHECK(flavor(q, "h100").node == "pool h100");
    CHECK(flavor(q, "h100").nodes == 4);
    CHECK(flavor(q, "h100").taints == std::vector<std::string>{"nvidia.com/gpu=true:NoSchedule"});
    CHECK(flavor(q, "cpu").taints.empty());
}

TEST_CASE("queues: the site view matches its golden files", "[tenant]") {
    auto r = view_of("examples/rhoai-3", "llm-train");
    for (const auto& [file, text] : {std::pair{"rhoai-3.queues-llm-train.txt", tenant::render_text(r)},
                                     std::pair{"rhoai-3.queues-llm-train.json", tenant::render_json(r)}}) {
        auto golden = source_dir() / "tests/golden" / file;
        if (std::getenv("QF_UPDATE_GOLDEN")) qf_test::write_text(golden, text);
        INFO(file);
        CHECK(text == qf_test::read_text(golden));
    }
}

TEST_CASE("queues: why a LocalQueue cannot admit anything", "[tenant]") {
    auto r = view_of(kCluster, "team-a");
    CHECK(queue(r, "LocalQueue", "main").usable);
    const auto& borrowed = queue(r, "LocalQueue", "borrowed");
    CHECK_FALSE(borrowed.usable);
    CHECK(borrowed.problem.find("namespaceSelector of ClusterQueue team-b does not select namespace team-a") != std::string::npos);
    const auto& ghost = queue(r, "LocalQueue", "ghost");
    CHECK_FALSE(ghost.usable);
    CHECK(ghost.problem == "ClusterQueue nowhere does not exist");
    CHECK(ghost.flavors.empty());
    const auto& paused = queue(r, "LocalQueue", "paused");
    CHECK_FALSE(paused.usable);
    CHECK(paused.problem == "ClusterQueue held is stopped (stopPolicy Hold)");
    // LocalQueues by name, then profiles by namespace and name.
    std::vector<std::string> order;
    for (const auto& q : r.queues) order.push_back(q.kind.substr(0, 1) + ":" + q.namespace_ + "/" + q.name);
    CHECK(order == std::vector<std::string>{"L:team-a/borrowed", "L:team-a/ghost", "L:team-a/main", "L:team-a/paused",
                                            "H:redhat-ods-applications/gpu-large", "H:team-a/switched-off", "H:team-a/typo",
                                            "H:team-a/urgent"});
    CHECK(r.any_usable());
}

TEST_CASE("queues: the largest pod is measured on the largest matching node, within quota", "[tenant]") {
    auto r = view_of(kCluster, "team-a");
    const auto& main = queue(r, "LocalQueue", "main");
    CHECK(main.cohort == "shared");
    // gpu: nominal 4, lending 2 (guaranteed 2), borrowing 4: the cohort lends
    // team-b's 4 and team-a's lendable 2, capped at 4 + 4.
    const auto& gpu = fit(main, "gpu", "nvidia.com/gpu");
    CHECK(gpu.nominal == "4");
    CHECK(gpu.guaranteed == "2");
    CHECK(gpu.max_burst == "8");
    CHECK(gpu.node == "8");
    CHECK(gpu.largest_pod == "8");
    CHECK(flavor(main, "gpu").node == "gpu-big-1");
    CHECK(flavor(main, "gpu").nodes == 2);
    CHECK(fit(main, "gpu", "cpu").largest_pod == "64");
    CHECK(fit(main, "gpu", "memory").largest_pod == "512Gi");
    // cpu flavor: the node has 8 cpus, the quota allows 16; no GPU there.
    CHECK(fit(main, "cpu", "cpu").max_burst == "16");
    CHECK(fit(main, "cpu", "cpu").largest_pod == "8");
    CHECK(fit(main, "cpu", "memory").largest_pod == "32Gi");
    CHECK(fit(main, "cpu", "nvidia.com/gpu").largest_pod == "0");
    CHECK(flavor(main, "gpu").taints == std::vector<std::string>{"nvidia.com/gpu=true:NoSchedule"});
}

TEST_CASE("queues: a quota below the node caps the pod", "[tenant]") {
    // team-b holds 4 GPUs and borrows nothing (no borrowingLimit, but team-a
    // lends only 2): max burst 6, the big node has 8.
    auto r = view_of(kCluster, "team-b");
    const auto& main = queue(r, "LocalQueue", "main");
    CHECK(main.usable);
    CHECK(fit(main, "gpu", "nvidia.com/gpu").max_burst == "6");
    CHECK(fit(main, "gpu", "nvidia.com/gpu").largest_pod == "6");
}

TEST_CASE("queues: the HardwareProfiles the dashboard offers in a namespace", "[tenant]") {
    auto r = view_of(kCluster, "team-a");
    const auto& large = queue(r, "HardwareProfile", "gpu-large");
    CHECK(large.usable);
    CHECK(large.display_name == "Large GPU");
    CHECK(large.local_queue == "main");
    CHECK(large.cluster_queue == "team-a");
    CHECK(large.priority_class == "high");
    REQUIRE(large.identifiers.size() == 2);
    CHECK(large.identifiers[1].identifier == "nvidia.com/gpu");
    CHECK(large.identifiers[1].max == "8");
    CHECK(fit(large, "gpu", "nvidia.com/gpu").largest_pod == "8");
    CHECK(queue(r, "HardwareProfile", "typo").problem ==
          "LocalQueue mian does not exist in namespace team-a: the dashboard hides the profile");
    CHECK(queue(r, "HardwareProfile", "urgent").problem == "WorkloadPriorityClass urgent does not exist");
    CHECK(queue(r, "HardwareProfile", "switched-off").problem == "the profile is disabled (annotation opendatahub.io/disabled)");
    for (const auto& q : r.queues) {
        CHECK(q.name != "elsewhere");     // its LocalQueue exists in no namespace
        CHECK(q.name != "node-profile");  // not a Queue profile
    }
    // The same cluster-wide profile in team-b leads to team-b's queue.
    auto b = view_of(kCluster, "team-b");
    CHECK(queue(b, "HardwareProfile", "gpu-large").cluster_queue == "team-b");
    for (const auto& q : b.queues) CHECK(q.namespace_ != "team-a");
}

TEST_CASE("queues: a namespace without a usable queue", "[tenant]") {
    auto r = view_of(kCluster, "team-c");
    CHECK(r.queues.empty());
    CHECK_FALSE(r.any_usable());
    CHECK(tenant::render_text(r).find("no LocalQueue or Queue HardwareProfile in namespace team-c") != std::string::npos);
}

TEST_CASE("queues: the hand-written view matches its golden file", "[tenant]") {
    auto text = tenant::render_text(view_of(kCluster, "team-a"));
    auto golden = source_dir() / "tests/golden/tenant-team-a.queues.txt";
    if (std::getenv("QF_UPDATE_GOLDEN")) qf_test::write_text(golden, text);
    CHECK(text == qf_test::read_text(golden));
}

TEST_CASE("queues: JSON shape", "[tenant]") {
    auto j = nlohmann::json::parse(tenant::render_json(view_of(kCluster, "team-a")));
    CHECK(j["kind"] == "TenantQueues");
    CHECK(j["namespace"] == "team-a");
    CHECK(j["target"] == "");
    const auto& main = j["queues"][2];
    CHECK(main["name"] == "main");
    CHECK(main["usable"] == true);
    CHECK(main["flavors"][0]["flavor"] == "gpu");
    CHECK(main["flavors"][0]["node"] == "gpu-big-1");
    CHECK(main["flavors"][0]["resources"][2]["largestPod"] == "8");
    CHECK(j["queues"][1]["flavors"].empty());
    CHECK(j["queues"][4]["identifiers"][1]["max"] == "8");
}

TEST_CASE("queues: the CLI, exit codes and bad input", "[tenant][cli]") {
    auto ok = qf_test::run_cli("queues --namespace llm-train " + qf_test::shell_quote((source_dir() / "examples/rhoai-3").string()));
    INFO(ok.err);
    CHECK(ok.exit == 0);
    CHECK(ok.out == qf_test::read_text(source_dir() / "tests/golden/rhoai-3.queues-llm-train.txt"));
    auto none = qf_test::run_cli("queues -n nobody " + qf_test::shell_quote((source_dir() / kCluster).string()));
    CHECK(none.exit == 1);
    CHECK(none.err.find("no usable queue in namespace nobody") != std::string::npos);
    auto json = qf_test::run_cli("queues -n team-a -o json " + qf_test::shell_quote((source_dir() / kCluster).string()));
    CHECK(json.exit == 0);
    CHECK(nlohmann::json::parse(json.out)["kind"] == "TenantQueues");
    CHECK(qf_test::run_cli("queues " + qf_test::shell_quote((source_dir() / kCluster).string())).exit == 2);  // --namespace is required
    CHECK(qf_test::run_cli("queues -n a -o yaml " + qf_test::shell_quote((source_dir() / kCluster).string())).exit == 2);
    // From stdin, like a kubectl dump.
    auto piped = qf_test::run_cli("queues -n team-b -", qf_test::read_text(source_dir() / kCluster));
    CHECK(piped.exit == 0);
    // A broken manifest is a positioned error, not a crash.
    qf_test::TempDir tmp;
    qf_test::write_text(tmp.path / "bad.yaml", "apiVersion: v1\nkind: Namespace\nmetadata: [\n");
    auto bad = qf_test::run_cli("queues -n x " + qf_test::shell_quote((tmp.path / "bad.yaml").string()));
    CHECK(bad.exit == 1);
    CHECK(bad.err.find("bad.yaml:") != std::string::npos);
    // A site with an error: its positioned finding, exit 1, nothing on stdout.
    qf_test::write_text(tmp.path / "site" / "queueforge-site.yaml",
                        "apiVersion: queueforge.io/v1alpha1\nkind: Site\nmetadata: {name: broken}\nspec:\n"
                        "  target: kueue-0.20\n  pools: [{name: gpu}]\n  teams:\n    - name: a\n      namespaces: [a]\n"
                        "      quota: [{pool: nowhere, nominal: {cpu: 1}}]\n");
    auto site = qf_test::run_cli("queues -n a " + qf_test::shell_quote((tmp.path / "site").string()));
    CHECK(site.exit == 1);
    CHECK(site.out.empty());
    CHECK(site.err.find("queueforge-site.yaml:10:") != std::string::npos);
}

TEST_CASE("queues: a profile's largest pod is capped by its identifiers' maxCount", "[tenant]") {
    // llm-notebook allows at most 16 cpu and 64Gi memory; the cpu pool's node
    // and the team's quota would allow a larger pod through the LocalQueue.
    auto r = view_of("examples/rhoai-3", "llm-train");
    const auto& notebook = queue(r, "HardwareProfile", "llm-notebook");
    REQUIRE(notebook.usable);
    CHECK(fit(notebook, "cpu", "cpu").largest_pod == "16");
    CHECK(fit(notebook, "cpu", "memory").largest_pod == "64Gi");
    const auto& lq = queue(r, "LocalQueue", "llm-queue");
    CHECK(fit(lq, "cpu", "cpu").largest_pod == "64");  // the node, which the team's quota of 64 allows
}
