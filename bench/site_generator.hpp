#pragma once
// Generated inputs shared by the benchmarks and tests.
//
// generate_site: the large site the build benchmarks and the output tests generate: `teams`
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

// `n` Kueue objects in a repeating ResourceFlavor / ClusterQueue / LocalQueue
// pattern, each ClusterQueue naming the flavor before it and each LocalQueue
// the ClusterQueue before it: what the validate benchmarks read.
inline std::string generate_objects(long n) {
    std::string s;
    s.reserve(static_cast<std::size_t>(n) * 300);
    for (long i = 0; i < n; ++i) {
        const std::string id = std::to_string(i);
        switch (i % 3) {
        case 0:
            s += "---\napiVersion: kueue.x-k8s.io/v1beta2\nkind: ResourceFlavor\nmetadata:\n  name: flavor-" + id +
                 "\nspec:\n  nodeLabels:\n    pool: p" + id +
                 "\n  nodeTaints:\n  - key: nvidia.com/gpu\n    value: \"true\"\n    effect: NoSchedule\n";
            break;
        case 1:
            s += "---\napiVersion: kueue.x-k8s.io/v1beta2\nkind: ClusterQueue\nmetadata:\n  name: cq-" + id +
                 "\nspec:\n  cohortName: all\n  namespaceSelector: {}\n  queueingStrategy: BestEffortFIFO\n"
                 "  resourceGroups:\n  - coveredResources: [cpu, memory, nvidia.com/gpu]\n    flavors:\n"
                 "    - name: flavor-" + std::to_string(i - 1) + "\n      resources:\n"
                 "      - {name: cpu, nominalQuota: \"64\"}\n      - {name: memory, nominalQuota: 256Gi}\n"
                 "      - {name: nvidia.com/gpu, nominalQuota: \"8\", borrowingLimit: \"4\"}\n"
                 "  preemption:\n    reclaimWithinCohort: Any\n    withinClusterQueue: LowerPriority\n";
            break;
        default:
            s += "---\napiVersion: kueue.x-k8s.io/v1beta2\nkind: LocalQueue\nmetadata:\n  name: lq-" + id +
                 "\n  namespace: ns-" + id + "\nspec:\n  clusterQueue: cq-" + std::to_string(i - 1) + "\n";
        }
    }
    return s;
}

}  // namespace qf_bench
