#pragma once
// Placement settings of Run:ai node pools (network topology, bin packing /
// spread, DRA DeviceClasses) as the site's topologies, the pools' topology
// and the deviceClassMappings of Kueue's configuration; placement.cpp says
// what each becomes and why.
#include <queueforge/integrations/runai.hpp>

#include <map>
#include <string>
#include <vector>

namespace queueforge::importer::runai::detail {

struct Placement {
    Node topologies = Node::sequence();      // spec.topologies (empty: none)
    std::map<std::string, Node> pool_topology;  // pool name -> {name, shape}
    std::map<std::string, std::vector<FidelityItem>> pool_items;  // by node pool
    std::vector<FidelityItem> organization_items;
    // deviceClassMappings for spec.kueueConfig / spec.kueueOperator (empty:
    // none, or the target cannot count DRA devices).
    Node device_class_mappings = Node::sequence();
};

Placement placement(const Organization& org, const std::string& target);

}  // namespace queueforge::importer::runai::detail
