// Run:ai's placement settings against what Kueue can say.
//
// Network topology → Kueue Topology. Run:ai's network topology (REST API
// /api/v1/network-topologies: a name and ordered node-label levels) is
// attached to node pools (networkTopologyId); Run:ai then gives every
// distributed workload a *preferred* constraint at the lowest level by itself
// (docs.nvidia.com/run-ai, topology-aware-scheduling/workload-based-topology-
// placement). The site's `topologies` and a pool's `topology: {name, shape}`
// make the Topology and the flavor's spec.topologyName; Kueue gives a workload
// without a topology annotation in a TAS-only ClusterQueue an unconstrained
// request, so the preferred level is the jobs' annotation to add.
//
// Bin packing / spread → TAS profiles. Kueue ff69552e
// pkg/cache/scheduler/tas_flavor_snapshot.go: sortedDomains orders domains
// for BestFit by free capacity descending and then takes the tightest domain
// that still fits (findBestFitDomain: the fewest domains), and for
// LeastFreeCapacity by free capacity ascending (the fullest domains first);
// useLeastFreeCapacityAlgorithm = the podset is unconstrained and
// TASProfileMixed is on. pkg/features/kube_features.go: TASProfileMixed alpha
// (off) in 0.10, beta (on) from 0.15; TASBalancedPlacement alpha (off) from
// 0.15, which balances slices over the fewest domains. No profile spreads
// pods. Kueue picks nodes only when kubernetes.io/hostname is the lowest
// level; otherwise the kube-scheduler picks them within the assigned domain.
// Run:ai's strategies are the KAI scheduler's SchedulingShard
// placementStrategy {gpu, cpu}, binpack by default (KAI 72de64fc
// pkg/apis/kai/v1/schedulingshard_types.go SetDefaultWhereNeeded), which
// pack nodes and, with fractions, GPUs within a node.
//
// DRA DeviceClasses → deviceClassMappings. Kueue ff69552e
// apis/config/v1beta2/configuration_types.go: Configuration
// resources.deviceClassMappings [{name, deviceClassNames}], `name` the
// resource ClusterQueue quotas name (a DNS label, or a DNS subdomain prefix,
// '/', and a DNS label). pkg/dra/claims.go countDevicesPerClass: a claim
// counts its requests' exact device counts per class (allocationMode All is
// refused), so quota counts whole devices. Feature gate: DynamicResourceAllocation,
// alpha (off) from 0.14, renamed KueueDRAIntegration and beta (on) in 0.18
// (60615af2, "Rename DRA feature gates"). On OpenShift AI the Red Hat build
// of Kueue's `Kueue` CR serves spec.config.resources from operator 1.4
// (include/queueforge/frontend/kueue_operator.hpp). The site carries the
// mappings in spec.kueueOperator (OpenShift AI) or spec.kueueConfig (plain
// Kueue), which turns the gate on where it is needed.
#include "integrations/import/runai/placement.hpp"
#include <queueforge/base/text.hpp>

#include <queueforge/base/names.hpp>
#include <queueforge/frontend/kueue_operator.hpp>
#include <queueforge/frontend/platform.hpp>

#include <set>

namespace queueforge::importer::runai::detail {

namespace {

std::string join(const std::vector<std::string>& v, std::string_view sep = ", ") { return queueforge::join(v, sep); }

std::string shape_text(const std::vector<std::int64_t>& shape) {
    std::string out;
    for (auto v : shape) out += (out.empty() ? "" : ", ") + std::to_string(v);
    return "[" + out + "]";
}

// The quota resource a DeviceClass is counted as: its name as the prefix
// (a DNS subdomain) and "devices" (a DNS label), a valid Kueue resource name.
std::string mapped_resource(const std::string& device_class) { return device_class + "/devices"; }

// Where the target's Kueue takes deviceClassMappings, or why it cannot.
struct DraHome {
    bool possible = false;
    std::string where;  // "spec.kueueOperator.deviceClassMappings (...)", ...
    std::string why_not;
};

DraHome dra_home(const std::optional<Target>& t) {
    DraHome h;
    if (!t) {
        h.why_not = "the target is unknown";
        return h;
    }
    const Version kueue = t->kueue;
    if (platform::kueue_from_operator(*t, false)) {
        auto op = platform::kueue_operator_for_kueue(kueue);
        if (op && op->resources) {
            h.possible = true;
            h.where = "spec.kueueOperator.deviceClassMappings (the Kueue CR's spec.config.resources)";
        } else {
            h.why_not = "the Red Hat build of Kueue operator of this target" +
                        (op ? " (" + op->release.to_string() + ", Kueue " + kueue.to_string() + ")" : std::string()) +
                        " has no spec.config.resources; operator 1.4 (Kueue 0.18) serves deviceClassMappings";
        }
        return h;
    }
    if (kueue < Version{0, 14, 0}) {
        h.why_not = "Kueue " + kueue.to_string() + " does not count DRA devices (DynamicResourceAllocation arrived in 0.14)";
        return h;
    }
    if (t->platform == Platform::OpenShiftAI) {
        h.why_not = "OpenShift AI " + t->release.to_string() +
                    " configures its embedded Kueue itself; the Red Hat build of Kueue's CR serves deviceClassMappings "
                    "from operator 1.4 (OpenShift AI 3.5)";
        return h;
    }
    h.possible = true;
    h.where = "spec.kueueConfig.deviceClassMappings (Kueue's Configuration resources.deviceClassMappings";
    if (kueue < Version{0, 18, 0}) h.where += ", with the feature gate DynamicResourceAllocation the site turns on";
    h.where += ")";
    return h;
}

}  // namespace

Placement placement(const Organization& org, const std::string& target) {
    Placement out;
    const auto lookup = find_target(target);
    const std::optional<Target>& t = lookup.target;
    const bool tas = t && t->kueue >= Version{0, 14, 0};  // TAS beta, on by default (README: topologies)
    const bool mixed_profile = t && t->kueue >= Version{0, 15, 0};
    auto item = [&](const std::string& pool, std::string setting, std::string runai, std::string kueue,
                    std::string status, std::string note) {
        out.pool_items[pool].push_back({"node pool " + pool, std::move(setting), std::move(runai), std::move(kueue),
                                        std::move(status), std::move(note)});
    };

    bool all_pools_tas = true;
    for (const auto& p : org.pools) all_pools_tas = all_pools_tas && !p.topology.empty() && !p.topology_shape.empty();

    std::set<std::string> emitted_topologies;
    for (const auto& p : org.pools) {
        const NetworkTopology* topo = p.topology.empty() ? nullptr : org.topology(p.topology);
        bool placed = false;  // the pool's flavor is topology-aware in the site
        std::string lowest;
        if (topo && !topo->levels.empty()) {
            lowest = topo->levels.back();
            const std::string runai = topo->name + ": levels " + join(topo->levels);
            if (!tas) {
                item(p.name, "network topology", runai, "", "not expressible",
                     "this target's Kueue " + (t ? t->kueue.to_string() : std::string("?")) +
                         " has no topology-aware scheduling (beta from 0.14)");
            } else if (p.topology_shape.empty()) {
                item(p.name, "network topology", runai, "", "not expressible",
                     "the site's pool topology needs the node inventory: add topologyShape to the node pool (the "
                     "domains per parent at each level that is not kubernetes.io/hostname, then the nodes per lowest "
                     "domain, from kubectl get nodes -L " +
                         join(topo->levels, ",") + ")");
            } else {
                placed = true;
                if (emitted_topologies.insert(topo->name).second) {
                    Node tn = Node::mapping();
                    tn.set("name", Node::string(topo->name));
                    Node levels = Node::sequence();
                    for (const auto& l : topo->levels) levels.push(Node::string(l));
                    tn.set("levels", std::move(levels));
                    out.topologies.push(std::move(tn));
                }
                Node pt = Node::mapping();
                pt.set("name", Node::string(topo->name));
                Node shape = Node::sequence();
                for (auto v : p.topology_shape) shape.push(Node::integer(v));
                pt.set("shape", std::move(shape));
                out.pool_topology[p.name] = std::move(pt);
                std::string note =
                    "Run:ai gives every distributed workload a preferred constraint at the lowest level by itself; "
                    "Kueue places a workload without a topology annotation as unconstrained: add "
                    "kueue.x-k8s.io/podset-preferred-topology: " +
                    lowest + " to the jobs' pod templates for the same";
                if (!all_pools_tas)
                    note += ". A project whose quota also names a pool without a topology gets a ClusterQueue that "
                            "mixes topology-aware and other flavors, where Kueue admits a workload without a topology "
                            "annotation only on the other flavors";
                item(p.name, "network topology", runai,
                     "Topology " + topo->name + " and pool topology.shape " + shape_text(p.topology_shape) +
                         " (ResourceFlavor spec.topologyName)",
                     "approximated", note);
            }
        }

        // Bin packing / spread, per resource, when the export says it or a
        // topology makes it a question for Kueue.
        if (!p.gpu_strategy.empty() || !p.cpu_strategy.empty() || topo) {
            for (const auto& [res, written] : {std::pair<std::string, std::string>{"gpu", p.gpu_strategy},
                                               std::pair<std::string, std::string>{"cpu", p.cpu_strategy}}) {
                const std::string strategy = written.empty() ? "binpack" : written;
                const std::string runai = written.empty() ? "binpack (KAI's default)" : written;
                const std::string setting = res + " placement strategy";
                const bool hostname_lowest = lowest == kHostnameLabel;
                if (!placed) {
                    item(p.name, setting, runai, "", "not expressible",
                         std::string("no network topology with a topologyShape, so Kueue does not place pods; the "
                                     "kube-scheduler does (") +
                             (strategy == "binpack"
                                  ? "packing needs a scheduler profile with NodeResourcesFit MostAllocated, outside Kueue)"
                                  : "its default NodeResourcesFit LeastAllocated scoring spreads, outside Kueue)"));
                    continue;
                }
                if (strategy == "spread") {
                    item(p.name, setting, runai, "", "not expressible",
                         std::string("Kueue's topology-aware profiles (BestFit, LeastFreeCapacity, and the alpha "
                                     "TASBalancedPlacement, which balances slices over the fewest domains) all "
                                     "concentrate pods; none spreads them") +
                             (hostname_lowest ? ", and with kubernetes.io/hostname as the lowest level Kueue picks "
                                                "the nodes itself, so the kube-scheduler cannot spread them either"
                                              : ""));
                    continue;
                }
                std::string kueue = mixed_profile
                                        ? "TAS: LeastFreeCapacity (the fullest domains first) for podsets without a "
                                          "topology request (TASProfileMixed, beta, on by default since 0.15), BestFit "
                                          "(the fewest domains) for required or preferred ones"
                                        : "TAS BestFit (the fewest domains; TASProfileMixed is alpha, off, before 0.15)";
                std::string note = hostname_lowest
                                       ? "Kueue packs domains down to the nodes (kubernetes.io/hostname is the lowest "
                                         "level); packing fractions onto one GPU has no equivalent"
                                       : "the lowest level is " + lowest +
                                             ", so Kueue packs domains and the kube-scheduler picks the nodes within "
                                             "them by its own scoring (LeastAllocated by default, which spreads); add "
                                             "kubernetes.io/hostname as the lowest level to pack nodes";
                if (res == "cpu") note += "; Kueue has one profile for all resources: the cpu and gpu strategies are not told apart";
                item(p.name, setting, runai, kueue, "approximated", note);
            }
        }

        // Node-level scheduler options: the pool's KAI scheduler shard.
        for (const auto& [key, value] : p.scheduler_options) {
            std::string why = "a setting of the pool's own scheduler (KAI SchedulingShard); Kueue has one scheduler "
                              "and no settings per ResourceFlavor";
            if (key == "minRuntime")
                why += "; it preempts and reclaims without a minimum runtime";
            else if (key == "kValue")
                why += "; its fair sharing compares current shares (see historical fairness)";
            item(p.name, "scheduler option " + key, value, "", "not expressible", why);
        }

        // DRA DeviceClasses.
        if (!p.device_classes.empty()) {
            const DraHome h = dra_home(t);
            std::vector<std::string> names;
            for (const auto& dc : p.device_classes) names.push_back(mapped_resource(dc) + " <- " + dc);
            if (!h.possible) {
                item(p.name, "GPU fractions as DRA DeviceClasses", "deviceClasses " + join(p.device_classes), "",
                     "not expressible", h.why_not);
            } else {
                std::vector<std::string> res;
                for (const auto& dc : p.device_classes) res.push_back(mapped_resource(dc));
                item(p.name, "GPU fractions as DRA DeviceClasses", "deviceClasses " + join(p.device_classes),
                     "deviceClassMappings " + join(names) + " in " + h.where,
                     "approximated",
                     "Kueue counts whole devices per claim (a request's exact count; allocationMode All is refused), "
                     "so a fraction becomes a claim on a partitioned class (MIG, or a class with counters); dynamic "
                     "fractions have no equivalent; give the teams quota of " +
                         join(res) + " in this pool");
            }
        }
    }

    // The site's mappings, one per DeviceClass over all pools.
    std::set<std::string> classes;
    for (const auto& p : org.pools)
        for (const auto& dc : p.device_classes) classes.insert(dc);
    if (!classes.empty() && dra_home(t).possible) {
        for (const auto& dc : classes) {
            Node m = Node::mapping();
            m.set("name", Node::string(mapped_resource(dc)));
            Node names = Node::sequence();
            names.push(Node::string(dc));
            m.set("deviceClassNames", std::move(names));
            out.device_class_mappings.push(std::move(m));
        }
    }

    // The organisation-wide summary of GPU fractions.
    std::string mig;
    for (const auto& p : org.pools)
        for (const auto& [k, v] : p.allocatable)
            if (k.rfind("nvidia.com/mig-", 0) == 0) mig += (mig.empty() ? "" : ", ") + p.name + " " + k;
    std::string dra;
    for (const auto& p : org.pools)
        if (!p.device_classes.empty()) dra += (dra.empty() ? "" : ", ") + p.name + " " + join(p.device_classes, " ");
    const std::string o = "organization";
    if (mig.empty() && dra.empty()) {
        out.organization_items.push_back(
            {o, "GPU fractions and dynamic fractions", "per workload", "", "not expressible",
             "the export declares no MIG profiles (allocatable nvidia.com/mig-*) and no DRA deviceClasses on its "
             "pools; Kueue counts whole nvidia.com/gpu devices (MIG profiles become resources of their own, e.g. "
             "nvidia.com/mig-1g.10gb)"});
    } else {
        std::string kueue;
        if (!mig.empty()) kueue = "MIG profiles the pools declare: " + mig;
        if (!dra.empty()) kueue += (kueue.empty() ? "" : "; ") + std::string("DRA DeviceClasses the pools declare: ") + dra;
        out.organization_items.push_back(
            {o, "GPU fractions and dynamic fractions", "per workload", kueue, "approximated",
             "a fraction becomes the nearest MIG profile or partitioned device the workload requests; the projects' "
             "quota is in whole GPUs, so give the profiles or mapped resources quota in the site's teams (dynamic "
             "fractions have no equivalent)"});
    }
    bool any_placement = false;
    for (const auto& p : org.pools)
        any_placement = any_placement || !p.gpu_strategy.empty() || !p.cpu_strategy.empty() || !p.topology.empty();
    if (!any_placement)
        out.organization_items.push_back(
            {o, "bin packing / spread (node-level scheduler)", "cluster or node-pool setting", "", "not expressible",
             "node placement is the kube-scheduler's; Topology Aware Scheduling needs a topology the export does not "
             "declare (networkTopologies and a node pool's networkTopologyId with topologyShape)"});
    return out;
}

}  // namespace queueforge::importer::runai::detail
