// Scheduler.getAssignments (pkg/scheduler/scheduler.go getAssignments,
// getInitialAssignments) with partial admission (kueue-semantics.md 5.9;
// flavorassigner/podset_reducer.go): drop outdated flavor-scan progress,
// assign, look for preemption targets, then binary-search the smallest
// reduction of the podset counts that fits or preempts.
#include "engines/scheduler/flavor_assigner.hpp"
#include "engines/scheduler/preemption.hpp"
#include "engines/scheduler/tas.hpp"

#include <optional>

namespace queueforge::scheduler::detail {

namespace {

// lastAssignmentOutdated with FlavorFungibilityPreserveScanProgress on.
bool last_assignment_outdated(const LastAssignment& last, std::int64_t generation, std::int64_t cycle,
                              int hash) {
    if (last.hash != hash) return true;
    if (cycle - last.cycle <= 1) return false;
    return generation > last.generation;
}

// getInitialAssignments.
Assignment initial_assignments(SchedCtx& ctx, int wl, int cq, const NominationMap* nomination,
                               std::vector<Target>& targets) {
    Model& m = ctx.m;
    Workload& w = m.wls[wl];
    targets.clear();
    if (w.last && last_assignment_outdated(*w.last, m.cqs[cq].generation, ctx.cycle, w.hash)) w.last.reset();
    Assignment full = assign_flavors(ctx, wl, cq, nullptr, nomination);
    Mode mode = full.rep_mode();
    if (mode == Mode::Fit) return full;
    if (mode == Mode::Preempt) {
        targets = get_targets(ctx, wl, full);
        if (!targets.empty()) return full;
    }
    // Partial admission (5.9; podset_reducer.go): binary search over the
    // reduction k in [0, D], counts_i = count_i - delta_i * k / D.
    // Not on a second pass: the counts are those of the admission.
    if (w.can_partial && !w.holds) {
        std::vector<std::int32_t> full_counts, deltas;
        std::int32_t total = 0;
        for (const auto& ps : w.podsets) {
            full_counts.push_back(ps.count);
            std::int32_t d = ps.count - ps.min_count.value_or(ps.count);
            deltas.push_back(d);
            total += d;
        }
        if (total > 0) {
            std::optional<Assignment> last_good;
            std::vector<Target> last_targets;
            int last_good_idx = 0;
            auto fits = [&](int k) {
                std::vector<std::int32_t> counts(full_counts.size());
                for (std::size_t i = 0; i < counts.size(); ++i)
                    counts[i] = full_counts[i] -
                                static_cast<std::int32_t>(static_cast<std::int64_t>(deltas[i]) * k / total);
                Assignment a = assign_flavors(ctx, wl, cq, &counts, nomination);
                Mode am = a.rep_mode();
                std::vector<Target> t;
                bool ok = am == Mode::Fit;
                if (am == Mode::Preempt) {
                    t = get_targets(ctx, wl, a);
                    ok = !t.empty();
                }
                if (ok) {
                    last_good_idx = k;
                    last_good = std::move(a);
                    last_targets = std::move(t);
                }
                return ok;
            };
            int lo = 0, hi = total + 1;  // sort.Search(total+1, fits)
            while (lo < hi) {
                int h = lo + (hi - lo) / 2;
                if (!fits(h)) lo = h + 1;
                else hi = h;
            }
            if (last_good && lo == last_good_idx) {
                targets = std::move(last_targets);
                return std::move(*last_good);
            }
        }
    }
    targets.clear();
    return full;
}

}  // namespace

Assignment get_assignments(SchedCtx& ctx, int wl, int cq, const NominationMap* nomination, std::vector<Target>& targets) {
    Assignment a = initial_assignments(ctx, wl, cq, nomination, targets);
    place_for_preemption(ctx, wl, ctx.m.cqs[cq], a, targets);
    return a;
}

}  // namespace queueforge::scheduler::detail
