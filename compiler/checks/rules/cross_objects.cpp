// rules::check_cross_objects: what no single object shows and Kueue only
// reports at runtime (an inactive ClusterQueue, a pending workload), plus
// what the --target cluster does not serve. Each rule set is one file,
// registered in cross_rules.def.
#include <queueforge/checks/rules.hpp>

#include "checks/rules/inventory.hpp"

namespace queueforge::rules {

void check_cross_objects(const std::vector<Resource>& resources, const CrossOptions& opts, Diagnostics& diags) {
    using namespace detail;
    const Inventory inv = build_inventory(resources);
    const CrossContext ctx{resources, inv, opts.target ? &*opts.target : nullptr, opts.samples};
#define QF_CROSS_RULES(fn) fn(ctx, diags);
#include "checks/rules/cross_rules.def"
#undef QF_CROSS_RULES
}

}  // namespace queueforge::rules
