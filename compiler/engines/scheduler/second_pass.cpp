// The second-pass queue (second_pass.hpp). Kueue ff69552e
// pkg/cache/queue/second_pass_queue.go, manager.go QueueSecondPassIfNeeded,
// pkg/workload/workload.go NeedsSecondPass.
#include "engines/scheduler/second_pass.hpp"

#include "engines/scheduler/tas.hpp"

#include <algorithm>

namespace queueforge::scheduler::detail {

namespace {

// HasTopologyAssignmentsPending: a podset with delayedTopologyRequest
// Pending and no topologyAssignment.
bool topology_pending(const Workload& w) {
    for (const auto& ps : w.admission) {
        if (ps.delayed != "Pending") continue;
        bool placed = false;
        for (const auto& p : w.placements) placed = placed || p.podset == ps.name;
        if (!placed) return true;
    }
    return false;
}

}  // namespace

bool needs_second_pass(const Workload& w) {
    // IsFinished, IsEvicted, !HasQuotaReservation (IsOnHold needs a
    // QuotaReserved=False condition, which a workload holding quota has not).
    if (w.finished || w.evicted || !w.holds) return false;
    const bool delayed = w.checks > 0 && w.checks_ready && topology_pending(w) && !w.admitted_cond;
    return delayed || assignment_on_unhealthy_node(w);
}

std::int64_t SecondPassQueue::delay(int iteration) {
    constexpr std::int64_t kSecond = 1000000000LL;
    std::int64_t d = 0;
    for (int i = 0; i < iteration; ++i) {
        d = d == 0 ? kSecond : std::min<std::int64_t>(d * 2, 30 * kSecond);
        if (d == 30 * kSecond) break;
    }
    return d;
}

bool SecondPassQueue::queue_if_needed(const Model& m, int wl, int iteration, std::int64_t now) {
    if (!needs_second_pass(m.wls[static_cast<std::size_t>(wl)])) {
        if (iteration > 0) items_.erase(wl);
        return false;
    }
    if (items_.count(wl)) return false;  // prequeueIfAbsent
    ++iteration;
    items_[wl] = Item{iteration, now + delay(iteration)};
    return true;
}

void SecondPassQueue::queue_initial(const Model& m, int wl) {
    if (!needs_second_pass(m.wls[static_cast<std::size_t>(wl)])) return;
    items_[wl] = Item{1, 0};
}

std::vector<SecondPassQueue::Head> SecondPassQueue::take_ready(std::int64_t now) {
    std::vector<Head> out;
    for (auto it = items_.begin(); it != items_.end();) {
        if (it->second.ready_at <= now) {
            out.push_back({it->first, it->second.iteration});
            it = items_.erase(it);
        } else {
            ++it;
        }
    }
    return out;
}

bool SecondPassQueue::has_ready(std::int64_t now) const {
    return std::any_of(items_.begin(), items_.end(), [&](const auto& e) { return e.second.ready_at <= now; });
}

void SecondPassQueue::remove(int wl) { items_.erase(wl); }

}  // namespace queueforge::scheduler::detail
