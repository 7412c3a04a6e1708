// cel-go's strings extension (ext.Strings), which Kubernetes enables:
// charAt, indexOf, lastIndexOf, lowerAscii, upperAscii, replace, split,
// substring, trim, join, reverse and strings.quote. Indexes count code
// points. (format() is in stdlib_format.cpp.)
#include "checks/cel/functions.hpp"
#include "checks/cel/utf8.hpp"

#include <queueforge/base/text.hpp>

namespace queueforge::cel {
namespace {

using K = Value::Kind;
using Args = std::span<const Value>;

std::u32string decode(const std::string& s) {
    std::u32string out;
    out.reserve(s.size());
    for (std::size_t pos = 0; pos < s.size();) out.push_back(utf8::next(s, pos));
    return out;
}

std::string encode(std::u32string_view s) {
    std::string out;
    for (char32_t c : s) utf8::append(out, c);
    return out;
}

Value out_of_range(std::int64_t i) { return Value::error("index out of range: " + std::to_string(i)); }

bool charge_text(EvalContext& ctx, const std::string& s) { return ctx.charge(1 + s.size() / 10); }

Result char_at(EvalContext& ctx, Args a) {
    if (!arity(a, 2) || !is(a[0], K::String) || !is(a[1], K::Int)) return std::nullopt;
    if (!charge_text(ctx, a[0].as_string())) return EvalContext::cost_error();
    const std::u32string s = decode(a[0].as_string());
    const std::int64_t i = a[1].as_int();
    if (i < 0 || i > static_cast<std::int64_t>(s.size())) return out_of_range(i);
    if (i == static_cast<std::int64_t>(s.size())) return Value::string("");
    return Value::string(encode(s.substr(static_cast<std::size_t>(i), 1)));
}

Result index_of(EvalContext& ctx, Args a) {
    if (a.size() < 2 || a.size() > 3 || !is(a[0], K::String) || !is(a[1], K::String)) return std::nullopt;
    if (a.size() == 3 && !is(a[2], K::Int)) return std::nullopt;
    if (!charge_text(ctx, a[0].as_string())) return EvalContext::cost_error();
    const std::u32string s = decode(a[0].as_string());
    const std::u32string sub = decode(a[1].as_string());
    std::int64_t start = 0;
    if (a.size() == 3) {
        start = a[2].as_int();
        if (sub.empty()) return Value::integer(start);
        if (start < 0 || start >= static_cast<std::int64_t>(s.size())) return out_of_range(start);
    }
    const auto found = s.find(sub, static_cast<std::size_t>(start));
    return Value::integer(found == std::u32string::npos ? -1 : static_cast<std::int64_t>(found));
}

Result last_index_of(EvalContext& ctx, Args a) {
    if (a.size() < 2 || a.size() > 3 || !is(a[0], K::String) || !is(a[1], K::String)) return std::nullopt;
    if (a.size() == 3 && !is(a[2], K::Int)) return std::nullopt;
    if (!charge_text(ctx, a[0].as_string())) return EvalContext::cost_error();
    const std::u32string s = decode(a[0].as_string());
    const std::u32string sub = decode(a[1].as_string());
    if (a.size() == 2) {
        if (sub.empty()) return Value::integer(static_cast<std::int64_t>(s.size()));
        const auto found = s.rfind(sub);
        return Value::integer(found == std::u32string::npos ? -1 : static_cast<std::int64_t>(found));
    }
    const std::int64_t offset = a[2].as_int();
    if (sub.empty()) return Value::integer(offset);
    if (offset < 0 || offset >= static_cast<std::int64_t>(s.size())) return out_of_range(offset);
    const auto found = s.rfind(sub, static_cast<std::size_t>(offset));
    return Value::integer(found == std::u32string::npos ? -1 : static_cast<std::int64_t>(found));
}

template <bool Upper>
Result ascii_case(EvalContext& ctx, Args a) {
    if (!arity(a, 1) || !is(a[0], K::String)) return std::nullopt;
    if (!charge_text(ctx, a[0].as_string())) return EvalContext::cost_error();
    std::string s = a[0].as_string();
    for (char& c : s) {
        if (Upper && c >= 'a' && c <= 'z') c = static_cast<char>(c - 'a' + 'A');
        if (!Upper && c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
    }
    return Value::string(std::move(s));
}

// Go's strings.Replace: n < 0 replaces all; an empty `from` matches before
// every code point and at the end.
Result replace(EvalContext& ctx, Args a) {
    if (a.size() < 3 || a.size() > 4 || !is(a[0], K::String) || !is(a[1], K::String) || !is(a[2], K::String))
        return std::nullopt;
    if (a.size() == 4 && !is(a[3], K::Int)) return std::nullopt;
    const std::string& s = a[0].as_string();
    const std::string& from = a[1].as_string();
    const std::string& to = a[2].as_string();
    std::int64_t n = a.size() == 4 ? a[3].as_int() : -1;
    std::string out;
    std::size_t pos = 0;
    std::int64_t done = 0;
    while (n < 0 || done < n) {
        std::size_t at;
        if (from.empty()) {
            if (pos > s.size()) break;
            at = pos;
        } else {
            at = s.find(from, pos);
            if (at == std::string::npos) break;
        }
        out.append(s, pos, at - pos);
        out += to;
        ++done;
        if (!ctx.charge(1 + to.size() / 10)) return EvalContext::cost_error();
        if (from.empty()) {
            if (at >= s.size()) {
                pos = s.size() + 1;
                break;
            }
            std::size_t next = at;
            utf8::next(s, next);
            out.append(s, at, next - at);
            pos = next;
        } else {
            pos = at + from.size();
        }
    }
    if (pos <= s.size()) out.append(s, pos, std::string::npos);
    if (!charge_text(ctx, out)) return EvalContext::cost_error();
    return Value::string(std::move(out));
}

// Go's strings.SplitN.
Result split(EvalContext& ctx, Args a) {
    if (a.size() < 2 || a.size() > 3 || !is(a[0], K::String) || !is(a[1], K::String)) return std::nullopt;
    if (a.size() == 3 && !is(a[2], K::Int)) return std::nullopt;
    const std::string& s = a[0].as_string();
    const std::string& sep = a[1].as_string();
    const std::int64_t n = a.size() == 3 ? a[2].as_int() : -1;
    if (!charge_text(ctx, s)) return EvalContext::cost_error();
    Value::ListItems out;
    if (n == 0) return Value::list(std::move(out));
    if (sep.empty()) {
        std::size_t pos = 0;
        while (pos < s.size()) {
            if (n > 0 && static_cast<std::int64_t>(out.size()) == n - 1) {
                out.push_back(Value::string(s.substr(pos)));
                return Value::list(std::move(out));
            }
            std::size_t next = pos;
            utf8::next(s, next);
            out.push_back(Value::string(s.substr(pos, next - pos)));
            pos = next;
        }
        return Value::list(std::move(out));
    }
    std::size_t pos = 0;
    while (n < 0 || static_cast<std::int64_t>(out.size()) < n - 1) {
        const std::size_t at = s.find(sep, pos);
        if (at == std::string::npos) break;
        out.push_back(Value::string(s.substr(pos, at - pos)));
        pos = at + sep.size();
    }
    out.push_back(Value::string(s.substr(pos)));
    if (!ctx.charge(out.size())) return EvalContext::cost_error();
    return Value::list(std::move(out));
}

Result substring(EvalContext& ctx, Args a) {
    if (a.size() < 2 || a.size() > 3 || !is(a[0], K::String) || !is(a[1], K::Int)) return std::nullopt;
    if (a.size() == 3 && !is(a[2], K::Int)) return std::nullopt;
    if (!charge_text(ctx, a[0].as_string())) return EvalContext::cost_error();
    const std::u32string s = decode(a[0].as_string());
    const auto len = static_cast<std::int64_t>(s.size());
    const std::int64_t start = a[1].as_int();
    if (start < 0 || start > len) return out_of_range(start);
    std::int64_t end = len;
    if (a.size() == 3) {
        end = a[2].as_int();
        if (end < 0 || end > len) return out_of_range(end);
        if (start > end)
            return Value::error("invalid substring range. start: " + std::to_string(start) + ", end: " + std::to_string(end));
    }
    return Value::string(encode(std::u32string_view(s).substr(static_cast<std::size_t>(start),
                                                                static_cast<std::size_t>(end - start))));
}

// Go's unicode.IsSpace.
bool is_space(char32_t c) {
    switch (c) {
        case '\t': case '\n': case '\v': case '\f': case '\r': case ' ':
        case 0x85: case 0xA0: case 0x1680: case 0x2028: case 0x2029: case 0x202F: case 0x205F: case 0x3000:
            return true;
        default: return c >= 0x2000 && c <= 0x200A;
    }
}

Result trim(EvalContext& ctx, Args a) {
    if (!arity(a, 1) || !is(a[0], K::String)) return std::nullopt;
    if (!charge_text(ctx, a[0].as_string())) return EvalContext::cost_error();
    const std::u32string s = decode(a[0].as_string());
    std::size_t b = 0;
    std::size_t e = s.size();
    while (b < e && is_space(s[b])) ++b;
    while (e > b && is_space(s[e - 1])) --e;
    return Value::string(encode(std::u32string_view(s).substr(b, e - b)));
}

Result join(EvalContext& ctx, Args a) {
    if (a.empty() || a.size() > 2 || !is(a[0], K::List)) return std::nullopt;
    if (a.size() == 2 && !is(a[1], K::String)) return std::nullopt;
    const std::string sep = a.size() == 2 ? a[1].as_string().str() : std::string();
    std::string out;
    bool first = true;
    for (const auto& item : a[0].as_list()) {
        if (!is(item, K::String)) return Value::error("join: list element is " + item.type_name() + ", not string");
        if (!first) out += sep;
        first = false;
        out += item.as_string();
    }
    if (!charge_text(ctx, out)) return EvalContext::cost_error();
    return Value::string(std::move(out));
}

Result reverse(EvalContext& ctx, Args a) {
    if (!arity(a, 1) || !is(a[0], K::String)) return std::nullopt;
    if (!charge_text(ctx, a[0].as_string())) return EvalContext::cost_error();
    std::u32string s = decode(a[0].as_string());
    return Value::string(encode(std::u32string(s.rbegin(), s.rend())));
}

Result quote(EvalContext& ctx, Args a) {
    if (!arity(a, 1) || !is(a[0], K::String)) return std::nullopt;
    const std::string& s = a[0].as_string();
    if (!charge_text(ctx, s)) return EvalContext::cost_error();
    std::string out = "\"";
    for (char c : s)
        if (!append_escape(out, c)) out += c;
    return Value::string(out + "\"");
}

}  // namespace

void register_string_ext(Registry& r) {
    r.add("charAt", char_at);
    r.add("indexOf", index_of);
    r.add("lastIndexOf", last_index_of);
    r.add("lowerAscii", ascii_case<false>);
    r.add("upperAscii", ascii_case<true>);
    r.add("replace", replace);
    r.add("split", split);
    r.add("substring", substring);
    r.add("trim", trim);
    r.add("join", join);
    r.add("reverse", reverse);
    r.add("strings.quote", quote);
}

}  // namespace queueforge::cel
