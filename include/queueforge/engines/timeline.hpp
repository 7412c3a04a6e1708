#pragma once
// Timeline mode of `simulate`: a workload arrival scenario run through the
// scheduler in virtual time (workloads are created, admitted, run for their
// runtime, finish and free their quota), for capacity planning.
//
// The scenario file has the shape of Kueue's scheduler performance generator
// (test/performance/scheduler/runner/generator): cohorts -> queuesSets ->
// workloadsSets -> workload templates, generating the same objects (flavor
// "rf", ClusterQueues "<class>-<set>-<i>-<cohort>" covering cpu, one
// namespace and LocalQueue per ClusterQueue, Workloads "<class>-<set>-<n>-<i>"
// created every creationIntervalMs). queueforge adds `localQueues:`: arrival
// sets into LocalQueues that already exist (a site or manifests given beside
// the scenario), with requests over any resources. Kueue's TAS generator
// fields are read too: `topology:` (levels with counts and node capacity),
// the flavor's `nodeLabel` / `topologyName`, and per workload `tasConstraint`
// (required | preferred | balanced), `tasLevel` and `sliceSize`; DRA settings
// are refused.
//
// Thresholds follow Kueue's rangespec.yaml (checker_test.go).
#include <queueforge/base/diagnostics.hpp>
#include <queueforge/base/mark.hpp>
#include <queueforge/base/node.hpp>
#include <queueforge/frontend/manifests.hpp>

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace queueforge::timeline {

struct WorkloadTemplate {
    std::string class_name;
    std::int64_t runtime_ms = 0;
    std::int32_t priority = 0;
    std::vector<std::pair<std::string, std::string>> request;  // resource -> quantity text
    std::int32_t pod_count = 1;
    // queueforge: pod placement, as in a pod spec (for tainted or labelled flavors).
    std::optional<Node> tolerations;
    std::optional<Node> node_selector;
    // Kueue's generator TAS fields: with tasLevel the podSet "main" has
    // podCount pods and a topologyRequest (required / preferred: the level;
    // balanced: podSetSliceRequiredTopology at the level, podSetSliceSize).
    std::string tas_constraint;  // "" | required | preferred | balanced
    std::string tas_level;       // a level's nodeLabel
    std::int32_t slice_size = 0;
    // queueforge: how long the pods take to become ready after admission
    // (podsReadyMs; default 0, ready at once; `never` for pods that never
    // become ready). The job runs runtimeMs from then. Under Kueue's
    // waitForPodsReady a workload not ready within the timeout is evicted
    // (PodsReadyTimeout) and requeued after the backoff.
    std::int64_t pods_ready_ms = 0;
    bool never_ready = false;
    Mark tas_level_mark;
    Mark mark;
};

struct WorkloadsSet {
    std::int64_t count = 0;
    std::int64_t interval_ms = 0;
    std::vector<WorkloadTemplate> workloads;
    Mark mark;
};

struct QueuesSet {
    std::string class_name;
    std::int64_t count = 0;
    std::string nominal_quota;                  // cpu
    std::optional<std::string> borrowing_limit;
    std::optional<std::string> lending_limit;
    std::string reclaim_within_cohort = "Never";
    std::string within_cluster_queue = "Never";
    std::vector<WorkloadsSet> sets;
    Mark mark;
};

struct CohortSet {
    std::string class_name;
    std::int64_t count = 0;
    std::vector<QueuesSet> queues_sets;
    Mark mark;
};

// queueforge extension: arrivals into an existing LocalQueue.
struct QueueArrivals {
    std::string namespace_, name;
    std::vector<WorkloadsSet> sets;
    Mark mark;
};

// Kueue's generator `topology:` (topology_generator.go): one node per
// combination of level indices, labelled "<level>-<i>" at each level's
// nodeLabel, named "node-<first letter><i>-...", with the last level's
// capacity (default 96 cpu, 256Gi memory) and 110 pods.
struct TopologyLevel {
    std::string name;
    std::int64_t count = 0;
    std::string node_label;
    Mark mark;
};
struct TopologyConfig {
    std::string name;
    std::vector<TopologyLevel> levels;
    std::string cpu = "96", memory = "256Gi";
    std::int64_t nodes = 0;  // the product of the counts
    Mark mark;
};

struct Scenario {
    std::string file;
    std::string flavor = "rf";
    // resourceFlavor.topologyName / nodeLabel: the flavor selects the
    // generated nodes (nodeLabels {<nodeLabel>: tas}) of the topology.
    std::string flavor_topology, flavor_node_label;
    std::optional<TopologyConfig> topology;
    std::vector<CohortSet> cohorts;
    std::vector<QueueArrivals> local_queues;
};

// Reads a scenario; unknown fields, bad values and sizes beyond the limits
// (1,000,000 workloads, 100,000 ClusterQueues) are positioned errors
// (rules "timeline.*"). nullopt when anything is wrong.
std::optional<Scenario> parse_scenario(const std::string& file, const std::string& text, Diagnostics& diags);

// Kueue's rangespec.yaml: cmd limits (checked against the simulator's own
// process), minimum average usage per ClusterQueue class (percent of nominal
// quota of its dominant resource), maximum mean time to admission per workload
// class. queueforge adds wlClassesMaxP95TimeToAdmissionMs.
struct Thresholds {
    std::optional<std::int64_t> max_wall_ms, max_rss_kib, max_mcpu;
    std::vector<std::pair<std::string, double>> cq_min_usage;
    std::vector<std::pair<std::string, std::int64_t>> wl_max_avg_ms;
    std::vector<std::pair<std::string, std::int64_t>> wl_max_p95_ms;
    std::string file;
    std::vector<std::pair<std::string, Mark>> class_marks;  // "cq:<class>" / "wl:<class>" -> where named
};
std::optional<Thresholds> parse_thresholds(const std::string& file, const std::string& text, Diagnostics& diags);

// Counts of pending workloads at the end of the run by Kueue's
// QuotaReserved=False reason.
using ReasonCounts = std::vector<std::pair<std::string, std::int64_t>>;  // by reason

struct Stats {
    std::int64_t count = 0;
    std::int64_t mean = 0;  // integer ms, floored (as Kueue's recorder)
    std::int64_t p50 = 0, p95 = 0, max = 0;
};

struct Series {
    std::int64_t interval_ms = 0;
    std::vector<double> percent;  // mean usage in each interval, percent of nominal
};

struct ResourceUsage {
    // What the percentages are of: the nominal quota, or for a borrow-only
    // queue (nominal 0) what it may borrow from its cohort.
    enum class Basis { Nominal, Borrowable };
    std::string resource;
    std::int64_t nominal = 0;  // milli-CPU for cpu, units otherwise (all flavors)
    std::int64_t peak = 0;
    Basis basis = Basis::Nominal;
    std::int64_t reference = 0;  // the amount the percentages are of (nominal or borrowable)
    double average_percent = 0;  // over [0, last event of the queue], percent of `reference`
    Series series;               // percent of `reference`
};

struct WorkloadClassReport {
    std::string name;
    std::int64_t workloads = 0, admitted = 0, finished = 0, never_admitted = 0, evictions = 0;
    std::int64_t pods_ready_timeouts = 0;  // evictions by PodsReadyTimeout (part of evictions)
    ReasonCounts pending_reasons;          // the never-admitted by reason
    Stats time_to_admission;  // last admission - creation (Kueue's recorder)
    std::int64_t mean_time_to_finish = 0;
};

struct QueueReport {
    std::string name, class_name, cohort;
    std::int64_t workloads = 0, admissions = 0, preemptions = 0, never_admitted = 0;
    std::int64_t last_event_ms = 0;
    ReasonCounts pending_reasons;
    Stats time_to_admission;
    std::vector<ResourceUsage> usage;  // per resource, spec order
};

struct QueueClassReport {
    std::string name;
    std::int64_t queues = 0;
    std::string resource;        // the class's dominant resource (highest average usage; Kueue's generator: cpu)
    std::int64_t nominal = 0;
    double average_usage_percent = 0;  // Kueue: sum(used) / (sum(nominal) * window)
    Series series;
};

struct ThresholdCheck {
    std::string name;     // e.g. "wlClassesMaxAvgTimeToAdmissionMs.small"
    std::string subject;  // the class, or "cmd"
    double limit = 0;
    double actual = 0;
    bool met = true;
    std::string message;
};

struct NeverAdmitted {
    std::string namespace_, name, cluster_queue, reason, message;
};

// One entry of the event log (`--events`, `events` in -o json), in the
// order it happened (virtual time, then the order within the instant).
struct TimelineEvent {
    std::int64_t at_ms = 0;
    // Admitted, Preempted, Evicted, Requeued, PodsReady, Finished, Pending
    // (blockAdmission holds the workload: WaitingForPodsReady)
    std::string type;
    std::string workload;       // namespace/name
    std::string cluster_queue;
    // Kueue's reason: Preempted: InClusterQueue | InCohortReclamation |
    // InCohortFairSharing | InCohortReclaimWhileBorrowing; Evicted: Preempted |
    // PodsReadyTimeout | DeactivatedDueToRequeuingLimitExceeded; Requeued: Preempted | BackoffFinished;
    // Admitted: QuotaReserved; PodsReady: PodsReady; Finished: Succeeded.
    std::string reason;
    std::string message;
    std::string preemptor;      // Preempted: the workload that preempted it
    std::string preemptor_path, victim_path;  // Preempted: "/cohort/.../cq" of both
    std::int64_t requeue_at_ms = -1;  // Evicted: when it goes back to its queue (-1: never)
    std::int32_t requeue_count = 0;   // Evicted by PodsReadyTimeout: Kueue's requeueState.count
};


struct Report {
    std::string scenario;
    std::int64_t makespan_ms = 0;   // last event
    std::int64_t workloads = 0, admissions = 0, preemptions = 0, cycles = 0;
    bool settled = true;            // false when the cycle budget ran out
    std::vector<WorkloadClassReport> workload_classes;  // by name
    std::vector<QueueClassReport> queue_classes;        // by name
    std::vector<QueueReport> queues;                    // by name
    std::vector<NeverAdmitted> never_admitted;          // by namespace/name (first 100)
    ReasonCounts pending_reasons;                       // all never-admitted by reason
    std::vector<TimelineEvent> events;                  // the first Options::max_events
    std::int64_t events_total = 0, events_dropped = 0;
    // waitForPodsReady as applied: "" when off, else a one-line summary.
    std::string pods_ready;
    std::int64_t pods_ready_timeouts = 0, deactivated = 0;
    std::int64_t admission_blocked_ms = 0;  // blockAdmission: virtual time with admission blocked
    std::vector<ThresholdCheck> checks;
    bool passed() const;
};

struct Options {
    int series_points = 50;
    // The event log keeps the first max_events events; the rest are counted
    // (events_dropped). 0 keeps none.
    std::int64_t max_events = 10000;
    // Called now and then with the workloads created so far and the total
    // (the CLI shows it on a terminal); may be empty.
    std::function<void(std::int64_t created, std::int64_t total)> progress;
};

// Runs `scenario` against `cluster` (objects of a site or manifests; may be
// empty for a generator-shaped scenario). Diagnostics: timeline.* findings,
// the simulator's sim.* ones.
Report run(const Scenario& scenario, const std::vector<Resource>& cluster, const Options& opts, Diagnostics& diags);

// Adds the threshold checks to the report; `wall_ms`, `rss_kib` and `mcpu`
// are the caller's process figures (checked only when the file sets them).
void check_thresholds(const Thresholds& t, Report& report, std::int64_t wall_ms, std::int64_t rss_kib,
                      std::int64_t mcpu, Diagnostics& diags);

std::string render_json(const Report& r);
std::string render_text(const Report& r);
// The event log, one line per event (`simulate --scenario F --events`).
std::string render_events(const Report& r);

// Kueue's requeuing backoff after the n-th PodsReadyTimeout eviction
// (pkg/workload UpdateRequeueState -> pkg/util/wait Backoff.WaitTime with
// factor 2): base, 2 base, 4 base ... capped at max (max 0: no cap), in ms.
// Kueue adds a jitter of at most 0.01 % (0.0001); it is left out, so the
// timeline stays deterministic.
std::int64_t requeue_backoff_ms(std::int64_t base_seconds, std::int64_t max_seconds, std::int64_t count);

// ---- The timeline mode as the commands run it (session.cpp) ----

// Reads a scenario file (through the one confined, size-limited reader) and
// parses it; its text joins `sources` for the carets.
std::optional<Scenario> read_scenario(const std::string& path, std::vector<SourceText>& sources, Diagnostics& diags);

// Runs `scenario` on a cluster's objects as the API server would hold them
// (every namespace a LocalQueue names exists).
Report run_on(const Scenario& scenario, std::vector<Resource> cluster, const Options& opts, Diagnostics& diags);

// `simulate --scenario FILE [--thresholds FILE] [PATH...]`: the scenario,
// the thresholds and the cluster (a site or manifests) read, the timeline run
// and the thresholds checked with the process figures `figures` returns at
// the end of the run.
struct ProcessFigures {
    std::int64_t wall_ms = 0, rss_kib = 0, mcpu = 0;
};
struct Request {
    std::string scenario;
    std::string thresholds;          // "" for none
    std::vector<std::string> paths;  // a site or manifests whose LocalQueues the scenario may use
    std::string target;
    Options options;
    std::function<ProcessFigures()> figures;  // called only when thresholds are given
};
struct Outcome {
    std::optional<Report> report;    // nullopt when an input is invalid (errors in diags)
    std::optional<Thresholds> thresholds;
    std::vector<SourceText> sources;  // every text read, for the carets
};
Outcome simulate(const Request& request, Diagnostics& diags);

}  // namespace queueforge::timeline
