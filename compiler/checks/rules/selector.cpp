#include "checks/rules/selector.hpp"

#include <queueforge/model/selector.hpp>
#include <queueforge/base/names.hpp>

#include <algorithm>

namespace queueforge::rules::detail {

void validate_labels(const Reporter& rep, const std::string& rule, const Node& labels, const std::string& path) {
    if (!labels.is_map()) return;  // the schema layer reports the type
    for (const auto& e : labels.entries()) {
        if (auto why = check_qualified_name(e.key); !why.empty())
            rep.error_at(rule, e.key_mark(), key(path, e.key), invalid(path, go_quote(e.key), why));
        if (!is_text(&e.value)) continue;
        if (auto why = check_label_value(e.value.text()); !why.empty())
            rep.error(rule, &e.value, key(path, e.key), invalid(path, go_quote(e.value.text()), why));
    }
}

void validate_label_selector(const Reporter& rep, const Node& selector, const std::string& path) {
    if (!selector.is_map()) return;
    if (const Node* ml = present(&selector, "matchLabels")) validate_labels(rep, "V32", *ml, path + ".matchLabels");
    const auto& exprs = items(present(&selector, "matchExpressions"));
    for (std::size_t i = 0; i < exprs.size(); ++i) {
        const Node& x = exprs[i];
        if (!x.is_map()) continue;
        const std::string p = index(path + ".matchExpressions", i);
        const Node* op = present(&x, "operator");
        const Node* values = present(&x, "values");
        const std::size_t n = items(values).size();
        const std::string o = text(op);
        if (o == "In" || o == "NotIn") {
            if (n == 0)
                rep.error("V32", values ? values : &x, p + ".values",
                          required(p + ".values", "must be specified when `operator` is 'In' or 'NotIn'"));
        } else if (o == "Exists" || o == "DoesNotExist") {
            if (n > 0)
                rep.error("V32", values, p + ".values",
                          forbidden(p + ".values", "may not be specified when `operator` is 'Exists' or 'DoesNotExist'"));
        } else if (op) {
            // A missing operator is the schema's "Required value"; a wrong one is ours.
            rep.error("V32", op, p + ".operator", invalid(p + ".operator", go_quote(o), "not a valid selector operator"));
        }
        if (const Node* k = present(&x, "key"); is_text(k))
            if (auto why = check_qualified_name(k->text()); !why.empty())
                rep.error("V32", k, p + ".key", invalid(p + ".key", go_quote(k->text()), why));
        const auto& vs = items(values);
        for (std::size_t j = 0; j < vs.size(); ++j) {
            if (!is_text(&vs[j])) continue;
            if (auto why = check_label_value(vs[j].text()); !why.empty())
                rep.error("V32", &vs[j], index(p + ".values", j), invalid(index(p + ".values", j), go_quote(vs[j].text()), why));
        }
    }
}

std::string describe_labels(const Labels& labels) {
    std::vector<std::string> parts;
    for (const auto& [k, v] : labels) parts.push_back(k + "=" + v);
    return join(parts, ", ");
}

bool selector_is_empty(const Node& selector) {
    if (!selector.is_map()) return false;
    const Node* ml = present(&selector, "matchLabels");
    const Node* me = present(&selector, "matchExpressions");
    return (!ml || (ml->is_map() && ml->size() == 0)) && items(me).empty();
}

std::optional<bool> selector_matches(const Node& selector, const Labels& labels) {
    if (!selector.is_map()) return std::nullopt;
    bool ok = true;
    if (const Node* ml = present(&selector, "matchLabels")) {
        if (!ml->is_map()) return std::nullopt;
        for (const auto& e : ml->entries())
            if (!model::label_matches(e.key, text(&e.value), labels)) ok = false;
    }
    for (const auto& x : items(present(&selector, "matchExpressions"))) {
        const std::string k = text(present(&x, "key"));
        const std::string o = text(present(&x, "operator"));
        std::vector<std::string> values;
        for (const auto& v : items(present(&x, "values"))) values.push_back(text(&v));
        // Same validity rules as labels.Parse / LabelSelectorAsSelector;
        // the match itself is the model's.
        const bool needs_values = o == "In" || o == "NotIn";
        const bool takes_none = o == "Exists" || o == "DoesNotExist";
        if ((needs_values && values.empty()) || (takes_none && !values.empty())) return std::nullopt;
        auto m = model::requirement_matches(k, o, values, labels);
        if (!m) return std::nullopt;
        ok = ok && *m;
    }
    return ok;
}

bool node_selected(const Resource& node, const Labels& node_labels) {
    const Labels labels = string_map(present(present(&node.doc, "metadata"), "labels"));
    for (const auto& [k, v] : node_labels)
        if (!model::label_matches(k, v, labels)) return false;
    return true;
}

}  // namespace queueforge::rules::detail
