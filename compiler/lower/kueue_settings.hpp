#pragma once
// What both ways of configuring Kueue derive from the site: the Red Hat build
// of Kueue's Kueue CR (kueue_operator.cpp) and plain Kueue's Configuration
// (kueue_config.cpp).
#include "lower/context.hpp"
#include "lower/provenance.hpp"

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace queueforge::lower {

// A job kind Kueue must integrate for the site, and why.
struct NeededKind {
    std::string api_version, kind;
    Origin from;          // the emitted list item's provenance
    Mark at;              // where a problem with it is reported
    std::string because;  // "workload \"train\" (PyTorchJob)", "spec.hardwareProfiles"
};

// The job kinds of the site's sample workloads, plus StatefulSet and
// Deployment when the site has HardwareProfiles (the dashboard's workbenches
// are StatefulSets and its model servers Deployments).
std::vector<NeededKind> needed_job_kinds(const Context& ctx);

// Whether the DataScienceCluster hands Kueue to the Red Hat build of Kueue
// (dataScienceCluster.components.kueue: Unmanaged).
bool kueue_unmanaged(const site::Site& s);

// The first fair-sharing weight the site sets (teamDefaults, a team, a
// cohort) and whose it is ("team llm"), or nullopt.
std::optional<std::pair<Mark, std::string>> first_fair_sharing_weight(const site::Site& s);

// deviceClassMappings as Kueue and the Kueue CR spell them, sorted by name
// (each mapping's class names sorted: a set), recorded under `at`.
Node device_class_mappings_node(const std::vector<site::DeviceClassMapping>& mappings, const Trace& at);

}  // namespace queueforge::lower
