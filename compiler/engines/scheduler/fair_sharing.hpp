#pragma once
// Fair sharing (kueue-semantics.md 5.8): dominant resource share
// (pkg/cache/scheduler/fair_sharing.go) and the per-cycle tournament
// (pkg/scheduler/fair_sharing_iterator.go).
#include "engines/scheduler/sched.hpp"

#include <string>
#include <vector>

namespace queueforge::scheduler::detail {

struct DRS {
    double weight = 1.0;
    double ratio = 0.0;  // unweighted, per mille of the lendable amount
    std::string dominant;
    bool borrowing = false;
    std::vector<int> borrowed_frs;

    bool is_zero() const { return ratio == 0; }
    double precise() const;  // weighted share; +inf for weight 0 while borrowing
    bool zero_weight_borrows() const { return weight == 0 && !is_zero(); }
    bool borrowing_on(const FlatMap<Amount>& requested) const;
};

DRS negative_drs();
int compare_drs(const DRS& a, const DRS& b);
// dominantResourceShare of a node (CQ or cohort), optionally with `request`
// added to its usage.
DRS dominant_resource_share(QuotaView& v, int node, const FlatMap<Amount>* request = nullptr);

// One nominated entry as the tournament sees it.
struct FsEntry {
    int cq = -1;
    int wl = -1;
    const FlatMap<Amount>* usage = nullptr;  // the assignment's usage
};

// fairSharingIterator.pop: removes and returns the next entry (index into
// the original list) from `remaining`.
int fair_sharing_pop(SchedCtx& ctx, const std::vector<FsEntry>& entries, std::vector<int>& remaining);

}  // namespace queueforge::scheduler::detail
