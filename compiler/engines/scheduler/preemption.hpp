#pragma once
// Preemption target search (kueue-semantics.md 5.7 classical, 5.8.3 fair
// sharing; pkg/scheduler/preemption).
#include "engines/scheduler/sched.hpp"

#include <utility>
#include <vector>

namespace queueforge::scheduler::detail {

struct PreemptionCtx {
    int wl = -1;
    int cq = -1;
    std::vector<int> frs;   // FRs needing preemption, sorted
    FlatMap<Amount> usage;  // the preemptor's usage on every assigned FR
    // The assignment whose TAS podsets must also be placed once the
    // candidates are gone (GetTargets; the oracle has none).
    const Assignment* assignment = nullptr;
};

// Preemptor.GetTargets for a Preempt-mode assignment.
std::vector<Target> get_targets(SchedCtx& ctx, int wl, const Assignment& a);
// PreemptionOracle.SimulatePreemption for one FR: the possibility and the
// borrowing level after removing the targets.
std::pair<PMode, int> simulate_preemption(SchedCtx& ctx, int wl, int fr, Amount quantity);

// Shared by classical and fair-sharing preemption.
std::vector<Target> classical_preemptions(SchedCtx& ctx, const PreemptionCtx& p);
std::vector<Target> fair_preemptions(SchedCtx& ctx, const PreemptionCtx& p);
bool workload_fits(SchedCtx& ctx, const PreemptionCtx& p, bool allow_borrow);
std::vector<Target> fill_back(SchedCtx& ctx, const PreemptionCtx& p, std::vector<Target> targets, bool allow_borrow);
void restore(SchedCtx& ctx, const std::vector<Target>& targets);
bool uses_resources(const Model& m, const Workload& w, const std::vector<int>& frs);
bool satisfies_policy(const Workload& preemptor, const Workload& cand, Policy p);
// CandidatesOrdering: negative when a goes first.
int compare_candidates(const Model& m, const Workload& a, const Workload& b, int preemptor_cq);

}  // namespace queueforge::scheduler::detail
