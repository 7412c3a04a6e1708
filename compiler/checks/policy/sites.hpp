#pragma once
// Sites among the inputs, compiled so that policies see what they render --
// and their pools as Node objects, as validate_all builds them for its
// capacity check.
#include <queueforge/frontend/manifests.hpp>
#include <queueforge/frontend/platform.hpp>

#include <optional>
#include <vector>

namespace queueforge::policy {

bool is_site(const Resource& r);

// A cluster's objects and the target it runs.
struct ClusterInput {
    std::vector<Resource> objects;
    std::optional<Target> target;
};

// A site's rendered objects (positioned at the site elements they come from)
// and pool Nodes; nullopt when it does not compile. The compile problems were
// reported by validate_all already, so they are dropped here.
std::optional<ClusterInput> render_site(const Resource& site, const std::optional<Target>& target);

}  // namespace queueforge::policy
