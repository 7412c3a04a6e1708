#pragma once
// Objects as ValidatingAdmissionPolicies see them: with the API server's
// defaults applied (k8s/server_defaults.hpp), which is what `object`,
// `namespaceObject`, `params` and the object and namespace selectors meet in
// a cluster. queueforge Policies keep seeing the manifests as written.
// Each object is defaulted and converted at most once, when a policy first
// asks for it; objects of kinds without defaults share the Cluster's value.
#include "checks/policy/cluster.hpp"
#include "checks/policy/match.hpp"

#include <optional>
#include <string>
#include <vector>

namespace queueforge::policy {

struct AdmittedObject {
    cel::Value value;  // the object as CEL
    Labels labels;     // its metadata.labels, defaults included
};

class AdmittedObjects {
public:
    explicit AdmittedObjects(const Cluster& c) : c_(c), objects_(c.objects.size()) {}

    const AdmittedObject& at(std::size_t i);
    // The labels a namespaceSelector meets for objects in namespace `ns`: its
    // Namespace object's when that is among the inputs, otherwise only the
    // kubernetes.io/metadata.name label the API server gives every namespace.
    Labels namespace_labels(const std::string& ns);

private:
    const Cluster& c_;
    std::vector<std::optional<AdmittedObject>> objects_;
};

// `doc` with the API server's defaults, as CEL (params objects).
cel::Value admitted_value(const Node& doc);

}  // namespace queueforge::policy
