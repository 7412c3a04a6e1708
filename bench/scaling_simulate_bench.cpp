// One-shot `queueforge simulate FILE -o json` as a whole process while the
// number of sample Jobs doubles, on a cluster of `teams` teams (one
// ResourceFlavor, a ClusterQueue, LocalQueue and Namespace per team, all in
// one cohort). Each sample is also simulated alone on the cluster, so the
// cost per sample includes one run on the compiled cluster.
//   bench_scaling_simulate [max samples=1000] [start=125] [teams=1000]
#include "scaling.hpp"

#include <string>

namespace {

std::string cluster(long teams) {
    std::string s =
        "apiVersion: kueue.x-k8s.io/v1beta2\nkind: ResourceFlavor\nmetadata:\n  name: default-flavor\n";
    for (long t = 0; t < teams; ++t) {
        const std::string id = std::to_string(t);
        s += "---\napiVersion: v1\nkind: Namespace\nmetadata:\n  name: team-" + id + "\n";
        s += "---\napiVersion: kueue.x-k8s.io/v1beta2\nkind: ClusterQueue\nmetadata:\n  name: cq-" + id +
             "\nspec:\n  cohortName: all\n  namespaceSelector: {}\n  resourceGroups:\n"
             "  - coveredResources: [cpu, memory]\n    flavors:\n    - name: default-flavor\n      resources:\n"
             "      - {name: cpu, nominalQuota: \"8\"}\n      - {name: memory, nominalQuota: 32Gi}\n";
        s += "---\napiVersion: kueue.x-k8s.io/v1beta2\nkind: LocalQueue\nmetadata:\n  name: default\n  namespace: team-" +
             id + "\nspec:\n  clusterQueue: cq-" + id + "\n";
    }
    return s;
}

// Sample i: a Job of team (i mod teams) asking for 1 to 4 CPUs.
std::string samples(long n, long teams) {
    std::string s;
    for (long i = 0; i < n; ++i) {
        s += "---\napiVersion: batch/v1\nkind: Job\nmetadata:\n  name: sample-" + std::to_string(i) +
             "\n  namespace: team-" + std::to_string(i % teams) +
             "\n  labels:\n    kueue.x-k8s.io/queue-name: default\nspec:\n  suspend: true\n  template:\n    spec:\n"
             "      restartPolicy: Never\n      containers:\n      - name: c\n        image: busybox\n"
             "        resources:\n          requests: {cpu: \"" + std::to_string(1 + i % 4) + "\", memory: 1Gi}\n";
    }
    return s;
}

}  // namespace

int main(int argc, char** argv) {
    const long max = argc > 1 ? std::atol(argv[1]) : 1000;
    const long start = argc > 2 ? std::atol(argv[2]) : 125;
    const long teams = argc > 3 ? std::atol(argv[3]) : 1000;
    const std::string dir = qf_bench::scratch_dir();
    const std::string config = cluster(teams);
    qf_bench::run_doubling({.title = "simulate -o json, " + std::to_string(teams) + " teams (samples)",
                            .start = start,
                            .max = max,
                            .budget_s = 60,
                            .prepare = [&](long n) {
                                const std::string file = dir + "/simulate-" + std::to_string(n) + ".yaml";
                                qf_bench::write_file(file, config + samples(n, teams));
                                return std::vector<std::string>{QF_BINARY, "simulate", file, "-o", "json"};
                            }});
    std::filesystem::remove_all(dir);
}
