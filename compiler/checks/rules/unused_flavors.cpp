// xref.unused-flavor: a ResourceFlavor that no ClusterQueue or Cohort of
// the input lists. Kueue accepts it, but no quota names it, so no workload
// is ever admitted to its nodes through Kueue: a pool that was forgotten in
// every team's quota, or a flavor left behind after a rename.
#include "checks/rules/inventory.hpp"
#include "checks/rules/kinds.hpp"

#include <set>

namespace queueforge::rules::detail {

void check_unused_flavors(const CrossContext& ctx, Diagnostics& diags) {
    const Inventory& inv = ctx.inv;
    // A repository of flavors alone (the queues live elsewhere) cannot tell.
    if (inv.cluster_queues.empty()) return;
    std::set<std::string> listed;
    for (const auto* group : {&inv.cluster_queues, &inv.cohorts})
        for (const Resource* r : *group)
            for (const auto& name : flavor_names(present(&r->doc, "spec"))) listed.insert(name);
    for (const Resource* f : inv.flavors) {
        if (listed.count(f->ref.name)) continue;
        Reporter{*f, diags}.warning("xref.unused-flavor", present(present(&f->doc, "metadata"), "name"),
                                    "metadata.name",
                                    "ResourceFlavor " + go_quote(f->ref.name) +
                                        " is not listed by any ClusterQueue or Cohort in the input: no quota names "
                                        "it, so Kueue admits no workload to its nodes (give a queue quota for it, or "
                                        "remove it)");
    }
}

}  // namespace queueforge::rules::detail
