// Topology-aware scheduling in the simulator: Topology objects and Nodes
// become placement topologies, podsets on TAS flavors are placed as Kueue's
// scheduler places them (kueue ff69552e, flavorassigner TAS step,
// updateAssignmentForTAS, workloadFits, TASFlavorSnapshot.Fits), and the
// placement is part of the outcome.
#include "engines/scheduler/second_pass.hpp"
#include "sim_util.hpp"
#include "test_util.hpp"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <queueforge/base/yaml_load.hpp>
#include <queueforge/engines/scheduler_engine.hpp>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <map>
#include <set>
#include <string>

using namespace queueforge;

namespace {

using qf_sim::Run;

// Two racks of two nodes in one block, 1 cpu each, labelled pool: tas.
std::string nodes() {
    std::string out;
    const char* racks[] = {"r1", "r1", "r2", "r2"};
    for (int i = 0; i < 4; ++i) {
        out += "---\napiVersion: v1\nkind: Node\nmetadata:\n  name: x" + std::to_string(i + 1) +
               "\n  labels: {pool: tas, cloud.com/block: b1, cloud.com/rack: " + racks[i] +
               ", kubernetes.io/hostname: x" + std::to_string(i + 1) +
               "}\nstatus:\n  allocatable: {cpu: '1', pods: '10'}\n  conditions: [{type: Ready, status: 'True'}]\n";
    }
    return out;
}

const std::string kTopology = R"(
---
apiVersion: v1
kind: Namespace
metadata: {name: ns}
---
apiVersion: kueue.x-k8s.io/v1beta2
kind: Topology
metadata: {name: default}
spec:
  levels:
  - nodeLabel: cloud.com/block
  - nodeLabel: cloud.com/rack
  - nodeLabel: kubernetes.io/hostname
---
apiVersion: kueue.x-k8s.io/v1beta2
kind: ResourceFlavor
metadata: {name: tas}
spec: {nodeLabels: {pool: tas}, topologyName: default}
---
apiVersion: kueue.x-k8s.io/v1beta2
kind: ResourceFlavor
metadata: {name: plain}
)";

std::string queue(const std::string& flavors, const std::string& extra = "") {
    return "---\napiVersion: kueue.x-k8s.io/v1beta2\nkind: ClusterQueue\nmetadata: {name: cq}\nspec: {namespaceSelector: {}, " +
           extra + "resourceGroups: [{coveredResources: [cpu], flavors: [" + flavors +
           "]}]}\n---\napiVersion: kueue.x-k8s.io/v1beta2\nkind: LocalQueue\nmetadata: {name: lq, namespace: ns}\n"
           "spec: {clusterQueue: cq}\n";
}

const std::string kTasOnly = queue("{name: tas, resources: [{name: cpu, nominalQuota: '10'}]}");

std::string job(const std::string& name, int count, const std::string& topology, int priority = 0,
                const std::string& created = "2025-06-01T10:00:00Z") {
    return "---\napiVersion: kueue.x-k8s.io/v1beta2\nkind: Workload\nmetadata: {name: " + name +
           ", namespace: ns, creationTimestamp: '" + created + "'}\nspec: {queueName: lq, priority: " +
           std::to_string(priority) + ", podSets: [{name: main, count: " + std::to_string(count) +
           (topology.empty() ? "" : ", topologyRequest: {" + topology + "}") +
           ", template: {spec: {containers: [{name: c, resources: {requests: {cpu: '1'}}}]}}}]}\n";
}

// A workload holding quota with its pods on the named nodes, one each.
std::string running(const std::string& name, const std::vector<std::string>& hosts, int priority = 0) {
    std::string domains;
    for (const auto& h : hosts) domains += std::string(domains.empty() ? "" : ", ") + "{values: [" + h + "], count: 1}";
    const std::string n = std::to_string(hosts.size());
    return "---\napiVersion: kueue.x-k8s.io/v1beta2\nkind: Workload\nmetadata: {name: " + name +
           ", namespace: ns, creationTimestamp: '2025-06-01T08:00:00Z'}\nspec: {queueName: lq, priority: " +
           std::to_string(priority) + ", podSets: [{name: main, count: " + n +
           ", topologyRequest: {unconstrained: true}, template: {spec: {containers: [{name: c, resources: {requests: "
           "{cpu: '1'}}}]}}}]}\nstatus:\n  conditions: [{type: QuotaReserved, status: 'True', reason: QuotaReserved, "
           "message: x, lastTransitionTime: '2025-06-01T09:00:00Z'}]\n  admission: {clusterQueue: cq, podSetAssignments: "
           "[{name: main, count: " + n + ", flavors: {cpu: tas}, resourceUsage: {cpu: '" + n +
           "'}, topologyAssignment: {levels: [kubernetes.io/hostname], domains: [" + domains + "]}}]}\n";
}

std::string hosts(const scheduler::WorkloadOutcome& w) {
    REQUIRE(!w.assignments.empty());
    REQUIRE(w.assignments[0].topology_assignment);
    return topology::to_text(*w.assignments[0].topology_assignment);
}

}  // namespace

TEST_CASE("TAS: a rack-required podset is placed within one rack", "[sim][tas]") {
    Run r = qf_sim::run(kTopology + nodes() + kTasOnly + job("two", 2, "required: cloud.com/rack"));
    const auto& w = r.wl("two");
    REQUIRE(w.admitted);
    CHECK(hosts(w) == "x1: 1, x2: 1");
    CHECK(w.assignments[0].topology_flavor == "tas");
    CHECK_FALSE(r.has_rule("sim.not-simulated"));
}

TEST_CASE("TAS: more pods than any rack holds stay pending with Kueue's reason", "[sim][tas]") {
    Run r = qf_sim::run(kTopology + nodes() + kTasOnly + job("three", 3, "required: cloud.com/rack"));
    const auto& w = r.wl("three");
    CHECK_FALSE(w.admitted);
    CHECK(w.reason == "TopologyPlacementFailed");
    CHECK(w.message ==
          "couldn't assign flavors to pod set main: topology \"default\" allows to fit only 2 out of 3 pod(s)");
    // The quota alone would admit it; no placement ever will: a finding.
    const Diagnostic* d = r.find_rule("sim.never-admitted");
    REQUIRE(d != nullptr);
    CHECK(d->message.find("(TopologyPlacementFailed)") != std::string::npos);
}

TEST_CASE("TAS: a preferred podset spreads over racks when one is not enough", "[sim][tas]") {
    Run r = qf_sim::run(kTopology + nodes() + kTasOnly + job("three", 3, "preferred: cloud.com/rack"));
    const auto& w = r.wl("three");
    REQUIRE(w.admitted);
    CHECK(w.assignments[0].topology_assignment->domains.size() == 3);
}

TEST_CASE("TAS: running pods take their nodes, later placements go around them", "[sim][tas]") {
    Run r = qf_sim::run(kTopology + nodes() + kTasOnly + running("old", {"x1"}) + job("two", 2, "required: cloud.com/rack"));
    const auto& w = r.wl("two");
    REQUIRE(w.admitted);
    CHECK(hosts(w) == "x3: 1, x4: 1");
}

TEST_CASE("TAS: two workloads nominated in one cycle cannot take the same nodes", "[sim][tas]") {
    // Both fit alone on the empty block; the second is placed against the
    // first's usage (fits() finds no room, the assignment is recomputed).
    Run r = qf_sim::run(kTopology + nodes() + kTasOnly + job("a", 2, "required: cloud.com/rack") +
                        job("b", 2, "required: cloud.com/rack", 0, "2025-06-01T10:00:01Z") +
                        job("c", 1, "required: cloud.com/rack", 0, "2025-06-01T10:00:02Z"));
    CHECK(r.wl("a").admitted);
    CHECK(r.wl("b").admitted);
    CHECK_FALSE(r.wl("c").admitted);
    CHECK(hosts(r.wl("a")) == "x1: 1, x2: 1");
    CHECK(hosts(r.wl("b")) == "x3: 1, x4: 1");
}

TEST_CASE("TAS: fragmented free capacity makes room by preemption", "[sim][tas]") {
    // One low-priority pod in each rack: 2 cpus of quota are free, but no
    // rack has two free nodes. The high-priority rack-required job preempts.
    const std::string cq = queue("{name: tas, resources: [{name: cpu, nominalQuota: '4'}]}",
                                 "preemption: {withinClusterQueue: LowerPriority}, ");
    Run r = qf_sim::run(kTopology + nodes() + cq + running("low1", {"x1"}) + running("low2", {"x3"}) +
                        job("high", 2, "required: cloud.com/rack", 100));
    const auto& w = r.wl("high");
    REQUIRE(w.admitted);
    CHECK((r.wl("low1").preempted != r.wl("low2").preempted));
}

TEST_CASE("TAS: victims are chosen so that the placement fits, not only the quota", "[sim][tas]") {
    // Rack r1 is full (low1, low2), r2 has low3 on x3. Removing low1 alone
    // frees enough quota but no rack with two free nodes: Kueue's
    // workloadFits places the podset after each candidate, so low2 goes too
    // and low3 (higher priority, last in candidate order) stays.
    const std::string cq = queue("{name: tas, resources: [{name: cpu, nominalQuota: '4'}]}",
                                 "preemption: {withinClusterQueue: LowerPriority}, ");
    Run r = qf_sim::run(kTopology + nodes() + cq + running("low1", {"x1"}) + running("low2", {"x2"}) +
                        running("low3", {"x3"}, 10) + job("high", 2, "required: cloud.com/rack", 100));
    // Both in the first cycle: one preemption that makes the placement fit
    // (victims picked by quota alone would take one per cycle).
    CHECK(r.wl("low1").preempted_in_cycle == 1);
    CHECK(r.wl("low2").preempted_in_cycle == 1);
    CHECK_FALSE(r.wl("low3").preempted);
    REQUIRE(r.wl("high").admitted);
    CHECK(hosts(r.wl("high")) == "x1: 1, x2: 1");
}

TEST_CASE("TAS: a podset without a request cannot use a TAS flavor of a mixed queue", "[sim][tas]") {
    const std::string cq = queue("{name: tas, resources: [{name: cpu, nominalQuota: '10'}]}, "
                                 "{name: plain, resources: [{name: cpu, nominalQuota: '10'}]}");
    Run r = qf_sim::run(kTopology + nodes() + cq + job("plainjob", 1, "") + job("tasjob", 1, "required: cloud.com/rack"));
    CHECK(r.flavor("plainjob") == "plain");
    CHECK(r.flavor("tasjob") == "tas");
    CHECK_FALSE(r.wl("plainjob").assignments[0].topology_assignment);
}

TEST_CASE("TAS: a podset on a TAS-only queue gets the implied request", "[sim][tas]") {
    Run r = qf_sim::run(kTopology + nodes() + kTasOnly + job("implied", 4, ""));
    const auto& w = r.wl("implied");
    REQUIRE(w.admitted);
    CHECK(w.assignments[0].topology_assignment->domains.size() == 4);
    Run full = qf_sim::run(kTopology + nodes() + kTasOnly + job("five", 5, ""));
    CHECK_FALSE(full.wl("five").admitted);
}

TEST_CASE("TAS: a level the topology lacks makes the flavor not match", "[sim][tas]") {
    Run r = qf_sim::run(kTopology + nodes() + kTasOnly + job("zone", 1, "required: cloud.com/zone"));
    const auto& w = r.wl("zone");
    CHECK_FALSE(w.admitted);
    CHECK(w.reason == "NoMatchingFlavor");
    CHECK(w.message.find("Flavor \"tas\" does not contain the requested level") != std::string::npos);
}

TEST_CASE("TAS: a missing Topology makes the ClusterQueue inactive", "[sim][tas]") {
    std::string yaml = kTopology + nodes() + kTasOnly + job("j", 1, "required: cloud.com/rack");
    yaml.replace(yaml.find("topologyName: default"), 21, "topologyName: nosuch ");
    Run r = qf_sim::run(yaml);
    CHECK_FALSE(r.wl("j").admitted);
    REQUIRE(r.result.cluster_queues.size() == 1);
    CHECK(r.result.cluster_queues[0].inactive_reason == "TopologyNotFound");
    CHECK(r.has_rule("sim.inactive-cluster-queue"));
}

TEST_CASE("TAS: without nodes, placement is not simulated and the warning says how to give them", "[sim][tas]") {
    Run r = qf_sim::run(kTopology + kTasOnly + job("three", 3, "required: cloud.com/rack"));
    CHECK(r.wl("three").admitted);
    const Diagnostic* d = r.find_rule("sim.not-simulated");
    REQUIRE(d != nullptr);
    CHECK(d->message.find("Node objects") != std::string::npos);
    CHECK(d->mark.line > 0);
}

TEST_CASE("TAS: a v1beta2 sliced topologyAssignment is read as the pods per node", "[sim][tas]") {
    // x1 and x2 as one slice of individual hostnames: rack r1 is full.
    std::string run2 = running("old", {"x1", "x2"});
    const std::string v1 = "topologyAssignment: {levels: [kubernetes.io/hostname], domains: [{values: [x1], count: 1}, "
                           "{values: [x2], count: 1}]}";
    const std::string v2 = "topologyAssignment: {levels: [kubernetes.io/hostname], slices: [{domainCount: 2, "
                           "valuesPerLevel: [{individual: {prefix: x, roots: ['1', '2']}}], podCounts: {universal: 1}}]}";
    REQUIRE(run2.find(v1) != std::string::npos);
    run2.replace(run2.find(v1), v1.size(), v2);
    Run r = qf_sim::run(kTopology + nodes() + kTasOnly + run2 + job("two", 2, "required: cloud.com/rack"));
    REQUIRE(r.wl("two").admitted);
    CHECK(hosts(r.wl("two")) == "x3: 1, x4: 1");
}

namespace {

// The kind cluster of Kueue's TAS samples (kind-cluster.yaml) as Node
// objects: each worker with its labels, its hostname and, since kind nodes
// report their host's capacity, an assumed 8 cpu, 16Gi and 110 pods.
std::string kind_nodes(const std::filesystem::path& kind_cluster, std::map<std::string, std::string>& rack_of) {
    Diagnostics d;
    LoadedResources lr;
    auto docs = load_yaml(kind_cluster.string(), qf_test::read_text(kind_cluster), d);
    REQUIRE(docs.size() == 1);
    std::string out;
    int i = 0;
    for (const auto& n : docs[0].root.find("nodes")->items()) {
        if (n.find("role")->text() != "worker") continue;
        const std::string name = "kind-worker" + (i++ ? std::to_string(i) : std::string());
        std::string labels = "kubernetes.io/hostname: " + name;
        for (const auto& e : n.find("labels")->entries()) labels += ", " + e.key + ": " + e.value.text();
        rack_of[name] = n.find("labels")->find("cloud.provider.com/topology-block")->text() + "/" +
                        n.find("labels")->find("cloud.provider.com/topology-rack")->text();
        out += "---\napiVersion: v1\nkind: Node\nmetadata: {name: " + name + ", labels: {" + labels +
               "}}\nstatus: {allocatable: {cpu: '8', memory: 16Gi, pods: '110'}}\n";
    }
    return out;
}

}  // namespace

TEST_CASE("TAS: Kueue's TAS samples simulate as Kueue places them", "[sim][tas][shared]") {
    auto shared = qf_test::shared_dir();
    if (!shared) {
        WARN("skipped: ../shared (Kueue's TAS samples) is not beside this checkout");
        return;
    }
    const auto dir = *shared / "upstream" / "kueue-examples" / "tas";
    std::map<std::string, std::string> rack_of;
    qf_test::TempDir tmp;
    qf_test::write_text(tmp.path / "nodes.yaml", kind_nodes(dir / "kind-cluster.yaml", rack_of));
    REQUIRE(rack_of.size() == 8);
    const std::string base = qf_test::shell_quote((dir / "sample-queues.yaml").string()) + " " +
                             qf_test::shell_quote((tmp.path / "nodes.yaml").string()) + " ";

    // The rack-required job: 10 pods of 1 cpu, all in one rack (2 nodes of 8 cpu).
    auto r = qf_test::run_cli("simulate " + base + qf_test::shell_quote((dir / "sample-job-required.yaml").string()) + " -o json");
    INFO(r.err);
    REQUIRE(r.exit == 0);
    auto j = nlohmann::json::parse(r.out);
    REQUIRE(j["workloads"].size() == 1);
    const auto& psa = j["workloads"][0]["admission"]["podSetAssignments"][0];
    REQUIRE(psa.contains("topologyAssignment"));
    std::set<std::string> racks;
    int pods = 0;
    for (const auto& d : psa["topologyAssignment"]["domains"]) {
        racks.insert(rack_of.at(d["values"].back().get<std::string>()));
        pods += d["count"].get<int>();
    }
    CHECK(racks.size() == 1);
    CHECK(pods == 10);

    // All three together (40 + 10 + 6 pods on 64 cpu): the block-preferred
    // job (40 pods, 32 cpu per block) spreads over both blocks, the
    // rack-required one still shares one rack.
    r = qf_test::run_cli("simulate " + base + qf_test::shell_quote((dir / "sample-job-preferred.yaml").string()) + " " +
                         qf_test::shell_quote((dir / "sample-job-required.yaml").string()) + " " +
                         qf_test::shell_quote((dir / "sample-job-unconstrained.yaml").string()) + " -o json");
    INFO(r.out);
    j = nlohmann::json::parse(r.out);
    REQUIRE(j["workloads"].size() == 3);
    for (const auto& w : j["workloads"]) {
        REQUIRE(w["status"] == "Admitted");
        std::set<std::string> blocks, racks_of_w;
        for (const auto& d : w["admission"]["podSetAssignments"][0]["topologyAssignment"]["domains"]) {
            const std::string rack = rack_of.at(d["values"].back().get<std::string>());
            racks_of_w.insert(rack);
            blocks.insert(rack.substr(0, rack.find('/')));
        }
        const std::string name = w["name"];
        if (name.find("required") != std::string::npos) CHECK(racks_of_w.size() == 1);
        if (name.find("preferred") != std::string::npos) CHECK(blocks.size() == 2);
    }
}

TEST_CASE("TAS: examples/tas places its samples as its expectations say", "[sim][tas][examples]") {
    auto r = qf_test::run_cli("simulate " + qf_test::shell_quote((qf_test::source_dir() / "examples" / "tas").string()) +
                              " -o json");
    INFO(r.err);
    REQUIRE(r.exit == 0);
    auto j = nlohmann::json::parse(r.out);
    std::map<std::string, nlohmann::json> by_name;
    for (const auto& w : j["workloads"]) by_name[w["name"].get<std::string>()] = w;
    REQUIRE(by_name.count("rack-64"));
    // Rack-required: the 8 nodes of one rack (hostnames pool-blockB-rackR-nN).
    std::set<std::string> racks;
    for (const auto& d : by_name["rack-64"]["admission"]["podSetAssignments"][0]["topologyAssignment"]["domains"]) {
        const std::string host = d["values"].back();
        racks.insert(host.substr(0, host.rfind("-n")));
    }
    CHECK(racks.size() == 1);
    CHECK(by_name["rack-72"]["status"] == "Pending");
    CHECK(by_name["rack-72"]["reason"] == "TopologyPlacementFailed");  // Kueue's QuotaReserved=False reason
    CHECK(by_name["rack-64"]["reason"].is_null());
    auto text = qf_test::run_cli("simulate " + qf_test::shell_quote((qf_test::source_dir() / "examples" / "tas").string()));
    CHECK(text.out.find("      TopologyPlacementFailed: couldn't assign flavors to pod set main: topology \"fabric\"") !=
          std::string::npos);
    CHECK(by_name["rack-72"]["message"].get<std::string>().find("allows to fit only 8 out of 9 pod(s)") != std::string::npos);
    CHECK(by_name["prefer-rack-72"]["status"] == "Admitted");
}

TEST_CASE("TAS: nodes from a kubectl get nodes List, and a node without a level label is reported", "[sim][tas]") {
    // `kubectl get nodes -o yaml` is one List; x4 lost its rack label.
    std::string list = "---\napiVersion: v1\nkind: List\nitems:\n";
    const char* racks[] = {"r1", "r1", "r2", ""};
    for (int i = 0; i < 4; ++i) {
        std::string labels = "{pool: tas, cloud.com/block: b1, kubernetes.io/hostname: x" + std::to_string(i + 1);
        if (*racks[i]) labels += std::string(", cloud.com/rack: ") + racks[i];
        list += "- apiVersion: v1\n  kind: Node\n  metadata:\n    name: x" + std::to_string(i + 1) + "\n    labels: " + labels +
                "}\n  status:\n    allocatable: {cpu: '1', pods: '10'}\n    conditions: [{type: Ready, status: 'True'}]\n";
    }
    Run r = qf_sim::run(kTopology + list + kTasOnly + job("two", 2, "required: cloud.com/rack") +
                        job("three", 3, "", 0, "2025-06-01T10:00:01Z"));
    REQUIRE(r.wl("two").admitted);
    CHECK(hosts(r.wl("two")) == "x1: 1, x2: 1");
    // Three pods, implied placement: x3 is the only node left with room.
    CHECK_FALSE(r.wl("three").admitted);
    bool reported = false;
    for (const auto& d : r.diags.all())
        if (d.message.find("x4") != std::string::npos && d.message.find("no cloud.com/rack label") != std::string::npos) {
            reported = true;
            CHECK(d.mark.line > 0);
        }
    CHECK(reported);
}

TEST_CASE("TAS: more nodes than the topology limit is a clear error", "[sim][tas]") {
    std::vector<Resource> objects;
    {
        LoadedResources lr;
        Diagnostics d;
        load_resources_from_text("sim.yaml", kTopology + kTasOnly, lr, d);
        objects = std::move(lr.resources);
    }
    for (std::size_t i = 0; i <= topology::kMaxNodes; ++i) {
        Resource n;
        n.file = "nodes.yaml";
        n.ref = {"v1", "Node", "", "n" + std::to_string(i)};
        n.doc = Node::mapping();
        Node meta = Node::mapping();
        meta.set("name", Node::string(n.ref.name));
        n.doc.set("metadata", std::move(meta));
        objects.push_back(std::move(n));
    }
    Diagnostics diags;
    auto result = scheduler::simulate(objects, {}, diags);
    bool limit = false;
    for (const auto& d : diags.all())
        limit = limit || (d.severity == Severity::Error && d.message.find("more than the limit of 100000") != std::string::npos);
    CHECK(limit);
}

TEST_CASE("TAS: a sliced topologyAssignment cannot make the simulator expand without bound", "[sim][tas][badinput]") {
    // Three slices claiming 999,999,999 domains each, 40 levels: read as at
    // most 100,000 domains of at most 16 values in all.
    std::string levels;
    for (int i = 0; i < 40; ++i) levels += std::string(i ? ", " : "") + "{universal: x1}";
    std::string slice = "{domainCount: 999999999, valuesPerLevel: [" + levels + "], podCounts: {universal: 1}}";
    std::string run = running("old", {"x1"});
    const std::string v1 = "domains: [{values: [x1], count: 1}]";
    REQUIRE(run.find(v1) != std::string::npos);
    run.replace(run.find(v1), v1.size(), "slices: [" + slice + ", " + slice + ", " + slice + "]");
    const auto start = std::chrono::steady_clock::now();
    Run r = qf_sim::run(kTopology + nodes() + kTasOnly + run + job("two", 2, "required: cloud.com/rack"));
    CHECK(std::chrono::steady_clock::now() - start < std::chrono::seconds(20));
    CHECK(r.wl("old").admitted);
}

TEST_CASE("TAS: pods already running on the nodes outside TAS take their room", "[sim][tas]") {
    // A DaemonSet-like pod of 1 cpu on x1 and a finished one on x3: rack r1
    // has one free node, r2 two.
    const std::string pods = R"(
---
apiVersion: v1
kind: Pod
metadata: {name: agent, namespace: ns}
spec:
  nodeName: x1
  containers: [{name: c, resources: {requests: {cpu: '1'}}}]
status: {phase: Running}
---
apiVersion: v1
kind: Pod
metadata: {name: done, namespace: ns}
spec:
  nodeName: x3
  containers: [{name: c, resources: {requests: {cpu: '1'}}}]
status: {phase: Succeeded}
---
apiVersion: v1
kind: Pod
metadata:
  name: tas-pod
  namespace: ns
  annotations: {kueue.x-k8s.io/podset-required-topology: cloud.com/rack}
spec:
  nodeName: x4
  containers: [{name: c, resources: {requests: {cpu: '1'}}}]
status: {phase: Running}
)";
    Run r = qf_sim::run(kTopology + nodes() + pods + kTasOnly + job("two", 2, "required: cloud.com/rack"));
    REQUIRE(r.wl("two").admitted);
    // Not x1 (the agent's), and x3/x4 are free: the TAS pod is counted
    // through its Workload, the finished pod not at all.
    CHECK(hosts(r.wl("two")) == "x3: 1, x4: 1");
}

TEST_CASE("TAS: simulate reads a bound Pod as cluster state, not as a sample", "[sim][tas][cli]") {
    qf_test::TempDir tmp;
    qf_test::write_text(tmp.path / "cluster.yaml", kTopology + nodes() + kTasOnly);
    qf_test::write_text(tmp.path / "pods.yaml", R"(apiVersion: v1
kind: Pod
metadata: {name: agent, namespace: ns}
spec:
  nodeName: x1
  containers: [{name: c, resources: {requests: {cpu: '1'}}}]
status: {phase: Running}
)");
    qf_test::write_text(tmp.path / "job.yaml", job("two", 2, "required: cloud.com/rack"));
    auto r = qf_test::run_cli("simulate " + qf_test::shell_quote(tmp.path.string()) + " -o json");
    INFO(r.err);
    REQUIRE(r.exit == 0);
    auto j = nlohmann::json::parse(r.out);
    REQUIRE(j["workloads"].size() == 1);
    const auto& domains = j["workloads"][0]["admission"]["podSetAssignments"][0]["topologyAssignment"]["domains"];
    REQUIRE(domains.size() == 2);
    CHECK(domains[0]["values"][0] == "x3");
}

TEST_CASE("TAS: a Topology whose levels Kueue would refuse is an error at the Topology", "[sim][tas][badinput]") {
    for (const std::string& levels : {std::string("[{nodeLabel: cloud.com/rack}, {nodeLabel: cloud.com/rack}]"),
                                      std::string("[{nodeLabel: kubernetes.io/hostname}, {nodeLabel: cloud.com/rack}]")}) {
        std::string yaml = kTopology + nodes() + kTasOnly + job("j", 1, "required: cloud.com/rack");
        const std::string from = "  levels:\n  - nodeLabel: cloud.com/block\n  - nodeLabel: cloud.com/rack\n"
                                 "  - nodeLabel: kubernetes.io/hostname\n";
        REQUIRE(yaml.find(from) != std::string::npos);
        yaml.replace(yaml.find(from), from.size(), "  levels: " + levels + "\n");
        Run r = qf_sim::run(yaml);
        const Diagnostic* d = nullptr;
        for (const auto& x : r.diags.all())
            if (x.severity == Severity::Error && x.message.find("Topology \"default\" cannot be used") != std::string::npos) d = &x;
        INFO(levels);
        REQUIRE(d != nullptr);
        CHECK(d->mark.line > 0);
        CHECK_FALSE(r.wl("j").admitted);
    }
}

TEST_CASE("TAS: whatever the mix, no node holds more pods than it has room for", "[sim][tas]") {
    // 60 workloads of 1-cpu pods in every request mode and priority on the
    // four 1-cpu nodes, with preemption: at the end each node runs at most
    // one pod, and every admitted pod is on a node.
    const std::string cq = queue("{name: tas, resources: [{name: cpu, nominalQuota: '10'}]}",
                                 "preemption: {withinClusterQueue: LowerPriority}, ");
    std::string yaml = kTopology + nodes() + cq;
    const char* modes[] = {"required: cloud.com/rack", "preferred: cloud.com/rack", "unconstrained: true",
                           "required: cloud.com/block", "", "podSetSliceRequiredTopology: cloud.com/rack, podSetSliceSize: 2"};
    std::uint32_t s = 7;
    for (int i = 0; i < 60; ++i) {
        s = s * 1103515245u + 12345u;
        const int count = 1 + static_cast<int>((s >> 16) % 4);
        const std::string mode = modes[(s >> 8) % 6];
        const bool slices = mode.find("SliceSize") != std::string::npos;
        char created[32];
        std::snprintf(created, sizeof created, "2025-06-01T10:%02d:%02dZ", i / 60, i % 60);
        yaml += job("w" + std::to_string(i), slices ? 2 * ((count + 1) / 2) : count, mode, static_cast<int>((s >> 4) % 3) * 10,
                    created);
    }
    Run r = qf_sim::run(yaml);
    REQUIRE(r.result.topologies.size() == 1);
    int placed = 0;
    for (const auto& leaf : r.result.topologies[0].leaves) {
        int pods = 0;
        for (const auto& [w, n] : leaf.pods) pods += n;
        INFO(leaf.values.back());
        CHECK(pods <= 1);
        placed += pods;
    }
    int admitted_pods = 0;
    for (const auto& w : r.result.workloads)
        if (w.admitted) admitted_pods += w.assignments[0].count;
    CHECK(placed == admitted_pods);
    CHECK(admitted_pods > 0);
}

TEST_CASE("TAS: nodes without a level label are reported twenty at a time, then counted", "[sim][tas]") {
    std::string extra;
    for (int i = 0; i < 30; ++i)
        extra += "---\napiVersion: v1\nkind: Node\nmetadata:\n  name: bare" + std::to_string(i) +
                 "\n  labels: {pool: tas}\nstatus:\n  allocatable: {cpu: '1', pods: '10'}\n";
    Run r = qf_sim::run(kTopology + nodes() + extra + kTasOnly + job("two", 2, "required: cloud.com/rack"));
    int per_node = 0, summary = 0;
    for (const auto& d : r.diags.all()) {
        if (d.message.find("but no cloud.com/block label") != std::string::npos) ++per_node;
        if (d.message.find("10 more Nodes with the labels of TAS flavor tas") != std::string::npos) ++summary;
    }
    CHECK(per_node == 20);
    CHECK(summary == 1);
    CHECK(r.wl("two").admitted);
}

// Kueue's second scheduling pass (ff69552e scheduler.go, pkg/workload
// NeedsSecondPass): a workload already holding quota is scheduled again to
// move the pods of a failed node, or to place the topology a
// ProvisioningRequest check delayed.
namespace {

// `running` on `on` nodes, Admitted, with status.unhealthyNodes.
std::string failed(const std::string& name, const std::vector<std::string>& on, const std::vector<std::string>& unhealthy) {
    std::string w = running(name, on);
    const std::string conds = "  conditions: [{type: QuotaReserved, status: 'True', reason: QuotaReserved, ";
    REQUIRE(w.find(conds) != std::string::npos);
    w.replace(w.find(conds), conds.size(),
              "  conditions: [{type: Admitted, status: 'True', reason: Admitted, message: x, lastTransitionTime: "
              "'2025-06-01T09:00:00Z'}, {type: QuotaReserved, status: 'True', reason: QuotaReserved, ");
    std::string list;
    for (const auto& n : unhealthy) list += std::string(list.empty() ? "" : ", ") + "{name: " + n + "}";
    w += "  unhealthyNodes: [" + list + "]\n";
    return w;
}

// A ClusterQueue whose flavor tas has a ProvisioningRequest admission check.
const std::string kProvReq = R"(
---
apiVersion: kueue.x-k8s.io/v1beta2
kind: AdmissionCheck
metadata: {name: prov}
spec: {controllerName: kueue.x-k8s.io/provisioning-request}
)" + queue("{name: tas, resources: [{name: cpu, nominalQuota: '10'}]}",
           "admissionChecksStrategy: {admissionChecks: [{name: prov, onFlavors: [tas]}]}, ");

// Workload p (2 pods, rack-required) held by the first pass on kProvReq's
// queue: quota reserved on tas, delayedTopologyRequest Pending, not placed.
std::string delayed_p() {
    return "---\napiVersion: kueue.x-k8s.io/v1beta2\nkind: Workload\nmetadata: {name: p, namespace: ns, creationTimestamp: "
           "'2025-06-01T10:00:00Z'}\nspec: {queueName: lq, podSets: [{name: main, count: 2, topologyRequest: {required: "
           "cloud.com/rack}, template: {spec: {containers: [{name: c, resources: {requests: {cpu: '1'}}}]}}}]}\nstatus:\n"
           "  conditions: [{type: QuotaReserved, status: 'True', reason: QuotaReserved, message: x, lastTransitionTime: "
           "'2025-06-01T10:00:00Z'}]\n  admission: {clusterQueue: cq, podSetAssignments: [{name: main, count: 2, flavors: "
           "{cpu: tas}, resourceUsage: {cpu: '2'}, delayedTopologyRequest: Pending}]}\n";
}

}  // namespace

TEST_CASE("TAS second pass: the pods of a failed node move to a healthy one", "[sim][tas][second-pass]") {
    // x0 is gone (no such Node); its pod moves, the pod on x1 stays.
    Run r = qf_sim::one_cycle(kTopology + nodes() + kTasOnly + failed("w", {"x0", "x1"}, {"x0"}));
    const auto& w = r.wl("w");
    REQUIRE(w.admitted);
    CHECK(hosts(w) == "x1: 1, x2: 1");
    CHECK(w.replaced_nodes == std::vector<std::string>{"x0"});
    CHECK(w.unhealthy_nodes.empty());
    REQUIRE(w.second_pass_in_cycle);
    CHECK(*w.second_pass_in_cycle == 1);
    CHECK_FALSE(w.admitted_in_cycle);  // the quota was held before: no new admission
    CHECK(w.eviction_reason.empty());
    // The repaired placement is what the nodes hold: a 3-pod job finds only x3 and x4.
    Run r2 = qf_sim::run(kTopology + nodes() + kTasOnly + failed("w", {"x0", "x1"}, {"x0"}) +
                         job("next", 3, "unconstrained: true"));
    CHECK(hosts(r2.wl("w")) == "x1: 1, x2: 1");
    CHECK_FALSE(r2.wl("next").admitted);
}

TEST_CASE("TAS second pass: the replacement stays in the rack a required podset asked for", "[sim][tas][second-pass]") {
    // Rack-required on r1 (x0 was in r1 too): x2 is the only room left in r1,
    // although x3 and x4 in r2 are free.
    std::string w = failed("w", {"x0", "x1"}, {"x0"});
    w.replace(w.find("unconstrained: true"), std::string("unconstrained: true").size(), "required: cloud.com/rack");
    Run r = qf_sim::one_cycle(kTopology + nodes() + kTasOnly + w);
    REQUIRE(r.wl("w").admitted);
    CHECK(hosts(r.wl("w")) == "x1: 1, x2: 1");
}

TEST_CASE("TAS second pass: no room for a failed node's pods evicts the workload", "[sim][tas][second-pass]") {
    // Every node holds one of its pods: nowhere to move the pod of x0.
    // Kueue (TASFailedNodeReplacementFailFast, on) evicts it with
    // EvictedDueToNodeFailures; the quota is released after the cycle.
    const std::string in = kTopology + nodes() + kTasOnly + failed("w", {"x0", "x1", "x2", "x3", "x4"}, {"x0"});
    Run r = qf_sim::one_cycle(in);
    const auto& w = r.wl("w");
    CHECK(w.admitted);  // evicted, quota not yet released
    CHECK(w.eviction_reason == "EvictedDueToNodeFailures");
    CHECK(w.eviction_message == "Workload was evicted as there was no replacement for unhealthy node(s): x0");
    CHECK_FALSE(w.preempted);
    CHECK(hosts(w) == "x0: 1, x1: 1, x2: 1, x3: 1, x4: 1");
    // Run on: the workload controller releases the quota and requeues it; 5
    // pods never fit on 4 nodes.
    Run all = qf_sim::run(in);
    const auto& w2 = all.wl("w");
    CHECK_FALSE(w2.admitted);
    CHECK(w2.reason == "TopologyPlacementFailed");
    CHECK(w2.unhealthy_nodes.empty());  // Evict resets status.unhealthyNodes
    // The engine says so to the timeline: an eviction, not a preemption.
    LoadedResources lr;
    Diagnostics d;
    load_resources_from_text("sim.yaml", in, lr, d);
    scheduler::Engine e(lr.resources, d);
    const int id = e.workload_id("ns", "w");
    REQUIRE(id >= 0);
    const scheduler::CycleEvents ev = e.cycle(0);
    CHECK(ev.node_failure_evicted == std::vector<int>{id});
    CHECK(ev.evicted.empty());
    CHECK(ev.preemptions.empty());
}

TEST_CASE("TAS second pass: an unhealthy node that holds none of its pods is ignored", "[sim][tas][second-pass][badinput]") {
    // workload.HasTopologyAssignmentWithUnhealthyNode is false for a node
    // outside the placement (x3, a node it does not use; x7, no node at all):
    // no second pass, the placement and status.unhealthyNodes stay as given.
    Run r = qf_sim::one_cycle(kTopology + nodes() + kTasOnly + failed("w", {"x1", "x2"}, {"x3", "x7"}));
    const auto& w = r.wl("w");
    REQUIRE(w.admitted);
    CHECK(hosts(w) == "x1: 1, x2: 1");
    CHECK_FALSE(w.second_pass_in_cycle);
    CHECK(w.replaced_nodes.empty());
    CHECK(w.unhealthy_nodes == std::vector<std::string>{"x3", "x7"});
    CHECK(w.eviction_reason.empty());
    // Only the first unhealthy node is replaced (findReplacementAssignment
    // takes status.unhealthyNodes[0]); a placement on the second only
    // triggers the pass.
    Run r2 = qf_sim::one_cycle(kTopology + nodes() + kTasOnly + failed("w", {"x1", "x0"}, {"x0", "x7"}));
    CHECK(hosts(r2.wl("w")) == "x1: 1, x2: 1");
}

TEST_CASE("TAS second pass: a ProvisioningRequest check delays the topology until it is Ready", "[sim][tas][second-pass]") {
    // First pass: quota reserved, topology Pending, nothing placed.
    Run r = qf_sim::one_cycle(kTopology + nodes() + kProvReq + job("p", 2, "required: cloud.com/rack"));
    const auto& p = r.wl("p");
    REQUIRE(p.admitted);
    REQUIRE(p.assignments.size() == 1);
    CHECK(p.assignments[0].delayed_topology_request == "Pending");
    CHECK_FALSE(p.assignments[0].topology_assignment);
    CHECK(p.assignments[0].flavors.at("cpu") == "tas");
    // Nothing runs yet: the nodes stay free for others.
    CHECK(r.result.topologies.size() == 1);
    for (const auto& leaf : r.result.topologies[0].leaves) CHECK(leaf.pods.empty());

    // The same workload as Kueue leaves it, with its check Pending, then
    // Ready: the second pass places it and marks the request Ready.
    const std::string held = delayed_p();
    Run pending = qf_sim::one_cycle(kTopology + nodes() + kProvReq + held +
                                    "  admissionChecks: [{name: prov, state: Pending, lastTransitionTime: "
                                    "'2025-06-01T10:00:00Z', message: ''}]\n");
    CHECK(pending.wl("p").assignments[0].delayed_topology_request == "Pending");
    CHECK_FALSE(pending.wl("p").second_pass_in_cycle);

    Run ready = qf_sim::one_cycle(kTopology + nodes() + kProvReq + held +
                                  "  admissionChecks: [{name: prov, state: Ready, lastTransitionTime: "
                                  "'2025-06-01T10:00:00Z', message: ''}]\n");
    const auto& q = ready.wl("p");
    REQUIRE(q.admitted);
    CHECK(q.assignments[0].delayed_topology_request == "Ready");
    CHECK(hosts(q) == "x1: 1, x2: 1");
    REQUIRE(q.second_pass_in_cycle);
    CHECK(*q.second_pass_in_cycle == 1);
}

TEST_CASE("TAS second pass: blockAdmission does not hold a second pass", "[sim][tas][second-pass]") {
    // waitForPodsReady.blockAdmission with pods not ready holds the next
    // admission (scheduler.go waitForPodsReadyIfNeeded), but a workload in
    // its second pass returns before the wait (NeedsSecondPass): the held
    // workload p is placed, the new one q waits.
    const std::string held = delayed_p() +
        "  admissionChecks: [{name: prov, state: Ready, lastTransitionTime: '2025-06-01T10:00:00Z', message: ''}]\n";
    LoadedResources lr;
    Diagnostics d;
    load_resources_from_text("sim.yaml", kTopology + nodes() + kProvReq + held + job("q", 1, "required: cloud.com/rack"), lr, d);
    scheduler::Engine e(lr.resources, d);
    e.set_block_after_admission(true, /*pods_not_ready=*/true);
    const scheduler::CycleEvents ev = e.cycle(0);
    CHECK(ev.waiting_for_pods_ready == e.workload_id("ns", "q"));
    CHECK(ev.admitted.empty());
    const auto res = e.result(false, d);
    bool placed = false;
    for (const auto& w : res.workloads)
        if (w.name == "p") placed = w.second_pass_in_cycle.has_value() && w.assignments[0].delayed_topology_request == "Ready";
    CHECK(placed);
}

TEST_CASE("TAS second pass: a delayed topology that does not fit yet is retried", "[sim][tas][second-pass]") {
    // Both racks hold a pod: no rack has room for two. The second pass fails
    // (Kueue: event SecondPassFailed, back to the second-pass queue with
    // backoff); the quota stays reserved and the topology Pending.
    const std::string held =
        "---\napiVersion: kueue.x-k8s.io/v1beta2\nkind: Workload\nmetadata: {name: p, namespace: ns, creationTimestamp: "
        "'2025-06-01T10:00:00Z'}\nspec: {queueName: lq, podSets: [{name: main, count: 2, topologyRequest: {required: "
        "cloud.com/rack}, template: {spec: {containers: [{name: c, resources: {requests: {cpu: '1'}}}]}}}]}\nstatus:\n"
        "  conditions: [{type: QuotaReserved, status: 'True', reason: QuotaReserved, message: x, lastTransitionTime: "
        "'2025-06-01T10:00:00Z'}]\n  admission: {clusterQueue: cq, podSetAssignments: [{name: main, count: 2, flavors: "
        "{cpu: tas}, resourceUsage: {cpu: '2'}, delayedTopologyRequest: Pending}]}\n  admissionChecks: [{name: prov, "
        "state: Ready, lastTransitionTime: '2025-06-01T10:00:00Z', message: ''}]\n";
    Run r = qf_sim::run(kTopology + nodes() + kProvReq + running("a", {"x1"}) + running("b", {"x3"}) + held);
    const auto& p = r.wl("p");
    REQUIRE(p.admitted);
    CHECK(p.assignments[0].delayed_topology_request == "Pending");
    CHECK_FALSE(p.assignments[0].topology_assignment);
    CHECK_FALSE(p.second_pass_message.empty());
    CHECK(r.result.converged);
}

TEST_CASE("TAS second pass: simulate's text output tells a repaired and a delayed placement", "[sim][tas][second-pass][cli]") {
    qf_test::TempDir tmp;
    qf_test::write_text(tmp.path / "cluster.yaml", kTopology + nodes() + kProvReq);
    std::string w = failed("w", {"x0", "x1"}, {"x0"});
    qf_test::write_text(tmp.path / "running.yaml", w);
    qf_test::write_text(tmp.path / "job.yaml", job("p", 2, "required: cloud.com/rack"));
    auto r = qf_test::run_cli("simulate " + qf_test::shell_quote(tmp.path.string()));
    INFO(r.out << r.err);
    REQUIRE(r.exit == 0);
    CHECK(r.out.find("second pass: pods moved off unhealthy node(s) x0") != std::string::npos);
    CHECK(r.out.find("topology of main delayed: quota reserved, placed in a second pass once its ProvisioningRequest "
                     "admission check is Ready") != std::string::npos);
    auto j = qf_test::run_cli("simulate " + qf_test::shell_quote(tmp.path.string()) + " -o json");
    REQUIRE(j.exit == 0);
    auto doc = nlohmann::json::parse(j.out);
    for (const auto& x : doc["workloads"]) {
        if (x["name"] == "p")
            CHECK(x["admission"]["podSetAssignments"][0]["delayedTopologyRequest"] == "Pending");
        if (x["name"] == "w") {
            CHECK(x["secondPass"]["replacedNodes"] == nlohmann::json::array({"x0"}));
            CHECK(x["evictionReason"].is_null());
        }
    }
}

TEST_CASE("TAS second pass: the queue's backoff is Kueue's (1 s, doubling, at most 30 s)", "[sim][tas][second-pass]") {
    using queueforge::scheduler::detail::SecondPassQueue;
    constexpr std::int64_t s = 1000000000LL;
    CHECK(SecondPassQueue::delay(1) == 1 * s);
    CHECK(SecondPassQueue::delay(2) == 2 * s);
    CHECK(SecondPassQueue::delay(3) == 4 * s);
    CHECK(SecondPassQueue::delay(5) == 16 * s);
    CHECK(SecondPassQueue::delay(6) == 30 * s);
    CHECK(SecondPassQueue::delay(40) == 30 * s);

    // A workload holding quota whose delayed topology waits for its checks.
    queueforge::scheduler::detail::Model m;
    queueforge::scheduler::detail::Workload w;
    w.holds = true;
    w.checks = 1;
    w.checks_ready = true;
    w.admission.push_back({"main", 1, {}, {}, "Pending"});
    m.wls.push_back(w);
    SecondPassQueue q;
    q.queue_initial(m, 0);
    REQUIRE(q.has_ready(0));
    auto heads = q.take_ready(0);
    REQUIRE(heads.size() == 1);
    CHECK(heads[0].iteration == 1);
    CHECK(q.empty());
    // Failed: back with iteration 2, ready 2 s later, not before.
    CHECK(q.queue_if_needed(m, 0, heads[0].iteration, 10 * s));
    CHECK_FALSE(q.queue_if_needed(m, 0, 1, 10 * s));  // already queued (prequeueIfAbsent)
    CHECK_FALSE(q.has_ready(11 * s));
    REQUIRE(q.has_ready(12 * s));
    heads = q.take_ready(12 * s);
    REQUIRE(heads.size() == 1);
    CHECK(heads[0].iteration == 2);
    // Not needed any more (checks no longer all Ready): not queued, and gone.
    m.wls[0].checks_ready = false;
    CHECK_FALSE(q.queue_if_needed(m, 0, heads[0].iteration, 20 * s));
    CHECK(q.empty());
    // Neither is a workload without quota, nor an Admitted one.
    m.wls[0].checks_ready = true;
    m.wls[0].admitted_cond = true;
    q.queue_initial(m, 0);
    CHECK(q.empty());
}
