// `queueforge simulate --scenario` as a whole process while the input doubles:
//  * backlog: 2 ClusterQueues, N workloads each arriving at once (n = 2 x N);
//  * Kueue's scheduler-perf baseline with every workloadsSet count scaled by k.
//   bench_scaling_timeline [max backlog per queue=80000] [max scale=10] [kueue-perf dir]
#include "scaling.hpp"

#include <regex>
#include <sstream>

namespace {

std::string backlog(long per_queue) {
    return "cohorts:\n"
           "  - className: cohort\n    count: 1\n    queuesSets:\n"
           "    - className: cq\n      count: 2\n      nominalQuota: 20\n      borrowingLimit: 100\n"
           "      reclaimWithinCohort: Any\n      withinClusterQueue: LowerPriority\n"
           "      workloadsSets:\n      - count: " +
           std::to_string(per_queue) +
           "\n        creationIntervalMs: 0\n        workloads:\n        - className: small\n"
           "          runtimeMs: 200\n          priority: 50\n          request: 1\n";
}

// Kueue's generator.yaml with each workloadsSet `count:` multiplied by k (the
// queuesSet and cohort counts, which are indented less, stay).
std::string scaled(const std::string& generator, long k) {
    static const std::regex count(R"((\n      - count: )(\d+))");
    std::string out;
    auto it = std::sregex_iterator(generator.begin(), generator.end(), count);
    std::size_t last = 0;
    for (; it != std::sregex_iterator(); ++it) {
        out += generator.substr(last, static_cast<std::size_t>(it->position()) - last);
        out += (*it)[1].str() + std::to_string(std::stol((*it)[2].str()) * k);
        last = static_cast<std::size_t>(it->position() + it->length());
    }
    return out + generator.substr(last);
}

}  // namespace

int main(int argc, char** argv) {
    const long max_backlog = argc > 1 ? std::atol(argv[1]) : 80000;
    const long max_scale = argc > 2 ? std::atol(argv[2]) : 10;
    const std::filesystem::path perf = argc > 3 ? argv[3] : std::string(QF_SOURCE_DIR) + "/../shared/upstream/kueue-perf";
    const std::string dir = qf_bench::scratch_dir();
    qf_bench::run_doubling({.title = "simulate --scenario: 2 queues x n workloads arriving at once",
                            .start = 2500,
                            .max = max_backlog,
                            .budget_s = 60,
                            .prepare = [&](long n) {
                                const std::string file = dir + "/backlog-" + std::to_string(n) + ".yaml";
                                qf_bench::write_file(file, backlog(n));
                                return std::vector<std::string>{QF_BINARY, "simulate", "--scenario", file};
                            }});
    const auto baseline = perf / "baseline" / "generator.yaml";
    if (!std::filesystem::exists(baseline)) {
        std::printf("Kueue baseline skipped: %s not found\n", baseline.c_str());
    } else {
        std::ifstream in(baseline);
        std::stringstream ss;
        ss << in.rdbuf();
        const std::string generator = ss.str();
        qf_bench::run_doubling({.title = "simulate --scenario: Kueue's scheduler-perf baseline, workloads x n",
                                .start = 1,
                                .max = max_scale,
                                .budget_s = 60,
                                .prepare = [&](long k) {
                                    const std::string file = dir + "/baseline-x" + std::to_string(k) + ".yaml";
                                    qf_bench::write_file(file, scaled(generator, k));
                                    return std::vector<std::string>{QF_BINARY, "simulate", "--scenario", file};
                                }});
    }
    std::filesystem::remove_all(dir);
}
