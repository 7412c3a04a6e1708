#include "checks/policy/cluster.hpp"

#include "checks/policy/match.hpp"

#include <algorithm>
#include <cstdint>

namespace queueforge::policy {

namespace {

// FNV-1a over the four parts, each followed by a byte no part holds.
std::uint64_t identity_hash(std::string_view group, std::string_view kind, std::string_view ns, std::string_view name) {
    std::uint64_t h = 14695981039346656037ull;
    for (std::string_view part : {group, kind, ns, name}) {
        for (char c : part) {
            h ^= static_cast<unsigned char>(c);
            h *= 1099511628211ull;
        }
        h ^= 0xFF;
        h *= 1099511628211ull;
    }
    return h;
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
    cel::Value::ListItems values;
    values.reserve(objects.size());
    for (std::size_t i = 0; i < objects.size(); ++i) {
        const Resource& r = objects[i];
        // Converted as policies read them: most read a few fields of each
        // object (objects.filter(o, o.kind == ...)); `objects` outlives
        // every value evaluation takes from them.
        values.push_back(cel::from_node_lazy(r.doc));
        by_key_.emplace_back(identity_hash(group_of(r.ref.api_version), r.ref.kind, r.ref.namespace_, r.ref.name),
                             static_cast<std::uint32_t>(i));
        if (r.ref.kind == "Namespace" && group_of(r.ref.api_version).empty()) namespaces_.try_emplace(r.ref.name, i);
    }
    std::sort(by_key_.begin(), by_key_.end());  // by hash, then by index: the first object of an identity first
    all = cel::Value::list(std::move(values));
    kinds.list = all.identity();
    // An object converted to an error (a repeated key) is no map: its `kind`
    // is an error, not a string, so comprehensions always visit it.
    for (std::size_t i = 0; i < objects.size(); ++i) {
        const Node* kind = objects[i].doc.is_map() ? objects[i].doc.find("kind") : nullptr;
        const auto at = static_cast<std::uint32_t>(i);
        if (kind && kind->is_string() && value(i).kind() == cel::Value::Kind::Map) kinds.by_kind[kind->text()].push_back(at);
        else kinds.other.push_back(at);
    }
    target_value = target ? policy::target_value(*target) : cel::Value::null();
}

void Cluster::forget_conversions() {
    // `all` let go first, so each object's conversions are freed as its
    // fresh value replaces it, not all of them after all are made.
    cel::Value::ListItems values = all.as_list();
    all = cel::Value();
    for (auto& v : values) v = cel::unconverted(v);
    all = cel::Value::list(std::move(values));
    kinds.list = all.identity();
}

std::optional<std::size_t> Cluster::find(const cel::Value& v) const {
    if (v.kind() != cel::Value::Kind::Map) return std::nullopt;
    const cel::Value* meta = v.map_find("metadata");
    if (!meta || meta->kind() != cel::Value::Kind::Map) return std::nullopt;
    const std::string group = group_of(string_at(v, "apiVersion")), kind = string_at(v, "kind"),
                      ns = string_at(*meta, "namespace"), name = string_at(*meta, "name");
    const std::uint64_t h = identity_hash(group, kind, ns, name);
    for (auto it = std::lower_bound(by_key_.begin(), by_key_.end(), std::pair<std::uint64_t, std::uint32_t>{h, 0});
         it != by_key_.end() && it->first == h; ++it)
        if (is(it->second, group, kind, ns, name)) return it->second;
    return std::nullopt;
}

bool Cluster::is(std::size_t i, std::string_view group, std::string_view kind, std::string_view ns,
                 std::string_view name) const {
    const ObjectRef& ref = objects[i].ref;
    return ref.kind == kind && ref.name == name && ref.namespace_ == ns && group_of(ref.api_version) == group;
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
