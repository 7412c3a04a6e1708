// The steppable scheduler (sim_engine.hpp): Kueue's scheduler cycles with
// the workload controller emulated between them (kueue-conformance/README.md
// "run A"; kueue-semantics.md 5.11): victims of preemption release their
// quota and go back to their queue, finished workloads release theirs, and
// either requeues the inadmissible workloads of the cohort tree.
#include <queueforge/engines/scheduler_engine.hpp>

#include "engines/scheduler/cluster_state.hpp"
#include "engines/scheduler/cycle.hpp"
#include "engines/scheduler/format.hpp"
#include "engines/scheduler/quota.hpp"
#include "engines/scheduler/second_pass.hpp"
#include "engines/scheduler/tas.hpp"

#include <algorithm>
#include <map>
#include <optional>

namespace queueforge::scheduler {

using namespace detail;

namespace {

// The workload controller's status for workloads the scheduler never sees
// (workload_controller.go getQueueBlocker).
void routing_status(const Model& m, Workload& w) {
    if (w.holds || w.finished || !w.arrived || !w.reason.empty()) return;
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

}  // namespace

struct Engine::Impl {
    WorkloadContext ctx;       // for add_workloads (filled while m is built)
    Model m;
    std::optional<Queues> q;   // built when sealed: workload ids are final then
    bool added = false;
    QuotaState cache;
    std::vector<int> pending_victims;  // evicted last cycle, quota not yet released
    std::vector<int> evicted_order;
    std::vector<int> last_admitted;    // not yet in a snapshot
    SecondPassQueue second_pass;
    int cycle = 0;

    Impl(const std::vector<Resource>& objects, Diagnostics& diags) : m(build_model(objects, diags, &ctx)) {}
    // A fresh engine over a copy of another's model (Engine::fork): queues,
    // usage and cycles start empty, as they are before sealing.
    struct Fork {};
    Impl(Fork, const Impl& o) : ctx(o.ctx), m(o.m), added(true) {}

    void seal() {
        if (q) return;
        if (added) index_workloads(m);
        m.afs.init(m);
        q.emplace(m);
        for (std::size_t i = 0; i < m.wls.size(); ++i) {
            q->push_or_update(static_cast<int>(i));
            routing_status(m, m.wls[i]);
        }
        rebuild_usage(m, cache);
        for (auto& t : m.tas) t.topology.clear_usage();
        for (auto& w : m.wls) {
            w.snap_present = w.holds;
            if (w.holds) apply_placements(m, w.placements, 1, Scope::Cache);
        }
        for (std::size_t i = 0; i < m.wls.size(); ++i)
            if (m.wls[i].holds) second_pass.queue_initial(m, static_cast<int>(i));
    }
    Queues& queues() {
        seal();
        return *q;
    }

    // Quota released and the workload out of its ClusterQueue's cache.
    void release(int wl) {
        Workload& w = m.wls[wl];
        ClusterQueue& cq = m.cqs[w.adm_cq];
        m.afs.released(m, wl);
        QuotaView(m, cache).remove_usage(cq.node, w.usage);
        apply_placements(m, w.placements, -1, Scope::Cache);
        w.placements.clear();
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
        second_pass.remove(wl);
    }

    // Jobs stop, quota is released (jobframework reconciler), the workload
    // goes back to its queue and the inadmissible workloads of its tree are
    // requeued.
    void complete_eviction(int wl) {
        Workload& w = m.wls[wl];
        if (!w.holds) return;
        release(wl);
        w.reason = "PendingEvaluation";
        w.message = w.evict_reason.empty() ? w.preempt_message : w.evict_message;
        // Evict resets status.unhealthyNodes (pkg/workload/evict).
        w.unhealthy_nodes.clear();
        if (queues().push_or_update(wl) && w.queue_cq >= 0) queues().notify(w.queue_cq);
    }
};

namespace {

WorkloadOutcome outcome(const Model& m, const Workload& w) {
    Workload routed;  // reason of a workload the scheduler never saw
    if (!w.holds && w.reason.empty()) {
        routed.queue_name = w.queue_name;
        routed.active = w.active;
        routed.finished = w.finished;
        routed.lq = w.lq;
        routed.queue_cq = w.queue_cq;
        routing_status(m, routed);
    }
    const Workload& why = w.reason.empty() ? routed : w;
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
            scheduler::PodSetAssignment a;
            a.name = ps.name;
            a.count = ps.count;
            for (const auto& [res, f] : ps.flavors) a.flavors[m.res_name(res)] = m.flavor_name(f);
            for (const auto& [res, q] : ps.requests)
                if (ps.flavors.has(res)) a.resource_usage[m.res_name(res)] = format_quantity(m.res_name(res), q);
            a.delayed_topology_request = ps.delayed;
            for (const auto& p : w.placements)
                if (p.podset == ps.name) {
                    a.topology_assignment = p.assignment;
                    a.topology_flavor = m.flavor_name(m.tas[static_cast<std::size_t>(p.tas)].flavor);
                    a.topology_summary = m.tas[static_cast<std::size_t>(p.tas)].topology.summary(p.assignment);
                }
            o.assignments.push_back(std::move(a));
        }
        o.borrowing = w.borrowing;
    } else {
        o.reason = why.reason;
        o.message = why.message;
    }
    o.preemption_reason = w.preempt_reason;
    o.preemption_message = w.preempt_message;
    o.unhealthy_nodes = w.unhealthy_nodes;
    o.replaced_nodes = w.replaced_nodes;
    if (w.second_pass_cycle) o.second_pass_in_cycle = w.second_pass_cycle;
    if (w.holds) o.second_pass_message = w.second_pass_message;
    o.eviction_reason = w.evict_reason;
    o.eviction_message = w.evict_message;
    o.mark = w.mark;
    o.file = w.file;
    return o;
}

void report_findings(const Model& m, const std::vector<WorkloadOutcome>& outcomes, Diagnostics& diags) {
    for (std::size_t i = 0; i < m.wls.size(); ++i) {
        const Workload& w = m.wls[i];
        const WorkloadOutcome& o = outcomes[i];
        if (w.holds) continue;
        // TopologyPlacementFailed: the podset fits no domain even on empty nodes.
        if (o.reason == "ExceedsMaxQuota" || o.reason == "NoMatchingFlavor" || o.reason == "Misconfigured" ||
            o.reason == "TopologyPlacementFailed") {
            Diagnostic d;
            d.severity = Severity::Warning;
            d.file = w.file;
            d.mark = w.mark;
            d.rule = "sim.never-admitted";
            d.message = "Workload/" + w.key + " can never be admitted as configured (" + o.reason + "): " + o.message;
            d.object = {"kueue.x-k8s.io/v1beta2", "Workload", w.ns, w.name};
            diags.add(std::move(d));
        }
    }
}

ClusterQueueUsage cq_usage(const Model& m, const QuotaState& cache, const Queues& queues, int ci) {
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
    return u;
}

std::vector<TopologyOccupancy> occupancy(const Model& m) {
    std::vector<TopologyOccupancy> out;
    for (std::size_t t = 0; t < m.tas.size(); ++t) {
        TopologyOccupancy o;
        o.flavor = m.flavor_name(m.tas[t].flavor);
        o.topology = m.flavors[static_cast<std::size_t>(m.tas[t].flavor)].topology_name;
        o.levels = m.tas[t].topology.levels();
        std::map<std::string, std::size_t> index;
        for (auto& l : m.tas[t].topology.leaves()) {
            index[l.id] = o.leaves.size();
            o.leaves.push_back({std::move(l.values), {}});
        }
        for (const auto& w : m.wls) {
            if (!w.holds) continue;
            for (const auto& p : w.placements) {
                if (p.tas != static_cast<int>(t)) continue;
                for (const auto& d : p.assignment.domains) {
                    std::string id;
                    for (std::size_t k = 0; k < d.values.size(); ++k) id += (k ? "," : "") + d.values[k];
                    auto it = index.find(id);
                    if (it != index.end()) o.leaves[it->second].pods.emplace_back(w.key, d.count);
                }
            }
        }
        out.push_back(std::move(o));
    }
    std::sort(out.begin(), out.end(), [](const auto& a, const auto& b) { return a.flavor < b.flavor; });
    return out;
}

}  // namespace

Engine::Engine(const std::vector<Resource>& objects, Diagnostics& diags)
    : impl_(std::make_unique<Impl>(objects, diags)) {}
Engine::Engine(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}

Engine Engine::fork() const {
    // Unsealed, the state is the model and the workload context: no queues,
    // no usage, no cycle yet. The workloads' namespace-label pointers are
    // set again when the copy is sealed (index_workloads).
    return Engine(std::make_unique<Impl>(Impl::Fork{}, *impl_));
}

bool Engine::has_workload(const std::string& ns, const std::string& name) const {
    const std::string key = (ns.empty() ? std::string("default") : ns) + "/" + name;
    return std::any_of(impl_->m.wls.begin(), impl_->m.wls.end(), [&](const Workload& w) { return w.key == key; });
}
Engine::~Engine() = default;
Engine::Engine(Engine&&) noexcept = default;
Engine& Engine::operator=(Engine&&) noexcept = default;

Engine::Impl& Engine::sealed() const {
    impl_->seal();
    return *impl_;
}

void Engine::add_workloads(const std::vector<Resource>& workloads, Diagnostics& diags) {
    if (impl_->q) {
        diags.error("", {}, "internal: workloads added after the simulation started", "sim.internal");
        return;
    }
    std::vector<const Resource*> list, namespaces;
    for (const auto& r : workloads) {
        if (r.ref.kind == "Workload" && r.ref.api_version.rfind("kueue.x-k8s.io/", 0) == 0) list.push_back(&r);
        else if (r.ref.kind == "Namespace" && r.ref.api_version == "v1" && !impl_->m.namespaces.count(r.ref.name))
            namespaces.push_back(&r);
    }
    detail::add_namespaces(namespaces, impl_->m, diags);
    detail::add_workloads(list, impl_->m, impl_->ctx, diags);
    impl_->added = true;
}

int Engine::workload_count() const { return static_cast<int>(sealed().m.wls.size()); }

int Engine::workload_id(const std::string& ns, const std::string& name) const {
    // Workloads are sorted by "namespace/name" (build_workloads).
    const auto& wls = sealed().m.wls;
    const std::string key = ns + "/" + name;
    auto it = std::lower_bound(wls.begin(), wls.end(), key, [](const Workload& w, const std::string& k) { return w.key < k; });
    if (it == wls.end() || it->key != key) return -1;
    return static_cast<int>(it - wls.begin());
}

std::vector<ClusterQueueInfo> Engine::cluster_queues() const {
    const Model& m = sealed().m;
    std::vector<ClusterQueueInfo> out;
    QuotaState none;  // potential_available reads the quotas only, never the usage
    QuotaView quotas(m, none);
    for (const auto& cq : m.cqs) {
        ClusterQueueInfo info;
        info.name = cq.name;
        if (int p = m.nodes[cq.node].parent; p >= 0) info.cohort = m.nodes[p].name;
        for (int fr : cq.fr_order)
            info.nominal.push_back({m.flavor_name(m.fr_flavor(fr)), m.res_name(m.fr_resource(fr)),
                                    m.nodes[cq.node].quotas.get(fr).nominal});
        for (int fr : cq.fr_order)
            info.potential.push_back({m.flavor_name(m.fr_flavor(fr)), m.res_name(m.fr_resource(fr)),
                                      quotas.potential_available(cq.node, fr)});
        out.push_back(std::move(info));
    }
    std::sort(out.begin(), out.end(), [](const auto& a, const auto& b) { return a.name < b.name; });
    return out;
}

void Engine::hold_back(int wl) {
    Workload& w = sealed().m.wls[wl];
    if (w.holds || !w.arrived) return;
    sealed().queues().remove(wl);
    w.arrived = false;
}

void Engine::arrive(int wl) {
    Workload& w = sealed().m.wls[wl];
    if (w.arrived) return;
    w.arrived = true;
    sealed().queues().push_or_update(wl);
}

bool Engine::finish(int wl) {
    Workload& w = sealed().m.wls[wl];
    if (!w.holds) return false;
    int cq = w.adm_cq;
    sealed().release(wl);
    sealed().queues().remove(wl);
    w.finished = true;
    w.reason.clear();
    w.message.clear();
    sealed().queues().notify(cq);
    sealed().queues().process_requeues();
    return true;
}

bool Engine::evict_not_ready(int wl, std::int64_t now_ns, bool deactivate) {
    Impl& s = sealed();
    Workload& w = s.m.wls[wl];
    if (!w.holds) return false;
    int cq = w.adm_cq;
    s.release(wl);
    s.queues().remove(wl);
    w.arrived = false;  // back in its queue when the backoff ends (arrive())
    if (deactivate) {
        // spec.active=false: the workload controller's getQueueBlocker status.
        w.active = false;
        w.reason = "Deactivated";
        w.message = "The workload is deactivated";
    } else {
        w.reason = "PendingEvaluation";
        w.message = "Exceeded the PodsReady timeout " + w.key;
    }
    // GetQueueOrderTimestamp: a PodsReadyTimeout eviction orders by the
    // eviction time unless requeuingStrategy.timestamp is Creation.
    if (!s.m.config.pods_ready.creation_timestamp) w.order_ts = now_ns;
    s.queues().notify(cq);
    s.queues().process_requeues();
    return true;
}

const PodsReadyConfig& Engine::pods_ready() const { return sealed().m.config.pods_ready; }
void Engine::set_block_after_admission(bool on, bool pods_not_ready) {
    sealed().m.config.block_after_admission = on;
    sealed().m.config.pods_not_ready = pods_not_ready;
}
const std::optional<Diagnostic>& Engine::pods_ready_note() const { return impl_->m.config.pods_ready_note; }

bool Engine::holds_quota(int wl) const { return sealed().m.wls[wl].holds; }

std::string Engine::cluster_queue_of(int wl) const {
    const Model& m = sealed().m;
    const Workload& w = m.wls[wl];
    if (w.holds) return m.cqs[w.adm_cq].name;
    if (w.lq >= 0) return m.lqs[w.lq].cq_name;
    return {};
}

std::vector<HeldAmount> Engine::held(int wl) const {
    const Model& m = sealed().m;
    std::vector<HeldAmount> out;
    for (const auto& [fr, v] : m.wls[wl].usage) out.push_back({m.flavor_name(m.fr_flavor(fr)), m.res_name(m.fr_resource(fr)), v});
    return out;
}

bool Engine::has_work() const {
    return !sealed().pending_victims.empty() || sealed().queues().has_heads() || !sealed().second_pass.empty();
}

CycleEvents Engine::cycle(std::int64_t now_ns, bool complete_evictions) {
    Impl& s = sealed();
    for (int w : s.last_admitted)
        if (s.m.wls[w].holds) s.m.wls[w].snap_present = true;
    s.last_admitted.clear();
    if (!s.pending_victims.empty()) {
        std::sort(s.pending_victims.begin(), s.pending_victims.end());  // namespace/name order
        for (int v : s.pending_victims) s.complete_eviction(v);
        s.pending_victims.clear();
        s.queues().process_requeues();
    }
    ++s.cycle;
    CycleEvents ev;
    // With no heads Kueue's scheduler still runs the cycle and changes nothing
    // (the conformance harness counts it).
    if (!s.queues().has_heads() && !s.second_pass.has_ready(now_ns)) return ev;
    s.queues().begin_watch();
    CycleOutcome out = run_cycle(s.m, s.queues(), s.cache, s.cycle, now_ns, &s.second_pass);
    // Pending -> QuotaReserved: the workload leaves the queues and is re-added
    // to the cache (its ClusterQueue generation advances).
    ev.admitted = std::move(out.admitted);
    std::sort(ev.admitted.begin(), ev.admitted.end());
    for (int w : ev.admitted) {
        s.m.afs.admitted(s.m, w);  // entry penalty, settled at Admitted
        s.queues().remove(w);
        ++s.m.cqs[s.m.wls[w].adm_cq].generation;
    }
    s.last_admitted = ev.admitted;
    ev.preemptions = std::move(out.preemptions);
    ev.waiting_for_pods_ready = out.waiting_for_pods_ready;
    ev.evicted = std::move(out.victims);
    std::sort(ev.evicted.begin(), ev.evicted.end());
    s.evicted_order.insert(s.evicted_order.end(), ev.evicted.begin(), ev.evicted.end());
    if (complete_evictions) s.pending_victims = ev.evicted;
    // No replacement for a failed node: evicted (not preempted); the
    // workload controller releases the quota as for a victim.
    ev.node_failure_evicted = std::move(out.node_failure_evicted);
    std::sort(ev.node_failure_evicted.begin(), ev.node_failure_evicted.end());
    if (complete_evictions)
        s.pending_victims.insert(s.pending_victims.end(), ev.node_failure_evicted.begin(), ev.node_failure_evicted.end());
    ev.changed = !ev.admitted.empty() || !ev.evicted.empty() || !out.second_pass.empty() ||
                 !ev.node_failure_evicted.empty() || s.queues().watched_changed();
    return ev;
}

void Engine::advance(std::int64_t now_ns) { sealed().m.afs.advance(sealed().m, now_ns); }

double Engine::afs_usage(const std::string& ns, const std::string& lq) const {
    const Model& m = sealed().m;
    auto it = m.lq_ids.find(ns + "/" + lq);
    if (it == m.lq_ids.end() || !m.afs.entry(it->second)) return 0;
    return m.afs.usage(m, it->second);
}

int Engine::cycles_run() const { return sealed().cycle; }

Result Engine::result(bool converged, Diagnostics& diags) const {
    const Model& m = sealed().m;
    Result result;
    result.cycles = sealed().cycle;
    result.converged = converged;
    for (const auto& w : m.wls) result.workloads.push_back(outcome(m, w));
    report_findings(m, result.workloads, diags);
    std::vector<char> seen(m.wls.size(), 0);
    for (int v : sealed().evicted_order)
        if (!seen[v]) {
            seen[v] = 1;
            result.evicted.push_back(m.wls[v].key);
        }
    std::vector<int> cq_order(m.cqs.size());
    for (std::size_t i = 0; i < cq_order.size(); ++i) cq_order[i] = static_cast<int>(i);
    std::sort(cq_order.begin(), cq_order.end(), [&](int a, int b) { return m.cqs[a].name < m.cqs[b].name; });
    for (int ci : cq_order) result.cluster_queues.push_back(cq_usage(m, sealed().cache, sealed().queues(), ci));
    result.topologies = occupancy(m);
    return result;
}

std::int64_t Engine::latest_timestamp() const {
    std::int64_t t = 0;
    for (const auto& w : sealed().m.wls) t = std::max({t, w.created, w.reserved_at});
    return t;
}

}  // namespace queueforge::scheduler
