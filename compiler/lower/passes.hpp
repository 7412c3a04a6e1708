#pragma once
// The lowering passes, in the order lower_site runs them. Each appends its
// objects to the context and reports problems at the site's positions.
#include "lower/context.hpp"

namespace queueforge::lower {

void lower_flavors(Context& ctx);
void lower_cohorts(Context& ctx);
void lower_priority_classes(Context& ctx);
void lower_teams(Context& ctx);          // ClusterQueues and LocalQueues
void lower_namespaces(Context& ctx);
void lower_data_science_cluster(Context& ctx);

// Shared by teams and cohorts: resourceGroups as Kueue spells them.
struct ResourceGroup;
Node resource_groups_node(const std::vector<ResourceGroup>& groups);

}  // namespace queueforge::lower
