#pragma once
// What the OpenShift AI platform around the queues serves, release by
// release: the Red Hat build of Kueue operator's `Kueue` CR
// (kueue.openshift.io/v1, name `cluster`) and the dashboard's
// HardwareProfile (infrastructure.opendatahub.io). Facts and their sources
// are in compiler/frontend/platform/kueue_operator.cpp.
#include <queueforge/frontend/manifests.hpp>
#include <queueforge/frontend/platform.hpp>

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace queueforge::platform {

inline constexpr std::string_view kKueueOperatorApiVersion = "kueue.openshift.io/v1";
inline constexpr std::string_view kKueueOperatorName = "cluster";
inline constexpr std::string_view kHardwareProfileGroup = "infrastructure.opendatahub.io";

// One release of the Red Hat build of Kueue operator (RHBoK): the Kueue it
// ships and the field set of its Kueue CR.
struct KueueOperatorRelease {
    Version release;                     // 1.0 ... 1.4
    Version kueue;                       // the upstream Kueue minor it ships
    std::vector<std::string> frameworks; // spec.config.integrations.frameworks enum
    std::size_t max_frameworks = 0;      // the list's maxItems
    bool multi_kueue = false;            // spec.config.multiKueue (1.3+)
    bool resources = false;              // spec.config.resources.deviceClassMappings (1.4+)
    bool admission_fair_sharing = false; // spec.config.admissionFairSharing (1.4+)
};

// The release that ships `kueue` (matched on major.minor), or nullopt.
std::optional<KueueOperatorRelease> kueue_operator_for_kueue(const Version& kueue);
// Every release, oldest first.
std::vector<KueueOperatorRelease> kueue_operator_releases();

// Whether the target's Kueue comes from the Red Hat build of Kueue: every
// OpenShift AI 3.x release, and 2.23-2.25 when the DataScienceCluster sets
// kueue Unmanaged (`kueue_unmanaged`).
bool kueue_from_operator(const Target& t, bool kueue_unmanaged);

// The RHBoK framework name of a job kind (by API group and kind: "BatchJob"
// for batch Job, "PyTorchJob", ...), or "" for a kind no framework manages.
std::string framework_of(std::string_view api_version, std::string_view kind);

// The infrastructure.opendatahub.io HardwareProfile version the target
// serves ("infrastructure.opendatahub.io/v1" on 3.x, ".../v1alpha1" on
// 2.23-2.25), or "" when it serves none.
std::string hardware_profile_api_version(const Target& t);
// The first OpenShift AI release that serves a HardwareProfile of type Queue.
Version first_hardware_profile_release();
// Every version of the kind any release serves.
bool is_hardware_profile_api_version(std::string_view api_version);

// Kueue's own manager configuration as deployed: a ConfigMap whose data key
// controller_manager_config.yaml holds the config.kueue.x-k8s.io
// Configuration as a YAML string (kubernetes-sigs/kueue
// config/components/manager: configMapGenerator "manager-config" from the
// file controller_manager_config.yaml, given the prefix "kueue-" and the
// namespace kueue-system by config/default/kustomization.yaml; the Helm
// chart's templates/manager/manager-config.yaml names it
// <fullname>-manager-config, kueue-manager-config by default, in the release
// namespace). Any namespace is accepted for that reason.
inline constexpr std::string_view kKueueManagerConfigMap = "kueue-manager-config";
inline constexpr std::string_view kKueueManagerConfigKey = "controller_manager_config.yaml";

// Kueue's integration name of a job kind ("batch/job",
// "kubeflow.org/pytorchjob", "pod", "deployment", ...: its Configuration's
// integrations.frameworks), or "" for a kind no integration manages.
std::string kueue_integration_of(std::string_view api_version, std::string_view kind);
// The integrations a Kueue release registers, sorted
// (compiler/frontend/platform/kueue_integrations.cpp has the sources).
std::vector<std::string> kueue_integrations(const Version& kueue);
// The first Kueue release that registers `name`, or nullopt.
std::optional<Version> first_kueue_with_integration(std::string_view name);
// "config.kueue.x-k8s.io/v1beta1" up to Kueue 0.14, ".../v1beta2" from 0.15:
// the version of the Configuration a release's manifests ship.
std::string kueue_configuration_api_version(const Version& kueue);
// The manager settings a Kueue release's manifests ship in its Configuration
// (health, metrics, webhook, leaderElection, controller, clientConnection),
// in the file's order.
Node kueue_manager_settings(const Version& kueue);

// A v1 ConfigMap named kueue-manager-config.
bool is_kueue_manager_config_map(const Resource& r);

// The Configuration a kueue-manager-config ConfigMap carries under
// data.controller_manager_config.yaml, as an object of the ConfigMap's file
// (ref: its apiVersion and kind, no name) whose marks are positions in that
// file: with `source` (the file's text) and a literal block scalar (`|`),
// each node sits at its own line and column (the block's content line plus
// the line inside the string, its indentation plus the column); otherwise
// (a quoted or flow scalar, a folded `>` block, no source) every node sits at
// the scalar. nullopt when the ConfigMap has no such key, or when the text
// is not a Configuration Kueue would load (not YAML, not a map, another
// apiVersion or kind): then an error at its position (the loader's yaml.*
// rules, kueue-config.embedded), since Kueue does not start with it.
std::optional<Resource> embedded_kueue_configuration(const Resource& config_map, const std::string* source,
                                                     Diagnostics& diags);

// The namespace the dashboard reads cluster-wide HardwareProfiles from: the
// DSCInitialization's applicationsNamespace, redhat-ods-applications on
// OpenShift AI.
inline constexpr std::string_view kDashboardNamespace = "redhat-ods-applications";

}  // namespace queueforge::platform
