#pragma once
// Runs a program as a child process (output discarded) and measures it: what
// the process benchmarks share.
#include <spawn.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <string>
#include <vector>

extern char** environ;

namespace qf_bench {

struct ChildRun {
    double wall_ms = -1;
    double cpu_ms = -1;  // user + system time of the child (a loaded machine stretches wall time, not this)
    long rss_kib = 0;   // peak resident memory of the child
    int exit = -1;      // -1 when it could not start or was killed
    bool ok() const { return exit == 0; }
};

// argv[0] is looked up on PATH; `cwd` empty = this process's.
inline ChildRun spawn_child(const std::vector<std::string>& argv, const std::string& cwd = {}) {
    std::vector<char*> args;
    for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
    posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
    if (!cwd.empty()) posix_spawn_file_actions_addchdir_np(&fa, cwd.c_str());
    ChildRun r;
    auto t0 = std::chrono::steady_clock::now();
    pid_t pid = 0;
    if (posix_spawnp(&pid, args[0], &fa, nullptr, args.data(), environ) == 0) {
        int status = 0;
        rusage ru{};
        wait4(pid, &status, 0, &ru);
        r.wall_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
        r.cpu_ms = (ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1000.0 + (ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1000.0;
        r.rss_kib = ru.ru_maxrss;
        r.exit = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    }
    posix_spawn_file_actions_destroy(&fa);
    return r;
}

// Median wall time of `runs` runs; -1 when any run fails.
inline double median_ms(const std::vector<std::string>& argv, int runs, const std::string& cwd = {}) {
    std::vector<double> t;
    for (int i = 0; i < runs; ++i) {
        ChildRun r = spawn_child(argv, cwd);
        if (!r.ok()) return -1;
        t.push_back(r.wall_ms);
    }
    std::sort(t.begin(), t.end());
    return t[t.size() / 2];
}

}  // namespace qf_bench
