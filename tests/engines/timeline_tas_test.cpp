// Timeline mode with topology-aware scheduling: Kueue's scheduler-perf TAS
// fields (test/performance/scheduler/runner/generator at kueue ff69552e:
// topology_generator.go, generator.go) read, generated and placed.
#include <catch2/catch.hpp>

#include <queueforge/frontend/manifests.hpp>
#include <queueforge/engines/timeline.hpp>

#include "engines/timeline/generate.hpp"
#include "test_util.hpp"
#include "timeline_util.hpp"

#include <algorithm>

using namespace queueforge;

namespace {

using qf_timeline::errors_of;
using qf_timeline::parse_ok;
using qf_timeline::wl_class;


const Resource* find(const std::vector<Resource>& objs, const std::string& kind, const std::string& name) {
    for (const auto& r : objs)
        if (r.ref.kind == kind && r.ref.name == name) return &r;
    return nullptr;
}

std::string text_at(const Node& n, std::initializer_list<const char*> path) {
    const Node* cur = &n;
    for (const char* k : path) {
        if (!cur || !cur->is_map()) return "<absent>";
        cur = cur->find(k);
    }
    return cur && cur->is_scalar() ? cur->text() : "<absent>";
}

// The lowest level is not kubernetes.io/hostname: Kueue's generator labels
// the nodes of every rack node-0, node-1, ... and Kueue's TAS cache keys
// hostname leaves by that value alone (tas_topology_tree.go addNode), which
// folds the racks together (see the test below).
const char* kTopology = R"(topology:
  name: default-topology
  levels:
  - {name: block, count: 1, nodeLabel: cloud.provider.com/topology-block}
  - {name: rack, count: 2, nodeLabel: cloud.provider.com/topology-rack}
  - {name: node, count: 2, nodeLabel: cloud.provider.com/topology-node, capacity: {cpu: 4}}
resourceFlavor:
  name: tas-flavor
  nodeLabel: tas-node-group
  topologyName: default-topology
)";

// 2 racks of 2 nodes of 4 cpu; quota (100 cpu) is never the limit. One
// 4-cpu pod each at 100 (P1, ends 600), 200 (P2, ends 1200), 300 (Q1, ends
// 800), 400 (Q2, ends 1400), rack-required: best fit puts P1, P2 in one rack
// and Q1, Q2 in the other. From 800 each rack has one node free: 8 cpu, but
// no rack with two free nodes. C (2 pods of 4 cpu) arrives at 900 with
// `constraint` at the rack level.
std::string fragmented(const std::string& constraint, bool tas = true) {
    std::string tas_fields = tas ? ", tasConstraint: required, tasLevel: cloud.provider.com/topology-rack" : "";
    std::string c_fields = tas ? ", tasConstraint: " + constraint + ", tasLevel: cloud.provider.com/topology-rack" +
                                     (constraint == "balanced" ? ", sliceSize: 1" : "")
                               : "";
    std::string head = tas ? kTopology : "";
    return head + R"(cohorts:
- className: cohort
  count: 1
  queuesSets:
  - className: cq
    count: 1
    nominalQuota: 100
    workloadsSets:
    - count: 1
      creationIntervalMs: 100
      workloads:
      - {className: p1, runtimeMs: 500, request: 4)" + tas_fields + R"(}
      - {className: p2, runtimeMs: 1000, request: 4)" + tas_fields + R"(}
      - {className: q1, runtimeMs: 500, request: 4)" + tas_fields + R"(}
      - {className: q2, runtimeMs: 1000, request: 4)" + tas_fields + R"(}
    - count: 1
      creationIntervalMs: 900
      workloads:
      - {className: c, runtimeMs: 100, request: 4, podCount: 2)" + c_fields + R"(}
)";
}

timeline::Report run(const std::string& text, Diagnostics& d, const std::vector<Resource>& cluster = {}) {
    auto s = parse_ok(text);
    return timeline::run(s, cluster, {}, d);
}

}  // namespace

TEST_CASE("timeline TAS: a rack-required workload waits for a rack to free up while quota is available", "[timeline][tas]") {
    Diagnostics d;
    auto r = run(fragmented("required"), d);
    INFO(render_text(d, {}));
    CHECK(!d.has_errors());
    CHECK(r.settled);
    CHECK(r.never_admitted.empty());
    for (const char* c : {"p1", "p2", "q1", "q2"}) CHECK(wl_class(r, c).time_to_admission.max == 0);
    // Admitted at 1200, when P2 frees the second node of its rack.
    CHECK(wl_class(r, "c").time_to_admission.max == 300);
    CHECK(r.makespan_ms == 1400);

    // Preferred: split over the two racks at once.
    Diagnostics d2;
    auto pref = run(fragmented("preferred"), d2);
    INFO(render_text(d2, {}));
    CHECK(!d2.has_errors());
    CHECK(wl_class(pref, "c").time_to_admission.max == 0);

    // Balanced (slices of 1 at the rack, no level required: Kueue places it
    // unconstrained): at once too.
    Diagnostics d3;
    auto bal = run(fragmented("balanced"), d3);
    INFO(render_text(d3, {}));
    CHECK(!d3.has_errors());
    CHECK(wl_class(bal, "c").time_to_admission.max == 0);

    // The same arrivals on a quota-only flavor: quota alone never holds C back.
    Diagnostics d4;
    auto plain = run(fragmented("", false), d4);
    INFO(render_text(d4, {}));
    CHECK(!d4.has_errors());
    CHECK(wl_class(plain, "c").time_to_admission.max == 0);
}

TEST_CASE("timeline TAS: a workload larger than any rack is never admitted though quota allows it", "[timeline][tas]") {
    Diagnostics d;
    auto r = run(std::string(kTopology) + R"(cohorts:
- className: cohort
  count: 1
  queuesSets:
  - className: cq
    count: 1
    nominalQuota: 100
    workloadsSets:
    - count: 1
      creationIntervalMs: 100
      workloads:
      - {className: big, runtimeMs: 100, request: 4, podCount: 3, tasConstraint: required, tasLevel: cloud.provider.com/topology-rack}
      - {className: fits, runtimeMs: 100, request: 4, podCount: 3, tasConstraint: required, tasLevel: cloud.provider.com/topology-block}
)",
                 d);
    CHECK(wl_class(r, "fits").admitted == 1);
    CHECK(wl_class(r, "big").never_admitted == 1);
    REQUIRE(r.never_admitted.size() == 1);
    CHECK(r.never_admitted[0].name == "big-0-0-0");
    CHECK(d.has_errors());  // timeline.never-admitted

    // With kubernetes.io/hostname as the lowest level, as in Kueue's
    // configs/tas: the generator's hostname values repeat in every rack
    // (node-0, node-1) and Kueue keys hostname leaves by the value alone, so
    // rack-1's nodes join rack-0's: two "nodes" of 8 cpu in one rack, where
    // the three 4-cpu pods fit.
    std::string folded = std::string(kTopology) + R"(cohorts:
- className: cohort
  count: 1
  queuesSets:
  - className: cq
    count: 1
    nominalQuota: 100
    workloadsSets:
    - count: 1
      creationIntervalMs: 100
      workloads:
      - {className: big, runtimeMs: 100, request: 4, podCount: 3, tasConstraint: required, tasLevel: cloud.provider.com/topology-rack}
)";
    const std::string distinct = folded;
    folded.replace(folded.find("cloud.provider.com/topology-node"), std::string("cloud.provider.com/topology-node").size(),
                   "kubernetes.io/hostname");
    Diagnostics d2;
    auto fs = timeline::parse_scenario("scenario.yaml", folded, d2);
    REQUIRE(fs);
    auto f = timeline::run(*fs, {}, {}, d2);
    INFO(render_text(d2, {}));
    CHECK(!d2.has_errors());
    CHECK(wl_class(f, "big").admitted == 1);
    CHECK(render_text(d2, {}).find("scenario.yaml:6:5: note: topology.levels[2]: Kueue's generator labels "
                                   "kubernetes.io/hostname \"node-<i>\" within each of the 2 parent domains, and Kueue "
                                   "keys hostname domains by the value alone: the nodes with the same value merge, leaving "
                                   "2 domains of 2 nodes' capacity under the first parent (as in Kueue's own runs) "
                                   "[timeline.merged-hostnames]") != std::string::npos);
    // A distinct lowest level: no note.
    Diagnostics d3;
    REQUIRE(timeline::parse_scenario("scenario.yaml", distinct, d3));
    CHECK(render_text(d3, {}).find("merged-hostnames") == std::string::npos);
}

TEST_CASE("timeline TAS: the generated objects are Kueue's generator's", "[timeline][tas]") {
    auto s = parse_ok(std::string(kTopology) + R"(cohorts:
- className: cohort
  count: 1
  queuesSets:
  - className: cq
    count: 1
    nominalQuota: 100
    workloadsSets:
    - count: 1
      creationIntervalMs: 100
      workloads:
      - {className: r, request: 500m, podCount: 2, tasConstraint: required, tasLevel: cloud.provider.com/topology-rack}
      - {className: p, request: 500m, podCount: 2, tasConstraint: preferred, tasLevel: cloud.provider.com/topology-block}
      - {className: b, request: 500m, podCount: 4, tasConstraint: balanced, tasLevel: cloud.provider.com/topology-rack, sliceSize: 2}
      - {className: none, request: 500m, podCount: 2}
)");
    Diagnostics d;
    auto g = timeline::detail::generate(s, {}, d);
    INFO(render_text(d, {}));
    REQUIRE(!d.has_errors());
    // generateNodesRecursive: last level fastest; buildNodeName.
    std::vector<std::string> nodes;
    for (const auto& o : g.objects)
        if (o.ref.kind == "Node") nodes.push_back(o.ref.name);
    CHECK(nodes == std::vector<std::string>{"node-b0-r0-n0", "node-b0-r0-n1", "node-b0-r1-n0", "node-b0-r1-n1"});
    const Resource* n = find(g.objects, "Node", "node-b0-r1-n0");
    REQUIRE(n);
    CHECK(text_at(n->doc, {"metadata", "labels", "cloud.provider.com/topology-block"}) == "block-0");
    CHECK(text_at(n->doc, {"metadata", "labels", "cloud.provider.com/topology-rack"}) == "rack-1");
    CHECK(text_at(n->doc, {"metadata", "labels", "cloud.provider.com/topology-node"}) == "node-0");
    CHECK(text_at(n->doc, {"metadata", "labels", "tas-node-group"}) == "tas");
    CHECK(text_at(n->doc, {"status", "allocatable", "cpu"}) == "4");
    CHECK(text_at(n->doc, {"status", "allocatable", "memory"}) == "256Gi");  // the generator's default
    CHECK(text_at(n->doc, {"status", "allocatable", "pods"}) == "110");
    const Node* conds = n->doc.find("status")->find("conditions");
    REQUIRE(conds);
    REQUIRE(conds->items().size() == 1);
    CHECK(text_at(conds->items()[0], {"type"}) == "Ready");
    CHECK(text_at(conds->items()[0], {"status"}) == "True");

    const Resource* topo = find(g.objects, "Topology", "default-topology");
    REQUIRE(topo);
    const Node* levels = topo->doc.find("spec")->find("levels");
    REQUIRE(levels);
    REQUIRE(levels->items().size() == 3);
    CHECK(text_at(levels->items()[0], {"nodeLabel"}) == "cloud.provider.com/topology-block");
    CHECK(text_at(levels->items()[2], {"nodeLabel"}) == "cloud.provider.com/topology-node");

    const Resource* rf = find(g.objects, "ResourceFlavor", "tas-flavor");
    REQUIRE(rf);
    CHECK(text_at(rf->doc, {"spec", "topologyName"}) == "default-topology");
    CHECK(text_at(rf->doc, {"spec", "nodeLabels", "tas-node-group"}) == "tas");

    REQUIRE(g.arrivals.size() == 4);
    auto podset = [&](std::size_t i) {
        Resource w = timeline::detail::make_workload(s.file, g.arrivals[i], g.specs[i]);
        return w.doc.find("spec")->find("podSets")->items()[0];
    };
    Node r = podset(0), p = podset(1), b = podset(2), plain = podset(3);
    CHECK(text_at(r, {"count"}) == "2");
    CHECK(text_at(r, {"topologyRequest", "required"}) == "cloud.provider.com/topology-rack");
    CHECK(text_at(p, {"topologyRequest", "preferred"}) == "cloud.provider.com/topology-block");
    CHECK(text_at(b, {"topologyRequest", "podSetSliceRequiredTopology"}) == "cloud.provider.com/topology-rack");
    CHECK(text_at(b, {"topologyRequest", "podSetSliceSize"}) == "2");
    CHECK(text_at(b, {"topologyRequest", "required"}) == "<absent>");
    CHECK(text_at(b, {"topologyRequest", "preferred"}) == "<absent>");
    CHECK(plain.find("topologyRequest") == nullptr);
}

TEST_CASE("timeline TAS: bad topology and TAS fields are positioned errors", "[timeline][tas]") {
    const std::string cohorts = R"(cohorts:
- className: c
  count: 1
  queuesSets:
  - className: q
    count: 1
    nominalQuota: 2
)";
    // One level.
    auto e = errors_of(R"(topology:
  name: t
  levels:
  - {name: node, count: 2, nodeLabel: kubernetes.io/hostname}
)" + cohorts);
    CHECK(e.find("scenario.yaml:4:3: error: topology.levels: Kueue's generator needs 2 to 16 levels, got 1 [timeline.invalid]") !=
          std::string::npos);
    // More than 100,000 nodes.
    e = errors_of(R"(topology:
  name: t
  levels:
  - {name: rack, count: 1000, nodeLabel: example.com/rack}
  - {name: node, count: 101, nodeLabel: kubernetes.io/hostname}
)" + cohorts);
    CHECK(e.find("scenario.yaml:4:3: error: topology.levels: the counts make more than 100000 nodes [timeline.too-large]") !=
          std::string::npos);
    // hostname not last, duplicate labels, a '-' in a name, capacity on an upper level, count 0.
    e = errors_of(R"(topology:
  name: t
  levels:
  - {name: host, count: 2, nodeLabel: kubernetes.io/hostname}
  - {name: sub-rack, count: 2, nodeLabel: example.com/rack, capacity: {cpu: 8}}
  - {name: node, count: 0, nodeLabel: example.com/rack}
)" + cohorts);
    CHECK(e.find("scenario.yaml:4:39: error: topology.levels[0].nodeLabel: the kubernetes.io/hostname label can only be used at "
                 "the lowest level of topology") != std::string::npos);
    CHECK(e.find("scenario.yaml:5:12: error: topology.levels[1].name: \"sub-rack\" has a '-'") != std::string::npos);
    CHECK(e.find("scenario.yaml:5:71: error: topology.levels[1].capacity: Kueue's generator reads the capacity of the last "
                 "level (the nodes) only") != std::string::npos);
    CHECK(e.find("scenario.yaml:6:25: error: topology.levels[2].count: 0 is out of range") != std::string::npos);
    CHECK(e.find("scenario.yaml:6:39: error: topology.levels[2].nodeLabel: \"example.com/rack\" is another level's too") !=
          std::string::npos);
    // The flavor: topologyName without nodeLabel, a name that is not the topology's, a label the nodes lack.
    const std::string topo = R"(topology:
  name: t
  levels:
  - {name: rack, count: 2, nodeLabel: example.com/rack}
  - {name: node, count: 2, nodeLabel: kubernetes.io/hostname}
)";
    e = errors_of(topo + "resourceFlavor: {name: f, topologyName: t}\n" + cohorts);
    CHECK(e.find("scenario.yaml:6:17: error: resourceFlavor.nodeLabel: required when topologyName is set") != std::string::npos);
    e = errors_of(topo + "resourceFlavor: {name: f, topologyName: u, nodeLabel: pool}\n" + cohorts);
    CHECK(e.find("scenario.yaml:6:41: error: resourceFlavor.topologyName: \"u\" is not the topology's name \"t\"") !=
          std::string::npos);
    CHECK(e.find("scenario.yaml:6:55: error: resourceFlavor.nodeLabel: the nodes Kueue's generator makes carry tas-node-group: "
                 "tas only") != std::string::npos);
    e = errors_of("resourceFlavor: {name: f, topologyName: t, nodeLabel: tas-node-group}\n" + cohorts);
    CHECK(e.find("scenario.yaml:1:41: error: resourceFlavor.topologyName: the scenario has no topology") != std::string::npos);

    // Workload fields.
    const std::string head = topo + "resourceFlavor: {name: f, topologyName: t, nodeLabel: tas-node-group}\n" + cohorts +
                             "    workloadsSets:\n    - count: 1\n      workloads:\n";
    auto wl = [&](const std::string& fields) { return errors_of(head + "      - {className: w, request: 1, " + fields + "}\n"); };
    e = wl("tasConstraint: strict, tasLevel: example.com/rack");
    CHECK(e.find("scenario.yaml:17:51: error: cohorts[0].queuesSets[0].workloadsSets[0].workloads[0].tasConstraint: unsupported "
                 "value \"strict\"") != std::string::npos);
    e = wl("tasConstraint: required, tasLevel: example.com/rak");
    CHECK(e.find("scenario.yaml:17:71: error: cohorts[0].queuesSets[0].workloadsSets[0].workloads[0].tasLevel: "
                 "\"example.com/rak\" is not a level of the topology (its levels' nodeLabel); did you mean "
                 "\"example.com/rack\"? [timeline.invalid]") != std::string::npos);
    e = wl("tasConstraint: balanced, tasLevel: example.com/rack, sliceSize: 0");
    CHECK(e.find("scenario.yaml:17:100: error: cohorts[0].queuesSets[0].workloadsSets[0].workloads[0].sliceSize: 0 is out of "
                 "range") != std::string::npos);
    e = wl("tasConstraint: balanced, tasLevel: example.com/rack");
    CHECK(e.find("scenario.yaml:17:51: error: cohorts[0].queuesSets[0].workloadsSets[0].workloads[0].tasConstraint: balanced "
                 "needs sliceSize") != std::string::npos);
    e = wl("tasConstraint: preferred, tasLevel: example.com/rack, sliceSize: 2");
    CHECK(e.find("sliceSize: only with tasConstraint balanced") != std::string::npos);
    e = wl("tasConstraint: required");
    CHECK(e.find("scenario.yaml:17:51: error: cohorts[0].queuesSets[0].workloadsSets[0].workloads[0].tasConstraint: needs "
                 "tasLevel") != std::string::npos);
    e = wl("tasLevel: example.com/rack");
    CHECK(e.find("tasLevel: needs tasConstraint (required, preferred or balanced)") != std::string::npos);
    // A TAS workload on a flavor without a topology.
    e = errors_of(cohorts + R"(    workloadsSets:
    - count: 1
      workloads:
      - {className: w, request: 1, tasConstraint: required, tasLevel: example.com/rack}
)");
    CHECK(e.find("scenario.yaml:11:71: error: cohorts[0].queuesSets[0].workloadsSets[0].workloads[0].tasLevel: the scenario's "
                 "flavor has no topology") != std::string::npos);
    // DRA stays refused.
    e = errors_of("dra: {deviceClassName: gpu}\n" + cohorts);
    CHECK(e.find("scenario.yaml:1:6: error: scenario.dra: DRA devices are not simulated; remove the field [timeline.unsupported]") !=
          std::string::npos);
    e = errors_of(head + "      - {className: w, request: 1, devices: 1}\n");
    CHECK(e.find("devices: DRA devices are not simulated") != std::string::npos);
    // topology belongs to the generator shape.
    e = errors_of(topo + "localQueues: []\n");
    CHECK(e.find("scenario.yaml:2:3: error: topology: only with cohorts") != std::string::npos);
}

TEST_CASE("timeline TAS: localQueues arrivals name a level of the site's Topology", "[timeline][tas]") {
    Diagnostics d;
    LoadedResources lr;
    load_resources_from_text("cluster.yaml", R"(apiVersion: kueue.x-k8s.io/v1beta2
kind: Topology
metadata: {name: t}
spec:
  levels:
  - nodeLabel: example.com/rack
  - nodeLabel: kubernetes.io/hostname
---
apiVersion: kueue.x-k8s.io/v1beta2
kind: ResourceFlavor
metadata: {name: tas}
spec: {topologyName: t}
---
apiVersion: v1
kind: Node
metadata:
  name: n1
  labels: {example.com/rack: r1, kubernetes.io/hostname: n1}
status:
  allocatable: {cpu: "8", pods: "110"}
---
apiVersion: v1
kind: Node
metadata:
  name: n2
  labels: {example.com/rack: r2, kubernetes.io/hostname: n2}
status:
  allocatable: {cpu: "8", pods: "110"}
---
apiVersion: kueue.x-k8s.io/v1beta2
kind: ClusterQueue
metadata: {name: team}
spec:
  namespaceSelector: {}
  resourceGroups:
  - coveredResources: [cpu]
    flavors:
    - name: tas
      resources:
      - {name: cpu, nominalQuota: 64}
---
apiVersion: kueue.x-k8s.io/v1beta2
kind: LocalQueue
metadata: {name: q, namespace: ml}
spec: {clusterQueue: team}
---
apiVersion: v1
kind: Namespace
metadata: {name: ml}
)",
                              lr, d);
    REQUIRE(!d.has_errors());
    auto scenario = [](const std::string& level) {
        return R"(localQueues:
- localQueue: ml/q
  workloadsSets:
  - count: 2
    creationIntervalMs: 1000
    workloads:
    - {className: train, runtimeMs: 5000, request: {cpu: 6}, podCount: 2, tasConstraint: required, tasLevel: )" +
               level + "}\n";
    };
    // Two pods of 6 cpu: never two on one 8-cpu node, so rack-required
    // (one node per rack) never fits; hostname level neither.
    auto r = run(scenario("example.com/rack"), d, lr.resources);
    CHECK(wl_class(r, "train").never_admitted == 2);
    Diagnostics d2;
    auto s = parse_ok(scenario("example.com/rak"));
    timeline::run(s, lr.resources, {}, d2);
    auto text = render_text(d2, {});
    CHECK(text.find("scenario.yaml:7:110: error: tasLevel: \"example.com/rak\" is not a level of any Topology in the site or "
                    "manifests given; did you mean \"example.com/rack\"? [timeline.invalid]") != std::string::npos);
}

// Kueue's configs/tas/generator.yaml (1 block x 10 racks x 64 nodes of 96
// cpu, required / preferred / balanced classes at the rack) with every
// workloadsSet count divided by 10 and one cohort: the same shapes, small.
TEST_CASE("timeline TAS: Kueue's scheduler-perf TAS configuration, scaled down, runs to the end", "[timeline][tas]") {
    auto s = parse_ok(R"(topology:
  name: "default-topology"
  levels:
    - name: block
      count: 1
      nodeLabel: "cloud.provider.com/topology-block"
    - name: rack
      count: 10
      nodeLabel: "cloud.provider.com/topology-rack"
    - name: node
      count: 64
      nodeLabel: "kubernetes.io/hostname"
      capacity:
        cpu: "96"
        memory: "256Gi"
resourceFlavor:
  name: "tas-flavor"
  nodeLabel: "tas-node-group"
  topologyName: "default-topology"
cohorts:
  - className: cohort
    count: 1
    queuesSets:
    - className: cq
      count: 6
      nominalQuota: "20"
      borrowingLimit: "100"
      reclaimWithinCohort: Any
      withinClusterQueue: LowerPriority
      workloadsSets:
      - {count: 12, creationIntervalMs: 100, workloads: [{className: small-required-rack, runtimeMs: 200, priority: 50, request: "500m", podCount: 2, tasConstraint: "required", tasLevel: "cloud.provider.com/topology-rack"}]}
      - {count: 12, creationIntervalMs: 100, workloads: [{className: small-preferred-rack, runtimeMs: 200, priority: 50, request: "500m", podCount: 2, tasConstraint: "preferred", tasLevel: "cloud.provider.com/topology-rack"}]}
      - {count: 11, creationIntervalMs: 100, workloads: [{className: small-balanced-rack, runtimeMs: 200, priority: 50, request: "500m", podCount: 2, tasConstraint: "balanced", tasLevel: "cloud.provider.com/topology-rack", sliceSize: 1}]}
      - {count: 4, creationIntervalMs: 500, workloads: [{className: medium-required-rack, runtimeMs: 500, priority: 100, request: "1250m", podCount: 4, tasConstraint: "required", tasLevel: "cloud.provider.com/topology-rack"}]}
      - {count: 3, creationIntervalMs: 500, workloads: [{className: medium-preferred-rack, runtimeMs: 500, priority: 100, request: "1250m", podCount: 4, tasConstraint: "preferred", tasLevel: "cloud.provider.com/topology-rack"}]}
      - {count: 3, creationIntervalMs: 500, workloads: [{className: medium-balanced-rack, runtimeMs: 500, priority: 100, request: "1250m", podCount: 4, tasConstraint: "balanced", tasLevel: "cloud.provider.com/topology-rack", sliceSize: 2}]}
      - {count: 2, creationIntervalMs: 1200, workloads: [{className: large-required-rack, runtimeMs: 1000, priority: 200, request: "2500m", podCount: 8, tasConstraint: "required", tasLevel: "cloud.provider.com/topology-rack"}]}
      - {count: 2, creationIntervalMs: 1200, workloads: [{className: large-preferred-rack, runtimeMs: 1000, priority: 200, request: "2500m", podCount: 8, tasConstraint: "preferred", tasLevel: "cloud.provider.com/topology-rack"}]}
      - {count: 1, creationIntervalMs: 1200, workloads: [{className: large-balanced-rack, runtimeMs: 1000, priority: 200, request: "2500m", podCount: 8, tasConstraint: "balanced", tasLevel: "cloud.provider.com/topology-rack", sliceSize: 4}]}
)");
    REQUIRE(s.topology);
    CHECK(s.topology->nodes == 640);
    Diagnostics d;
    auto r = timeline::run(s, {}, {}, d);
    INFO(render_text(d, {}));
    CHECK(!d.has_errors());
    CHECK(r.settled);
    CHECK(r.never_admitted.empty());
    CHECK(r.workloads == 6 * 50);
    CHECK(r.workload_classes.size() == 9);
    for (const auto& c : r.workload_classes) CHECK(c.finished == c.workloads);
    // 640 nodes of 96 cpu never bind 6 queues of 20 + 100 cpu: quota does,
    // so the queues are busy (Kueue's rangespec: cq usage >= 57%).
    REQUIRE(r.queue_classes.size() == 1);
    CHECK(r.queue_classes[0].average_usage_percent > 57.0);
}
