#pragma once
// The large site the build benchmarks and the output tests generate: `teams`
// teams in 10 cohorts over `pools` GPU pools, every team with a quota in every
// pool (one ClusterQueue and one LocalQueue each, so thousands of objects).
#include <string>

namespace qf_bench {

inline std::string generate_site(long teams, int pools, const std::string& name = "bench") {
    std::string s = "apiVersion: queueforge.io/v1alpha1\nkind: Site\nmetadata:\n  name: " + name +
                    "\nspec:\n  target: rhoai-3.5\n  pools:\n";
    for (int p = 0; p < pools; ++p)
        s += "    - name: pool-" + std::to_string(p) + "\n      nodes: 100\n      nodeLabels: {pool: p" +
             std::to_string(p) + "}\n      allocatable: {cpu: 128, memory: 1Ti, nvidia.com/gpu: 8, pods: 250}\n";
    s += "  cohorts:\n";
    for (int c = 0; c < 10; ++c) s += "    - name: cohort-" + std::to_string(c) + "\n";
    s += "  teams:\n";
    for (long t = 0; t < teams; ++t) {
        s += "    - name: team-" + std::to_string(t) + "\n      namespaces: [ns-" + std::to_string(t) +
             "]\n      cohort: cohort-" + std::to_string(t % 10) + "\n      quota:\n";
        for (int p = 0; p < pools; ++p)
            s += "        - pool: pool-" + std::to_string(p) +
                 "\n          nominal: {cpu: 10, memory: 64Gi, nvidia.com/gpu: 1, pods: 20}\n"
                 "          borrowingLimit: {nvidia.com/gpu: 2}\n";
    }
    return s;
}

}  // namespace qf_bench
