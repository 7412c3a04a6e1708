#pragma once
// The site model: what a `kind: Site` file says, checked for shape and types
// but not yet resolved against a target. Every value keeps the position it
// was read from so later stages can point at the site's line and column.
#include <queueforge/base/mark.hpp>
#include <queueforge/base/node.hpp>
#include <queueforge/base/quantity.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace queueforge::site {

template <class T>
struct Located {
    T value{};
    Mark mark;
};

using Text = Located<std::string>;

// A quota amount as written: an absolute quantity or a share of the pool.
// A site of 10,000 teams holds a million of these (quota x pools x
// resources): 128 bytes each, its texts compact.
struct Amount {
    Mark mark;
    CompactString resource;
    Mark resource_mark;
    CompactString written;  // source spelling, for messages
    // Share of the pool's capacity in units of 1/1,000,000 percent-points:
    // "12.5%" is 12,500,000. Exact for any share written with <= 6 decimals.
    std::optional<std::int64_t> share_micro_pct;
    std::optional<Quantity> absolute;
};
static_assert(sizeof(Amount) <= 128);

struct Taint {
    Text key;
    Text value;
    Text effect;
    Mark mark;
};

// A Kueue Topology (topology-aware scheduling): the node labels of its
// levels, highest first (a block, then a rack, then optionally
// kubernetes.io/hostname as the lowest).
struct Topology {
    Text name;
    std::vector<Text> levels;
    Mark mark;
};

// A pool's place in a topology: the Topology's name and the node inventory as
// a uniform shape: how many domains each domain of the level above holds, one
// number per level that is not kubernetes.io/hostname, then the nodes per
// lowest such domain ([4, 4, 8]: 4 blocks of 4 racks of 8 nodes).
struct PoolTopology {
    Text name;
    std::vector<Located<std::int64_t>> shape;
    Mark mark;
};

struct Pool {
    Text name;
    std::vector<std::pair<Text, Text>> node_labels;  // sorted by key when lowered
    std::vector<Taint> taints;
    std::vector<Node> tolerations;                    // Kubernetes Toleration objects, validated when lowered
    std::optional<Located<std::int64_t>> nodes;
    std::vector<Amount> allocatable;                  // per node; absolute only
    std::optional<PoolTopology> topology;
    std::vector<Text> ignore;                         // rule ids whose findings here are suppressed (the gate)
    Mark mark;
};

struct QuotaEntry {
    Text pool;
    std::vector<Amount> nominal;
    std::vector<Amount> borrowing_limit;
    std::vector<Amount> lending_limit;
    Mark mark;
};

struct Preemption {
    Text reclaim_within_cohort;
    Text within_cluster_queue;
    Text borrow_policy;
    std::optional<Located<std::int64_t>> max_priority_threshold;
};

struct FlavorFungibility {
    Text when_can_borrow;
    Text when_can_preempt;
    Text preference;
};

// Queue settings that `teamDefaults` may give once for every team.
struct QueueSettings {
    Text queueing_strategy;
    Preemption preemption;
    FlavorFungibility fungibility;
    std::optional<Located<Quantity>> fair_sharing_weight;
    Text stop_policy;
    std::optional<Located<bool>> default_queue;
    Text local_queue;
};

// Who may submit to a team's queues (tenant RBAC): bound in every team
// namespace to Kueue's kueue-batch-user-role, and to `project_role` (a
// ClusterRole the admin names, e.g. edit) when set.
struct Members {
    std::vector<Text> groups;
    std::vector<Text> users;
    std::vector<Text> service_accounts;  // "name" (in each team namespace) or "namespace/name"
    Text project_role;
    Mark mark;
    bool empty() const { return groups.empty() && users.empty() && service_accounts.empty(); }
};

struct Team {
    Text name;
    Text display_name;  // the OpenShift AI dashboard's project name (default: the team name)
    Text cluster_queue;  // defaults to the team name
    std::vector<Text> namespaces;
    // "namespaces" (select the team's namespaces), "all" ({}), or a selector.
    Text selector_mode;
    std::optional<Node> selector;
    Text cohort;
    QueueSettings settings;
    std::vector<QuotaEntry> quota;
    std::optional<Members> members;
    std::vector<Text> ignore;  // rule ids whose findings here are suppressed (the gate)
    Mark mark;
};

struct Cohort {
    Text name;
    Text parent;
    std::optional<Located<Quantity>> fair_sharing_weight;
    std::vector<QuotaEntry> quota;
    Mark mark;
};

struct PriorityClass {
    Text name;
    Located<std::int64_t> value;
    Text description;
    Mark mark;
};

struct PodSet {
    Text name;
    std::optional<Located<std::int64_t>> count;
    std::optional<Located<std::int64_t>> min_count;
    std::vector<Amount> requests;  // per pod
    std::vector<std::pair<Text, Text>> node_selector;
    std::vector<Node> tolerations;
    // Kueue's podset topology annotations, by their short names:
    // required | preferred (a level), unconstrained, sliceRequired +
    // sliceSize, groupName.
    struct Topology {
        Text required, preferred, slice_required, group_name;
        std::optional<Located<bool>> unconstrained;
        std::optional<Located<std::int64_t>> slice_size;
        Mark mark;
    };
    std::optional<Topology> topology;
    Mark mark;
};

struct Expectation {
    Text status;   // Admitted | Pending
    Text flavor;
    std::optional<Located<bool>> borrowing;
    Mark mark;
};

struct Workload {
    Text name;
    Text namespace_;
    Text queue;
    Text priority_class;
    Text file;                 // job manifest, relative to the site file
    std::vector<PodSet> pod_sets;
    std::optional<Expectation> expect;
    Mark mark;
};

struct TargetSpec {
    Text name;            // "rhoai-2.10", "kueue-0.13", ... (string form)
    Text openshift_ai;    // map form
    Text kueue;           // map form
    Text kueue_api_version;
    Text dsc_api_version;
    Text cohort_api_version;
    Mark mark;
};

struct DataScienceCluster {
    bool emit = true;
    Text name;  // default "default-dsc"
    std::vector<std::pair<Text, Text>> components;  // component -> managementState
    std::optional<Located<bool>> auto_create_queues;
    Text default_local_queue_name;
    Text default_cluster_queue_name;
    Mark mark;
};

// Fields the site format has no words for, merged into one object the site
// produces (queueforge import writes these for what it cannot express).
// Only fields queueforge leaves unset may be added: a value that differs from
// the generated one is an error, so the site stays the one source of truth.
struct Patch {
    Text kind;
    Text name;
    Text namespace_;
    Node merge;  // a partial manifest
    Mark mark;
};

// min / default / max of one HardwareProfile identifier (a count of cpu,
// memory or the pool's accelerator).
struct CountRange {
    std::optional<Located<Quantity>> min, def, max;
    Mark mark;
};

// One HardwareProfile of type Queue (OpenShift AI's dashboard): for a team
// (its LocalQueue, cpu and memory), for a pool (every team with quota in it,
// plus the pool's accelerator), or for both.
struct HardwareProfile {
    Text name;
    Text team;
    Text pool;
    Text display_name;
    Text description;
    Text local_queue;     // default: the team's LocalQueue
    Text priority_class;  // a WorkloadPriorityClass of the site
    std::optional<CountRange> cpu, memory, accelerator;
    Mark mark;
};

struct HardwareProfiles {
    // One Queue profile per team and GPU pool the team has quota in, with the
    // accelerator's maximum set to the pool's largest node.
    std::optional<Located<bool>> per_team_and_pool;
    Text namespace_;       // default: the dashboard's applications namespace
    Text priority_class;   // for the generated profiles
    std::vector<HardwareProfile> profiles;
    Mark mark;
};

// The Red Hat build of Kueue operator's Kueue CR (kueue.openshift.io/v1,
// name cluster); emitted when the section is present.
// A DRA deviceClassMappings entry: the quota resource `name` that counts the
// devices of the DeviceClasses `device_class_names` (Kueue's Configuration
// resources.deviceClassMappings; the Kueue CR's spec.config.resources).
struct DeviceClassMapping {
    Text name;
    std::vector<Text> device_class_names;
    Mark mark;
};

struct KueueOperator {
    std::vector<Text> frameworks;  // added to the ones the site's jobs and profiles need
    Text label_policy;             // QueueName | None
    Text gang_scheduling;          // ByWorkload | None
    Text gang_admission;           // Sequential | Parallel (ByWorkload only)
    Text preemption_policy;        // Classical | FairSharing (default: FairSharing when a weight is set)
    bool admission_fair_sharing = false;  // the section is present
    Mark admission_fair_sharing_mark;
    std::optional<Located<std::int64_t>> usage_half_life_seconds, usage_sampling_seconds;
    std::vector<std::pair<Text, Text>> resource_weights;
    std::vector<DeviceClassMapping> device_class_mappings;  // spec.config.resources (operator 1.4+)
    Mark mark;
};

// Plain Kueue's own Configuration (config.kueue.x-k8s.io), emitted as the
// kueue-manager-config ConfigMap Kueue reads at start-up.
struct KueueConfiguration {
    Text namespace_;                                        // default kueue-system
    std::vector<Text> frameworks;                           // added to the ones the site's jobs and profiles need
    std::optional<Located<bool>> manage_jobs_without_queue_name;
    std::optional<Located<bool>> fair_sharing;              // default: on when a fair-sharing weight is set
    std::vector<DeviceClassMapping> device_class_mappings;  // resources.deviceClassMappings (0.14+)
    Mark mark;
};

struct Site {
    std::string file;
    // Every file the site's result depends on, as findings name them: the
    // site file, each base of its spec.extends chain (in the order read) and
    // each workload's job `file:`. What a change to a file reaches (the
    // pre-commit hook's "sites reached by the staged files") is the sites
    // whose inputs hold it. Set by load_site_file (site_parse.hpp).
    std::vector<std::string> inputs;
    Text name;
    TargetSpec target;
    DataScienceCluster dsc;
    std::optional<Located<bool>> manage_namespaces;
    std::vector<Topology> topologies;
    std::vector<Pool> pools;
    std::vector<Cohort> cohorts;
    std::vector<PriorityClass> priority_classes;
    QueueSettings team_defaults;
    std::vector<Team> teams;
    std::vector<Workload> workloads;
    std::vector<Patch> patches;
    std::vector<Node> passthrough;  // manifests emitted as written
    std::optional<HardwareProfiles> hardware_profiles;
    std::optional<KueueOperator> kueue_operator;
    std::optional<KueueConfiguration> kueue_config;
    Mark mark;
};

}  // namespace queueforge::site
