// `queueforge build SITE` as a whole process while the site doubles:
//  * a cohort chain n deep (each cohort the parent of the next, one team at
//    the bottom);
//  * n teams x 20 pools in 10 cohorts (the shape of bench_build).
//   bench_scaling_build [max chain=10000] [max teams=10000]
#include "scaling.hpp"
#include "site_generator.hpp"

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
                                qf_bench::write_file(file, qf_bench::generate_site(n, 20, "scaling"));
                                return std::vector<std::string>{QF_BINARY, "build", file};
                            }});
    std::filesystem::remove_all(dir);
}
