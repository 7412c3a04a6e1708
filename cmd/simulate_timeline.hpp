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
};

// Every failure (never admitted, unsettled, a threshold) is a finding; the
// gate levels them and the exit code follows.
int run_timeline(const TimelineFlags& f, const GateFlags& gate);

}  // namespace queueforge::cli
