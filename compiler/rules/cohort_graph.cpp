// V45: cycles in the Cohort hierarchy. The API accepts them; the scheduler
// then skips every ClusterQueue under the cycle (snapshot reason HasCycle)
// while their status keeps claiming they can admit, so nothing says why
// workloads stay pending. Reported once per cycle, at its first member in
// input order.
#include "rules/inventory.hpp"

#include <algorithm>
#include <set>

namespace queueforge::rules::detail {

namespace {

// Name -> parent name, for Cohort objects that name a parent.
std::map<std::string, std::string> parent_links(const Inventory& inv) {
    std::map<std::string, std::string> parent;
    for (const auto& [name, r] : inv.cohort_by_name)
        if (const Node* p = cohort_parent(*r)) parent[name] = p->text();
    return parent;
}

// Whether following parents from `start` enters a cycle.
bool reaches_cycle(const std::string& start, const std::map<std::string, std::string>& parent,
                   const std::set<std::string>& in_cycle) {
    std::set<std::string> visited;
    for (std::string cur = start; visited.insert(cur).second;) {
        if (in_cycle.count(cur)) return true;
        auto it = parent.find(cur);
        if (it == parent.end()) return false;
        cur = it->second;
    }
    return false;
}

}  // namespace

void check_cohort_cycles(const Inventory& inv, Diagnostics& diags) {
    const auto parent = parent_links(inv);
    std::set<std::string> reported;
    for (const Resource* co : inv.cohorts) {
        // Walk up from this cohort; the walk closes a cycle when it comes
        // back to a name already on the path.
        std::vector<std::string> path;
        std::string cur = co->ref.name;
        bool closed = false;
        while (true) {
            if (std::find(path.begin(), path.end(), cur) != path.end()) {
                closed = true;
                break;
            }
            path.push_back(cur);
            auto it = parent.find(cur);
            if (it == parent.end()) break;  // reached a root
            cur = it->second;
        }
        if (!closed || cur != co->ref.name) continue;  // no cycle, or only one above this cohort
        auto loop_start = path.begin();
        std::vector<std::string> cycle(loop_start, path.end());
        if (std::any_of(cycle.begin(), cycle.end(), [&](const auto& n) { return reported.count(n); })) continue;
        reported.insert(cycle.begin(), cycle.end());

        const std::set<std::string> members(cycle.begin(), cycle.end());
        std::vector<std::string> cqs;
        for (const Resource* cq : inv.cluster_queues)
            if (const Node* c = cluster_queue_cohort(*cq); c && reaches_cycle(c->text(), parent, members))
                cqs.push_back(cq->ref.name);
        std::string chain = join(cycle, " -> ") + " -> " + cycle.front();
        std::string affected = cqs.empty() ? "no ClusterQueue in the input is under it yet"
                                           : "affected: ClusterQueue " + join(cqs, ", ");
        Reporter{*co, diags}.error("V45", cohort_parent(*co), "spec." + cohort_parent_field(*co),
                                   "Cohort hierarchy has a cycle (" + chain +
                                       "); the API accepts it, but cycles make every ClusterQueue in the cycle "
                                       "inactive: the scheduler admits nothing there while their status still "
                                       "looks ready (" + affected + ")");
    }
}

}  // namespace queueforge::rules::detail
