#pragma once
// Which target the imported site builds for: given with --target, or the
// documented release whose API versions, DataScienceCluster components and
// CRD defaults match the input best.
#include "integrations/import/items.hpp"

#include <queueforge/frontend/platform.hpp>

#include <optional>

namespace queueforge::importer {

struct TargetChoice {
    Target target;       // with the overrides applied
    Node node;           // spec.target as the site writes it
    std::string reason;  // why this target, for a note
    bool cohorts_as_objects = true;  // false: cohortAPIVersion none (the input has no Cohort objects)
};

std::optional<TargetChoice> choose_target(const std::vector<Item>& items, const std::string& forced,
                                          Diagnostics& diags);

// The managementState of each component in the target's DataScienceCluster template.
std::vector<std::pair<std::string, std::string>> template_components(const Target& t);

}  // namespace queueforge::importer
