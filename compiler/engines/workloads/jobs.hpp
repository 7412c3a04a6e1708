#pragma once
// Shared by the job integrations in compiler/engines/workloads: label keys, Node access,
// positioned findings about one job, and what an integration produces.
#include <queueforge/base/node_read.hpp>
#include <queueforge/engines/workloads.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace queueforge::workloads::detail {

// The bounds of a Go int32 (replicas, counts and parallelism are int32 in the
// APIs a job manifest is read by).
inline constexpr std::int64_t kInt32Max = 2147483647;
inline constexpr std::int64_t kInt32Min = -kInt32Max - 1;

// Job-side keys (kueue-semantics.md 1.10; pkg/controller/constants,
// pkg/controller/jobs/pod/constants, pkg/workloadslicing in Kueue).
inline constexpr std::string_view kQueueLabel = "kueue.x-k8s.io/queue-name";
inline constexpr std::string_view kPriorityLabel = "kueue.x-k8s.io/priority-class";
inline constexpr std::string_view kMaxExecLabel = "kueue.x-k8s.io/max-exec-time-seconds";
inline constexpr std::string_view kMinParallelismAnnotation = "kueue.x-k8s.io/job-min-parallelism";
inline constexpr std::string_view kElasticAnnotation = "kueue.x-k8s.io/elastic-job";
inline constexpr std::string_view kPodGroupName = "kueue.x-k8s.io/pod-group-name";  // annotation or label
inline constexpr std::string_view kPodGroupTotalCount = "kueue.x-k8s.io/pod-group-total-count";
inline constexpr std::string_view kPodGroupFastAdmission = "kueue.x-k8s.io/pod-group-fast-admission";
inline constexpr std::string_view kRoleHashAnnotation = "kueue.x-k8s.io/role-hash";
inline constexpr std::string_view kIsGroupWorkload = "kueue.x-k8s.io/is-group-workload";
inline constexpr std::string_view kComponentIndex = "kueue.x-k8s.io/component-workload-index";
inline constexpr std::string_view kJobUidLabel = "kueue.x-k8s.io/job-uid";
inline constexpr std::string_view kProvReqPrefix = "provreq.kueue.x-k8s.io/";
inline constexpr std::string_view kDefaultQueueAnnotation = "kueue.x-k8s.io/default-queue";
inline constexpr std::string_view kDefaultName = "default";  // default LocalQueue and WPC name

// Node access is <queueforge/base/node_read.hpp>'s: `present` returns a map's
// value unless it is absent or null, `text` a non-null scalar's text.
using queueforge::present;
using queueforge::text;
const Node* meta_field(const Node& doc, std::string_view map, std::string_view key);  // metadata.<map>.<key>
inline const Node* label(const Node& doc, std::string_view key) { return meta_field(doc, "labels", key); }
inline const Node* annotation(const Node& doc, std::string_view key) { return meta_field(doc, "annotations", key); }
std::string namespace_of(const Resource& r);  // "default" when unset
std::string lower(std::string_view s);

// Findings about one job (or site sample), at positions in its manifest.
class Reporter {
public:
    Reporter(const Resource& job, Diagnostics& diags) : job_(job), diags_(diags) {}
    const Resource& job() const { return job_; }
    const Node& doc() const { return job_.doc; }
    // The same sink, about another object (members of a pod group).
    Reporter about(const Resource& other) const { return Reporter(other, diags_); }
    // Error "jobs.invalid": Kueue's (or the job operator's) webhook would
    // refuse the job, or Kueue could not build its Workload.
    void invalid(const Node* at, const std::string& path, const std::string& message) const;
    void report(Severity s, const std::string& rule, const Node* at, const std::string& path,
                const std::string& message) const;
    std::size_t errors() const { return diags_.count(Severity::Error); }

private:
    const Resource& job_;
    Diagnostics& diags_;
};

// Label keys Kueue's integrations name as a topology request's podIndexLabel
// and subGroupIndexLabel (pkg/controller/jobs/*, PodSets).
inline constexpr std::string_view kJobCompletionIndexLabel = "batch.kubernetes.io/job-completion-index";
inline constexpr std::string_view kJobSetJobIndexLabel = "jobset.sigs.k8s.io/job-index";
inline constexpr std::string_view kKubeflowReplicaIndexLabel = "training.kubeflow.org/replica-index";
inline constexpr std::string_view kLwsWorkerIndexLabel = "leaderworkerset.sigs.k8s.io/worker-index";
inline constexpr std::string_view kPodGroupPodIndexLabel = "kueue.x-k8s.io/pod-group-pod-index";
inline constexpr std::string_view kStatefulSetPodIndexLabel = "apps.kubernetes.io/pod-index";

// Where a podSet's Topology-Aware Scheduling annotations are read and what
// the integration adds to its topology request (topology_request.cpp).
struct TasSource {
    // The metadata whose annotations carry the request, in the manifest;
    // nullptr: the podSet template's own (integrations that keep it).
    const Node* meta = nullptr;
    // Kueue's field path of that metadata in the webhook's messages
    // ("spec.template.metadata"); empty when no webhook checks it.
    std::string path;
    std::optional<std::string> pod_index_label;
    std::optional<std::string> sub_group_index_label;
    std::optional<std::int64_t> sub_group_count;
};

struct PodSet {
    std::string name;
    const Node* name_at = nullptr;  // where the name comes from, for messages
    std::int64_t count = 1;
    std::optional<std::int64_t> min_count;
    Node tmpl;  // PodTemplateSpec, marks kept from the manifest
    Mark mark;  // the podSet's origin (replica spec, worker group, ...)
    TasSource tas;
    std::optional<Node> topology_request;  // set by apply_topology_requests
};

// Which of Kueue's topology checks the integration's webhook runs.
struct TasChecks {
    // Webhook: ValidateTASPodSetRequest on every podSet, then (when every
    // request builds) the slice-size bound and groups. AfterPodSets: the
    // webhook builds the podSets first and returns the build error alone
    // (JobSet, MPIJob, SparkApplication, TrainJob). None: no webhook check,
    // only the build error (AppWrapper).
    enum class Mode { Webhook, AfterPodSets, None } mode = Mode::Webhook;
    bool slice_bound = true;     // ValidateSliceSizeAnnotationUpperBound
    bool groups = false;         // ValidatePodSetGroupingTopology
    // batch Job (job_webhook.go validateTopologyRequest): required / preferred
    // refused on elastic jobs, and the first failing step's errors alone.
    bool job_webhook = false;
    std::string detail_suffix;   // appended to each message (TrainJob)
};

// What an integration makes of one job.
struct Built {
    // Set by the caller before the build: the input set's cluster objects,
    // for integrations that read them (a TrainJob's runtime).
    const ClusterContext* cluster = nullptr;
    std::vector<PodSet> pod_sets;
    // Kubeflow jobs and MPIJob name the PriorityClass themselves
    // (jobframework.JobWithPriorityClass): when `custom_priority` is set,
    // `priority_class` replaces the scan of the podSet templates, even when
    // empty (then the globalDefault PriorityClass applies).
    bool custom_priority = false;
    std::string priority_class;
    const Node* priority_class_at = nullptr;
    std::string workload_name;  // set by integrations that do not use <kind>-<name> (pod groups)
    bool group = false;         // pod group: annotated, no job-uid label
    // Integrations whose object stands for several Workloads of the same
    // podSets (one per component: a LeaderWorkerSet's groups) set how many;
    // 0 is none. Component i is named <kind>-<name>-<i> and annotated
    // kueue.x-k8s.io/component-workload-index: i. Unset: one Workload.
    std::optional<std::int64_t> components;
    // Set when each component is one of the object's Pods (a Deployment's
    // replicas): component i is named <component_kind>-<name>-<i> and, being
    // the Pod's Workload, has no job-uid label, owner reference nor component
    // index annotation.
    std::string component_kind;
    // The kueue.x-k8s.io/priority-class label the pods carry when the object
    // itself has none (a Deployment's pod template): it applies unless the
    // WorkloadPriorityClass `default` is given to the object first.
    const Node* pod_priority_label = nullptr;
    // Further annotations of every Workload the object yields, in order.
    std::vector<std::pair<std::string, std::string>> annotations;
    TasChecks tas;
};

using BuildFn = bool (*)(const Reporter&, Built&);

// Integrations (one file each, listed in integrations.def). Each fills `out`
// and returns false after reporting "jobs.invalid".
#define QF_INTEGRATION(api_version, kind, build, elastic) bool build(const Reporter& rep, Built& out);
#include "engines/workloads/integrations.def"
#undef QF_INTEGRATION
// A pod group spans several Pods; `rep` is about the first one.
bool build_pod_group(const std::vector<const Resource*>& pods, const Reporter& rep, Built& out);
// A RayClusterSpec's podSets (ray.cpp): head, then one per worker group;
// shared by RayCluster, RayJob and RayService. `path` is the spec's.
bool ray_cluster_pod_sets(const Reporter& rep, const Node& cluster, const std::string& path, Built& out);
// Kueue's role hash of a pod spec (role_hash.cpp): 8 hex digits of the
// SHA-256 of role_shape_json, Go's encoding of {"spec": SpecShape(spec)}.
std::string role_shape_json(const Node& pod_spec);
std::string role_hash(const Node& pod_spec);
// The group a Pod belongs to ("" for a plain Pod): the annotation, then the
// label (gate WorkloadIdentifierAnnotations, on since 0.18).
std::string pod_group_name(const Resource& pod);

// Topology-aware scheduling (topology_request.cpp; Kueue jobframework/tas.go
// and tas_validation.go). A finding about the annotations: where, Kueue's
// field path ("" for a build error) and message.
struct TasError {
    const Node* at = nullptr;
    std::string path;
    std::string message;
};
struct TasBuild {
    std::optional<Node> request;  // nullopt: no topologyRequest
    std::optional<TasError> error;
};
// podSetTopologyRequestBuilder.Build: the podSet's topologyRequest node
// (fields in Kueue's JSON order) from the template `annotations` and the
// integration's labels in `src`, or Kueue's build error.
TasBuild build_topology_request(const Node* annotations, const TasSource& src, Mark mark);
// ValidateTASPodSetRequest for the metadata at `meta_path`.
std::vector<TasError> validate_topology_annotations(const Node* annotations, const std::string& meta_path);
// ValidateSliceSizeAnnotationUpperBound against the podSet's count.
std::vector<TasError> validate_slice_size_bound(const Node* annotations, const std::string& meta_path, std::int64_t count);
// ValidatePodSetGroupingTopology over podSets whose requests are built.
std::vector<TasError> validate_podset_groups(const std::vector<const PodSet*>& pod_sets);
// Builds every podSet's topologyRequest and runs the checks `b.tas` names;
// reports "jobs.invalid" and returns false when Kueue would refuse the job or
// fail to build its Workload.
bool apply_topology_requests(const Reporter& rep, Built& b);

struct Integration {
    std::string_view api_version;
    std::string_view kind;
    BuildFn build;
    bool elastic;  // accepts kueue.x-k8s.io/elastic-job (jobframework/validation.go supportedElasticJobGVKs)
};
const Integration* find_integration(const Resource& r);

// kueue.x-k8s.io/elastic-job: "true" (gate ElasticJobsViaWorkloadSlices, on since 0.18).
bool elastic(const Node& doc);

// Helpers for integrations.
// An optional integer field of `parent`: `fallback` when absent or null; an
// error when not an int32 or below `min` (then nullopt).
std::optional<std::int64_t> read_int(const Reporter& rep, const Node* parent, std::string_view key,
                                     const std::string& path, std::int64_t fallback, std::int64_t min = 0);
// Go's strconv.Atoi on a label or annotation value (optional sign, decimal).
std::optional<std::int64_t> parse_int(std::string_view s);
// `parent.<key>`, which must be a map (PodTemplateSpec); nullptr after an
// error. `path` is the parent's.
const Node* read_template(const Reporter& rep, const Node* parent, const std::string& path,
                          std::string_view key = "template");
// Whether the pod template `tmpl` (at spec.template) is marked by another
// framework's webhook (podconstants.SuspendedByParentAnnotation, value other
// than `framework`): its pods are admitted through that parent's Workloads,
// so `kind` (the Deployment, the StatefulSet) has none; reported as
// jobs.not-managed.
bool suspended_by_other_parent(const Reporter& rep, const Node* tmpl, std::string_view framework, std::string_view kind);
// The spec, pod template and replicas (the API server's default 1) of a
// workload API object whose pods Kueue admits one by one (a Deployment, a
// StatefulSet: `kind`, framework `framework`); nullopt after an error or when
// its template belongs to another framework's parent.
struct ReplicatedPods {
    const Node* spec = nullptr;
    const Node* tmpl = nullptr;
    std::int64_t replicas = 1;
};
std::optional<ReplicatedPods> read_replicated_pods(const Reporter& rep, std::string_view kind, std::string_view framework);
// podSet `main` of `count` pods whose template is `tmpl`'s pod spec alone
// (constructPodSet), with its topology request read from the template's
// metadata at spec.template.metadata and `pod_index_label`; the Pods'
// webhook checks it, so the slice size is not bounded.
void add_template_pod_set(Built& out, const Node* tmpl, std::int64_t count, std::string_view pod_index_label);
// A podSet name: lowercased (kueue.NewPodSetReference) and checked as a DNS
// label, as the Workload API requires; "" after an error.
std::string pod_set_name(const Reporter& rep, std::string_view raw, const Node* at, const std::string& path);
// Checks what the Workload API enforces on the podSets: 1..18, unique names,
// int32 counts.
bool check_pod_sets(const Reporter& rep, const Built& b, const Node* at, const std::string& path);

// Cluster lookups (context.cpp).
const Resource* find_local_queue(const ClusterContext& ctx, const std::string& ns, const std::string& name);
const Resource* find_wpc(const ClusterContext& ctx, const std::string& name);
const Resource* find_priority_class(const ClusterContext& ctx, const std::string& name);
const Resource* global_default_priority_class(const ClusterContext& ctx);
// The LocalQueue the namespace marks with kueue.x-k8s.io/default-queue: "true",
// when exactly one does.
const Resource* annotated_default_queue(const ClusterContext& ctx, const std::string& ns);

// Priority resolution (kueue-semantics.md 1.10; jobframework.ExtractPriority).
struct Priority {
    std::int64_t value = 0;
    std::string group, kind, name;  // priorityClassRef; empty name = none
    Mark mark;
};
// `wpc` is the kueue.x-k8s.io/priority-class label (or the site's
// priorityClass), `at` its node. Returns nullopt after a warning when Kueue
// creates no Workload (class not found).
std::optional<Priority> resolve_priority(const ClusterContext& ctx, const Reporter& rep, const std::string& wpc,
                                         const Node* at, const Built& b);

// What the common Workload skeleton needs besides the podSets.
struct WorkloadHead {
    std::string name;
    std::string namespace_;
    std::string queue;
    Mark queue_mark;
    Priority priority;
    std::optional<std::int64_t> max_exec_seconds;
    Mark max_exec_mark;
    // Used when the job has no metadata.creationTimestamp of its own.
    std::string creation_timestamp;
    Mark creation_mark;
    std::optional<std::int64_t> component;  // Built::components: this Workload's index
};
// The Workload object (workload_builder.cpp): metadata copied from the job
// (creationTimestamp, uid, job-uid label, owner reference, provisioning
// request and elastic annotations), spec from `head` and `b`.
Resource make_workload(const Resource& job, const WorkloadHead& head, Built b);

}  // namespace queueforge::workloads::detail
