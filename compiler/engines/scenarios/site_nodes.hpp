#pragma once
// A site's pool inventories (`pools[].topology.shape`) as Node objects.
#include <queueforge/frontend/manifests.hpp>
#include <queueforge/frontend/site.hpp>

#include <string>
#include <string_view>
#include <vector>

namespace queueforge::scenarios {

// Marks the Nodes made from a pool (the node-shape check counts the pool
// itself, not these).
inline constexpr std::string_view kSitePoolAnnotation = "queueforge.io/site-pool";

std::vector<Resource> site_nodes(const site::Site& s, const std::string& file);

}  // namespace queueforge::scenarios
