#pragma once
// The simulator's in-memory cluster: interned names, the quota tree (CQs and
// Cohorts as nodes, as Kueue's pkg/cache/hierarchy), LocalQueues and Workloads
// with their precomputed requests. Built once from the input objects
// (cluster_state.cpp); the scheduling state that changes while simulating
// (usage, queue membership, outcomes) lives in the Workload/ClusterQueue
// fields marked "sim state" and in QuotaState.
#include "engines/scheduler/admission_fair_sharing.hpp"
#include "engines/scheduler/amount.hpp"

#include <queueforge/base/diagnostics.hpp>
#include <queueforge/engines/scheduler_engine.hpp>
#include <queueforge/engines/topology.hpp>
#include <queueforge/model/quota_tree.hpp>
#include <queueforge/model/selector.hpp>

#include <queueforge/base/mark.hpp>
#include <queueforge/base/quantity.hpp>

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

namespace queueforge::scheduler::detail {

enum class Policy { Never, LowerPriority, LowerOrNewerEqualPriority, Any };
enum class Preference { Unset, BorrowingOverPreemption, PreemptionOverBorrowing };

struct SelectorReq {
    std::string key;
    std::string op;  // In, NotIn, Exists, DoesNotExist (and Gt, Lt for node affinity)
    std::vector<std::string> values;
};

// metav1.LabelSelector after LabelSelectorAsSelector: `nothing` for a null
// selector (Kueue: a CQ without namespaceSelector matches no namespace).
struct LabelSelector {
    bool nothing = false;
    std::map<std::string, std::string> match_labels;
    std::vector<SelectorReq> exprs;
};

using Taint = model::Taint;
using Toleration = model::Toleration;

struct Flavor {
    std::string name;
    bool exists = false;
    std::string topology_name;  // spec.topologyName
    int tas = -1;               // Model::tas index: a TAS flavor with its Topology
    // spec.topologyName was set but, without nodes, placement is not
    // simulated (topology_name is cleared): only a delayed topology request
    // (ProvisioningRequest check) is still reported.
    bool unsimulated_topology = false;
    std::map<std::string, std::string> labels;
    std::vector<Taint> taints;
    std::vector<Toleration> tolerations;
};

using Quota = model::Quota;

// A node of the quota tree: a ClusterQueue (leaf) or a Cohort. The quota
// fields (name, parent, quotas, SubtreeQuota, localQuota,
// potentialAvailable, every child) are the model's tree
// (model/quota_tree.hpp); the rest is what the scheduler's snapshot adds.
struct QNode : model::QuotaNode {
    int cq = -1;               // index into Model::cqs for leaves
    double weight = 1.0;       // fairSharing.weight
    bool explicit_cohort = false;
    // Children as the scheduler snapshot sees them: active CQs, acyclic
    // cohorts, both sorted by name (Go iterates a set; name order keeps runs
    // deterministic).
    std::vector<int> child_cqs;
    std::vector<int> child_cohorts;
    int height = 0;            // getNodeHeight for cohorts
};

struct ResourceGroup {
    std::vector<int> covered;  // resource ids
    std::vector<int> flavors;  // flavor ids, preference order
};

struct ClusterQueue {
    std::string name;
    int node = -1;
    std::vector<ResourceGroup> rgs;
    FlatMap<int> rg_of_resource;  // resource id -> rg index
    std::vector<int> fr_order;    // FR ids in spec order
    LabelSelector ns_selector;
    Policy within = Policy::Never;
    Policy reclaim = Policy::Never;
    bool bwc = false;  // borrowWithinCohort.policy LowerPriority
    std::optional<std::int32_t> bwc_threshold;
    bool borrow_try_next = false;   // whenCanBorrow: TryNextFlavor
    bool preempt_try_next = true;   // whenCanPreempt: TryNextFlavor
    Preference preference = Preference::Unset;
    bool strict_fifo = false;
    bool active = true;           // cache status (flavors exist, not stopped)
    bool in_cycle = false;        // parent cohort chain has a cycle (snapshot skips it)
    std::string inactive_reason;  // FlavorNotFound, Stopped, HasCycle
    bool covers_pods = false;
    // Every flavor of its resource groups has a topologyName
    // (clusterQueue.isTASOnly): podsets without a request get an implied one.
    bool tas_only = false;
    bool has_tas = false;  // at least one flavor has a topologyName
    // Flavors an AdmissionCheck of controller kueue.x-k8s.io/provisioning-request
    // applies to (clusterQueue.flavorsWithProvReqAdmissionCheck: spec.admissionChecks
    // or admissionChecksStrategy, all flavors unless onFlavors), and whether a
    // kueue.x-k8s.io/multikueue check is there: TAS is delayed on them
    // (tas_flavorassigner.go podSetTopologyRequest).
    std::vector<int> prov_req_flavors;
    bool multikueue = false;
    bool has_checks = false;  // any admission check: quota reservation alone is not admission
    Mark mark;
    std::string file;
    // sim state
    std::int64_t generation = 1;  // AllocatableResourceGeneration
    std::vector<int> workloads;   // workloads holding quota here (cache)
    bool usage_based_afs = false;  // admissionScope.admissionMode: UsageBasedAdmissionFairSharing
};

struct LocalQueue {
    std::string ns, name, cq_name;
    int cq = -1;
    bool stopped = false;
    double afs_weight = 1.0;  // spec.fairSharing.weight (AFS)
    NanoList afs_consumed;    // status.fairSharing.admissionFairSharingStatus.consumedResources
};

// Per-podset requests, resource id -> int64 (milli-CPU, units), kept in
// resource-name order so that every walk over them is deterministic.
using Requests = std::vector<std::pair<int, std::int64_t>>;

struct NodeAffinityTerm {
    std::vector<SelectorReq> exprs;
};

// A podset's spec.podSets[].topologyRequest.
struct TopologyRequest {
    // IsExplicitlyRequestingTAS: required, preferred, unconstrained or a
    // slice constraint is set (a group name alone is not a request).
    bool explicit_request = false;
    topology::Mode mode = topology::Mode::Unconstrained;
    std::string level;
    std::vector<topology::SliceLayer> slices;
    std::optional<std::string> group;
    Mark mark;
};

struct PodSetSpec {
    std::string name;
    std::optional<TopologyRequest> topology;
    topology::Amounts per_pod;  // NewRequestsFromPodSpec (before exclusions and transformations): what TAS places
    std::int32_t count = 1;
    std::optional<std::int32_t> min_count;
    std::map<std::string, std::string> node_selector;
    bool has_node_selector = false;
    std::vector<NodeAffinityTerm> affinity_terms;  // required node affinity
    bool has_required_affinity = false;
    std::vector<Toleration> tolerations;
};

// One podset's placement on a TAS flavor: the pods per domain that count as
// usage of that flavor's topology.
struct TasPlacement {
    std::string podset;
    int tas = -1;  // Model::tas index
    topology::Assignment assignment;
    topology::Amounts per_pod;
};

// workload.PodSetResources: totals for `count` pods (count after reclaim).
struct PodSetTotal {
    std::string name;
    std::int32_t count = 0;
    Requests requests;
    FlatMap<int> flavors;  // admitted only: resource -> flavor id
    // admitted only: podSetAssignments[].delayedTopologyRequest ("", "Pending", "Ready")
    std::string delayed;
};

// workload.AssignmentClusterQueueState: the flavor-scan progress (5.5.4).
struct LastAssignment {
    std::vector<FlatMap<int>> tried;  // per podset: resource -> last tried flavor index (-1 = restart)
    std::int64_t generation = 0;
    std::int64_t cycle = 0;
    int hash = -1;
    bool pending_flavors() const {
        for (const auto& ps : tried)
            for (const auto& [r, idx] : ps)
                if (idx != -1) return true;
        return false;
    }
    int next(std::size_t ps, int res) const {
        if (ps >= tried.size()) return 0;
        const int* idx = tried[ps].find(res);
        return idx ? *idx + 1 : 0;
    }
};

enum class QueueState { None, Active, Inadmissible, Inflight };

struct Workload {
    std::string ns, name, key, uid, job_uid;
    int uid_rank = 0;                 // position in uid order (Queues)
    std::int64_t created = 0;         // creationTimestamp, ns since epoch
    std::int64_t order_ts = 0;        // queue order timestamp (5.2)
    std::int32_t priority = 0;
    std::string queue_name;
    bool active = true;
    bool finished = false;
    std::vector<PodSetSpec> podsets;
    std::vector<PodSetTotal> pending_totals;  // requests while pending
    int hash = -1;                    // scheduling-equivalence shape (Model::shape_id)
    std::string invalid_message;      // requests > limits or LimitRange violation (Misconfigured)
    bool can_partial = false;
    Mark mark;
    std::string file;
    int lq = -1;                      // resolved LocalQueue
    int queue_cq = -1;                // the LocalQueue's ClusterQueue
    bool held_before = false;
    bool arrived = true;              // false until created (timeline mode)
    const std::map<std::string, std::string>* ns_labels = nullptr;  // its Namespace's (index_workloads)
    // status.unhealthyNodes (names, in order: Kueue replaces the first).
    std::vector<std::string> unhealthy_nodes;
    // status.admissionChecks: how many, all Ready, any Retry or Rejected.
    int checks = 0;
    bool checks_ready = false;
    bool checks_failed = false;
    bool admitted_cond = false;        // Admitted=True (all checks Ready once quota is reserved)
    bool owned_by_single_pod = false;  // metadata.ownerReferences: one v1 Pod

    // sim state: quota
    bool holds = false;
    int adm_cq = -1;
    std::vector<PodSetTotal> admission;  // totals from status.admission (scaled for reclaimable pods)
    FlatMap<Amount> usage;               // FR id -> amount
    std::int64_t reserved_at = 0;        // QuotaReserved lastTransitionTime
    bool evicted = false;                // Evicted=True (preemption issued, quota not yet released)
    bool snap_present = false;           // in the cycle's snapshot
    int cq_pos = -1;                     // index in ClusterQueue::workloads
    bool borrowing = false;
    // sim state: queues
    QueueState qstate = QueueState::None;
    std::optional<LastAssignment> last;
    // sim state: outcome
    std::string reason, message;
    std::string preempt_reason, preempt_message;
    // Evicted for another cause than preemption (EvictedDueToNodeFailures).
    std::string evict_reason, evict_message;
    int second_pass_cycle = 0;  // last cycle whose second pass changed the admission
    std::vector<std::string> replaced_nodes;  // the unhealthy nodes that second pass moved pods off
    std::string second_pass_message;          // why the last second pass failed (SecondPassFailed)
    int admitted_cycle = 0;
    int preempted_cycle = 0;
    // sim state: TAS placements held (with `admission`)
    std::vector<TasPlacement> placements;
};

using Transformation = model::ResourceTransformation;  // resources.transformations[]

struct Config {
    PodsReadyConfig pods_ready;
    std::optional<Diagnostic> pods_ready_note;  // sim.not-simulated, reported by one-shot simulate()
    // Run state (Engine::set_block_after_admission): a cycle admits one
    // workload, then the scheduler waits for its pods (blockAdmission).
    bool block_after_admission = false;
    bool pods_not_ready = false;  // an admitted workload's pods are not ready: the first admission blocks too
    bool fair_sharing = false;
    // 0 = LessThanOrEqualToFinalShare, 1 = LessThanInitialShare
    std::vector<int> strategies{0, 1};
    std::vector<std::string> exclude_prefixes;
    std::vector<Transformation> transformations;
    bool ignore_undeclared = false;  // resources.quotaCheckStrategy: IgnoreUndeclared
    std::optional<AfsConfig> afs;    // admissionFairSharing
    bool afs_gate = true;            // featureGates AdmissionFairSharing (Beta, on since 0.15)
};

struct NamespaceInfo {
    std::map<std::string, std::string> labels;
};

// A flavor with spec.topologyName whose Topology is among the inputs: its
// nodes as Kueue's TAS cache holds them. The usage in `topology` is that of
// the workloads holding quota (plus, during a cycle, what the cycle's
// snapshot adds; cycle.cpp takes that back at its end).
struct TasFlavor {
    int flavor = -1;
    topology::Topology topology;
};

struct Model {
    std::vector<std::string> resource_names;
    std::unordered_map<std::string, int> resource_ids;
    std::vector<Flavor> flavors;
    std::unordered_map<std::string, int> flavor_ids;
    std::vector<std::pair<int, int>> frs;  // FR id -> (flavor, resource)
    std::unordered_map<std::int64_t, int> fr_ids;
    std::vector<QNode> nodes;
    std::unordered_map<std::string, int> cohort_nodes;
    std::vector<ClusterQueue> cqs;
    std::unordered_map<std::string, int> cq_ids;
    std::vector<LocalQueue> lqs;
    std::unordered_map<std::string, int> lq_ids;  // "ns/name"
    std::vector<Workload> wls;
    std::map<std::string, NamespaceInfo> namespaces;
    std::unordered_map<std::string, int> shape_ids;  // interned equivalence shapes
    Config config;
    std::vector<TasFlavor> tas;
    AfsLedger afs;

    int resource_id(const std::string& name);
    int flavor_id(const std::string& name);
    int fr_id(int flavor, int resource);
    int find_fr(int flavor, int resource) const;  // -1 when unknown
    int shape_id(const std::string& shape) {
        return shape_ids.emplace(shape, static_cast<int>(shape_ids.size())).first->second;
    }
    bool is_cpu(int res) const { return res >= 0 && resource_names[res] == "cpu"; }
    const std::string& res_name(int res) const { return resource_names[res]; }
    const std::string& flavor_name(int f) const { return flavors[f].name; }
    int fr_flavor(int fr) const { return frs[fr].first; }
    int fr_resource(int fr) const { return frs[fr].second; }
    // Sorts a request vector by resource name.
    void sort_requests(Requests& r) const;
    int root_of(int node) const {
        while (nodes[node].parent >= 0) node = nodes[node].parent;
        return node;
    }
};

inline std::int64_t request_of(const Requests& r, int res) {
    for (const auto& [k, v] : r)
        if (k == res) return v;
    return 0;
}

}  // namespace queueforge::scheduler::detail
