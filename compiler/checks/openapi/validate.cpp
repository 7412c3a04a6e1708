// Schema validation with kube-openapi's rules and the API server's messages.
// Per value the checks run in kube-openapi's order -- type, allOf/anyOf/
// oneOf/not, string, format, number, array, enum, object -- and each applies
// by the kind of the value, not the declared type, so a string given for an
// integer field with a pattern gets both the type and the pattern error, as
// from the server.
#include "checks/openapi/validator.hpp"
#include "checks/openapi/values.hpp"

#include <queueforge/base/names.hpp>

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstdint>
#include <limits>

namespace queueforge::openapi {

namespace {

// Documents are depth-limited by the loader; this guards values built in
// memory.
constexpr int kMaxDepth = 512;

// swag.IsFloat64AJSONInteger: within +/-2^53 and integral up to a relative
// error of 1e-9 above the truncated value (multipleOf divides floats).
bool json_integer(double f) {
    constexpr double kMaxJson = 9007199254740991.0;
    if (!std::isfinite(f) || f < -kMaxJson || f > kMaxJson) return false;
    double g = std::trunc(f);
    if (f == g) return true;
    double diff = std::fabs(f - g);
    if (g == 0 || diff < std::numeric_limits<double>::denorm_min())
        return diff < 1e-9 * std::numeric_limits<double>::denorm_min();
    return diff / std::min(std::fabs(f) + std::fabs(g), DBL_MAX) < 1e-9;
}

// <0, 0, >0 as n compares to bound b, exactly for integers.
int compare(const Number& n, double b) {
    if (n.is_int && std::trunc(b) == b && b >= -9.2e18 && b <= 9.2e18) {
        auto bi = static_cast<std::int64_t>(b);
        return n.i < bi ? -1 : n.i > bi ? 1 : 0;
    }
    return n.d < b ? -1 : n.d > b ? 1 : 0;
}

std::string plural(std::int64_t n, const char* one, const char* many) {
    return std::to_string(n) + " " + (n == 1 ? one : many);
}

bool is_meta_field(std::string_view k) { return k == "apiVersion" || k == "kind" || k == "metadata"; }

}  // namespace

Validator::Validator(const std::string& file, const ObjectRef& ref, const ValidateOptions& opts,
                     std::vector<Diagnostic>* out, std::string_view path)
    : file_(file), ref_(ref), opts_(opts), out_(out), path_(path) {}

void Validator::push(Severity sev, Mark mark, const char* rule, std::string_view path, std::string message) {
    out_->push_back(Diagnostic{.severity = sev,
                               .file = file_,
                               .mark = mark,
                               .message = std::move(message),
                               .rule = rule,
                               .object = ref_,
                               .path = std::string(path)});
}

void Validator::resource(const Schema& s, const Node& doc) { node(s, doc, 0, kResourceRoot); }

void Validator::node(const Schema& s, const Node& v, int depth, unsigned flags) {
    if (stop_) return;
    if (depth > kMaxDepth) {
        error(v.mark(), "schema.depth", [&] { return std::string(where()) + ": nested too deeply to validate"; });
        return;
    }
    type_check(s, v);
    // kube-openapi runs only the type and enum checks on null.
    if (v.is_null()) {
        enum_check(s, v);
        return;
    }
    if (s.has_junctors() || !s.dependencies.empty()) junctors(s, v, depth);
    switch (v.kind()) {
    case Node::Kind::String: string_checks(s, v); break;
    case Node::Kind::Int:
    case Node::Kind::Float: number_checks(s, v); break;
    case Node::Kind::Seq: array(s, v, depth, flags); break;
    default: break;
    }
    enum_check(s, v);
    if (v.is_map()) object(s, v, depth, flags);
}

void Validator::type_check(const Schema& s, const Node& v) {
    if (!s.types) return;
    std::uint8_t bits = 0;
    switch (v.kind()) {
    case Node::Kind::Null:
        if (s.nullable || (s.types & type_bit::Null)) return;
        error(v.mark(), "schema.nullable", [&] {
            std::string p(where());
            return p + ": Invalid value: \"null\": " + p + " in body must be of type " + s.type_name + ": \"null\"";
        });
        return;
    case Node::Kind::Bool: bits = type_bit::Boolean; break;
    case Node::Kind::Int:
    case Node::Kind::Float: {
        auto n = number_of(v);
        // An integral value satisfies both "integer" and "number".
        bits = (n && n->is_int) ? (type_bit::Integer | type_bit::Number) : type_bit::Number;
        break;
    }
    case Node::Kind::String: bits = type_bit::String; break;
    case Node::Kind::Seq: bits = type_bit::Array; break;
    case Node::Kind::Map: bits = type_bit::Object; break;
    }
    if (s.types & bits) return;
    error(v.mark(), "schema.type", [&] {
        std::string p(where());
        std::string t = json_type_name(v);
        return p + ": Invalid value: \"" + t + "\": " + p + " in body must be of type " + s.type_name + ": \"" + t + "\"";
    });
}

void Validator::string_checks(const Schema& s, const Node& v) {
    const std::string& t = v.text();
    // kube-openapi reports only the first of maxLength, minLength, pattern.
    bool failed = false;
    if (s.max_length || s.min_length) {
        auto n = static_cast<std::int64_t>(rune_count(t));
        if (s.max_length && n > *s.max_length) {
            failed = true;
            error(v.mark(), "schema.length", [&] {
                return std::string(where()) + ": Too long: may not be more than " +
                       plural(*s.max_length, "byte", "bytes");
            });
        } else if (s.min_length && n < *s.min_length) {
            failed = true;
            error(v.mark(), "schema.length", [&] {
                std::string p(where());
                return p + ": Invalid value: " + go_quote(t) + ": " + p + " in body should be at least " +
                       std::to_string(*s.min_length) + " chars long";
            });
        }
    }
    if (!failed && s.pattern && !RE2::PartialMatch(t, *s.pattern)) {
        error(v.mark(), "schema.pattern", [&] {
            std::string p(where());
            return p + ": Invalid value: " + go_quote(t) + ": " + p + " in body should match '" + s.pattern->pattern() +
                   "'";
        });
    }
    if (is_string_format(s.format) && !check_string_format(s.format, t)) {
        error(v.mark(), "schema.format", [&] {
            std::string p(where());
            return p + ": Invalid value: " + go_quote(t) + ": " + p + " in body must be of type " + s.format_name +
                   ": " + go_quote(t);
        });
    }
}

void Validator::number_checks(const Schema& s, const Node& v) {
    auto n = number_of(v);
    if (!n) return;
    if (s.format == Format::Int32 && n->is_int &&
        (n->i < std::numeric_limits<std::int32_t>::min() || n->i > std::numeric_limits<std::int32_t>::max())) {
        error(v.mark(), "schema.format", [&] {
            std::string p(where());
            return p + ": Invalid value: " + go_value(v) + ": Checked value must be of type integer with format int32 in " + p;
        });
    }
    if (s.format == Format::Float && std::isfinite(n->d) && std::fabs(n->d) > FLT_MAX) {
        error(v.mark(), "schema.format", [&] {
            std::string p(where());
            return p + ": Invalid value: " + go_value(v) + ": Checked value must be of type number with format float in " + p;
        });
    }
    if (s.multiple_of) {
        double f = *s.multiple_of;
        bool ok;
        if (n->is_int && std::trunc(f) == f && f <= 9.2e18) {
            ok = n->i % static_cast<std::int64_t>(f) == 0;
        } else {
            double mult = f < 1 ? (1 / f) * n->d : n->d / f;
            ok = json_integer(mult);
        }
        if (!ok) {
            error(v.mark(), "schema.multiple-of", [&] {
                std::string p(where());
                return p + ": Invalid value: " + go_value(v) + ": " + p + " in body should be a multiple of " + go_number(f);
            });
        }
    }
    if (s.minimum) {
        int c = compare(*n, s.minimum->value);
        if (s.minimum->exclusive ? c <= 0 : c < 0) {
            error(v.mark(), "schema.range", [&] {
                std::string p(where());
                return p + ": Invalid value: " + go_value(v) + ": " + p + " in body should be greater than " +
                       (s.minimum->exclusive ? "" : "or equal to ") + go_number(s.minimum->value);
            });
        }
    }
    if (s.maximum) {
        int c = compare(*n, s.maximum->value);
        if (s.maximum->exclusive ? c >= 0 : c > 0) {
            error(v.mark(), "schema.range", [&] {
                std::string p(where());
                return p + ": Invalid value: " + go_value(v) + ": " + p + " in body should be less than " +
                       (s.maximum->exclusive ? "" : "or equal to ") + go_number(s.maximum->value);
            });
        }
    }
}

void Validator::array(const Schema& s, const Node& v, int depth, unsigned flags) {
    const auto& items = v.items();
    // Pruning hands "preserve unknown fields" from an array to its items
    // (skipPrune recurses into items with itself).
    const bool preserved = s.preserve_unknown || (flags & kPreserved);
    const bool strict = main_ && opts_.reject_unknown_fields && !preserved;
    for (std::size_t i = 0; i < items.size(); ++i) {
        if (stop_) return;
        const Node& it = items[i];
        PathGuard g(*this, i);
        if (s.items) {
            // The server replaces a null item with the items default first.
            if (it.is_null() && opts_.prune_nulls && s.items->default_value && !s.items->nullable) continue;
            node(*s.items, it, depth + 1, preserved ? kPreserved : 0);
        } else if (strict) {
            unknown_subtree(it);  // no items schema: the server prunes every field below
        }
    }
    auto size = static_cast<std::int64_t>(items.size());
    if (s.min_items && size < *s.min_items) {
        error(v.mark(), "schema.items", [&] {
            std::string p(where());
            return p + ": Invalid value: " + std::to_string(size) + ": " + p + " in body should have at least " +
                   std::to_string(*s.min_items) + " items";
        });
    }
    if (s.max_items && size > *s.max_items) {
        error(v.mark(), "schema.items", [&] {
            return std::string(where()) + ": Too many: " + std::to_string(size) + ": must have at most " +
                   plural(*s.max_items, "item", "items");
        });
    }
    if (s.unique_items) {
        bool dup = false;
        for (std::size_t i = 1; i < items.size() && !dup; ++i)
            for (std::size_t j = 0; j < i && !dup; ++j) dup = deep_equal(items[i], items[j]);
        if (dup) {
            error(v.mark(), "schema.unique", [&] {
                std::string p(where());
                return p + ": Invalid value: \"\": " + p + " in body shouldn't contain duplicates";
            });
        }
    }
    if (main_ && (s.list_type == ListType::Set || s.list_type == ListType::Map)) list_type(s, v);
}

void Validator::enum_check(const Schema& s, const Node& v) {
    if (!s.has_enum || stop_) return;
    if (s.enum_all_strings) {
        if (v.is_string())
            for (const auto& e : s.enum_strings)
                if (e == v.text()) return;
    } else {
        for (const auto& e : s.enum_values)
            if (deep_equal(v, e)) return;
    }
    error(v.mark(), "schema.enum", [&] {
        std::string m = std::string(where()) + ": Unsupported value: " + go_value(v) + ": supported values: ";
        bool first = true;
        for (const auto& e : s.enum_values) {
            if (!first) m += ", ";
            first = false;
            m += go_quote(e.is_string() ? e.text().str() : go_json(e));
        }
        return m;
    });
}

void Validator::report_unknown(const Node::Entry& e, const Schema* known) {
    PathGuard g(*this, e.key);
    Mark m = e.key_mark().known() ? e.key_mark() : e.value.mark();
    error(m, "schema.unknown-field", [&] {
        // The API server's words, then the closest declared property.
        std::string msg = "unknown field \"" + path() + "\"";
        if (known) {
            std::vector<std::string> names;
            for (const auto& p : known->properties) names.push_back(p.name);
            std::string hint = did_you_mean(e.key, names);
            if (!hint.empty()) msg += "; did you mean \"" + hint + "\"?";
        }
        return msg;
    });
}

void Validator::unknown_subtree(const Node& v) {
    if (v.is_map()) {
        for (const auto& e : v.entries()) {
            if (stop_) return;
            report_unknown(e);
        }
    } else if (v.is_seq()) {
        const auto& items = v.items();
        for (std::size_t i = 0; i < items.size() && !stop_; ++i) {
            PathGuard g(*this, i);
            unknown_subtree(items[i]);
        }
    }
}

void Validator::object(const Schema& s, const Node& v, int depth, unsigned flags) {
    const bool resource_root = flags & kResourceRoot;
    const auto& entries = v.entries();
    auto count = static_cast<std::int64_t>(entries.size());
    if (s.min_properties && count < *s.min_properties) {
        error(v.mark(), "schema.properties", [&] {
            std::string p(where());
            return p + ": Invalid value: " + std::to_string(count) + ": " + p + " in body should have at least " +
                   std::to_string(*s.min_properties) + " properties";
        });
    }
    if (s.max_properties && count > *s.max_properties) {
        error(v.mark(), "schema.properties", [&] {
            return std::string(where()) + ": Too many: " + std::to_string(count) + ": must have at most " +
                   plural(*s.max_properties, "item", "items");
        });
    }
    // Pruning skips apiVersion, kind and metadata of a resource (the root or
    // an x-kubernetes-embedded-resource); metadata is checked as ObjectMeta.
    const bool embedded = main_ && (resource_root || s.embedded_resource);
    const bool strict = main_ && opts_.reject_unknown_fields && !s.preserve_unknown && !(flags & kPreserved);
    // Declared properties seen with a value that survives null pruning, so
    // `required` needs no second lookup for the first 64 properties.
    std::uint64_t present = 0;
    auto mark_present = [&](int idx) {
        if (idx >= 0 && idx < 64) present |= std::uint64_t{1} << idx;
    };
    for (const auto& e : entries) {
        if (stop_) return;
        const int idx = s.property_index(e.key);
        const Schema* sub = idx >= 0 ? s.properties[static_cast<std::size_t>(idx)].schema.get() : nullptr;
        if (embedded && is_meta_field(e.key)) {
            mark_present(idx);
            if (sub) {
                const bool saved = main_;
                main_ = false;
                PathGuard g(*this, e.key);
                node(*sub, e.value, depth + 1, 0);
                main_ = saved;
            }
            continue;
        }
        bool by_pattern = false;
        for (const auto& pp : s.pattern_properties) {
            if (RE2::PartialMatch(e.key.view(), *pp.re)) {
                by_pattern = true;
                PathGuard g(*this, e.key);
                node(*pp.schema, e.value, depth + 1, 0);
            }
        }
        if (!sub && !by_pattern) {
            switch (s.extra) {
            case Extra::Schema: sub = s.additional.get(); break;
            case Extra::Deny:
                error(e.key_mark().known() ? e.key_mark() : e.value.mark(), "schema.properties", [&] {
                    std::string p(where());
                    return p + ": Invalid value: " + go_quote(e.key) + ": " + (path_.empty() ? "" : p + ".") + e.key +
                           " in body is a forbidden property";
                });
                continue;
            case Extra::Allow:
                // additionalProperties: true keeps the key but prunes with no
                // schema below it: an object value loses all its fields.
                if (main_ && opts_.reject_unknown_fields) {
                    PathGuard g(*this, e.key);
                    unknown_subtree(e.value);
                }
                continue;
            case Extra::Unknown:
                if (strict) report_unknown(e, &s);
                continue;
            }
        }
        if (!sub) continue;
        if (e.value.is_null() && opts_.prune_nulls && !sub->nullable) {
            if (sub->default_value) {
                mark_present(idx);  // the server fills it from the default
            } else {
                PathGuard g(*this, e.key);
                warning(e.value.mark(), "schema.nullable", [&] {
                    return path() + ": null is dropped by the API server: the field is not nullable";
                });
            }
            continue;
        }
        mark_present(idx);
        PathGuard g(*this, e.key);
        node(*sub, e.value, depth + 1, 0);
    }
    for (std::size_t k = 0; k < s.required.size(); ++k) {
        if (stop_) return;
        const std::string& name = s.required[k];
        const int idx = k < s.required_index.size() ? s.required_index[k] : s.property_index(name);
        const Schema* sub = idx >= 0 ? s.properties[static_cast<std::size_t>(idx)].schema.get() : nullptr;
        bool have;
        if (idx >= 0 && idx < 64) {
            have = present & (std::uint64_t{1} << idx);
        } else {
            const Node* x = v.find(name);
            have = x && !pruned_null(sub ? sub : (s.extra == Extra::Schema ? s.additional.get() : nullptr), *x);
        }
        if (have) continue;
        // Defaulting runs before validation, so a required field with a
        // default is never missing on the server.
        if (sub && sub->default_value) continue;
        if (!recording()) {
            error(v.mark(), "schema.required", [] { return std::string(); });
            return;
        }
        std::string p = child(name);
        error_at(v.mark(), "schema.required", p, [&] { return p + ": Required value"; });
    }
    if (embedded) object_meta(s, v, resource_root);
}

void Validator::junctors(const Schema& s, const Node& v, int depth) {
    auto composite = [&](const char* rule, const std::string& what) {
        error(v.mark(), rule, [&] {
            std::string p(where());
            return p + ": Invalid value: \"\": " + go_quote(p) + " " + what;
        });
    };
    if (!s.any_of.empty()) {
        bool ok = false;
        for (const auto& b : s.any_of)
            if (probe(*b, v, depth)) {
                ok = true;
                break;
            }
        if (!ok) {
            composite("schema.anyof", "must validate at least one schema (anyOf)");
            merge_best(s.any_of, v, depth);
        }
    }
    if (!s.one_of.empty() && !stop_) {
        std::size_t valid = 0;
        for (const auto& b : s.one_of)
            if (probe(*b, v, depth)) ++valid;
        if (valid != 1) {
            composite("schema.oneof", "must validate one and only one schema (oneOf). " +
                                          (valid == 0 ? std::string("Found none valid")
                                                      : "Found " + std::to_string(valid) + " valid alternatives"));
            if (valid == 0) merge_best(s.one_of, v, depth);
        }
    }
    if (!s.all_of.empty() && !stop_) {
        std::size_t failed = 0;
        for (const auto& b : s.all_of) {
            std::size_t before = seen_;
            branch(*b, v, depth);
            if (seen_ != before) ++failed;
        }
        if (failed)
            composite("schema.allof", std::string("must validate all the schemas (allOf)") +
                                          (failed == s.all_of.size() ? ". None validated" : ""));
    }
    if (s.not_ && !stop_ && probe(*s.not_, v, depth)) composite("schema.not", "must not validate the schema (not)");
    if (!s.dependencies.empty() && v.is_map()) {
        for (const auto& d : s.dependencies) {
            if (stop_ || !v.find(d.key)) continue;
            if (d.schema) {
                branch(*d.schema, v, depth);
                continue;
            }
            for (const auto& r : d.required)
                if (!v.find(r)) composite("schema.dependencies", "has a dependency on " + r);
        }
    }
}

bool Validator::probe(const Schema& b, const Node& v, int depth) {
    auto* saved_out = out_;
    const bool saved_main = main_;
    const bool saved_stop = stop_;
    const std::size_t saved_seen = seen_;
    out_ = nullptr;
    main_ = false;
    node(b, v, depth + 1, 0);
    const bool ok = seen_ == saved_seen;
    out_ = saved_out;
    main_ = saved_main;
    seen_ = saved_seen;
    stop_ = saved_stop;  // a probe stops at its first error; the caller goes on
    return ok;
}

void Validator::branch(const Schema& b, const Node& v, int depth) {
    const bool saved = main_;
    main_ = false;
    node(b, v, depth + 1, 0);
    main_ = saved;
}

// kube-openapi adds the errors of the closest failing branch after the
// anyOf/oneOf error; closest here is "fewest errors".
void Validator::merge_best(const std::vector<std::unique_ptr<Schema>>& branches, const Node& v, int depth) {
    if (!recording() || stop_) return;
    auto* saved_out = out_;
    const std::size_t saved_recorded = recorded_;
    std::vector<Diagnostic> best;
    bool have = false;
    for (const auto& b : branches) {
        std::vector<Diagnostic> tmp;
        out_ = &tmp;
        recorded_ = 0;
        stop_ = false;
        branch(*b, v, depth);
        if (!tmp.empty() && (!have || tmp.size() < best.size())) {
            best = std::move(tmp);
            have = true;
        }
    }
    out_ = saved_out;
    recorded_ = saved_recorded;
    stop_ = false;
    for (auto& d : best) {
        if (recorded_ >= opts_.max_errors) {
            stop_ = true;
            break;
        }
        if (d.severity == Severity::Error) ++recorded_;
        out_->push_back(std::move(d));
    }
}

// ---- public entry points ----

void validate(const Schema& schema, const Node& doc, const std::string& file, const ObjectRef& ref,
              Diagnostics& diags, const ValidateOptions& opts) {
    std::vector<Diagnostic> out;
    Validator v(file, ref, opts, &out, {});
    v.resource(schema, doc);
    for (auto& d : out) diags.add(std::move(d));
}

void validate_value(const Schema& schema, const Node& value, const std::string& file, const std::string& path,
                    const ObjectRef& ref, Diagnostics& diags, const ValidateOptions& opts) {
    std::vector<Diagnostic> out;
    Validator v(file, ref, opts, &out, path);
    v.value(schema, value);
    for (auto& d : out) diags.add(std::move(d));
}

bool conforms(const Schema& schema, const Node& value, const ValidateOptions& opts) {
    static const std::string no_file;
    static const ObjectRef no_ref;
    Validator v(no_file, no_ref, opts, nullptr, {});
    v.value(schema, value);
    return v.errors_seen() == 0;
}

}  // namespace queueforge::openapi
