// V45: cycles in the Cohort hierarchy. The API accepts them; the scheduler
// then skips every ClusterQueue under the cycle (snapshot reason HasCycle)
// while their status keeps claiming they can admit, so nothing says why
// workloads stay pending. Reported once per cycle, at its first member in
// input order. The cycles themselves come from model::find_cohort_cycles.
#include "checks/rules/inventory.hpp"

#include <queueforge/checks/rules.hpp>

#include <queueforge/model/cohort_cycles.hpp>

#include <unordered_map>

namespace queueforge::rules::detail {

namespace {

// Cohort names as graph nodes: the Cohort objects first, in input order, then
// parents that only appear as names.
struct CohortGraph {
    std::unordered_map<std::string, int> index;
    std::vector<std::string> names;
    std::vector<int> parent;

    int node(const std::string& name) {
        auto [it, added] = index.try_emplace(name, static_cast<int>(names.size()));
        if (added) {
            names.push_back(name);
            parent.push_back(-1);
        }
        return it->second;
    }
    int find(const std::string& name) const {
        auto it = index.find(name);
        return it == index.end() ? -1 : it->second;
    }
};

CohortGraph graph_of(const Inventory& inv) {
    CohortGraph g;
    for (const Resource* co : inv.cohorts) g.node(co->ref.name);
    // The parent of each name is the one of its Cohort object in the
    // inventory's by-name index (the first of duplicates).
    for (const auto& [name, r] : inv.cohort_by_name)
        if (const Node* p = cohort_parent(*r)) {
            int child = g.node(name);
            int up = g.node(p->text());
            g.parent[child] = up;
        }
    return g;
}

}  // namespace

void check_cohort_cycles(const CrossContext& ctx, Diagnostics& diags) {
    const Inventory& inv = ctx.inv;
    const CohortGraph g = graph_of(inv);
    const model::CohortCycles cycles = model::find_cohort_cycles(g.parent);
    std::vector<bool> reported(cycles.cycles.size(), false);
    for (const Resource* co : inv.cohorts) {
        const int node = g.find(co->ref.name);
        const int c = cycles.on_cycle[node];
        if (c < 0 || reported[c]) continue;
        reported[c] = true;

        std::vector<std::string> cycle;
        for (int m : cycles.members_from(c, node)) cycle.push_back(g.names[m]);
        std::vector<std::string> cqs;
        for (const Resource* cq : inv.cluster_queues)
            if (const Node* cohort = cluster_queue_cohort(*cq)) {
                int n = g.find(cohort->text());
                if (n >= 0 && cycles.reaches[n] == c) cqs.push_back(cq->ref.name);
            }
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

namespace queueforge::rules {

void check_cohort_hierarchy(const std::vector<Resource>& resources, Diagnostics& diags) {
    const detail::Inventory inv = detail::build_inventory(resources);
    detail::check_cohort_cycles({resources, inv, nullptr, nullptr}, diags);
}

}  // namespace queueforge::rules
