// ResourceFlavor: the CRD's CEL rules on nodeTaints, tolerations and spec,
// and Kueue's webhook (kueue-semantics.md 2.2,
// pkg/webhooks/resourceflavor_webhook.go).
#include "checks/rules/kinds.hpp"
#include "checks/rules/selector.hpp"

#include <queueforge/base/names.hpp>

#include <functional>
#include <map>
#include <set>

namespace queueforge::rules::detail {

namespace {

constexpr std::string_view kEffects = "supported taint effect values: 'NoSchedule', 'PreferNoSchedule', 'NoExecute'";

bool known_effect(const std::string& e) { return e == "NoSchedule" || e == "PreferNoSchedule" || e == "NoExecute"; }

// Go's json.Marshal of a corev1.Taint (key, value omitempty, effect), the
// value a Duplicate error prints.
std::string taint_json(const Node& t) {
    std::string s = "{\"key\":" + go_quote(text(present(&t, "key")));
    if (auto v = text(present(&t, "value")); !v.empty()) s += ",\"value\":" + go_quote(v);
    return s + ",\"effect\":" + go_quote(text(present(&t, "effect"))) + "}";
}

// A list-level CEL rule (`self.all(x, ...)`) fails once for the whole list;
// the finding points at the first item that breaks it.
void cel_all(const Reporter& rep, const std::string& rule, const Node::Items& list, const std::string& path,
             std::string_view message, const std::function<const Node*(const Node&)>& failing_node,
             const std::string& field) {
    for (std::size_t i = 0; i < list.size(); ++i) {
        if (const Node* bad = failing_node(list[i])) {
            rep.error(rule, bad, index(path, i) + field, cel(path, "array", message));
            return;
        }
    }
}

void check_taints(const Reporter& rep, const Node* spec) {
    const auto& taints = items(present(spec, "nodeTaints"));
    const std::string path = "spec.nodeTaints";
    // V12 (CEL): effect is one of the three. A missing effect is the schema's
    // "Required value".
    cel_all(rep, "V12", taints, path, kEffects,
            [](const Node& t) -> const Node* {
                const Node* e = present(&t, "effect");
                return e && !known_effect(text(e)) ? e : nullptr;
            },
            ".effect");
    std::map<std::string, std::set<std::string>> seen;  // effect -> keys
    for (std::size_t i = 0; i < taints.size(); ++i) {
        const Node& t = taints[i];
        const std::string p = index(path, i);
        const Node* k = present(&t, "key");
        const Node* v = present(&t, "value");
        // V13: key is a label key, value a label value.
        if (k && is_text(k))
            if (auto why = check_qualified_name(k->text()); !why.empty()) rep.error("V13", k, p + ".key", invalid(p + ".key", go_quote(k->text()), why));
        if (v && is_text(v))
            if (auto why = check_label_value(v->text()); !why.empty()) rep.error("V13", v, p + ".value", invalid(p + ".value", go_quote(v->text()), why));
        // V14: unique by (key, effect).
        if (!seen[text(present(&t, "effect"))].insert(text(k)).second)
            rep.error("V14", &t, p, duplicate(p, taint_json(t), "taints must be unique by key and effect pair"));
    }
}

void check_tolerations(const Reporter& rep, const Node* spec) {
    const auto& tols = items(present(spec, "tolerations"));
    const std::string path = "spec.tolerations";
    // V15 a-e: the five CEL rules on the list, in CRD order. has() is key
    // presence: `key: ""` counts as set, an explicit null does not.
    cel_all(rep, "V15", tols, path, "operator must be Exists when 'key' is empty, which means 'match all values and all keys'",
            [](const Node& t) -> const Node* {
                if (present(&t, "key")) return nullptr;
                const Node* op = present(&t, "operator");
                return text(op) == "Exists" ? nullptr : (op ? op : &t);
            },
            "");
    cel_all(rep, "V15", tols, path, "effect must be 'NoExecute' when 'tolerationSeconds' is set",
            [](const Node& t) -> const Node* {
                const Node* secs = present(&t, "tolerationSeconds");
                if (!secs) return nullptr;
                const Node* e = present(&t, "effect");
                return text(e) == "NoExecute" ? nullptr : (e ? e : secs);
            },
            "");
    cel_all(rep, "V15", tols, path, "supported toleration values: 'Equal'(default), 'Exists'",
            [](const Node& t) -> const Node* {
                const Node* op = present(&t, "operator");
                return op && text(op) != "Equal" && text(op) != "Exists" ? op : nullptr;
            },
            ".operator");
    cel_all(rep, "V15", tols, path, "a value must be empty when 'operator' is 'Exists'",
            [](const Node& t) -> const Node* {
                return text(present(&t, "operator")) == "Exists" ? present(&t, "value") : nullptr;
            },
            ".value");
    cel_all(rep, "V15", tols, path, kEffects,
            [](const Node& t) -> const Node* {
                const Node* e = present(&t, "effect");
                return e && !known_effect(text(e)) ? e : nullptr;
            },
            ".effect");
    // V16 (webhook): a non-empty key is a label key.
    for (std::size_t i = 0; i < tols.size(); ++i) {
        const Node* k = present(&tols[i], "key");
        if (!is_text(k) || k->text().empty()) continue;
        const std::string p = index(path, i) + ".key";
        if (auto why = check_qualified_name(k->text()); !why.empty()) rep.error("V16", k, p, invalid(p, go_quote(k->text()), why));
    }
}

}  // namespace

void check_resource_flavor(const Reporter& rep) {
    const Node* spec = present(&rep.r.doc, "spec");
    if (!spec) return;
    // V17 (CEL on spec): a TAS flavor needs node labels. Its update-time
    // immutability rules need the old object.
    if (const Node* topo = present(spec, "topologyName")) {
        const Node* labels = present(spec, "nodeLabels");
        if (!labels || !labels->is_map() || labels->size() == 0)
            rep.error("V17", topo, "spec.topologyName", cel("spec", "object", "at least one nodeLabel is required when topology is set"));
    }
    if (const Node* labels = present(spec, "nodeLabels")) validate_labels(rep, "V11", *labels, "spec.nodeLabels");
    check_taints(rep, spec);
    check_tolerations(rep, spec);
}

}  // namespace queueforge::rules::detail
