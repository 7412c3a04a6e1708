// A pod's role hash, as Kueue computes it: the first 8 hex digits of the
// SHA-256 of Go's encoding/json of {"spec": SpecShape(pod.spec)}, where
// SpecShape is a map (keys sorted by encoding/json) of initContainers and
// containers (per container {"ports": ports, "resources": {"requests":
// requests}}), nodeSelector, affinity, tolerations, runtimeClassName,
// priority, topologySpreadConstraints, overhead, resourceClaims and -- only
// when spec.resources is set -- "resources": its requests.
//
// Go's encoding is reproduced field for field: structs in the field order of
// k8s.io/api/core/v1 with their omitempty tags (an absent or empty optional
// field is left out), absent slices, maps and pointers as null, map keys
// sorted, quantities as their canonical strings, strings with Go's escaping
// (<, >, & as \u003c, \u003e, \u0026; U+2028 and U+2029 escaped). Fields Kueue's
// shape does not name, and unknown keys, do not count. The pod is read as
// written: what the API server's defaulting and admission plugins add before
// Kueue's webhook hashes it (priority from the PriorityClass, the
// not-ready/unreachable tolerations, port protocols) counts only when the
// manifest carries it, as a pod read back from the cluster does.
//
// Sources: Kueue ff69552e79ad21652c36caa97038382e55625cf7,
// pkg/util/pod/pod.go (GenerateRoleHash, SpecShape, ContainersShape),
// pkg/controller/jobs/pod/pod_controller.go (getRoleHash,
// constructGroupPodSets: podSets named by role hash, sorted by name); Kueue's
// tests pkg/controller/jobs/pod/pod_webhook_test.go ("a9f06f3a") and
// pod_controller_test.go ("dc85db45") are the oracle
// (tests/engines/workloads/role_hash_test.cpp).
#include "engines/workloads/jobs.hpp"

#include <queueforge/base/quantity.hpp>
#include <queueforge/base/sha256.hpp>
#include <queueforge/base/text.hpp>

#include <algorithm>
#include <cstdio>
#include <vector>

namespace queueforge::workloads::detail {

namespace {

enum class T {
    Str,        // string
    StrPtr,     // *string
    Int,        // int32 / int64
    IntPtr,     // *int32 / *int64
    StrList,    // []string
    StrMap,     // map[string]string
    Quantities, // ResourceList
    Struct,     // a struct value
    StructPtr,  // *struct
    StructList, // []struct
};

struct Field {
    const char* key;
    T type;
    bool omitempty;
    const std::vector<Field>* sub = nullptr;
};

using Fields = std::vector<Field>;

// k8s.io/api/core/v1 and apimachinery meta/v1, in field order.
const Fields kNodeSelectorRequirement = {{"key", T::Str, false}, {"operator", T::Str, false}, {"values", T::StrList, true}};
const Fields kNodeSelectorTerm = {{"matchExpressions", T::StructList, true, &kNodeSelectorRequirement},
                                  {"matchFields", T::StructList, true, &kNodeSelectorRequirement}};
const Fields kNodeSelector = {{"nodeSelectorTerms", T::StructList, false, &kNodeSelectorTerm}};
const Fields kPreferredSchedulingTerm = {{"weight", T::Int, false}, {"preference", T::Struct, false, &kNodeSelectorTerm}};
const Fields kNodeAffinity = {{"requiredDuringSchedulingIgnoredDuringExecution", T::StructPtr, true, &kNodeSelector},
                              {"preferredDuringSchedulingIgnoredDuringExecution", T::StructList, true, &kPreferredSchedulingTerm}};
const Fields kLabelSelectorRequirement = {{"key", T::Str, false}, {"operator", T::Str, false}, {"values", T::StrList, true}};
const Fields kLabelSelector = {{"matchLabels", T::StrMap, true}, {"matchExpressions", T::StructList, true, &kLabelSelectorRequirement}};
const Fields kPodAffinityTerm = {{"labelSelector", T::StructPtr, true, &kLabelSelector}, {"namespaces", T::StrList, true},
                                 {"topologyKey", T::Str, false},                       {"namespaceSelector", T::StructPtr, true, &kLabelSelector},
                                 {"matchLabelKeys", T::StrList, true},                 {"mismatchLabelKeys", T::StrList, true}};
const Fields kWeightedPodAffinityTerm = {{"weight", T::Int, false}, {"podAffinityTerm", T::Struct, false, &kPodAffinityTerm}};
const Fields kPodAffinity = {{"requiredDuringSchedulingIgnoredDuringExecution", T::StructList, true, &kPodAffinityTerm},
                             {"preferredDuringSchedulingIgnoredDuringExecution", T::StructList, true, &kWeightedPodAffinityTerm}};
const Fields kAffinity = {{"nodeAffinity", T::StructPtr, true, &kNodeAffinity},
                          {"podAffinity", T::StructPtr, true, &kPodAffinity},
                          {"podAntiAffinity", T::StructPtr, true, &kPodAffinity}};
const Fields kToleration = {{"key", T::Str, true},    {"operator", T::Str, true},          {"value", T::Str, true},
                            {"effect", T::Str, true}, {"tolerationSeconds", T::IntPtr, true}};
const Fields kTopologySpreadConstraint = {{"maxSkew", T::Int, false},           {"topologyKey", T::Str, false},
                                          {"whenUnsatisfiable", T::Str, false}, {"labelSelector", T::StructPtr, true, &kLabelSelector},
                                          {"minDomains", T::IntPtr, true},      {"nodeAffinityPolicy", T::StrPtr, true},
                                          {"nodeTaintsPolicy", T::StrPtr, true}, {"matchLabelKeys", T::StrList, true}};
const Fields kPodResourceClaim = {{"name", T::Str, false}, {"resourceClaimName", T::StrPtr, true}, {"resourceClaimTemplateName", T::StrPtr, true}};
const Fields kContainerPort = {{"name", T::Str, true}, {"hostPort", T::Int, true}, {"containerPort", T::Int, false},
                               {"protocol", T::Str, true}, {"hostIP", T::Str, true}};

std::string scalar(const Node* n) { return n && n->is_scalar() && !n->is_null() ? n->text().str() : std::string(); }
std::int64_t integer(const Node* n) { return n && n->is_scalar() ? n->as_int().value_or(0) : 0; }
bool absent(const Node* n) { return !n || n->is_null(); }

void encode(std::string& o, const Node* n, const Field& f);

void encode_struct(std::string& o, const Node* n, const Fields& fields) {
    o += '{';
    bool first = true;
    for (const auto& f : fields) {
        const Node* v = n && n->is_map() ? n->find(f.key) : nullptr;
        if (f.omitempty) {
            const bool empty = absent(v) || (f.type == T::Str && scalar(v).empty()) || (f.type == T::Int && integer(v) == 0) ||
                               ((v->is_seq() && v->items().empty()) || (v->is_map() && v->size() == 0 && f.type != T::StructPtr));
            if (empty) continue;
        }
        if (!first) o += ',';
        first = false;
        append_json_string(o, f.key);
        o += ':';
        encode(o, v, f);
    }
    o += '}';
}

// A map with keys sorted, as encoding/json writes maps.
template <typename Fn>
void encode_map(std::string& o, const Node& m, Fn value) {
    std::vector<const Node::Entry*> es;
    for (const auto& e : m.entries()) es.push_back(&e);
    std::sort(es.begin(), es.end(), [](const Node::Entry* a, const Node::Entry* b) { return a->key < b->key; });
    o += '{';
    for (std::size_t i = 0; i < es.size(); ++i) {
        if (i) o += ',';
        append_json_string(o, es[i]->key);
        o += ':';
        value(es[i]->value);
    }
    o += '}';
}

// A slice: null when nil (absent, or not a sequence), else its items.
template <typename Fn>
void encode_list(std::string& o, const Node* n, Fn item) {
    if (absent(n) || !n->is_seq()) {
        o += "null";
        return;
    }
    o += '[';
    for (std::size_t i = 0; i < n->items().size(); ++i) {
        if (i) o += ',';
        item(n->items()[i]);
    }
    o += ']';
}

std::string quantity(const Node& v) {
    if (auto q = Quantity::parse(scalar(&v))) return q->to_string();
    return scalar(&v);
}

void encode(std::string& o, const Node* n, const Field& f) {
    switch (f.type) {
        case T::Str: append_json_string(o, scalar(n)); return;
        case T::Int: o += std::to_string(integer(n)); return;
        case T::StrPtr:
            if (absent(n)) o += "null";
            else append_json_string(o, scalar(n));
            return;
        case T::IntPtr:
            if (absent(n)) o += "null";
            else o += std::to_string(integer(n));
            return;
        case T::StrList: encode_list(o, n, [&](const Node& v) { append_json_string(o, scalar(&v)); }); return;
        case T::StrMap:
        case T::Quantities:
            if (absent(n) || !n->is_map()) {
                o += "null";
                return;
            }
            encode_map(o, *n, [&](const Node& v) { append_json_string(o, f.type == T::Quantities ? quantity(v) : scalar(&v)); });
            return;
        case T::Struct: encode_struct(o, n, *f.sub); return;
        case T::StructPtr:
            if (absent(n)) o += "null";
            else encode_struct(o, n, *f.sub);
            return;
        case T::StructList: encode_list(o, n, [&](const Node& v) { encode_struct(o, &v, *f.sub); }); return;
    }
}

// ContainersShape: a nil slice (no containers) is null.
void containers_shape(std::string& o, const Node* cs) {
    if (absent(cs) || !cs->is_seq() || cs->items().empty()) {
        o += "null";
        return;
    }
    o += '[';
    for (std::size_t i = 0; i < cs->items().size(); ++i) {
        const Node& c = cs->items()[i];
        if (i) o += ',';
        o += "{\"ports\":";
        encode(o, present(&c, "ports"), {"ports", T::StructList, false, &kContainerPort});
        o += ",\"resources\":{\"requests\":";
        encode(o, present(present(&c, "resources"), "requests"), {"requests", T::Quantities, false});
        o += "}}";
    }
    o += ']';
}

}  // namespace

std::string role_shape_json(const Node& pod_spec) {
    const Node* s = &pod_spec;
    // SpecShape's keys, in the sorted order encoding/json writes them.
    std::string o = "{\"spec\":{\"affinity\":";
    encode(o, present(s, "affinity"), {"affinity", T::StructPtr, false, &kAffinity});
    o += ",\"containers\":";
    containers_shape(o, present(s, "containers"));
    o += ",\"initContainers\":";
    containers_shape(o, present(s, "initContainers"));
    o += ",\"nodeSelector\":";
    encode(o, present(s, "nodeSelector"), {"nodeSelector", T::StrMap, false});
    o += ",\"overhead\":";
    encode(o, present(s, "overhead"), {"overhead", T::Quantities, false});
    o += ",\"priority\":";
    encode(o, present(s, "priority"), {"priority", T::IntPtr, false});
    o += ",\"resourceClaims\":";
    encode(o, present(s, "resourceClaims"), {"resourceClaims", T::StructList, false, &kPodResourceClaim});
    if (const Node* r = present(s, "resources")) {
        o += ",\"resources\":";
        encode(o, present(r, "requests"), {"requests", T::Quantities, false});
    }
    o += ",\"runtimeClassName\":";
    encode(o, present(s, "runtimeClassName"), {"runtimeClassName", T::StrPtr, false});
    o += ",\"tolerations\":";
    encode(o, present(s, "tolerations"), {"tolerations", T::StructList, false, &kToleration});
    o += ",\"topologySpreadConstraints\":";
    encode(o, present(s, "topologySpreadConstraints"), {"topologySpreadConstraints", T::StructList, false, &kTopologySpreadConstraint});
    o += "}}";
    return o;
}

std::string role_hash(const Node& pod_spec) { return sha256_hex(role_shape_json(pod_spec)).substr(0, 8); }

}  // namespace queueforge::workloads::detail
