// Runs `queueforge simulate --scenario` on Kueue's scheduler performance
// configurations as a whole process, ROUNDS times each, and prints the
// median wall time, the peak resident memory and the ratio to real Kueue's
// wall time on the same configuration (the mean its rangespec.yaml records).
//   bench_simulate [kueue-perf dir = ../shared/upstream/kueue-perf] [rounds = 5]
#include "spawn.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

namespace {

// Kueue's own wall time for the configuration, from the comment its
// rangespec.yaml keeps above cmd.maxWallMs ("Average value 351116.4" or
// "mean=1179411ms").
double kueue_wall_ms(const std::filesystem::path& rangespec) {
    std::ifstream in(rangespec);
    std::stringstream ss;
    ss << in.rdbuf();
    std::string text = ss.str();
    auto cmd = text.find("cmd:");
    if (cmd == std::string::npos) return 0;
    std::smatch m;
    std::string tail = text.substr(cmd);
    if (std::regex_search(tail, m, std::regex(R"((?:Average value |mean=)([0-9.]+))"))) return std::stod(m[1]);
    return 0;
}

}  // namespace

int main(int argc, char** argv) {
    std::filesystem::path dir = argc > 1 ? argv[1] : std::string(QF_SOURCE_DIR) + "/../shared/upstream/kueue-perf";
    int rounds = argc > 2 ? std::max(1, std::atoi(argv[2])) : 5;
    std::printf("%-12s %10s %10s %12s %14s %10s\n", "config", "median ms", "max ms", "peak MiB", "Kueue wall ms", "speed-up");
    for (const char* name : {"baseline", "large-scale"}) {
        auto scenario = dir / name / "generator.yaml";
        if (!std::filesystem::exists(scenario)) {
            std::printf("%-12s missing: %s\n", name, scenario.c_str());
            continue;
        }
        std::vector<qf_bench::ChildRun> runs;
        for (int i = 0; i < rounds; ++i)
            runs.push_back(qf_bench::spawn_child({QF_BINARY, "simulate", "--scenario", scenario.string(), "-o", "json"}));
        std::vector<double> walls;
        long rss = 0;
        for (const auto& r : runs) {
            if (!r.ok()) std::printf("%-12s run exited %d\n", name, r.exit);
            walls.push_back(r.wall_ms);
            rss = std::max(rss, r.rss_kib);
        }
        std::sort(walls.begin(), walls.end());
        double median = walls[walls.size() / 2];
        double kueue = kueue_wall_ms(dir / name / "rangespec.yaml");
        std::printf("%-12s %10.0f %10.0f %12.1f %14.0f %9.0fx\n", name, median, walls.back(), rss / 1024.0, kueue,
                    median > 0 ? kueue / median : 0);
    }
}
