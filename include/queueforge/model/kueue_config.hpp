#pragma once
// Kueue's controller configuration, read once from the objects of an input,
// whichever form it takes:
//  * a config.kueue.x-k8s.io Configuration object (v1beta1 or v1beta2);
//  * the kueue-manager-config ConfigMap whose controller_manager_config.yaml
//    holds one (frontend/kueue_operator.hpp embedded_kueue_configuration);
//  * the Red Hat build of Kueue's `Kueue` CR (kueue.openshift.io/v1), read
//    as its operator renders it into a Configuration.
// Kueue's defaults are those of the object's API version
// (apis/config/v1beta{1,2}/defaults.go). Every fact keeps the node it was
// read from, so a consumer's finding points at it.
//
// Reading is lenient for the facts the rules use (a malformed field reads as
// absent: validate reports its shape with the schema). Malformed values the
// simulator would act on are recorded as findings of the object they are in
// (`reading`), worded and positioned as simulate reports them; only the
// simulator reports them, for the Configuration Kueue runs with.
#include <queueforge/base/diagnostics.hpp>
#include <queueforge/base/node.hpp>
#include <queueforge/base/object.hpp>
#include <queueforge/base/quantity.hpp>
#include <queueforge/frontend/manifests.hpp>

#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace queueforge::model {

// Configuration.waitForPodsReady, defaults applied (apis/config/v1beta{1,2}/
// defaults.go at Kueue ff69552e): v1beta1 needs `enable: true` (then
// blockAdmission defaults to true, timeout 5m); v1beta2 defaults the struct
// whenever it is absent, so it is on unless the DisableWaitForPodsReady gate
// is set (timeout 30m, blockAdmission false). The Kueue CR's
// spec.config.gangScheduling is rendered to it as the operator does
// (openshift/kueue-operator pkg/configmap/configmap.go buildWaitForPodsReady).
struct PodsReady {
    bool enabled = true;
    bool configured = false;  // the inputs say something (else Kueue's defaults)
    std::int64_t timeout_ms = 30LL * 60 * 1000;
    bool block_admission = false;
    std::optional<std::int64_t> recovery_timeout_ms;
    bool creation_timestamp = false;  // requeuingStrategy.timestamp: Creation (default Eviction)
    std::optional<std::int32_t> backoff_limit_count;
    std::int64_t backoff_base_seconds = 60, backoff_max_seconds = 3600;
    std::string source = "Kueue defaults";  // "file:line" of the setting read
};

// resources.transformations[] (apis/config/v1beta2 ResourceTransformation).
struct ResourceTransformation {
    std::string input;
    bool replace = false;  // strategy Replace (else Retain)
    std::string multiply_by;
    std::vector<std::pair<std::string, Quantity>> outputs;
};

// Configuration.admissionFairSharing as Kueue validates and defaults it
// (apis/config/v1beta2 defaults.go: usageSamplingInterval 0 -> 5m;
// pkg/config/validation.go validateAdmissionFairSharing).
struct AdmissionFairSharing {
    std::int64_t half_life_ns = 0;                       // usageHalfLifeTime
    std::int64_t sampling_ns = 5LL * 60 * 1000000000LL;  // usageSamplingInterval (default 5m)
    std::map<std::string, double> resource_weights;      // resourceWeights (default 1)
    // Where each weight is written, to warn about resources no ClusterQueue covers.
    std::map<std::string, Diagnostic> weight_sites;
};

enum class KueueConfigForm {
    Configuration,  // a Configuration object, or one a ConfigMap carries
    OperatorCR,     // the Red Hat build of Kueue's Kueue CR
};

// One object that configures Kueue, as read.
struct KueueConfigObject {
    KueueConfigForm form = KueueConfigForm::Configuration;
    // The object the facts are read from: the Configuration (owned by
    // KueueConfig when a ConfigMap carries it), or the Kueue CR. nullptr when
    // a ConfigMap's text is not a Configuration Kueue would load.
    const Resource* object = nullptr;
    const Resource* config_map = nullptr;  // the kueue-manager-config ConfigMap it came from
    bool v1beta1 = false;                  // config.kueue.x-k8s.io/v1beta1

    // Job integrations. Configuration: integrations.frameworks (Kueue's
    // names, "batch/job"); without an integrations section Kueue enables
    // batch/job (SetDefaults_Configuration). Kueue CR:
    // spec.config.integrations.frameworks (the operator's names, "BatchJob").
    struct Framework {
        std::string name;
        const Node* at = nullptr;
    };
    std::vector<Framework> frameworks;  // as written, duplicates kept
    std::vector<std::string> enabled_frameworks;  // with Kueue's default
    const Node* frameworks_node = nullptr;
    // Jobs without a queue-name label are managed too: Configuration
    // manageJobsWithoutQueueName: true, CR workloadManagement.labelPolicy: None.
    bool manage_jobs_without_queue_name = false;

    // Fair sharing: v1beta1 fairSharing.enable, v1beta2 the section itself;
    // the CR's preemption.preemptionPolicy: FairSharing.
    bool fair_sharing = false;
    std::vector<int> preemption_strategies{0, 1};  // 0 LessThanOrEqualToFinalShare, 1 LessThanInitialShare

    // resources (Configuration only).
    std::vector<std::string> exclude_resource_prefixes;
    std::vector<ResourceTransformation> transformations;
    bool ignore_undeclared = false;  // quotaCheckStrategy: IgnoreUndeclared

    // admissionFairSharing: the section as written, and read (nullopt when
    // absent or invalid).
    const Node* admission_fair_sharing_node = nullptr;
    std::optional<AdmissionFairSharing> admission_fair_sharing;
    // Whether Kueue orders admission by LocalQueue usage: Configuration: the
    // section is there and the AdmissionFairSharing gate is not off
    // (pkg/util/admissionfairsharing Enabled); CR: the section sets
    // `configuration`.
    bool admission_fair_sharing_on = false;

    // featureGates (Configuration).
    const Node* afs_gate = nullptr;     // AdmissionFairSharing
    const Node* anchor_gate = nullptr;  // AdmissionFairSharingAnchorAtQuotaReservation
    bool afs_gate_on = true;            // AdmissionFairSharing (Beta, on since 0.15) unless "false"

    // waitForPodsReady (CR: gangScheduling as rendered); nullopt when the
    // object leaves Kueue's defaults of its API version.
    std::optional<PodsReady> pods_ready;
    std::optional<Diagnostic> pods_ready_note;  // sim.not-simulated: waitForPodsReady enabled

    // The Kueue CR's own fields (spec.config.*), for the checks of what each
    // operator release serves and of the CRD's union rules.
    struct Operator {
        const Node* config = nullptr;  // spec.config
        const Node* multi_kueue = nullptr, *resources = nullptr;
        const Node* gang_scheduling = nullptr;
        std::string gang_policy;  // gangScheduling.policy
        const Node* gang_by_workload = nullptr;
        std::string afs_configuration;  // admissionFairSharing.configuration
        const Node* afs_custom = nullptr;
    } cr;

    // Findings about malformed values, in reading order (see the header).
    std::vector<Diagnostic> reading;
};

struct KueueConfig {
    // Objects the reading owns (stable addresses): the Configurations read out
    // of ConfigMaps, and compiled objects read as resources of their site.
    std::deque<Resource> embedded;
    std::vector<KueueConfigObject> objects;  // in the order given

    bool empty() const { return objects.empty(); }
};

struct KueueConfigOptions {
    // Read kueue-manager-config ConfigMaps (else they are ignored: the caller
    // has already read their Configuration and passes it as an object).
    bool config_maps = true;
    // The text of a file, for positions inside a ConfigMap's literal block.
    std::function<const std::string*(const std::string& file)> text_of{};
};

// True for the kinds build_kueue_config reads (Configuration, the Kueue CR,
// a kueue-manager-config ConfigMap).
bool is_kueue_config_object(const Resource& r);

// Reads every object of a kind above, in the order given; other objects are
// ignored. A ConfigMap's findings about its text (kueue-config.embedded,
// yaml.*) are the `reading` of its entry.
KueueConfig build_kueue_config(const std::vector<const Resource*>& objects, const KueueConfigOptions& opts = {});
KueueConfig build_kueue_config(const std::vector<Resource>& objects, const KueueConfigOptions& opts = {});
// A site's compiled objects, as resources of `file` (positions: their site
// elements, as resource_of gives them).
KueueConfig build_kueue_config(const std::vector<Object>& objects, const std::string& file);

}  // namespace queueforge::model
