// <string>.format(list): the strings extension's printf-like formatting
// (%s %d %f %e %b %o %x %X, optional .precision, %% for a percent sign).
#include "checks/cel/functions.hpp"
#include "checks/cel/values.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace queueforge::cel {
namespace {

using K = Value::Kind;
using Args = std::span<const Value>;

std::string special_double(double d) {
    if (std::isnan(d)) return "NaN";
    return d > 0 ? "Infinity" : "-Infinity";
}

// The %s spelling of any value; lists and maps recursively, map entries
// sorted by their spelling so the output is deterministic.
std::string as_text(const Value& v) {
    switch (v.kind()) {
        case K::String:
        case K::Bytes:
        case K::Type: return v.as_string();
        case K::Null: return "null";
        case K::Bool: return v.as_bool() ? "true" : "false";
        case K::Int: return std::to_string(v.as_int());
        case K::Uint: return std::to_string(v.as_uint());
        case K::Double: return std::isfinite(v.as_double()) ? format_double(v.as_double()) : special_double(v.as_double());
        case K::Timestamp: return format_timestamp(v);
        case K::Duration: return format_duration(v);
        case K::List: {
            std::string out = "[";
            bool first = true;
            for (const auto& item : v.as_list()) {
                if (!first) out += ", ";
                first = false;
                out += as_text(item);
            }
            return out + "]";
        }
        case K::Map: {
            std::vector<std::string> parts;
            for (const auto& [k, val] : v.map_entries()) parts.push_back(as_text(k) + ": " + as_text(val));
            std::sort(parts.begin(), parts.end());
            std::string out = "{";
            for (std::size_t i = 0; i < parts.size(); ++i) out += (i ? ", " : "") + parts[i];
            return out + "}";
        }
        case K::Optional: return v.optional_has_value() ? "optional(" + as_text(v.optional_value()) + ")" : "optional.none()";
        case K::Opaque: return v.as_opaque()->to_string();
        case K::Error: return v.error_message();
    }
    return "";
}

std::string in_base(std::uint64_t u, int base, bool upper) {
    if (u == 0) return "0";
    const char* digits = upper ? "0123456789ABCDEF" : "0123456789abcdef";
    std::string out;
    while (u) {
        out += digits[u % static_cast<std::uint64_t>(base)];
        u /= static_cast<std::uint64_t>(base);
    }
    return std::string(out.rbegin(), out.rend());
}

std::string int_in_base(const Value& v, int base, bool upper) {
    if (is(v, K::Uint)) return in_base(v.as_uint(), base, upper);
    const std::int64_t i = v.as_int();
    if (i < 0) return "-" + in_base(static_cast<std::uint64_t>(0) - static_cast<std::uint64_t>(i), base, upper);
    return in_base(static_cast<std::uint64_t>(i), base, upper);
}

Value clause_error(const std::string& what, const Value& v) {
    return Value::error("error during formatting: " + what + ", was given " + v.type_name());
}

// One clause; the error value is set on failure.
bool format_clause(char verb, int precision, const Value& v, std::string& out, Value& error) {
    const bool integer = is(v, K::Int) || is(v, K::Uint);
    switch (verb) {
        case 's': out += as_text(v); return true;
        case 'd':
            if (integer) {
                out += as_text(v);
                return true;
            }
            if (is(v, K::Double) && !std::isfinite(v.as_double())) {
                out += special_double(v.as_double());
                return true;
            }
            error = clause_error("decimal clause can only be used on integers", v);
            return false;
        case 'f':
        case 'e': {
            double d;
            if (is(v, K::Double)) d = v.as_double();
            else if (is(v, K::Int)) d = static_cast<double>(v.as_int());
            else if (is(v, K::Uint)) d = static_cast<double>(v.as_uint());
            else {
                error = clause_error(verb == 'f' ? "fixed-point clause can only be used on doubles"
                                                 : "scientific clause can only be used on doubles", v);
                return false;
            }
            if (!std::isfinite(d)) {
                out += special_double(d);
                return true;
            }
            char buf[512];
            std::snprintf(buf, sizeof buf, verb == 'f' ? "%.*f" : "%.*e", precision < 0 ? 6 : precision, d);
            out += buf;
            return true;
        }
        case 'b':
            if (integer) {
                out += int_in_base(v, 2, false);
                return true;
            }
            if (is(v, K::Bool)) {
                out += v.as_bool() ? "1" : "0";
                return true;
            }
            error = clause_error("only integers and bools can be formatted as binary", v);
            return false;
        case 'o':
            if (integer) {
                out += int_in_base(v, 8, false);
                return true;
            }
            error = clause_error("octal clause can only be used on integers", v);
            return false;
        case 'x':
        case 'X': {
            const bool upper = verb == 'X';
            if (integer) {
                out += int_in_base(v, 16, upper);
                return true;
            }
            if (is(v, K::String) || is(v, K::Bytes)) {
                for (unsigned char c : v.as_string()) {
                    std::string h = in_base(c, 16, upper);
                    out += (h.size() == 1 ? "0" : "") + h;
                }
                return true;
            }
            error = clause_error("only integers, byte buffers, and strings can be formatted as hex", v);
            return false;
        }
        default:
            error = Value::error(std::string("could not parse formatting clause: unrecognized formatting clause \"") + verb + "\"");
            return false;
    }
}

Result format(EvalContext& ctx, Args a) {
    if (!arity(a, 2) || !is(a[0], K::String) || !is(a[1], K::List)) return std::nullopt;
    const std::string& f = a[0].as_string();
    const auto& args = a[1].as_list();
    std::string out;
    std::size_t next_arg = 0;
    for (std::size_t i = 0; i < f.size(); ++i) {
        if (f[i] != '%') {
            out += f[i];
            continue;
        }
        if (i + 1 < f.size() && f[i + 1] == '%') {
            out += '%';
            ++i;
            continue;
        }
        ++i;
        int precision = -1;
        if (i < f.size() && f[i] == '.') {
            precision = 0;
            ++i;
            while (i < f.size() && f[i] >= '0' && f[i] <= '9' && precision < 1000) precision = precision * 10 + (f[i++] - '0');
        }
        if (i >= f.size()) return Value::error("could not parse formatting clause: unexpected end of format string");
        if (next_arg >= args.size())
            return Value::error("index " + std::to_string(next_arg) + " out of range");
        Value error;
        if (!format_clause(f[i], std::min(precision, 300), args[next_arg++], out, error)) return error;
        if (!ctx.charge(1 + out.size() / 100)) return EvalContext::cost_error();
    }
    if (!ctx.charge(1 + out.size() / 10)) return EvalContext::cost_error();
    return Value::string(std::move(out));
}

}  // namespace

void register_format(Registry& r) { r.add("format", format); }

}  // namespace queueforge::cel
