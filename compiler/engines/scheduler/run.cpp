// simulate(): the engine driven to a fixpoint, one cycle per simulated second
// after the newest input timestamp.
#include <queueforge/engines/scheduler_engine.hpp>
#include <queueforge/engines/scheduler.hpp>

#include <algorithm>

namespace queueforge::scheduler {

namespace {
constexpr int kMaxCycles = 1000;
constexpr std::int64_t kSecond = 1000000000LL;
}  // namespace

Result simulate(const std::vector<Resource>& objects, const Options& opts, Diagnostics& diags) {
    Engine engine(objects, diags);
    return simulate(engine, opts, diags);
}

Result simulate(Engine& engine, const Options& opts, Diagnostics& diags) {
    // waitForPodsReady needs pod readiness, which only the timeline models.
    if (const auto& note = engine.pods_ready_note()) diags.add(*note);
    const std::int64_t base = engine.latest_timestamp();
    const int limit = opts.max_cycles > 0 ? std::min(opts.max_cycles, kMaxCycles) : kMaxCycles;
    bool converged = false;
    while (engine.cycles_run() < limit) {
        CycleEvents ev = engine.cycle(base + static_cast<std::int64_t>(engine.cycles_run()) * kSecond, opts.complete_evictions);
        if (!ev.changed) {
            converged = true;
            break;
        }
    }
    return engine.result(converged, diags);
}

}  // namespace queueforge::scheduler
