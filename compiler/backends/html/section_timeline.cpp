// Timeline mode: time to admission per workload class and queue usage over
// virtual time.
#include "backends/html/sections.hpp"
#include "backends/html/svg.hpp"

#include <algorithm>
#include <array>
#include <map>
#include <set>

namespace queueforge::html {

namespace {

constexpr std::size_t kQueuesCharted = 40;
constexpr std::size_t kNeverListed = 100;
constexpr std::size_t kMarkersPerChart = 200;

std::string num(std::int64_t v) { return std::to_string(v); }

std::string stat(const timeline::Stats& s, std::int64_t timeline::Stats::*field) {
    return s.count ? duration(s.*field) : "-";
}

// One colour per resource across all usage charts, by the resource's rank
// among every resource charted.
class ResourceColors {
public:
    explicit ResourceColors(const timeline::Report& r) {
        std::set<std::string> names;
        for (const auto& q : r.queues)
            for (const auto& u : q.usage) names.insert(u.resource);
        std::size_t i = 0;
        for (const auto& n : names) index_.emplace(n, i++);
    }
    const char* operator()(const std::string& resource) const {
        static constexpr std::array<const char*, 6> kColors = {"#4e79a7", "#e15759", "#59a14f", "#f28e2b", "#b07aa1", "#9c755f"};
        auto it = index_.find(resource);
        return kColors[(it == index_.end() ? 0 : it->second) % kColors.size()];
    }

private:
    std::map<std::string, std::size_t> index_;
};

std::string waits(const timeline::Report& r) {
    std::string s = "<h3>Time to admission per workload class</h3>";
    if (r.workload_classes.empty()) return s + "<p class=\"muted\">No workloads.</p>";
    std::int64_t longest = 0;
    for (const auto& c : r.workload_classes) longest = std::max(longest, c.time_to_admission.max);
    std::vector<Bar> bars;
    for (const auto& c : r.workload_classes) {
        Bar b;
        b.label = c.name;
        b.scale = static_cast<double>(std::max<std::int64_t>(longest, 1));
        const auto& t = c.time_to_admission;
        b.segments.push_back({static_cast<double>(t.mean), "#4e79a7", 1, false, "mean " + duration(t.mean)});
        b.segments.push_back({static_cast<double>(std::max<std::int64_t>(0, t.p95 - t.mean)), "#4e79a7", 0.35, false,
                              "p95 " + duration(t.p95)});
        if (t.count) {
            b.marker = static_cast<double>(t.max);
            b.marker_title = "max " + duration(t.max);
        }
        b.value_text = t.count ? "mean " + duration(t.mean) + " · p95 " + duration(t.p95) : "never admitted";
        b.warn = c.never_admitted > 0;
        bars.push_back(std::move(b));
    }
    s += legend({{"mean", "#4e79a7"}, {"to p95", "#4e79a7", 0.35}, {"max (line)", "#222222"}});
    s += "<figure class=\"wait-chart\">" +
         bar_chart(bars, {.width = 720, .label_width = 160, .value_width = 200, .css_class = "bars",
                          .title = "time to admission per workload class"}) +
         "</figure>";
    s += "<table class=\"figures\"><thead><tr><th>Class</th><th>Workloads</th><th>Admitted</th><th>Never</th>"
         "<th>Evictions</th><th>Mean</th><th>p50</th><th>p95</th><th>Max</th><th>Mean run + wait</th></tr></thead><tbody>";
    for (const auto& c : r.workload_classes) {
        const auto& t = c.time_to_admission;
        s += "<tr class=\"class-row\"><td>" + esc(c.name) + "</td><td class=\"num\">" + num(c.workloads) +
             "</td><td class=\"num\">" + num(c.admitted) + "</td><td class=\"num\">" + num(c.never_admitted) +
             "</td><td class=\"num\">" + num(c.evictions) + "</td><td class=\"num\">" + esc(stat(t, &timeline::Stats::mean)) +
             "</td><td class=\"num\">" + esc(stat(t, &timeline::Stats::p50)) + "</td><td class=\"num\">" +
             esc(stat(t, &timeline::Stats::p95)) + "</td><td class=\"num\">" + esc(stat(t, &timeline::Stats::max)) +
             "</td><td class=\"num\">" + esc(c.mean_time_to_finish ? duration(c.mean_time_to_finish) : "-") + "</td></tr>";
    }
    return s + "</tbody></table>";
}

std::string usage(const timeline::Report& r) {
    std::string s = "<h3>Queue usage over time</h3><p class=\"note\">Mean usage in each interval, in percent of the "
                    "queue's nominal quota over all its flavors; above the dashed 100% line the queue borrows. A borrow-only "
                    "queue (no nominal quota) is charted against what it may borrow from its cohort.</p>";
    ResourceColors colors(r);
    std::set<std::string> shown;
    for (std::size_t i = 0; i < r.queues.size() && i < kQueuesCharted; ++i)
        for (const auto& u : r.queues[i].usage) shown.insert(u.resource);
    std::vector<LegendItem> items;
    for (const auto& n : shown) items.push_back({n, colors(n)});
    if (std::any_of(r.events.begin(), r.events.end(), [](const auto& e) { return e.type == "Preempted"; }))
        items.push_back({"preemption (dashed)", "#d62728"});
    s += legend(items);
    // Preemption markers: on the victim's queue chart, at the preemption's
    // time, naming preemptor, victim and Kueue's reason (from the event log;
    // at most kMarkersPerChart per chart).
    std::map<std::string, std::vector<std::pair<std::int64_t, std::string>>> markers;
    for (const auto& e : r.events) {
        if (e.type != "Preempted") continue;
        auto& m = markers[e.cluster_queue];
        if (m.size() < kMarkersPerChart)
            m.emplace_back(e.at_ms, duration(e.at_ms) + ": " + e.workload + " preempted by " + e.preemptor + " (" + e.reason + ")");
    }
    s += "<div class=\"grid\">";
    for (std::size_t i = 0; i < r.queues.size() && i < kQueuesCharted; ++i) {
        const auto& q = r.queues[i];
        std::vector<Line> lines;
        std::int64_t step = 0;
        std::string figures;
        bool borrow_only = !q.usage.empty();
        for (const auto& u : q.usage) {
            lines.push_back({u.resource, colors(u.resource), u.series.percent, lines.empty()});
            step = std::max(step, u.series.interval_ms);
            // The same basis as the timeline's text and JSON (timeline/run.cpp).
            const bool borrowable = u.basis == timeline::ResourceUsage::Basis::Borrowable;
            borrow_only = borrow_only && borrowable;
            figures += (figures.empty() ? "" : ", ") + u.resource + " avg " + fixed(u.average_percent, 1) + "%" +
                       (borrowable ? " of borrowable" : "");
        }
        s += "<figure class=\"usage-chart\" data-queue=\"" + esc(q.name) + "\"><figcaption><b>" + esc(q.name) + "</b>";
        if (!q.cohort.empty()) s += " · cohort " + esc(q.cohort);
        s += " · " + esc(num(q.workloads)) + " workloads, " + esc(num(q.preemptions)) + " preempted";
        if (q.time_to_admission.count) s += " · mean wait " + esc(duration(q.time_to_admission.mean));
        s += "<br><span class=\"muted\">" + esc(figures) + "</span></figcaption>";
        s += line_chart(lines, {.width = 580, .height = 170, .step_ms = step, .reference = 100.0,
                                .reference_label = borrow_only ? "borrowable quota" : "nominal quota", .css_class = "lines",
                                .title = "usage of ClusterQueue " + q.name + " over time",
                                .markers = markers.count(q.name) ? markers[q.name] : std::vector<std::pair<std::int64_t, std::string>>{}});
        s += "</figure>";
    }
    s += "</div>";
    if (r.queues.size() > kQueuesCharted)
        s += "<p class=\"muted\">" + esc(num(static_cast<std::int64_t>(r.queues.size() - kQueuesCharted))) +
             " more ClusterQueues not charted.</p>";
    return s;
}

}  // namespace

std::string timeline_section(const timeline::Report& r, const std::string& scenario_name) {
    std::string s = "<section id=\"timeline\"><h2>Timeline: " + esc(scenario_name) + "</h2>";
    s += "<p class=\"note\">" + esc(num(r.workloads)) + " workloads on " + esc(num(static_cast<std::int64_t>(r.queues.size()))) +
         " ClusterQueues in " + esc(duration(r.makespan_ms)) + " of virtual time: " + esc(num(r.admissions)) +
         " admissions, " + esc(num(r.preemptions)) + " preemptions, " + esc(num(r.cycles)) +
         " scheduling cycles. Scheduling and API latency are zero: a lower bound on what a real cluster achieves.";
    if (r.pods_ready_timeouts || r.deactivated || r.admission_blocked_ms)
        s += " waitForPodsReady: " + esc(num(r.pods_ready_timeouts)) + " PodsReadyTimeout evictions, " + esc(num(r.deactivated)) +
             " deactivated, admission blocked " + esc(duration(r.admission_blocked_ms)) + ".";
    if (!r.settled) s += " <span class=\"warn\">The cycle budget ran out before every workload settled.</span>";
    s += "</p>";
    s += waits(r);
    s += usage(r);
    if (!r.never_admitted.empty()) {
        s += "<h3>Never admitted</h3>";
        // Kueue's QuotaReserved=False reasons, counted over all of them.
        std::string counts;
        for (const auto& [reason, n] : r.pending_reasons) counts += (counts.empty() ? "" : ", ") + reason + " " + num(n);
        if (!counts.empty()) s += "<p class=\"note\">Pending at the end by Kueue's reason: " + esc(counts) + "</p>";
        s += "<table class=\"figures\"><thead><tr><th>Workload</th><th>ClusterQueue</th>"
             "<th>Reason (QuotaReserved=False)</th></tr></thead><tbody>";
        for (std::size_t i = 0; i < r.never_admitted.size() && i < kNeverListed; ++i) {
            const auto& n = r.never_admitted[i];
            s += "<tr><td>" + esc(n.namespace_ + "/" + n.name) + "</td><td>" + esc(n.cluster_queue) + "</td><td><b>" +
                 esc(n.reason) + "</b> " + esc(n.message) + "</td></tr>";
        }
        s += "</tbody></table>";
    }
    return s + "</section>";
}

}  // namespace queueforge::html
