#pragma once
// Building the simulator's Model from input objects. Split by topic:
// cluster_state.cpp (dispatch, namespaces, priority classes, names),
// build_config.cpp (Kueue Configuration), build_queues.cpp (flavors, cohorts,
// ClusterQueues, LocalQueues, the quota tree), build_workloads.cpp.
#include "engines/scheduler/model.hpp"
#include "engines/scheduler/parse_util.hpp"
#include "engines/scheduler/requests.hpp"

#include <queueforge/base/diagnostics.hpp>
#include <queueforge/model/cluster.hpp>
#include <queueforge/frontend/manifests.hpp>

#include <map>
#include <string>
#include <vector>

namespace queueforge::scheduler::detail {

// Objects grouped by kind, duplicates dropped, each list in a canonical order
// (so that shuffled input gives the same model).
struct Inputs {
    std::vector<const Resource*> flavors, cohorts, cluster_queues, local_queues, workloads, namespaces,
        limit_ranges, priority_classes, configs, admission_checks, topologies, nodes, pods;
    // The typed cluster of the flavors, cohorts, ClusterQueues, LocalQueues
    // and priority classes above (in that order: `cluster_objects`, which
    // the model's `source` indexes).
    std::vector<const Resource*> cluster_objects;
    model::Cluster cluster;
};

// What reading a Workload needs besides the queues: LimitRanges per
// namespace and WorkloadPriorityClass values.
struct WorkloadContext {
    std::map<std::string, LimitRangeSummary> limit_ranges;
    std::map<std::string, std::int32_t> priority_classes;
};

// The whole model, workloads indexed. `keep` receives the workload context
// for add_workloads.
Model build_model(const std::vector<Resource>& objects, Diagnostics& diags, WorkloadContext* keep = nullptr);

void build_config(const Inputs& in, Config& cfg, Diagnostics& diags);
void build_queues(const Inputs& in, Model& m, Diagnostics& diags);
// Topology objects and Nodes: one placement topology per TAS flavor, the
// ClusterQueues' TAS flags, TopologyNotFound (build_topologies.cpp).
void build_topologies(const Inputs& in, Model& m, Diagnostics& diags);
// Reads Namespaces (their labels) into m.namespaces.
void add_namespaces(const std::vector<const Resource*>& namespaces, Model& m, Diagnostics& diags);
// Reads Workloads into m.wls (appended, not yet in order).
void add_workloads(const std::vector<const Resource*>& workloads, Model& m, const WorkloadContext& ctx,
                   Diagnostics& diags);
// Sorts m.wls by namespace/name and lists the quota holders per ClusterQueue.
void index_workloads(Model& m);

// Warns when `name` is not a DNS-1123 subdomain (what an API server requires).
void check_object_name(const Reader& rd, const std::string& what, const std::string& name);

}  // namespace queueforge::scheduler::detail
