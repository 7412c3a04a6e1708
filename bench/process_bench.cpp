// Times `queueforge build examples/multi-team` as a whole process against
// `cat` on the same file, the floor for any tool that reads it.
//   bench_process [runs=200]
#include <spawn.h>
#include <sys/wait.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fcntl.h>
#include <string>
#include <unistd.h>
#include <vector>

extern char** environ;

namespace {

double run_once(const std::vector<std::string>& argv) {
    std::vector<char*> args;
    for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
    posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
    auto t0 = std::chrono::steady_clock::now();
    pid_t pid = 0;
    if (posix_spawnp(&pid, args[0], &fa, nullptr, args.data(), environ) != 0) return -1;
    int status = 0;
    waitpid(pid, &status, 0);
    double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    posix_spawn_file_actions_destroy(&fa);
    return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? ms : -1;
}

double median_ms(const std::vector<std::string>& argv, int runs) {
    std::vector<double> t;
    for (int i = 0; i < runs; ++i) {
        double ms = run_once(argv);
        if (ms < 0) return -1;
        t.push_back(ms);
    }
    std::sort(t.begin(), t.end());
    return t[t.size() / 2];
}

}  // namespace

int main(int argc, char** argv) {
    int runs = argc > 1 ? std::stoi(argv[1]) : 200;
    std::string site = std::string(QF_SOURCE_DIR) + "/examples/multi-team/queueforge-site.yaml";
    double qf = median_ms({QF_BINARY, "build", site}, runs);
    double cat = median_ms({"cat", site}, runs);
    if (qf < 0 || cat < 0) {
        std::fprintf(stderr, "a run failed\n");
        return 1;
    }
    std::printf("queueforge build examples/multi-team: median %.2f ms over %d runs\n", qf, runs);
    std::printf("cat on the same file:                 median %.2f ms\n", cat);
    std::printf("ratio: %.2fx\n", qf / cat);
    return 0;
}
