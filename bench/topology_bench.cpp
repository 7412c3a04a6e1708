// TAS placement, one-shot (issue 17 bar: <= 1 s for the whole run): a
// 4-level topology (zone > block > rack > hostname) of 2,000 GPU nodes and
// 1,000 pending podsets placed one after the other, each placement's usage
// committed before the next, as a one-shot simulation does. The podsets mix
// the modes Kueue offers: rack required, block preferred, unconstrained,
// and block required with rack slices. Prints the median of ROUNDS runs.
//   bench_topology [rounds = 5] [nodes = 2000] [requests = 1000]
#include <queueforge/engines/topology.hpp>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

namespace topo = queueforge::topology;

namespace {

struct Lcg {
    std::uint64_t s = 42;
    std::uint32_t next(std::uint32_t n) {
        s = s * 6364136223846793005ULL + 1442695040888963407ULL;
        return static_cast<std::uint32_t>((s >> 33) % n);
    }
};

topo::TopologySpec make_topology(int nodes) {
    topo::TopologySpec spec;
    spec.levels = {"zone", "block", "rack", topo::kHostnameLabel};
    // 10 nodes per rack, 10 racks per block, 5 blocks per zone.
    for (int i = 0; i < nodes; ++i) {
        int rack = i / 10, block = rack / 10, zone = block / 5;
        topo::Node n;
        n.name = "n" + std::to_string(i);
        n.labels = {{"zone", "z" + std::to_string(zone)},
                    {"block", "b" + std::to_string(block)},
                    {"rack", "r" + std::to_string(rack)},
                    {topo::kHostnameLabel, n.name}};
        n.allocatable = {{"cpu", 128000}, {"memory", 1024LL << 30}, {"nvidia.com/gpu", 8}, {"pods", 110}};
        // a DaemonSet-like pod on every node
        n.non_tas_usage = {{"cpu", 2000}, {"memory", 4LL << 30}, {"pods", 1}};
        spec.nodes.push_back(std::move(n));
    }
    return spec;
}

std::vector<std::vector<topo::PodSetRequest>> make_requests(int count) {
    Lcg rng;
    std::vector<std::vector<topo::PodSetRequest>> out;
    for (int i = 0; i < count; ++i) {
        topo::PodSetRequest r;
        r.name = "main";
        r.requests = {{"cpu", 8000}, {"memory", 64LL << 30}, {"nvidia.com/gpu", 1 + rng.next(8)}};
        switch (i % 4) {
        case 0:
            r.mode = topo::Mode::Required;
            r.level = "rack";
            r.count = 1 + static_cast<std::int32_t>(rng.next(16));
            break;
        case 1:
            r.mode = topo::Mode::Preferred;
            r.level = "block";
            r.count = 1 + static_cast<std::int32_t>(rng.next(64));
            break;
        case 2:
            r.mode = topo::Mode::Unconstrained;
            r.count = 1 + static_cast<std::int32_t>(rng.next(8));
            break;
        default:
            r.mode = topo::Mode::Required;
            r.level = "block";
            r.count = 4 * (1 + static_cast<std::int32_t>(rng.next(8)));
            r.slices = {{"rack", 4}};
            break;
        }
        out.push_back({std::move(r)});
    }
    return out;
}

}  // namespace

int main(int argc, char** argv) {
    int rounds = argc > 1 ? std::max(1, std::atoi(argv[1])) : 5;
    int nodes = argc > 2 ? std::max(1, std::atoi(argv[2])) : 2000;
    int requests = argc > 3 ? std::max(1, std::atoi(argv[3])) : 1000;
    const auto spec = make_topology(nodes);
    const auto reqs = make_requests(requests);
    std::vector<double> times;
    int placed = 0, pending = 0;
    for (int round = 0; round < rounds; ++round) {
        auto t0 = std::chrono::steady_clock::now();
        std::string err;
        auto t = topo::Topology::build(spec, &err);
        if (!t) {
            std::fprintf(stderr, "bench_topology: %s\n", err.c_str());
            return 1;
        }
        placed = pending = 0;
        for (const auto& r : reqs) {
            auto out = t->assign(r);
            if (!out.error.empty()) {
                std::fprintf(stderr, "bench_topology: %s\n", out.error.c_str());
                return 1;
            }
            if (out.placed()) {
                t->commit(r, out);
                ++placed;
            } else {
                ++pending;
            }
        }
        times.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
    }
    std::sort(times.begin(), times.end());
    double median = times[times.size() / 2];
    std::printf("topology one-shot: %d nodes (4 levels), %d podsets: %d placed, %d pending\n", nodes, requests, placed,
                pending);
    std::printf("  median %.1f ms over %d rounds (min %.1f, max %.1f); bar 1000 ms: %s\n", median, rounds, times.front(),
                times.back(), median <= 1000 ? "met" : "MISSED");
    return median <= 1000 ? 0 : 1;
}
