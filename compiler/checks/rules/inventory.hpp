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
    // Found by any string type (std::less<>): a lookup by a tree's text or a
    // reference's view makes no std::string.
    using ByName = std::map<std::string, const Resource*, std::less<>>;
    ByName flavor_by_name, cq_by_name, cohort_by_name, namespace_by_name;

    std::vector<std::string> names(const ByName& m) const;
};

Inventory build_inventory(const std::vector<Resource>& resources);

// " (did you mean \"x\"?)" or "".
std::string suggestion(const std::string& word, const std::vector<std::string>& candidates);

// "file:line:col" of an object, for messages that point at a second place.
std::string where(const Resource& r);

// What every cross-object rule set reads: the whole input, indexed, and
// the command's options.
struct CrossContext {
    const std::vector<Resource>& resources;
    const Inventory& inv;
    const Target* target;                   // --target; nullptr without one
    const std::vector<Resource>* samples;   // job manifests the site's workloads name, or nullptr
};

// The cross-object rule sets, one per file, registered in cross_rules.def.
#define QF_CROSS_RULES(fn) void fn(const CrossContext& ctx, Diagnostics& diags);
#include "checks/rules/cross_rules.def"
#undef QF_CROSS_RULES

}  // namespace queueforge::rules::detail
