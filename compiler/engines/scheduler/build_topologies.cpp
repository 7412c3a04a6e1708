// Topology-Aware Scheduling inputs: Kueue `Topology` objects and the
// cluster's `Node`s become one placement topology per TAS flavor
// (engines/topology). Kueue ff69552e: pkg/cache/scheduler/clusterqueue.go
// (a TAS flavor whose Topology is missing makes its ClusterQueues inactive,
// TopologyNotFound; isTASOnly), tas_cache.go / tas_nodes_cache.go (the nodes
// a flavor's snapshot holds), pkg/util/tas/node.go.
#include "engines/scheduler/cluster_state.hpp"
#include "engines/scheduler/tas.hpp"

#include <queueforge/base/tas_annotations.hpp>
#include <queueforge/model/cluster.hpp>

namespace queueforge::scheduler::detail {

namespace {

// A v1 Node as Kueue's TAS node cache reads it: labels, status.allocatable,
// spec.taints, spec.unschedulable and the Ready condition. A Node without
// conditions (written by hand) counts as Ready; Ready=False or Unknown
// leaves it out, as Kueue does.
topology::Node node_of(const Reader& rd) {
    topology::Node n;
    const Node* meta = rd.map_at(&rd.r.doc, "metadata");
    n.name = rd.r.ref.name;
    n.labels = rd.string_map(meta, "labels");
    const Node* spec = rd.map_at(&rd.r.doc, "spec");
    n.taints = rd.taints(rd.seq_at(spec, "taints"));
    n.unschedulable = rd.bool_at(spec, "unschedulable").value_or(false);
    const Node* status = rd.map_at(&rd.r.doc, "status");
    for (const auto& [res, q] : rd.resource_list(status, "allocatable", "status.allocatable"))
        n.allocatable[res] = resource_value(res, q);
    if (const Node* conds = rd.seq_at(status, "conditions"))
        for (const auto& c : conds->items())
            if (c.is_map() && rd.str_at(&c, "type") == "Ready") n.ready = rd.str_at(&c, "status") == "True";
    return n;
}

// tas_non_tas_pod_cache.go / pod_usage_controller.go belongsToNonTASCache: a
// Pod bound to a node (spec.nodeName), not Succeeded or Failed, without
// Kueue's podset topology annotations (pkg/util/tas IsTAS) takes its
// requests plus one `pods` from that node.
void add_non_tas_usage(const Reader& rd, Model& m, std::map<std::string, topology::Amounts>& usage) {
    const Node* spec = rd.map_at(&rd.r.doc, "spec");
    const std::string node = rd.str_at(spec, "nodeName");
    if (node.empty()) return;
    const std::string phase = rd.str_at(rd.map_at(&rd.r.doc, "status"), "phase");
    if (phase == "Succeeded" || phase == "Failed") return;
    for (const auto& [k, v] : rd.string_map(rd.map_at(&rd.r.doc, "metadata"), "annotations"))
        if (tas_annotations::marks_tas_pod(k)) return;
    std::vector<std::string> invalid, limits;
    const PodSetRequests reqs = podset_requests(rd, spec, 0, 1, nullptr, m.config, m, invalid, limits);
    topology::Amounts& u = usage[node];
    for (const auto& [res, q] : reqs.pod) u[res] += resource_value(res, q);
    u["pods"] += 1;
}

}  // namespace

void build_topologies(const Inputs& in, Model& m, Diagnostics& diags) {
    std::map<std::string, const Resource*> topologies;
    for (const Resource* r : in.topologies) topologies.emplace(r->ref.name, r);

    bool any_tas = false;
    for (const auto& f : m.flavors) any_tas = any_tas || !f.topology_name.empty();
    if (!any_tas) return;

    if (in.nodes.empty()) {
        // Without the nodes every placement would fail: say so once and
        // keep to quota, as before topology was modelled.
        for (const auto& rf : in.cluster.flavors) {
            if (rf.topology_name.empty()) continue;
            Reader rd{*in.cluster_objects[static_cast<std::size_t>(rf.source)], diags};
            const Node* spec = rd.map_at(&rd.r.doc, "spec");
            rd.warning(spec ? spec->find("topologyName") : nullptr,
                       "topology-aware scheduling needs the cluster's nodes: give Node objects (kubectl get nodes "
                       "-o yaml) or a pool's topology.shape in the site; without them quota is checked, topology "
                       "placement is not",
                       "sim.not-simulated");
            break;
        }
        for (auto& f : m.flavors) {
            f.unsimulated_topology = !f.topology_name.empty();
            f.topology_name.clear();
        }
        return;
    }

    std::map<std::string, topology::Amounts> non_tas;
    for (const Resource* r : in.pods) add_non_tas_usage(Reader{*r, diags}, m, non_tas);
    std::vector<topology::Node> nodes;
    nodes.reserve(in.nodes.size());
    for (const Resource* r : in.nodes) {
        nodes.push_back(node_of(Reader{*r, diags}));
        if (auto it = non_tas.find(nodes.back().name); it != non_tas.end()) nodes.back().non_tas_usage = it->second;
    }

    for (const auto& rf : in.cluster.flavors) {
        if (rf.topology_name.empty()) continue;
        const int fid = m.flavor_id(rf.name);
        auto it = topologies.find(rf.topology_name);
        if (it == topologies.end()) continue;  // TopologyNotFound below
        Reader rd{*it->second, diags};
        topology::TopologySpec spec;
        spec.name = rf.topology_name;
        if (const Node* levels = rd.seq_at(rd.map_at(&rd.r.doc, "spec"), "levels"))
            for (const auto& l : levels->items()) spec.levels.push_back(rd.str_at(&l, "nodeLabel"));
        spec.flavor_node_labels = rf.node_labels;
        spec.flavor_tolerations.insert(spec.flavor_tolerations.end(), rf.tolerations.begin(), rf.tolerations.end());
        spec.nodes = nodes;
        // A node with the flavor's labels but without a level label is left
        // out by Kueue without a word (pkg/util/tas/node.go): say so here,
        // for the first kMaxReported of them, then how many more.
        constexpr int kMaxReported = 20;
        int unlabelled = 0;
        for (std::size_t i = 0; i < nodes.size(); ++i) {
            const auto& n = nodes[i];
            bool flavor_node = true;
            for (const auto& [k, v] : spec.flavor_node_labels) {
                auto l = n.labels.find(k);
                if (l == n.labels.end() || l->second != v) flavor_node = false;
            }
            if (!flavor_node) continue;
            for (const auto& level : spec.levels)
                if (!n.labels.count(level)) {
                    if (++unlabelled > kMaxReported) break;
                    Reader nr{*in.nodes[i], diags};
                    nr.warning(nr.map_at(nr.map_at(&nr.r.doc, "metadata"), "labels"),
                               "has the labels of TAS flavor " + rf.name + " but no " + level + " label; Kueue leaves it "
                               "out of Topology \"" + spec.name + "\", so no pod is placed on it",
                               "sim.invalid");
                    break;
                }
        }
        if (unlabelled > kMaxReported)
            rd.warning(nullptr, std::to_string(unlabelled - kMaxReported) + " more Nodes with the labels of TAS flavor " +
                                    rf.name + " lack a level label and are left out",
                       "sim.invalid");
        std::string error;
        auto topo = topology::Topology::build(spec, &error);
        if (!topo) {
            rd.error(nullptr, "Topology \"" + spec.name + "\" cannot be used for flavor " + rf.name + ": " + error,
                     "sim.invalid");
            continue;
        }
        m.flavors[fid].tas = static_cast<int>(m.tas.size());
        m.tas.push_back({fid, std::move(*topo)});
    }

    for (std::size_t ci = 0; ci < m.cqs.size(); ++ci) {
        ClusterQueue& cq = m.cqs[ci];
        bool all = !cq.rgs.empty();
        for (const auto& rg : cq.rgs)
            for (int f : rg.flavors) {
                const Flavor& flavor = m.flavors[f];
                cq.has_tas = cq.has_tas || !flavor.topology_name.empty();
                all = all && !flavor.topology_name.empty();
                if (!flavor.topology_name.empty() && flavor.exists && flavor.tas < 0 &&
                    !topologies.count(flavor.topology_name) && cq.active) {
                    cq.active = false;
                    cq.inactive_reason = "TopologyNotFound";
                    const int src = in.cluster.cluster_queues[ci].source;
                    Reader rd{*in.cluster_objects[static_cast<std::size_t>(src)], diags};
                    rd.warning(nullptr,
                               "there is no Topology \"" + flavor.topology_name + "\" for TAS flavor \"" + flavor.name +
                                   "\"; the ClusterQueue is inactive (TopologyNotFound) and admits nothing",
                               "sim.inactive-cluster-queue");
                }
            }
        cq.tas_only = all;
    }
}

}  // namespace queueforge::scheduler::detail
