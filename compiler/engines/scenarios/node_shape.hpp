#pragma once
// Beyond Kueue: quota admits a podset without looking at nodes, so an 8-GPU
// pod can be admitted on a flavor whose nodes have 4 GPUs each and then never
// schedule. With node pools (a site) or Node objects, check each admitted
// pod against the largest node of its flavor, and each podset against the
// flavor's total capacity.
#include <queueforge/frontend/manifests.hpp>
#include <queueforge/engines/scenarios.hpp>
#include <queueforge/frontend/site.hpp>

#include <vector>

namespace queueforge::scenarios {

struct NodeShape {
    std::string flavor;
    std::vector<std::pair<std::string, Quantity>> allocatable;  // one node
    std::int64_t count = 1;
};

// Nodes per flavor: a site's pools (nodes x allocatable) and Node objects
// whose labels match a ResourceFlavor's nodeLabels.
std::vector<NodeShape> node_shapes(const std::vector<const site::Site*>& sites, const std::vector<Resource>& objects);

// Fills node_shape_problem / alone_node_shape of every sample admitted
// together or alone.
void check_node_shapes(Report& report, const std::vector<NodeShape>& shapes);

}  // namespace queueforge::scenarios
