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
             "  preemption: {withinClusterQueue: LowerPriority, reclaimWithinCohort: Any}\n"
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
std::string scenario() {
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
        }
    return s;
}

struct Timing {
    double median = 0, min = 0, max = 0;
    timeline::Report report;
};

Timing time_runs(bool afs, int rounds) {
    Timing t;
    std::vector<double> times;
    const std::string text = scenario(), objects = cluster(afs);
    for (int i = 0; i < rounds; ++i) {
        Diagnostics d;
        auto t0 = std::chrono::steady_clock::now();
        LoadedResources lr;
        load_resources_from_text("cluster.yaml", objects, lr, d);
        auto s = timeline::parse_scenario("scenario.yaml", text, d);
        if (!s || d.has_errors()) {
            std::fprintf(stderr, "bench_timeline_afs: bad input:\n%s", render_text(d, {}).c_str());
            std::exit(1);
        }
        t.report = timeline::run_on(*s, lr.resources, {}, d);
        times.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
        if (d.has_errors()) {
            std::fprintf(stderr, "bench_timeline_afs: the run failed:\n%s", render_text(d, {}).c_str());
            std::exit(1);
        }
    }
    std::sort(times.begin(), times.end());
    t.median = times[times.size() / 2];
    t.min = times.front();
    t.max = times.back();
    return t;
}

void row(const char* name, const Timing& t, double base) {
    std::int64_t never = 0, admitted = 0;
    for (const auto& c : t.report.workload_classes) never += c.never_admitted;
    for (const auto& c : t.report.workload_classes) admitted += c.admitted;
    std::printf("  %-12s %9.0f %9.0f %9.0f %7.2fx %8lld %8lld %6lld %9lld\n", name, t.median, t.min, t.max,
                base > 0 ? t.median / base : 0, static_cast<long long>(t.report.cycles), static_cast<long long>(admitted),
                static_cast<long long>(never), static_cast<long long>(t.report.makespan_ms));
}

}  // namespace

int main(int argc, char** argv) {
    const int rounds = argc > 1 ? std::max(1, std::atoi(argv[1])) : 3;
    const Timing off = time_runs(false, rounds);
    const Timing on = time_runs(true, rounds);
    std::printf("simulate --scenario, 15,000 workloads (2,000 single-pod Deployment replicas) on 10 ClusterQueues x 4 "
                "LocalQueues, median of %d, in process\n",
                rounds);
    std::printf("  %-12s %9s %9s %9s %8s %8s %8s %6s %9s\n", "", "median ms", "min ms", "max ms", "ratio", "cycles",
                "admitted", "never", "virt ms");
    row("AFS off", off, off.median);
    row("AFS on", on, off.median);
    const double ratio = on.median / off.median;
    std::printf("  AFS on / off: %.2fx; bar 2x: %s\n", ratio, ratio <= 2 ? "met" : "MISSED");
    return ratio <= 2 ? 0 : 1;
}
