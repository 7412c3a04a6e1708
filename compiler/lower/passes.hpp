#pragma once
// The lowering passes, in the order lower_site runs them. Each appends its
// objects to the context and reports problems at the site's positions.
#include "lower/context.hpp"

namespace queueforge::lower {

void lower_topologies(Context& ctx);  // Topology objects; each pool's place in one
void lower_flavors(Context& ctx);
void lower_cohorts(Context& ctx);
void lower_priority_classes(Context& ctx);
void lower_teams(Context& ctx);          // ClusterQueues and LocalQueues
void lower_namespaces(Context& ctx);
void lower_tenant_rbac(Context& ctx);   // RoleBindings of the teams' members
void lower_hardware_profiles(Context& ctx);  // the dashboard's HardwareProfiles of type Queue
void lower_kueue_operator(Context& ctx);     // the Red Hat build of Kueue operator's Kueue CR
void lower_kueue_config(Context& ctx);       // plain Kueue's Configuration (the kueue-manager-config ConfigMap)
void lower_data_science_cluster(Context& ctx);

// Shared by teams and cohorts: resourceGroups as Kueue spells them, with
// their provenance recorded under `at` ("spec.resourceGroups"); `quota_of`
// names the owner's quota in the rules ("the team's quota").
struct ResourceGroup;
class Trace;
Node resource_groups_node(const std::vector<ResourceGroup>& groups, const Trace& at, const std::string& quota_of);

}  // namespace queueforge::lower
