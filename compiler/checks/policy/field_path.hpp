#pragma once
// A finding's fieldPath ("spec.resourceGroups[0].flavors[1].name",
// "metadata.labels['app.kubernetes.io/name']") resolved to the node it names,
// so the finding points at that line:col.
#include <queueforge/base/node.hpp>

#include <string_view>

namespace queueforge::policy {

// The deepest node the path reaches (a missing field stops at its parent);
// nullptr when the path is malformed. A leading "object." or "." is allowed.
const Node* resolve_field_path(const Node& root, std::string_view path);

}  // namespace queueforge::policy
