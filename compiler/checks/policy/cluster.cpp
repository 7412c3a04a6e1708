#include "checks/policy/cluster.hpp"

#include "checks/policy/match.hpp"

namespace queueforge::policy {

namespace {

std::string key(const std::string& group, const std::string& kind, const std::string& ns, const std::string& name) {
    std::string k;
    k.reserve(group.size() + kind.size() + ns.size() + name.size() + 3);
    k += group;
    k += '|';
    k += kind;
    k += '|';
    k += ns;
    k += '|';
    k += name;
    return k;
}

std::string string_at(const cel::Value& map, std::string_view field) {
    const cel::Value* v = map.map_find(field);
    return v && v->kind() == cel::Value::Kind::String ? v->as_string().str() : std::string();
}


}  // namespace

Cluster::Cluster(const std::vector<Resource>& objs, std::optional<Target> t, std::uint64_t limit)
    : objects(objs), target(std::move(t)), cost_limit(limit) {
    // Set-scope expressions walk every object once or more: their budget
    // grows with the input, one per-expression budget per 1,000 objects.
    set_cost_limit = limit * std::max<std::uint64_t>(1, (objs.size() + 999) / 1000);
    values.reserve(objects.size());
    for (std::size_t i = 0; i < objects.size(); ++i) {
        const Resource& r = objects[i];
        // Converted as policies read them: most read a few fields of each
        // object (objects.filter(o, o.kind == ...)); `objects` outlives
        // every value evaluation takes from them.
        values.push_back(cel::from_node_lazy(r.doc));
        by_key_.try_emplace(key(group_of(r.ref.api_version), r.ref.kind, r.ref.namespace_, r.ref.name), i);
        if (r.ref.kind == "Namespace" && group_of(r.ref.api_version).empty()) namespaces_.try_emplace(r.ref.name, i);
    }
    all = cel::Value::list(values);
    kinds.list = all.identity();
    // An object converted to an error (a repeated key) is no map: its `kind`
    // is an error, not a string, so comprehensions always visit it.
    for (std::size_t i = 0; i < objects.size(); ++i) {
        const Node* kind = objects[i].doc.is_map() ? objects[i].doc.find("kind") : nullptr;
        const auto at = static_cast<std::uint32_t>(i);
        if (kind && kind->is_string() && values[i].kind() == cel::Value::Kind::Map) kinds.by_kind[kind->text()].push_back(at);
        else kinds.other.push_back(at);
    }
    target_value = target ? policy::target_value(*target) : cel::Value::null();
}

void Cluster::forget_conversions() {
    for (auto& v : values) v = cel::unconverted(v);
    all = cel::Value::list(values);
    kinds.list = all.identity();
}

std::optional<std::size_t> Cluster::find(const cel::Value& v) const {
    if (v.kind() != cel::Value::Kind::Map) return std::nullopt;
    const cel::Value* meta = v.map_find("metadata");
    if (!meta || meta->kind() != cel::Value::Kind::Map) return std::nullopt;
    auto it = by_key_.find(key(group_of(string_at(v, "apiVersion")), string_at(v, "kind"), string_at(*meta, "namespace"),
                               string_at(*meta, "name")));
    if (it == by_key_.end()) return std::nullopt;
    return it->second;
}

const Resource* Cluster::namespace_object(const std::string& name, std::size_t* index) const {
    auto it = namespaces_.find(name);
    if (it == namespaces_.end()) return nullptr;
    if (index) *index = it->second;
    return &objects[it->second];
}

cel::Value target_value(const Target& t) {
    const bool rhoai = t.platform == Platform::OpenShiftAI;
    cel::Value::ListItems labels;
    for (const auto& l : t.namespace_labels) labels.push_back(str(l));
    cel::Value::MapEntries m{
        {str("name"), str(t.name)},
        {str("platform"), str(rhoai ? "OpenShiftAI" : "Kubernetes")},
        {str("openshiftAI"), str(rhoai ? t.release.to_string() : "")},
        {str("kueue"), str(t.kueue.to_string())},
        {str("kueueApiVersion"), str(t.kueue_api_version)},
        {str("cohortApiVersion"), str(t.cohort_api_version)},
        {str("dscApiVersion"), str(t.dsc_api_version)},
        {str("namespaceLabels"), cel::Value::list(std::move(labels))},
        {str("embeddedKueue"), cel::Value::boolean(t.embedded_kueue)},
        {str("operatorCreatesQueues"), cel::Value::boolean(t.operator_creates_queues)},
        {str("singleClusterQueue"), cel::Value::boolean(t.single_cluster_queue)},
        {str("sharedCohortsSupported"), cel::Value::boolean(t.shared_cohorts_supported)},
    };
    return cel::Value::map(std::move(m));
}

}  // namespace queueforge::policy
