#pragma once
// A site pool's node inventory as a topology for placement: the nodes its
// `topology.shape` describes, each with the pool's node labels, taints and
// per-node allocatable, and a label per level of its Topology (values named
// after the pool, e.g. h100-block1-rack2, hostname h100-block1-rack2-n3).
#include <queueforge/engines/topology.hpp>
#include <queueforge/frontend/site.hpp>

#include <optional>

namespace queueforge::topology {

// nullopt when the pool declares no topology, names one the site does not
// declare, or its shape does not match the levels (the site's own checks
// report those). At most kMaxNodes nodes.
std::optional<TopologySpec> spec_from_site(const site::Site& s, const site::Pool& pool);

}  // namespace queueforge::topology
