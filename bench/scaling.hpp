#pragma once
// Doubling runs of the CLI as a whole process, for the scaling benchmarks
// (bench_scaling_*): each step writes an input of size n, runs queueforge as
// users run it, and prints the wall time, the peak resident memory and the
// growth exponent, log2(t(n) / t(n/2)): 1 is linear, 2 quadratic.
#include "spawn.hpp"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <string>
#include <vector>

namespace qf_bench {

// A scratch folder for generated inputs, removed by the caller's exit.
inline std::string scratch_dir() {
    auto dir = std::filesystem::temp_directory_path() / ("qf-scaling-" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir);
    return dir.string();
}

inline void write_file(const std::string& path, const std::string& text) {
    std::ofstream(path, std::ios::binary) << text;
}

struct Doubling {
    std::string title;
    long start = 1000;
    long max = 100000;
    double budget_s = 60;  // no further doubling once a step takes longer
    // Writes the input for size n and returns the command line to time.
    std::function<std::vector<std::string>(long)> prepare;
};

// Prints one table; returns the exponent of the last step (0 with one step).
// Sizes are start, 2 start, 4 start, ... and then max itself; a step that is
// not a doubling reports its exponent per doubling, log(t2/t1) / log(n2/n1).
inline double run_doubling(const Doubling& d) {
    // cpu s (user + system) is the figure to compare on a loaded machine,
    // where wall time also counts waiting for a core; "cpu exp" is its exponent.
    std::printf("%s\n  %10s %10s %10s %10s %9s %9s %5s\n", d.title.c_str(), "n", "seconds", "cpu s", "peak MiB", "exponent",
                "cpu exp", "exit");
    std::vector<long> sizes;
    for (long n = d.start; n < d.max; n *= 2) sizes.push_back(n);
    sizes.push_back(d.max);
    double prev_s = 0, prev_cpu = 0, exponent = 0;
    long prev_n = 0;
    for (long n : sizes) {
        const ChildRun r = spawn_child(d.prepare(n));
        const double s = r.wall_ms / 1000.0;
        // Exit 1 is a run with error findings: still a whole run.
        const bool ran = r.exit == 0 || r.exit == 1;
        const double cpu = r.cpu_ms / 1000.0;
        char exp_text[32] = "-", cpu_exp_text[32] = "-";
        const double doublings = std::log2(static_cast<double>(n) / static_cast<double>(prev_n ? prev_n : n));
        if (prev_s > 0 && s > 0) {
            exponent = std::log2(s / prev_s) / doublings;
            std::snprintf(exp_text, sizeof exp_text, "%.2f", exponent);
        }
        if (prev_cpu > 0 && cpu > 0) std::snprintf(cpu_exp_text, sizeof cpu_exp_text, "%.2f", std::log2(cpu / prev_cpu) / doublings);
        std::printf("  %10ld %10.3f %10.3f %10.1f %9s %9s %5d\n", n, s, cpu, r.rss_kib / 1024.0, exp_text, cpu_exp_text, r.exit);
        std::fflush(stdout);
        if (!ran) break;
        if (s > d.budget_s) {
            std::printf("  (stopped: over the %.0f s budget per step)\n", d.budget_s);
            break;
        }
        prev_s = s;
        prev_cpu = cpu;
        prev_n = n;
    }
    return exponent;
}

}  // namespace qf_bench
