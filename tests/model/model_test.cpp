// The typed cluster model (compiler/model): cohort cycles found once and
// linearly, the API-version spellings read at the edge (v1beta1 and v1beta2
// manifests give one model; a site's lowering and its emitted YAML give one
// model), and capacity and the simulator agreeing on what a queue may borrow.
#include "test_util.hpp"

#include "engines/scheduler/cluster_state.hpp"
#include "engines/scheduler/quota.hpp"

#include <queueforge/engines/capacity.hpp>
#include <queueforge/lower.hpp>
#include <queueforge/model/cluster.hpp>
#include <queueforge/frontend/manifests.hpp>
#include <queueforge/frontend/site_parse.hpp>
#include <queueforge/base/yaml_emit.hpp>

#include <catch2/catch.hpp>

#include <chrono>

using namespace queueforge;
using qf_test::source_dir;

namespace {

std::vector<Resource> parse(const std::string& yaml) {
    Diagnostics diags;
    LoadedResources loaded;
    load_resources_from_text("objects.yaml", yaml, loaded, diags);
    INFO(qf_test::messages(diags));
    REQUIRE_FALSE(diags.has_errors());
    return std::move(loaded.resources);
}

std::string cq(const std::string& api, const std::string& name, const std::string& cohort_field,
               const std::string& cohort, const std::string& groups = "") {
    return "apiVersion: kueue.x-k8s.io/" + api + "\nkind: ClusterQueue\nmetadata:\n  name: " + name +
           "\nspec:\n  " + cohort_field + ": " + cohort + "\n  namespaceSelector: {}\n" + groups;
}

std::string cohort(const std::string& api, const std::string& name, const std::string& parent_field,
                   const std::string& parent, const std::string& groups = "") {
    std::string s = "apiVersion: kueue.x-k8s.io/" + api + "\nkind: Cohort\nmetadata:\n  name: " + name + "\nspec:";
    if (parent.empty() && groups.empty()) return s + " {}\n";
    s += "\n";
    if (!parent.empty()) s += "  " + parent_field + ": " + parent + "\n";
    return s + groups;
}

const std::string kGroups =
    "  resourceGroups:\n  - coveredResources: [cpu, memory]\n    flavors:\n    - name: default\n      resources:\n"
    "      - {name: cpu, nominalQuota: \"4\", borrowingLimit: \"2\", lendingLimit: 500m}\n"
    "      - {name: memory, nominalQuota: 8Gi}\n";

// Everything a consumer reads of the cohort tree and the queues' quotas.
void require_same(const model::Cluster& a, const model::Cluster& b) {
    REQUIRE(a.cluster_queues.size() == b.cluster_queues.size());
    for (std::size_t i = 0; i < a.cluster_queues.size(); ++i) {
        const auto& x = a.cluster_queues[i];
        const auto& y = b.cluster_queues[i];
        INFO("ClusterQueue " << x.name);
        CHECK(x.name == y.name);
        CHECK(x.cohort == y.cohort);
        CHECK(x.resource_groups == y.resource_groups);
        CHECK(x.preemption == y.preemption);
        CHECK(x.namespace_selector == y.namespace_selector);
        CHECK(x.labels == y.labels);
        CHECK(x.queueing_strategy == y.queueing_strategy);
        CHECK(x.stop_policy == y.stop_policy);
    }
    REQUIRE(a.cohorts.size() == b.cohorts.size());
    for (std::size_t i = 0; i < a.cohorts.size(); ++i) {
        INFO("Cohort " << a.cohorts[i].name);
        CHECK(a.cohorts[i].name == b.cohorts[i].name);
        CHECK(a.cohorts[i].parent == b.cohorts[i].parent);
        CHECK(a.cohorts[i].has_object == b.cohorts[i].has_object);
        CHECK(a.cohorts[i].resource_groups == b.cohorts[i].resource_groups);
    }
    CHECK(a.cohort_parent == b.cohort_parent);
    CHECK(a.cycles.cycles == b.cycles.cycles);
    CHECK(a.cycles.reaches == b.cycles.reaches);
    REQUIRE(a.flavors.size() == b.flavors.size());
    for (std::size_t i = 0; i < a.flavors.size(); ++i) {
        CHECK(a.flavors[i].name == b.flavors[i].name);
        CHECK(a.flavors[i].node_labels == b.flavors[i].node_labels);
        CHECK(a.flavors[i].node_taints == b.flavors[i].node_taints);
        CHECK(a.flavors[i].tolerations == b.flavors[i].tolerations);
    }
    REQUIRE(a.local_queues.size() == b.local_queues.size());
    for (std::size_t i = 0; i < a.local_queues.size(); ++i) {
        CHECK(a.local_queues[i].namespace_ == b.local_queues[i].namespace_);
        CHECK(a.local_queues[i].name == b.local_queues[i].name);
        CHECK(a.local_queues[i].cluster_queue == b.local_queues[i].cluster_queue);
    }
    CHECK(a.namespaces.size() == b.namespaces.size());
    CHECK(a.priority_classes.size() == b.priority_classes.size());
}

}  // namespace

TEST_CASE("model: cohort cycles are found once per cycle, with what lies below them", "[model]") {
    SECTION("a self-parent is a cycle of one") {
        auto c = model::find_cohort_cycles({0, 0});
        REQUIRE(c.cycles.size() == 1);
        CHECK(c.cycles[0] == std::vector<int>{0});
        CHECK(c.on_cycle == std::vector<int>{0, -1});
        CHECK(c.reaches == std::vector<int>{0, 0});  // 1 hangs below the cycle
    }
    SECTION("a two-cycle starts at its smallest member, whichever node the walk began at") {
        // 2 -> 1 -> 2, 0 below it, 3 a root.
        auto c = model::find_cohort_cycles({2, 2, 1, -1});
        REQUIRE(c.cycles.size() == 1);
        CHECK(c.cycles[0] == std::vector<int>{1, 2});
        CHECK(c.members_from(0, 2) == std::vector<int>{2, 1});
        CHECK(c.on_cycle == std::vector<int>{-1, 0, 0, -1});
        CHECK(c.reaches == std::vector<int>{0, 0, 0, -1});
        CHECK_FALSE(c.has_cycle(3));
    }
    SECTION("two separate cycles and a tree") {
        auto c = model::find_cohort_cycles({1, 0, 3, 2, -1, 4});
        REQUIRE(c.cycles.size() == 2);
        CHECK(c.cycles[0] == std::vector<int>{0, 1});
        CHECK(c.cycles[1] == std::vector<int>{2, 3});
        CHECK(c.reaches == std::vector<int>{0, 0, 1, 1, -1, -1});
    }
}

TEST_CASE("model: a 10,000-deep cohort chain is walked in linear time", "[model]") {
    constexpr int kDepth = 10000;
    for (bool closed : {false, true}) {
        // Node i's parent is i + 1; the top closes the loop back to 0 or is a root.
        std::vector<int> parent(kDepth);
        for (int i = 0; i < kDepth; ++i) parent[i] = i + 1 < kDepth ? i + 1 : (closed ? 0 : -1);
        auto start = std::chrono::steady_clock::now();
        auto c = model::find_cohort_cycles(parent);
        double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        CHECK(s < 0.5);
        CHECK(c.cycles.size() == (closed ? 1u : 0u));
        if (closed) CHECK(c.cycles[0].size() == static_cast<std::size_t>(kDepth));
        CHECK(c.has_cycle(kDepth / 2) == closed);
    }
    // The same chain through the model builder, as Cohort objects.
    std::string yaml;
    for (int i = 0; i < kDepth; ++i)
        yaml += cohort("v1beta2", "c" + std::to_string(i), "parentName", i + 1 < kDepth ? "c" + std::to_string(i + 1) : "") +
                "---\n";
    auto objects = parse(yaml);
    auto start = std::chrono::steady_clock::now();
    auto cluster = model::build_cluster(objects);
    double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    CHECK(s < 0.5);
    CHECK(cluster.cohorts.size() == static_cast<std::size_t>(kDepth));
    CHECK(cluster.cycles.cycles.empty());
}

TEST_CASE("model: v1beta1 and v1beta2 manifests give the same model", "[model]") {
    // v1beta1 spells the ClusterQueue's cohort `cohort`, v1beta2 `cohortName`;
    // Cohort parents are `parent` in v1alpha1 and `parentName` after.
    const std::string beta1 = cq("v1beta1", "team-a", "cohort", "org", kGroups) + "---\n" +
                              cq("v1beta1", "team-b", "cohort", "loop-a") + "---\n" +
                              cohort("v1alpha1", "org", "parent", "root", kGroups) + "---\n" +
                              cohort("v1alpha1", "loop-a", "parent", "loop-b") + "---\n" +
                              cohort("v1alpha1", "loop-b", "parent", "loop-a");
    const std::string beta2 = cq("v1beta2", "team-a", "cohortName", "org", kGroups) + "---\n" +
                              cq("v1beta2", "team-b", "cohortName", "loop-a") + "---\n" +
                              cohort("v1beta2", "org", "parentName", "root", kGroups) + "---\n" +
                              cohort("v1beta2", "loop-a", "parentName", "loop-b") + "---\n" +
                              cohort("v1beta2", "loop-b", "parentName", "loop-a");
    auto a = model::build_cluster(parse(beta1));
    auto b = model::build_cluster(parse(beta2));
    require_same(a, b);
    // And the model says what both mean.
    REQUIRE(a.cluster_queues.size() == 2);
    CHECK(a.cluster_queues[0].cohort == "org");
    REQUIRE(a.cohorts.size() == 4);  // org, loop-a, loop-b, then the implicit root
    CHECK(a.cohorts[3].name == "root");
    CHECK_FALSE(a.cohorts[3].has_object);
    CHECK(a.cohort_parent[a.find_cohort("org")] == a.find_cohort("root"));
    CHECK_FALSE(a.cluster_queue_in_cycle(0));
    CHECK(a.cluster_queue_in_cycle(1));
    const auto& cpu = a.cluster_queues[0].resource_groups.at(0).flavors.at(0).resources.at(0);
    REQUIRE(cpu.lending_limit);
    CHECK(model::kueue_amount("cpu", *cpu.lending_limit) == 500);
    CHECK(model::kueue_amount("cpu", *cpu.nominal) == 4000);
}

TEST_CASE("model: a site's lowering and its emitted manifests give the same model", "[model]") {
    for (const char* target : {"kueue-0.13", "kueue-0.20"}) {
        INFO("target " << target);
        Diagnostics diags;
        auto site = load_site_file((source_dir() / "examples/multi-team/queueforge-site.yaml").string(), diags);
        REQUIRE(site);
        auto lowered = lower_site(*site, diags, {.target_override = target});
        INFO(qf_test::messages(diags));
        REQUIRE(lowered);
        std::vector<Node> docs;
        for (const auto& o : lowered->objects) docs.push_back(o.doc);
        auto from_objects = model::build_cluster(lowered->objects);
        auto from_yaml = model::build_cluster(parse(emit_yaml_stream(docs)));
        require_same(from_objects, from_yaml);
        CHECK_FALSE(from_objects.cluster_queues.empty());
        CHECK_FALSE(from_objects.flavors.empty());
        CHECK_FALSE(from_objects.local_queues.empty());
    }
}

TEST_CASE("model: capacity and the simulator agree on what each queue may borrow", "[model]") {
    // A two-level tree with lending and borrowing limits on both levels:
    // capacity's max burst and the simulator's potentialAvailable are the same
    // figure of Kueue's (resource_node.go), read from one quota tree.
    const std::string flavor = "apiVersion: kueue.x-k8s.io/v1beta1\nkind: ResourceFlavor\nmetadata:\n  name: default\n";
    auto groups = [](const std::string& nominal, const std::string& extra) {
        return "  resourceGroups:\n  - coveredResources: [cpu, memory]\n    flavors:\n    - name: default\n      resources:\n"
               "      - {name: cpu, nominalQuota: \"" + nominal + "\"" + extra + "}\n"
               "      - {name: memory, nominalQuota: " + nominal + "Gi" + extra + "}\n";
    };
    const std::string yaml = flavor + "---\n" +
        cq("v1beta1", "a", "cohort", "left", groups("10", ", lendingLimit: \"4\"")) + "---\n" +
        cq("v1beta1", "b", "cohort", "left", groups("6", ", borrowingLimit: \"3\"")) + "---\n" +
        cq("v1beta1", "c", "cohort", "right", groups("8", ", lendingLimit: \"1\", borrowingLimit: \"20\"")) + "---\n" +
        cq("v1beta1", "d", "cohort", "root", groups("2", "")) + "---\n" +
        cohort("v1beta1", "left", "parentName", "root", groups("3", ", lendingLimit: \"2\"")) + "---\n" +
        cohort("v1beta1", "right", "parentName", "root", groups("0", ", borrowingLimit: \"5\"")) + "---\n" +
        cohort("v1beta1", "root", "parentName", "");
    auto objects = parse(yaml);

    Lowered lowered;
    lowered.target.name = "kubernetes";
    for (auto& r : objects) lowered.objects.push_back({r.ref.api_version, r.ref.kind, r.ref.name, r.ref.namespace_, r.doc});
    capacity::Report report = capacity::compute(site::Site{}, lowered, model::build_cluster(lowered.objects));

    Diagnostics diags;
    scheduler::detail::Model m = scheduler::detail::build_model(objects, diags);
    scheduler::detail::QuotaState state;
    scheduler::detail::rebuild_usage(m, state);
    scheduler::detail::QuotaView view(m, state);

    int compared = 0;
    for (const auto& team : report.teams) {
        const auto& q = m.cqs.at(m.cq_ids.at(team.cluster_queue));
        for (const auto& row : team.quota) {
            INFO(team.cluster_queue << " " << row.pool << "/" << row.resource);
            int fr = m.find_fr(m.flavor_ids.at(row.pool), m.resource_ids.at(row.resource));
            REQUIRE(fr >= 0);
            const int128 unit = row.resource == "cpu" ? 1000000 : 1000000000;
            CHECK(row.max_burst.nanos == static_cast<int128>(view.potential_available(q.node, fr)) * unit);
            CHECK(row.guaranteed.nanos == static_cast<int128>(view.local_quota(q.node, fr)) * unit);
            ++compared;
        }
    }
    CHECK(compared == 8);
}

TEST_CASE("model: the shared selector and toleration core", "[model]") {
    const model::Labels labels{{"zone", "a"}, {"gpus", "8"}};
    using model::Operators;
    auto match = [&](const std::string& key, const std::string& op, std::vector<std::string> values,
                     Operators ops = Operators::LabelSelector) {
        return model::requirement_matches(key, op, values, labels, ops);
    };
    CHECK(match("zone", "In", {"a", "b"}) == true);
    CHECK(match("zone", "In", {"b"}) == false);
    CHECK(match("zone", "In", {}) == false);  // validity is the caller's: In without values matches nothing
    CHECK(match("zone", "NotIn", {"b"}) == true);
    CHECK(match("missing", "NotIn", {"b"}) == true);
    CHECK(match("zone", "Exists", {}) == true);
    CHECK(match("missing", "DoesNotExist", {}) == true);
    // Gt/Lt are node-selector operators only; an unknown operator is unknown.
    CHECK_FALSE(match("gpus", "Gt", {"4"}).has_value());
    CHECK(match("gpus", "Gt", {"4"}, Operators::NodeSelector) == true);
    CHECK(match("gpus", "Lt", {"4"}, Operators::NodeSelector) == false);
    CHECK(match("zone", "Gt", {"4"}, Operators::NodeSelector) == false);  // not an integer
    // Integers as Go's strconv.ParseInt reads them: a '+' sign, no spaces.
    CHECK(match("gpus", "Gt", {"+4"}, Operators::NodeSelector) == true);
    CHECK(match("gpus", "Lt", {"-4"}, Operators::NodeSelector) == false);
    CHECK(match("gpus", "Gt", {" 4"}, Operators::NodeSelector) == false);
    CHECK(match("gpus", "Gt", {"+-4"}, Operators::NodeSelector) == false);
    CHECK(match("gpus", "Gt", {"+"}, Operators::NodeSelector) == false);
    CHECK_FALSE(match("zone", "Equals", {"a"}, Operators::NodeSelector).has_value());
    CHECK(model::label_matches("zone", "a", labels));
    CHECK_FALSE(model::label_matches("zone", "b", labels));

    const model::Taint gpu{"nvidia.com/gpu", "present", "NoSchedule", ""};
    CHECK(model::tolerates({"nvidia.com/gpu", "Exists", "", ""}, gpu));
    CHECK(model::tolerates({"nvidia.com/gpu", "Equal", "present", "NoSchedule"}, gpu));
    CHECK(model::tolerates({"nvidia.com/gpu", "", "present", ""}, gpu));  // Equal is the default
    CHECK_FALSE(model::tolerates({"nvidia.com/gpu", "Equal", "absent", ""}, gpu));
    CHECK_FALSE(model::tolerates({"nvidia.com/gpu", "Exists", "", "NoExecute"}, gpu));
    CHECK(model::tolerates({"", "Exists", "", ""}, gpu));  // an empty key with Exists tolerates everything
}
