#pragma once
// The steps of diff::compare, one file each.
#include <queueforge/integrations/diff.hpp>

namespace queueforge::diff::detail {

void diff_objects(const std::vector<Object>& base, const std::vector<Object>& head, Review& r);

// Samples and running workloads simulated on both sides; what changed.
void diff_admissions(const std::vector<std::string>& base_paths, const std::vector<std::string>& head_paths,
                     const Options& opts, Review& r, Diagnostics& diags);

// Removed ClusterQueues / ResourceFlavors still used by running workloads.
void find_blocked_deletions(const std::vector<Resource>& running, Review& r);

// Nominal quotas the change sets below the running workloads' usage.
void find_quota_below_usage(const std::vector<Resource>& running, Review& r);

}  // namespace queueforge::diff::detail
