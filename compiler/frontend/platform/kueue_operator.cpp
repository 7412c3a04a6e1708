// The platform around the queues on OpenShift AI, as data.
//
// Red Hat build of Kueue (RHBoK) operator: openshift/kueue-operator, branches
// release-1.0 ... release-1.4, pkg/apis/kueueoperator/v1/types.go (the
// frameworks enum and maxItems, the fields of KueueConfiguration) and the
// upstream/kueue/src submodule branch each release builds (release-0.12 for
// 1.1, release-0.14 for 1.2, release-0.16 for 1.3, release-0.18 for 1.4;
// 1.0 = Kueue 0.11 per /work/shared/openshift-ai.md section 2).
//
// HardwareProfile: opendatahub-io/opendatahub-operator. The
// infrastructure.opendatahub.io/v1alpha1 kind with spec.scheduling (type
// Queue|Node, kueue.localQueueName, kueue.priorityClass) arrived with
// be9b0cca "Migrate to kueue: complete implementation" (#2182, first tag
// v2.32.0, the commit the rhoai-2.23 branch carries, openshift-ai.md section
// 2); v1 (storage, v1alpha1 deprecated but served) with ee129429 (#2398,
// first tag v3.0.0 = OpenShift AI 3.0). Before 2.23 the dashboard's own
// dashboard.opendatahub.io/v1alpha1 HardwareProfile has no queue scheduling.
#include <queueforge/frontend/kueue_operator.hpp>

#include <array>

namespace queueforge::platform {

namespace {

std::vector<std::string> frameworks_10() {
    return {"BatchJob", "RayJob",  "RayCluster", "JobSet",     "MPIJob",      "PaddleJob",      "PyTorchJob",
            "TFJob",    "XGBoostJob", "AppWrapper", "Pod", "Deployment", "StatefulSet", "LeaderWorkerSet"};
}

std::vector<std::string> plus(std::vector<std::string> v, std::initializer_list<const char*> more) {
    for (const char* m : more) v.emplace_back(m);
    return v;
}

struct KindFramework {
    std::string_view group;
    std::string_view kind;
    std::string_view framework;
};

// kueue-operator's KueueIntegration constants and the kinds Kueue's job
// integrations reconcile (upstream pkg/controller/jobs/*).
constexpr std::array<KindFramework, 18> kKinds{{
    {"batch", "Job", "BatchJob"},
    {"ray.io", "RayJob", "RayJob"},
    {"ray.io", "RayCluster", "RayCluster"},
    {"ray.io", "RayService", "RayService"},
    {"jobset.x-k8s.io", "JobSet", "JobSet"},
    {"kubeflow.org", "MPIJob", "MPIJob"},
    {"kubeflow.org", "PaddleJob", "PaddleJob"},
    {"kubeflow.org", "PyTorchJob", "PyTorchJob"},
    {"kubeflow.org", "TFJob", "TFJob"},
    {"kubeflow.org", "XGBoostJob", "XGBoostJob"},
    {"kubeflow.org", "JAXJob", "JaxJob"},
    {"trainer.kubeflow.org", "TrainJob", "TrainJob"},
    {"workload.codeflare.dev", "AppWrapper", "AppWrapper"},
    {"", "Pod", "Pod"},
    {"apps", "Deployment", "Deployment"},
    {"apps", "StatefulSet", "StatefulSet"},
    {"leaderworkerset.x-k8s.io", "LeaderWorkerSet", "LeaderWorkerSet"},
    {"sparkoperator.k8s.io", "SparkApplication", "SparkApplication"},
}};

}  // namespace

std::vector<KueueOperatorRelease> kueue_operator_releases() {
    std::vector<KueueOperatorRelease> out;
    out.push_back({{1, 0, 0}, {0, 11, 0}, frameworks_10(), 14, false, false, false});
    out.push_back({{1, 1, 0}, {0, 12, 0}, plus(frameworks_10(), {"JaxJob"}), 14, false, false, false});
    out.push_back({{1, 2, 0}, {0, 14, 0}, plus(frameworks_10(), {"JaxJob", "TrainJob"}), 14, false, false, false});
    // 1.3 adds spec.config.multiKueue; the frameworks enum is 1.2's.
    out.push_back({{1, 3, 0}, {0, 16, 0}, plus(frameworks_10(), {"JaxJob", "TrainJob"}), 14, true, false, false});
    // 1.4 adds RayService and SparkApplication (maxItems 18), resources
    // (deviceClassMappings) and admissionFairSharing.
    out.push_back({{1, 4, 0},
                   {0, 18, 0},
                   plus(frameworks_10(), {"JaxJob", "TrainJob", "RayService", "SparkApplication"}),
                   18,
                   true,
                   true,
                   true});
    return out;
}

std::optional<KueueOperatorRelease> kueue_operator_for_kueue(const Version& kueue) {
    for (auto& r : kueue_operator_releases())
        if (r.kueue.major == kueue.major && r.kueue.minor == kueue.minor) return r;
    return std::nullopt;
}

bool kueue_from_operator(const Target& t, bool kueue_unmanaged) {
    if (t.platform != Platform::OpenShiftAI) return false;
    if (!t.embedded_kueue) return true;  // 3.x: RHBoK only
    // 2.23-2.25: Unmanaged hands Kueue to RHBoK (openshift-ai.md section 2).
    return kueue_unmanaged && t.dsc_default_queue_fields;
}

std::string framework_of(std::string_view api_version, std::string_view kind) {
    const auto slash = api_version.rfind('/');
    const std::string_view group = slash == std::string_view::npos ? std::string_view() : api_version.substr(0, slash);
    for (const auto& k : kKinds)
        if (k.group == group && k.kind == kind) return std::string(k.framework);
    return {};
}

std::string hardware_profile_api_version(const Target& t) {
    if (t.platform != Platform::OpenShiftAI) return {};
    if (t.release >= Version{3, 0, 0}) return std::string(kHardwareProfileGroup) + "/v1";
    if (t.release >= first_hardware_profile_release()) return std::string(kHardwareProfileGroup) + "/v1alpha1";
    return {};
}

Version first_hardware_profile_release() { return {2, 23, 0}; }

bool is_hardware_profile_api_version(std::string_view api_version) {
    return api_version == "infrastructure.opendatahub.io/v1" || api_version == "infrastructure.opendatahub.io/v1alpha1";
}

}  // namespace queueforge::platform
