#pragma once
// The simulator as a steppable engine: one long-lived Kueue scheduler whose
// cycles the caller runs one at a time, with the cluster's events in between
// (a workload is created, a job finishes). `simulate()` drives it to a
// fixpoint; the timeline (virtual-time) mode drives it through a scenario.
//
// Workloads are addressed by id: their index in the engine's namespace/name
// order (workload_id()).
#include <queueforge/model/kueue_config.hpp>
#include <queueforge/base/diagnostics.hpp>
#include <queueforge/frontend/manifests.hpp>
#include <queueforge/engines/scheduler.hpp>

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace queueforge::scheduler {

// Who preempted whom this cycle and why: Kueue's Preempted condition reason
// (InClusterQueue, InCohortReclamation, InCohortFairSharing,
// InCohortReclaimWhileBorrowing; apis/kueue/v1beta2/workload_types.go) and
// the "/cohort/.../cq" paths of both ClusterQueues that Kueue's preemption
// message carries.
struct Preemption {
    int preemptor = -1, victim = -1;
    std::string reason;
    std::string preemptor_path, victim_path;
};

struct CycleEvents {
    std::vector<int> admitted;  // got quota this cycle (ids, ascending)
    std::vector<int> evicted;   // evicted by preemption this cycle (ids, ascending)
    // Evicted by the second pass: no replacement for a failed node
    // (EvictedDueToNodeFailures; ids, ascending).
    std::vector<int> node_failure_evicted;
    std::vector<Preemption> preemptions;  // one per victim newly evicted, in the order issued
    // blockAdmission: the workload that would have been admitted next and
    // waits with QuotaReserved=False WaitingForPodsReady (-1: none).
    int waiting_for_pods_ready = -1;
    bool changed = false;       // admissions, evictions or any queue move
};

// Kueue's Configuration.waitForPodsReady as read from the inputs, defaults
// applied (model/kueue_config.hpp). The timeline applies it; one-shot
// simulate cannot (pods have no readiness there).
using PodsReadyConfig = model::PodsReady;

// Quota a workload holds: milli-CPU for cpu, units otherwise.
struct HeldAmount {
    std::string flavor;
    std::string resource;
    std::int64_t value = 0;
};

struct ClusterQueueInfo {
    std::string name;
    std::string cohort;  // "" without one
    std::vector<HeldAmount> nominal;  // per flavor and resource, spec order
    // Kueue's PotentialAvailable: the most the queue can ever hold of each
    // flavor and resource, nominal plus what it may borrow from its cohort
    // (within borrowingLimit), whatever the others use. Same order.
    std::vector<HeldAmount> potential;
};

class Engine {
public:
    Engine(const std::vector<Resource>& objects, Diagnostics& diags);
    ~Engine();
    Engine(Engine&&) noexcept;
    Engine& operator=(Engine&&) noexcept;

    // More Workloads, before anything else is asked of the engine (ids are
    // final from then on). Lets a caller feed thousands of generated
    // Workloads in batches instead of holding all their manifests at once.
    // Namespaces among them are added too when the engine has none of that
    // name (their labels feed namespaceSelectors); other kinds are ignored.
    void add_workloads(const std::vector<Resource>& workloads, Diagnostics& diags);

    // A copy of an engine nothing has been asked of yet (only built and
    // given workloads): the compiled configuration is copied, not rebuilt
    // from the manifests. Runs one-off variants of a cluster cheaply (the
    // one-shot simulate runs each sample alone this way).
    Engine fork() const;
    // Whether a Workload of this namespace and name is among the engine's
    // (an unsealed engine too).
    bool has_workload(const std::string& namespace_, const std::string& name) const;

    int workload_count() const;
    int workload_id(const std::string& namespace_, const std::string& name) const;  // -1 when unknown
    std::vector<ClusterQueueInfo> cluster_queues() const;  // by name

    // Timeline: the workload does not exist yet; arrive() creates it (it
    // joins its queue, as a new Workload does).
    void hold_back(int wl);
    void arrive(int wl);
    // The workload's job finished (Finished=True): its quota is released and
    // the inadmissible workloads of its cohort tree are requeued. False when
    // it held no quota.
    bool finish(int wl);

    // waitForPodsReady (the workload controller, reconcileNotReadyTimeout):
    // the workload is evicted (Evicted reason PodsReadyTimeout) or, past the
    // requeuing limit, deactivated. Its quota is released, it leaves the
    // queues (held back until arrive() requeues it; never for a deactivated
    // one) and the inadmissible workloads of its cohort tree are requeued.
    // With requeuingStrategy.timestamp Eviction its queue order timestamp
    // becomes `now_ns`. False when it held no quota.
    bool evict_not_ready(int wl, std::int64_t now_ns, bool deactivate);
    const PodsReadyConfig& pods_ready() const;
    // blockAdmission: a cycle admits at most one workload (none when
    // `pods_not_ready`: an admitted workload's pods are not ready yet); the
    // next one that would be admitted gets QuotaReserved=False
    // WaitingForPodsReady (CycleEvents::waiting_for_pods_ready) and the rest
    // of the cycle is put off. The caller then runs no cycle until the pods
    // are ready, as Kueue's scheduler waits inside its cycle.
    void set_block_after_admission(bool on, bool pods_not_ready = false);
    // The sim.not-simulated warning one-shot simulate() reports when the
    // inputs enable waitForPodsReady.
    const std::optional<Diagnostic>& pods_ready_note() const;

    bool holds_quota(int wl) const;
    std::string cluster_queue_of(int wl) const;  // admission CQ, else the LocalQueue's; "" when unknown
    std::vector<HeldAmount> held(int wl) const;

    // Whether another cycle can change anything: queued heads, or victims
    // whose eviction completes before the next cycle.
    bool has_work() const;
    // One scheduling cycle at `now_ns` (ns since the epoch). The previous
    // cycle's victims release their quota first when complete_evictions.
    CycleEvents cycle(std::int64_t now_ns, bool complete_evictions = true);
    int cycles_run() const;
    // Virtual time passes up to `now_ns` before the events at that instant:
    // Kueue's LocalQueue controller samples admission-fair-sharing usage every
    // usageSamplingInterval (a no-op without admissionFairSharing). One-shot
    // simulate never calls it: its clock stands still, as in Kueue's tests.
    void advance(std::int64_t now_ns);
    // The LocalQueue's admission-fair-sharing usage as Kueue orders by it
    // (0 without admission fair sharing on its ClusterQueue).
    double afs_usage(const std::string& namespace_, const std::string& local_queue) const;
    // The latest creation or quota-reservation time among the input
    // workloads: simulate() starts its clock there.
    std::int64_t latest_timestamp() const;

    // The outcome so far (what simulate() returns).
    Result result(bool converged, Diagnostics& diags) const;

private:
    struct Impl;
    explicit Engine(std::unique_ptr<Impl> impl);
    Impl& sealed() const;
    std::unique_ptr<Impl> impl_;
};

// simulate() on an engine built (and perhaps forked) by the caller: its
// cycles run to a fixpoint from the newest input timestamp.
Result simulate(Engine& engine, const Options& opts, Diagnostics& diags);

}  // namespace queueforge::scheduler
