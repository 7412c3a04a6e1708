#pragma once
// Sample workloads for the simulator: real job manifests (batch/v1 Job,
// JobSet, Kubeflow training jobs, RayJob, RayCluster, plain Pods) and a site's
// `workloads:` section, turned into the Kueue Workload objects Kueue's job
// integrations would create (kueue-semantics.md section 4.1 and 1.10).
#include <queueforge/diagnostics.hpp>
#include <queueforge/resource.hpp>
#include <queueforge/site.hpp>

#include <optional>
#include <string>
#include <vector>

namespace queueforge::jobs {

// What the conversion needs to know about the cluster: LocalQueues (for the
// namespace's default queue `default`), WorkloadPriorityClasses and
// PriorityClasses (priority values).
struct ClusterContext {
    std::vector<const Resource*> local_queues;
    std::vector<const Resource*> priority_classes;       // kueue.x-k8s.io WorkloadPriorityClass
    std::vector<const Resource*> k8s_priority_classes;   // scheduling.k8s.io PriorityClass
};
ClusterContext cluster_context(const std::vector<Resource>& all);

// True for the kinds converted below.
bool is_job(const Resource& r);

// One Workload (apiVersion kueue.x-k8s.io/v1beta2, kind Workload) per job,
// positions kept from the job manifest. Jobs without a queue (no
// kueue.x-k8s.io/queue-name label and no LocalQueue `default` in their
// namespace) are reported (warning "jobs.no-queue") and skipped, as Kueue
// ignores them. Malformed jobs are errors with positions ("jobs.invalid").
std::vector<Resource> workloads_from_jobs(const std::vector<Resource>& jobs, const ClusterContext& ctx,
                                          Diagnostics& diags);

// A site's sample workloads: inline podSets become Workloads directly; `file`
// references are read relative to `site_dir` (never outside it: absolute
// paths, `..` and symlinks that leave the folder are errors) and converted as
// above. `creationTimestamp`s follow the order of the section.
struct SampleWorkload {
    Resource workload;
    const site::Workload* sample = nullptr;  // the site entry (expectations), if any
};
std::vector<SampleWorkload> workloads_from_site(const site::Site& s, const std::string& site_dir,
                                                const ClusterContext& ctx, Diagnostics& diags);

}  // namespace queueforge::jobs
