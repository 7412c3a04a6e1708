#pragma once
// Label selectors, node affinity against a flavor's nodeLabels and taints
// against tolerations (kueue-semantics.md 5.5.2; flavorassigner.go
// checkFlavorForPodSets/flavorSelector, component-helpers' taint and
// node-affinity helpers).
#include "engines/scheduler/model.hpp"

#include <map>
#include <optional>
#include <string>

namespace queueforge::scheduler::detail {

using Labels = std::map<std::string, std::string>;

bool selector_matches(const LabelSelector& s, const Labels& labels);

// The first NoSchedule/NoExecute taint of the flavor that neither the pod's
// nor the flavor's tolerations tolerate.
std::optional<Taint> untolerated_taint(const Flavor& f, const PodSetSpec& ps);
// Go's "%s" of a corev1.Taint value: {key value Effect <nil>}.
std::string taint_string(const Taint& t);

// nodeSelector and required node affinity, restricted to this flavor's label
// keys, evaluated against a node labelled with the flavor's nodeLabels.
bool flavor_matches_affinity(const Flavor& f, const PodSetSpec& ps);

}  // namespace queueforge::scheduler::detail
