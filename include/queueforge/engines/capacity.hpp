#pragma once
// `queueforge capacity`: what a compiled site promises against what its
// nodes hold. Read from the compiled objects (the ClusterQueues and Cohorts
// Kueue will see, with shares and defaults resolved by the compiler) and the
// site's pools (nodes x allocatable), with Kueue's quota tree: the one the
// simulator schedules with (model/quota_tree.hpp, kueue-semantics.md 5.4.1),
// in Kueue's int64 amounts (cpu in milli-units, everything else in units
// rounded up), so a max burst here is what `simulate` admits:
//
//   SubtreeQuota(cq)     = nominal
//   SubtreeQuota(cohort) = own nominal + sum over children (SubtreeQuota - localQuota)
//   localQuota(n)        = lendingLimit set ? max(0, SubtreeQuota - lendingLimit) : 0
//   potentialAvailable   = root: SubtreeQuota; else localQuota + potentialAvailable(parent),
//                          capped at SubtreeQuota + borrowingLimit when that is set
//
// Per team (ClusterQueue) and (pool, resource):
//   guaranteed = Kueue's guaranteed ("local") quota: the part of nominal that
//                is never lent to the cohort, nominal - lendingLimit when
//                lendingLimit is set and 0 when it is not (all of the nominal
//                quota may be lent out while unused; reclaiming it later takes
//                preemption, see reclaimWithinCohort). A ClusterQueue without
//                a cohort lends nothing, so all of its nominal is guaranteed.
//   lendable   = nominal - guaranteed
//   max burst  = potentialAvailable: the most the queue can ever hold on that
//                flavor (Kueue's "maximum capacity" in ExceedsMaxQuota
//                messages): nominal + borrowingLimit, capped by what its
//                cohort tree can lend.
//   largest pod = min(max burst, the pool's allocatable per node): a bigger
//                pod is either never admitted or never scheduled.
// Kueue does not look at nodes: a max burst above the pool's capacity is a
// promise the nodes cannot keep, which the pools' commit ratio shows.
#include <queueforge/base/diagnostics.hpp>
#include <queueforge/lower.hpp>
#include <queueforge/model/cluster.hpp>
#include <queueforge/base/quantity.hpp>
#include <queueforge/frontend/site.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace queueforge::capacity {

// An exact amount of one resource (nano units, like Quantity). `binary`
// keeps the spelling family of the quantities it came from (Gi vs G).
struct Amount {
    int128 nanos = 0;
    bool binary = false;
    // The canonical Kubernetes spelling ("448", "8000Gi", "1500m").
    std::string str() const;
    bool zero() const { return nanos == 0; }
    friend bool operator==(const Amount& a, const Amount& b) { return a.nanos == b.nanos; }
};

// How a pool's nominal quotas compare with its capacity.
enum class Commit { Unknown, Under, Full, Over };
const char* commit_name(Commit c);  // "unknown" | "under" | "full" | "over"

struct QuotaShare {
    std::string owner;       // ClusterQueue or Cohort name
    bool cohort = false;     // the quota of a Cohort object (shared by its subtree)
    std::string team;        // the site team of a ClusterQueue ("" for cohorts)
    Amount nominal;
};

struct PoolResource {
    std::string resource;
    std::optional<Amount> per_node;  // allocatable of one node: the largest single pod that fits
    std::optional<Amount> capacity;  // nodes x per_node
    Amount nominal;                  // sum of every nominalQuota on this flavor and resource
    std::vector<QuotaShare> shares;  // who holds that nominal: teams in site order, then cohorts by name
    // nominal / capacity in 1/1000, rounded half up; nullopt when the
    // capacity is unknown or zero.
    std::optional<std::int64_t> commit_permille;
    Commit commit = Commit::Unknown;
};

struct Pool {
    std::string name;                 // the pool = its ResourceFlavor
    std::optional<std::int64_t> nodes;
    bool in_site = true;              // false: a flavor the objects use that no site pool describes
    std::vector<PoolResource> resources;  // allocatable and quota resources, Kueue's order
};

struct QuotaRow {
    std::string pool;
    std::string resource;
    Amount nominal;
    std::optional<Amount> borrowing_limit;  // nullopt = unlimited
    std::optional<Amount> lending_limit;    // nullopt = all of the nominal
    Amount guaranteed;
    Amount lendable;
    Amount max_burst;
    // The largest single pod of this team that Kueue admits and one node of
    // the pool holds: min(max burst, the pool's allocatable per node);
    // nullopt when the pool's allocatable is unknown.
    std::optional<Amount> largest_pod;
};

struct Team {
    std::string name;           // the site team (the ClusterQueue name when unlabelled)
    std::string cluster_queue;
    std::string cohort;         // "" when the queue has none
    std::string reclaim_within_cohort = "Never";
    std::vector<QuotaRow> quota;  // flavors in preference order, resources in coveredResources order
};

struct CohortRow {
    std::string pool;
    std::string resource;
    Amount own_nominal;          // the Cohort object's own quota
    Amount subtree_nominal;      // every nominal quota below and at this cohort
    Amount shared;               // Kueue's SubtreeQuota: what the subtree can share (after lending limits)
    std::optional<Amount> borrowing_limit, lending_limit;
    Amount guaranteed;           // localQuota: what the subtree never lends to its parent
    Amount max_burst;            // potentialAvailable
};

struct Cohort {
    std::string name;
    std::string parent;          // "" for a root
    bool has_object = true;      // false: implicit (named by a queue or a parent only)
    bool in_cycle = false;       // parent chain loops back (Kueue makes such queues inactive)
    int depth = 0;               // 0 for roots
    std::vector<std::string> cohorts;         // children, by name
    std::vector<std::string> cluster_queues;  // member ClusterQueues, by name
    std::vector<CohortRow> totals;            // pools in site order, resources in Kueue's order
};

struct Report {
    std::string site;
    std::string target;
    std::vector<Pool> pools;      // site order, then flavors without a pool by name
    std::vector<Team> teams;      // site order, then unlabelled ClusterQueues by name
    std::vector<Cohort> cohorts;  // depth first: roots by name, children by name
};

// The capacity view of a lowered site, read from its model (a compilation
// made with build_model). Never fails: objects it cannot read (hand-edited
// or partial) contribute what they can.
Report compute(const site::Site& site, const Lowered& lowered, model::Cluster cluster);

struct LoadOptions {
    std::string target;  // --target: replaces the site's target
};
// The quota rows of every ClusterQueue of a typed cluster, without a site
// (no pools: largest_pod stays unset), by ClusterQueue name: the figures the
// tenant view (`queues --namespace`) shows per queue.
std::vector<Team> teams_of(const model::Cluster& cluster);

// A site file (or a folder holding queueforge-site.yaml), parsed, lowered
// and measured. nullopt when the site has errors (in `diags`); `sources`
// receives the text read, for carets.
std::optional<Report> load(const std::string& path, const LoadOptions& opts, Diagnostics& diags,
                           std::vector<SourceText>& sources);

// Aligned text tables (pools, teams, cohort tree and totals).
std::string render_text(const Report& r);
// `capacity -o json`, keys in this order, amounts as canonical quantity
// strings, absent limits and unknown figures as null:
//   {apiVersion: queueforge.io/v1alpha1, kind: CapacityReport, site, target,
//    pools:   [{name, inSite, nodes, resources: [{resource, perNode, capacity, nominal,
//              commitPercent, commit: under|full|over|unknown,
//              shares: [{kind: ClusterQueue|Cohort, name, team (queues only), nominal}]}]}],
//    teams:   [{name, clusterQueue, cohort, reclaimWithinCohort, quota: [{pool, resource,
//              nominal, borrowingLimit, lendingLimit, guaranteed, lendable, maxBurst,
//              largestPod}]}],
//    cohorts: [{name, parent, object, cycle, depth, cohorts, clusterQueues, totals: [{pool,
//              resource, nominal, shared, ownNominal, borrowingLimit, lendingLimit,
//              guaranteed, maxBurst}]}]}
std::string render_json(const Report& r);

// Kueue's resource order: cpu, memory, ephemeral-storage, pods, then by name.
bool resource_less(const std::string& a, const std::string& b);

}  // namespace queueforge::capacity
