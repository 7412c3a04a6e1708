#pragma once
// How the API server sees a YAML value once kubectl has turned it into JSON
// and the server has decoded it (numbers, type names, equality), and how its
// field errors print values (Go's %q, %v and encoding/json).
#include <queueforge/base/node.hpp>
#include <queueforge/base/text.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace queueforge::openapi {

// A JSON number as the server decodes it: int64 when the value is integral
// and fits (YAML's 1.0 and 1e3 arrive as JSON 1 and 1000), float64 otherwise.
struct Number {
    bool is_int = false;
    std::int64_t i = 0;
    double d = 0;
};
std::optional<Number> number_of(const Node& n);

// "integer", "number", "string", "boolean", "array", "object" or "null".
const char* json_type_name(const Node& n);

// strconv.Quote (the shared spelling in <queueforge/base/text.hpp>).
using queueforge::go_quote;
// fmt's %v for a float64.
std::string go_float(double d);
// A bound (minimum, multipleOf...) as the server prints it: %v of int64 when
// integral, of float64 otherwise.
std::string go_number(double d);
// encoding/json.Marshal of the decoded value (sorted keys, HTML-safe escapes).
std::string go_json(const Node& n);
// How field.Error prints a bad value: %q for strings, %v for numbers and
// booleans, JSON for the rest.
std::string go_value(const Node& n);

// JSON equality: numbers by value, maps regardless of key order.
bool deep_equal(const Node& a, const Node& b);
// A hash consistent with deep_equal.
std::size_t deep_hash(const Node& n);

// Unicode code points, counting each invalid byte as one (utf8.RuneCount).
std::size_t rune_count(std::string_view s);

}  // namespace queueforge::openapi
