#pragma once
// `queueforge queues --namespace NS`: the tenant's view of a cluster, "which
// queues can I submit to here, and what fits?". For one namespace:
//
//  - every LocalQueue in it, with its ClusterQueue and cohort, and whether a
//    workload submitted to it can be admitted at all (the ClusterQueue exists,
//    its namespaceSelector selects the namespace, neither queue is stopped,
//    its flavors exist, its cohort chain has no cycle);
//  - every HardwareProfile of type Queue the OpenShift AI dashboard offers in
//    it: profiles in the namespace itself or in the dashboard's application
//    namespace (redhat-ods-applications, opendatahub), whose
//    spec.scheduling.kueue.localQueueName exists in the namespace (the
//    dashboard hides the others, odh-dashboard #8404), not disabled
//    (annotation opendatahub.io/disabled);
//  - per flavor of the ClusterQueue and resource: nominal, guaranteed and
//    maximum burst (the capacity engine's figures, capacity.hpp), the
//    allocatable of the flavor's largest node and the largest pod that fits:
//    min(maximum burst, that node's allocatable), on the node whose capped
//    shape is largest (accelerators first, then cpu, then memory);
//  - the flavor's node taints its tolerations do not cover: the tolerations a
//    pod needs to land there (Kueue injects only the flavor's own).
//
// Nodes come from a site's pools (per-node allocatable) and from Node objects
// whose labels carry a flavor's nodeLabels (a kubectl dump).
#include <queueforge/base/diagnostics.hpp>
#include <queueforge/base/quantity.hpp>
#include <queueforge/frontend/manifests.hpp>

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace queueforge::tenant {

// One node shape of a flavor: a site pool (count = its nodes) or one Node.
struct NodeShape {
    std::string flavor;
    std::string name;  // "pool h100" or the Node's name
    std::int64_t count = 1;
    std::map<std::string, Quantity> allocatable;
};

struct Inputs {
    std::vector<Resource> objects;  // manifests, and each site's compiled objects
    std::vector<NodeShape> nodes;   // site pools; Node objects are matched to flavors later
    std::string target;             // the sites' target ("" without a site)
    std::vector<SourceText> sources;
};

// Reads sites (files of kind Site, or folders holding queueforge-site.yaml)
// and manifests as one cluster; sites are compiled for their target, or for
// `target` when it is set. nullopt when the input has errors (in `diags`).
std::optional<Inputs> load(const std::vector<std::string>& paths, const std::string& target, Diagnostics& diags);

struct ResourceFit {
    std::string resource;
    std::string nominal, guaranteed, max_burst;  // canonical quantities
    std::optional<std::string> node;             // allocatable of the chosen node; nullopt: unknown
    std::optional<std::string> largest_pod;      // nullopt when no node of the flavor is known
};

struct FlavorFit {
    std::string flavor;
    std::string node;               // the node (shape) the largest pod is measured on; "" none known
    std::int64_t nodes = 0;         // nodes known for the flavor
    std::vector<std::string> taints;  // "key=value:Effect" the pod must tolerate
    std::vector<ResourceFit> resources;  // coveredResources order
};

struct Identifier {
    std::string identifier, display_name, resource_type;
    std::string min, default_, max;  // as written; "" when absent
};

struct Queue {
    std::string kind;  // "LocalQueue" | "HardwareProfile"
    std::string namespace_, name;
    std::string display_name;      // HardwareProfile: annotation opendatahub.io/display-name
    std::string local_queue;       // HardwareProfile: spec.scheduling.kueue.localQueueName; LocalQueue: its name
    std::string priority_class;    // HardwareProfile: spec.scheduling.kueue.priorityClass
    std::vector<Identifier> identifiers;  // HardwareProfile
    std::string cluster_queue, cohort;
    bool usable = true;
    std::string problem;           // why not, when not usable
    std::vector<FlavorFit> flavors;
};

struct Report {
    std::string namespace_;
    std::string target;
    std::vector<Queue> queues;  // LocalQueues by name, then HardwareProfiles by namespace and name
    bool any_usable() const;
};

Report view(const Inputs& in, const std::string& ns);

// Aligned text: one block per queue.
std::string render_text(const Report& r);
// -o json, keys in this order:
//   {apiVersion: queueforge.io/v1alpha1, kind: TenantQueues, namespace, target,
//    queues: [{kind, namespace, name, displayName?, localQueue, priorityClass?,
//              identifiers?: [{identifier, displayName, resourceType, min, default, max}],
//              clusterQueue, cohort, usable, problem,
//              flavors: [{flavor, node, nodes, taints, resources: [{resource, nominal,
//                         guaranteed, maxBurst, node, largestPod}]}]}]}
// unknown figures as null.
std::string render_json(const Report& r);

}  // namespace queueforge::tenant
