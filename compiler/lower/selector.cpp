#include "lower/selector.hpp"

#include "lower/metadata.hpp"


#include <algorithm>
#include <vector>

namespace queueforge::lower {

namespace {

constexpr const char* kNameLabel = "kubernetes.io/metadata.name";

Node checked_selector(Context& ctx, const Node& sel, const std::string& what) {
    Node out = Node::mapping();
    for (const auto& e : sel.entries())
        if (e.key != "matchLabels" && e.key != "matchExpressions")
            ctx.error(e.key_mark(), what + ": unknown field \"" + e.key + "\" in a label selector (matchLabels, matchExpressions)", "site.unknown-field");
    if (const Node* ml = sel.find("matchLabels")) {
        if (!ml->is_map()) {
            ctx.error(ml->mark(), what + ".matchLabels: expected a map of strings", "site.type");
        } else {
            std::vector<std::pair<std::string, std::string>> kv;
            for (const auto& e : ml->entries()) {
                if (!e.value.is_scalar() || e.value.is_null())
                    ctx.error(e.value.mark(), what + ".matchLabels." + e.key + ": expected a string", "site.type");
                kv.emplace_back(e.key, e.value.text());
            }
            out.set("matchLabels", sorted_string_map(std::move(kv)));
        }
    }
    if (const Node* me = sel.find("matchExpressions")) {
        if (!me->is_seq()) {
            ctx.error(me->mark(), what + ".matchExpressions: expected a list", "site.type");
            return out;
        }
        Node exprs = Node::sequence();
        for (const auto& x : me->items()) {
            if (!x.is_map()) {
                ctx.error(x.mark(), what + ".matchExpressions: expected a map with key, operator, values", "site.type");
                continue;
            }
            const Node* key = x.find("key");
            const Node* op = x.find("operator");
            const Node* values = x.find("values");
            for (const auto& e : x.entries())
                if (e.key != "key" && e.key != "operator" && e.key != "values")
                    ctx.error(e.key_mark(), what + ".matchExpressions: unknown field \"" + e.key + "\"", "site.unknown-field");
            // The shape is the site's to check; what Kueue's webhook refuses
            // (keys, operators, values: V32) is checked on the ClusterQueue by
            // the compile step (checks/rules), so the expression is lowered as
            // written.
            if (!key || !key->is_string()) {
                ctx.error(x.mark(), what + ".matchExpressions: key is required", "site.required");
                continue;
            }
            if (!op || !op->is_string()) {
                ctx.error(op ? op->mark() : x.mark(), what + ".matchExpressions: operator is required (In, NotIn, Exists, DoesNotExist)",
                          "site.required");
                continue;
            }
            const std::string o = op->text();
            std::size_t n = values && values->is_seq() ? values->items().size() : 0;
            if (values && !values->is_seq()) ctx.error(values->mark(), what + ".matchExpressions.values: expected a list", "site.type");
            Node e = Node::mapping();
            e.set("key", Node::string(key->text()));
            e.set("operator", Node::string(o));
            if (n > 0) {
                Node vs = Node::sequence();
                for (const auto& v : values->items()) {
                    if (!v.is_scalar() || v.is_null())
                        ctx.error(v.mark(), what + ".matchExpressions.values: expected a string", "site.type");
                    vs.push(Node::string(v.text()));
                }
                e.set("values", std::move(vs));
            }
            exprs.push(std::move(e));
        }
        out.set("matchExpressions", std::move(exprs));
    }
    return out;
}

}  // namespace

Node namespace_selector(Context& ctx, const site::Team& team, const Trace& at) {
    const std::string what = "team \"" + team.name.value + "\" namespaceSelector";
    if (team.selector) {
        Node sel = checked_selector(ctx, *team.selector, what);
        // Keys and values are copied from the site's selector; the sorted
        // matchLabels are found by key, the expressions by position.
        at.set(team.selector->mark(), Derivation::Written, "the team's label selector");
        // Keys are the site's own (Trace keys must outlive add_object).
        const Node* src_ml = team.selector->find("matchLabels");
        if (src_ml && src_ml->is_map() && sel.find("matchLabels"))
            for (const auto& e : src_ml->entries()) at.field("matchLabels").set(e.key, e.value.mark(), Derivation::Written);
        const Node* src_me = team.selector->find("matchExpressions");
        if (const Node* me = sel.find("matchExpressions"); me && src_me && src_me->is_seq() &&
                                                          me->items().size() == src_me->items().size())
            for (std::size_t i = 0; i < me->items().size(); ++i) at.field("matchExpressions").item(i).set_copied(src_me->items()[i]);
        return sel;
    }
    // An empty selector admits every namespace; a missing one admits none
    // (kueue-semantics.md 1.4), so the selector is always written.
    if (team.selector_mode.value == "all") {
        at.set(team.selector_mode.mark, Derivation::Formed, "namespaceSelector: all is {} (every namespace)");
        return Node::mapping();
    }
    if (team.namespaces.empty()) {
        ctx.error(team.mark,
                  "team \"" + team.name.value +
                      "\": no namespaces; list them in namespaces or set namespaceSelector: all (a ClusterQueue that selects no namespace admits nothing)",
                  "site.namespaces");
        return Node::mapping();
    }
    // The In list is a set: written sorted and once each, so reordering (or
    // repeating) the team's namespaces changes no byte of the output. Each
    // value traces to its first mention in the site.
    std::vector<const site::Text*> names;
    for (const auto& ns : team.namespaces) names.push_back(&ns);
    std::stable_sort(names.begin(), names.end(), [](const site::Text* a, const site::Text* b) { return a->value < b->value; });
    names.erase(std::unique(names.begin(), names.end(), [](const site::Text* a, const site::Text* b) { return a->value == b->value; }),
                names.end());
    Node sel = Node::mapping();
    if (names.size() == 1) {
        sel.set("matchLabels", sorted_string_map({{kNameLabel, names.front()->value}}));
        at.set(names.front()->mark, Derivation::Formed,
               "the team's one namespace, selected by its kubernetes.io/metadata.name label");
        return sel;
    }
    at.set(team.namespaces.front().mark, Derivation::Formed,
           "the team's namespaces, selected by their kubernetes.io/metadata.name label");
    Trace values_tr = at.field("matchExpressions").item(0).field("values");
    for (std::size_t i = 0; i < names.size(); ++i)
        values_tr.item(i).set(names[i]->mark, Derivation::Written, "a namespace of the team");
    Node expr = Node::mapping();
    expr.set("key", Node::string(kNameLabel));
    expr.set("operator", Node::string("In"));
    Node values = Node::sequence();
    for (const auto* ns : names) values.push(Node::string(ns->value));
    expr.set("values", std::move(values));
    Node exprs = Node::sequence();
    exprs.push(std::move(expr));
    sel.set("matchExpressions", std::move(exprs));
    return sel;
}

}  // namespace queueforge::lower
