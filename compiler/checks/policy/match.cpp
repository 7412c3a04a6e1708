#include "checks/policy/match.hpp"

#include <queueforge/model/selector.hpp>

#include <algorithm>
#include <array>
#include <cctype>

namespace queueforge::policy {

namespace {

bool listed(const std::vector<std::string>& xs, const std::string& x) {
    return std::find(xs.begin(), xs.end(), x) != xs.end() || std::find(xs.begin(), xs.end(), "*") != xs.end();
}

bool rule_matches(const ResourceRule& rule, const Resource& r) {
    const std::string group = group_of(r.ref.api_version);
    if (!listed(rule.api_groups, group)) return false;
    if (!rule.api_versions.empty() && !listed(rule.api_versions, version_of(r.ref.api_version))) return false;
    // "clusterqueues/status" names a subresource, which a CREATE of the object is not.
    if (!listed(rule.resources, resource_of(r.ref.kind))) return false;
    if (!listed(rule.operations, "CREATE")) return false;
    if (!rule.resource_names.empty() && !listed(rule.resource_names, r.ref.name)) return false;
    if (rule.scope == "Cluster" && namespaced(r)) return false;
    if (rule.scope == "Namespaced" && !namespaced(r)) return false;
    return true;
}

}  // namespace

std::string group_of(const std::string& api_version) {
    auto slash = api_version.find('/');
    return slash == std::string::npos ? std::string() : api_version.substr(0, slash);
}

std::string version_of(const std::string& api_version) {
    auto slash = api_version.find('/');
    return slash == std::string::npos ? api_version : api_version.substr(slash + 1);
}

std::string resource_of(const std::string& kind) {
    std::string s;
    for (char c : kind) s += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    if (s.empty()) return s;
    // The rules of k8s.io/apimachinery's UnsafeGuessKindToResource.
    if (s == "endpoints") return s;
    const char last = s.back();
    if (last == 's' || last == 'x' || last == 'z' || s.ends_with("ch") || s.ends_with("sh")) return s + "es";
    if (last == 'y' && s.size() > 1 && std::string_view("aeiou").find(s[s.size() - 2]) == std::string_view::npos)
        return s.substr(0, s.size() - 1) + "ies";
    return s + "s";
}

bool namespaced(const Resource& r) {
    static constexpr std::array<std::string_view, 12> cluster_kinds{
        "ClusterQueue", "ResourceFlavor", "Cohort", "WorkloadPriorityClass", "AdmissionCheck", "Topology",
        "Namespace", "Node", "PriorityClass", "DataScienceCluster", "CustomResourceDefinition", "ClusterRole"};
    static constexpr std::array<std::string_view, 8> namespaced_kinds{
        "LocalQueue", "Workload", "Job", "Pod", "ConfigMap", "Deployment", "RayCluster", "PyTorchJob"};
    for (auto k : cluster_kinds)
        if (r.ref.kind == k) return false;
    for (auto k : namespaced_kinds)
        if (r.ref.kind == k) return true;
    return !r.ref.namespace_.empty();
}

Labels labels_of(const Node& object) {
    Labels out;
    const Node* meta = object.find("metadata");
    const Node* labels = meta && meta->is_map() ? meta->find("labels") : nullptr;
    if (labels && labels->is_map())
        for (const auto& e : labels->entries())
            if (e.value.is_scalar()) out[e.key] = e.value.is_null() ? "" : e.value.text();
    return out;
}

bool selector_matches(const LabelSelector& s, const Labels& labels) {
    for (const auto& [k, v] : s.match_labels)
        if (!model::label_matches(k, v, labels)) return false;
    // An operator the API would refuse constrains nothing here.
    for (const auto& req : s.expressions)
        if (!model::requirement_matches(req.key, req.op, req.values, labels).value_or(true)) return false;
    return true;
}

bool kinds_match(const std::vector<KindMatch>& kinds, const Resource& r) {
    if (kinds.empty()) return true;
    for (const auto& k : kinds) {
        if (!k.api_version.empty()) {
            if (k.api_version == r.ref.api_version && (k.kinds.empty() || k.kinds.front() == r.ref.kind)) return true;
            continue;
        }
        if (k.group != "*" && k.group != group_of(r.ref.api_version)) continue;
        if (k.kinds.empty() || listed(k.kinds, r.ref.kind)) return true;
    }
    return false;
}

bool rules_match(const MatchResources& m, const Resource& r) {
    // A binding's matchResources without resourceRules narrows by selectors only.
    if (!m.rules.empty() &&
        !std::any_of(m.rules.begin(), m.rules.end(), [&](const ResourceRule& x) { return rule_matches(x, r); }))
        return false;
    return std::none_of(m.exclude.begin(), m.exclude.end(), [&](const ResourceRule& x) { return rule_matches(x, r); });
}

bool resources_match(const MatchResources& m, const Resource& r, const Labels& object_labels,
                     const Labels& namespace_labels) {
    if (!rules_match(m, r)) return false;
    if (m.object_selector && !selector_matches(*m.object_selector, object_labels)) return false;
    if (m.namespace_selector) {
        // The API server matches a Namespace on its own labels, and never
        // skips other cluster-scoped objects on the namespace selector.
        if (r.ref.kind == "Namespace" && group_of(r.ref.api_version).empty()) {
            if (!selector_matches(*m.namespace_selector, object_labels)) return false;
        } else if (namespaced(r) && !selector_matches(*m.namespace_selector, namespace_labels)) {
            return false;
        }
    }
    return true;
}

}  // namespace queueforge::policy
