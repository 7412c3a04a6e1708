#pragma once
// Which objects a policy is about: kinds for queueforge Policies, resource
// rules and label selectors for ValidatingAdmissionPolicies.
#include "checks/policy/model.hpp"

#include <map>
#include <string>

namespace queueforge::policy {

using Labels = std::map<std::string, std::string>;

// "kueue.x-k8s.io/v1beta2" -> "kueue.x-k8s.io"; "v1" -> "" (the core group).
std::string group_of(const std::string& api_version);
std::string version_of(const std::string& api_version);
// The resource name the API server serves a kind under: lowercase plural
// ("ClusterQueue" -> "clusterqueues", "WorkloadPriorityClass" -> "workloadpriorityclasses").
std::string resource_of(const std::string& kind);
// Whether the kind is namespaced: known Kubernetes/Kueue kinds by name,
// others by whether the object names a namespace.
bool namespaced(const Resource& r);

Labels labels_of(const Node& object);
bool selector_matches(const LabelSelector& s, const Labels& labels);

bool kinds_match(const std::vector<KindMatch>& kinds, const Resource& r);

// Only the resourceRules and excludeResourceRules of `m` against a CREATE of
// `r` (no labels needed): the cheap first test.
bool rules_match(const MatchResources& m, const Resource& r);

// matchConstraints/matchResources against a CREATE of `r`. `object_labels`
// are r's labels and `namespace_labels` those of r's Namespace, both as the
// API server holds them (see admitted.hpp).
bool resources_match(const MatchResources& m, const Resource& r, const Labels& object_labels,
                     const Labels& namespace_labels);

}  // namespace queueforge::policy
