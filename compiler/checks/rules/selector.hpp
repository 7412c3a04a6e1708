#pragma once
// metav1.LabelSelector: validation as apimachinery's ValidateLabelSelector
// words it (V32), and matching against a label set (namespaceSelector vs the
// LocalQueues' namespaces, flavor nodeLabels vs Node labels).
#include "checks/rules/common.hpp"

#include <map>
#include <optional>
#include <string>

namespace queueforge::rules::detail {

using Labels = std::map<std::string, std::string>;

// Reports V32 findings for the selector at `path` ("spec.namespaceSelector").
void validate_label_selector(const Reporter& rep, const Node& selector, const std::string& path);

// Whether `selector` selects `labels`; nullopt when the selector cannot be
// evaluated (not a map, unknown operator, In without values...), as Kueue
// then fails to build it and admits nothing.
std::optional<bool> selector_matches(const Node& selector, const Labels& labels);

// True for `{}` (and for a selector whose matchLabels/matchExpressions are
// both empty): it selects everything.
bool selector_is_empty(const Node& selector);

// Whether a Node object carries every label of a flavor's nodeLabels (the
// flavor's nodes, as Kueue's flavor assignment matches them).
bool node_selected(const Resource& node, const Labels& node_labels);

// "k1=v1, k2=v2", for messages.
std::string describe_labels(const Labels& labels);

// Label keys and values checked as metav1 ValidateLabels does; `path` is the
// map's path (Kueue reports every entry there).
void validate_labels(const Reporter& rep, const std::string& rule, const Node& labels, const std::string& path);

}  // namespace queueforge::rules::detail
