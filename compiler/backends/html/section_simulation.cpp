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

// A stable hue per workload, so that one workload has one colour in every
// rack it spans.
int hue_of(const std::string& key) {
    unsigned h = 2166136261u;
    for (unsigned char c : key) h = (h ^ c) * 16777619u;
    return static_cast<int>(h % 360);
}

// Domain occupancy of each TAS flavor: one row per domain of the level above
// the nodes (a rack), one cell per node, coloured by the workload whose pods
// it runs (all of them in the cell's title).
std::string occupancy(const std::vector<scheduler::TopologyOccupancy>& topologies) {
    std::string s;
    for (const auto& t : topologies) {
        std::size_t used = 0;
        for (const auto& l : t.leaves) used += !l.pods.empty();
        s += "<h3>Topology placement on " + esc(t.flavor) + "</h3><p class=\"note\">Topology " + esc(t.topology) + ": " +
             esc(std::to_string(used)) + " of " + esc(std::to_string(t.leaves.size())) +
             " nodes run pods of admitted workloads. One row per " +
             esc(t.levels.size() > 1 ? t.levels[t.levels.size() - 2] : t.levels.back()) + ", one cell per " +
             esc(t.levels.back()) + ".</p><table class=\"tas\"><tbody>";
        std::string row_key;
        bool open = false;
        for (const auto& l : t.leaves) {
            std::string key;
            for (std::size_t i = 0; i + 1 < l.values.size(); ++i) key += (i ? "/" : "") + l.values[i];
            if (!open || key != row_key) {
                if (open) s += "</tr>";
                s += "<tr><th>" + esc(key.empty() ? "-" : key) + "</th>";
                row_key = key;
                open = true;
            }
            std::string title = l.values.empty() ? std::string() : l.values.back();
            for (const auto& [w, n] : l.pods) title += "\n" + w + ": " + std::to_string(n) + " pod" + (n == 1 ? "" : "s");
            if (l.pods.empty()) s += "<td class=\"node\" title=\"" + esc(title) + "\"></td>";
            else
                s += "<td class=\"node used\" style=\"--h:" + std::to_string(hue_of(l.pods.front().first)) + "\" title=\"" +
                     esc(title) + "\"></td>";
        }
        if (open) s += "</tr>";
        s += "</tbody></table>";
    }
    return s;
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
    s += occupancy(r.topologies);
    return s + "</section>";
}

}  // namespace queueforge::html
