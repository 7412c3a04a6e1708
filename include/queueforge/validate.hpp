#pragma once
// `validate`: schema (layer 1), Kueue's own rules (layer 2) and cross-object
// checks (layer 3) over any set of manifests, site descriptions included.
#include <queueforge/diagnostics.hpp>
#include <queueforge/report.hpp>
#include <queueforge/resource.hpp>
#include <queueforge/target.hpp>

#include <optional>
#include <string>
#include <vector>

namespace queueforge {

struct ValidationOptions {
    std::vector<std::string> crd_paths;  // --crd: validate against these CRDs instead of the built-in schemas
    bool ignore_missing_schemas = false;
    std::optional<Target> target;        // --target
};

struct ValidationSummary {
    std::size_t objects = 0;
    std::vector<std::pair<std::string, std::size_t>> per_kind;  // sorted by kind
    std::vector<CheckedObject> checked;                          // in input order
};

// Validates everything in `input`. Site documents (queueforge.io Site) are
// compiled, and the objects they lower to join the cross-object checks.
ValidationSummary validate_all(LoadedResources& input, const ValidationOptions& opts, Diagnostics& diags);

}  // namespace queueforge
