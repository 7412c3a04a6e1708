// The timeline with topology-aware scheduling (bar: TAS / no TAS <= 3x):
// Kueue's scheduler-perf baseline (15,000 workloads on 30 ClusterQueues) run
// as it is, and with a TAS flavor added as Kueue's configs/tas does it
// (topology block > rack > kubernetes.io/hostname, resourceFlavor nodeLabel
// tas-node-group + topologyName) and each workload class given a
// tasConstraint at the rack: small required, medium preferred, large
// balanced (sliceSize 1). Two topologies: configs/tas's own (1 x 10 x 64
// nodes of 96 cpu, far more than the 600 cpu of nominal quota; its lowest
// level is kubernetes.io/hostname, whose values "node-<i>" repeat in every
// rack, so Kueue's TAS cache, keyed by hostname, folds the racks into 64
// leaves) and a tight one (1 x 2 x 4 nodes of 96 cpu, 768 cpu, lowest level
// a label of its own, so 8 distinct nodes). In process (parse + run), the
// median of ROUNDS runs each.
//   bench_tas_timeline [rounds = 3] [kueue-perf dir = ../shared/upstream/kueue-perf]
#include <queueforge/engines/timeline.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

using namespace queueforge;

namespace {

std::string topology(int racks, int nodes, const std::string& node_label) {
    return "topology:\n  name: default-topology\n  levels:\n"
           "  - {name: block, count: 1, nodeLabel: cloud.provider.com/topology-block}\n"
           "  - {name: rack, count: " + std::to_string(racks) + ", nodeLabel: cloud.provider.com/topology-rack}\n"
           "  - {name: node, count: " + std::to_string(nodes) + ", nodeLabel: " + node_label +
           ", capacity: {cpu: \"96\", memory: 256Gi}}\n"
           "resourceFlavor: {name: tas-flavor, nodeLabel: tas-node-group, topologyName: default-topology}\n";
}

// The baseline's workload templates (`request: N` lines) given a constraint
// by class.
std::string with_tas(const std::string& generator, int racks, int nodes, const std::string& node_label) {
    static const std::regex tmpl(R"((\n( +)- className: (small|medium|large)\n(?:\2  .*\n)*?\2  request: [^\n]*))");
    std::string out;
    std::size_t last = 0;
    for (auto it = std::sregex_iterator(generator.begin(), generator.end(), tmpl); it != std::sregex_iterator(); ++it) {
        out += generator.substr(last, static_cast<std::size_t>(it->position() + it->length()) - last);
        const std::string indent = (*it)[2].str() + "  ";
        const std::string cls = (*it)[3].str();
        const std::string constraint = cls == "small" ? "required" : cls == "medium" ? "preferred" : "balanced";
        out += "\n" + indent + "tasConstraint: " + constraint + "\n" + indent + "tasLevel: cloud.provider.com/topology-rack";
        if (constraint == "balanced") out += "\n" + indent + "sliceSize: 1";
        last = static_cast<std::size_t>(it->position() + it->length());
    }
    return topology(racks, nodes, node_label) + out + generator.substr(last);
}

struct Timing {
    double median = 0, min = 0, max = 0;
    timeline::Report report;
};

Timing time_runs(const std::string& text, int rounds) {
    Timing t;
    std::vector<double> times;
    for (int i = 0; i < rounds; ++i) {
        Diagnostics d;
        auto t0 = std::chrono::steady_clock::now();
        auto s = timeline::parse_scenario("generator.yaml", text, d);
        if (!s) {
            std::fprintf(stderr, "bench_tas_timeline: the scenario does not parse:\n%s", render_text(d, {}).c_str());
            std::exit(1);
        }
        t.report = timeline::run(*s, {}, {}, d);
        times.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
    }
    std::sort(times.begin(), times.end());
    t.median = times[times.size() / 2];
    t.min = times.front();
    t.max = times.back();
    return t;
}

void row(const char* name, const Timing& t, double base) {
    std::int64_t never = 0;
    for (const auto& c : t.report.workload_classes) never += c.never_admitted;
    double usage = t.report.queue_classes.empty() ? 0 : t.report.queue_classes[0].average_usage_percent;
    std::printf("  %-34s %9.0f %9.0f %9.0f %7.2fx %8lld %6lld %8lld %6.1f%%\n", name, t.median, t.min, t.max,
                base > 0 ? t.median / base : 0, static_cast<long long>(t.report.cycles),
                static_cast<long long>(never), static_cast<long long>(t.report.makespan_ms), usage);
}

}  // namespace

int main(int argc, char** argv) {
    const int rounds = argc > 1 ? std::max(1, std::atoi(argv[1])) : 3;
    const std::filesystem::path perf = argc > 2 ? argv[2] : std::string(QF_SOURCE_DIR) + "/../shared/upstream/kueue-perf";
    const auto file = perf / "baseline" / "generator.yaml";
    if (!std::filesystem::exists(file)) {
        std::printf("bench_tas_timeline skipped: %s not found\n", file.c_str());
        return 0;
    }
    std::ifstream in(file);
    std::stringstream ss;
    ss << in.rdbuf();
    const std::string baseline = ss.str();
    const std::string wide = with_tas(baseline, 10, 64, "kubernetes.io/hostname");
    const std::string tight = with_tas(baseline, 2, 4, "cloud.provider.com/topology-node");
    if (wide.find("tasConstraint: balanced") == std::string::npos) {
        std::fprintf(stderr, "bench_tas_timeline: the baseline's templates were not found\n");
        return 1;
    }
    const Timing plain = time_runs(baseline, rounds);
    const Timing tas_wide = time_runs(wide, rounds);
    const Timing tas_tight = time_runs(tight, rounds);
    std::printf("simulate --scenario, Kueue's scheduler-perf baseline (15,000 workloads), median of %d, in process\n", rounds);
    std::printf("  %-34s %9s %9s %9s %8s %8s %6s %8s %7s\n", "", "median ms", "min ms", "max ms", "ratio", "cycles", "never",
                "virt ms", "cq use");
    row("as is (no TAS)", plain, plain.median);
    row("TAS, 640 nodes (configs/tas)", tas_wide, plain.median);
    row("TAS, 8 nodes (tight)", tas_tight, plain.median);
    const double worst = std::max(tas_wide.median, tas_tight.median) / plain.median;
    std::printf("  TAS / no TAS, worst: %.2fx; bar 3x: %s\n", worst, worst <= 3 ? "met" : "MISSED");
    return worst <= 3 ? 0 : 1;
}
