// The virtual-time run: events (workload created, job finished) in time
// order; at each instant the scheduler runs cycles until nothing changes, as
// Kueue's scheduler does when it is never the bottleneck. Scheduling and API
// latency are zero, so the figures are what the quota allows, a lower bound
// on what a real cluster achieves. Kueue's runner semantics: a workload runs
// for runtimeMs from its (last) admission; an evicted one starts over.
#include <queueforge/engines/scheduler_engine.hpp>
#include <queueforge/engines/timeline.hpp>

#include "engines/timeline/generate.hpp"
#include "engines/timeline/recording.hpp"

#include <algorithm>
#include <map>
#include <optional>
#include <queue>
#include <set>
#include <tuple>

namespace queueforge::timeline {

using namespace detail;

namespace {

constexpr std::int64_t kMsNs = 1000000;
constexpr std::size_t kNeverAdmittedListed = 100;

// Kinds in the order they are handled at one instant: quota is freed before
// pods turn ready, timeouts fire after readiness, and requeues and arrivals
// come last.
enum Kind { kFinish = 0, kReady = 1, kTimeout = 2, kRequeue = 3, kArrival = 4 };

struct Event {
    std::int64_t at = 0;
    int kind = 0;
    int wl = -1;
    std::int64_t epoch = 0;
    bool operator>(const Event& o) const { return std::tie(at, kind, wl) > std::tie(o.at, o.kind, o.wl); }
};

struct WlState {
    int arrival = -1;  // index into Generated::arrivals, -1 for input Workloads
    std::int64_t epoch = 0;
    std::int64_t last_admit = -1;
    std::int64_t finished_at = -1;
    std::int64_t evictions = 0;
    int queue = -1;  // QueueTrack of its admission while holding quota
    std::vector<scheduler::HeldAmount> held;
    bool not_ready = false;       // admitted, pods not ready yet
    std::int32_t requeue_count = 0;  // PodsReadyTimeout evictions (Kueue's requeueState.count)
};

class Run {
public:
    Run(Generated g, const std::vector<Resource>& cluster, const std::string& file, const Options& opts,
        Diagnostics& diags)
        : g_(std::move(g)), opts_(opts), diags_(diags), scenario_file_(file), engine_(objects(cluster), diags) {
        // Workload manifests in batches: the engine keeps only its model of them.
        constexpr std::size_t kBatch = 2048;
        for (std::size_t i = 0; i < g_.arrivals.size(); i += kBatch) {
            std::vector<Resource> batch;
            for (std::size_t j = i; j < std::min(g_.arrivals.size(), i + kBatch); ++j)
                batch.push_back(make_workload(file, g_.arrivals[j], g_.specs[j]));
            engine_.add_workloads(batch, diags);
        }
    }

    Report go() {
        setup();
        std::int64_t budget = 64 * static_cast<std::int64_t>(wl_.size()) + 100000;
        std::int64_t now = 0;
        while (!events_.empty() && report_.settled) {
            now = events_.top().at;
            engine_.advance(epoch_ns_ + now * kMsNs);
            if (blocked_since_ >= 0) report_.admission_blocked_ms += now - blocked_since_;
            blocked_since_ = -1;
            while (!events_.empty() && events_.top().at == now) {
                Event e = events_.top();
                events_.pop();
                switch (e.kind) {
                    case kFinish: finish(e, now); break;
                    case kReady: ready(e, now); break;
                    case kTimeout: timeout(e, now); break;
                    case kRequeue: requeue(e.wl, now); break;
                    default: arrive(e.wl, now);
                }
            }
            report_progress();
            while (!blocked() && engine_.has_work()) {
                if (--budget < 0) {
                    report_.settled = false;
                    diags_.error(scenario_file_, {}, "timeline: the scheduler did not settle within the cycle budget at " +
                                                         std::to_string(now) + " ms; the figures cover the run so far",
                                 "timeline.unsettled");
                    break;
                }
                engine_.set_block_after_admission(block_, not_ready_ > 0);
                scheduler::CycleEvents ev = engine_.cycle(epoch_ns_ + now * kMsNs);
                for (const auto& p : ev.preemptions) preempted(p, now);
                for (int w : ev.evicted) evicted(w, now);
                for (int w : ev.node_failure_evicted)
                    evicted(w, now, "EvictedDueToNodeFailures",
                            "Workload was evicted as there was no replacement for its unhealthy node(s)");
                for (int w : ev.admitted) admitted(w, now);
                if (ev.waiting_for_pods_ready >= 0) {
                    stuck_ = true;
                    if (keep())
                        // scheduler.go waitForPodsReadyIfNeeded's condition on the held workload.
                        log(event(now, "Pending", ev.waiting_for_pods_ready, "WaitingForPodsReady",
                                  "waiting for all admitted workloads to be in PodsReady condition"));
                }
                if (!ev.changed) break;
            }
            if (blocked() && engine_.has_work()) blocked_since_ = now;
        }
        report_.makespan_ms = now;
        report_.cycles = engine_.cycles_run();
        summarise();
        return std::move(report_);
    }

private:
    std::vector<Resource> objects(const std::vector<Resource>& cluster) {
        std::vector<Resource> all = cluster;
        for (auto& r : g_.objects) all.push_back(std::move(r));
        g_.objects.clear();
        return all;
    }

    void setup() {
        epoch_ns_ = kEpochSeconds * 1000 * kMsNs;
        for (const auto& info : engine_.cluster_queues()) {
            QueueTrack q;
            q.name = info.name;
            q.cohort = info.cohort;
            auto it = g_.queue_class.find(info.name);
            q.class_name = it != g_.queue_class.end() ? it->second : info.name;
            for (std::size_t k = 0; k < info.nominal.size(); ++k) {
                const auto& n = info.nominal[k];
                int r = q.resource_index(n.resource);
                if (r < 0) {
                    q.resources.push_back(n.resource);
                    q.nominal.push_back(0);
                    q.potential.push_back(0);
                    q.usage.emplace_back();
                    r = static_cast<int>(q.resources.size()) - 1;
                }
                q.nominal[r] = sat_add(q.nominal[r], n.value);
                if (k < info.potential.size()) q.potential[r] = sat_add(q.potential[r], info.potential[k].value);
            }
            queue_ids_[q.name] = static_cast<int>(queues_.size());
            queues_.push_back(std::move(q));
        }
        wl_.resize(static_cast<std::size_t>(engine_.workload_count()));
        for (std::size_t i = 0; i < g_.arrivals.size(); ++i) {
            const Arrival& a = g_.arrivals[i];
            int id = engine_.workload_id(a.namespace_, a.name);
            if (id < 0) continue;
            wl_[id].arrival = static_cast<int>(i);
            engine_.hold_back(id);
            events_.push({a.at_ms, kArrival, id, 0});
        }
        for (int id = 0; id < engine_.workload_count(); ++id)
            if (engine_.holds_quota(id)) take(id, 0);  // running before the timeline: they keep their quota
        if (g_.arrivals.size() < wl_.size()) {
            // Input workloads (preemption victims perhaps): their names for the event log.
            Diagnostics scratch;
            for (const auto& o : engine_.result(true, scratch).workloads) names_.push_back(o.namespace_ + "/" + o.name);
        }
        report_.workloads = static_cast<std::int64_t>(g_.arrivals.size());
        pr_ = engine_.pods_ready();
        block_ = pr_.enabled && pr_.block_admission;
        if (pr_.enabled) {
            report_.pods_ready = "timeout " + std::to_string(pr_.timeout_ms) + "ms, blockAdmission " +
                                 (pr_.block_admission ? "true" : "false") + ", backoff " +
                                 std::to_string(pr_.backoff_base_seconds) + "s..." + std::to_string(pr_.backoff_max_seconds) +
                                 "s, backoffLimitCount " +
                                 (pr_.backoff_limit_count ? std::to_string(*pr_.backoff_limit_count) : std::string("none")) +
                                 ", timestamp " + (pr_.creation_timestamp ? "Creation" : "Eviction") + " (" + pr_.source + ")";
        }
    }

    // Kueue's scheduler is stuck in waitForPodsReadyIfNeeded: a cycle held a
    // workload (WaitingForPodsReady) and some admitted pods are not ready.
    bool blocked() {
        if (not_ready_ == 0) stuck_ = false;
        return stuck_;
    }

    std::string key(int wl) const {
        const WlState& s = wl_[wl];
        if (s.arrival >= 0) return g_.arrivals[s.arrival].namespace_ + "/" + g_.arrivals[s.arrival].name;
        return names_.empty() ? std::string() : names_[wl];
    }

    // Counts an event; true when the log keeps it (the caller builds it
    // only then: a large run drops most of its events cheaply).
    bool keep() {
        ++report_.events_total;
        if (static_cast<std::int64_t>(report_.events.size()) < opts_.max_events) return true;
        ++report_.events_dropped;
        return false;
    }
    void log(TimelineEvent e) { report_.events.push_back(std::move(e)); }

    TimelineEvent event(std::int64_t now, const char* type, int wl, std::string reason, std::string message) {
        TimelineEvent e;
        e.at_ms = now;
        e.type = type;
        e.workload = key(wl);
        e.cluster_queue = engine_.cluster_queue_of(wl);
        e.reason = std::move(reason);
        e.message = std::move(message);
        return e;
    }

    static std::int64_t sat_add(std::int64_t a, std::int64_t b) {
        std::int64_t r;
        return __builtin_add_overflow(a, b, &r) ? INT64_MAX : r;
    }

    QueueTrack* queue_of(int wl) {
        auto it = queue_ids_.find(engine_.cluster_queue_of(wl));
        return it == queue_ids_.end() ? nullptr : &queues_[it->second];
    }

    void take(int wl, std::int64_t now) {
        WlState& s = wl_[wl];
        QueueTrack* q = queue_of(wl);
        if (!q) return;
        s.queue = static_cast<int>(q - queues_.data());
        s.held = engine_.held(wl);
        for (const auto& h : s.held)
            if (int r = q->resource_index(h.resource); r >= 0) q->usage[r].change(now, h.value);
        q->last_event_ms = now;
    }

    void give_back(int wl, std::int64_t now) {
        WlState& s = wl_[wl];
        if (s.queue < 0) return;
        QueueTrack& q = queues_[s.queue];
        for (const auto& h : s.held)
            if (int r = q.resource_index(h.resource); r >= 0) q.usage[r].change(now, -h.value);
        q.last_event_ms = now;
        s.queue = -1;
        s.held.clear();
    }

    void arrive(int wl, std::int64_t now) {
        ++created_;
        engine_.arrive(wl);
        if (QueueTrack* q = queue_of(wl)) {
            ++q->workloads;
            q->last_event_ms = now;
        }
    }

    void finish(const Event& e, std::int64_t now) {
        WlState& s = wl_[e.wl];
        if (e.epoch != s.epoch || !engine_.holds_quota(e.wl)) return;  // evicted since
        const bool k = keep();
        const std::string cq = k ? engine_.cluster_queue_of(e.wl) : std::string();
        give_back(e.wl, now);
        engine_.finish(e.wl);
        s.finished_at = now;
        if (!k) return;
        TimelineEvent f = event(now, "Finished", e.wl, "Succeeded", "Job finished successfully");
        f.cluster_queue = cq;
        log(std::move(f));
    }

    void admitted(int wl, std::int64_t now) {
        WlState& s = wl_[wl];
        ++s.epoch;
        s.last_admit = now;
        take(wl, now);
        ++report_.admissions;
        if (s.queue >= 0) ++queues_[s.queue].admissions;
        if (keep()) {
            std::string waited = s.arrival >= 0 ? std::to_string(now - g_.arrivals[s.arrival].at_ms) + "ms" : std::string("-");
            log(event(now, "Admitted", wl, "QuotaReserved",
                      "Quota reserved in ClusterQueue " + engine_.cluster_queue_of(wl) + ", wait time since creation was " + waited));
        }
        if (s.arrival < 0) return;
        const WorkloadTemplate* t = g_.specs[s.arrival].tmpl;
        const bool never = t && t->never_ready;
        const std::int64_t ready_ms = t ? t->pods_ready_ms : 0;
        if (!never && ready_ms == 0) {
            events_.push({now + g_.arrivals[s.arrival].runtime_ms, kFinish, wl, s.epoch});
            return;
        }
        // Pods take time: the job runs runtimeMs from when they are ready.
        s.not_ready = true;
        ++not_ready_;
        if (pr_.enabled && (never || ready_ms > pr_.timeout_ms)) {
            events_.push({now + pr_.timeout_ms, kTimeout, wl, s.epoch});
        } else if (!never) {
            events_.push({now + ready_ms, kReady, wl, s.epoch});
        }
    }

    void set_ready(WlState& s) {
        if (!s.not_ready) return;
        s.not_ready = false;
        --not_ready_;
    }

    void ready(const Event& e, std::int64_t now) {
        WlState& s = wl_[e.wl];
        if (e.epoch != s.epoch || !engine_.holds_quota(e.wl)) return;
        set_ready(s);
        if (keep()) log(event(now, "PodsReady", e.wl, "PodsReady", "All pods of the workload are ready"));
        events_.push({now + g_.arrivals[s.arrival].runtime_ms, kFinish, e.wl, s.epoch});
    }

    // reconcileNotReadyTimeout (pkg/controller/core/workload_controller.go,
    // Kueue ff69552e): past backoffLimitCount the workload is deactivated
    // (triggerDeactivation: requeueState.count + 1 > limit), else evicted
    // with reason PodsReadyTimeout and requeued after UpdateRequeueState's
    // backoff, its count incremented.
    void timeout(const Event& e, std::int64_t now) {
        WlState& s = wl_[e.wl];
        if (e.epoch != s.epoch || !engine_.holds_quota(e.wl)) return;
        set_ready(s);
        const std::string cq = engine_.cluster_queue_of(e.wl);
        ++s.epoch;
        ++s.evictions;
        give_back(e.wl, now);
        const bool deactivate = pr_.backoff_limit_count && s.requeue_count + 1 > *pr_.backoff_limit_count;
        // The Evicted condition's reason and message as Kueue sets them
        // (workload_controller_eviction_test.go, "exceeded the maximum number
        // of requeue retries"): DeactivatedDueToRequeuingLimitExceeded.
        TimelineEvent ev = event(now, "Evicted", e.wl, deactivate ? "DeactivatedDueToRequeuingLimitExceeded" : "PodsReadyTimeout", "");
        ev.cluster_queue = cq;
        ev.requeue_count = s.requeue_count;
        if (deactivate) {
            // SetDeactivationTarget(RequeuingLimitExceeded), then spec.active=false.
            ev.message = "The workload is deactivated due to exceeding the maximum number of re-queuing retries";
            ++report_.deactivated;
        } else {
            ++s.requeue_count;
            ++report_.pods_ready_timeouts;
            std::int64_t wait = requeue_backoff_ms(pr_.backoff_base_seconds, pr_.backoff_max_seconds, s.requeue_count);
            ev.requeue_at_ms = now + wait;
            ev.requeue_count = s.requeue_count;
            ev.message = "Exceeded the PodsReady timeout " + key(e.wl);
            events_.push({ev.requeue_at_ms, kRequeue, e.wl, s.epoch});
        }
        engine_.evict_not_ready(e.wl, epoch_ns_ + now * kMsNs, deactivate);
        if (keep()) log(std::move(ev));
    }

    void requeue(int wl, std::int64_t now) {
        engine_.arrive(wl);
        if (keep()) log(event(now, "Requeued", wl, "BackoffFinished", "The workload backoff was finished"));
    }

    void preempted(const scheduler::Preemption& p, std::int64_t now) {
        if (!keep()) return;
        TimelineEvent e = event(now, "Preempted", p.victim, p.reason, "");
        e.preemptor = key(p.preemptor);
        e.preemptor_path = p.preemptor_path;
        e.victim_path = p.victim_path;
        e.message = "Preempted to accommodate " + e.preemptor + " (" + p.reason + "); preemptor path: " + p.preemptor_path +
                    "; preemptee path: " + p.victim_path;
        log(std::move(e));
    }

    // The eviction completes before the next cycle, at the same instant,
    // and the workload goes straight back to its queue.
    // A preempted workload (or, with a reason, one evicted otherwise): it
    // gives its quota back and is requeued at once.
    void evicted(int wl, std::int64_t now, const std::string& reason = "Preempted", const std::string& message = "Preempted") {
        WlState& s = wl_[wl];
        const std::string cq = engine_.cluster_queue_of(wl);
        const bool preempted = reason == "Preempted";
        ++s.epoch;
        ++s.evictions;
        set_ready(s);
        if (preempted) {
            ++report_.preemptions;
            if (s.queue >= 0) ++queues_[s.queue].preemptions;
        }
        give_back(wl, now);
        if (keep()) {
            TimelineEvent e = event(now, "Evicted", wl, reason, message);
            e.cluster_queue = cq;
            e.requeue_at_ms = now;
            log(std::move(e));
        }
        if (keep()) {
            TimelineEvent r = event(now, "Requeued", wl, reason, "Requeued after " + std::string(preempted ? "preemption" : "eviction"));
            r.cluster_queue = cq;
            log(std::move(r));
        }
    }

    void summarise();

    void report_progress() {
        if (!opts_.progress || report_.workloads == 0) return;
        // About a hundred calls over the run, not one per instant.
        std::int64_t step = std::max<std::int64_t>(1, report_.workloads / 100);
        if (created_ / step != reported_ / step || created_ == report_.workloads) {
            reported_ = created_;
            opts_.progress(created_, report_.workloads);
        }
    }

    Generated g_;
    const Options& opts_;
    Diagnostics& diags_;
    std::string scenario_file_;
    scheduler::Engine engine_;
    std::int64_t epoch_ns_ = 0;
    std::vector<WlState> wl_;
    std::vector<QueueTrack> queues_;
    std::map<std::string, int> queue_ids_;
    std::priority_queue<Event, std::vector<Event>, std::greater<>> events_;
    Report report_;
    std::int64_t created_ = 0, reported_ = -1;
    scheduler::PodsReadyConfig pr_;
    bool block_ = false, stuck_ = false;
    std::int64_t not_ready_ = 0;        // admitted workloads whose pods are not ready
    std::int64_t blocked_since_ = -1;   // admission blocked from then (blockAdmission)
    std::vector<std::string> names_;    // input workloads' keys (none: arrivals only)
};

// The pending workload's QuotaReserved=False reason and message as the
// scheduler engine reports them (the same mapping as one-shot simulate).
// A workload the scheduler never popped has none yet: Kueue's workload
// controller says PendingEvaluation then (workload_controller.go,
// "Workload is pending evaluation in the scheduling queue").
std::string pending_reason(const scheduler::WorkloadOutcome& o) { return o.reason.empty() ? "PendingEvaluation" : o.reason; }
std::string pending_message(const scheduler::WorkloadOutcome& o) {
    if (!o.reason.empty() || !o.message.empty()) return o.message;
    // Parked on arrival behind an equivalent workload that does not fit.
    return "Workload is pending evaluation in the scheduling queue (not evaluated: a workload of the same shape ahead of "
           "it could not be admitted)";
}

void Run::summarise() {
    const std::int64_t end = report_.makespan_ms;
    std::map<std::string, WorkloadClassReport> classes;
    std::map<std::string, std::vector<std::int64_t>> class_tta;
    std::map<std::string, std::vector<std::int64_t>> class_finish;
    std::vector<int> never;
    for (std::size_t id = 0; id < wl_.size(); ++id) {
        const WlState& s = wl_[id];
        if (s.arrival < 0) continue;
        const Arrival& a = g_.arrivals[s.arrival];
        WorkloadClassReport& c = classes[a.class_name];
        c.name = a.class_name;
        ++c.workloads;
        c.evictions += s.evictions;
        QueueTrack* q = queue_of(static_cast<int>(id));
        if (s.last_admit >= 0) {
            ++c.admitted;
            class_tta[a.class_name].push_back(s.last_admit - a.at_ms);
            if (q) q->time_to_admission.push_back(s.last_admit - a.at_ms);
        }
        if (s.finished_at >= 0) {
            ++c.finished;
            class_finish[a.class_name].push_back(s.finished_at - a.at_ms);
        }
        if (!engine_.holds_quota(static_cast<int>(id)) && s.finished_at < 0) {
            ++c.never_admitted;
            if (q) ++q->never_admitted;
            never.push_back(static_cast<int>(id));
        }
    }
    for (auto& [name, c] : classes) {
        c.time_to_admission = stats_of(class_tta[name]);
        c.mean_time_to_finish = stats_of(class_finish[name]).mean;
        report_.workload_classes.push_back(c);
    }

    std::map<std::string, std::vector<const QueueTrack*>> by_class;
    for (auto& q : queues_) {
        QueueReport r;
        r.name = q.name;
        r.class_name = q.class_name;
        r.cohort = q.cohort;
        r.workloads = q.workloads;
        r.admissions = q.admissions;
        r.preemptions = q.preemptions;
        r.never_admitted = q.never_admitted;
        r.last_event_ms = q.last_event_ms;
        r.time_to_admission = stats_of(q.time_to_admission);
        for (std::size_t i = 0; i < q.resources.size(); ++i) {
            ResourceUsage u;
            u.resource = q.resources[i];
            u.nominal = q.nominal[i];
            u.peak = q.usage[i].peak;
            // Percent of nominal quota (above 100 % the queue borrows). A
            // borrow-only queue (nominal 0) would always read 0 % however
            // busy it is: its percentages are against what it may borrow
            // from its cohort instead (Kueue's PotentialAvailable, within
            // its borrowingLimit), and the basis says so. Text, JSON and
            // HTML all show these same numbers with their basis.
            u.reference = u.nominal;
            if (u.nominal == 0 && q.potential[i] > 0) {
                u.reference = q.potential[i];
                u.basis = ResourceUsage::Basis::Borrowable;
            }
            double window = static_cast<double>(q.last_event_ms);
            if (u.reference > 0 && window > 0)
                u.average_percent =
                    round_percent(q.usage[i].integral(0, q.last_event_ms) * 100.0 / (static_cast<double>(u.reference) * window));
            u.series = series_of({&q.usage[i]}, u.reference, end, opts_.series_points);
            r.usage.push_back(std::move(u));
        }
        report_.queues.push_back(std::move(r));
        by_class[q.class_name].push_back(&q);
    }
    for (const auto& [name, qs] : by_class) {
        // Kueue's checker: sum(used) / (sum(nominal) * (last event - first
        // event)) over the class's queues, for its one resource (cpu). With
        // several resources, the dominant one: the highest average usage.
        std::vector<std::string> resources;
        for (const auto* q : qs)
            for (const auto& r : q->resources)
                if (std::find(resources.begin(), resources.end(), r) == resources.end()) resources.push_back(r);
        std::int64_t last = 0;
        for (const auto* q : qs) last = std::max(last, q->last_event_ms);
        std::optional<QueueClassReport> best;
        for (const auto& res : resources) {
            QueueClassReport c;
            c.name = name;
            c.queues = static_cast<std::int64_t>(qs.size());
            c.resource = res;
            std::vector<const UsageTrack*> tracks;
            double used = 0;
            for (const auto* q : qs) {
                int r = q->resource_index(res);
                if (r < 0) continue;
                c.nominal = sat_add(c.nominal, q->nominal[r]);
                tracks.push_back(&q->usage[r]);
                used += q->usage[r].integral(0, last);
            }
            if (c.nominal > 0 && last > 0)
                c.average_usage_percent = round_percent(used * 100.0 / (static_cast<double>(c.nominal) * static_cast<double>(last)));
            if (best && c.average_usage_percent <= best->average_usage_percent) continue;
            c.series = series_of(tracks, c.nominal, end, opts_.series_points);
            best = std::move(c);
        }
        if (!best) {
            best.emplace();
            best->name = name;
            best->queues = static_cast<std::int64_t>(qs.size());
        }
        report_.queue_classes.push_back(std::move(*best));
    }

    if (!never.empty()) {
        Diagnostics scratch;
        scheduler::Result r = engine_.result(true, scratch);
        struct ClassNever {
            std::int64_t count = 0;
            int example = -1;
        };
        std::map<std::string, ClassNever> per_class;
        std::map<std::string, std::map<std::string, std::int64_t>> class_reasons, queue_reasons;
        std::map<std::string, std::int64_t> all_reasons;
        for (int id : never) {
            const auto& o = r.workloads[id];
            const std::string& cls = g_.arrivals[wl_[id].arrival].class_name;
            ClassNever& c = per_class[cls];
            if (c.count++ == 0) c.example = id;
            const std::string reason = pending_reason(o);
            ++class_reasons[cls][reason];
            ++queue_reasons[o.cluster_queue][reason];
            ++all_reasons[reason];
            if (report_.never_admitted.size() < kNeverAdmittedListed)
                report_.never_admitted.push_back({o.namespace_, o.name, o.cluster_queue, reason, pending_message(o)});
        }
        report_.pending_reasons.assign(all_reasons.begin(), all_reasons.end());
        for (auto& c : report_.workload_classes)
            if (auto it = class_reasons.find(c.name); it != class_reasons.end())
                c.pending_reasons.assign(it->second.begin(), it->second.end());
        for (auto& q : report_.queues)
            if (auto it = queue_reasons.find(q.name); it != queue_reasons.end())
                q.pending_reasons.assign(it->second.begin(), it->second.end());
        for (const auto& [cls, c] : per_class) {
            const auto& o = r.workloads[c.example];
            std::string why = ": " + pending_reason(o) + ", " + pending_message(o);
            Diagnostic d;
            d.severity = Severity::Error;
            d.file = scenario_file_;
            d.mark = g_.arrivals[wl_[c.example].arrival].mark;
            d.message = std::to_string(c.count) + " workload(s) of class " + cls +
                        " were never admitted by the end of the run (e.g. " + o.namespace_ + "/" + o.name + why + ")";
            d.rule = "timeline.never-admitted";
            d.object = {"queueforge.io/v1alpha1", "WorkloadClass", "", cls};
            diags_.add(std::move(d));
        }
    }
}

}  // namespace

std::int64_t requeue_backoff_ms(std::int64_t base_seconds, std::int64_t max_seconds, std::int64_t count) {
    // pkg/util/wait/backoff.go WaitTime over apimachinery's wait.Backoff
    // (Steps MaxInt, Factor 2, Cap = max or MaxInt64/2): each step returns
    // the current duration and doubles it for the next, the doubled value
    // capped; it stops early once a step returns the cap.
    if (count <= 0) return 0;
    const long double cap_ns = max_seconds > 0 ? static_cast<long double>(max_seconds) * 1e9L
                                               : static_cast<long double>(INT64_MAX / 2);
    long double d = static_cast<long double>(base_seconds) * 1e9L, out = 0;
    bool capped = false;
    for (std::int64_t i = 0; i < count; ++i) {
        out = d;
        if (!capped) {
            long double next = d * 2;
            if (next > cap_ns) {
                next = cap_ns;
                capped = true;
            }
            d = next;
        }
        if (out == cap_ns) break;
    }
    return static_cast<std::int64_t>(out / 1e6L);
}

bool Report::passed() const {
    if (!settled || !never_admitted.empty()) return false;
    for (const auto& c : checks)
        if (!c.met) return false;
    return true;
}

Report run(const Scenario& scenario, const std::vector<Resource>& cluster, const Options& opts, Diagnostics& diags) {
    Generated g = generate(scenario, cluster, diags);
    if (diags.has_errors()) {
        Report r;
        r.scenario = scenario.file;
        r.settled = false;
        return r;
    }
    Run run(std::move(g), cluster, scenario.file, opts, diags);
    Report r = run.go();
    r.scenario = scenario.file;
    return r;
}

}  // namespace queueforge::timeline
