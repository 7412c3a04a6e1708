// Runs `queueforge simulate --scenario` on Kueue's scheduler performance
// configurations as a whole process, ROUNDS times each, and prints the
// median wall time, the peak resident memory and the ratio to real Kueue's
// wall time on the same configuration (the mean its rangespec.yaml records).
//   bench_simulate [kueue-perf dir = ../shared/upstream/kueue-perf] [rounds = 5]
#include <spawn.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

extern char** environ;

namespace {

struct Sample {
    double wall_ms = 0;
    long rss_kib = 0;
    int status = -1;
};

Sample run_once(const std::string& scenario) {
    std::vector<std::string> args = {QF_BINARY, "simulate", "--scenario", scenario, "-o", "json"};
    std::vector<char*> argv;
    for (auto& a : args) argv.push_back(a.data());
    argv.push_back(nullptr);
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
    posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
    Sample s;
    auto t0 = std::chrono::steady_clock::now();
    pid_t pid;
    if (posix_spawn(&pid, argv[0], &fa, nullptr, argv.data(), environ) != 0) return s;
    int status = 0;
    rusage ru{};
    wait4(pid, &status, 0, &ru);
    s.wall_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    s.rss_kib = ru.ru_maxrss;
    s.status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    posix_spawn_file_actions_destroy(&fa);
    return s;
}

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
        std::vector<Sample> runs;
        for (int i = 0; i < rounds; ++i) runs.push_back(run_once(scenario.string()));
        std::vector<double> walls;
        long rss = 0;
        for (const auto& r : runs) {
            if (r.status != 0) std::printf("%-12s run exited %d\n", name, r.status);
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
