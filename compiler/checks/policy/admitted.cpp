#include "checks/policy/admitted.hpp"

#include "base/k8s/server_defaults.hpp"

namespace queueforge::policy {

namespace {

bool defaulted_kind(const Resource& r) { return k8s::has_server_defaults(r.ref.api_version, r.ref.kind); }

}  // namespace

const AdmittedObject& AdmittedObjects::at(std::size_t i) {
    auto& slot = objects_[i];
    if (slot) return *slot;
    const Resource& r = c_.objects[i];
    if (!defaulted_kind(r)) {
        slot = AdmittedObject{c_.value(i), labels_of(r.doc)};
    } else {
        Node doc = r.doc;
        k8s::apply_server_defaults(doc);
        slot = AdmittedObject{cel::from_node(doc), labels_of(doc)};
    }
    return *slot;
}

Labels AdmittedObjects::namespace_labels(const std::string& ns) {
    if (ns.empty()) return {};  // a manifest that does not say its namespace
    std::size_t index = 0;
    if (c_.namespace_object(ns, &index)) return at(index).labels;
    return {{"kubernetes.io/metadata.name", ns}};
}

cel::Value admitted_value(const Node& doc) {
    const Node* api = doc.find("apiVersion");
    const Node* kind = doc.find("kind");
    if (!api || !kind || !api->is_scalar() || !kind->is_scalar() || !k8s::has_server_defaults(api->text(), kind->text()))
        return cel::from_node(doc);
    Node copy = doc;
    k8s::apply_server_defaults(copy);
    return cel::from_node(copy);
}

}  // namespace queueforge::policy
