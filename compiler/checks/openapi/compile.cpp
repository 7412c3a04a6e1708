// openAPIV3Schema node -> compiled Schema tree. Keyword values of the wrong
// shape are errors (the API server would reject such a CRD), never crashes;
// keywords the validator does not know (description, example, ...) are
// ignored.
#include "checks/openapi/schema.hpp"
#include "checks/openapi/values.hpp"

#include <algorithm>
#include <cmath>
#include <string>
#include <utility>

namespace queueforge::openapi {

namespace {

// Real CRD schemas nest a few dozen levels; anything deeper is hostile.
constexpr int kMaxSchemaDepth = 256;

class Compiler {
public:
    Compiler(const std::string& file, Diagnostics& diags) : file_(file), diags_(diags) {}

    bool failed() const { return failed_; }

    std::unique_ptr<Schema> compile(const Node& n, const std::string& path, int depth) {
        auto s = std::make_unique<Schema>();
        s->schema_path = path;
        if (depth > kMaxSchemaDepth) {
            error(n, path, "schema is nested more than " + std::to_string(kMaxSchemaDepth) + " levels deep");
            return s;
        }
        if (!n.is_map()) {
            error(n, path, std::string("a schema must be an object, not ") + json_type_name(n));
            return s;
        }
        std::string single_type;  // for format resolution
        const Node* format = nullptr;
        for (const auto& e : n.entries()) keyword(*s, e, path, depth, single_type, format);
        if (s->int_or_string) {
            s->types = type_bit::Integer | type_bit::String;
            s->type_name = "integer,string";
            single_type.clear();
        }
        if (format) {
            s->format_name = format->text();
            s->format = resolve_format(s->format_name, single_type);
        }
        if (s->list_type == ListType::Map && s->list_map_keys.empty())
            error(n, path, "x-kubernetes-list-type map requires x-kubernetes-list-map-keys");
        s->by_name.resize(s->properties.size());
        for (std::uint32_t i = 0; i < s->by_name.size(); ++i) s->by_name[i] = i;
        std::sort(s->by_name.begin(), s->by_name.end(), [&](std::uint32_t a, std::uint32_t b) {
            return s->properties[a].name < s->properties[b].name;
        });
        for (const auto& r : s->required) s->required_index.push_back(s->property_index(r));
        return s;
    }

private:
    const std::string& file_;
    Diagnostics& diags_;
    bool failed_ = false;

    static std::string where(const std::string& path) { return path.empty() ? "<root>" : path; }

    void error(const Node& at, const std::string& path, const std::string& msg) {
        diags_.add(Diagnostic{.severity = Severity::Error,
                              .file = file_,
                              .mark = at.mark(),
                              .message = "schema " + where(path) + ": " + msg,
                              .rule = "schema.invalid",
                              .path = path});
        failed_ = true;
    }

    void warning(const Node& at, const std::string& path, const std::string& msg) {
        diags_.add(Diagnostic{.severity = Severity::Warning,
                              .file = file_,
                              .mark = at.mark(),
                              .message = "schema " + where(path) + ": " + msg,
                              .rule = "schema.unsupported",
                              .path = path});
    }

    bool want_bool(const Node& v, const std::string& path, const std::string& key, bool& out) {
        if (v.kind() != Node::Kind::Bool) {
            error(v, path, "\"" + key + "\" must be a boolean");
            return false;
        }
        out = v.as_bool();
        return true;
    }

    bool want_string(const Node& v, const std::string& path, const std::string& key) {
        if (!v.is_string()) {
            error(v, path, "\"" + key + "\" must be a string");
            return false;
        }
        return true;
    }

    void want_count(const Node& v, const std::string& path, const std::string& key, std::optional<std::int64_t>& out) {
        auto num = number_of(v);
        if (!num || !num->is_int || num->i < 0) {
            error(v, path, "\"" + key + "\" must be a non-negative integer");
            return;
        }
        out = num->i;
    }

    void want_number(const Node& v, const std::string& path, const std::string& key, std::optional<Bound>& out) {
        auto num = number_of(v);
        if (!num || !std::isfinite(num->d)) {
            error(v, path, "\"" + key + "\" must be a number");
            return;
        }
        bool exclusive = out ? out->exclusive : false;
        out = Bound{num->d, exclusive};
    }

    void want_strings(const Node& v, const std::string& path, const std::string& key, std::vector<std::string>& out) {
        if (!v.is_seq()) {
            error(v, path, "\"" + key + "\" must be a list of strings");
            return;
        }
        for (const auto& i : v.items()) {
            if (!i.is_string()) {
                error(i, path, "\"" + key + "\" must be a list of strings");
                return;
            }
            out.push_back(i.text());
        }
    }

    std::unique_ptr<RE2> regex(const Node& v, const std::string& path, const std::string& what) {
        RE2::Options opt;
        opt.set_log_errors(false);
        auto re = std::make_unique<RE2>(v.text().view(), opt);
        if (!re->ok()) {
            error(v, path, what + " " + go_quote(v.text()) + " is not a valid regular expression: " + re->error());
            return nullptr;
        }
        return re;
    }

    void types(Schema& s, const Node& v, const std::string& path, std::string& single_type) {
        auto add = [&](const Node& name) {
            static constexpr std::pair<std::string_view, std::uint8_t> known[] = {
                {"object", type_bit::Object},   {"array", type_bit::Array},     {"string", type_bit::String},
                {"integer", type_bit::Integer}, {"number", type_bit::Number},   {"boolean", type_bit::Boolean},
                {"null", type_bit::Null},
            };
            for (const auto& [n, bit] : known) {
                if (name.text() == n) {
                    s.types |= bit;
                    if (!s.type_name.empty()) s.type_name += ",";
                    s.type_name += name.text();
                    return true;
                }
            }
            error(name, path, "unsupported type " + go_quote(name.text()));
            return false;
        };
        if (v.is_string()) {
            if (v.text().empty()) return;  // `type: ""` is the same as no type
            if (add(v)) single_type = v.text();
        } else if (v.is_seq()) {
            for (const auto& i : v.items()) {
                if (!i.is_string()) {
                    error(i, path, "\"type\" must be a string");
                    continue;
                }
                add(i);
            }
            if (v.items().size() == 1 && v.items()[0].is_string()) single_type = v.items()[0].text();
        } else {
            error(v, path, "\"type\" must be a string");
        }
    }

    void junctor(const Node& v, const std::string& path, int depth, const std::string& key,
                 std::vector<std::unique_ptr<Schema>>& out) {
        if (!v.is_seq() || v.items().empty()) {
            error(v, path, "\"" + key + "\" must be a non-empty list of schemas");
            return;
        }
        for (const auto& i : v.items()) out.push_back(compile(i, path, depth + 1));
    }

    void cel(Schema& s, const Node& v, const std::string& path) {
        if (!v.is_seq()) {
            error(v, path, "\"x-kubernetes-validations\" must be a list");
            return;
        }
        for (const auto& r : v.items()) {
            const Node* rule = r.is_map() ? r.find("rule") : nullptr;
            if (!rule || !rule->is_string()) {
                error(r, path, "x-kubernetes-validations entries need a string \"rule\"");
                continue;
            }
            CelEntry c;
            c.rule = rule->text();
            c.file = file_;
            c.mark = rule->mark();
            auto text = [&](const char* key, std::string& out) {
                if (const Node* n = r.find(key); n && n->is_string()) out = n->text();
            };
            text("message", c.message);
            text("messageExpression", c.message_expression);
            text("fieldPath", c.field_path);
            if (const Node* o = r.find("optionalOldSelf"); o && o->kind() == Node::Kind::Bool)
                c.optional_old_self = o->as_bool();
            if (const Node* reason = r.find("reason"); reason && reason->is_string()) {
                const std::string& t = reason->text();
                if (t == "FieldValueForbidden")
                    c.reason = CelReason::Forbidden;
                else if (t == "FieldValueRequired")
                    c.reason = CelReason::Required;
                else if (t == "FieldValueDuplicate")
                    c.reason = CelReason::Duplicate;
                else if (t != "FieldValueInvalid")
                    // The API server refuses such a CRD; reporting the rule's
                    // failures as invalid values loses nothing else.
                    warning(*reason, path, "x-kubernetes-validations reason " + go_quote(t) +
                                               " is not one of FieldValueInvalid, FieldValueForbidden, "
                                               "FieldValueRequired, FieldValueDuplicate; FieldValueInvalid is used");
            }
            s.cel.push_back(std::move(c));
        }
    }

    void keyword(Schema& s, const Node::Entry& e, const std::string& path, int depth, std::string& single_type,
                 const Node*& format) {
        const std::string& k = e.key;
        const Node& v = e.value;
        if (k == "type") {
            types(s, v, path, single_type);
        } else if (k == "format") {
            if (want_string(v, path, k)) format = &v;
        } else if (k == "nullable") {
            want_bool(v, path, k, s.nullable);
        } else if (k == "properties") {
            if (!v.is_map()) {
                error(v, path, "\"properties\" must be a map of schemas");
                return;
            }
            for (const auto& p : v.entries()) {
                std::string child = path.empty() ? p.key.str() : path + "." + p.key;
                s.properties.push_back(Property{p.key, compile(p.value, child, depth + 1)});
            }
        } else if (k == "required") {
            want_strings(v, path, k, s.required);
        } else if (k == "items") {
            if (v.is_seq()) {
                // Structural schemas allow one items schema only (the API server:
                // "items must be a schema object and not an array").
                error(v, path, "items must be a schema object and not an array");
            } else {
                s.items = compile(v, path + "[*]", depth + 1);
            }
        } else if (k == "additionalProperties") {
            if (v.kind() == Node::Kind::Bool) {
                s.extra = v.as_bool() ? Extra::Allow : Extra::Deny;
            } else {
                s.extra = Extra::Schema;
                s.additional = compile(v, path + ".*", depth + 1);
            }
        } else if (k == "patternProperties") {
            if (!v.is_map()) {
                error(v, path, "\"patternProperties\" must be a map of schemas");
                return;
            }
            for (const auto& p : v.entries()) {
                auto re = regex(Node::string(p.key, p.key_mark()), path, "patternProperties key");
                auto sub = compile(p.value, path + ".*", depth + 1);
                if (re) s.pattern_properties.push_back(PatternProperty{std::move(re), std::move(sub)});
            }
        } else if (k == "enum") {
            if (!v.is_seq()) {
                error(v, path, "\"enum\" must be a list");
                return;
            }
            s.enum_values.assign(v.items().begin(), v.items().end());
            s.has_enum = !s.enum_values.empty();
            s.enum_all_strings = std::all_of(s.enum_values.begin(), s.enum_values.end(),
                                             [](const Node& x) { return x.is_string(); });
            if (s.enum_all_strings)
                for (const auto& x : s.enum_values) s.enum_strings.push_back(x.text());
        } else if (k == "pattern") {
            if (want_string(v, path, k)) s.pattern = regex(v, path, "pattern");
        } else if (k == "minimum") {
            want_number(v, path, k, s.minimum);
        } else if (k == "maximum") {
            want_number(v, path, k, s.maximum);
        } else if (k == "exclusiveMinimum" || k == "exclusiveMaximum") {
            // OpenAPI 3.0 (draft-4) form: a boolean next to minimum/maximum.
            bool b = false;
            if (!want_bool(v, path, k, b)) return;
            auto& bound = k == "exclusiveMinimum" ? s.minimum : s.maximum;
            if (bound)
                bound->exclusive = b;
            else if (b)
                bound = Bound{std::nan(""), true};  // filled when the bound itself is read
        } else if (k == "multipleOf") {
            auto num = number_of(v);
            if (!num || !(num->d > 0) || !std::isfinite(num->d)) {
                error(v, path, "\"multipleOf\" must be a number greater than zero");
                return;
            }
            s.multiple_of = num->d;
        } else if (k == "minLength") {
            want_count(v, path, k, s.min_length);
        } else if (k == "maxLength") {
            want_count(v, path, k, s.max_length);
        } else if (k == "minItems") {
            want_count(v, path, k, s.min_items);
        } else if (k == "maxItems") {
            want_count(v, path, k, s.max_items);
        } else if (k == "minProperties") {
            want_count(v, path, k, s.min_properties);
        } else if (k == "maxProperties") {
            want_count(v, path, k, s.max_properties);
        } else if (k == "uniqueItems") {
            want_bool(v, path, k, s.unique_items);
        } else if (k == "allOf") {
            junctor(v, path, depth, k, s.all_of);
        } else if (k == "anyOf") {
            junctor(v, path, depth, k, s.any_of);
        } else if (k == "oneOf") {
            junctor(v, path, depth, k, s.one_of);
        } else if (k == "not") {
            s.not_ = compile(v, path, depth + 1);
        } else if (k == "default") {
            s.default_value = v;
        } else if (k == "dependencies") {
            if (!v.is_map()) {
                error(v, path, "\"dependencies\" must be a map");
                return;
            }
            for (const auto& d : v.entries()) {
                Dependency dep{d.key, {}, nullptr};
                if (d.value.is_seq())
                    want_strings(d.value, path, "dependencies." + d.key, dep.required);
                else
                    dep.schema = compile(d.value, path, depth + 1);
                s.dependencies.push_back(std::move(dep));
            }
        } else if (k == "x-kubernetes-int-or-string") {
            want_bool(v, path, k, s.int_or_string);
        } else if (k == "x-kubernetes-preserve-unknown-fields") {
            want_bool(v, path, k, s.preserve_unknown);
        } else if (k == "x-kubernetes-embedded-resource") {
            want_bool(v, path, k, s.embedded_resource);
        } else if (k == "x-kubernetes-list-type") {
            if (!want_string(v, path, k)) return;
            if (v.text() == "atomic")
                s.list_type = ListType::Atomic;
            else if (v.text() == "set")
                s.list_type = ListType::Set;
            else if (v.text() == "map")
                s.list_type = ListType::Map;
            else
                error(v, path, "x-kubernetes-list-type must be atomic, set or map, not " + go_quote(v.text()));
        } else if (k == "x-kubernetes-list-map-keys") {
            want_strings(v, path, k, s.list_map_keys);
        } else if (k == "x-kubernetes-map-type") {
            if (want_string(v, path, k)) s.map_type = v.text();
        } else if (k == "x-kubernetes-validations") {
            cel(s, v, path);
        } else if (k == "$ref") {
            error(v, path, "$ref is not supported: CRD schemas must be self-contained");
        } else if (k == "additionalItems" || k == "definitions") {
            warning(v, path, "\"" + k + "\" is not part of structural schemas and is ignored");
        }
    }
};

// exclusiveMinimum read before minimum leaves a NaN placeholder; a bound with
// no value is no bound.
void settle_bounds(Schema& s) {
    for (auto* b : {&s.minimum, &s.maximum})
        if (*b && std::isnan((*b)->value)) b->reset();
    for (auto& p : s.properties) settle_bounds(*p.schema);
    if (s.items) settle_bounds(*s.items);
    if (s.additional) settle_bounds(*s.additional);
    for (auto& p : s.pattern_properties) settle_bounds(*p.schema);
    for (auto& d : s.dependencies)
        if (d.schema) settle_bounds(*d.schema);
    for (auto* list : {&s.all_of, &s.any_of, &s.one_of})
        for (auto& j : *list) settle_bounds(*j);
    if (s.not_) settle_bounds(*s.not_);
}

// Rules of an allOf branch apply to the value of the node with the allOf.
bool branch_rules(const Schema& s) {
    if (!s.cel.empty()) return true;
    for (const auto& a : s.all_of)
        if (branch_rules(*a)) return true;
    return false;
}

// Sets cel_below where the CEL walk finds rules: on the node, its allOf
// branches, properties, items or additionalProperties.
bool settle_cel(Schema& s) {
    bool below = branch_rules(s);
    for (auto& p : s.properties) below |= settle_cel(*p.schema);
    if (s.items) below |= settle_cel(*s.items);
    if (s.additional) below |= settle_cel(*s.additional);
    s.cel_below = below;
    return below;
}

}  // namespace

std::shared_ptr<const Schema> compile(const Node& schema, const std::string& file, Diagnostics& diags) {
    Compiler c(file, diags);
    std::unique_ptr<Schema> root = c.compile(schema, "", 0);
    if (c.failed()) return nullptr;
    settle_bounds(*root);
    settle_cel(*root);
    return std::shared_ptr<const Schema>(std::move(root));
}

}  // namespace queueforge::openapi
