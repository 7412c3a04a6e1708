#pragma once
// Kueue's quota tree, the one implementation: ClusterQueues and Cohorts as
// nodes (pkg/cache/hierarchy), each node's own quotas and the static figures
// of pkg/cache/scheduler/resource_node.go, in Kueue's int64 amounts
// (model/amount.hpp: milli-units for cpu, units rounded up otherwise):
//
//   SubtreeQuota(cq)     = nominal
//   SubtreeQuota(cohort) = own nominal + sum over children (SubtreeQuota - localQuota)
//   localQuota(n)        = lendingLimit set ? max(0, SubtreeQuota - lendingLimit) : 0
//   potentialAvailable   = root: SubtreeQuota; else localQuota + potentialAvailable(parent),
//                          capped at SubtreeQuota + borrowingLimit when that is set
//
// (kueue-semantics.md 5.4.1). The scheduler adds usage on top of it
// (engines/scheduler/quota.cpp); capacity reports it (engines/capacity).
//
// The tree is Kueue's view of the cohort hierarchy: a cohort whose parent
// chain runs into a cycle (hierarchy.HasCycle) is detached from its parent,
// and so are the ClusterQueues under it (Kueue keeps them out of the
// scheduler's snapshot: they admit nothing). Cohorts deeper than `max_depth`
// are detached the same way (Kueue has no limit, but a chain thousands deep is
// no configuration anyone runs, and walking it must not cost the stack).
#include <queueforge/model/amount.hpp>
#include <queueforge/model/cluster.hpp>
#include <queueforge/model/flat_map.hpp>

#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace queueforge::model {

// One quota entry (createResourceQuotas): amounts in Kueue's unit.
struct Quota {
    Amount nominal = 0;
    std::optional<Amount> borrowing_limit;
    std::optional<Amount> lending_limit;
    friend bool operator==(const Quota&, const Quota&) = default;
};

struct QuotaNode {
    std::string name;
    bool is_cq = false;
    int index = -1;    // into Cluster::cluster_queues (is_cq) or Cluster::cohorts
    int parent = -1;   // node id in Kueue's view (-1: a root or detached)
    // Cohort: its parent chain runs into a cycle (HasCycle) or is deeper than
    // the limit (too_deep); either detaches it. ClusterQueue: its cohort is
    // such a cohort, which detaches the queue (snapshot reason HasCycle).
    bool has_cycle = false;
    bool too_deep = false;
    FlatMap<Quota> quotas;       // own resourceGroups, by flavor/resource id (a repeated entry: the last)
    std::vector<int> fr_order;   // own flavor/resource ids in spec order, each once
    FlatMap<Amount> subtree;     // SubtreeQuota
    FlatMap<Amount> local;       // localQuota, where a lendingLimit is set
    FlatMap<Amount> potential;   // potentialAvailable, for every id of the node's chain
    std::vector<int> children;   // every child (any queue status), by name
    int depth = 0;               // before detaching: 0 for a root of the declared tree

    Amount local_quota(int fr) const { return local.get(fr); }
    Amount potential_available(int fr) const { return potential.get(fr); }
};

// How the caller numbers resources, flavors and (flavor, resource) pairs. The
// builder asks in the order Kueue's reader meets the names: per node (Cohort
// objects, then ClusterQueues, each in the cluster's order), per resource
// group its coveredResources, then per flavor its name and per quota its
// resource and pair.
class QuotaIds {
public:
    virtual ~QuotaIds() = default;
    virtual int resource(const std::string& name) = 0;
    virtual int flavor(const std::string& name) = 0;
    virtual int flavor_resource(int flavor, int resource) = 0;
};

// The plain numbering: first mention first.
class QuotaColumns : public QuotaIds {
public:
    int resource(const std::string& name) override;
    int flavor(const std::string& name) override;
    int flavor_resource(int flavor, int resource) override;

    std::vector<std::string> resources, flavors;
    std::vector<std::pair<int, int>> pairs;  // id -> (flavor, resource)
    const std::string& flavor_of(int fr) const { return flavors[pairs[fr].first]; }
    const std::string& resource_of(int fr) const { return resources[pairs[fr].second]; }

private:
    std::map<std::string, int> resource_ids_, flavor_ids_;
    std::map<std::pair<int, int>, int> pair_ids_;
};

struct QuotaTree {
    // Cohort objects (cluster order), ClusterQueues (cluster order), then the
    // implicit cohorts (cluster order).
    std::vector<QuotaNode> nodes;
    std::vector<int> cq_node;      // Cluster::cluster_queues index -> node
    std::vector<int> cohort_node;  // Cluster::cohorts index -> node
    std::vector<int> bottom_up;    // every node, children before their parents
    bool too_deep = false;         // some cohort was detached for depth

    int root_of(int node) const {
        while (nodes[node].parent >= 0) node = nodes[node].parent;
        return node;
    }
};

inline constexpr int kMaxCohortDepth = 1000;

QuotaTree build_quota_tree(const Cluster& cluster, QuotaIds& ids, int max_depth = kMaxCohortDepth);

}  // namespace queueforge::model
