// `simulate --scenario` text output: workload classes (time to admission),
// ClusterQueue classes (usage and a usage-over-time strip), the queues
// themselves when there are few, threshold checks.
#include <queueforge/engines/timeline.hpp>

#include "engines/scheduler/format.hpp"

#include <array>
#include <cstdio>

namespace queueforge::timeline {

namespace {

constexpr std::size_t kQueuesListed = 40;
constexpr std::size_t kNeverListed = 10;

std::string pad(std::string s, std::size_t w) {
    if (s.size() < w) s.append(w - s.size(), ' ');
    return s + " ";
}

// 850 ms, 12.3s, 4m05s, 2h03m
std::string duration(std::int64_t ms) {
    char buf[48];
    if (ms < 1000) std::snprintf(buf, sizeof buf, "%lldms", static_cast<long long>(ms));
    else if (ms < 60000) std::snprintf(buf, sizeof buf, "%.1fs", static_cast<double>(ms) / 1000.0);
    else if (ms < 3600000) std::snprintf(buf, sizeof buf, "%lldm%02llds", static_cast<long long>(ms / 60000), static_cast<long long>(ms / 1000 % 60));
    else std::snprintf(buf, sizeof buf, "%lldh%02lldm", static_cast<long long>(ms / 3600000), static_cast<long long>(ms / 60000 % 60));
    return buf;
}

std::string percent(double v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.1f%%", v);
    return buf;
}

// One block per interval, 0% to 100% (and above) of nominal quota.
std::string strip(const Series& s) {
    static const std::array<const char*, 9> blocks = {" ", "▁", "▂", "▃", "▄", "▅", "▆", "▇", "█"};
    std::string out;
    for (double p : s.percent) {
        int i = p <= 0 ? 0 : std::min(8, 1 + static_cast<int>(p * 7.999 / 100.0));
        out += blocks[i];
    }
    return out;
}

std::string stat(const Stats& s, std::int64_t Stats::*field) { return s.count ? duration(s.*field) : "-"; }

}  // namespace

std::string render_text(const Report& r) {
    std::string out = "Timeline of " + r.scenario + "\n";
    out += "  " + std::to_string(r.workloads) + " workloads on " + std::to_string(r.queues.size()) +
           " ClusterQueues; virtual time " + duration(r.makespan_ms) + "; " + std::to_string(r.admissions) +
           " admissions, " + std::to_string(r.preemptions) + " preemptions, " + std::to_string(r.cycles) +
           " scheduling cycles\n";
    out += "  (scheduling and API latency are zero: a lower bound on what a real cluster achieves)\n\n";

    out += pad("WORKLOAD CLASS", 16) + pad("COUNT", 7) + pad("ADMITTED", 9) + pad("NEVER", 6) + pad("EVICTIONS", 10) +
           pad("WAIT MEAN", 10) + pad("P50", 8) + pad("P95", 8) + pad("MAX", 8) + "RUN+WAIT MEAN\n";
    for (const auto& c : r.workload_classes)
        out += pad(c.name, 16) + pad(std::to_string(c.workloads), 7) + pad(std::to_string(c.admitted), 9) +
               pad(std::to_string(c.never_admitted), 6) + pad(std::to_string(c.evictions), 10) +
               pad(stat(c.time_to_admission, &Stats::mean), 10) + pad(stat(c.time_to_admission, &Stats::p50), 8) +
               pad(stat(c.time_to_admission, &Stats::p95), 8) + pad(stat(c.time_to_admission, &Stats::max), 8) +
               (c.finished ? duration(c.mean_time_to_finish) : "-") + "\n";

    out += "\n" + pad("CLUSTERQUEUE CLASS", 20) + pad("QUEUES", 7) + pad("RESOURCE", 16) + pad("NOMINAL", 10) + "AVG USAGE\n";
    for (const auto& c : r.queue_classes) {
        out += pad(c.name, 20) + pad(std::to_string(c.queues), 7) + pad(c.resource, 16) +
               pad(scheduler::detail::format_amount(c.resource, c.nominal), 10) + percent(c.average_usage_percent) + "\n";
        if (!c.series.percent.empty())
            out += "  usage, one column per " + duration(c.series.interval_ms) + ": |" + strip(c.series) + "|\n";
    }

    if (r.queues.size() <= kQueuesListed) {
        out += "\n" + pad("CLUSTERQUEUE", 24) + pad("WORKLOADS", 10) + pad("ADMISSIONS", 11) + pad("PREEMPTED", 10) +
               pad("WAIT MEAN", 10) + pad("P95", 8) + "USAGE (avg, peak)\n";
        for (const auto& q : r.queues) {
            std::string usage;
            for (const auto& u : q.usage)
                // peak/nominal, or for a borrow-only queue peak/borrowable (the percentage's basis).
                usage += (usage.empty() ? "" : ", ") + u.resource + " " + percent(u.average_percent) + " " +
                         scheduler::detail::format_amount(u.resource, u.peak) + "/" + scheduler::detail::format_amount(u.resource, u.reference) +
                         (u.basis == ResourceUsage::Basis::Borrowable ? " borrowable" : "");
            out += pad(q.name, 24) + pad(std::to_string(q.workloads), 10) + pad(std::to_string(q.admissions), 11) +
                   pad(std::to_string(q.preemptions), 10) + pad(stat(q.time_to_admission, &Stats::mean), 10) +
                   pad(stat(q.time_to_admission, &Stats::p95), 8) + usage + "\n";
        }
    } else {
        out += "\n(" + std::to_string(r.queues.size()) + " ClusterQueues: -o json lists each with its usage over time)\n";
    }

    if (!r.pods_ready.empty() && (r.pods_ready_timeouts || r.deactivated || r.admission_blocked_ms))
        out += "\nwaitForPodsReady (" + r.pods_ready + "): " + std::to_string(r.pods_ready_timeouts) +
               " PodsReadyTimeout evictions, " + std::to_string(r.deactivated) + " deactivated, admission blocked " +
               duration(r.admission_blocked_ms) + "\n";
    if (!r.pending_reasons.empty()) {
        out += "\nPending at the end, by Kueue's QuotaReserved=False reason:\n";
        for (const auto& c : r.workload_classes) {
            if (c.pending_reasons.empty()) continue;
            std::string line;
            for (const auto& [reason, n] : c.pending_reasons) line += (line.empty() ? "" : ", ") + reason + " " + std::to_string(n);
            out += "  " + pad(c.name, 16) + line + "\n";
        }
    }
    if (!r.never_admitted.empty()) {
        out += "\nNever admitted:\n";
        for (std::size_t i = 0; i < r.never_admitted.size() && i < kNeverListed; ++i) {
            const auto& n = r.never_admitted[i];
            out += "  " + n.namespace_ + "/" + n.name + " in " + n.cluster_queue + (n.reason.empty() ? "" : ": " + n.reason) +
                   (n.message.empty() ? "" : ", " + n.message) + "\n";
        }
    }
    if (!r.checks.empty()) {
        out += "\nThresholds:\n";
        for (const auto& c : r.checks) out += std::string(c.met ? "  ok      " : "  FAILED  ") + c.message + "\n";
    }
    out += std::string("\n") + (r.passed() ? "PASSED" : "FAILED") + "\n";
    return out;
}

// kubectl get events columns: time (ms of virtual time), type, reason,
// object, ClusterQueue, message. One line per event, in the order they
// happened; the widths are fixed so the lines can be grepped and diffed.
std::string render_events(const Report& r) {
    std::string out = pad("TIME(ms)", 12) + pad("EVENT", 10) + pad("REASON", 29) + pad("WORKLOAD", 32) + pad("CLUSTERQUEUE", 24) +
                      "MESSAGE\n";
    for (const auto& e : r.events) {
        std::string msg = e.message;
        if (e.type == "Evicted" && e.requeue_at_ms >= 0 && e.reason != "Preempted")
            msg += "; requeued at " + std::to_string(e.requeue_at_ms) + "ms (count " + std::to_string(e.requeue_count) + ")";
        out += pad(std::to_string(e.at_ms), 12) + pad(e.type, 10) + pad(e.reason, 29) + pad(e.workload, 32) +
               pad(e.cluster_queue.empty() ? "-" : e.cluster_queue, 24) + msg + "\n";
    }
    if (r.events_dropped > 0)
        out += "(" + std::to_string(r.events_dropped) + " more events of " + std::to_string(r.events_total) +
               " not kept: raise --max-events)\n";
    return out;
}

}  // namespace queueforge::timeline
