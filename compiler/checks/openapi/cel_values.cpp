// Objects as the API server shows them to CEL rules (k8s.io/apiserver
// pkg/cel/common UnstructuredToVal, guided by the structural schema):
//  - objects with properties show only declared properties, under escaped
//    names, and a null field counts as absent; maps (additionalProperties)
//    keep every key as written; objects with neither show no fields;
//  - resource roots and embedded resources show apiVersion, kind and
//    metadata with only name and generateName;
//  - "integer" is int, "number" double (also for integral values),
//    int-or-string is int or string;
//  - strings of format date-time and date are timestamps, duration a
//    duration, byte bytes (an error value when they do not parse).
#include "checks/openapi/cel_validation.hpp"
#include "checks/openapi/values.hpp"

#include <array>
#include <utility>
#include <variant>

namespace queueforge::openapi {

namespace {

// As in the structural validator: documents are depth-limited by the loader;
// this guards values built in memory.
constexpr int kMaxValueDepth = 512;

using cel::Value;

bool identifier_char(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

// String formats parse exactly as CEL's own conversions parse them; the
// programs compile once.
Value formatted_string(const Schema& s, const Node& v) {
    const std::string& t = v.text();
    switch (s.format) {
        case Format::DateTime: {
            static const auto p = std::get<cel::Program>(cel::compile("timestamp(s)"));
            Value r = p.eval({{"s", Value::string(t)}});
            return r.is_error() ? Value::error("invalid date-time " + go_quote(t) + ": " + r.error_message()) : r;
        }
        case Format::Date: {
            static const auto p = std::get<cel::Program>(cel::compile("timestamp(s + 'T00:00:00Z')"));
            Value r = p.eval({{"s", Value::string(t)}});
            return r.is_error() ? Value::error("invalid date " + go_quote(t) + ": " + r.error_message()) : r;
        }
        case Format::Duration: {
            static const auto p = std::get<cel::Program>(cel::compile("duration(s)"));
            Value r = p.eval({{"s", Value::string(t)}});
            return r.is_error() ? Value::error("invalid duration " + go_quote(t) + ": " + r.error_message()) : r;
        }
        case Format::Byte: {
            static const auto p = std::get<cel::Program>(cel::compile("base64.decode(s)"));
            Value r = p.eval({{"s", Value::string(t)}});
            return r.is_error() ? Value::error("invalid base64 " + go_quote(t) + ": " + r.error_message()) : r;
        }
        default: return Value::string(t);
    }
}

bool has_node_rules(const Schema& s) {
    if (!s.cel.empty()) return true;
    for (const auto& a : s.all_of)
        if (has_node_rules(*a)) return true;
    return false;
}

class SiteCollector {
public:
    explicit SiteCollector(std::vector<CelSite>* sites) : sites_(sites) {}

    // Only looks for rules: `v` itself is not needed as a value.
    void find(const Schema& s, const Node& v, bool resource_root, int depth) {
        if (!s.cel_below || v.is_null() || depth > kMaxValueDepth) return;
        if (has_node_rules(s)) {
            (void)build(s, v, resource_root, depth);  // records this site and those below
            return;
        }
        if (v.is_map()) {
            for (const auto& e : v.entries()) {
                const Schema* sub = s.property(e.key);
                const bool map_key = !sub && s.properties.empty() && s.extra == Extra::Schema;
                if (map_key) sub = s.additional.get();
                if (!sub || !sub->cel_below) continue;
                Guard g(*this, map_key, e.key);
                find(*sub, e.value, sub->embedded_resource, depth + 1);
            }
        } else if (v.is_seq() && s.items && s.items->cel_below) {
            const auto& items = v.items();
            for (std::size_t i = 0; i < items.size(); ++i) {
                Guard g(*this, i);
                find(*s.items, items[i], s.items->embedded_resource, depth + 1);
            }
        }
    }

    Value build(const Schema& s, const Node& v, bool resource_root, int depth) {
        if (depth > kMaxValueDepth) return Value::error("value nested too deeply");
        if (v.is_null()) return Value::null();  // the server validates no rules on null
        std::size_t site = 0;
        const bool record = sites_ && has_node_rules(s);
        if (record) {
            site = sites_->size();
            sites_->push_back(CelSite{&s, &v, path_, Value()});
        }
        Value out = convert(s, v, resource_root, depth);
        if (record) (*sites_)[site].self = out;
        return out;
    }

private:
    std::vector<CelSite>* sites_;
    std::string path_;

    // Appends ".name" (a property), "[key]" (a map key, as field.Path.Key
    // prints it) or "[i]" for the guard's lifetime.
    class Guard {
    public:
        Guard(SiteCollector& c, bool map_key, std::string_view name) : c_(c), len_(c.path_.size()) {
            if (map_key) {
                c.path_ += '[';
                c.path_ += name;
                c.path_ += ']';
            } else {
                if (!c.path_.empty()) c.path_ += '.';
                c.path_ += name;
            }
        }
        Guard(SiteCollector& c, std::size_t index) : c_(c), len_(c.path_.size()) {
            c.path_ += '[' + std::to_string(index) + ']';
        }
        ~Guard() { c_.path_.resize(len_); }
        Guard(const Guard&) = delete;
        Guard& operator=(const Guard&) = delete;

    private:
        SiteCollector& c_;
        std::size_t len_;
    };

    Value convert(const Schema& s, const Node& v, bool resource_root, int depth) {
        if (s.int_or_string) {
            if (v.is_string()) return Value::string(v.text());
            if (auto n = number_of(v); n && n->is_int) return Value::integer(n->i);
            return cel::from_node(v);
        }
        const bool object_type = (s.types & type_bit::Object) || ((resource_root || s.embedded_resource) && !s.types);
        if (v.is_map() && object_type) return object(s, v, resource_root, depth);
        if (v.is_seq() && (s.types & type_bit::Array) && s.items) {
            Value::ListItems items;
            items.reserve(v.items().size());
            for (std::size_t i = 0; i < v.items().size(); ++i) {
                Guard g(*this, i);
                items.push_back(build(*s.items, v.items()[i], s.items->embedded_resource, depth + 1));
            }
            return Value::list(std::move(items));
        }
        if (v.is_string() && (s.types & type_bit::String)) return formatted_string(s, v);
        if (v.kind() == Node::Kind::Int || v.kind() == Node::Kind::Float) {
            auto n = number_of(v);
            if (n && (s.types & type_bit::Number)) return Value::dbl(n->d);
            if (n && n->is_int && (s.types & type_bit::Integer)) return Value::integer(n->i);
        }
        // Untyped (x-kubernetes-preserve-unknown-fields) values, and values
        // of the wrong type, which the structural checks report and which
        // then keep the server from running the rules at all.
        return cel::from_node(v);
    }

    Value object(const Schema& s, const Node& v, bool resource_root, int depth) {
        const bool meta_view = resource_root || s.embedded_resource;
        Value::MapEntries entries;
        if (meta_view || !s.properties.empty()) {
            entries.reserve(v.entries().size());
            for (const auto& e : v.entries()) {
                if (e.value.is_null()) continue;  // null fields of objects count as absent
                const Schema* sub = s.property(e.key);
                if (meta_view && (e.key == "apiVersion" || e.key == "kind")) {
                    entries.emplace_back(Value::string(e.key), cel::from_node(e.value));
                    continue;
                }
                if (meta_view && e.key == "metadata") {
                    entries.emplace_back(Value::string(e.key), metadata(e.value));
                    // Rules written below metadata still apply to it.
                    if (sub && sub->cel_below) {
                        Guard g(*this, false, e.key);
                        find(*sub, e.value, false, depth + 1);
                    }
                    continue;
                }
                if (!sub) continue;  // pruned by the server
                auto key = cel_escape(e.key);
                Guard g(*this, false, e.key);
                entries.emplace_back(Value::string(key ? *key : e.key.str()),
                                     build(*sub, e.value, sub->embedded_resource, depth + 1));
            }
        } else if (s.extra == Extra::Schema && s.additional) {
            entries.reserve(v.entries().size());
            for (const auto& e : v.entries()) {
                Guard g(*this, true, e.key);
                entries.emplace_back(Value::string(e.key),
                                     build(*s.additional, e.value, s.additional->embedded_resource, depth + 1));
            }
        }
        // Otherwise (x-kubernetes-preserve-unknown-fields or no structure at
        // all) the server shows an object without fields.
        return Value::map(std::move(entries));
    }

    static Value metadata(const Node& meta) {
        Value::MapEntries entries;
        if (meta.is_map())
            for (const char* k : {"name", "generateName"})
                if (const Node* n = meta.find(k); n && n->is_string())
                    entries.emplace_back(Value::string(k), Value::string(n->text()));
        return Value::map(std::move(entries));
    }
};

}  // namespace

std::optional<std::string> cel_escape(std::string_view name) {
    static constexpr std::array<std::string_view, 21> kReserved = {
        "true", "false", "null", "in", "as", "break", "const", "continue", "else", "for", "function",
        "if", "import", "let", "loop", "package", "namespace", "return", "var", "void", "while"};
    if (name.empty() || (name[0] >= '0' && name[0] <= '9')) return std::nullopt;
    for (auto r : kReserved)
        if (name == r) return "__" + std::string(name) + "__";
    std::string out;
    out.reserve(name.size());
    for (std::size_t i = 0; i < name.size(); ++i) {
        const char c = name[i];
        if (c == '_' && i + 1 < name.size() && name[i + 1] == '_') {
            out += "__underscores__";
            ++i;
        } else if (c == '.') {
            out += "__dot__";
        } else if (c == '-') {
            out += "__dash__";
        } else if (c == '/') {
            out += "__slash__";
        } else if (identifier_char(c)) {
            out += c;
        } else {
            return std::nullopt;
        }
    }
    return out;
}

std::vector<CelSite> cel_sites(const Schema& root, const Node& doc) {
    std::vector<CelSite> sites;
    SiteCollector(&sites).find(root, doc, true, 0);
    return sites;
}

cel::Value cel_value(const Schema& s, const Node& v, bool resource_root) {
    return SiteCollector(nullptr).build(s, v, resource_root, 0);
}

}  // namespace queueforge::openapi
