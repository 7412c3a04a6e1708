#include "frontend/site/parse_parts.hpp"

#include <queueforge/base/names.hpp>

namespace queueforge::site {

namespace {

void read_taints(const Reader& r, const Node* n, const std::string& what, std::vector<Taint>& out) {
    if (!n || !r.expect_seq(*n, what)) return;
    for (std::size_t i = 0; i < n->items().size(); ++i) {
        const Node& t = n->items()[i];
        std::string label = what + "[" + std::to_string(i) + "]";
        if (!r.expect_map(t, label, {"key", "value", "effect"})) continue;
        Taint taint;
        taint.mark = t.mark();
        if (!t.find("key")) r.error(t.mark(), label + ".key: required", "site.required");
        if (!t.find("effect")) r.error(t.mark(), label + ".effect: required", "site.required");
        if (r.read_text(t.find("key"), label + ".key", taint.key)) {
            std::string why = check_qualified_name(taint.key.value);
            if (!why.empty()) r.error(taint.key.mark, label + ".key: " + why, "V13");
        }
        if (const Node* v = t.find("value")) {
            if (v->is_scalar() && !v->is_null()) taint.value = {v->text(), v->mark()};
            else r.error(v->mark(), label + ".value: expected a string", "site.type");
            std::string why = check_label_value(taint.value.value);
            if (!why.empty()) r.error(taint.value.mark, label + ".value: " + why, "V13");
        }
        r.read_enum(t.find("effect"), label + ".effect", taint.effect, {"NoSchedule", "PreferNoSchedule", "NoExecute"});
        out.push_back(std::move(taint));
    }
}

}  // namespace

void read_tolerations(const Reader& r, const Node* n, const std::string& what, std::vector<Node>& out) {
    if (!n || !r.expect_seq(*n, what)) return;
    for (std::size_t i = 0; i < n->items().size(); ++i) {
        const Node& t = n->items()[i];
        std::string label = what + "[" + std::to_string(i) + "]";
        if (!r.expect_map(t, label, {"key", "operator", "value", "effect", "tolerationSeconds"})) continue;
        Text key, op, value, effect;
        r.read_text(t.find("key"), label + ".key", key);
        r.read_enum(t.find("operator"), label + ".operator", op, {"Equal", "Exists"});
        if (const Node* v = t.find("value")) {
            if (v->is_scalar() && !v->is_null()) value = {v->text(), v->mark()};
            else r.error(v->mark(), label + ".value: expected a string", "site.type");
        }
        r.read_enum(t.find("effect"), label + ".effect", effect, {"NoSchedule", "PreferNoSchedule", "NoExecute"});
        std::optional<Located<std::int64_t>> seconds;
        r.read_int(t.find("tolerationSeconds"), label + ".tolerationSeconds", seconds, INT64_MIN, INT64_MAX);
        // The rules of kueue-semantics.md V15/V16 (the ResourceFlavor CEL rules and webhook).
        if (key.value.empty() && op.value != "Exists")
            r.error(t.mark(), label + ": operator must be Exists when 'key' is empty, which means 'match all values and all keys'", "V15");
        if (!key.value.empty()) {
            std::string why = check_qualified_name(key.value);
            if (!why.empty()) r.error(key.mark, label + ".key: " + why, "V16");
        }
        if (seconds && effect.value != "NoExecute")
            r.error(seconds->mark, label + ": effect must be 'NoExecute' when tolerationSeconds is set", "V15");
        if (op.value == "Exists" && !value.value.empty())
            r.error(value.mark, label + ": value must be empty when 'operator' is 'Exists'", "V15");

        // Canonical field order of corev1.Toleration.
        Node tol = Node::mapping(t.mark());
        if (!key.value.empty()) tol.set("key", Node::string(key.value, key.mark));
        if (!op.value.empty()) tol.set("operator", Node::string(op.value, op.mark));
        if (!value.value.empty()) tol.set("value", Node::string(value.value, value.mark));
        if (!effect.value.empty()) tol.set("effect", Node::string(effect.value, effect.mark));
        if (seconds) tol.set("tolerationSeconds", Node::integer(seconds->value, seconds->mark));
        out.push_back(std::move(tol));
    }
}

namespace {

void read_pool_topology(const Reader& r, const Node& n, const std::string& what, PoolTopology& out) {
    out.mark = n.mark();
    if (!r.expect_map(n, what, {"name", "shape"})) return;
    if (r.require(n, "name", what)) r.read_name(n.find("name"), what + ".name", out.name);
    if (!r.require(n, "shape", what)) return;
    const Node* shape = n.find("shape");
    if (!r.expect_seq(*shape, what + ".shape")) return;
    for (std::size_t i = 0; i < shape->items().size(); ++i) {
        std::optional<Located<std::int64_t>> v;
        // Each step at least 1; the product is bounded by the node limit when lowered.
        if (r.read_int(&shape->items()[i], what + ".shape[" + std::to_string(i) + "]", v, 1, kMaxTopologyNodes))
            out.shape.push_back(*v);
    }
    if (shape->items().empty()) r.error(shape->mark(), what + ".shape: expected at least one number", "site.topology");
}

}  // namespace

bool read_topology(const Reader& r, const Node& n, const std::string& what, Topology& out) {
    if (!r.expect_map(n, what, {"name", "levels"})) return false;
    out.mark = n.mark();
    bool ok = r.require(n, "name", what) && r.read_name(n.find("name"), what + ".name", out.name);
    if (!r.require(n, "levels", what)) return false;
    r.read_text_list(n.find("levels"), what + ".levels", out.levels);
    // The Topology CRD (kueue apis/kueue/v1beta2/topology_types.go): 1-16
    // levels, unique, each a label key, kubernetes.io/hostname only lowest.
    const Node* levels = n.find("levels");
    if (levels->is_seq() && (out.levels.empty() || out.levels.size() > 16))
        r.error(levels->mark(),
                what + ".levels: " + std::to_string(out.levels.size()) + " levels; a Topology has 1 to 16",
                "site.topology");
    for (std::size_t i = 0; i < out.levels.size(); ++i) {
        const Text& l = out.levels[i];
        std::string why = check_qualified_name(l.value);
        if (!why.empty()) r.error(l.mark, what + ".levels[" + std::to_string(i) + "]: invalid node label \"" + l.value + "\": " + why, "site.topology");
        for (std::size_t j = 0; j < i; ++j)
            if (out.levels[j].value == l.value)
                r.error(l.mark, what + ".levels[" + std::to_string(i) + "]: \"" + l.value + "\" is already level " + std::to_string(j) + "; levels must be unique", "site.topology");
        if (l.value == kHostnameLabel && i + 1 != out.levels.size())
            r.error(l.mark, what + ".levels[" + std::to_string(i) + "]: the kubernetes.io/hostname label can only be used at the lowest level of topology", "site.topology");
    }
    return ok;
}

bool read_pool(const Reader& r, const Node& n, const std::string& what, Pool& out) {
    if (!r.expect_map(n, what, {"name", "nodeLabels", "taints", "tolerations", "nodes", "allocatable", "topology", "ignore"}))
        return false;
    out.mark = n.mark();
    r.read_rule_list(n.find("ignore"), what + ".ignore", out.ignore);
    if (!r.require(n, "name", what)) return false;
    bool ok = r.read_name(n.find("name"), what + ".name", out.name);
    r.read_string_map(n.find("nodeLabels"), what + ".nodeLabels", out.node_labels);
    for (const auto& [k, v] : out.node_labels) {
        std::string why = check_qualified_name(k.value);
        if (!why.empty()) r.error(k.mark, what + ".nodeLabels: invalid key \"" + k.value + "\": " + why, "V11");
        why = check_label_value(v.value);
        if (!why.empty()) r.error(v.mark, what + ".nodeLabels." + k.value + ": invalid value: " + why, "V11");
    }
    read_taints(r, n.find("taints"), what + ".taints", out.taints);
    read_tolerations(r, n.find("tolerations"), what + ".tolerations", out.tolerations);
    r.read_int(n.find("nodes"), what + ".nodes", out.nodes, 0, 1000000);
    r.read_amounts(n.find("allocatable"), what + ".allocatable", out.allocatable, false);
    if (const Node* t = n.find("topology")) read_pool_topology(r, *t, what + ".topology", out.topology.emplace());
    return ok;
}

bool read_priority_class(const Reader& r, const Node& n, const std::string& what, PriorityClass& out) {
    if (!r.expect_map(n, what, {"name", "value", "description"})) return false;
    out.mark = n.mark();
    bool ok = r.require(n, "name", what);
    if (!n.find("value")) {
        r.error(n.mark(), what + ".value: required (an int32; higher means more important)", "site.required");
        ok = false;
    }
    ok = r.read_name(n.find("name"), what + ".name", out.name) && ok;
    std::optional<Located<std::int64_t>> v;
    // WorkloadPriorityClass.value is an int32 (kueue-semantics.md V55).
    if (r.read_int(n.find("value"), what + ".value", v, INT32_MIN, INT32_MAX)) out.value = *v;
    else ok = false;
    r.read_text(n.find("description"), what + ".description", out.description);
    return ok;
}

}  // namespace queueforge::site
