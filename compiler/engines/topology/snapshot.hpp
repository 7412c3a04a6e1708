#pragma once
// Internal state of a prepared topology (see include/queueforge/engines/topology.hpp).
#include <queueforge/engines/topology.hpp>

#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

namespace queueforge::topology {

// A topology domain: one value per level from the top down to its own level.
struct Domain {
    std::vector<std::string> values;
    int level = 0;
    int parent = -1;
    std::vector<int> children;
    int leaf = -1;  // index in Snapshot::leaves when at the lowest level
    // Position of `values` in lexicographic order among the domains of the
    // same level: the final tie-break of every domain ordering.
    int rank = 0;
};

struct Leaf {
    int domain = -1;
    std::string id;  // Kueue's domain ID: the hostname, or the values joined by ','
    int node = -1;   // the node (hostname topologies only): per-node feasibility
    std::vector<std::int64_t> free;  // allocatable - non-TAS usage, per resource
    // (the placements' usage lives in the Topology, beside this shared tree)
};

struct NodeInfo {
    std::string name;
    std::map<std::string, std::string> labels;
    std::vector<Taint> taints;
};

class Snapshot {
public:
    std::string name;
    std::vector<std::string> levels;
    bool lowest_is_hostname = false;
    std::vector<Toleration> flavor_tolerations;
    std::vector<std::string> resources;  // sorted; index = position in Leaf vectors
    std::vector<Domain> domains;
    std::vector<std::vector<int>> per_level;  // domain indices per level
    std::vector<Leaf> leaves;
    std::vector<NodeInfo> nodes;
    std::unordered_map<std::string, int> leaf_by_id;
    std::vector<std::string> excluded;

    int resource_index(const std::string& r) const;
};

}  // namespace queueforge::topology
