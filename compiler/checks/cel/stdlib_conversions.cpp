// Type conversions: int(), uint(), double(), string(), bytes(), bool(),
// dyn() and type(). Range errors where the target cannot hold the value.
// (timestamp() and duration() are with the time functions.)
#include "checks/cel/functions.hpp"
#include "checks/cel/utf8.hpp"
#include "checks/cel/values.hpp"

#include <charconv>
#include <cmath>
#include <cstdlib>

namespace queueforge::cel {
namespace {

using K = Value::Kind;
using Args = std::span<const Value>;

Value range_error(const std::string& what) { return Value::error("range error converting " + what); }

Result to_int(EvalContext&, Args a) {
    if (!arity(a, 1)) return std::nullopt;
    const Value& v = a[0];
    switch (v.kind()) {
        case K::Int: return v;
        case K::Uint:
            if (v.as_uint() > static_cast<std::uint64_t>(INT64_MAX)) return range_error(std::to_string(v.as_uint()) + "u to int");
            return Value::integer(static_cast<std::int64_t>(v.as_uint()));
        case K::Double: {
            // Strictly inside (-2^63, 2^63), as cel-go checks.
            const double d = v.as_double();
            if (!(d > -9223372036854775808.0 && d < 9223372036854775808.0)) return range_error(format_double(d) + " to int");
            return Value::integer(static_cast<std::int64_t>(d));
        }
        case K::String: {
            const std::string& s = v.as_string();
            std::int64_t out = 0;
            const char* b = s.data();
            if (s.size() > 1 && s[0] == '+' && s[1] != '-') ++b;
            auto res = std::from_chars(b, s.data() + s.size(), out, 10);
            if (s.empty() || res.ec != std::errc() || res.ptr != s.data() + s.size())
                return Value::error("cannot convert string '" + s + "' to int");
            return Value::integer(out);
        }
        case K::Timestamp: return Value::integer(v.seconds());
        default: return std::nullopt;
    }
}

Result to_uint(EvalContext&, Args a) {
    if (!arity(a, 1)) return std::nullopt;
    const Value& v = a[0];
    switch (v.kind()) {
        case K::Uint: return v;
        case K::Int:
            if (v.as_int() < 0) return range_error(std::to_string(v.as_int()) + " to uint");
            return Value::uinteger(static_cast<std::uint64_t>(v.as_int()));
        case K::Double: {
            const double d = v.as_double();
            if (!(d >= 0 && d < 18446744073709551616.0)) return range_error(format_double(d) + " to uint");
            return Value::uinteger(static_cast<std::uint64_t>(d));
        }
        case K::String: {
            const std::string& s = v.as_string();
            std::uint64_t out = 0;
            auto res = std::from_chars(s.data(), s.data() + s.size(), out, 10);
            if (s.empty() || res.ec != std::errc() || res.ptr != s.data() + s.size())
                return Value::error("cannot convert string '" + s + "' to uint");
            return Value::uinteger(out);
        }
        default: return std::nullopt;
    }
}

// Go's strconv.ParseFloat spellings: decimal and exponent forms, Inf,
// Infinity and NaN in any case, with an optional sign.
std::optional<double> parse_double(const std::string& s) {
    if (s.empty()) return std::nullopt;
    std::string lower;
    for (char c : s) lower += static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
    std::string_view body = lower;
    double sign = 1;
    if (body[0] == '+' || body[0] == '-') {
        sign = body[0] == '-' ? -1 : 1;
        body.remove_prefix(1);
    }
    if (body == "inf" || body == "infinity") return sign * HUGE_VAL;
    if (body == "nan") return std::nan("");
    if (body.empty() || !(std::isdigit(static_cast<unsigned char>(body[0])) || body[0] == '.')) return std::nullopt;
    double d = 0;
    auto res = std::from_chars(s.data(), s.data() + s.size(), d);
    if (res.ptr != s.data() + s.size()) return std::nullopt;
    if (res.ec == std::errc::result_out_of_range) return std::strtod(s.c_str(), nullptr);
    if (res.ec != std::errc()) return std::nullopt;
    return d;
}

Result to_double(EvalContext&, Args a) {
    if (!arity(a, 1)) return std::nullopt;
    const Value& v = a[0];
    switch (v.kind()) {
        case K::Double: return v;
        case K::Int: return Value::dbl(static_cast<double>(v.as_int()));
        case K::Uint: return Value::dbl(static_cast<double>(v.as_uint()));
        case K::String: {
            auto d = parse_double(v.as_string());
            if (!d) return Value::error("cannot convert string '" + v.as_string() + "' to double");
            return Value::dbl(*d);
        }
        default: return std::nullopt;
    }
}

Result to_string(EvalContext&, Args a) {
    if (!arity(a, 1)) return std::nullopt;
    const Value& v = a[0];
    switch (v.kind()) {
        case K::String: return v;
        case K::Int: return Value::string(std::to_string(v.as_int()));
        case K::Uint: return Value::string(std::to_string(v.as_uint()));
        case K::Double: return Value::string(format_double(v.as_double()));
        case K::Bool: return Value::string(v.as_bool() ? "true" : "false");
        case K::Bytes:
            if (!utf8::valid(v.as_string())) return Value::error("invalid UTF-8 in bytes, cannot convert to string");
            return Value::string(v.as_string());
        case K::Timestamp: return Value::string(format_timestamp(v));
        case K::Duration: return Value::string(format_duration(v));
        case K::Opaque: return Value::string(v.as_opaque()->to_string());
        default: return std::nullopt;
    }
}

Result to_bytes(EvalContext&, Args a) {
    if (!arity(a, 1)) return std::nullopt;
    if (is(a[0], K::Bytes)) return a[0];
    if (is(a[0], K::String)) return Value::bytes(a[0].as_string());
    return std::nullopt;
}

Result to_bool(EvalContext&, Args a) {
    if (!arity(a, 1)) return std::nullopt;
    if (is(a[0], K::Bool)) return a[0];
    if (!is(a[0], K::String)) return std::nullopt;
    const std::string& s = a[0].as_string();
    if (s == "1" || s == "t" || s == "true" || s == "TRUE" || s == "True" || s == "T") return Value::boolean(true);
    if (s == "0" || s == "f" || s == "false" || s == "FALSE" || s == "False" || s == "F") return Value::boolean(false);
    return Value::error("type conversion error: cannot convert string '" + s + "' to bool");
}

Result dyn(EvalContext&, Args a) {
    if (!arity(a, 1)) return std::nullopt;
    return a[0];
}

Result type_of(EvalContext&, Args a) {
    if (!arity(a, 1)) return std::nullopt;
    return Value::type(a[0].type_name());
}

}  // namespace

void register_conversions(Registry& r) {
    r.add("int", to_int);
    r.add("uint", to_uint);
    r.add("double", to_double);
    r.add("string", to_string);
    r.add("bytes", to_bytes);
    r.add("bool", to_bool);
    r.add("dyn", dyn);
    r.add("type", type_of);
}

}  // namespace queueforge::cel
