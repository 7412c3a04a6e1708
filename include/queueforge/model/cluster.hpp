#pragma once
// One typed Kueue cluster, read once from objects (a site's lowering, manifest
// files, a kubectl dump). API-version spellings (ClusterQueue cohort /
// cohortName, Cohort parent / parentName) are resolved by the builder;
// consumers read the typed fields. (validate's rules still point at the one
// field each API version defines, since that is where a finding belongs.)
// Kinds are matched by name, whatever their API group.
//
// Quotas are kept as Quantity: the API's own exact type (nano units in 128
// bits, never rounded, with its spelling family so reports write amounts as
// the manifests do). The scheduler's arithmetic uses Kueue's int64 amounts
// (model/amount.hpp); kueue_amount() is the one conversion between the two.
#include <queueforge/model/cohort_cycles.hpp>
#include <queueforge/model/selector.hpp>
#include <queueforge/base/node.hpp>
#include <queueforge/base/object.hpp>
#include <queueforge/base/quantity.hpp>
#include <queueforge/frontend/manifests.hpp>

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace queueforge::model {

struct ResourceQuota {
    std::string name;
    std::optional<Quantity> nominal, borrowing_limit, lending_limit;  // nullopt: absent or not a quantity
    friend bool operator==(const ResourceQuota&, const ResourceQuota&) = default;
};
struct FlavorQuotas {
    std::string name;
    std::vector<ResourceQuota> resources;
    friend bool operator==(const FlavorQuotas&, const FlavorQuotas&) = default;
};
struct ResourceGroup {
    std::vector<std::string> covered_resources;
    std::vector<FlavorQuotas> flavors;
    friend bool operator==(const ResourceGroup&, const ResourceGroup&) = default;
};

struct ResourceFlavor {
    std::string name;
    Labels node_labels;
    std::vector<Taint> node_taints;
    std::vector<Toleration> tolerations;
    std::string topology_name;
    int source = -1;  // index of the object it was read from
};

struct Preemption {
    std::string within_cluster_queue = "Never";
    std::string reclaim_within_cohort = "Never";
    std::string borrow_within_cohort = "Never";
    std::optional<std::int64_t> max_priority_threshold;
    friend bool operator==(const Preemption&, const Preemption&) = default;
};

// As written ("" when unset; Kueue's defaults are the reader's).
struct FlavorFungibility {
    std::string when_can_borrow, when_can_preempt, preference;
    friend bool operator==(const FlavorFungibility&, const FlavorFungibility&) = default;
};

struct ClusterQueue {
    std::string name;
    Labels labels;
    std::string cohort;  // empty: none
    std::vector<ResourceGroup> resource_groups;
    Preemption preemption;
    FlavorFungibility flavor_fungibility;
    std::optional<Quantity> fair_sharing_weight;
    LabelSelector namespace_selector;  // not present when absent or not a map
    std::string queueing_strategy;  // as written (Kueue defaults to BestEffortFIFO)
    std::string stop_policy;
    std::vector<std::string> admission_checks;  // both spellings (list and strategy)
    int source = -1;
};

struct Cohort {
    std::string name;
    std::string parent;  // empty: a root
    std::vector<ResourceGroup> resource_groups;
    std::optional<Quantity> fair_sharing_weight;
    bool has_object = true;  // false: only named by a ClusterQueue or another Cohort (implicit)
    int source = -1;
};

struct LocalQueue {
    std::string namespace_, name, cluster_queue, stop_policy;
    int source = -1;
};

struct WorkloadPriorityClass {
    std::string name;
    std::int64_t value = 0;
    bool has_value = false;  // false: value absent or not an integer
    int source = -1;
};

struct Namespace {
    std::string name;
    Labels labels;
    int source = -1;
};

struct ClusterNode {
    std::string name;
    Labels labels;
    std::vector<Taint> taints;
    std::map<std::string, Quantity> allocatable;
    int source = -1;
};

struct Cluster {
    std::vector<ResourceFlavor> flavors;
    std::vector<ClusterQueue> cluster_queues;
    // Cohort objects in input order, then implicit cohorts in order of first
    // mention. `cohort_parent[i]` is cohort i's parent cohort (-1: a root).
    std::vector<Cohort> cohorts;
    std::vector<int> cohort_parent;
    CohortCycles cycles;  // over cohort indices
    std::vector<LocalQueue> local_queues;
    std::vector<WorkloadPriorityClass> priority_classes;
    std::vector<Namespace> namespaces;
    std::vector<ClusterNode> nodes;

    std::map<std::string, int> flavor_index, cluster_queue_index, cohort_index;

    // -1 when absent.
    int find_cohort(const std::string& name) const;
    int find_cluster_queue(const std::string& name) const;
    // The cohort a ClusterQueue's chain runs into a cycle at (Kueue's HasCycle).
    bool cluster_queue_in_cycle(int cq) const;
};

// Objects of other kinds are ignored; of two objects of one kind and name the
// first is kept (the API server would refuse the second).
Cluster build_cluster(const std::vector<Object>& objects);
Cluster build_cluster(const std::vector<Resource>& objects);
// `source` indexes this list.
Cluster build_cluster(const std::vector<const Resource*>& objects);

// The ClusterQueue's cohort field (v1beta2 cohortName, v1beta1 cohort) and the
// Cohort's parent field (v1beta1/v1beta2 parentName, v1alpha1 parent): the one
// place that knows both spellings. The lists are in the order readers try
// them (for readers with their own diagnostics); the functions return the
// first one set in `spec`.
inline constexpr const char* kClusterQueueCohortFields[] = {"cohortName", "cohort"};
inline constexpr const char* kCohortParentFields[] = {"parentName", "parent"};
const Node* cluster_queue_cohort_field(const Node* spec);
const Node* cohort_parent_field(const Node* spec);

// Kueue's int64 amount of a quota (pkg/resources ResourceValue: milli-units
// for cpu, units rounded up otherwise; at or beyond int64 it is Unlimited).
std::int64_t kueue_amount(const std::string& resource, const Quantity& q);

}  // namespace queueforge::model
