#pragma once
// What the OpenShift AI platform around the queues serves, release by
// release: the Red Hat build of Kueue operator's `Kueue` CR
// (kueue.openshift.io/v1, name `cluster`) and the dashboard's
// HardwareProfile (infrastructure.opendatahub.io). Facts and their sources
// are in compiler/frontend/platform/kueue_operator.cpp.
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

// The namespace the dashboard reads cluster-wide HardwareProfiles from: the
// DSCInitialization's applicationsNamespace, redhat-ods-applications on
// OpenShift AI.
inline constexpr std::string_view kDashboardNamespace = "redhat-ods-applications";

}  // namespace queueforge::platform
