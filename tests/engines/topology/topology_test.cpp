// The TAS placement engine's own contract: bad input gives a clear error (never
// a crash), placements are committed, the text form, limits.
#include <queueforge/engines/topology.hpp>

#include <catch2/catch.hpp>

namespace topo = queueforge::topology;

namespace {

topo::Node node(const std::string& rack, const std::string& host, std::int64_t gpus) {
    topo::Node n;
    n.name = host;
    n.labels = {{"rack", rack}, {topo::kHostnameLabel, host}};
    n.allocatable = {{"cpu", 8000}, {"nvidia.com/gpu", gpus}, {"pods", 110}};
    return n;
}

topo::TopologySpec two_racks() {
    topo::TopologySpec s;
    s.levels = {"rack", topo::kHostnameLabel};
    s.nodes = {node("r1", "a1", 8), node("r1", "a2", 8), node("r2", "b1", 8), node("r2", "b2", 8), node("r2", "b3", 8)};
    return s;
}

topo::PodSetRequest gpus(std::int32_t count, std::int64_t per_pod, topo::Mode mode, const std::string& level) {
    topo::PodSetRequest r;
    r.count = count;
    r.requests = {{"nvidia.com/gpu", per_pod}};
    r.mode = mode;
    r.level = level;
    return r;
}

std::string build_error(topo::TopologySpec s) {
    std::string err;
    auto t = topo::Topology::build(s, &err);
    return t ? std::string() : err;
}

}  // namespace

TEST_CASE("topology: levels that Kueue's Topology API rejects are errors", "[topology]") {
    auto s = two_racks();
    s.levels = {};
    CHECK(build_error(s) == "topology \"default\": no levels (Kueue requires 1 to 16)");
    s.levels = {"rack", "rack"};
    CHECK(build_error(s) == "topology \"default\": level \"rack\" is repeated");
    s.levels = {topo::kHostnameLabel, "rack"};
    CHECK(build_error(s) == "topology \"default\": kubernetes.io/hostname must be the lowest level, it is level 0 of 2");
    s.levels.clear();
    for (int i = 0; i < 17; ++i) s.levels.push_back("l" + std::to_string(i));
    CHECK(build_error(s) == "topology \"default\": 17 levels (Kueue allows at most 16)");
}

TEST_CASE("topology: more nodes than the limit is an error, not a slow run", "[topology]") {
    topo::TopologySpec s;
    s.levels = {topo::kHostnameLabel};
    s.nodes.resize(topo::kMaxNodes + 1);
    CHECK(build_error(s) == "topology \"default\": 100001 nodes, more than the limit of 100000");
}

TEST_CASE("topology: nodes missing a level label, not Ready or unschedulable are left out", "[topology]") {
    auto s = two_racks();
    s.nodes[0].labels.erase("rack");
    s.nodes[1].ready = false;
    s.nodes[2].unschedulable = true;
    std::string err;
    auto t = topo::Topology::build(s, &err);
    REQUIRE(t);
    CHECK(t->excluded_nodes() == std::vector<std::string>{"a1", "a2", "b1"});
    CHECK(t->leaf_count() == 2);
}

TEST_CASE("topology: a request naming a level the topology lacks gets Kueue's reason", "[topology]") {
    std::string err;
    auto t = topo::Topology::build(two_racks(), &err);
    REQUIRE(t);
    auto out = t->assign({gpus(1, 1, topo::Mode::Required, "block")});
    CHECK(out.error.empty());
    CHECK(out.reason() == "no requested topology level: block");
    auto sliced = gpus(4, 1, topo::Mode::Required, "rack");
    sliced.slices = {{"zone", 2}};
    CHECK(t->assign({sliced}).reason() == "no requested topology level for slices: zone");
}

TEST_CASE("topology: a slice size not dividing the count is an error unless allowed", "[topology]") {
    std::string err;
    auto t = topo::Topology::build(two_racks(), &err);
    REQUIRE(t);
    auto r = gpus(5, 1, topo::Mode::Required, "rack");
    r.slices = {{topo::kHostnameLabel, 2}};
    auto out = t->assign({r});
    CHECK(out.error == "podset \"main\": count 5 is not a multiple of podset-slice-size 2");
    topo::Options lax;
    lax.require_slice_divides_count = false;
    CHECK(t->assign({r}, lax).error.empty());
}

TEST_CASE("topology: malformed requests and groups are errors", "[topology]") {
    std::string err;
    auto t = topo::Topology::build(two_racks(), &err);
    REQUIRE(t);
    CHECK(t->assign({gpus(-1, 1, topo::Mode::Required, "rack")}).error == "podset \"main\": count -1 is negative");
    CHECK(t->assign({gpus(1, 1, topo::Mode::Required, "")}).error ==
          "podset \"main\": a required or preferred topology needs a level");
    auto a = gpus(2, 1, topo::Mode::Required, "rack");
    auto b = a;
    a.name = "leader";
    b.name = "workers";
    a.group = b.group = "g";
    CHECK(t->assign({a, b}).error == "podset group \"g\": the leader podset must have count 1");
    auto twice = gpus(1, 1, topo::Mode::Required, "rack");
    CHECK(t->assign({twice, twice}).error == "podset \"main\" is given twice");
}

TEST_CASE("topology: required rack placement, the tightest rack wins, committed usage is seen", "[topology]") {
    std::string err;
    auto t = topo::Topology::build(two_racks(), &err);
    REQUIRE(t);
    // 16 GPUs: both racks can hold them; BestFit picks r1 (16 free) over r2 (24).
    std::vector<topo::PodSetRequest> job{gpus(2, 8, topo::Mode::Required, "rack")};
    auto out = t->assign(job);
    REQUIRE(out.placed());
    REQUIRE(out.podsets.size() == 1);
    CHECK(out.podsets[0].assignment->levels == std::vector<std::string>{topo::kHostnameLabel});
    CHECK(topo::to_text(*out.podsets[0].assignment) == "a1: 1, a2: 1");
    t->commit(job, out);
    // r1 is full now: the same job goes to r2.
    auto again = t->assign(job);
    REQUIRE(again.placed());
    CHECK(topo::to_text(*again.podsets[0].assignment) == "b1: 1, b2: 1");
    t->commit(job, again);
    // 2 x 8 GPUs left, in r2 only: 3 pods do not fit in one rack.
    auto big = t->assign({gpus(3, 8, topo::Mode::Required, "rack")});
    CHECK(big.reason() ==
          "topology \"default\" allows to fit only 1 out of 3 pod(s). Total nodes: 5; excluded: resource "
          "\"nvidia.com/gpu\": 4");
}

TEST_CASE("topology: a released placement frees its nodes, and usage never goes below zero", "[topology]") {
    std::string err;
    auto t = topo::Topology::build(two_racks(), &err);
    REQUIRE(t);
    std::vector<topo::PodSetRequest> job{gpus(2, 8, topo::Mode::Required, "rack")};
    auto first = t->assign(job);
    REQUIRE(first.placed());
    t->commit(job, first);
    auto second = t->assign(job);
    REQUIRE(second.placed());
    CHECK(topo::to_text(*second.podsets[0].assignment) == "b1: 1, b2: 1");
    t->commit(job, second);
    // The first workload finishes: r1 is free again and BestFit takes it.
    t->release(job, first);
    auto third = t->assign(job);
    REQUIRE(third.placed());
    CHECK(topo::to_text(*third.podsets[0].assignment) == "a1: 1, a2: 1");
    // A second release of the same placement changes nothing (no negative usage
    // that would let more pods in than the nodes hold).
    t->release(job, first);
    auto five = t->assign({gpus(5, 8, topo::Mode::Required, "rack")});
    CHECK(five.reason() ==
          "topology \"default\" allows to fit only 2 out of 5 pod(s). Total nodes: 5; excluded: resource "
          "\"nvidia.com/gpu\": 2");
    CHECK_FALSE(t->remove_usage({"no-such-node"}, {{"nvidia.com/gpu", 8}}, 1));
}

TEST_CASE("topology: preferred spreads over racks when no single rack holds the podset", "[topology]") {
    std::string err;
    auto t = topo::Topology::build(two_racks(), &err);
    REQUIRE(t);
    auto out = t->assign({gpus(4, 8, topo::Mode::Preferred, "rack")});
    REQUIRE(out.placed());
    CHECK(topo::to_text(*out.podsets[0].assignment) == "a1: 1, a2: 1, b1: 1, b2: 1");
    CHECK(t->assign({gpus(4, 8, topo::Mode::Required, "rack")}).reason() ==
          "topology \"default\" allows to fit only 3 out of 4 pod(s)");
}

TEST_CASE("topology: untolerated taints and selectors are reported per node in Kueue's words", "[topology]") {
    auto s = two_racks();
    s.nodes[0].taints = {{"gpu", "h100", "NoSchedule"}};
    s.nodes[1].taints = {{"maint", "", "PreferNoSchedule"}};  // not a scheduling taint
    s.nodes[2].labels["pool"] = "a";
    std::string err;
    auto t = topo::Topology::build(s, &err);
    REQUIRE(t);
    auto r = gpus(1, 16, topo::Mode::Required, topo::kHostnameLabel);
    r.node_selector = {{"pool", "a"}};
    CHECK(t->assign({r}).reason() ==
          "topology \"default\" doesn't allow to fit any of 1 pod(s). Total nodes: 5; excluded: nodeSelector: 3, "
          "resource \"nvidia.com/gpu\": 1, taint \"gpu=h100:NoSchedule\": 1");
    r.tolerations = {{"gpu", "Exists", "", ""}};
    r.requests["nvidia.com/gpu"] = 8;
    r.node_selector.clear();
    auto out = t->assign({r});
    REQUIRE(out.placed());
    CHECK(topo::to_text(*out.podsets[0].assignment) == "a1: 1");
}

TEST_CASE("topology: without hostname as a level, domains are racks and nodes are not checked one by one",
          "[topology]") {
    auto s = two_racks();
    s.levels = {"rack"};
    s.nodes[0].taints = {{"gpu", "h100", "NoSchedule"}};
    std::string err;
    auto t = topo::Topology::build(s, &err);
    REQUIRE(t);
    auto out = t->assign({gpus(5, 4, topo::Mode::Required, "rack")});
    REQUIRE(out.placed());
    CHECK(out.podsets[0].assignment->levels == std::vector<std::string>{"rack"});
    CHECK(topo::to_text(*out.podsets[0].assignment) == "r2: 5");
}

TEST_CASE("topology: extreme amounts saturate instead of overflowing", "[topology]") {
    topo::TopologySpec s;
    s.levels = {"rack", topo::kHostnameLabel};
    for (int i = 0; i < 4; ++i) {
        topo::Node n = node("r1", "h" + std::to_string(i), INT64_MAX);
        n.allocatable["pods"] = INT64_MAX;
        n.non_tas_usage = {{"cpu", INT64_MAX}};
        s.nodes.push_back(n);
    }
    std::string err;
    auto t = topo::Topology::build(s, &err);
    REQUIRE(t);
    topo::PodSetRequest r = gpus(INT32_MAX, 1, topo::Mode::Preferred, "rack");
    r.requests["pods"] = 0;
    auto out = t->assign({r});
    CHECK(out.error.empty());
    REQUIRE(out.placed());
    t->commit({r}, out);
    CHECK(t->add_usage({"h0"}, {{"nvidia.com/gpu", INT64_MAX}}, INT32_MAX));
    CHECK_FALSE(t->add_usage({"nowhere"}, {{"cpu", 1}}, 1));
    CHECK(t->assign({gpus(1, 1, topo::Mode::Required, "rack")}).error.empty());
}

TEST_CASE("topology: a copy shares the nodes but not the usage", "[topology]") {
    std::string err;
    auto t = topo::Topology::build(two_racks(), &err);
    REQUIRE(t);
    std::vector<topo::PodSetRequest> job{gpus(2, 8, topo::Mode::Required, "rack")};
    topo::Topology copy = *t;
    auto placed = copy.assign(job);
    REQUIRE(placed.placed());
    copy.commit(job, placed);
    // The copy's placement does not reach the original, nor the other way.
    CHECK(topo::to_text(*t->assign(job).podsets[0].assignment) == "a1: 1, a2: 1");
    CHECK(topo::to_text(*copy.assign(job).podsets[0].assignment) == "b1: 1, b2: 1");
    t->commit(job, t->assign(job));
    t->clear_usage();
    CHECK(topo::to_text(*copy.assign(job).podsets[0].assignment) == "b1: 1, b2: 1");
    CHECK(copy.levels() == t->levels());
}
