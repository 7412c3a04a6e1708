// rules::check_object: Kueue's per-object rules (kueue-semantics.md section
// 2) by kind. Pure schema rules (types, enums, required, maxItems, patterns,
// metadata.name syntax) are the schema layer's and are not repeated here.
#include <queueforge/checks/rules.hpp>

#include "checks/rules/kinds.hpp"

namespace queueforge::rules {

void check_object(const Resource& r, Diagnostics& diags) {
    using namespace detail;
    if (!is_kueue(r) || !r.doc.is_map()) return;
    const Reporter rep{r, diags};
    const std::string& kind = r.ref.kind;
    if (kind == "ResourceFlavor") check_resource_flavor(rep);
    else if (kind == "ClusterQueue") check_cluster_queue(rep);
    else if (kind == "Cohort") check_cohort(rep);
    else if (kind == "LocalQueue") check_local_queue(rep);
    else if (kind == "WorkloadPriorityClass") check_workload_priority_class(rep);
    else if (kind == "Workload") check_workload(rep);
}

}  // namespace queueforge::rules
