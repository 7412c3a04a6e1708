#pragma once
// `simulate --scenario`: the timeline (virtual-time) mode.
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

int run_timeline(const TimelineFlags& f);

}  // namespace queueforge::cli
