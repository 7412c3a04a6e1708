// The TimelineReport of `simulate --scenario -o json` (README, "Timeline
// mode"). Keys and their meaning stay stable; new keys may be added.
#include <queueforge/engines/timeline.hpp>

#include "engines/scheduler/format.hpp"

#include <nlohmann/json.hpp>

namespace queueforge::timeline {

namespace {

using json = nlohmann::ordered_json;

std::string quantity(const std::string& resource, std::int64_t v) { return scheduler::detail::format_amount(resource, v); }

json stats(const Stats& s) {
    if (s.count == 0) return nullptr;
    return {{"mean", s.mean}, {"p50", s.p50}, {"p95", s.p95}, {"max", s.max}};
}

json series(const Series& s) { return {{"intervalMs", s.interval_ms}, {"percent", s.percent}}; }

// {"WaitingForQuota": 3, ...}: Kueue's QuotaReserved=False reasons, sorted.
json reasons(const ReasonCounts& rc) {
    json out = json::object();
    for (const auto& [reason, n] : rc) out[reason] = n;
    return out;
}

json event(const TimelineEvent& e) {
    json j = {{"atMs", e.at_ms}, {"type", e.type}, {"workload", e.workload},
              {"clusterQueue", e.cluster_queue.empty() ? json(nullptr) : json(e.cluster_queue)},
              {"reason", e.reason}, {"message", e.message}};
    if (e.type == "Preempted") {
        j["preemptor"] = e.preemptor;
        j["preemptorPath"] = e.preemptor_path;
        j["preempteePath"] = e.victim_path;
    }
    if (e.type == "Evicted") {
        j["requeueAtMs"] = e.requeue_at_ms >= 0 ? json(e.requeue_at_ms) : json(nullptr);
        if (e.reason != "Preempted") j["requeueCount"] = e.requeue_count;
    }
    return j;
}

}  // namespace

std::string render_json(const Report& r) {
    json classes = json::array();
    for (const auto& c : r.workload_classes)
        classes.push_back({{"name", c.name},
                           {"workloads", c.workloads},
                           {"admitted", c.admitted},
                           {"finished", c.finished},
                           {"neverAdmitted", c.never_admitted},
                           {"evictions", c.evictions},
                           {"podsReadyTimeouts", c.pods_ready_timeouts},
                           {"pendingReasons", reasons(c.pending_reasons)},
                           {"timeToAdmissionMs", stats(c.time_to_admission)},
                           {"meanTimeToFinishMs", c.finished ? json(c.mean_time_to_finish) : json(nullptr)}});
    json qclasses = json::array();
    for (const auto& c : r.queue_classes)
        qclasses.push_back({{"name", c.name},
                            {"clusterQueues", c.queues},
                            {"resource", c.resource},
                            {"nominalQuota", quantity(c.resource, c.nominal)},
                            {"averageUsagePercent", c.average_usage_percent},
                            {"usage", series(c.series)}});
    json queues = json::array();
    for (const auto& q : r.queues) {
        json res = json::array();
        for (const auto& u : q.usage)
            res.push_back({{"resource", u.resource},
                           {"nominalQuota", quantity(u.resource, u.nominal)},
                           // Percentages are of this: nominal quota, or what a borrow-only queue may borrow.
                           {"usageBasis", u.basis == ResourceUsage::Basis::Borrowable ? "borrowable" : "nominal"},
                           {"referenceQuota", quantity(u.resource, u.reference)},
                           {"peak", quantity(u.resource, u.peak)},
                           {"averageUsagePercent", u.average_percent},
                           {"usage", series(u.series)}});
        queues.push_back({{"name", q.name},
                          {"class", q.class_name},
                          {"cohort", q.cohort.empty() ? json(nullptr) : json(q.cohort)},
                          {"workloads", q.workloads},
                          {"admissions", q.admissions},
                          {"preemptions", q.preemptions},
                          {"neverAdmitted", q.never_admitted},
                          {"pendingReasons", reasons(q.pending_reasons)},
                          {"lastEventMs", q.last_event_ms},
                          {"timeToAdmissionMs", stats(q.time_to_admission)},
                          {"resources", res}});
    }
    json never = json::array();
    for (const auto& n : r.never_admitted)
        never.push_back({{"namespace", n.namespace_},
                         {"name", n.name},
                         {"clusterQueue", n.cluster_queue},
                         {"reason", n.reason.empty() ? json(nullptr) : json(n.reason)},
                         {"message", n.message.empty() ? json(nullptr) : json(n.message)}});
    json events = json::array();
    for (const auto& e : r.events) events.push_back(event(e));
    json checks = json::array();
    for (const auto& c : r.checks)
        checks.push_back({{"name", c.name}, {"limit", c.limit}, {"actual", c.actual}, {"met", c.met}});
    json out = {{"apiVersion", "queueforge.io/v1alpha1"},
                {"kind", "TimelineReport"},
                {"scenario", r.scenario},
                {"makespanMs", r.makespan_ms},
                {"workloads", r.workloads},
                {"admissions", r.admissions},
                {"preemptions", r.preemptions},
                {"cycles", r.cycles},
                {"settled", r.settled},
                {"passed", r.passed()},
                {"workloadClasses", classes},
                {"clusterQueueClasses", qclasses},
                {"clusterQueues", queues},
                {"neverAdmitted", never},
                {"pendingReasons", reasons(r.pending_reasons)},
                {"waitForPodsReady", r.pods_ready.empty() ? json(nullptr)
                                                          : json{{"settings", r.pods_ready},
                                                                 {"podsReadyTimeouts", r.pods_ready_timeouts},
                                                                 {"deactivated", r.deactivated},
                                                                 {"admissionBlockedMs", r.admission_blocked_ms}}},
                // The event log: the first --max-events events; eventsDropped counts the rest.
                {"events", events},
                {"eventsTotal", r.events_total},
                {"eventsDropped", r.events_dropped},
                {"thresholds", checks}};
    return out.dump(2) + "\n";
}

}  // namespace queueforge::timeline
