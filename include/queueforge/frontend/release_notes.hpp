#pragma once
// What each OpenShift AI and Kueue release changed for a repository of queue
// configuration, with the release note (or source file) each fact comes
// from: what `queueforge upgrade-check` reads. Facts the target matrix holds
// (platform.hpp Target: the DataScienceCluster API, component keys, the kueue
// managementState values, namespace labels, the operator's queue creation,
// the Kueue release) are found by comparing the two targets; their entry
// here gives the source and the consequence, one per release whose row
// changes the fact (tests/frontend/release_notes_test.cpp holds every
// matrix change to an entry). Kueue behaviour the matrix does not hold (API
// serving, defaults, limits) is listed per Kueue minor.
#include <queueforge/base/diagnostics.hpp>
#include <queueforge/frontend/platform.hpp>

#include <span>
#include <string_view>

namespace queueforge::platform {

enum class Track { OpenShiftAI, Kueue };

enum class Fact {
    // Target fields (compared between the two targets).
    DscApi,                 // Target::dsc_api_version
    KueueApi,               // Target::kueue_api_version (what queueforge emits)
    CohortApi,              // Target::cohort_api_version
    KueueStates,            // the kueue component's managementState values
    Components,             // spec.components keys
    NamespaceLabels,        // Target::namespace_labels
    EmbeddedKueue,          // Target::embedded_kueue
    DscDefaultQueueFields,  // Target::dsc_default_queue_fields
    AutoCreateQueues,       // Target::dsc_auto_create_queues
    OperatorCreatesQueues,  // Target::operator_creates_queues
    SingleClusterQueue,     // Target::single_cluster_queue
    SharedCohorts,          // Target::shared_cohorts_supported
    KueueRelease,           // Target::kueue (the release that serves the queues)
    // Kueue behaviour per minor, not in Target.
    V1beta2Served,
    V1beta1Deprecated,
    V1beta1Unserved,
    DefaultPriorityClass,
    ConcurrentAdmissionFlavors,
    AfsGatePairing,
    TrainJobTrainer,
    OnFlavorsUpdates,
    LwsGroupSize,
};

// What in a repository a change concerns: upgrade-check names those
// objects, and a change that concerns nothing in the repository is listed
// apart ("does not concern this repository").
enum class Concerns {
    Always,               // every repository for the platform
    KueueObjects,         // any Kueue object, written or emitted
    WrittenV1beta1,       // hand-written kueue.x-k8s.io/v1beta1 objects
    SiteQueues,           // sites (queueforge re-renders them for the target)
    CohortObjects,        // Cohort objects
    SharedCohort,         // a cohort with two or more ClusterQueues
    SeveralClusterQueues, // more than one ClusterQueue
    ConcurrentAdmission,  // a ClusterQueue with spec.concurrentAdmissionPolicy
    DefaultPriorityClass, // a WorkloadPriorityClass named "default"
    Dsc,                  // a DataScienceCluster
    DscKueue,             // a DataScienceCluster with a kueue component
    DscKueueState,        // a hand-written DataScienceCluster whose kueue managementState the other target refuses
    DscComponents,        // DataScienceCluster components the other target does not have
    TeamNamespaces,       // namespaces with LocalQueues
    DefaultQueues,        // queues named "default" (the operator's names) or LocalQueues pointing at one
    KueueConfiguration,   // a Kueue Configuration, kueue-manager-config ConfigMap or Kueue CR
    TrainJob,             // TrainJob manifests
    OnFlavors,            // admissionChecksStrategy.admissionChecks[].onFlavors
    LeaderWorkerSet,      // LeaderWorkerSet manifests
};

struct ReleaseNote {
    Track track;
    Version at;            // the first release (major.minor) with the change
    Fact fact;
    Concerns concerns;
    std::string_view id;   // stable, dashed: names the change in every output
    Severity up;           // moving to `at` or later: Error breaks the repository, Warning needs an action, Note informs
    std::string_view up_text;
    Severity down;         // moving from `at` or later back below it
    std::string_view down_text;
    std::string_view source;  // the release note, changelog entry or source file
};

// Ascending by track, then release.
std::span<const ReleaseNote> release_notes();

}  // namespace queueforge::platform
