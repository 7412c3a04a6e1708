// `queueforge validate FILE -o json` (built-in policies on) against its
// peer, Node's ajv + js-yaml (bench/peer_ajv.sh, which installs them from
// npm and skips where it cannot), on the same generated objects and the same
// Kueue CRD schemas, both run as whole processes side by side in one run.
// Prints wall and CPU (user + system) time, peak memory and the ratios
// peer / queueforge (the goal: queueforge at least 2x faster).
//   bench_peer_validate [objects=100000] [crd-dir=../shared/upstream/kueue/v0.19.2] [rounds=3]
#include "scaling.hpp"
#include "site_generator.hpp"

#include <algorithm>
#include <array>
#include <cstdio>
#include <string>

namespace {

// The peer's own report (its first line names it), or the SKIPPED line.
std::string run_capture(const std::string& cmd) {
    std::string out;
    if (FILE* p = ::popen(cmd.c_str(), "r")) {
        std::array<char, 512> buf{};
        while (std::fgets(buf.data(), buf.size(), p)) out += buf.data();
        ::pclose(p);
    }
    return out;
}

qf_bench::ChildRun median_run(const std::vector<std::string>& argv, int rounds) {
    std::vector<qf_bench::ChildRun> runs;
    for (int i = 0; i < rounds; ++i) runs.push_back(qf_bench::spawn_child(argv));
    std::sort(runs.begin(), runs.end(), [](const auto& a, const auto& b) { return a.cpu_ms < b.cpu_ms; });
    return runs[runs.size() / 2];
}

void print(const char* name, const qf_bench::ChildRun& r) {
    std::printf("  %-28s %10.3f %10.3f %10.1f %5d\n", name, r.wall_ms / 1000.0, r.cpu_ms / 1000.0, r.rss_kib / 1024.0, r.exit);
}

}  // namespace

int main(int argc, char** argv) {
    const long n = argc > 1 ? std::atol(argv[1]) : 100000;
    const std::string crd_dir = argc > 2 ? argv[2] : std::string(QF_SOURCE_DIR) + "/../shared/upstream/kueue/v0.19.2";
    const int rounds = argc > 3 ? std::max(1, std::atoi(argv[3])) : 3;
    if (!std::filesystem::is_directory(crd_dir)) {
        std::printf("SKIPPED: no CRD folder %s (../shared is absent)\n", crd_dir.c_str());
        return 0;
    }
    const std::string dir = qf_bench::scratch_dir();
    const std::string file = dir + "/objects.yaml";
    qf_bench::write_file(file, qf_bench::generate_objects(n));
    const std::string script = std::string(QF_SOURCE_DIR) + "/bench/peer_ajv.sh";
    // Once untimed: installs the peer into its cache, and says whether it runs.
    const std::string report = run_capture("bash '" + script + "' '" + file + "' '" + crd_dir + "' 2>&1");
    std::printf("%ld objects, CRDs from %s, median of %d runs\n", n, crd_dir.c_str(), rounds);
    std::printf("  %-28s %10s %10s %10s %5s\n", "", "wall s", "cpu s", "peak MiB", "exit");
    const auto qf = median_run({QF_BINARY, "validate", file, "-o", "json"}, rounds);
    print("queueforge validate -o json", qf);
    if (report.find("SKIPPED") != std::string::npos || report.find("total-seconds") == std::string::npos) {
        std::printf("  peer: %s", report.empty() ? "did not run\n" : report.c_str());
        std::filesystem::remove_all(dir);
        return 0;
    }
    const auto peer = median_run({"bash", script, file, crd_dir}, rounds);
    print("ajv + js-yaml (node)", peer);
    std::printf("  peer: %s", report.c_str());
    std::printf("ratio ajv/queueforge: wall %.2fx, cpu %.2fx (goal >= 2x)\n", peer.wall_ms / qf.wall_ms, peer.cpu_ms / qf.cpu_ms);
    std::filesystem::remove_all(dir);
}
