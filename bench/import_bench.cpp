// queueforge import on a generated kubectl-style dump: N objects of
// ResourceFlavors, ClusterQueues (with status and server metadata to strip),
// LocalQueues, Namespaces, WorkloadPriorityClasses and Pods (an unknown kind,
// kept as passthrough). Prints the time to read the dump and to import it
// (infer, build, compare, render); the budget is 1 s for 10,000 objects.
//   bench_import [objects=10000] [write-dump-to-file]
// With a file name the dump is also written there, for timing the CLI as a
// whole process:  bench_import 10000 /tmp/dump.yaml && time queueforge import /tmp/dump.yaml >/dev/null
#include <queueforge/integrations/import.hpp>
#include <queueforge/frontend/manifests.hpp>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>

namespace {

std::string generate(int n) {
    std::string s;
    s.reserve(static_cast<std::size_t>(n) * 450);
    for (int i = 0; i * 6 < n; ++i) {
        std::string id = std::to_string(i);
        s += "---\napiVersion: kueue.x-k8s.io/v1beta2\nkind: ResourceFlavor\nmetadata:\n  name: flavor-" + id +
             "\n  uid: 0000-" + id + "\nspec:\n  nodeLabels:\n    pool: p" + id +
             "\n  nodeTaints:\n  - key: nvidia.com/gpu\n    value: \"true\"\n    effect: NoSchedule\n";
        s += "---\napiVersion: kueue.x-k8s.io/v1beta2\nkind: ClusterQueue\nmetadata:\n  name: team-" + id +
             "\n  resourceVersion: \"" + id + "\"\n  labels:\n    cost-center: c" + id +
             "\nspec:\n  cohortName: org-" + std::to_string(i % 16) +
             "\n  namespaceSelector:\n    matchLabels:\n      kubernetes.io/metadata.name: ns-" + id +
             "\n  queueingStrategy: BestEffortFIFO\n  resourceGroups:\n  - coveredResources: [cpu, memory, nvidia.com/gpu]\n"
             "    flavors:\n    - name: flavor-" + id + "\n      resources:\n"
             "      - {name: cpu, nominalQuota: \"64\"}\n      - {name: memory, nominalQuota: 256Gi}\n"
             "      - {name: nvidia.com/gpu, nominalQuota: \"8\", borrowingLimit: \"4\"}\n"
             "  preemption:\n    reclaimWithinCohort: Any\n    withinClusterQueue: LowerPriority\n"
             "status:\n  pendingWorkloads: 3\n";
        s += "---\napiVersion: kueue.x-k8s.io/v1beta2\nkind: LocalQueue\nmetadata:\n  name: default\n  namespace: ns-" + id +
             "\nspec:\n  clusterQueue: team-" + id + "\n";
        s += "---\napiVersion: v1\nkind: Namespace\nmetadata:\n  name: ns-" + id + "\n  labels:\n    kubernetes.io/metadata.name: ns-" +
             id + "\n";
        s += "---\napiVersion: kueue.x-k8s.io/v1beta2\nkind: WorkloadPriorityClass\nmetadata:\n  name: prio-" + id +
             "\nvalue: " + id + "\n";
        s += "---\napiVersion: v1\nkind: Pod\nmetadata:\n  name: worker\n  namespace: ns-" + id +
             "\nspec:\n  containers:\n  - name: main\n    image: registry.example/train:1\n";
    }
    return s;
}

double seconds_since(std::chrono::steady_clock::time_point t0) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

}  // namespace

int main(int argc, char** argv) {
    int n = argc > 1 ? std::atoi(argv[1]) : 10000;
    if (n <= 0) n = 10000;
    std::string text = generate(n);
    if (argc > 2) {
        std::ofstream(argv[2], std::ios::binary) << text;
        std::printf("dump written to %s (%zu bytes)\n", argv[2], text.size());
    }

    auto t0 = std::chrono::steady_clock::now();
    queueforge::LoadedResources loaded;
    queueforge::Diagnostics diags;
    queueforge::load_resources_from_text("dump.yaml", text, loaded, diags);
    double read = seconds_since(t0);
    std::size_t objects = loaded.resources.size();

    auto t1 = std::chrono::steady_clock::now();
    auto result = queueforge::import_site(std::move(loaded.resources), diags);
    std::string site = result ? queueforge::render_imported_site(*result) : std::string();
    double import = seconds_since(t1);
    if (!result) {
        std::fprintf(stderr, "import failed\n");
        return 1;
    }
    double total = read + import;
    std::printf("import: %zu objects (%zu built by the site, %zu with patches, %zu passthrough, %zu rounds)\n", objects,
                result->stats.modelled, result->stats.patched, result->stats.passthrough, result->stats.rounds);
    std::printf("  read %.3f s, import %.3f s, total %.3f s; site %zu bytes; %zu diagnostics\n", read, import, total,
                site.size(), diags.all().size());
    std::printf("  budget 1 s per 10,000 objects: %s\n", total * 10000.0 / static_cast<double>(objects) <= 1.0 ? "ok" : "OVER");
    return 0;
}
