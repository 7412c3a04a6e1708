#pragma once
// What a target cluster serves: the facts of openshift-ai.md sections 1-4 and
// kueue-semantics.md section 1.1 as data. Everything version-dependent in the
// compiler reads it from here.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace queueforge {

struct Version {
    int major = 0;
    int minor = 0;
    int patch = 0;
    static std::optional<Version> parse(std::string_view s);  // "2.10", "0.13.4", "v0.13"
    std::string to_string() const;                            // "2.10" or "0.13.4" (patch only if set)
    friend auto operator<=>(const Version&, const Version&) = default;
};

enum class Platform { OpenShiftAI, Kubernetes };

struct Component {
    std::string name;                 // DSC spec.components key
    std::vector<std::string> states;  // managementState values the target accepts
};

struct Target {
    std::string name;                 // canonical: "rhoai-2.10", "kueue-0.13"
    Platform platform = Platform::Kubernetes;
    Version release;                  // OpenShift AI release (zero for plain Kubernetes)
    Version kueue;                    // Kueue release that serves the queues
    std::string matrix_row;           // the documented row the facts come from ("rhoai-2.16")

    std::string dsc_api_version;      // "datasciencecluster.opendatahub.io/v1" | ".../v2" | "" (none)
    std::string kueue_api_version;    // "kueue.x-k8s.io/v1beta1" | "kueue.x-k8s.io/v1beta2"
    std::string cohort_api_version;   // "" when the target serves no Cohort kind
    std::string cohort_parent_field;  // "parent" (v1alpha1) or "parentName"
    std::string dsc_template;         // templates/ file with the DSC skeleton, e.g. "dsc/rhoai-2.10.yaml"

    std::vector<Component> components;
    std::vector<std::string> namespace_labels;  // labels team namespaces must carry ("key=value")

    bool embedded_kueue = false;           // kueue Managed is allowed: the DSC installs Kueue itself
    bool dsc_default_queue_fields = false; // kueue.defaultLocalQueueName / defaultClusterQueueName (>= 2.23)
    bool dsc_auto_create_queues = false;   // kueue.autoCreateQueues (>= 3.5)
    bool operator_creates_queues = false;  // 2.23 - 3.4: the operator always creates default-flavor/default
    bool single_cluster_queue = false;     // 2.10 support statement: one CQ, empty flavors
    bool shared_cohorts_supported = true;  // 2.16 - 2.25: Red Hat does not support shared cohorts

    const Component* component(std::string_view name) const;
};

// The explicit overrides a site may give (empty = derive from the target).
struct TargetOverrides {
    std::string kueue_api_version;   // "v1beta1" | "v1beta2"
    std::string dsc_api_version;     // "v1" | "v2"
    std::string cohort_api_version;  // "v1alpha1" | "v1beta1" | "v1beta2" | "none"
};

struct TargetLookup {
    std::optional<Target> target;
    std::string error;    // why the lookup failed
    std::string warning;  // e.g. "facts for rhoai-2.13 taken from rhoai-2.10"
};

// `spec` is "rhoai-2.16" / "openshift-ai-2.16" / "kueue-0.13" / "kubernetes" (newest Kueue).
TargetLookup find_target(std::string_view spec);
TargetLookup find_openshift_ai(const Version& release);
TargetLookup find_kubernetes(const Version& kueue);
TargetLookup apply_overrides(Target t, const TargetOverrides& o);

// Every documented row, for `queueforge version` and tests.
std::vector<std::string> supported_targets();

}  // namespace queueforge
