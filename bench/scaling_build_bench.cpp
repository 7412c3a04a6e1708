// `queueforge build SITE` as a whole process while the site doubles:
//  * a cohort chain n deep (each cohort the parent of the next, one team at
//    the bottom);
//  * n teams x 20 pools in 10 cohorts (the shape of bench_build).
//   bench_scaling_build [max chain=10000] [max teams=10000]
#include "scaling.hpp"

namespace {

std::string header() {
    return "apiVersion: queueforge.io/v1alpha1\nkind: Site\nmetadata:\n  name: scaling\nspec:\n"
           "  target: rhoai-3.5\n  pools:\n";
}

std::string chain(long n) {
    std::string s = header() + "    - name: default-flavor\n  cohorts:\n";
    for (long i = 0; i < n; ++i) {
        s += "    - name: c" + std::to_string(i) + "\n";
        if (i > 0) s += "      parent: c" + std::to_string(i - 1) + "\n";
    }
    s += "  teams:\n    - name: team-a\n      namespaces: [team-a]\n      cohort: c" + std::to_string(n - 1) +
         "\n      quota:\n        - pool: default-flavor\n          nominal: {cpu: 9, memory: 36Gi}\n";
    return s;
}

std::string teams(long n, int pools) {
    std::string s = header();
    for (int p = 0; p < pools; ++p)
        s += "    - name: pool-" + std::to_string(p) + "\n      nodes: 100\n      nodeLabels: {pool: p" +
             std::to_string(p) + "}\n      allocatable: {cpu: 128, memory: 1Ti, nvidia.com/gpu: 8, pods: 250}\n";
    s += "  cohorts:\n";
    for (int c = 0; c < 10; ++c) s += "    - name: cohort-" + std::to_string(c) + "\n";
    s += "  teams:\n";
    for (long t = 0; t < n; ++t) {
        s += "    - name: team-" + std::to_string(t) + "\n      namespaces: [ns-" + std::to_string(t) +
             "]\n      cohort: cohort-" + std::to_string(t % 10) + "\n      quota:\n";
        for (int p = 0; p < pools; ++p)
            s += "        - pool: pool-" + std::to_string(p) +
                 "\n          nominal: {cpu: 10, memory: 64Gi, nvidia.com/gpu: 1, pods: 20}\n"
                 "          borrowingLimit: {nvidia.com/gpu: 2}\n";
    }
    return s;
}

}  // namespace

int main(int argc, char** argv) {
    const long max_chain = argc > 1 ? std::atol(argv[1]) : 10000;
    const long max_teams = argc > 2 ? std::atol(argv[2]) : 10000;
    const std::string dir = qf_bench::scratch_dir();
    qf_bench::run_doubling({.title = "build: cohort chain n deep",
                            .start = 625,
                            .max = max_chain,
                            .budget_s = 60,
                            .prepare = [&](long n) {
                                const std::string file = dir + "/chain-" + std::to_string(n) + ".yaml";
                                qf_bench::write_file(file, chain(n));
                                return std::vector<std::string>{QF_BINARY, "build", file};
                            }});
    qf_bench::run_doubling({.title = "build: n teams x 20 pools",
                            .start = 625,
                            .max = max_teams,
                            .budget_s = 60,
                            .prepare = [&](long n) {
                                const std::string file = dir + "/teams-" + std::to_string(n) + ".yaml";
                                qf_bench::write_file(file, teams(n, 20));
                                return std::vector<std::string>{QF_BINARY, "build", file};
                            }});
    std::filesystem::remove_all(dir);
}
