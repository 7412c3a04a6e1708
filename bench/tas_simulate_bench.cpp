// One-shot `simulate` with topology-aware scheduling (bar: <= 1 s): a 4-level
// topology (zone > block > rack > hostname; 2 zones x 5 blocks x 20 racks x
// 10 nodes = 2,000 nodes of 128 cpu and 8 GPUs) behind one TAS flavor, and
// 1,000 pending workloads in 20 ClusterQueues of one cohort, through
// scheduler::simulate. The podsets mix the modes Kueue offers: rack required,
// block preferred, unconstrained, block required with rack slices. The same
// workloads without topology requests on the same flavor without a topology
// are timed in the same run; the ratio is TAS / quota only.
// Prints the median of ROUNDS runs of each.
//   bench_tas_simulate [rounds = 5] [workloads = 1000]
#include <queueforge/engines/scheduler.hpp>
#include <queueforge/frontend/manifests.hpp>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

using namespace queueforge;

namespace {

constexpr int kZones = 2, kBlocks = 5, kRacks = 20, kHosts = 10;  // per parent
constexpr int kQueues = 20;

struct Lcg {
    std::uint64_t s = 42;
    std::uint32_t next(std::uint32_t n) {
        s = s * 6364136223846793005ULL + 1442695040888963407ULL;
        return static_cast<std::uint32_t>((s >> 33) % n);
    }
};

std::string cluster(bool tas) {
    std::string y;
    if (tas) {
        y += "apiVersion: kueue.x-k8s.io/v1beta2\nkind: Topology\nmetadata: {name: dc}\nspec:\n  levels:\n"
             "  - nodeLabel: example.com/zone\n  - nodeLabel: example.com/block\n  - nodeLabel: example.com/rack\n"
             "  - nodeLabel: kubernetes.io/hostname\n---\n";
        int n = 0;
        for (int z = 0; z < kZones; ++z)
            for (int b = 0; b < kBlocks; ++b)
                for (int r = 0; r < kRacks; ++r)
                    for (int h = 0; h < kHosts; ++h, ++n) {
                        std::string name = "n";  // appended: g++ 12 warns -Wrestrict, wrongly, on "n" + std::string
                        name += std::to_string(n);
                        const std::string block = std::to_string(z * kBlocks + b);
                        const std::string rack = std::to_string((z * kBlocks + b) * kRacks + r);
                        y += "apiVersion: v1\nkind: Node\nmetadata:\n  name: " + name +
                             "\n  labels: {pool: gpu, example.com/zone: z" + std::to_string(z) + ", example.com/block: b" +
                             block + ", example.com/rack: r" + rack + ", kubernetes.io/hostname: " + name +
                             "}\nstatus:\n  allocatable: {cpu: \"128\", memory: 1Ti, nvidia.com/gpu: \"8\", pods: \"110\"}\n"
                             "  conditions: [{type: Ready, status: \"True\"}]\n---\n";
                    }
    }
    y += "apiVersion: kueue.x-k8s.io/v1beta2\nkind: ResourceFlavor\nmetadata: {name: gpu}\nspec:\n  nodeLabels: {pool: gpu}\n";
    if (tas) y += "  topologyName: dc\n";
    y += "---\n";
    // Quota: the cluster's GPUs shared out (2,000 x 8 / 20 = 800 each), so
    // placement, not quota, is what a TAS run runs into.
    for (int q = 0; q < kQueues; ++q) {
        const std::string name = "cq" + std::to_string(q);
        y += "apiVersion: kueue.x-k8s.io/v1beta2\nkind: ClusterQueue\nmetadata: {name: " + name +
             "}\nspec:\n  cohortName: all\n  namespaceSelector: {}\n  resourceGroups:\n"
             "  - coveredResources: [cpu, nvidia.com/gpu]\n    flavors:\n    - name: gpu\n      resources:\n"
             "      - {name: cpu, nominalQuota: \"12800\"}\n      - {name: nvidia.com/gpu, nominalQuota: \"800\"}\n---\n"
             "apiVersion: kueue.x-k8s.io/v1beta2\nkind: LocalQueue\nmetadata: {name: lq, namespace: " +
             name + "}\nspec: {clusterQueue: " + name + "}\n---\napiVersion: v1\nkind: Namespace\nmetadata: {name: " + name +
             "}\n---\n";
    }
    return y;
}

std::string workloads(int count, bool tas) {
    Lcg rng;
    std::string y;
    for (int i = 0; i < count; ++i) {
        std::string topo;
        int pods = 1;
        switch (i % 4) {
        case 0:
            pods = 1 + static_cast<int>(rng.next(10));
            topo = "{required: example.com/rack}";
            break;
        case 1:
            pods = 1 + static_cast<int>(rng.next(64));
            topo = "{preferred: example.com/block}";
            break;
        case 2:
            pods = 1 + static_cast<int>(rng.next(8));
            topo = "{unconstrained: true}";
            break;
        default:
            pods = 4 * (1 + static_cast<int>(rng.next(8)));
            topo = "{required: example.com/block, podSetSliceRequiredTopology: example.com/rack, podSetSliceSize: 4}";
            break;
        }
        const int gpus = 1 + static_cast<int>(rng.next(8));
        const std::string ns = "cq" + std::to_string(i % kQueues);
        char uid[48];
        std::snprintf(uid, sizeof uid, "00000000-0000-0000-0000-%012d", i);
        y += "apiVersion: kueue.x-k8s.io/v1beta2\nkind: Workload\nmetadata:\n  name: w" + std::to_string(i) +
             "\n  namespace: " + ns + "\n  uid: " + uid + "\n  creationTimestamp: \"2026-01-01T00:00:" +
             (i % 60 < 10 ? "0" : "") + std::to_string(i % 60) + "Z\"\nspec:\n  queueName: lq\n  podSets:\n  - name: main\n    count: " +
             std::to_string(pods) + "\n" + (tas ? "    topologyRequest: " + topo + "\n" : "") +
             "    template:\n      spec:\n        containers:\n        - name: c\n          resources:\n"
             "            requests: {cpu: \"8\", nvidia.com/gpu: \"" + std::to_string(gpus) + "\"}\n---\n";
    }
    return y;
}

struct Timing {
    double median = 0, min = 0, max = 0;
    int admitted = 0, pending = 0, cycles = 0;
};

Timing time_runs(const std::vector<Resource>& objects, int rounds) {
    std::vector<double> times;
    Timing t;
    for (int i = 0; i < rounds; ++i) {
        Diagnostics d;
        auto t0 = std::chrono::steady_clock::now();
        auto r = scheduler::simulate(objects, {}, d);
        times.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
        t.admitted = t.pending = 0;
        for (const auto& w : r.workloads) (w.admitted ? t.admitted : t.pending)++;
        t.cycles = r.cycles;
        if (d.has_errors()) std::fprintf(stderr, "bench_tas_simulate: the run reported errors\n");
    }
    std::sort(times.begin(), times.end());
    t.median = times[times.size() / 2];
    t.min = times.front();
    t.max = times.back();
    return t;
}

}  // namespace

int main(int argc, char** argv) {
    const int rounds = argc > 1 ? std::max(1, std::atoi(argv[1])) : 5;
    const int count = argc > 2 ? std::max(1, std::atoi(argv[2])) : 1000;
    std::vector<Resource> runs[2];
    for (int tas = 0; tas < 2; ++tas) {
        Diagnostics d;
        LoadedResources lr;
        load_resources_from_text("bench.yaml", cluster(tas) + workloads(count, tas), lr, d);
        if (d.has_errors()) {
            std::fprintf(stderr, "bench_tas_simulate: the generated input does not load\n");
            return 1;
        }
        runs[tas] = std::move(lr.resources);
    }
    const Timing plain = time_runs(runs[0], rounds);
    const Timing tas = time_runs(runs[1], rounds);
    const int nodes = kZones * kBlocks * kRacks * kHosts;
    std::printf("simulate one-shot, %d workloads in %d ClusterQueues (median of %d)\n", count, kQueues, rounds);
    std::printf("  %-28s %9s %9s %9s %9s %9s %7s\n", "", "median ms", "min ms", "max ms", "admitted", "pending", "cycles");
    std::printf("  %-28s %9.1f %9.1f %9.1f %9d %9d %7d\n", "quota only (no topology)", plain.median, plain.min, plain.max,
                plain.admitted, plain.pending, plain.cycles);
    char label[64];
    std::snprintf(label, sizeof label, "TAS, %d nodes in 4 levels", nodes);
    std::printf("  %-28s %9.1f %9.1f %9.1f %9d %9d %7d\n", label, tas.median, tas.min, tas.max, tas.admitted, tas.pending,
                tas.cycles);
    std::printf("  TAS / quota only: %.2fx; bar 1000 ms for the TAS run: %s\n", plain.median > 0 ? tas.median / plain.median : 0,
                tas.median <= 1000 ? "met" : "MISSED");
    return tas.median <= 1000 ? 0 : 1;
}
