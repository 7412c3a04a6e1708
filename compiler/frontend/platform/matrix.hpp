#pragma once
// The version matrix as plain constant data, kept apart from the lookup logic in
// target.cpp so that a new release is one new row here. Sources:
// /work/shared/openshift-ai.md sections 1-4 (OpenShift AI rows) and
// kueue-semantics.md section 1.1 (which Kueue release serves which API version).
#include <queueforge/frontend/platform.hpp>

#include <span>
#include <string_view>

namespace queueforge::platform {

// The managementState values a target accepts for the kueue component
// (openshift-ai.md section 4 rule 2). Every other component accepts Managed|Removed.
enum class KueueStates { ManagedRemoved, ManagedUnmanagedRemoved, UnmanagedRemoved };

// One documented OpenShift AI release.
struct OpenShiftAiRow {
    Version release;                                  // major.minor of the documented row
    std::string_view dsc_version;                     // "v1" | "v2": the version queueforge emits
    std::span<const std::string_view> components;     // spec.components keys of that DSC version, sorted
    KueueStates kueue_states;
    Version kueue;                                    // Kueue release that serves the queues
    std::span<const std::string_view> namespace_labels;
    bool embedded_kueue;
    bool dsc_default_queue_fields;
    bool dsc_auto_create_queues;
    bool operator_creates_queues;
    bool single_cluster_queue;
    bool shared_cohorts_supported;
};

// A release that exists but has no documented row of its own; its facts come
// from `row`. `reason` ends the lookup warning.
struct ReleaseAlias {
    Version release;
    Version row;
    std::string_view reason;
};

// A release that never shipped; looking it up is an error with `reason`.
struct MissingRelease {
    Version release;
    std::string_view reason;
};

// Which Kueue releases serve one API version of one kind family
// (kueue-semantics.md section 1.1, cross-checked against the CRDs under
// upstream/kueue/). Ranges compare major.minor only.
enum class ApiFamily {
    Queues,  // ResourceFlavor, ClusterQueue, LocalQueue, WorkloadPriorityClass (always served together)
    Cohort,
};

struct ApiServing {
    ApiFamily family;
    std::string_view version;       // "v1beta1"
    Version first;                  // first Kueue minor that serves it
    Version last;                   // last Kueue minor that serves it (newest known when still served)
    Version deprecated_from;        // zero when never deprecated within the known range
    std::string_view parent_field;  // Cohort only: "parent" or "parentName"
};

inline constexpr std::string_view kDscGroup = "datasciencecluster.opendatahub.io/";
inline constexpr std::string_view kKueueGroup = "kueue.x-k8s.io/";

// Plain Kubernetes targets: one row per Kueue minor in this range.
inline constexpr Version kOldestKueue{0, 6, 0};
inline constexpr Version kNewestKueue{0, 20, 0};
// The last Kueue minor serving kueue.x-k8s.io/v1beta1 (0.20 dropped it, #14558).
inline constexpr Version kLastV1beta1Kueue{0, 19, 0};

// DSC v1 is still served on 3.x (openshift-ai.md section 1, row 3.0): the
// component keys are those of 2.25 and the v1 webhook rejects kueue Managed.
inline constexpr Version kFirstDscV2{3, 0, 0};
inline constexpr std::string_view kDscV1On3xTemplate = "dsc/rhoai-3-v1.yaml";

std::span<const OpenShiftAiRow> openshift_ai_rows();  // ascending by release
std::span<const ReleaseAlias> openshift_ai_aliases();
std::span<const MissingRelease> openshift_ai_missing();
std::span<const std::string_view> dsc_v1_components_on_3x();
std::span<const ApiServing> kueue_api_serving();

}  // namespace queueforge::platform
