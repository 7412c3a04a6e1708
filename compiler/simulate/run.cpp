// simulate(): the long-lived scheduler loop with the workload-controller
// emulation between cycles (kueue-conformance/README.md "run A";
// kueue-semantics.md 5.11), and the Result.
#include <queueforge/simulate.hpp>

#include "simulate/cluster_state.hpp"
#include "simulate/cycle.hpp"
#include "simulate/format.hpp"

#include <algorithm>

namespace queueforge::sim {

namespace {

using namespace detail;

constexpr int kMaxCycles = 1000;

// The workload controller's status for workloads the scheduler never sees
// (workload_controller.go getQueueBlocker).
void routing_status(const Model& m, Workload& w) {
    if (w.holds || w.finished) return;
    if (!w.active) {
        w.reason = "Deactivated";
        w.message = "The workload is deactivated";
    } else if (w.queue_name.empty()) {
        return;
    } else if (w.lq < 0) {
        w.reason = "Misconfigured";
        w.message = "LocalQueue " + w.queue_name + " doesn't exist";
    } else if (m.lqs[w.lq].stopped) {
        w.reason = "Suspended";
        w.message = "LocalQueue " + w.queue_name + " is inactive";
    } else if (w.queue_cq < 0) {
        w.reason = "Misconfigured";
        w.message = "ClusterQueue " + m.lqs[w.lq].cq_name + " doesn't exist";
    } else if (!m.cqs[w.queue_cq].active) {
        w.reason = "Suspended";
        w.message = "ClusterQueue " + m.cqs[w.queue_cq].name + " is inactive";
    }
}

// Jobs stop, quota is released (jobframework reconciler), the workload goes
// back to its queue and the inadmissible workloads of its tree are requeued.
void complete_eviction(Model& m, Queues& queues, QuotaState& cache, int wl) {
    Workload& w = m.wls[wl];
    if (!w.holds) return;
    ClusterQueue& cq = m.cqs[w.adm_cq];
    QuotaView(m, cache).remove_usage(cq.node, w.usage);
    int pos = w.cq_pos;
    if (pos >= 0 && pos < static_cast<int>(cq.workloads.size()) && cq.workloads[pos] == wl) {
        int last = cq.workloads.back();
        cq.workloads[pos] = last;
        m.wls[last].cq_pos = pos;
        cq.workloads.pop_back();
    }
    ++cq.generation;
    w.holds = false;
    w.adm_cq = -1;
    w.cq_pos = -1;
    w.snap_present = false;
    w.admission.clear();
    w.usage.clear();
    w.borrowing = false;
    w.last.reset();
    w.reason = "PendingEvaluation";
    w.message = w.preempt_message;
    if (queues.push_or_update(wl) && w.queue_cq >= 0) queues.notify(w.queue_cq);
}

std::int64_t clock_base(const Model& m) {
    std::int64_t t = 0;
    for (const auto& w : m.wls) t = std::max({t, w.created, w.reserved_at});
    return t;
}

WorkloadOutcome outcome(const Model& m, const Workload& w) {
    WorkloadOutcome o;
    o.namespace_ = w.ns;
    o.name = w.name;
    o.local_queue = w.queue_name;
    if (w.holds) o.cluster_queue = m.cqs[w.adm_cq].name;
    else if (w.lq >= 0) o.cluster_queue = m.lqs[w.lq].cq_name;
    o.priority = w.priority;
    o.admitted = w.holds;
    o.held_before = w.held_before;
    o.preempted = w.preempted_cycle > 0;
    if (w.admitted_cycle) o.admitted_in_cycle = w.admitted_cycle;
    if (w.preempted_cycle) o.preempted_in_cycle = w.preempted_cycle;
    if (w.holds) {
        for (const auto& ps : w.admission) {
            sim::PodSetAssignment a;
            a.name = ps.name;
            a.count = ps.count;
            for (const auto& [res, f] : ps.flavors) a.flavors[m.res_name(res)] = m.flavor_name(f);
            for (const auto& [res, q] : ps.requests)
                if (ps.flavors.has(res)) a.resource_usage[m.res_name(res)] = format_quantity(m.res_name(res), q);
            o.assignments.push_back(std::move(a));
        }
        o.borrowing = w.borrowing;
    } else {
        o.reason = w.reason;
        o.message = w.message;
    }
    o.preemption_reason = w.preempt_reason;
    o.preemption_message = w.preempt_message;
    o.mark = w.mark;
    o.file = w.file;
    return o;
}

void report_findings(const Model& m, Diagnostics& diags) {
    for (const auto& w : m.wls) {
        if (w.holds) continue;
        if (w.reason == "ExceedsMaxQuota" || w.reason == "NoMatchingFlavor" || w.reason == "Misconfigured") {
            Diagnostic d;
            d.severity = Severity::Warning;
            d.file = w.file;
            d.mark = w.mark;
            d.rule = "sim.never-admitted";
            d.message = "Workload/" + w.key + " can never be admitted as configured (" + w.reason + "): " + w.message;
            d.object = {"kueue.x-k8s.io/v1beta2", "Workload", w.ns, w.name};
            diags.add(std::move(d));
        }
    }
}

}  // namespace

Result simulate(const std::vector<Resource>& objects, const Options& opts, Diagnostics& diags) {
    Model m = build_model(objects, diags);
    Queues queues(m);
    for (std::size_t i = 0; i < m.wls.size(); ++i) {
        queues.push_or_update(static_cast<int>(i));
        routing_status(m, m.wls[i]);
    }
    QuotaState cache;
    rebuild_usage(m, cache);
    const std::int64_t base = clock_base(m);
    const int limit = opts.max_cycles > 0 ? std::min(opts.max_cycles, kMaxCycles) : kMaxCycles;

    Result result;
    std::vector<int> pending_victims;
    std::vector<int> evicted_order;
    int cycle = 0;
    while (true) {
        if (cycle >= limit) break;
        if (!pending_victims.empty()) {
            std::sort(pending_victims.begin(), pending_victims.end());  // namespace/name order
            for (int v : pending_victims) complete_eviction(m, queues, cache, v);
            pending_victims.clear();
            queues.process_requeues();
        }
        if (!queues.has_heads()) {
            // Kueue's scheduler still runs this cycle: it finds no heads and
            // changes nothing (the conformance harness counts it).
            ++cycle;
            result.converged = true;
            break;
        }
        ++cycle;
        auto before = queues.contents();
        CycleOutcome out = run_cycle(m, queues, cache, cycle, base + static_cast<std::int64_t>(cycle - 1) * 1000000000LL);
        // Pending -> QuotaReserved update: the workload leaves the queues and
        // is re-added to the cache (its ClusterQueue generation advances).
        std::vector<int> admitted = out.admitted;
        std::sort(admitted.begin(), admitted.end());
        for (int w : admitted) {
            queues.remove(w);
            ++m.cqs[m.wls[w].adm_cq].generation;
        }
        std::vector<int> victims = out.victims;
        std::sort(victims.begin(), victims.end());
        for (int v : victims) evicted_order.push_back(v);
        if (opts.complete_evictions) pending_victims = victims;
        if (out.admitted.empty() && out.victims.empty() && queues.contents() == before) {
            result.converged = true;
            break;
        }
    }
    result.cycles = cycle;

    for (auto& w : m.wls)
        if (!w.holds && w.reason.empty()) routing_status(m, w);
    report_findings(m, diags);
    for (const auto& w : m.wls) result.workloads.push_back(outcome(m, w));
    std::vector<char> seen(m.wls.size(), 0);
    for (int v : evicted_order)
        if (!seen[v]) {
            seen[v] = 1;
            result.evicted.push_back(m.wls[v].key);
        }
    std::vector<int> cq_order(m.cqs.size());
    for (std::size_t i = 0; i < cq_order.size(); ++i) cq_order[i] = static_cast<int>(i);
    std::sort(cq_order.begin(), cq_order.end(), [&](int a, int b) { return m.cqs[a].name < m.cqs[b].name; });
    for (int ci : cq_order) {
        const ClusterQueue& cq = m.cqs[ci];
        ClusterQueueUsage u;
        u.name = cq.name;
        u.active = cq.active && !cq.in_cycle;
        u.inactive_reason = cq.inactive_reason;
        for (int fr : cq.fr_order) {
            const std::string& res = m.res_name(m.fr_resource(fr));
            FlavorResourceUsage f;
            f.flavor = m.flavor_name(m.fr_flavor(fr));
            f.resource = res;
            f.total_value = cache.usage[cq.node].get(fr);
            f.borrowed_value = std::max<Amount>(0, amt_sub(f.total_value, m.nodes[cq.node].quotas.get(fr).nominal));
            f.total = format_amount(res, f.total_value);
            f.borrowed = format_amount(res, f.borrowed_value);
            u.usage.push_back(std::move(f));
        }
        u.reserving_workloads = static_cast<int>(cq.workloads.size());
        for (int w : queues.active_in_order(ci)) u.pending_active.push_back(m.wls[w].key);
        for (int w : queues.inadmissible(ci)) u.pending_inadmissible.push_back(m.wls[w].key);
        result.cluster_queues.push_back(std::move(u));
    }
    return result;
}

}  // namespace queueforge::sim
