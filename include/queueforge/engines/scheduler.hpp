#pragma once
// Offline Kueue admission simulator: decides exactly as Kueue's scheduler
// (kubernetes-sigs/kueue v0.20 line, pkg/scheduler) what a cluster described by
// manifests admits, preempts and leaves pending. See kueue-semantics.md
// sections 3-5 for the rules and kueue-conformance/README.md for the
// multi-cycle emulation.
//
// Input: Resources of kinds ResourceFlavor, ClusterQueue, Cohort, LocalQueue,
// Namespace, LimitRange, Workload, WorkloadPriorityClass (kueue.x-k8s.io
// v1alpha1/v1beta1/v1beta2 spellings) and Kueue's controller Configuration
// (config.kueue.x-k8s.io, directly or inside ConfigMap kueue-manager-config).
// Other kinds are ignored. Workloads holding quota (status.admission plus
// condition QuotaReserved=True) are the initial usage; every other active
// workload is pending in its LocalQueue's ClusterQueue.
//
// Loop (kueue-conformance README, "run A"): one long-lived scheduler. Every
// cycle pops the head of each active ClusterQueue, assigns flavors against a
// snapshot, orders the entries and admits or preempts one at a time. Between
// cycles the workload controller is emulated: victims of preemption release
// their quota and go back to their queue, which requeues the inadmissible
// workloads of their cohort tree. The run stops after a cycle that changed no
// workload and left every queue as it was, or after `max_cycles`.
//
// Deterministic (same objects in any order -> same result), bounded (every
// loop is capped) and never throws on malformed input: problems are reported
// in `diags` with positions (rules "sim.*"); the simulator simulates what it is
// given, so names a real API server would reject are only warnings.
#include <queueforge/base/diagnostics.hpp>
#include <queueforge/engines/topology.hpp>
#include <queueforge/base/mark.hpp>
#include <queueforge/frontend/manifests.hpp>

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace queueforge::scheduler {

struct Options {
    // Cycles to run: 0 = until nothing changes (capped at 1000); 1 = exactly
    // one scheduling cycle, as Kueue's scheduler unit tests do.
    int max_cycles = 0;
    // Complete evictions between cycles (the job/workload controllers stop the
    // victims and release their quota). Off: victims keep their quota, marked
    // Evicted, for the rest of the run.
    bool complete_evictions = true;
};

struct PodSetAssignment {
    std::string name;
    int count = 0;                                       // admitted pods (partial admission, reclaimable pods)
    std::map<std::string, std::string> flavors;          // resource -> flavor
    std::map<std::string, std::string> resource_usage;   // resource -> canonical quantity (kueue-semantics 3.5)
    // On a TAS flavor: the pods per topology domain
    // (status.admission.podSetAssignments[].topologyAssignment).
    std::optional<topology::Assignment> topology_assignment;
    std::string topology_flavor;
    std::string topology_summary;  // "rack r1: 4, r2: 4"
    // delayedTopologyRequest: "Pending" while a ProvisioningRequest (or
    // MultiKueue) admission check holds the topology back, "Ready" once the
    // second pass placed it; "" when TAS was not delayed.
    std::string delayed_topology_request;
};

struct WorkloadOutcome {
    std::string namespace_;
    std::string name;
    std::string local_queue;    // spec.queueName ("" when none)
    std::string cluster_queue;  // admission CQ when holding quota, else the LocalQueue's CQ ("" when unknown)
    std::int32_t priority = 0;
    bool admitted = false;      // holds quota at the end
    bool held_before = false;   // held quota in the input
    bool preempted = false;     // evicted by preemption at least once
    std::optional<int> admitted_in_cycle;   // cycle (1-based) of the simulator's last admission
    std::optional<int> preempted_in_cycle;  // cycle of the first eviction
    std::vector<PodSetAssignment> assignments;  // when admitted
    bool borrowing = false;     // the admission needed quota borrowed from the cohort
    // While pending: the QuotaReserved=False reason and message Kueue writes
    // (WaitingForQuota, NoMatchingFlavor, ExceedsMaxQuota, Misconfigured, ...).
    // Empty for a workload that was never evaluated (e.g. a CQ that is never
    // popped keeps it untouched, as Kueue does).
    std::string reason;
    std::string message;
    // Set when evicted by preemption: Preempted condition reason
    // (InClusterQueue, InCohortReclamation, InCohortReclaimWhileBorrowing,
    // InCohortFairSharing) and message.
    std::string preemption_reason;
    std::string preemption_message;
    // Kueue's second pass (a workload already holding quota scheduled again):
    // status.unhealthyNodes still to be replaced, the nodes whose pods a
    // second pass moved (replaced_nodes, the placement in `assignments` is the
    // repaired one), the cycle of that pass, and why the last failed attempt
    // failed (event SecondPassFailed; retried with backoff).
    std::vector<std::string> unhealthy_nodes;
    std::vector<std::string> replaced_nodes;
    std::optional<int> second_pass_in_cycle;
    std::string second_pass_message;
    // Evicted for a cause other than preemption: EvictedDueToNodeFailures
    // (no replacement for a failed node, TASFailedNodeReplacementFailFast).
    std::string eviction_reason;
    std::string eviction_message;
    Mark mark;
    std::string file;
};

struct FlavorResourceUsage {
    std::string flavor;
    std::string resource;
    std::string total;      // canonical quantity
    std::string borrowed;   // max(0, total - nominal)
    std::int64_t total_value = 0;     // milli-CPU for cpu, units otherwise
    std::int64_t borrowed_value = 0;
};

struct ClusterQueueUsage {
    std::string name;
    bool active = true;
    std::string inactive_reason;  // "FlavorNotFound", "Stopped", "HasCycle", ...
    std::vector<FlavorResourceUsage> usage;  // every FR of the CQ, in spec order
    int reserving_workloads = 0;
    std::vector<std::string> pending_active;        // "ns/name", queue order
    std::vector<std::string> pending_inadmissible;  // "ns/name", sorted
};

// What the workloads holding quota occupy on one TAS flavor's topology
// (the HTML report draws it).
struct TopologyOccupancy {
    std::string flavor;
    std::string topology;
    std::vector<std::string> levels;
    struct Leaf {
        std::vector<std::string> values;  // highest level first
        std::vector<std::pair<std::string, int>> pods;  // "ns/name" -> pods on this leaf
    };
    std::vector<Leaf> leaves;  // in domain order
};

struct Result {
    int cycles = 0;           // scheduling cycles run
    bool converged = false;   // stopped because nothing changed
    std::vector<WorkloadOutcome> workloads;        // sorted by namespace/name
    std::vector<ClusterQueueUsage> cluster_queues; // sorted by name
    std::vector<std::string> evicted;  // "ns/name" in order of first eviction (same cycle: by ns/name)
    std::vector<TopologyOccupancy> topologies;  // one per TAS flavor, by flavor name
};

Result simulate(const std::vector<Resource>& objects, const Options& opts, Diagnostics& diags);

}  // namespace queueforge::scheduler
