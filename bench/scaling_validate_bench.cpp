// `queueforge validate FILE` on N generated ClusterQueue/LocalQueue/
// ResourceFlavor objects (one file, every ClusterQueue with a note) in each
// output format, N doubling up to MAX: wall time, peak memory, exponent.
//   bench_scaling_validate [max=100000] [start=12500] [formats=text,json,sarif]
#include "scaling.hpp"

#include <sstream>

namespace {

std::string objects(long n) {
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

}  // namespace

int main(int argc, char** argv) {
    const long max = argc > 1 ? std::atol(argv[1]) : 100000;
    const long start = argc > 2 ? std::atol(argv[2]) : 12500;
    const std::string formats = argc > 3 ? argv[3] : "text,json,sarif";
    const std::string dir = qf_bench::scratch_dir();
    std::stringstream list(formats);
    for (std::string format; std::getline(list, format, ',');) {
        qf_bench::run_doubling({.title = "validate -o " + format + " (objects)",
                                .start = start,
                                .max = max,
                                .budget_s = 60,
                                .prepare = [&](long n) {
                                    const std::string file = dir + "/objects-" + std::to_string(n) + ".yaml";
                                    if (!std::filesystem::exists(file)) qf_bench::write_file(file, objects(n));
                                    return std::vector<std::string>{QF_BINARY, "validate", file, "-o", format};
                                }});
    }
    std::filesystem::remove_all(dir);
}
