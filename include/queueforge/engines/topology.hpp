#pragma once
// Topology-Aware Scheduling placement, as Kueue computes it for one
// ResourceFlavor with `spec.topologyName` (issue 17, foundation).
//
// Source of the semantics: kubernetes-sigs/kueue at commit
// ff69552e79ad21652c36caa97038382e55625cf7 (v0.20 development line),
// pkg/cache/scheduler/tas_flavor_snapshot.go (findTopologyAssignment,
// fillInCounts, findLevelWithFitDomains, updateCountsToMinimumGeneric,
// sortedDomains, notFitMessage), tas_topology_tree.go (domain tree),
// tas_nodes_cache.go (only Ready, schedulable nodes), tas_non_tas_pod_cache.go
// (non-TAS pods: requests + one pod), scheduling_simulator_default.go (per-node
// taints / nodeSelector / required node affinity), pkg/util/tas/node.go
// (a node serves the flavor when it has the flavor's nodeLabels and every
// level label). Read for the facts, written here independently.
//
// What is modelled: required / preferred / unconstrained requests and the
// implied request (a podset without annotations on a TAS-only ClusterQueue);
// the BestFit profile and TASProfileMixed (LeastFreeCapacity for
// unconstrained podsets, on by default since Kueue 0.15); single-layer slices
// (podset-slice-required-topology + podset-slice-size) and multi-layer slice
// constraints (TASMultiLayerTopology, on by default since 0.19); podset groups
// (one leader podset + one worker podset co-located); several podsets placed
// one after the other in one flavor, each seeing the previous ones' usage.
// Preferred node affinity (TASRespectNodeAffinityPreferred) and balanced
// placement (TASBalancedPlacement) and elastic workload slices
// (ElasticJobsViaWorkloadSlicesWithTAS), all alpha, are options; failed-node
// replacement is replace_node().
//
// Limits: at most 16 levels (Kueue's API bound) and 100,000 nodes per
// topology. One placement visits every node once (feasibility and free
// capacity), sums the counts up the tree, and sorts the domains of the levels
// it descends through: O(n log n) in nodes. bench/topology_bench.cpp: 1,000
// podsets on 2,000 nodes in about 90 ms; on 100,000 nodes about 20 ms per
// podset. Balanced placement (alpha) adds a subset search over the domains of
// one parent, bounded by domains x pods of the podset.
#include <queueforge/base/names.hpp>
#include <queueforge/model/selector.hpp>

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace queueforge::topology {

using queueforge::kHostnameLabel;
inline constexpr std::size_t kMaxLevels = 16;
inline constexpr std::size_t kMaxNodes = kMaxTopologyNodes;

// Kueue's int64 amounts: cpu in milli-units, every other resource in units.
using Amounts = std::map<std::string, std::int64_t>;

// The model's types, matched by the model's one matcher core.
using Taint = model::Taint;
using Toleration = model::Toleration;  // op "" is Equal

struct Node {
    std::string name;
    std::map<std::string, std::string> labels;
    Amounts allocatable;
    std::vector<Taint> taints;
    bool unschedulable = false;
    bool ready = true;
    // Requests of the pods not placed by TAS running on the node (static
    // pods, DaemonSets, ...), each counted with one `pods` as Kueue does.
    Amounts non_tas_usage;
};

struct TopologySpec {
    std::string name = "default";  // the Topology object's name, quoted in reasons
    std::vector<std::string> levels;  // node labels, highest first
    std::vector<Node> nodes;
    // The ResourceFlavor's spec.nodeLabels and spec.tolerations.
    std::map<std::string, std::string> flavor_node_labels;
    std::vector<Toleration> flavor_tolerations;
};

enum class Mode { Required, Preferred, Unconstrained, Implied };

struct SliceLayer {
    std::string level;
    std::int32_t size = 0;
};

// One requirement of a node selector term (Kubernetes NodeSelectorRequirement
// on labels): In, NotIn, Exists, DoesNotExist, Gt, Lt.
using LabelRequirement = model::SelectorRequirement;
// Terms are ORed, the requirements of a term ANDed.
using NodeSelectorTerms = std::vector<std::vector<LabelRequirement>>;

// preferredDuringSchedulingIgnoredDuringExecution: a node scores the sum of
// the weights of the terms it matches.
struct PreferredTerm {
    std::int32_t weight = 0;
    std::vector<LabelRequirement> preference;
};

struct DomainAssignment {
    std::vector<std::string> values;
    std::int32_t count = 0;
    bool operator==(const DomainAssignment&) const = default;
};

// Kueue's status.admission.podSetAssignments[].topologyAssignment.
struct Assignment {
    std::vector<std::string> levels;
    std::vector<DomainAssignment> domains;
    bool operator==(const Assignment&) const = default;
};

struct PodSetRequest {
    std::string name = "main";
    std::int32_t count = 1;
    Amounts requests;  // per pod
    Mode mode = Mode::Implied;
    std::string level;  // for Required / Preferred
    // podset-slice-required-topology + podset-slice-size, or the multi-layer
    // constraints (outermost first). A request with slices and no mode level
    // (Mode::Unconstrained with slices) is Kueue's "slice-only" request.
    std::vector<SliceLayer> slices;
    std::vector<Toleration> tolerations;
    std::map<std::string, std::string> node_selector;
    std::optional<NodeSelectorTerms> required_affinity;
    std::vector<PreferredTerm> preferred_affinity;  // read only with respect_preferred_affinity
    // podset-group-name: two podsets with the same group are placed together
    // (the one with the smaller count is the leader).
    std::optional<std::string> group;
    // The placement of the workload slice this one replaces (elastic jobs).
    std::optional<Assignment> previous_assignment;
    // The podset's admitted placement (status.admission), for replace_node.
    std::optional<Assignment> current_assignment;
};

// A workload whose admitted placement includes a failed node
// (status.unhealthyNodes; TASFailedNodeReplacement, beta, on by default).
struct NodeReplacement {
    std::string unhealthy_node;
    // The workload's only owner is a v1 Pod (not a pod group) ...
    bool owned_by_single_pod = false;
    // ... and SkipReassignmentForPodOwnedWorkloads (beta, on by default since
    // 0.19) keeps such a pod where it is.
    bool skip_pod_owned = true;
};

struct Options {
    bool profile_mixed = true;  // TASProfileMixed
    // TASRespectNodeAffinityPreferred (alpha, off by default): domains with a
    // higher preferred-affinity score come first, before capacity.
    bool respect_preferred_affinity = false;
    // TASBalancedPlacement (alpha, off by default): preferred podsets are
    // spread evenly over the fewest domains that hold them.
    bool balanced_placement = false;
    // ElasticJobsViaWorkloadSlicesWithTAS (alpha, off by default): a podset
    // with a previous assignment keeps it and places only added pods.
    bool elastic_workload_slices = false;
    // Reject a slice size that does not divide the podset count
    // (TASValidateWorkloadSliceSize, on by default since 0.20, rejects such
    // workloads at admission; false keeps the snapshot's integer division).
    bool require_slice_divides_count = true;
    // WithSimulateEmpty: place as if no TAS workload ran (Kueue's check that
    // preemption could make room at all).
    bool simulate_empty = false;
};

struct PodSetResult {
    std::string name;
    std::optional<Assignment> assignment;  // set when placed
    std::string reason;                    // Kueue's failure reason otherwise
};

struct Outcome {
    // In Kueue's order; podsets after the first failing group are absent, as
    // Kueue stops there.
    std::vector<PodSetResult> podsets;
    // Bad input (not a placement outcome): empty when the request is valid.
    std::string error;
    bool placed() const;
    // The first failure reason, empty when everything was placed.
    std::string reason() const;
};

class Snapshot;

// A topology prepared for placement: the domain tree of the nodes that serve
// the flavor, with their free capacity. Built once, then assign() as often as
// needed; commit() records a placement's usage so later requests see it.
class Topology {
public:
    // Errors (bad levels, too many nodes, ...) are returned in `error`
    // and leave the result empty.
    static std::optional<Topology> build(const TopologySpec& spec, std::string* error);
    Topology(Topology&&) noexcept;
    Topology& operator=(Topology&&) noexcept;
    // A copy shares the node tree (immutable once built) and copies the
    // usage: the simulator forks its model per sample.
    Topology(const Topology&);
    Topology& operator=(const Topology&);
    ~Topology();

    Outcome assign(const std::vector<PodSetRequest>& podsets, const Options& options = {}) const;
    // Kueue's failed-node replacement: the pods on the unhealthy node are
    // placed again (within the domain their required topology and slices
    // bind them to) and merged into each podset's current_assignment.
    // Podsets without a current assignment get no result.
    Outcome replace_node(const std::vector<PodSetRequest>& podsets, const NodeReplacement& replacement,
                         const Options& options = {}) const;
    // Adds the usage of a successful outcome (the requests of each placed pod
    // plus one `pods`) to the nodes it names.
    void commit(const std::vector<PodSetRequest>& podsets, const Outcome& outcome);
    // Adds the usage of `count` pods already placed by TAS in the domain
    // with these values (a topologyAssignment entry: the hostname alone when
    // it is a level). False when the topology has no such domain (Kueue
    // skips such usage too: the node went away or is not Ready).
    bool add_usage(const std::vector<std::string>& values, const Amounts& per_pod, std::int32_t count);
    // The reverse of commit() and add_usage(): a finished or preempted
    // workload's pods leave their nodes (Kueue's snapshot RemoveWorkload,
    // also used while preemption tries candidates). Usage never goes below
    // zero.
    void release(const std::vector<PodSetRequest>& podsets, const Outcome& outcome);
    bool remove_usage(const std::vector<std::string>& values, const Amounts& per_pod, std::int32_t count);
    // TASFlavorSnapshot.Fits for one domain: `count` more pods with these
    // requests (plus one `pods` each) fit in what the leaf has left.
    bool fits(const std::vector<std::string>& values, const Amounts& per_pod, std::int32_t count) const;
    // Forgets every recorded placement (the nodes' non-TAS usage stays).
    void clear_usage();

    // A readable form of a placement: the pods per domain of the level
    // above the nodes ("rack r1: 4, r2: 4"), or per domain of the lowest
    // level when that is not the hostname or is the only level.
    std::string summary(const Assignment& a) const;
    const std::vector<std::string>& levels() const;
    // The lowest-level domains (nodes when the lowest level is the
    // hostname) in domain order: their ID as an assignment names it (the
    // hostname, or the values joined by ',') and their values, highest
    // level first.
    struct LeafInfo {
        std::string id;
        std::vector<std::string> values;
    };
    std::vector<LeafInfo> leaves() const;
    // Nodes left out: not Ready or unschedulable, missing a level label, or
    // not matching the flavor's nodeLabels (Kueue ignores them silently).
    const std::vector<std::string>& excluded_nodes() const;
    std::size_t leaf_count() const;

private:
    Topology();
    bool change_usage(const std::vector<std::string>& values, const Amounts& per_pod, std::int32_t count, int sign);
    Outcome assign_impl(const std::vector<PodSetRequest>& podsets, const Options& options,
                        const NodeReplacement* replacement) const;
    std::shared_ptr<const Snapshot> impl_;
    // Recorded placements: per leaf, one amount per resource of the
    // snapshot's resource table (leaf * resources + resource).
    std::vector<std::int64_t> usage_;
};

// Text form of an assignment: "r1: 4, r2: 4" (values joined by '/').
std::string to_text(const Assignment& a);

}  // namespace queueforge::topology
