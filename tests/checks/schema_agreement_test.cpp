// The built-in schemas and the real CRDs give the same verdict: valid objects
// and systematic mutations of them are validated against both.
#include "test_util.hpp"

#include <queueforge/checks/openapi.hpp>
#include <queueforge/frontend/manifests.hpp>
#include <queueforge/checks/validate.hpp>

#include <catch2/catch.hpp>

#include <set>

using namespace queueforge;

namespace {

struct Base {
    std::string kind;
    std::string versions;  // which API versions the object text suits
    std::string text;      // without apiVersion
};

const std::vector<Base> kBases = {
    {"ResourceFlavor", "v1beta1 v1beta2",
     "kind: ResourceFlavor\nmetadata: {name: gpu}\nspec:\n  nodeLabels: {pool: gpu}\n"
     "  nodeTaints: [{key: nvidia.com/gpu, value: \"true\", effect: NoSchedule}]\n"
     "  tolerations: [{key: nvidia.com/gpu, operator: Exists, effect: NoSchedule}]\n"},
    {"ClusterQueue", "v1beta2",
     "kind: ClusterQueue\nmetadata: {name: team-a}\nspec:\n  cohortName: all\n  namespaceSelector: {}\n"
     "  queueingStrategy: StrictFIFO\n  resourceGroups:\n  - coveredResources: [cpu, memory]\n    flavors:\n"
     "    - name: gpu\n      resources:\n      - {name: cpu, nominalQuota: \"8\", borrowingLimit: \"2\"}\n"
     "      - {name: memory, nominalQuota: 32Gi}\n  preemption: {reclaimWithinCohort: Any, withinClusterQueue: LowerPriority}\n"
     "  flavorFungibility: {whenCanBorrow: MayStopSearch, whenCanPreempt: TryNextFlavor}\n  fairSharing: {weight: \"2\"}\n"},
    {"ClusterQueue", "v1beta1",
     "kind: ClusterQueue\nmetadata: {name: team-a}\nspec:\n  cohort: all\n  namespaceSelector: {}\n"
     "  queueingStrategy: StrictFIFO\n  resourceGroups:\n  - coveredResources: [cpu, memory]\n    flavors:\n"
     "    - name: gpu\n      resources:\n      - {name: cpu, nominalQuota: \"8\", borrowingLimit: \"2\"}\n"
     "      - {name: memory, nominalQuota: 32Gi}\n  preemption: {reclaimWithinCohort: Any, withinClusterQueue: LowerPriority}\n"},
    {"LocalQueue", "v1beta1 v1beta2", "kind: LocalQueue\nmetadata: {name: default, namespace: team-a}\nspec: {clusterQueue: team-a, stopPolicy: None}\n"},
    {"Cohort", "v1beta1 v1beta2", "kind: Cohort\nmetadata: {name: child}\nspec:\n  parentName: root\n  resourceGroups:\n  - coveredResources: [cpu]\n    flavors: [{name: gpu, resources: [{name: cpu, nominalQuota: \"4\"}]}]\n"},
    {"WorkloadPriorityClass", "v1beta1 v1beta2", "kind: WorkloadPriorityClass\nmetadata: {name: high}\nvalue: 1000\ndescription: important\n"},
};

struct Mutation {
    std::string name;
    std::string kind;  // only for this kind ("" = all)
    std::string from, to;
};

// Each mutation replaces the first occurrence of `from` in the object text.
const std::vector<Mutation> kMutations = {
    {"unknown field", "", "metadata: {", "bogus: 1\nmetadata: {"},
    {"unknown nested field", "ClusterQueue", "  queueingStrategy:", "  queueingStrategyy: StrictFIFO\n  queueingStrategy:"},
    {"bad enum", "ClusterQueue", "StrictFIFO", "Fifo"},
    {"bad enum", "ResourceFlavor", "effect: NoSchedule}]\n  tolerations", "effect: Sometimes}]\n  tolerations"},
    {"bad enum", "LocalQueue", "stopPolicy: None", "stopPolicy: Never"},
    {"wrong type", "WorkloadPriorityClass", "value: 1000", "value: high"},
    {"wrong type", "ClusterQueue", "coveredResources: [cpu, memory]", "coveredResources: cpu"},
    {"wrong type", "LocalQueue", "clusterQueue: team-a", "clusterQueue: [team-a]"},
    {"drop required", "ClusterQueue", ", nominalQuota: \"8\"", ""},
    {"drop required", "WorkloadPriorityClass", "value: 1000\n", ""},
    {"drop required", "ResourceFlavor", "{key: nvidia.com/gpu, value: \"true\", effect: NoSchedule}", "{key: nvidia.com/gpu, value: \"true\"}"},
    {"drop required", "Cohort", "{name: cpu, nominalQuota: \"4\"}", "{name: cpu}"},
    {"pattern", "ClusterQueue", "cohortName: all", "cohortName: All_Teams"},
    {"pattern", "ClusterQueue", "cohort: all", "cohort: All_Teams"},
    {"pattern", "LocalQueue", "clusterQueue: team-a", "clusterQueue: Team-A"},
    {"pattern", "ClusterQueue", "nominalQuota: 32Gi", "nominalQuota: 32GB"},
    {"too many items", "ResourceFlavor", "nodeLabels: {pool: gpu}", "nodeLabels: {a: x, b: x, c: x, d: x, e: x, f: x, g: x, h: x, i: x}"},
    {"too few items", "ClusterQueue", "coveredResources: [cpu, memory]", "coveredResources: []"},
    {"out of range", "WorkloadPriorityClass", "value: 1000", "value: 99999999999"},
};

std::string error_rules(const Diagnostics& d) {
    std::set<std::string> r;
    for (const auto& x : d.all())
        if (x.severity == Severity::Error && (x.rule.starts_with("schema.") || x.rule.starts_with("V"))) r.insert(x.rule);
    std::string s;
    for (const auto& x : r) s += x + " ";
    return s;
}

std::string verdict(const std::string& text, const std::vector<std::string>& crds) {
    Diagnostics d;
    LoadedResources in;
    load_resources_from_text("x.yaml", text, in, d);
    ValidationOptions o;
    o.crd_paths = crds;
    validate_all(in, o, d);
    return error_rules(d);
}

}  // namespace

TEST_CASE("agreement: built-in schemas and the real Kueue CRDs agree on valid objects and on mutations", "[slow]") {
    auto shared = qf_test::shared_dir();
    if (!shared) {
        WARN("skipped: ../shared (the reference CRDs) is not beside this checkout");
        return;
    }
    const std::string crds = (*shared / "upstream/kueue/v0.19.2").string();
    int compared = 0;
    for (const auto& b : kBases) {
        for (const std::string version : {"v1beta1", "v1beta2"}) {
            if (b.versions.find(version) == std::string::npos) continue;
            std::string base = "apiVersion: kueue.x-k8s.io/" + version + "\n" + b.text;
            INFO(b.kind << " " << version);
            CHECK(verdict(base, {}) == "");
            CHECK(verdict(base, {crds}) == "");
            for (const auto& m : kMutations) {
                if (!m.kind.empty() && m.kind != b.kind) continue;
                auto at = base.find(m.from);
                if (at == std::string::npos) continue;
                std::string mutated = base;
                mutated.replace(at, m.from.size(), m.to);
                INFO("mutation: " << m.name << "\n" << mutated);
                std::string ours = verdict(mutated, {});
                std::string theirs = verdict(mutated, {crds});
                CHECK(!ours.empty());
                CHECK(ours == theirs);
                ++compared;
            }
        }
    }
    CHECK(compared >= 25);
}

TEST_CASE("agreement: built-in DataScienceCluster schemas and the OpenShift AI 3.5 CRD agree") {
    auto shared = qf_test::shared_dir();
    if (!shared) {
        WARN("skipped: ../shared (the reference CRDs) is not beside this checkout");
        return;
    }
    const std::string crd = (*shared / "upstream/opendatahub/odh-bundle_3.5.0/datasciencecluster.opendatahub.io_datascienceclusters.yaml").string();
    for (const std::string version : {"v1", "v2"}) {
        std::string base = "apiVersion: datasciencecluster.opendatahub.io/" + version +
                           "\nkind: DataScienceCluster\nmetadata: {name: default-dsc}\nspec:\n  components:\n"
                           "    kueue: {managementState: Unmanaged}\n    ray: {managementState: Managed}\n";
        INFO(version);
        CHECK(verdict(base, {}) == "");
        CHECK(verdict(base, {crd}) == "");
        for (const auto& [from, to] : std::vector<std::pair<std::string, std::string>>{
                 {"managementState: Managed}", "managementState: Sometimes}"},
                 {"ray: {", "rai: {"},
                 {"managementState: Managed}", "managementState: [Managed]}"}}) {
            std::string mutated = base;
            mutated.replace(mutated.find(from), from.size(), to);
            INFO(mutated);
            std::string ours = verdict(mutated, {});
            CHECK(!ours.empty());
            CHECK(ours == verdict(mutated, {crd}));
        }
    }
}

namespace {

std::string sample_errors(const std::filesystem::path& sample, const std::vector<std::string>& crds) {
    Diagnostics d;
    LoadedResources in;
    load_resources_from_text(sample.string(), qf_test::read_text(sample), in, d);
    ValidationOptions o;
    o.crd_paths = crds;
    o.ignore_missing_schemas = true;  // core kinds (Job, Pod, Namespace) have no CRD
    validate_all(in, o, d);
    std::string errors;
    for (const auto& x : d.all())
        if (x.severity == Severity::Error &&
            (x.rule.starts_with("schema.") || x.rule.starts_with("yaml.") || x.rule.starts_with("V")))
            errors += x.rule + ": " + x.message + "\n";
    return errors;
}

}  // namespace

TEST_CASE("agreement: every upstream sample validates as its upstream accepts it", "[slow]") {
    auto shared = qf_test::shared_dir();
    if (!shared) {
        WARN("skipped: ../shared (the reference samples) is not beside this checkout");
        return;
    }
    const auto up = *shared / "upstream";
    // Kueue's documentation examples against the newest Kueue release and the job CRDs.
    std::vector<std::string> kueue_crds = {(up / "kueue/v0.19.2").string(), (up / "jobs").string()};
    int checked = 0;
    for (const auto& e : std::filesystem::recursive_directory_iterator(up / "kueue-examples")) {
        if (e.path().extension() != ".yaml") continue;
        INFO(e.path().string());
        std::string errors = sample_errors(e.path(), kueue_crds);
        // This sample names onFlavors without resourceGroups; Kueue's webhook has
        // refused that since 0.18 (kueue-semantics.md V36), so Kueue rejects it too.
        if (e.path().filename() == "minimal-cq.yaml") CHECK(errors.starts_with("V36: "));
        else CHECK(errors == "");
        ++checked;
    }
    // Each OpenShift AI release's DataScienceCluster samples against that release's CRD.
    // The ODH HEAD samples are newer than every CRD in ../shared (they use fields such as
    // workbenchesV2 that no collected CRD has), so they have no upstream to agree with.
    for (const auto& e : std::filesystem::directory_iterator(up / "opendatahub")) {
        const std::string release = e.path().filename().string();
        if (!release.starts_with("rhods-operator_")) continue;
        std::string crd = std::filesystem::exists(e.path() / "datasciencecluster.opendatahub.io_datascienceclusters.yaml")
                              ? (e.path() / "datasciencecluster.opendatahub.io_datascienceclusters.yaml").string()
                              : (up / "opendatahub/odh-bundle_3.5.0/datasciencecluster.opendatahub.io_datascienceclusters.yaml").string();
        for (const auto& s : std::filesystem::recursive_directory_iterator(e.path() / "config"))
            if (s.path().filename().string().starts_with("datasciencecluster_")) {
                INFO(s.path().string() << " against " << crd);
                CHECK(sample_errors(s.path(), {crd}) == "");
                ++checked;
            }
    }
    CHECK(checked > 80);
}
