#pragma once
// Types shared by the flavor assigner, the preemptor and the scheduling cycle
// (flavorassigner.Assignment, preemption.Target, the cycle's snapshot).
#include "engines/scheduler/model.hpp"
#include "engines/scheduler/quota.hpp"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace queueforge::scheduler::detail {

// flavorassigner.FlavorAssignmentMode, ordered worst to best.
enum class Mode { NoFit = 0, Preempt = 1, DeferredFit = 2, Fit = 3 };
// flavorassigner.preemptionMode (granular), ordered worst to best.
enum class PMode { NoFit = 0, NoCandidates = 1, Preempt = 2, Reclaim = 3, Fit = 4 };

inline Mode to_mode(PMode p) {
    switch (p) {
    case PMode::NoFit: return Mode::NoFit;
    case PMode::Fit: return Mode::Fit;
    default: return Mode::Preempt;
    }
}

struct FlavorAssignment {
    int flavor = -1;
    Mode mode = Mode::Fit;
    int tried_idx = 0;
    int borrow = 0;
};

struct Status {
    std::vector<std::string> reasons;
    std::string err;
    bool fit() const { return err.empty() && reasons.empty(); }
    std::string message() const;  // reasons sorted, ", "-joined
};

// FlavorAssignmentAttempt, reduced to what the NoFit reason needs.
struct Attempt {
    int flavor = -1;
    Mode mode = Mode::NoFit;
    std::string no_fit_reason;
};

struct PodSetAssignment {
    std::string name;
    FlatMap<FlavorAssignment> flavors;  // resource id -> flavor
    Status status;
    Requests requests;  // totals for `count` pods, incl. `pods` when covered
    std::int32_t count = 0;
    std::vector<Attempt> attempts;  // sorted by flavor name
    // Topology-aware scheduling: the TAS flavor (Model::tas index) and the
    // placement found for the podset (PodSetAssignment.TopologyAssignment).
    int tas = -1;
    std::optional<topology::Assignment> topology;
    // delayedTopologyRequest: "Pending" when TAS waits for a
    // ProvisioningRequest (or MultiKueue) check, "Ready" once placed.
    std::string delayed;
    Mode rep_mode() const;
};

struct Assignment {
    std::vector<PodSetAssignment> podsets;
    int borrowing = 0;
    LastAssignment last;
    FlatMap<Amount> usage;  // Usage.Quota.Assigned
    std::optional<Mode> rep_override;
    std::string no_fit_reason;
    Mode rep_mode() const;
    void set_rep_mode(Mode m);
    // Assignment.updateMode: one podset's flavors, and the representative
    // mode, become `m`.
    void update_mode(std::size_t podset, Mode m);
    std::string message(const Model& m) const;
};

struct Target {
    int wl = -1;
    std::string reason;  // InClusterQueue, InCohortReclamation, ...
};

// Per podset: resource id -> nominated flavor (recompute on overlap).
using NominationMap = std::vector<FlatMap<int>>;

// What a cycle computes against: the model, the snapshot usage and the
// cycle number (flavor-scan progress is stamped with it).
struct SchedCtx {
    Model& m;
    QuotaState& snap;
    std::int64_t cycle = 0;
    QuotaView view() { return QuotaView(m, snap); }
    // Snapshot.RemoveWorkload / AddWorkload: membership and usage.
    void remove_workload(int w);
    void add_workload(int w);
    // Usage only (SimulateWorkloadUsageRemoval).
    void remove_usage(int w);
    void add_usage(int w);
};

}  // namespace queueforge::scheduler::detail
