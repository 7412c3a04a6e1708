// `simulate -o text`: one table per ClusterQueue, then what failed.
#include <queueforge/engines/scenarios.hpp>
#include <queueforge/base/text.hpp>

#include <algorithm>
#include <map>

namespace queueforge::scenarios {

namespace {

std::string flavors_of(const scheduler::WorkloadOutcome& w) {
    std::map<std::string, int> f;
    for (const auto& a : w.assignments)
        for (const auto& [r, name] : a.flavors) ++f[name];
    std::string s;
    for (const auto& [name, n] : f) s += (s.empty() ? "" : ",") + name;
    return s.empty() ? "-" : s;
}

std::string join(const std::vector<std::string>& v) { return queueforge::join(v, ", "); }

// An unhealthy node is the lowest-level value of a domain of its placement.
bool hosts_pods(const scheduler::WorkloadOutcome& w) {
    for (const auto& a : w.assignments)
        if (a.topology_assignment)
            for (const auto& d : a.topology_assignment->domains)
                if (!d.values.empty() &&
                    std::find(w.unhealthy_nodes.begin(), w.unhealthy_nodes.end(), d.values.back()) != w.unhealthy_nodes.end())
                    return true;
    return false;
}

std::string pad(std::string s, std::size_t w) {
    if (s.size() < w) s.append(w - s.size(), ' ');
    return s;
}

}  // namespace

std::string format_text(const Report& r) {
    std::string out;
    std::map<std::string, std::vector<const SampleReport*>> by_cq;
    for (const auto& s : r.workloads) by_cq[s.together.cluster_queue.empty() ? "(no ClusterQueue)" : s.together.cluster_queue].push_back(&s);
    for (const auto& [cq, list] : by_cq) {
        std::string usage;
        for (const auto& c : r.cluster_queues)
            if (c.name == cq)
                for (const auto& u : c.usage)
                    if (u.total != "0") usage += (usage.empty() ? "" : ", ") + u.flavor + "/" + u.resource + " " + u.total + (u.borrowed != "0" ? " (borrowed " + u.borrowed + ")" : "");
        out += "ClusterQueue " + cq + (usage.empty() ? "" : "  [" + usage + "]") + "\n";
        // Each column is as wide as its longest cell plus one space, at least
        // the widths the table always had: "Preempted" or a long flavor name
        // never runs into the next column.
        struct Row {
            std::string workload, status, flavor, borrow, alone, expect;
        };
        std::vector<Row> rows;
        for (const auto* s : list) {
            const auto& x = s->together;
            // Admitted alone by quota but no node can run its pods: not "fits".
            std::string alone = s->alone ? (!s->alone->admitted ? "no-fit" : s->alone_node_shape ? "no-node" : "fits") : "-";
            rows.push_back({x.namespace_ + "/" + x.name, x.admitted ? "Admitted" : (x.preempted ? "Preempted" : "Pending"),
                            flavors_of(x), x.admitted ? (x.borrowing ? "yes" : "no") : "-", alone,
                            s->expect ? (s->expectation_met ? "ok" : "FAILED") : "-"});
        }
        std::size_t w = 8, ws = 9, wf = 12, wb = 7, wa = 9;
        for (const auto& row : rows) {
            w = std::max(w, row.workload.size());
            ws = std::max(ws, row.status.size() + 1);
            wf = std::max(wf, row.flavor.size() + 1);
            wb = std::max(wb, row.borrow.size() + 1);
            wa = std::max(wa, row.alone.size() + 1);
        }
        out += "  " + pad("WORKLOAD", w) + "  " + pad("STATUS", ws) + pad("FLAVOR", wf) + pad("BORROW", wb) + pad("ALONE", wa) + "EXPECT\n";
        for (std::size_t i = 0; i < list.size(); ++i) {
            const auto* s = list[i];
            const auto& x = s->together;
            const Row& row = rows[i];
            out += "  " + pad(row.workload, w) + "  " + pad(row.status, ws) + pad(row.flavor, wf) + pad(row.borrow, wb) +
                   pad(row.alone, wa) + row.expect + "\n";
            if (x.admitted)
                for (const auto& a : x.assignments) {
                    if (a.topology_assignment)
                        out += "      placed " + a.name + " on " + a.topology_flavor + ": " + a.topology_summary +
                               (a.delayed_topology_request == "Ready" ? " (delayed topology, placed in a second pass)" : "") +
                               "\n";
                    else if (a.delayed_topology_request == "Pending")
                        out += "      topology of " + a.name + " delayed: quota reserved, placed in a second pass once "
                               "its ProvisioningRequest admission check is Ready\n";
                }
            if (!x.replaced_nodes.empty())
                out += "      second pass: pods moved off unhealthy node(s) " + join(x.replaced_nodes) + "\n";
            if (x.admitted && !x.second_pass_message.empty())
                out += "      second pass failed, retried with backoff: " + x.second_pass_message + "\n";
            if (x.admitted && !x.unhealthy_nodes.empty() && x.eviction_reason.empty())
                out += "      unhealthy node(s) " + join(x.unhealthy_nodes) +
                       (hosts_pods(x) ? ": no second pass (the workload is not Admitted)\n"
                                      : ": none hosts a pod of its placement, nothing to replace\n");
            if (!x.eviction_reason.empty())
                out += "      Evicted (" + x.eviction_reason + "): " + x.eviction_message + "\n";
            // Kueue's reason first, as `kubectl get workloads` shows it.
            if (!x.admitted && !x.message.empty())
                out += "      " + (x.reason.empty() ? std::string() : x.reason + ": ") + x.message + "\n";
            if (x.preempted && !x.preemption_message.empty())
                out += "      " + (x.preemption_reason.empty() ? std::string() : "Preempted (" + x.preemption_reason + "): ") +
                       x.preemption_message + "\n";
            if (s->expect && !s->expectation_met) out += "      expectation: " + s->expectation_detail + "\n";
            if (!s->node_shape_problem.empty()) out += "      node shape: " + s->node_shape_problem + "\n";
            if (s->alone && !s->alone->admitted && !s->alone->message.empty())
                out += "      alone: " + (s->alone->reason.empty() ? std::string() : s->alone->reason + ": ") +
                       s->alone->message + "\n";
        }
        out += "\n";
    }
    std::size_t failed = 0, checked = 0;
    for (const auto& s : r.workloads)
        if (s.expect) {
            ++checked;
            failed += !s.expectation_met;
        }
    out += std::to_string(r.cycles) + " scheduling cycle(s); " + std::to_string(checked - failed) + " of " +
           std::to_string(checked) + " expectations met";
    if (r.some_never_admitted) out += "; some sample workloads do not fit even alone";
    if (r.node_shape_problems) out += "; some admitted pods fit no node of their flavor";
    out += "\n";
    return out;
}

}  // namespace queueforge::scenarios
