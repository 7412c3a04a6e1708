// Times `queueforge build examples/multi-team` as a whole process against
// `cat` on the same file, the floor for any tool that reads it.
//   bench_process [runs=200]
#include "spawn.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fcntl.h>
#include <string>
#include <unistd.h>
#include <vector>

using qf_bench::median_ms;

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
