// The simulation table: every workload of the together run with its status,
// flavor, borrowing and the reason Kueue would give.
#include "backends/html/sections.hpp"

#include <set>

namespace queueforge::html {

namespace {

std::string flavors_of(const scheduler::WorkloadOutcome& w) {
    std::set<std::string> f;
    for (const auto& a : w.assignments)
        for (const auto& [r, name] : a.flavors) f.insert(name);
    std::string s;
    for (const auto& name : f) s += (s.empty() ? "" : ", ") + name;
    return s.empty() ? "-" : s;
}

}  // namespace

std::string simulation_section(const scenarios::Report& r) {
    std::string s = "<section id=\"simulation\"><h2>Simulation of the sample workloads</h2>";
    std::size_t admitted = 0, checked = 0, met = 0;
    for (const auto& w : r.workloads) {
        admitted += w.together.admitted;
        if (w.expect) {
            ++checked;
            met += w.expectation_met;
        }
    }
    s += "<p class=\"note\">All workloads submitted together in creation order, decided as Kueue's scheduler does (" +
         esc(std::to_string(r.cycles)) + " scheduling cycle" + (r.cycles == 1 ? "" : "s") + "): " +
         esc(std::to_string(admitted)) + " of " + esc(std::to_string(r.workloads.size())) + " admitted";
    if (checked) s += "; " + esc(std::to_string(met)) + " of " + esc(std::to_string(checked)) + " expectations met";
    s += ". <i>Alone</i>: whether the workload fits the configured cluster by itself.</p>";
    if (r.workloads.empty()) return s + "<p class=\"muted\">The site has no sample workloads (spec.workloads).</p></section>";
    s += "<table class=\"sim\"><thead><tr><th>Workload</th><th>ClusterQueue</th><th>Priority</th><th>Status</th>"
         "<th>Flavor</th><th>Borrowing</th><th>Alone</th><th>Expectation</th><th>Reason</th></tr></thead><tbody>";
    for (const auto& w : r.workloads) {
        const auto& x = w.together;
        const std::string status = x.admitted ? "Admitted" : (x.preempted ? "Preempted" : "Pending");
        std::string reason;
        auto add = [&reason](const std::string& label, const std::string& text) {
            if (text.empty()) return;
            reason += "<div>" + (label.empty() ? std::string() : "<b>" + esc(label) + "</b> ") + esc(text) + "</div>";
        };
        if (!x.admitted) add(x.reason, x.message);
        if (x.preempted) add(x.preemption_reason.empty() ? "Preempted" : x.preemption_reason, x.preemption_message);
        if (!w.node_shape_problem.empty()) add("node shape:", w.node_shape_problem);
        if (w.expect && !w.expectation_met) add("expectation:", w.expectation_detail);
        if (w.alone && !w.alone->admitted) add("alone:", w.alone->message);
        std::string expect = !w.expect ? "-" : (w.expectation_met ? "met" : "failed");
        // As the text table: admitted alone by quota, but no node can run its pods.
        std::string alone = w.alone ? (!w.alone->admitted ? "no fit" : w.alone_node_shape ? "no node" : "fits") : "-";
        s += "<tr class=\"sim-row\"><td>" + esc(x.namespace_ + "/" + x.name) + "</td><td>" +
             esc(x.cluster_queue.empty() ? "-" : x.cluster_queue) + "</td><td class=\"num\">" + esc(std::to_string(x.priority)) +
             "</td><td><span class=\"status " + (x.admitted ? "ok" : "bad") + "\">" + esc(status) + "</span></td><td>" +
             esc(x.admitted ? flavors_of(x) : "-") + "</td><td>" + esc(x.admitted ? (x.borrowing ? "yes" : "no") : "-") +
             "</td><td>" + esc(alone) + "</td><td><span class=\"status " + (w.expect && !w.expectation_met ? "bad" : "ok") +
             "\">" + esc(expect) + "</span></td><td class=\"reason\">" + (reason.empty() ? "-" : reason) + "</td></tr>";
    }
    s += "</tbody></table>";
    if (!r.cluster_queues.empty()) {
        s += "<details><summary>ClusterQueue usage after the run</summary><table class=\"figures\"><thead><tr>"
             "<th>ClusterQueue</th><th>Flavor</th><th>Resource</th><th>Used</th><th>Borrowed</th></tr></thead><tbody>";
        for (const auto& c : r.cluster_queues)
            for (const auto& u : c.usage) {
                if (u.total == "0" && u.borrowed == "0") continue;
                s += "<tr><td>" + esc(c.name) + "</td><td>" + esc(u.flavor) + "</td><td>" + esc(u.resource) +
                     "</td><td class=\"num\">" + esc(u.total) + "</td><td class=\"num\">" + esc(u.borrowed) + "</td></tr>";
            }
        s += "</tbody></table></details>";
    }
    return s + "</section>";
}

}  // namespace queueforge::html
