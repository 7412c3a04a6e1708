#pragma once
// Run:ai's fair share: the proportion plugin of the KAI scheduler (NVIDIA's
// open-sourced Run:ai scheduler), as its source implements it at
// github.com/NVIDIA/KAI-Scheduler commit 72de64fc8eca10fa8cca26a20156178f3edbe092,
// pkg/scheduler/plugins/proportion/resource_division/resource_division.go and
// proportion.go (setFairShareForQueues):
//
//  1. every queue gets min(deserved, requestable) (requestable = request capped
//     by maxAllowed; deserved -1 = the whole amount);
//  2. what is left is divided over quota by priority, highest first: among
//     the unsatisfied queues of one priority, in rounds, each gets
//     floor(left * w / sum w) where w = max(0, nw + k (nw - usage)) and nw is
//     its over-quota weight normalised over the unsatisfied queues; a queue
//     of weight 0 gets nothing over quota;
//  3. the fractions that the rounding kept back go one unit at a time to the
//     queues with the largest kept-back fraction (ties: created first);
//  4. a department's fair share is then divided among its projects the same
//     way (a tree: parents first, children share the parent's fair share).
//
// One resource at a time; the caller runs it per node pool (Run:ai's quota is
// per node pool and the scheduler divides each pool on its own).
#include <cstddef>
#include <string>
#include <vector>

namespace queueforge::fairshare {

inline constexpr double kUnlimited = -1;  // commonconstants.UnlimitedResourceQuantity

struct Share {
    double deserved = 0;
    double max_allowed = kUnlimited;
    double over_quota_weight = 1;
    double request = 0;  // what the queue (and, for a parent, its children) asks for
    double usage = 0;    // historical usage normalised to the cluster (0 without history)
    double fair_share = 0;  // the result (added to: start at 0)

    // GetRequestableShare: request capped by maxAllowed.
    double requestable() const;
};

struct Queue {
    std::string name;
    int parent = -1;     // index of the parent queue in the vector, -1 for a top queue
    int priority = 100;  // KAI's default queue priority; over quota goes to higher first
    Share share;
};

// setResourceShare for sibling queues (vector order = creation order, which
// breaks ties): deserved first, then over quota. Returns what is left.
double set_resource_share(double total, double k_value, std::vector<Queue*>& queues);

// divideOverQuotaResource alone (the fair shares already hold deserved).
double divide_over_quota(double total, double k_value, std::vector<Queue*>& queues);

// The whole tree: the top queues share `total`, every parent's fair share is
// divided among its children. A parent's request is the sum of its children's
// requests (proportion.go adds each job's request to every ancestor), set here
// when `sum_requests` is true; otherwise the requests are taken as given.
void divide_tree(double total, double k_value, std::vector<Queue>& queues, bool sum_requests = true);

}  // namespace queueforge::fairshare
