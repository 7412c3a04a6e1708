#pragma once
// Topology-Aware Scheduling inside the scheduling cycle, as Kueue ff69552e
// does it: pkg/scheduler/flavorassigner/tas_flavorassigner.go
// (WorkloadsTopologyRequests, checkPodSetAndFlavorMatchForTAS, isTASImplied),
// flavorassigner.go (the placement after a Fit or Preempt assignment,
// UpdateForTASResult, ComputeTASNetUsage), pkg/cache/scheduler
// (FindTopologyAssignmentsForWorkload: flavors in name order;
// TASFlavorSnapshot.Fits). The placement itself is engines/topology.
#include "engines/scheduler/sched.hpp"

#include <optional>
#include <string>
#include <vector>

namespace queueforge::scheduler::detail {

// PodSetAssignment.HasUnhealthyNode: a domain of `a` is on one of the
// workload's status.unhealthyNodes (its lowest-level value).
bool on_unhealthy_node(const Workload& w, const topology::Assignment& a);
// workload.HasTopologyAssignmentWithUnhealthyNode: admitted (Admitted=True)
// with a placement on an unhealthy node. An unhealthyNodes entry naming a
// node the placement does not use (or no node at all) is ignored, as in
// Kueue: no second pass, the placement and the entry stay as they are.
bool assignment_on_unhealthy_node(const Workload& w);

// isTASRequested: an explicit request, or any podset on a TAS-only queue.
bool tas_requested(const ClusterQueue& cq, const PodSetSpec& ps);

// checkPodSetAndFlavorMatchForTAS: "" when podset `ps` may use flavor `f` of
// resource group `rg`, else Kueue's reason.
std::string tas_flavor_mismatch(const Model& m, const ClusterQueue& cq, const PodSetSpec& ps, int f,
                                const ResourceGroup& rg);

// The TAS step at the end of FlavorAssigner.Assign: a Fit assignment is
// placed (a failure adds Kueue's reason and turns it into Preempt); a
// Preempt assignment is placed on an empty topology (a failure is NoFit,
// TopologyPlacementFailed; otherwise its TAS podsets become Preempt).
void place_after_assignment(Model& m, int wl, const ClusterQueue& cq, Assignment& a);

// updateAssignmentForTAS (Scheduler.getAssignments): a Preempt assignment
// gets the placement it would have once `targets` are gone (or, without
// targets, on an empty topology) so that the cycle can reserve it.
void place_for_preemption(SchedCtx& ctx, int wl, const ClusterQueue& cq, Assignment& a,
                          const std::vector<Target>& targets);

// workloadFits' TAS half: the TAS podsets of `a` can all be placed now.
bool tas_fits_with(Model& m, const Workload& w, const ClusterQueue& cq, const Assignment& a);

// The placements of `a` (ComputeTASNetUsage for a pending workload).
std::vector<TasPlacement> tas_usage(const Model& m, const Workload& w, const Assignment& a);
// TASFlavorSnapshot.Fits for every domain of `p`.
bool placements_fit(const Model& m, const std::vector<TasPlacement>& p);
// Adds (sign 1) or takes away (sign -1) the usage of placements: to their
// own flavor's topology (the cycle's snapshot), and with `Scope::Cache` also
// to every other flavor whose nodes are hostnames (TASHandleOverlappingFlavors,
// beta, on: the snapshot of such a flavor starts from the usage of all of
// them on its nodes; what a cycle adds stays with the flavor until the next
// snapshot).
enum class Scope { Snapshot, Cache };
void apply_placements(Model& m, const std::vector<TasPlacement>& p, int sign, Scope scope);
// The usage of placements admitted during a cycle, added to the other
// hostname-level flavors once the cycle is over (they are in the cache).
void share_with_siblings(Model& m, const std::vector<TasPlacement>& p);

// A status.admission topologyAssignment: v1beta1 `domains` or v1beta2
// `slices` (valuesPerLevel universal/individual, podCounts).
std::optional<topology::Assignment> topology_assignment_of(const Node* n);

}  // namespace queueforge::scheduler::detail
