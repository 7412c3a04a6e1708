#pragma once
// Kueue's own rules beyond the schema (kueue-semantics.md section 2: CEL rules
// and validating webhooks, natively), and the cross-object checks that today
// only show at runtime.
#include <queueforge/base/diagnostics.hpp>
#include <queueforge/frontend/manifests.hpp>
#include <queueforge/frontend/platform.hpp>

#include <optional>
#include <vector>

namespace queueforge::rules {

// Per object: rules V1-V71 that apply to its kind (ResourceFlavor,
// ClusterQueue, Cohort, LocalQueue, WorkloadPriorityClass, Workload), each
// reported with its rule id ("V24") and Kueue's wording.
void check_object(const Resource& r, Diagnostics& diags);

struct CrossOptions {
    std::optional<Target> target;  // --target: fields/kinds the target does not serve
    // Job manifests a site's workloads name that are not among the inputs:
    // the Kueue configuration's integrations must cover their kinds too.
    const std::vector<Resource>* samples = nullptr;
};

// Across the whole set: LocalQueue -> ClusterQueue exists, flavors exist,
// cohort hierarchy without cycles, namespaceSelector null / {} / not matching
// the LocalQueues' namespaces, several default queues per namespace,
// duplicate objects, what the target does not serve, quota sums vs Node
// capacity when Node objects are present; HardwareProfiles against the
// queues (hwp.*); the Kueue operator's CR or Kueue's Configuration against
// the queues and jobs (kueue-config.*).
void check_cross_objects(const std::vector<Resource>& resources, const CrossOptions& opts, Diagnostics& diags);

// The cross-object rule a set of objects fails by itself, whatever else the
// cluster holds: a cycle in the Cohort hierarchy (V45). The compile step
// runs it on what a site lowers to, next to check_object.
void check_cohort_hierarchy(const std::vector<Resource>& resources, Diagnostics& diags);

}  // namespace queueforge::rules
