#pragma once
// `simulate --scenario`: the timeline (virtual-time) mode.
#include "cli.hpp"

#include <string>
#include <vector>

namespace queueforge::cli {

struct TimelineFlags {
    std::string scenario;
    std::string thresholds;
    std::vector<std::string> paths;  // a site or manifests whose LocalQueues the scenario may use
    std::string target;
    std::string output = "text";
    int series_points = 50;
    bool events = false;              // --events: the event log instead of the summary (text)
    std::int64_t max_events = 10000;  // --max-events
};

// Every failure (never admitted, unsettled, a threshold) is a finding; the
// gate levels them and the exit code follows.
int run_timeline(const TimelineFlags& f, const GateFlags& gate);

}  // namespace queueforge::cli
