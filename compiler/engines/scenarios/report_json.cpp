// The SimulationReport contract of `simulate -o json` (README, "simulate").
// CI tools consume it: keys and their meaning stay stable; new keys may be
// added.
#include <queueforge/engines/scenarios.hpp>

#include <nlohmann/json.hpp>

namespace queueforge::scenarios {

namespace {

using json = nlohmann::ordered_json;

json admission(const scheduler::WorkloadOutcome& w) {
    if (!w.admitted) return nullptr;
    json psa = json::array();
    for (const auto& a : w.assignments) {
        json flavors = json::object(), usage = json::object();
        for (const auto& [r, f] : a.flavors) flavors[r] = f;
        for (const auto& [r, q] : a.resource_usage) usage[r] = q;
        json entry = {{"name", a.name}, {"count", a.count}, {"flavors", flavors}, {"resourceUsage", usage}};
        // Kueue's status.admission.podSetAssignments[].topologyAssignment
        // (the v1beta1 shape: levels, domains of values and counts).
        if (a.topology_assignment) {
            json domains = json::array();
            for (const auto& d : a.topology_assignment->domains) domains.push_back({{"values", d.values}, {"count", d.count}});
            entry["topologyAssignment"] = {{"levels", a.topology_assignment->levels}, {"domains", domains}};
        }
        // Pending: the topology waits for a ProvisioningRequest check; Ready:
        // the second pass placed it.
        if (!a.delayed_topology_request.empty()) entry["delayedTopologyRequest"] = a.delayed_topology_request;
        psa.push_back(std::move(entry));
    }
    return {{"clusterQueue", w.cluster_queue}, {"podSetAssignments", psa}};
}

json message(const scheduler::WorkloadOutcome& w) {
    // A preempted workload reports why it was evicted; a pending one, Kueue's reason.
    if (w.preempted && !w.admitted && !w.preemption_message.empty()) return w.preemption_message;
    if (!w.admitted && !w.message.empty()) return w.message;
    return nullptr;
}

json reason(const scheduler::WorkloadOutcome& w) {
    return !w.admitted && !w.reason.empty() ? json(w.reason) : json(nullptr);
}
json preemption_reason(const scheduler::WorkloadOutcome& w) {
    return w.preempted && !w.preemption_reason.empty() ? json(w.preemption_reason) : json(nullptr);
}

// Kueue's second scheduling pass for a workload already holding quota:
// null unless there was one (or one is due).
json second_pass(const scheduler::WorkloadOutcome& w) {
    if (!w.second_pass_in_cycle && w.unhealthy_nodes.empty() && w.replaced_nodes.empty() &&
        w.second_pass_message.empty())
        return nullptr;
    return {{"inCycle", w.second_pass_in_cycle ? json(*w.second_pass_in_cycle) : json(nullptr)},
            {"replacedNodes", w.replaced_nodes},
            {"unhealthyNodes", w.unhealthy_nodes},
            {"failedMessage", w.second_pass_message.empty() ? json(nullptr) : json(w.second_pass_message)}};
}

json outcome_summary(const scheduler::WorkloadOutcome& w) {
    json flavors = json::object();
    for (const auto& a : w.assignments)
        for (const auto& [r, f] : a.flavors) flavors[r] = f;
    // Kueue's vocabulary: the QuotaReserved=False reason of a pending
    // workload (WaitingForQuota, ExceedsMaxQuota, NoMatchingFlavor,
    // TopologyPlacementFailed, Misconfigured, Suspended, ...), the Preempted
    // reason of an evicted one (InClusterQueue, InCohortReclamation, ...).
    return {{"status", w.admitted ? "Admitted" : "Pending"},
            {"admission", admission(w)},
            {"borrowing", w.borrowing},
            {"reason", reason(w)},
            {"preemptionReason", preemption_reason(w)},
            {"message", message(w)}};
}

}  // namespace

std::string format_json(const Report& r) {
    json out = {{"apiVersion", "queueforge.io/v1alpha1"}, {"kind", "SimulationReport"}, {"cycles", r.cycles}};
    json workloads = json::array();
    json alone = json::array();
    for (const auto& s : r.workloads) {
        const auto& w = s.together;
        json e = nullptr;
        if (s.expect) {
            e = {{"met", s.expectation_met}};
            if (!s.expectation_met) e["details"] = s.expectation_detail;
        }
        workloads.push_back({{"namespace", w.namespace_},
                             {"name", w.name},
                             {"localQueue", w.local_queue},
                             {"clusterQueue", w.cluster_queue},
                             {"priority", w.priority},
                             {"status", w.admitted ? "Admitted" : "Pending"},
                             {"preempted", w.preempted},
                             {"admittedInCycle", w.admitted_in_cycle ? json(*w.admitted_in_cycle) : json(nullptr)},
                             {"admission", admission(w)},
                             {"borrowing", w.borrowing},
                             {"reason", reason(w)},
                             {"preemptionReason", preemption_reason(w)},
                             {"message", message(w)},
                             {"evictionReason", w.eviction_reason.empty() ? json(nullptr) : json(w.eviction_reason)},
                             {"evictionMessage", w.eviction_message.empty() ? json(nullptr) : json(w.eviction_message)},
                             {"secondPass", second_pass(w)},
                             {"expectation", e},
                             {"nodeShape", s.node_shape_problem.empty() ? json(nullptr) : json(s.node_shape_problem)}});
        if (s.alone) {
            json a = {{"namespace", w.namespace_}, {"name", w.name}};
            const json summary = outcome_summary(*s.alone);  // a named object: items() borrows it
            for (const auto& [k, v] : summary.items()) a[k] = v;
            alone.push_back(std::move(a));
        }
    }
    out["workloads"] = std::move(workloads);
    json cqs = json::array();
    for (const auto& cq : r.cluster_queues) {
        int admitted = 0, pending = 0;
        for (const auto& s : r.workloads) {
            if (s.together.cluster_queue != cq.name) continue;
            (s.together.admitted ? admitted : pending)++;
        }
        json usage = json::array();
        for (const auto& u : cq.usage)
            usage.push_back({{"flavor", u.flavor}, {"resource", u.resource}, {"total", u.total}, {"borrowed", u.borrowed}});
        cqs.push_back({{"name", cq.name}, {"admitted", admitted}, {"pending", pending}, {"usage", usage}});
    }
    out["clusterQueues"] = std::move(cqs);
    // Each sample simulated alone on the configured cluster with its running workloads.
    out["alone"] = std::move(alone);
    return out.dump(2) + "\n";
}

}  // namespace queueforge::scenarios
