// The timeline with usage-based Admission Fair Sharing (bar: AFS on / off
// <= 2x). One cluster of 10 ClusterQueues (one cohort, 64 cpu nominal each,
// borrowing), 4 teams' LocalQueues on each; 15,000 workloads of mixed shapes
// arriving over the run: 2,000 single-pod workloads (what Kueue's pod
// integration creates per Deployment replica), multi-pod jobs (4 and 8 pods)
// and single-pod jobs, at three priorities. The same scenario runs with the
// Configuration's admissionFairSharing and the ClusterQueues'
// UsageBasedAdmissionFairSharing mode, and without them. In process (parse +
// run), the median of ROUNDS runs each.
//   bench_timeline_afs [rounds = 3]
#include <queueforge/engines/timeline.hpp>

#include <algorithm>
#include <chrono>
#include <ctime>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

using namespace queueforge;

namespace {

constexpr int kQueues = 10, kTeams = 4;

std::string cluster(bool afs) {
    std::string s = "apiVersion: kueue.x-k8s.io/v1beta2\nkind: ResourceFlavor\nmetadata: {name: rf}\n";
    if (afs)
        s += "---\napiVersion: config.kueue.x-k8s.io/v1beta2\nkind: Configuration\n"
             "admissionFairSharing: {usageHalfLifeTime: 10m, usageSamplingInterval: 30s, resourceWeights: {cpu: 1}}\n";
    for (int q = 0; q < kQueues; ++q) {
        const std::string cq = "cq-" + std::to_string(q);
        s += "---\napiVersion: kueue.x-k8s.io/v1beta2\nkind: ClusterQueue\nmetadata: {name: " + cq + "}\nspec:\n"
             "  cohortName: all\n  namespaceSelector: {}\n" +
             std::string(afs ? "  admissionScope: {admissionMode: UsageBasedAdmissionFairSharing}\n" : "") +
             "  preemption: {withinClusterQueue: LowerPriority}\n"
             "  resourceGroups:\n  - coveredResources: [cpu]\n    flavors:\n    - name: rf\n      resources:\n"
             "      - {name: cpu, nominalQuota: 64, borrowingLimit: 64}\n";
        for (int t = 0; t < kTeams; ++t) {
            const std::string ns = "team-" + std::to_string(t);
            if (q == 0) s += "---\napiVersion: v1\nkind: Namespace\nmetadata: {name: " + ns + "}\n";
            s += "---\napiVersion: kueue.x-k8s.io/v1beta2\nkind: LocalQueue\nmetadata: {name: lq-" + std::to_string(q) +
                 ", namespace: " + ns + "}\nspec: {clusterQueue: " + cq + ", fairSharing: {weight: '" +
                 std::to_string(t + 1) + "'}}\n";
        }
    }
    return s;
}

// 40 LocalQueues x 375 workloads = 15,000: per LocalQueue 50 single-pod
// Deployment replicas (2,000 in all), 125 single-pod jobs, 125 4-pod jobs,
// 75 8-pod jobs.
std::string scenario(bool mixed_priorities) {
    std::string s = "localQueues:\n";
    for (int q = 0; q < kQueues; ++q)
        for (int t = 0; t < kTeams; ++t) {
            s += "- localQueue: team-" + std::to_string(t) + "/lq-" + std::to_string(q) + "\n  workloadsSets:\n";
            const int skew = 50 * t;  // the teams arrive at different rates
            s += "  - count: 50\n    creationIntervalMs: " + std::to_string(900 + skew) +
                 "\n    workloads:\n    - {className: deployment-pod, runtimeMs: 20000, priority: 100, request: {cpu: 1}}\n";
            s += "  - count: 125\n    creationIntervalMs: " + std::to_string(300 + skew) +
                 "\n    workloads:\n    - {className: job-small, runtimeMs: 2000, priority: 50, request: {cpu: 1}}\n";
            s += "  - count: 125\n    creationIntervalMs: " + std::to_string(400 + skew) +
                 "\n    workloads:\n    - {className: job-medium, runtimeMs: 4000, priority: 50, podCount: 4, request: {cpu: 2}}\n";
            s += "  - count: 75\n    creationIntervalMs: " + std::to_string(700 + skew) +
                 "\n    workloads:\n    - {className: job-large, runtimeMs: 6000, priority: 200, podCount: 8, request: {cpu: 2}}\n";
            if (!mixed_priorities)
                for (const char* p : {"priority: 100", "priority: 200"})
                    for (std::size_t at; (at = s.find(p)) != std::string::npos;) s.replace(at, std::string(p).size(), "priority: 50");
        }
    return s;
}

struct Timing {
    double median = 0, min = 0, max = 0, cpu_median = 0;
    timeline::Report report;
};

Timing time_runs(bool afs, bool mixed_priorities, int rounds) {
    Timing t;
    std::vector<double> times, cpu;
    const std::string text = scenario(mixed_priorities), objects = cluster(afs);
    for (int i = 0; i < rounds; ++i) {
        Diagnostics d;
        auto t0 = std::chrono::steady_clock::now();
        const std::clock_t c0 = std::clock();
        LoadedResources lr;
        load_resources_from_text("cluster.yaml", objects, lr, d);
        auto s = timeline::parse_scenario("scenario.yaml", text, d);
        if (!s || d.has_errors()) {
            std::fprintf(stderr, "bench_timeline_afs: bad input:\n%s", render_text(d, {}).c_str());
            std::exit(1);
        }
        t.report = timeline::run_on(*s, lr.resources, {}, d);
        times.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
        cpu.push_back(1000.0 * static_cast<double>(std::clock() - c0) / CLOCKS_PER_SEC);
        if (d.has_errors()) {
            std::fprintf(stderr, "bench_timeline_afs: the run failed:\n%s", render_text(d, {}).c_str());
            std::exit(1);
        }
    }
    std::sort(times.begin(), times.end());
    t.median = times[times.size() / 2];
    t.min = times.front();
    t.max = times.back();
    std::sort(cpu.begin(), cpu.end());
    t.cpu_median = cpu[cpu.size() / 2];
    return t;
}

void row(const char* name, const Timing& t, double base) {
    std::int64_t never = 0, admitted = 0, evictions = 0;
    for (const auto& c : t.report.workload_classes) never += c.never_admitted;
    for (const auto& c : t.report.workload_classes) admitted += c.admitted;
    for (const auto& c : t.report.workload_classes) evictions += c.evictions;
    std::printf("  %-12s %9.0f %9.0f %7.2fx %8lld %9.1f %8lld %9lld %6lld %9lld\n", name, t.median, t.cpu_median,
                base > 0 ? t.median / base : 0, static_cast<long long>(t.report.cycles),
                1000.0 * t.cpu_median / static_cast<double>(std::max<std::int64_t>(1, t.report.cycles)),
                static_cast<long long>(admitted), static_cast<long long>(evictions), static_cast<long long>(never),
                static_cast<long long>(t.report.makespan_ms));
}

}  // namespace

int main(int argc, char** argv) {
    const int rounds = argc > 1 ? std::max(1, std::atoi(argv[1])) : 3;
    std::printf("simulate --scenario, 15,000 workloads (2,000 single-pod Deployment replicas) on 10 ClusterQueues x 4 "
                "LocalQueues, median of %d, in process\n",
                rounds);
    std::printf("  %-12s %9s %9s %8s %8s %9s %8s %9s %6s %9s\n", "", "wall ms", "cpu ms", "ratio", "cycles", "us/cycle",
                "admitted", "evictions", "never", "virt ms");
    bool met = true;
    for (bool mixed : {true, false}) {
        std::printf(" %s\n", mixed ? "priorities 50/100/200 (preemption within the ClusterQueue)" : "one priority (no preemption)");
        const Timing off = time_runs(false, mixed, rounds);
        const Timing on = time_runs(true, mixed, rounds);
        row("AFS off", off, off.median);
        row("AFS on", on, off.median);
        const double ratio = on.median / off.median;
        const double per_cycle = (on.cpu_median / static_cast<double>(on.report.cycles)) /
                                 (off.cpu_median / static_cast<double>(off.report.cycles));
        // AFS puts LocalQueue usage before priority (Kueue's queueOrderingFunc),
        // so the same arrivals take another path (other heads first, lower
        // priorities admitted and then preempted): the per-cycle cost is the
        // engine's overhead, the total includes the different schedule.
        std::printf("  AFS on / off: %.2fx wall, %.2fx cpu per cycle; bar 2x (wall): %s\n", ratio, per_cycle,
                    ratio <= 2 ? "met" : "MISSED");
        met = met && ratio <= 2;
    }
    return met ? 0 : 1;
}
