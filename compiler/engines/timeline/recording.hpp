#pragma once
// What the virtual-time run records (the equivalent of Kueue's runner
// recorder: workload and ClusterQueue events) and the summaries made of it.
#include <queueforge/engines/timeline.hpp>

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace queueforge::timeline::detail {

// A step function of usage over time: (time ms, value from then on).
struct UsageTrack {
    std::vector<std::pair<std::int64_t, std::int64_t>> points;
    std::int64_t current = 0;
    std::int64_t peak = 0;
    void change(std::int64_t t, std::int64_t delta);
    // Integral of usage over [from, to), value x ms.
    double integral(std::int64_t from, std::int64_t to) const;
};

struct QueueTrack {
    std::string name, cohort, class_name;
    std::vector<std::string> resources;   // spec order, each once
    std::vector<std::int64_t> nominal;    // per resource, all flavors
    std::vector<std::int64_t> potential;  // per resource, all flavors: nominal + what it may borrow
    std::vector<UsageTrack> usage;        // per resource
    std::int64_t last_event_ms = 0;
    std::int64_t workloads = 0, admissions = 0, preemptions = 0, never_admitted = 0;
    std::vector<std::int64_t> time_to_admission;
    int resource_index(const std::string& r) const;
};

// Nearest-rank percentiles, floored integer mean.
Stats stats_of(std::vector<std::int64_t> values);

// Mean usage per interval as percent of `nominal` summed over `tracks`.
Series series_of(const std::vector<const UsageTrack*>& tracks, std::int64_t nominal, std::int64_t end_ms, int points);

// Percent rounded to 0.01 (reports stay readable and stable).
double round_percent(double v);

}  // namespace queueforge::timeline::detail
