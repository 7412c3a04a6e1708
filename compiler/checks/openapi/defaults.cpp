// Defaulting and CEL rule listing: the two walks over a compiled schema that
// need no diagnostics.
#include "checks/openapi/schema.hpp"

namespace queueforge::openapi {

namespace {

// Defaults come from the CRD file; their marks would point there. Give the
// copy the position of the object it lands in instead.
void set_marks(Node& n, Mark m) {
    n.set_mark(m);
    if (n.is_seq()) {
        for (auto& i : n.items()) set_marks(i, m);
    } else if (n.is_map()) {
        for (auto& e : n.entries()) {
            e.set_key_mark(m);
            set_marks(e.value, m);
        }
    }
}

Node copy_default(const Node& d, Mark at) {
    Node c = d;
    set_marks(c, at);
    return c;
}

const Schema* schema_for_key(const Schema& s, std::string_view key) {
    if (const Schema* p = s.property(key)) return p;
    return s.extra == Extra::Schema ? s.additional.get() : nullptr;
}

// defaulting.PruneNonNullableNullsWithoutDefaults.
void prune_nulls(Node& x, const Schema* s) {
    if (!s) return;
    if (x.is_map()) {
        auto& entries = x.entries();
        for (std::size_t i = 0; i < entries.size();) {
            const Schema* sub = schema_for_key(*s, entries[i].key);
            if (sub && entries[i].value.is_null() && !sub->nullable && !sub->default_value) {
                entries.erase(entries.begin() + static_cast<std::ptrdiff_t>(i));
                continue;
            }
            prune_nulls(entries[i].value, sub);
            ++i;
        }
    } else if (x.is_seq()) {
        for (auto& i : x.items()) prune_nulls(i, s->items.get());
    }
}

// defaulting.Default: fill, then descend (so defaults inside defaults apply).
void fill(Node& x, const Schema* s) {
    if (!s) return;
    if (x.is_map()) {
        for (const auto& p : s->properties) {
            if (!p.schema->default_value) continue;
            const Node* cur = x.find(p.name);
            if (!cur || (cur->is_null() && !p.schema->nullable))
                x.set(p.name, copy_default(*p.schema->default_value, x.mark()));
        }
        for (auto& e : x.entries()) {
            if (const Schema* p = s->property(e.key)) {
                fill(e.value, p);
            } else if (s->extra == Extra::Schema) {
                const Schema* a = s->additional.get();
                if (e.value.is_null() && !a->nullable && a->default_value)
                    e.value = copy_default(*a->default_value, x.mark());
                fill(e.value, a);
            }
        }
    } else if (x.is_seq()) {
        const Schema* items = s->items.get();
        for (auto& i : x.items()) {
            if (items && i.is_null() && !items->nullable && items->default_value)
                i = copy_default(*items->default_value, x.mark());
            fill(i, items);
        }
    }
}

void collect(const Schema& s, std::vector<CelRule>& out) {
    // A rule with only a messageExpression is listed with that expression.
    for (const auto& c : s.cel)
        out.push_back(CelRule{s.schema_path, c.rule, c.message.empty() ? c.message_expression : c.message});
    for (const auto& p : s.properties) collect(*p.schema, out);
    if (s.items) collect(*s.items, out);
    if (s.additional) collect(*s.additional, out);
    for (const auto& p : s.pattern_properties) collect(*p.schema, out);
    for (const auto* list : {&s.all_of, &s.any_of, &s.one_of})
        for (const auto& j : *list) collect(*j, out);
    if (s.not_) collect(*s.not_, out);
}

}  // namespace

void apply_defaults(const Schema& schema, Node& doc) {
    prune_nulls(doc, &schema);
    fill(doc, &schema);
}

std::vector<CelRule> cel_rules(const Schema& schema) {
    std::vector<CelRule> out;
    collect(schema, out);
    return out;
}

}  // namespace queueforge::openapi
