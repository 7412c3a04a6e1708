// Job manifests and Workloads are validated inputs: built-in schemas for every
// kind queueforge reads, --crd layered over them, a site's sample files
// validated by `validate`, and `simulate`/`check` refusing (never simulating)
// what the API server would refuse.
#include "test_util.hpp"

#include <catch2/catch.hpp>

#include <queueforge/frontend/manifests.hpp>
#include <queueforge/engines/scenarios.hpp>
#include <queueforge/engines/workloads.hpp>
#include <queueforge/base/templates.hpp>
#include <queueforge/checks/validate.hpp>
#include <queueforge/base/yaml_load.hpp>

#include "checks/validate/builtin_schemas.hpp"

#include <algorithm>
#include <chrono>
#include <functional>
#include <map>
#include <string>

using namespace queueforge;
using qf_test::run_cli;
using qf_test::shell_quote;

namespace {

// Findings of layers 1 and 2 (as simulate and check run them) on one YAML text.
Diagnostics check_text(const std::string& yaml) {
    Diagnostics load;
    LoadedResources in;
    load_resources_from_text("in.yaml", yaml, in, load);
    REQUIRE_FALSE(load.has_errors());
    Diagnostics d;
    ObjectValidator v({}, d);
    REQUIRE(d.all().empty());
    for (const auto& r : in.resources) v.check(r, d);
    return d;
}

bool has(const Diagnostics& d, const std::string& rule, const std::string& text = {}) {
    return std::any_of(d.all().begin(), d.all().end(), [&](const Diagnostic& x) {
        return x.severity == Severity::Error && x.rule == rule && x.message.find(text) != std::string::npos;
    });
}

std::string dump(const Diagnostics& d) {
    std::string out;
    for (const auto& x : d.all())
        out += x.file + ":" + std::to_string(x.mark.line) + ":" + std::to_string(x.mark.col) + ": " + x.message + " [" + x.rule + "]\n";
    return out;
}

std::string job(const std::string& containers, const std::string& name = "train", const std::string& spec_extra = {}) {
    return R"(apiVersion: batch/v1
kind: Job
metadata:
  name: )" + name + R"(
  namespace: team-a
spec:
)" + spec_extra + R"(  template:
    spec:
      restartPolicy: Never
)" + containers;
}

std::string job_with_cpu(const std::string& cpu) {
    return job("      containers:\n        - name: main\n          image: busybox\n          resources: {requests: {cpu: " + cpu + "}}\n");
}

std::string workload(const std::string& spec) {
    return R"(apiVersion: kueue.x-k8s.io/v1beta2
kind: Workload
metadata: {name: wl, namespace: team-a}
spec:
  queueName: default
)" + spec;
}

const std::string kPodSet = "    - name: main\n      count: 1\n      template: {spec: {containers: [{name: c, resources: {requests: {cpu: 1}}}]}}\n";

std::string pod_sets(int n) {
    std::string out = "  podSets:\n";
    for (int i = 0; i < n; ++i)
        out += "    - name: ps" + std::to_string(i) +
               "\n      count: 1\n      template: {spec: {containers: [{name: c, resources: {requests: {cpu: 1}}}]}}\n";
    return out;
}

// A cluster where everything fits, for simulate and check.
const std::string kSite = R"(apiVersion: queueforge.io/v1alpha1
kind: Site
metadata: {name: s}
spec:
  target: kueue-0.19
  pools:
    - {name: cpu, nodes: 1, allocatable: {cpu: 64}}
  teams:
    - name: team-a
      namespaces: [team-a]
      quota: [{pool: cpu, nominal: {cpu: 64}}]
)";

// The bad inputs of the regression list, each with the rule that refuses it.
struct BadInput {
    const char* what;
    std::string yaml;
    const char* rule;
    const char* message;
};

std::vector<BadInput> bad_inputs() {
    return {
        {"cpu: one", job_with_cpu("one"), "schema.pattern", "spec.template.spec.containers[0].resources.requests.cpu"},
        {"containers missing", job("      nodeSelector: {a: b}\n"), "schema.required", "spec.template.spec.containers: Required value"},
        {"containers: null", job("      containers: null\n"), "schema.required", "spec.template.spec.containers: Required value"},
        {"containers: a map", job("      containers: {name: main}\n"), "schema.type", "spec.template.spec.containers"},
        {"container without a name", job("      containers: [{image: busybox}]\n"), "schema.required", "containers[0].name: Required value"},
        {"negative parallelism", job("      containers: [{name: main}]\n", "train", "  parallelism: -1\n"), "schema.range", "spec.parallelism"},
        {"300-character job name", job("      containers: [{name: main}]\n", std::string(300, 'a')), "schema.metadata", "metadata.name"},
        {"Workload without podSets", workload(""), "workload.no-pod-sets", "spec.podSets: Required value"},
        {"v1beta1 Workload without podSets",
         "apiVersion: kueue.x-k8s.io/v1beta1\nkind: Workload\nmetadata: {name: wl, namespace: team-a}\nspec: {queueName: default}\n",
         "schema.required", "spec.podSets: Required value"},
        {"Workload with empty podSets", workload("  podSets: []\n"), "schema.items", "spec.podSets"},
        {"negative count", workload("  podSets:\n    - name: main\n      count: -1\n      template: {spec: {containers: [{name: c}]}}\n"),
         "schema.range", "spec.podSets[0].count"},
        {"count 2^31", workload("  podSets:\n    - name: main\n      count: 2147483648\n      template: {spec: {containers: [{name: c}]}}\n"),
         "schema.format", "spec.podSets[0].count"},
        {"priority 99999999999", workload("  priority: 99999999999\n" + pod_sets(1)), "schema.format", "spec.priority"},
        {"20 podSets", workload(pod_sets(20)), "schema.items", "spec.podSets"},
        {"minCount > count",
         workload("  podSets:\n    - name: main\n      count: 2\n      minCount: 3\n      template: {spec: {containers: [{name: c}]}}\n"),
         "V61", "minCount should be positive and less or equal to count"},
        {"Workload podSet template without containers",
         workload("  podSets:\n    - name: main\n      count: 1\n      template: {spec: {}}\n"), "schema.required",
         "spec.podSets[0].template.spec.containers: Required value"},
        {"WorkloadPriorityClass value 99999999999",
         std::string("apiVersion: kueue.x-k8s.io/v1beta2\nkind: WorkloadPriorityClass\nmetadata: {name: huge}\nvalue: 99999999999\n---\n") +
             "apiVersion: batch/v1\nkind: Job\nmetadata:\n  name: train\n  namespace: team-a\n"
             "  labels: {kueue.x-k8s.io/priority-class: huge}\nspec:\n  template:\n    spec:\n      restartPolicy: Never\n"
             "      containers: [{name: main, resources: {requests: {cpu: 1}}}]\n",
         "schema.format", "value"},
        {"PriorityClass value 99999999999",
         "apiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\nmetadata: {name: huge}\nvalue: 99999999999\n---\n" +
             job("      priorityClassName: huge\n      containers: [{name: main, resources: {requests: {cpu: 1}}}]\n"),
         "schema.format", "value"},
        {"300-character Workload name",
         "apiVersion: kueue.x-k8s.io/v1beta2\nkind: Workload\nmetadata: {name: " + std::string(300, 'w') +
             ", namespace: team-a}\nspec:\n  queueName: default\n" + pod_sets(1),
         "schema.metadata", "metadata.name"},
    };
}

}  // namespace

TEST_CASE("workload inputs: every kind queueforge reads has a built-in schema, and all compile cleanly", "[workload-inputs]") {
    Diagnostics d;
    ObjectValidator v({}, d);
    validate::BuiltinSchemas builtins;
    std::size_t compiled = 0;
    const auto all = builtins.all(d);
    for (const auto& b : all) {
        CAPTURE(b.file);
        if (builtins.find(b.api_version, b.kind, d)) ++compiled;
    }
    INFO(dump(d));
    CHECK(d.all().empty());
    CHECK(all.size() >= 47);
    CHECK(compiled == all.size());
    const std::pair<const char*, const char*> kinds[] = {
        {"scheduling.k8s.io/v1", "PriorityClass"}, {"v1", "Pod"}, {"v1", "Namespace"}, {"v1", "Node"}, {"v1", "LimitRange"}, {"batch/v1", "Job"},
        {"apps/v1", "Deployment"}, {"apps/v1", "StatefulSet"}, {"jobset.x-k8s.io/v1alpha2", "JobSet"},
        {"kubeflow.org/v1", "PyTorchJob"}, {"kubeflow.org/v1", "TFJob"}, {"kubeflow.org/v1", "XGBoostJob"},
        {"kubeflow.org/v1", "PaddleJob"}, {"kubeflow.org/v1", "JAXJob"}, {"kubeflow.org/v2beta1", "MPIJob"},
        {"trainer.kubeflow.org/v1alpha1", "TrainJob"}, {"trainer.kubeflow.org/v1alpha1", "TrainingRuntime"},
        {"trainer.kubeflow.org/v1alpha1", "ClusterTrainingRuntime"}, {"ray.io/v1", "RayJob"}, {"ray.io/v1", "RayCluster"},
        {"ray.io/v1", "RayService"}, {"leaderworkerset.x-k8s.io/v1", "LeaderWorkerSet"},
        {"workload.codeflare.dev/v1beta2", "AppWrapper"}, {"kueue.x-k8s.io/v1beta1", "Workload"},
        {"kueue.x-k8s.io/v1beta2", "Workload"}, {"kueue.x-k8s.io/v1beta1", "AdmissionCheck"},
        {"kueue.x-k8s.io/v1beta2", "AdmissionCheck"}, {"kueue.x-k8s.io/v1beta1", "Topology"},
        {"kueue.x-k8s.io/v1beta2", "Topology"}, {"config.kueue.x-k8s.io/v1beta1", "Configuration"},
        {"config.kueue.x-k8s.io/v1beta2", "Configuration"},
        {"admissionregistration.k8s.io/v1", "ValidatingAdmissionPolicy"},
        {"admissionregistration.k8s.io/v1", "ValidatingAdmissionPolicyBinding"},
        {"dscinitialization.opendatahub.io/v1", "DSCInitialization"},
        {"dscinitialization.opendatahub.io/v2", "DSCInitialization"},
        {"datasciencecluster.opendatahub.io/v1", "DataScienceCluster"}};
    for (const auto& [api, kind] : kinds) {
        CAPTURE(api, kind);
        CHECK(v.has_schema(api, kind));
    }
    // Every job kind the simulator converts is covered.
    for (const char* k : {"batch/v1 Job", "jobset.x-k8s.io/v1alpha2 JobSet", "kubeflow.org/v2beta1 MPIJob", "ray.io/v1 RayJob", "v1 Pod"}) {
        std::string s = k;
        Resource r;
        r.ref.api_version = s.substr(0, s.find(' '));
        r.ref.kind = s.substr(s.find(' ') + 1);
        CAPTURE(s);
        CHECK(workloads::is_job(r));
        CHECK(v.has_schema(r.ref.api_version, r.ref.kind));
    }
}

TEST_CASE("workload inputs: the shared pod template is expanded from one definition", "[workload-inputs]") {
    Diagnostics d;
    auto schemas = validate::BuiltinSchemas().all(d);
    REQUIRE(d.all().empty());
    std::size_t with_pods = 0;
    for (const auto& s : schemas) {
        // No $ref survives expansion.
        std::function<bool(const Node&)> has_ref = [&](const Node& n) {
            if (n.is_map()) {
                if (n.find("$ref")) return true;
                for (const auto& e : n.entries())
                    if (has_ref(e.value)) return true;
            } else if (n.is_seq()) {
                for (const auto& i : n.items())
                    if (has_ref(i)) return true;
            }
            return false;
        };
        CAPTURE(s.file);
        CHECK_FALSE(has_ref(s.schema));
        auto text = find_embedded(s.file);
        REQUIRE(text);
        if (text->find("#/PodTemplateSpec") != std::string_view::npos || text->find("#/PodSpec") != std::string_view::npos ||
            text->find("#/JobSpec") != std::string_view::npos)
            ++with_pods;
    }
    CHECK(with_pods >= 8);  // Pod, Job, Deployment, StatefulSet, Workload x2, LWS, TrainJob's runtimes, ...
}

TEST_CASE("workload inputs: a broken $ref is a positioned schema error, not a crash", "[workload-inputs]") {
    for (const char* ref : {"definitions/k8s.yaml#/Nope", "definitions/none.yaml#/PodSpec", "PodSpec"}) {
        CAPTURE(ref);
        Diagnostics d;
        auto docs = load_yaml("s.yaml", std::string("type: object\nproperties:\n  spec: {$ref: '") + ref + "'}\n", d);
        REQUIRE(docs.size() == 1);
        validate::expand_schema_refs(docs[0].root, "s.yaml", d);
        CHECK(has(d, "schema.invalid", ref));
        REQUIRE_FALSE(d.all().empty());
        CHECK(d.all().front().file == "s.yaml");
        CHECK(d.all().front().mark.line == 3);
    }
    // A good one expands in place, with the keys written beside it on top.
    Diagnostics d;
    auto docs = load_yaml("s.yaml", "type: object\nproperties:\n  spec: {$ref: 'definitions/k8s.yaml#/PodSpec', x-kubernetes-preserve-unknown-fields: false}\n", d);
    validate::expand_schema_refs(docs[0].root, "s.yaml", d);
    CHECK(d.all().empty());
    const Node* spec = docs[0].root.find("properties")->find("spec");
    REQUIRE(spec->find("required"));
    CHECK(spec->find("x-kubernetes-preserve-unknown-fields")->text() == "false");
    CHECK(spec->find("properties")->find("containers")->find("items")->find("required"));
}

TEST_CASE("workload inputs: quantities are checked as the API server parses them", "[workload-inputs]") {
    // resource.ParseQuantity (apimachinery pkg/api/resource/quantity.go)
    // accepts 1e30: only BinarySI values are capped, decimal exponents are
    // kept as arbitrary-precision decimals. "one" does not parse.
    for (const char* ok : {"1e30", "4", "500m", "1.5", "'2Gi'", "0.5"}) {
        CAPTURE(ok);
        auto d = check_text(job_with_cpu(ok));
        INFO(dump(d));
        CHECK_FALSE(d.has_errors());
    }
    for (const char* bad : {"one", "'1 Gi'", "1.5.0", "'1Gb'"}) {
        CAPTURE(bad);
        auto d = check_text(job_with_cpu(bad));
        INFO(dump(d));
        CHECK(has(d, "schema.pattern", "resources.requests.cpu"));
    }
}

TEST_CASE("workload inputs: what the API server refuses is a positioned error with a rule id", "[workload-inputs]") {
    for (const auto& b : bad_inputs()) {
        CAPTURE(b.what);
        auto d = check_text(b.yaml);
        INFO(dump(d));
        CHECK(has(d, b.rule, b.message));
        for (const auto& x : d.all())
            if (x.severity == Severity::Error) {
                CHECK(x.mark.line > 0);
                CHECK(x.file == "in.yaml");
            }
    }
}

TEST_CASE("workload inputs: good manifests of every integrated kind pass", "[workload-inputs]") {
    const std::string pod = "{spec: {containers: [{name: c, image: x, resources: {requests: {cpu: 1, memory: 1Gi}}}]}}";
    const std::string docs[] = {
        job("      containers: [{name: main, image: busybox, resources: {requests: {cpu: 1}}, ports: [{containerPort: 80}]}]\n"
            "      volumes: [{name: v, emptyDir: {}}]\n      affinity: {nodeAffinity: {}}\n"),
        "apiVersion: jobset.x-k8s.io/v1alpha2\nkind: JobSet\nmetadata: {name: js}\nspec:\n  replicatedJobs:\n"
        "    - name: w\n      replicas: 2\n      template: {spec: {parallelism: 2, template: " + pod + "}}\n",
        "apiVersion: kubeflow.org/v1\nkind: PyTorchJob\nmetadata: {name: pt}\nspec:\n  pytorchReplicaSpecs:\n"
        "    Master: {replicas: 1, restartPolicy: OnFailure, template: " + pod + "}\n"
        "    Worker: {replicas: 3, template: " + pod + "}\n",
        "apiVersion: kubeflow.org/v2beta1\nkind: MPIJob\nmetadata: {name: mpi}\nspec:\n  slotsPerWorker: 1\n  mpiReplicaSpecs:\n"
        "    Launcher: {replicas: 1, template: " + pod + "}\n    Worker: {replicas: 2, template: " + pod + "}\n",
        "apiVersion: ray.io/v1\nkind: RayJob\nmetadata: {name: rj}\nspec:\n  entrypoint: python x.py\n  rayClusterSpec:\n"
        "    headGroupSpec: {rayStartParams: {}, template: " + pod + "}\n"
        "    workerGroupSpecs: [{groupName: g, replicas: 2, minReplicas: 0, maxReplicas: 4, template: " + pod + "}]\n",
        "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec: {containers: [{name: c}], tolerations: [{key: a, operator: Exists}]}\n",
        "apiVersion: leaderworkerset.x-k8s.io/v1\nkind: LeaderWorkerSet\nmetadata: {name: l}\nspec:\n  replicas: 2\n"
        "  leaderWorkerTemplate: {size: 4, workerTemplate: " + pod + "}\n",
        "apiVersion: trainer.kubeflow.org/v1alpha1\nkind: TrainJob\nmetadata: {name: t}\nspec:\n  runtimeRef: {name: torch-distributed}\n"
        "  trainer: {numNodes: 2, resourcesPerNode: {requests: {nvidia.com/gpu: 1}}}\n",
        "apiVersion: config.kueue.x-k8s.io/v1beta1\nkind: Configuration\nmanageJobsWithoutQueueName: false\n"
        "integrations: {frameworks: [batch/job]}\nfeatureGates: {TopologyAwareScheduling: true}\n",
        workload(pod_sets(2)),
    };
    for (const auto& doc : docs) {
        CAPTURE(doc);
        auto d = check_text(doc);
        INFO(dump(d));
        CHECK_FALSE(d.has_errors());
    }
    // A Configuration field Kueue does not know is an error (it decodes strictly).
    auto d = check_text("apiVersion: config.kueue.x-k8s.io/v1beta2\nkind: Configuration\nmanageJobsWithoutQueueNames: true\n");
    CHECK(has(d, "schema.unknown-field", "manageJobsWithoutQueueNames"));
}

TEST_CASE("workload inputs: --crd adds kinds and overrides built-ins per kind", "[workload-inputs]") {
    qf_test::TempDir tmp;
    // A CRD for a kind queueforge does not know, and one replacing the
    // built-in ResourceFlavor v1beta2 schema with a stricter one (so the
    // override shows); v1beta1 ResourceFlavor and batch/v1 Job keep theirs.
    qf_test::write_text(tmp.path / "crds.yaml", R"(apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: widgets.example.com}
spec:
  group: example.com
  names: {kind: Widget, plural: widgets}
  scope: Namespaced
  versions:
    - name: v1
      served: true
      storage: true
      schema:
        openAPIV3Schema:
          type: object
          properties:
            spec: {type: object, required: [size], properties: {size: {type: integer}}}
---
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: resourceflavors.kueue.x-k8s.io}
spec:
  group: kueue.x-k8s.io
  names: {kind: ResourceFlavor, plural: resourceflavors}
  scope: Cluster
  versions:
    - name: v1beta2
      served: true
      storage: true
      schema:
        openAPIV3Schema:
          type: object
          required: [spec]
          properties:
            spec: {type: object, properties: {nodeLabels: {type: object, additionalProperties: {type: string}}}}
)");
    const std::string inputs = R"(apiVersion: example.com/v1
kind: Widget
metadata: {name: w}
spec: {size: "big"}
---
apiVersion: kueue.x-k8s.io/v1beta2
kind: ResourceFlavor
metadata: {name: overridden}
---
apiVersion: kueue.x-k8s.io/v1beta1
kind: ResourceFlavor
metadata: {name: builtin}
spec: {nodeLabelz: {a: b}}
---
)" + job_with_cpu("one");
    LoadedResources in;
    Diagnostics d;
    load_resources_from_text("in.yaml", inputs, in, d);
    REQUIRE_FALSE(d.has_errors());
    ValidationOptions o;
    o.crd_paths = {(tmp.path / "crds.yaml").string()};
    validate_all(in, o, d);
    INFO(dump(d));
    CHECK(has(d, "schema.type", "spec.size"));                 // the CRD's new kind is validated
    CHECK(has(d, "schema.required", "spec: Required value"));  // the CRD replaces the built-in v1beta2 ResourceFlavor
    CHECK(has(d, "schema.unknown-field", "nodeLabelz"));        // the built-in v1beta1 one still applies
    CHECK(has(d, "schema.pattern", "requests.cpu"));            // and so does the built-in Job schema
    CHECK_FALSE(has(d, "schema.missing"));
    // Without --crd the v1beta2 ResourceFlavor passes (the built-in does not require spec).
    Diagnostics plain;
    validate_all(in, ValidationOptions{}, plain);
    CHECK_FALSE(has(plain, "schema.required", "spec: Required value"));
    CHECK(has(plain, "schema.missing", "example.com/v1 Widget"));
}

TEST_CASE("workload inputs: simulate reads a running Workload's status as the cluster wrote it", "[workload-inputs]") {
    // Only what the API server checks on create is refused; a status (which
    // the server drops on create) with a condition lacking its message is
    // still read, as kubectl get output would be.
    qf_test::TempDir tmp;
    qf_test::write_text(tmp.path / "site/queueforge-site.yaml", kSite);
    qf_test::write_text(tmp.path / "running.yaml", workload(pod_sets(1)) + R"(status:
  admission:
    clusterQueue: team-a
    podSetAssignments: [{name: ps0, count: 1, flavors: {cpu: cpu}, resourceUsage: {cpu: "1"}}]
  conditions:
  - {type: QuotaReserved, status: "True", reason: QuotaReserved, lastTransitionTime: "2026-01-01T00:00:00Z"}
)");
    Diagnostics d;
    auto report = scenarios::run({{(tmp.path / "site").string(), (tmp.path / "running.yaml").string()}, "", 0}, d);
    INFO(dump(d));
    CHECK(report);
    CHECK_FALSE(d.has_errors());
    // validate itself still reports the status.
    auto v = run_cli("validate " + shell_quote((tmp.path / "running.yaml").string()));
    CHECK(v.out.find("status.conditions[0].message: Required value") != std::string::npos);
}

TEST_CASE("workload inputs: validate checks a site's sample job files", "[workload-inputs]") {
    qf_test::TempDir tmp;
    qf_test::write_text(tmp.path / "site/queueforge-site.yaml", kSite + R"(  workloads:
    - name: bad
      namespace: team-a
      file: jobs/bad.yaml
)");
    qf_test::write_text(tmp.path / "site/jobs/bad.yaml", job_with_cpu("one"));
    // The site file alone (not its folder): the sample is found through the site.
    auto r = run_cli("validate " + shell_quote((tmp.path / "site/queueforge-site.yaml").string()));
    INFO(r.out << r.err);
    CHECK(r.exit == 1);
    CHECK(r.out.find("jobs/bad.yaml:13:") != std::string::npos);
    CHECK(r.out.find("[schema.pattern]") != std::string::npos);
    // The folder: the file is read once, reported once.
    auto f = run_cli("validate " + shell_quote((tmp.path / "site").string()));
    INFO(f.out << f.err);
    CHECK(f.exit == 1);
    const std::string tag = "[schema.pattern]";
    std::size_t count = 0;
    for (auto p = f.out.find(tag); p != std::string::npos; p = f.out.find(tag, p + 1)) ++count;
    CHECK(count == 1);
}

TEST_CASE("workload inputs: the README's validate of examples/multi-team passes", "[workload-inputs]") {
    auto r = run_cli("validate " + shell_quote((qf_test::source_dir() / "examples/multi-team").string()));
    INFO(r.out << r.err);
    CHECK(r.exit == 0);
    CHECK(r.out.find("schema.missing") == std::string::npos);
    CHECK(r.err.find("schema.missing") == std::string::npos);
}

TEST_CASE("workload inputs: simulate refuses invalid jobs and Workloads and simulates nothing (library)", "[workload-inputs]") {
    for (const auto& b : bad_inputs()) {
        CAPTURE(b.what);
        qf_test::TempDir tmp;
        qf_test::write_text(tmp.path / "site/queueforge-site.yaml", kSite);
        qf_test::write_text(tmp.path / "job.yaml", b.yaml);
        Diagnostics d;
        auto report = scenarios::run({{(tmp.path / "site").string(), (tmp.path / "job.yaml").string()}, "", 0}, d);
        INFO(dump(d));
        CHECK_FALSE(report);
        CHECK(has(d, b.rule, b.message));
    }
}

TEST_CASE("workload inputs: simulate and check refuse invalid inputs with positions and exit 1 (CLI)", "[workload-inputs]") {
    for (const auto& b : bad_inputs()) {
        CAPTURE(b.what);
        qf_test::TempDir tmp;
        qf_test::write_text(tmp.path / "site/queueforge-site.yaml", kSite);
        qf_test::write_text(tmp.path / "job.yaml", b.yaml);
        const std::string job_path = (tmp.path / "job.yaml").string();
        auto s = run_cli("simulate " + shell_quote((tmp.path / "site").string()) + " " + shell_quote(job_path));
        INFO(s.out << s.err);
        CHECK(s.exit == 1);
        CHECK(s.err.find(job_path + ":") != std::string::npos);
        CHECK(s.err.find(std::string("[") + b.rule + "]") != std::string::npos);
        CHECK(s.out.find("Admitted") == std::string::npos);
        auto c = run_cli("check " + shell_quote((tmp.path / "site").string()) + " " + shell_quote(job_path));
        INFO(c.out << c.err);
        CHECK(c.exit == 1);
        CHECK((c.out + c.err).find(std::string("[") + b.rule + "]") != std::string::npos);
    }
}

TEST_CASE("workload inputs: a site sample file that the API server would refuse is not simulated", "[workload-inputs]") {
    qf_test::TempDir tmp;
    qf_test::write_text(tmp.path / "queueforge-site.yaml", kSite + R"(  workloads:
    - name: big
      namespace: team-a
      file: jobs/job.yaml
      expect: {status: Admitted}
)");
    qf_test::write_text(tmp.path / "jobs/job.yaml", job("      containers: {name: main}\n"));
    auto s = run_cli("simulate " + shell_quote(tmp.path.string()));
    INFO(s.out << s.err);
    CHECK(s.exit == 1);
    CHECK(s.err.find("jobs/job.yaml:") != std::string::npos);
    CHECK(s.err.find("[schema.type]") != std::string::npos);
    CHECK(s.out.find("Admitted") == std::string::npos);
    // check validates the site's sample files before it simulates anything.
    auto c = run_cli("check " + shell_quote(tmp.path.string()));
    INFO(c.out << c.err);
    CHECK(c.exit == 1);
    CHECK((c.out + c.err).find("jobs/job.yaml:") != std::string::npos);
    CHECK((c.out + c.err).find("[schema.type]") != std::string::npos);
    CHECK((c.out + c.err).find("expectation") == std::string::npos);
}

TEST_CASE("workload inputs: 1e30 CPUs is accepted as the API server does, and never admitted", "[workload-inputs]") {
    qf_test::TempDir tmp;
    qf_test::write_text(tmp.path / "site/queueforge-site.yaml", kSite);
    qf_test::write_text(tmp.path / "job.yaml", job_with_cpu("1e30"));
    auto s = run_cli("simulate -o json " + shell_quote((tmp.path / "site").string()) + " " +
                     shell_quote((tmp.path / "job.yaml").string()));
    INFO(s.out << s.err);
    CHECK(s.err.find("[schema.") == std::string::npos);
    // Kueue's int64 milli-CPU accounting cannot hold it: an error, and the
    // Workload is left out of the simulation rather than admitted without it.
    CHECK(s.err.find("value too large [sim.invalid]") != std::string::npos);
    CHECK(s.exit == 1);
    CHECK(s.out.find("\"Admitted\"") == std::string::npos);
    CHECK(s.out.find("job-train") == std::string::npos);
}

TEST_CASE("workload inputs: validating the bundled examples' jobs keeps simulate fast", "[workload-inputs][performance]") {
    // Built-in schemas compile on first use, once per run: validating the
    // example's PyTorchJob twice compiles one schema, not the forty others.
    const std::string pytorchjob = qf_test::read_text(qf_test::source_dir() / "examples/multi-team/jobs/llm-pretrain-pytorchjob.yaml");
    LoadedResources in;
    Diagnostics d;
    load_resources_from_text("job.yaml", pytorchjob, in, d);
    REQUIRE(in.resources.size() == 1);
    ObjectValidator v({}, d);
    const auto start = std::chrono::steady_clock::now();
    CHECK(v.check(in.resources[0], d));
    const auto first = std::chrono::steady_clock::now();
    for (int i = 0; i < 100; ++i) v.check(in.resources[0], d);
    const auto end = std::chrono::steady_clock::now();
    using std::chrono::duration_cast;
    using std::chrono::microseconds;
    const auto compile_us = duration_cast<microseconds>(first - start).count();
    const auto per_object_us = duration_cast<microseconds>(end - first).count() / 100;
    INFO(compile_us << " us for the first check, " << per_object_us << " us per check after it");
    CHECK_FALSE(d.has_errors());
    CHECK(compile_us < 20000);
    CHECK(per_object_us < 2000);
}

TEST_CASE("workload inputs: upstream job, pod and DSCInitialization samples pass the built-in schemas", "[workload-inputs]") {
    auto shared = qf_test::shared_dir();
    if (!shared) {
        WARN("skipped: ../shared (Kueue's documentation examples) is not beside this checkout");
        return;
    }
    // The condensed schemas must not refuse what upstream documents: every
    // example (jobs of each integration, pods, serving workloads, AppWrappers,
    // Kueue objects) and the OpenShift AI DSCInitialization samples, each
    // file on its own, without --crd.
    std::vector<std::filesystem::path> files;
    for (const char* dir : {"upstream/kueue-examples", "upstream/opendatahub"})
        for (const auto& e : std::filesystem::recursive_directory_iterator(*shared / dir))
            if (e.path().extension() == ".yaml" && e.path().filename().string().find("_dscinitialization.yaml") != std::string::npos)
                files.push_back(e.path());
            else if (e.path().extension() == ".yaml" && std::string(dir) == "upstream/kueue-examples")
                files.push_back(e.path());
    std::sort(files.begin(), files.end());
    std::map<std::string, int> kinds;
    for (const auto& f : files) {
        CAPTURE(f.string());
        LoadedResources in;
        Diagnostics d;
        load_resources_from_text(f.string(), qf_test::read_text(f), in, d);
        ValidationOptions o;
        o.ignore_missing_schemas = true;
        validate_all(in, o, d);
        std::string errors;
        for (const auto& x : d.all())
            if (x.severity == Severity::Error && (x.rule.starts_with("schema.") || x.rule.starts_with("workload.")))
                errors += x.rule + ": " + x.message + "\n";
        CHECK(errors == "");
        ObjectValidator v({}, d);
        for (const auto& r : in.resources)
            if (v.has_schema(r.ref.api_version, r.ref.kind)) ++kinds[r.ref.kind];
    }
    for (const char* k : {"Job", "JobSet", "PyTorchJob", "RayJob", "RayCluster", "Pod", "Deployment", "StatefulSet",
                          "LeaderWorkerSet", "AppWrapper", "DSCInitialization"}) {
        CAPTURE(k);
        CHECK(kinds[k] > 0);
    }
}
