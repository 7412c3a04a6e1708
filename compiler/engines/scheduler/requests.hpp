#pragma once
// From a podSet's pod template to Kueue's per-podset request totals
// (kueue-semantics.md 4.2-4.4; pkg/workload/resources.go AdjustResources,
// ValidateResources, ValidateLimitRange; pkg/util/limitrange; Kubernetes'
// resourcehelpers.PodRequests; pkg/workload/workload.go
// totalRequestsFromPodSets).
#include "engines/scheduler/model.hpp"
#include "engines/scheduler/parse_util.hpp"

#include <map>
#include <string>
#include <vector>

namespace queueforge::scheduler::detail {

using ResourceList = std::map<std::string, Quantity>;

// limitrange.Summarize over the LimitRanges of one namespace.
struct LimitRangeItem {
    bool found = false;
    ResourceList max, min, dflt, default_request;
};
struct LimitRangeSummary {
    LimitRangeItem container, pod;
    bool any = false;  // the namespace has LimitRange objects at all
};

void add_limit_range(const Reader& rd, const Node& spec, LimitRangeSummary& s);

struct PodSetRequests {
    // The pod's own requests (limits as requests, LimitRange defaults,
    // overhead): resources.NewRequestsFromPodSpec on the adjusted template,
    // what topology-aware placement reads.
    ResourceList pod;
    ResourceList per_pod;  // aggregated per-pod requests after 4.4 steps 1-2
    Requests total;        // int64 totals for `count` pods
};

// Computes the requests of podSet `index` (template spec `spec`) for `count`
// pods and appends field errors to `invalid` (requests > limits) and
// `limit_range` (LimitRange min/max), formatted as Kueue's field errors.
PodSetRequests podset_requests(const Reader& rd, const Node* spec, int index, std::int32_t count,
                               const LimitRangeSummary* lr, const Config& cfg, Model& m,
                               std::vector<std::string>& invalid, std::vector<std::string>& limit_range);

// A field.ErrorList as utilerrors.Aggregate prints it.
std::string aggregate_errors(const std::vector<std::string>& errs);

}  // namespace queueforge::scheduler::detail
