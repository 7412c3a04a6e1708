#pragma once
// Kueue's quota tree (kueue-semantics.md 5.4.1) read from ClusterQueue and
// Cohort objects: one node per queue and per cohort (implicit ones included),
// one column per (flavor, resource) anywhere in the tree.
#include <queueforge/engines/capacity.hpp>
#include <queueforge/model/cluster.hpp>
#include <queueforge/base/object.hpp>

#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace queueforge::capacity {

struct FlavorResource {
    std::string flavor;
    std::string resource;
};

struct Limits {
    bool present = false;  // the node's spec names this flavor and resource
    Amount nominal;
    std::optional<Amount> borrowing_limit, lending_limit;
};

struct TreeNode {
    std::string name;
    bool cluster_queue = false;
    bool has_object = true;
    bool in_cycle = false;
    int parent = -1;
    std::vector<int> children;       // cohorts first, then queues, each by name
    std::string team;                // queueforge.io/team of a ClusterQueue
    std::string reclaim_within_cohort = "Never";
    std::vector<int> spec_order;     // column ids in the order the spec lists them
    std::vector<Limits> limits;      // by column id
    // Results of compute_tree, by column id.
    std::vector<bool> subtree_present;
    std::vector<Amount> subtree_nominal, subtree_quota, local_quota, potential;
    int depth = 0;
};

struct QuotaTree {
    std::vector<FlavorResource> columns;
    std::vector<TreeNode> nodes;
    std::vector<int> roots;  // by kind (cohorts first) then name
    std::map<std::string, int> cohorts;  // name -> node
    std::map<std::string, int> queues;   // name -> node
};

// Reads the ClusterQueues and Cohorts among `objects` and computes every
// node's SubtreeQuota, localQuota and potentialAvailable. Cohort cycles are
// broken at their first member by name (marked in_cycle).
QuotaTree build_tree(const std::vector<Object>& objects);
// The same from the typed model.
QuotaTree build_tree(const model::Cluster& cluster);

}  // namespace queueforge::capacity
