// spec.topologies and pools[].topology (issue 17 item 1): Topology objects
// and the flavors' topologyName per target, the Topology CRD's rules and the
// shape of a pool's node inventory checked at the site's positions, and the
// emitted objects valid against the target's Topology schema.
#include "test_util.hpp"

#include <queueforge/checks/validate.hpp>
#include <queueforge/engines/topology_site.hpp>
#include <queueforge/frontend/site_parse.hpp>
#include <queueforge/frontend/manifests.hpp>

#include <catch2/catch.hpp>

using namespace queueforge;

namespace {

bool has(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

std::string site_text(const std::string& target, const std::string& topologies, const std::string& pool_topology,
                      const std::string& nodes = "128") {
    return "apiVersion: queueforge.io/v1alpha1\n"  // 1
           "kind: Site\n"                          // 2
           "metadata: {name: lab}\n"               // 3
           "spec:\n"                               // 4
           "  target: " + target + "\n" +          // 5
           "  topologies:\n" + topologies +        // 6, 7..
           "  pools:\n"
           "  - name: h100\n"
           "    nodeLabels: {node.kubernetes.io/instance-type: h100}\n"
           + (nodes.empty() ? std::string() : "    nodes: " + nodes + "\n") +
           "    allocatable: {cpu: 96, memory: 1Ti, nvidia.com/gpu: 8}\n" +
           pool_topology +
           "  teams:\n"
           "  - name: llm\n"
           "    namespaces: [llm]\n"
           "    quota: [{pool: h100, nominal: {cpu: 1000, memory: 10Ti, nvidia.com/gpu: 1024}}]\n";
}

const std::string kFabric =
    "  - name: fabric\n"                                                    // 7
    "    levels: [cloud.provider.com/topology-block, cloud.provider.com/topology-rack, kubernetes.io/hostname]\n";  // 8
const std::string kPoolTopology = "    topology: {name: fabric, shape: [4, 4, 8]}\n";

}  // namespace

TEST_CASE("topologies: a Topology per entry, before the flavors, and topologyName on the pool's flavor", "[tas][lower]") {
    Diagnostics d;
    std::string out = qf_test::build_text(site_text("kueue-0.19", kFabric, kPoolTopology), d);
    INFO(qf_test::messages(d));
    REQUIRE_FALSE(d.has_errors());
    CHECK(has(out, "apiVersion: kueue.x-k8s.io/v1beta2\nkind: Topology\nmetadata:\n  name: fabric\n"));
    CHECK(has(out, "spec:\n  levels:\n    - nodeLabel: cloud.provider.com/topology-block\n"
                   "    - nodeLabel: cloud.provider.com/topology-rack\n    - nodeLabel: kubernetes.io/hostname\n"));
    CHECK(has(out, "  nodeLabels:\n    node.kubernetes.io/instance-type: h100\n  topologyName: fabric\n"));
    CHECK(out.find("kind: Topology") < out.find("kind: ResourceFlavor"));

    // The emitted objects pass the target's schemas, the Topology CRD's CEL rules included.
    LoadedResources in;
    Diagnostics vd;
    load_resources_from_text("out.yaml", out, in, vd);
    ValidationOptions o;
    o.target = find_target("kueue-0.19").target;
    validate_all(in, o, vd);
    INFO(qf_test::messages(vd));
    CHECK_FALSE(vd.has_errors());
}

TEST_CASE("topologies: the API version follows the target, and Kueue before 0.14 is refused", "[tas][lower]") {
    Diagnostics d14;
    std::string out = qf_test::build_text(site_text("kueue-0.14", kFabric, kPoolTopology), d14);
    INFO(qf_test::messages(d14));
    CHECK(has(out, "apiVersion: kueue.x-k8s.io/v1beta1\nkind: Topology\n"));

    for (const std::string target : {"kueue-0.13", "kueue-0.8", "rhoai-2.22"}) {
        Diagnostics d;
        CHECK(qf_test::build_text(site_text(target, kFabric, kPoolTopology), d).empty());
        REQUIRE(qf_test::has_rule(d, "target.unserved"));
        CHECK(has(qf_test::messages(d), "7:5 spec.topologies: target "));
        CHECK(has(qf_test::messages(d), "topology-aware scheduling needs Kueue 0.14 or newer"));
    }
}

TEST_CASE("topologies: the Topology CRD's level rules at the site's positions", "[tas][lower]") {
    struct Case {
        std::string levels, where, message;
    };
    for (const auto& c : std::vector<Case>{
             {"[kubernetes.io/hostname, rack]", "8:14", "the kubernetes.io/hostname label can only be used at the lowest level"},
             {"[rack, rack]", "8:20", "\"rack\" is already level 0; levels must be unique"},
             {"[]", "8:13", "0 levels; a Topology has 1 to 16"},
             {"[l1, l2, l3, l4, l5, l6, l7, l8, l9, l10, l11, l12, l13, l14, l15, l16, l17]", "8:13", "17 levels; a Topology has 1 to 16"},
             {"[\"bad label!\"]", "8:14", "invalid node label \"bad label!\""},
         }) {
        INFO(c.levels);
        Diagnostics d;
        qf_test::build_text(site_text("kueue-0.19", "  - name: fabric\n    levels: " + c.levels + "\n", ""), d);
        CHECK(qf_test::has_rule(d, "site.topology"));
        CHECK(has(qf_test::messages(d), c.where + " spec.topologies[0].levels"));
        CHECK(has(qf_test::messages(d), c.message));
    }
}

TEST_CASE("topologies: a pool's shape must match the levels and its nodes, and name a declared topology", "[tas][lower]") {
    SECTION("wrong count of numbers") {
        Diagnostics d;
        qf_test::build_text(site_text("kueue-0.19", kFabric, "    topology: {name: fabric, shape: [16, 8]}\n"), d);
        CHECK(qf_test::has_rule(d, "site.topology"));
        CHECK(has(qf_test::messages(d), "topology.shape: 2 numbers; topology \"fabric\" needs 3: the domains per parent at each level "
                                        "(cloud.provider.com/topology-block, cloud.provider.com/topology-rack, from the top), then "
                                        "the nodes per lowest domain"));
    }
    SECTION("shape and nodes disagree") {
        Diagnostics d;
        qf_test::build_text(site_text("kueue-0.19", kFabric, "    topology: {name: fabric, shape: [4, 4, 4]}\n"), d);
        CHECK(has(qf_test::messages(d), "topology.shape describes 64 nodes, but the pool has nodes: 128 [site.topology]"));
    }
    SECTION("beyond the placement limit") {
        Diagnostics d;
        qf_test::build_text(site_text("kueue-0.19", kFabric, "    topology: {name: fabric, shape: [1000, 1000, 8]}\n", ""), d);
        CHECK(has(qf_test::messages(d), "more than 100000 nodes; the placement limit is 100000 nodes per topology"));
    }
    SECTION("a step below 1") {
        Diagnostics d;
        qf_test::build_text(site_text("kueue-0.19", kFabric, "    topology: {name: fabric, shape: [4, 0, 8]}\n"), d);
        CHECK(d.has_errors());
        CHECK(has(qf_test::messages(d), "topology.shape[1]"));
    }
    SECTION("unknown topology, with a suggestion") {
        Diagnostics d;
        qf_test::build_text(site_text("kueue-0.19", kFabric, "    topology: {name: fabrik, shape: [4, 4, 8]}\n"), d);
        CHECK(qf_test::has_rule(d, "site.unknown-topology"));
        CHECK(has(qf_test::messages(d), "pool \"h100\": unknown topology \"fabrik\" (declare it under spec.topologies); did you mean \"fabric\"?"));
    }
    SECTION("hostname not a level: the last number is still the nodes per lowest domain") {
        Diagnostics d;
        std::string out = qf_test::build_text(
            site_text("kueue-0.19", "  - name: racks\n    levels: [cloud.provider.com/topology-rack]\n",
                      "    topology: {name: racks, shape: [16, 8]}\n"),
            d);
        INFO(qf_test::messages(d));
        CHECK_FALSE(d.has_errors());
        CHECK(has(out, "topologyName: racks"));
    }
    SECTION("a flavor with topologyName needs node labels (V17)") {
        Diagnostics d;
        std::string text = site_text("kueue-0.19", kFabric, kPoolTopology);
        text.replace(text.find("    nodeLabels: {node.kubernetes.io/instance-type: h100}\n"),
                     std::string("    nodeLabels: {node.kubernetes.io/instance-type: h100}\n").size(), "");
        qf_test::build_text(text, d);
        CHECK(qf_test::has_rule(d, "V17"));
    }
}

TEST_CASE("topologies: a repeated name is refused", "[tas][lower]") {
    Diagnostics d;
    qf_test::build_text(site_text("kueue-0.19", kFabric + kFabric, kPoolTopology), d);
    CHECK(qf_test::has_rule(d, "site.duplicate-name"));
    CHECK(has(qf_test::messages(d), "topology \"fabric\" is defined twice (first at line 7)"));
}

// The pool's shape as nodes for placement (engines/topology/site_inventory.cpp):
// 2 blocks x 2 racks x 2 nodes of 8 GPUs; a 32-GPU job fits in one block, not
// in one rack.
TEST_CASE("topologies: a pool's shape becomes nodes that Kueue's placement reads", "[tas][topology]") {
    const std::string text = site_text("kueue-0.19", kFabric, "    topology: {name: fabric, shape: [2, 2, 2]}\n", "8");
    Diagnostics d;
    auto s = parse_site_text("site.yaml", text, d);
    INFO(qf_test::messages(d));
    REQUIRE(s);
    auto spec = topology::spec_from_site(*s, s->pools[0]);
    REQUIRE(spec);
    REQUIRE(spec->nodes.size() == 8);
    CHECK(spec->nodes[0].name == "h100-block1-rack1-n1");
    CHECK(spec->nodes[7].name == "h100-block2-rack2-n2");
    CHECK(spec->nodes[5].labels.at("cloud.provider.com/topology-rack") == "h100-block2-rack1");
    CHECK(spec->nodes[5].labels.at("node.kubernetes.io/instance-type") == "h100");
    CHECK(spec->nodes[5].allocatable.at("nvidia.com/gpu") == 8);
    CHECK(spec->nodes[5].allocatable.at("cpu") == 96000);
    CHECK(spec->nodes[5].allocatable.at("pods") == 110);
    std::string err;
    auto t = topology::Topology::build(*spec, &err);
    INFO(err);
    REQUIRE(t);
    CHECK(t->excluded_nodes().empty());
    topology::PodSetRequest job;
    job.count = 4;
    job.requests = {{"nvidia.com/gpu", 8}};
    job.mode = topology::Mode::Required;
    job.level = "cloud.provider.com/topology-block";
    auto block = t->assign({job});
    REQUIRE(block.placed());
    CHECK(topology::to_text(*block.podsets[0].assignment) ==
          "h100-block1-rack1-n1: 1, h100-block1-rack1-n2: 1, h100-block1-rack2-n1: 1, h100-block1-rack2-n2: 1");
    job.level = "cloud.provider.com/topology-rack";
    CHECK(t->assign({job}).reason() == "topology \"fabric\" allows to fit only 2 out of 4 pod(s)");
    // A shape that does not match the levels gives no nodes (the site's check reports it).
    s->pools[0].topology->shape.pop_back();
    CHECK_FALSE(topology::spec_from_site(*s, s->pools[0]));
}
