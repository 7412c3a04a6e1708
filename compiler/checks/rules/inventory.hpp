#pragma once
// The objects check_cross_objects looks at, grouped by kind and indexed by
// name (first definition wins; later ones are reported as duplicates).
#include "checks/rules/common.hpp"

#include <queueforge/frontend/platform.hpp>

#include <map>
#include <string>
#include <vector>

namespace queueforge::rules::detail {

struct Inventory {
    std::vector<const Resource*> flavors, cluster_queues, cohorts, local_queues, namespaces, nodes, dscs;
    std::vector<const Resource*> hardware_profiles;  // infrastructure.opendatahub.io
    std::map<std::string, const Resource*> flavor_by_name, cq_by_name, cohort_by_name, namespace_by_name;

    std::vector<std::string> names(const std::map<std::string, const Resource*>& m) const;
};

Inventory build_inventory(const std::vector<Resource>& resources);

// " (did you mean \"x\"?)" or "".
std::string suggestion(const std::string& word, const std::vector<std::string>& candidates);

// "file:line:col" of an object, for messages that point at a second place.
std::string where(const Resource& r);

// The individual cross-object checks (cross_objects.cpp runs them in order).
void check_duplicates(const std::vector<Resource>& resources, Diagnostics& diags);
void check_references(const Inventory& inv, Diagnostics& diags);
void check_cohort_cycles(const Inventory& inv, Diagnostics& diags);
void check_namespaces(const Inventory& inv, Diagnostics& diags);
void check_capacity(const Inventory& inv, Diagnostics& diags);
void check_tenant_rbac(const std::vector<Resource>& resources, Diagnostics& diags);
void check_hardware_profiles(const Inventory& inv, const std::vector<Resource>& resources, const Target* target,
                             Diagnostics& diags);
void check_kueue_config(const Inventory& inv, const std::vector<Resource>& resources, const std::vector<Resource>* samples,
                        const Target* target, Diagnostics& diags);
void check_target_apis(const std::vector<Resource>& resources, const Target& target, Diagnostics& diags);
void check_target_dsc(const Inventory& inv, const Target* target, Diagnostics& diags);

}  // namespace queueforge::rules::detail
