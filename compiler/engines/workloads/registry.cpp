// Which manifests are jobs queueforge converts, and why the other job kinds
// Kueue integrates are not (Kueue pkg/controller/jobs/*: one integration per
// GroupVersionKind, so other API versions of the same kind are not watched).
#include "engines/workloads/jobs.hpp"

namespace queueforge::workloads {

namespace detail {

const Integration* find_integration(const Resource& r) {
    static constexpr Integration kIntegrations[] = {
#define QF_INTEGRATION(api_version, kind, build, elastic) {api_version, kind, build, elastic},
#include "engines/workloads/integrations.def"
#undef QF_INTEGRATION
    };
    for (const auto& i : kIntegrations)
        if (i.api_version == r.ref.api_version && i.kind == r.ref.kind) return &i;
    return nullptr;
}

}  // namespace detail

bool is_job(const Resource& r) { return detail::find_integration(r) != nullptr; }

std::optional<std::string> unsupported_job_reason(const Resource& r) {
    if (is_job(r)) return std::nullopt;
    const std::string& kind = r.ref.kind;
    const std::string group = r.ref.api_version.substr(0, r.ref.api_version.find('/'));
    struct Known {
        std::string_view group, kind, why;
    };
    static constexpr Known kKnown[] = {
        {"batch", "CronJob",
         "Kueue admits the Jobs a CronJob creates, one per schedule tick, not the CronJob; give its jobTemplate as a "
         "batch/v1 Job to simulate one run"},
        // OpenShift AI objects Kueue does not manage itself: their controllers
        // render them into objects that carry the Kueue label (openshift-ai.md,
        // kueue-0.20-and-openshift-ai-3.md 4.1; opendatahub-operator 58454ba6:
        // the serving label lives on the Deployment / LeaderWorkerSet). The
        // rendered pods depend on controller versions and cluster settings
        // (injected sidecars, storage initializers, serving runtimes), so they
        // are not derived from the manifest here.
        {"kubeflow.org", "Notebook",
         "a workbench: Kueue admits the apps/v1 StatefulSet the notebook controller renders from it (one pod, with the "
         "sidecars the controller injects), not the Notebook; give that StatefulSet (oc get statefulset <name> -o yaml)"},
        {"serving.kserve.io", "InferenceService",
         "a model server: Kueue admits the apps/v1 Deployment KServe renders from it (with the serving runtime's and "
         "KServe's own containers), not the InferenceService; give that Deployment (oc get deployment -l "
         "serving.kserve.io/inferenceservice=<name> -o yaml)"},
        {"serving.kserve.io", "LLMInferenceService",
         "a model server: Kueue admits what KServe renders from it -- an apps/v1 Deployment, or a "
         "leaderworkerset.x-k8s.io/v1 LeaderWorkerSet for multi-node serving -- not the LLMInferenceService; give that "
         "Deployment or LeaderWorkerSet"},
        {"kubeflow.org", "MPIJob",
         "Kueue integrates the mpi-operator's kubeflow.org/v2beta1 MPIJob; the training-operator's v1 MPIJob is not managed"},
        {"kubeflow.org", "PyTorchJob", "Kueue's integration watches kubeflow.org/v1"},
        {"jobset.x-k8s.io", "JobSet", "Kueue's integration watches jobset.x-k8s.io/v1alpha2"},
        {"ray.io", "RayJob", "Kueue's integration watches ray.io/v1"},
    };
    for (const auto& k : kKnown)
        if (k.group == group && k.kind == kind) return std::string(k.why);
    if (group == "ray.io" && kind == "RayCluster") return "Kueue's integration watches ray.io/v1";
    if (group == "kubeflow.org" && (kind == "TFJob" || kind == "XGBoostJob" || kind == "PaddleJob" || kind == "JAXJob"))
        return "Kueue's integration watches kubeflow.org/v1";
    return std::nullopt;
}

}  // namespace queueforge::workloads
