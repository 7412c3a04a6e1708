// Discovery + check of many small sites in one repository, as a whole
// process: generates N sites (clusters/site-0000 ... with a .git folder, a
// .gitignore and a rendered-looking folder to skip) in a temporary repository
// and times `queueforge check` at its root. Issue 13's bar: 1,000 sites in at
// most 10 s on the 2-core development machine.
//   bench_discover [sites=1000] [runs=3]
#include "spawn.hpp"

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <unistd.h>

namespace fs = std::filesystem;

namespace {

void write(const fs::path& p, const std::string& text) {
    fs::create_directories(p.parent_path());
    std::ofstream(p) << text;
}

std::string site(int i) {
    const std::string name = "site-" + std::to_string(i);
    return "apiVersion: queueforge.io/v1alpha1\nkind: Site\nmetadata: {name: " + name +
           "}\nspec:\n  target: kueue-0.19\n  pools:\n"
           "    - {name: a100, nodes: 2, allocatable: {cpu: 64, memory: 512Gi, nvidia.com/gpu: 8}}\n"
           "  teams:\n    - name: team-a\n      namespaces: [team-a]\n"
           "      quota: [{pool: a100, nominal: {cpu: 64, memory: 512Gi, nvidia.com/gpu: 8}}]\n"
           "  workloads:\n    - name: small\n      namespace: team-a\n"
           "      podSets: [{name: main, count: 1, requests: {cpu: 4, nvidia.com/gpu: 2}}]\n"
           "      expect: {status: Admitted, flavor: a100}\n";
}

}  // namespace

int main(int argc, char** argv) {
    const int sites = argc > 1 ? std::stoi(argv[1]) : 1000;
    const int runs = argc > 2 ? std::stoi(argv[2]) : 3;
    const fs::path root = fs::temp_directory_path() / ("qf-discover-bench-" + std::to_string(::getpid()));
    fs::remove_all(root);
    fs::create_directories(root / ".git");
    write(root / ".gitignore", "scratch/\n");
    for (int i = 0; i < sites; ++i) {
        char dir[32];
        std::snprintf(dir, sizeof dir, "site-%04d", i);
        const fs::path d = root / "clusters" / dir;
        write(d / "queueforge-site.yaml", site(i));
        write(d / "rendered/.queueforge-owned", "");
        write(d / "scratch/queueforge-site.yaml", "not: [a site\n");
    }
    qf_bench::ChildRun first = qf_bench::spawn_child({QF_BINARY, "check"}, root.string());
    double ms = first.ok() ? qf_bench::median_ms({QF_BINARY, "check"}, runs, root.string()) : -1;
    fs::remove_all(root);
    if (ms < 0) {
        std::fprintf(stderr, "queueforge check failed (exit %d) on the generated repository\n", first.exit);
        return 1;
    }
    std::printf("queueforge check, %d sites at the repository root: median %.0f ms over %d runs (peak RSS %ld MiB)\n",
                sites, ms, runs, first.rss_kib / 1024);
    std::printf("bar: 10000 ms -> %s\n", ms <= 10000 ? "met" : "MISSED");
    return ms <= 10000 ? 0 : 1;
}
