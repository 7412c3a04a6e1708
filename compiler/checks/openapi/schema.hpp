#pragma once
// The compiled form of an OpenAPI v3 schema object. Everything the validator
// needs per value is decided here once -- types as a bit set, patterns as RE2
// programs, enums split into a string fast path, properties indexed for
// binary search -- so validating an object allocates nothing but findings.
#include <queueforge/base/node.hpp>
#include <queueforge/checks/openapi.hpp>

#include "checks/openapi/formats.hpp"

#include <re2/re2.h>

#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace queueforge::openapi {

// JSON types as bits so "integer or string" (x-kubernetes-int-or-string) and
// draft-4 type lists cost one AND.
namespace type_bit {
inline constexpr std::uint8_t Null = 1u << 0;
inline constexpr std::uint8_t Boolean = 1u << 1;
inline constexpr std::uint8_t Integer = 1u << 2;
inline constexpr std::uint8_t Number = 1u << 3;
inline constexpr std::uint8_t String = 1u << 4;
inline constexpr std::uint8_t Array = 1u << 5;
inline constexpr std::uint8_t Object = 1u << 6;
}  // namespace type_bit

enum class ListType : std::uint8_t { None, Atomic, Set, Map };

// What happens to keys that are not in `properties`.
enum class Extra : std::uint8_t {
    Unknown,  // no additionalProperties: unknown (pruned by the API server)
    Allow,    // additionalProperties: true (values kept, their own fields pruned)
    Deny,     // additionalProperties: false
    Schema,   // additionalProperties: {schema}
};

struct Bound {
    double value = 0;
    bool exclusive = false;
};

struct Property {
    std::string name;
    std::unique_ptr<Schema> schema;
};

struct PatternProperty {
    std::unique_ptr<RE2> re;
    std::unique_ptr<Schema> schema;
};

// draft-4 "dependencies": either property names that must also be present or
// a schema the whole object must satisfy when `key` is present.
struct Dependency {
    std::string key;
    std::vector<std::string> required;
    std::unique_ptr<Schema> schema;
};

// x-kubernetes-validations reasons: how a failed rule is reported.
enum class CelReason : std::uint8_t { Invalid, Forbidden, Required, Duplicate };

struct CelEntry {
    std::string rule;
    std::string message;
    std::string message_expression;
    CelReason reason = CelReason::Invalid;
    std::string field_path;  // as written, ".spec.x" or "['a.b']"; empty for the node itself
    bool optional_old_self = false;
    // Where the rule is written, for notes about it.
    std::string file;
    Mark mark;
};

struct CelCompiled;  // cel_validation.hpp

class Schema {
public:
    Schema() = default;
    Schema(const Schema&) = delete;
    Schema& operator=(const Schema&) = delete;

    // Where this schema sits, "spec.resourceGroups[*]"; used by cel_rules().
    std::string schema_path;

    // type; 0 means "any".
    std::uint8_t types = 0;
    std::string type_name;  // as the API server prints it: "integer", "integer,string"
    bool nullable = false;
    bool int_or_string = false;
    bool preserve_unknown = false;
    bool embedded_resource = false;

    // strings
    std::optional<std::int64_t> min_length, max_length;
    std::unique_ptr<RE2> pattern;
    Format format = Format::None;
    std::string format_name;  // as written, for messages

    // numbers
    std::optional<Bound> minimum, maximum;
    std::optional<double> multiple_of;

    // arrays
    std::optional<std::int64_t> min_items, max_items;
    bool unique_items = false;
    std::unique_ptr<Schema> items;
    ListType list_type = ListType::None;
    std::vector<std::string> list_map_keys;

    // objects
    std::vector<Property> properties;      // declared order (defaults are applied in it)
    std::vector<std::uint32_t> by_name;    // indices into properties, sorted by name
    std::vector<std::string> required;
    std::vector<int> required_index;       // property_index of each required name, -1 if undeclared
    Extra extra = Extra::Unknown;
    std::unique_ptr<Schema> additional;    // when extra == Extra::Schema
    std::vector<PatternProperty> pattern_properties;
    std::vector<Dependency> dependencies;
    std::optional<std::int64_t> min_properties, max_properties;
    std::string map_type;                  // x-kubernetes-map-type, informational

    // any type
    bool has_enum = false;
    bool enum_all_strings = false;
    std::vector<std::string> enum_strings;  // when enum_all_strings
    std::vector<Node> enum_values;
    std::optional<Node> default_value;

    std::vector<std::unique_ptr<Schema>> all_of, any_of, one_of;
    std::unique_ptr<Schema> not_;

    std::vector<CelEntry> cel;
    // Rules here or below, where the API server evaluates them: properties,
    // items, additionalProperties and allOf branches. Lets a CEL walk skip
    // rule-free subtrees.
    bool cel_below = false;
    // `cel` compiled. Built for the whole tree on the first CEL validation
    // against the root (under the root's cel_once) and read-only afterwards,
    // so each CRD's rules compile once however many objects use them.
    mutable std::shared_ptr<const CelCompiled> cel_compiled;
    mutable std::once_flag cel_once;

    // The property named `name`, or nullptr.
    const Schema* property(std::string_view name) const {
        const Property* p = find_property(name);
        return p ? p->schema.get() : nullptr;
    }
    const Property* find_property(std::string_view name) const;
    // Index of `name` in properties, or -1.
    int property_index(std::string_view name) const;

    bool has_junctors() const { return !all_of.empty() || !any_of.empty() || !one_of.empty() || not_; }
};

inline int Schema::property_index(std::string_view name) const {
    // Kubernetes objects have a few dozen fields at most: a linear scan that
    // rejects on length and first byte before comparing beats the binary
    // search (and a plain string compare, which always calls memcmp).
    if (properties.size() <= 32) {
        if (name.empty()) return -1;
        for (std::size_t i = 0; i < properties.size(); ++i) {
            const std::string& k = properties[i].name;
            if (k.size() == name.size() && k[0] == name[0] && std::string_view(k) == name) return static_cast<int>(i);
        }
        return -1;
    }
    std::size_t lo = 0, hi = by_name.size();
    while (lo < hi) {
        std::size_t mid = (lo + hi) / 2;
        const std::string& k = properties[by_name[mid]].name;
        int c = std::string_view(k).compare(name);
        if (c == 0) return static_cast<int>(by_name[mid]);
        if (c < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return -1;
}

inline const Property* Schema::find_property(std::string_view name) const {
    int i = property_index(name);
    return i < 0 ? nullptr : &properties[static_cast<std::size_t>(i)];
}

}  // namespace queueforge::openapi
