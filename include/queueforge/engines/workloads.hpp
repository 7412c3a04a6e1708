#pragma once
// Sample workloads for the simulator: real job manifests (batch/v1 Job,
// JobSet, Kubeflow training jobs, RayJob, RayCluster, plain Pods,
// LeaderWorkerSets, StatefulSets) and a site's
// `workloads:` section, turned into the Kueue Workload objects Kueue's job
// integrations would create (kueue-semantics.md section 4.1 and 1.10).
#include <queueforge/base/diagnostics.hpp>
#include <queueforge/base/object.hpp>
#include <queueforge/frontend/manifests.hpp>
#include <queueforge/frontend/site.hpp>

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace queueforge::workloads {

// What the conversion needs to know about the cluster: LocalQueues (for the
// namespace's default queue `default`), WorkloadPriorityClasses and
// PriorityClasses (priority values). The pointers borrow from the vector given
// to cluster_context, which must outlive the context.
struct ClusterContext {
    std::vector<const Resource*> local_queues;
    std::vector<const Resource*> priority_classes;       // kueue.x-k8s.io WorkloadPriorityClass
    std::vector<const Resource*> k8s_priority_classes;   // scheduling.k8s.io PriorityClass
    std::vector<const Resource*> training_runtimes;      // trainer.kubeflow.org (Cluster)TrainingRuntime
};
ClusterContext cluster_context(const std::vector<Resource>& all);

// True for the kinds converted below: batch/v1 Job, jobset.x-k8s.io/v1alpha2
// JobSet, kubeflow.org/v1 PyTorchJob, TFJob, XGBoostJob, PaddleJob and
// JAXJob, kubeflow.org/v2beta1 MPIJob, ray.io/v1 RayCluster, RayJob and
// RayService, v1 Pod, leaderworkerset.x-k8s.io/v1 LeaderWorkerSet, apps/v1
// StatefulSet and Deployment, trainer.kubeflow.org/v1alpha1 TrainJob,
// workload.codeflare.dev/v1beta2 AppWrapper, sparkoperator.k8s.io/v1beta2
// SparkApplication (compiler/engines/workloads/integrations.def).
bool is_job(const Resource& r);

// For job kinds Kueue integrates but queueforge does not convert (CronJob,
// other API versions) and OpenShift AI objects rendered into jobs (Notebook,
// InferenceService, LLMInferenceService), why; nullopt for everything else. workloads_from_jobs reports these as warnings
// ("jobs.unsupported") and skips them.
std::optional<std::string> unsupported_job_reason(const Resource& r);

// One Workload (apiVersion kueue.x-k8s.io/v1beta2, kind Workload) per job
// (per group for a LeaderWorkerSet),
// positions kept from the job manifest. Jobs without a queue (no
// kueue.x-k8s.io/queue-name label and no LocalQueue `default` in their
// namespace) are reported (warning "jobs.no-queue") and skipped, as Kueue
// ignores them. Malformed jobs are errors with positions ("jobs.invalid").
//
// Workload names are `<kind-lowercase>-<job name>` (Kueue appends "-<5 hex of
// a SHA-1 over kind, group, name and uid>", which needs the server-assigned
// uid; left out so names are stable), cut to 253 characters. A pod group's
// Workload is named after the group, as in Kueue. A LeaderWorkerSet yields one
// Workload per group i, named `leaderworkerset-<name>-<i>` (none at replicas
// 0); a StatefulSet none at replicas 0; a Deployment one single-pod Workload
// per replica i, named `pod-<name>-<i>`, without the job-uid label and owner
// reference (they are its Pods', whose uids only the cluster knows). Jobs that only have
// metadata.generateName are named generateName + their 1-based position in
// `jobs`. Jobs without a namespace are in `default`.
// metadata.creationTimestamp is the job's when it has one; otherwise see
// JobOptions (by default it is left unset and the caller orders them). A job
// uid becomes metadata.uid, the kueue.x-k8s.io/job-uid label and a controller
// owner reference; kueue.x-k8s.io/elastic-job and provreq.kueue.x-k8s.io/*
// annotations carry over as in Kueue. spec: queueName, priority (always, 0
// without a class), priorityClassRef when a class was used, podSets (templates
// copied with their positions, then each podSet's topologyRequest as Kueue's
// job framework builds it from the template's TAS annotations and the
// integration's index labels), maximumExecutionTimeSeconds. TAS annotations
// Kueue's webhooks refuse are "jobs.invalid" errors with Kueue's messages.
// Other findings: "jobs.priority-class-not-found" (warning, no Workload, as
// in Kueue), "jobs.unsupported", "jobs.not-managed" (RayJob on an existing
// cluster), "jobs.pod-group-incomplete", "jobs.ray-replicas".
std::vector<Resource> workloads_from_jobs(const std::vector<Resource>& jobs, const ClusterContext& ctx,
                                          Diagnostics& diags);

// Called on each job manifest before it is converted (simulate and check
// pass the schema validator here): false drops the job, after the check
// reported why.
using ManifestCheck = std::function<bool(const Resource&, Diagnostics&)>;

struct JobOptions {
    // RFC 3339 UTC time ("2026-01-01T00:00:00Z"). When set, a Workload whose
    // job has no creationTimestamp gets this time plus i seconds, i being the
    // job's rank in (file path, document index in the file) order -- so queue
    // order never depends on the order the paths were given in.
    std::string fallback_epoch;
    ManifestCheck check;  // empty: no check
};
std::vector<Resource> workloads_from_jobs(const std::vector<Resource>& jobs, const ClusterContext& ctx,
                                          Diagnostics& diags, const JobOptions& opts);

// A site's sample workloads: inline podSets become Workloads directly; `file`
// references are read relative to `site_dir` (never outside it: absolute
// paths, `..` and symlinks that leave the folder are errors) and converted as
// above. `creationTimestamp`s follow the order of the section.
struct SampleWorkload {
    Resource workload;
    const site::Workload* sample = nullptr;  // the site entry (expectations), if any
};
//
// Sample i (0-based, section order) gets creationTimestamp kSampleEpoch + i
// seconds, also when it comes from a manifest with its own timestamp, so the
// section order is the queue order. Inline samples are named as written
// (no kind prefix), default to namespace `default` and podSet `main` with
// count 1. The queue is `queue`, else (file) the manifest's queue-name label,
// else the namespace's LocalQueue `default`, else the one LocalQueue of the
// namespace annotated kueue.x-k8s.io/default-queue: "true" (what queueforge
// writes for the CodeFlare SDK; a note says Kueue itself would ignore such a
// file job). `priorityClass` names a WorkloadPriorityClass (the
// kueue.x-k8s.io/priority-class label). For `file`, the entry's name,
// namespace, queue and priorityClass replace the manifest's metadata.name,
// metadata.namespace and labels before conversion, and the file must yield
// exactly one Workload.
std::vector<SampleWorkload> workloads_from_site(const site::Site& s, const std::string& site_dir,
                                                const ClusterContext& ctx, Diagnostics& diags);
// Same, and the manifest texts read are appended to `sources` (for carets);
// `check`, when given, runs on every manifest read (as written, before the
// entry's settings are laid over it) and drops the sample when it fails.
std::vector<SampleWorkload> workloads_from_site(const site::Site& s, const std::string& site_dir,
                                                const ClusterContext& ctx, Diagnostics& diags,
                                                std::vector<SourceText>& sources, const ManifestCheck& check = {});


inline constexpr const char* kSampleEpoch = "2026-01-01T00:00:00Z";

// A compiled site's objects as Resources (file = `file`), e.g. to build the
// ClusterContext its samples are converted against.
std::vector<Resource> resources_from_objects(const std::vector<Object>& objects, const std::string& file);

// `epoch` ("YYYY-MM-DDTHH:MM:SSZ") plus `seconds`, in the same form; nullopt
// when `epoch` is not of that form.
std::optional<std::string> timestamp_plus(std::string_view epoch, std::int64_t seconds);

}  // namespace queueforge::workloads
