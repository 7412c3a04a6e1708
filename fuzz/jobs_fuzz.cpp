// Job manifests (batch Job, JobSet, Kubeflow, Ray, Pods) -> Kueue Workloads,
// with the LocalQueues and priority classes of the same input as the cluster.
#include "fuzz_util.hpp"

#include <queueforge/frontend/manifests.hpp>
#include <queueforge/engines/workloads.hpp>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace queueforge;
    const std::string text = fuzz::text_of(data, size);
    LoadedResources input;
    Diagnostics diags;
    load_resources_from_text("jobs.yaml", text, input, diags);
    const auto ctx = workloads::cluster_context(input.resources);
    std::vector<Resource> jobs;
    for (const auto& r : input.resources) {
        (void)workloads::unsupported_job_reason(r);
        if (workloads::is_job(r)) jobs.push_back(r);
    }
    workloads::JobOptions opts;
    opts.fallback_epoch = "2026-01-01T00:00:00Z";
    (void)workloads::workloads_from_jobs(jobs, ctx, diags, opts);
    fuzz::require_positioned(diags, "workloads_from_jobs");
    return 0;
}
