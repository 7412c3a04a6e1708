#include "checks/validate/builtin_schemas.hpp"

#include <queueforge/base/templates.hpp>
#include <queueforge/base/yaml_load.hpp>

#include <map>
#include <stdexcept>

namespace queueforge::validate {

namespace {

// Every built-in schema: the embedded file and the kind it stands for.
struct BuiltinKind {
    std::string_view file;  // under schemas/
    std::string_view api_version;
    std::string_view kind;
};

constexpr BuiltinKind kBuiltins[] = {
    // Kueue (kueue.x-k8s.io), the versions Kueue v0.19 serves.
    {"kueue/v1alpha1/cohort.yaml", "kueue.x-k8s.io/v1alpha1", "Cohort"},
    {"kueue/v1beta1/admissioncheck.yaml", "kueue.x-k8s.io/v1beta1", "AdmissionCheck"},
    {"kueue/v1beta1/clusterqueue.yaml", "kueue.x-k8s.io/v1beta1", "ClusterQueue"},
    {"kueue/v1beta1/cohort.yaml", "kueue.x-k8s.io/v1beta1", "Cohort"},
    {"kueue/v1beta1/localqueue.yaml", "kueue.x-k8s.io/v1beta1", "LocalQueue"},
    {"kueue/v1beta1/resourceflavor.yaml", "kueue.x-k8s.io/v1beta1", "ResourceFlavor"},
    {"kueue/v1beta1/topology.yaml", "kueue.x-k8s.io/v1beta1", "Topology"},
    {"kueue/v1beta1/workload.yaml", "kueue.x-k8s.io/v1beta1", "Workload"},
    {"kueue/v1beta1/workloadpriorityclass.yaml", "kueue.x-k8s.io/v1beta1", "WorkloadPriorityClass"},
    {"kueue/v1beta2/admissioncheck.yaml", "kueue.x-k8s.io/v1beta2", "AdmissionCheck"},
    {"kueue/v1beta2/clusterqueue.yaml", "kueue.x-k8s.io/v1beta2", "ClusterQueue"},
    {"kueue/v1beta2/cohort.yaml", "kueue.x-k8s.io/v1beta2", "Cohort"},
    {"kueue/v1beta2/localqueue.yaml", "kueue.x-k8s.io/v1beta2", "LocalQueue"},
    {"kueue/v1beta2/resourceflavor.yaml", "kueue.x-k8s.io/v1beta2", "ResourceFlavor"},
    {"kueue/v1beta2/topology.yaml", "kueue.x-k8s.io/v1beta2", "Topology"},
    {"kueue/v1beta2/workload.yaml", "kueue.x-k8s.io/v1beta2", "Workload"},
    {"kueue/v1beta2/workloadpriorityclass.yaml", "kueue.x-k8s.io/v1beta2", "WorkloadPriorityClass"},
    {"kueue-config/v1beta1/configuration.yaml", "config.kueue.x-k8s.io/v1beta1", "Configuration"},
    {"kueue-config/v1beta2/configuration.yaml", "config.kueue.x-k8s.io/v1beta2", "Configuration"},
    // Open Data Hub / OpenShift AI.
    {"opendatahub/v1/datasciencecluster.yaml", "datasciencecluster.opendatahub.io/v1", "DataScienceCluster"},
    {"opendatahub/v2/datasciencecluster.yaml", "datasciencecluster.opendatahub.io/v2", "DataScienceCluster"},
    {"opendatahub/v1/dscinitialization.yaml", "dscinitialization.opendatahub.io/v1", "DSCInitialization"},
    {"opendatahub/v2/dscinitialization.yaml", "dscinitialization.opendatahub.io/v2", "DSCInitialization"},
    {"infrastructure/v1alpha1/hardwareprofile.yaml", "infrastructure.opendatahub.io/v1alpha1", "HardwareProfile"},
    {"infrastructure/v1/hardwareprofile.yaml", "infrastructure.opendatahub.io/v1", "HardwareProfile"},
    // The Red Hat build of Kueue operator.
    {"kueue-operator/v1/kueue.yaml", "kueue.openshift.io/v1", "Kueue"},
    // Kubernetes built-in kinds.
    {"core/v1/namespace.yaml", "v1", "Namespace"},
    {"core/v1/pod.yaml", "v1", "Pod"},
    {"core/v1/node.yaml", "v1", "Node"},
    {"core/v1/limitrange.yaml", "v1", "LimitRange"},
    {"scheduling/v1/priorityclass.yaml", "scheduling.k8s.io/v1", "PriorityClass"},
    {"batch/v1/job.yaml", "batch/v1", "Job"},
    {"apps/v1/deployment.yaml", "apps/v1", "Deployment"},
    {"apps/v1/statefulset.yaml", "apps/v1", "StatefulSet"},
    {"admissionregistration/v1/validatingadmissionpolicy.yaml", "admissionregistration.k8s.io/v1",
     "ValidatingAdmissionPolicy"},
    {"admissionregistration/v1/validatingadmissionpolicybinding.yaml", "admissionregistration.k8s.io/v1",
     "ValidatingAdmissionPolicyBinding"},
    // Job kinds Kueue integrates.
    {"jobset/v1alpha2/jobset.yaml", "jobset.x-k8s.io/v1alpha2", "JobSet"},
    {"kubeflow/v1/pytorchjob.yaml", "kubeflow.org/v1", "PyTorchJob"},
    {"kubeflow/v1/tfjob.yaml", "kubeflow.org/v1", "TFJob"},
    {"kubeflow/v1/xgboostjob.yaml", "kubeflow.org/v1", "XGBoostJob"},
    {"kubeflow/v1/paddlejob.yaml", "kubeflow.org/v1", "PaddleJob"},
    {"kubeflow/v1/jaxjob.yaml", "kubeflow.org/v1", "JAXJob"},
    {"kubeflow/v2beta1/mpijob.yaml", "kubeflow.org/v2beta1", "MPIJob"},
    {"trainer/v1alpha1/trainjob.yaml", "trainer.kubeflow.org/v1alpha1", "TrainJob"},
    {"trainer/v1alpha1/trainingruntime.yaml", "trainer.kubeflow.org/v1alpha1", "TrainingRuntime"},
    {"trainer/v1alpha1/clustertrainingruntime.yaml", "trainer.kubeflow.org/v1alpha1", "ClusterTrainingRuntime"},
    {"ray/v1/rayjob.yaml", "ray.io/v1", "RayJob"},
    {"ray/v1/raycluster.yaml", "ray.io/v1", "RayCluster"},
    {"ray/v1/rayservice.yaml", "ray.io/v1", "RayService"},
    {"leaderworkerset/v1/leaderworkerset.yaml", "leaderworkerset.x-k8s.io/v1", "LeaderWorkerSet"},
    {"appwrapper/v1beta2/appwrapper.yaml", "workload.codeflare.dev/v1beta2", "AppWrapper"},
};

// Real definitions nest a handful of levels (PodTemplateSpec -> PodSpec ->
// Container -> ResourceRequirements -> Quantity); more is a cycle.
constexpr int kMaxRefDepth = 16;

// Expands `$ref: "<file under schemas/>#/<definition>"` in the embedded
// schemas. The definitions files (schemas/definitions/) hold one schema per
// top-level key. Keys written beside `$ref` replace the definition's.
class RefResolver {
public:
    RefResolver(std::map<std::string, Node>& files, Diagnostics& diags) : files_(files), diags_(diags) {}

    void resolve(Node& n, const std::string& file, int depth) {
        if (n.is_seq()) {
            for (auto& i : n.items()) resolve(i, file, depth);
            return;
        }
        if (!n.is_map()) return;
        if (const Node* ref = n.find("$ref")) {
            if (depth >= kMaxRefDepth) {
                diags_.error(file, ref->mark(), "$ref " + ref->text() + " nests more than " + std::to_string(kMaxRefDepth) +
                                                    " levels deep (a cycle?)", "schema.invalid");
                n.erase("$ref");
                return;
            }
            const Node* target = lookup(*ref, file);
            if (!target) {
                n.erase("$ref");
                return;
            }
            Node expanded = *target;
            for (const auto& e : n.entries())
                if (e.key != "$ref") expanded.set(e.key, e.value);
            n = std::move(expanded);
            resolve(n, file, depth + 1);
            return;
        }
        for (auto& e : n.entries()) resolve(e.value, file, depth);
    }

private:
    std::map<std::string, Node>& files_;  // definitions files by path, loaded once
    Diagnostics& diags_;

    const Node* lookup(const Node& ref, const std::string& file) {
        const std::string& r = ref.text();
        const auto hash = r.find("#/");
        if (!ref.is_string() || hash == std::string::npos) {
            diags_.error(file, ref.mark(), "$ref must be \"<file>#/<definition>\", not \"" + r + "\"", "schema.invalid");
            return nullptr;
        }
        const std::string path = "schemas/" + r.substr(0, hash);
        auto it = files_.find(path);
        if (it == files_.end()) {
            Node root;
            if (auto text = find_embedded(path)) {
                auto docs = load_yaml(path, std::string(*text), diags_);
                if (docs.size() == 1) root = std::move(docs[0].root);
            }
            it = files_.emplace(path, std::move(root)).first;
        }
        const Node* def = it->second.is_map() ? it->second.find(r.substr(hash + 2)) : nullptr;
        if (!def) diags_.error(file, ref.mark(), "$ref \"" + r + "\" names no embedded definition", "schema.invalid");
        return def;
    }
};

}  // namespace

std::optional<Node> BuiltinSchemas::load(const std::string& file, Diagnostics& diags) {
    auto text = find_embedded(file);
    if (!text) throw std::logic_error("built-in schema " + file + " is not embedded");
    auto docs = load_yaml(file, std::string(*text), diags);
    if (docs.size() != 1) return std::nullopt;
    RefResolver(definitions_, diags).resolve(docs[0].root, file, 0);
    return std::move(docs[0].root);
}

bool BuiltinSchemas::has(std::string_view api_version, std::string_view kind) {
    for (const auto& b : kBuiltins)
        if (b.api_version == api_version && b.kind == kind) return true;
    return false;
}

const openapi::Schema* BuiltinSchemas::find(const std::string& api_version, const std::string& kind, Diagnostics& diags) {
    auto it = compiled_.find({api_version, kind});
    if (it != compiled_.end()) return it->second.get();
    std::shared_ptr<const openapi::Schema> schema;
    for (const auto& b : kBuiltins) {
        if (b.api_version != api_version || b.kind != kind) continue;
        const std::string file = "schemas/" + std::string(b.file);
        if (auto root = load(file, diags)) schema = openapi::compile(*root, file, diags);
        break;
    }
    // A kind without a built-in schema (or one that failed) is remembered too.
    return compiled_.emplace(std::make_pair(api_version, kind), std::move(schema)).first->second.get();
}

std::vector<BuiltinSchema> BuiltinSchemas::all(Diagnostics& diags) {
    std::vector<BuiltinSchema> out;
    for (const auto& b : kBuiltins) {
        BuiltinSchema s{"schemas/" + std::string(b.file), std::string(b.api_version), std::string(b.kind), {}};
        auto root = load(s.file, diags);
        if (!root) continue;
        s.schema = std::move(*root);
        out.push_back(std::move(s));
    }
    return out;
}

void expand_schema_refs(Node& schema, const std::string& file, Diagnostics& diags) {
    std::map<std::string, Node> definitions;
    RefResolver(definitions, diags).resolve(schema, file, 0);
}

}  // namespace queueforge::validate
