#include "checks/openapi/values.hpp"

#include <algorithm>
#include <charconv>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

namespace queueforge::openapi {

namespace {

// 2^63 as a double: the first value past int64.
constexpr double kTwo63 = 9223372036854775808.0;

std::optional<double> from_chars_exact(std::string_view v) {
    double d = 0;
    auto [p, ec] = std::from_chars(v.data(), v.data() + v.size(), d);
    if (ec != std::errc() || p != v.data() + v.size()) return std::nullopt;
    return d;
}

bool iequals(std::string_view a, std::string_view b) {
    if (a.size() != b.size()) return false;
    for (std::size_t i = 0; i < a.size(); ++i)
        if (std::tolower(static_cast<unsigned char>(a[i])) != std::tolower(static_cast<unsigned char>(b[i]))) return false;
    return true;
}

// A YAML float's text as go-yaml reads it: optional sign, Go digit
// separators, .inf/.nan spellings, a leading dot.
std::optional<double> parse_float_text(std::string_view t) {
    bool neg = false;
    std::string_view v = t;
    if (!v.empty() && (v[0] == '+' || v[0] == '-')) {
        neg = v[0] == '-';
        v.remove_prefix(1);
    }
    if (iequals(v, ".inf")) return neg ? -HUGE_VAL : HUGE_VAL;
    if (iequals(v, ".nan")) return std::nan("");
    std::optional<double> d;
    if (v.find('_') == std::string_view::npos && !v.starts_with('.')) {
        d = from_chars_exact(v);  // the usual spelling: no copy
    } else {
        std::string s = "0";  // from_chars wants a digit before the dot
        for (char c : v)
            if (c != '_') s += c;
        d = from_chars_exact(s);
    }
    if (!d) return std::nullopt;
    return neg ? -*d : *d;
}

struct Decimal {
    std::string digits;  // shortest round-trip digits, no leading zeros
    int exp10 = 0;       // value = 0.digits * 10^exp10
    bool neg = false;
};

// Shortest round-trip digits of d via to_chars in scientific form.
Decimal shortest(double d) {
    char buf[64];
    auto r = std::to_chars(buf, buf + sizeof buf, d, std::chars_format::scientific);
    std::string_view s(buf, static_cast<std::size_t>(r.ptr - buf));
    Decimal out;
    if (!s.empty() && s[0] == '-') {
        out.neg = true;
        s.remove_prefix(1);
    }
    std::size_t e = s.find('e');
    std::string_view mant = s.substr(0, e);
    int exp = std::atoi(std::string(s.substr(e + 1)).c_str());
    for (char c : mant)
        if (c != '.') out.digits += c;
    while (out.digits.size() > 1 && out.digits.back() == '0') out.digits.pop_back();
    out.exp10 = exp + 1;
    return out;
}

std::string exp_suffix(int exp, bool two_digits) {
    std::string s = exp < 0 ? "e-" : "e+";
    int a = exp < 0 ? -exp : exp;
    std::string n = std::to_string(a);
    if (two_digits && n.size() < 2) n = "0" + n;
    return s + n;
}

std::string fixed_from(const Decimal& dec) {
    std::string s;
    const std::string& dg = dec.digits;
    int dp = dec.exp10;
    if (dp <= 0) {
        s = "0." + std::string(static_cast<std::size_t>(-dp), '0') + dg;
    } else if (static_cast<std::size_t>(dp) >= dg.size()) {
        s = dg + std::string(static_cast<std::size_t>(dp) - dg.size(), '0');
    } else {
        s = dg.substr(0, static_cast<std::size_t>(dp)) + "." + dg.substr(static_cast<std::size_t>(dp));
    }
    return s;
}

std::string sci_from(const Decimal& dec, bool two_digit_exp) {
    std::string s(1, dec.digits[0]);
    if (dec.digits.size() > 1) s += "." + dec.digits.substr(1);
    return s + exp_suffix(dec.exp10 - 1, two_digit_exp);
}


std::string json_float(double d) {
    if (!std::isfinite(d)) return "null";
    if (d == 0) return std::signbit(d) ? "-0" : "0";
    Decimal dec = shortest(d);
    double a = std::fabs(d);
    std::string s;
    if (a < 1e-6 || a >= 1e21) {
        s = sci_from(dec, false);
    } else {
        s = fixed_from(dec);
    }
    return dec.neg ? "-" + s : s;
}

void json_of(std::string& out, const Node& n) {
    switch (n.kind()) {
    case Node::Kind::Null: out += "null"; return;
    case Node::Kind::Bool: out += n.as_bool() ? "true" : "false"; return;
    case Node::Kind::Int:
    case Node::Kind::Float: {
        auto num = number_of(n);
        if (!num)
            out += "null";
        else if (num->is_int)
            out += std::to_string(num->i);
        else
            out += json_float(num->d);
        return;
    }
    case Node::Kind::String: append_json_string(out, n.text()); return;
    case Node::Kind::Seq: {
        out += '[';
        bool first = true;
        for (const auto& i : n.items()) {
            if (!first) out += ',';
            first = false;
            json_of(out, i);
        }
        out += ']';
        return;
    }
    case Node::Kind::Map: {
        // Go marshals map[string]interface{} with sorted keys.
        std::vector<const Node::Entry*> es;
        es.reserve(n.entries().size());
        for (const auto& e : n.entries()) es.push_back(&e);
        std::sort(es.begin(), es.end(), [](const Node::Entry* a, const Node::Entry* b) { return a->key < b->key; });
        out += '{';
        bool first = true;
        for (const auto* e : es) {
            if (!first) out += ',';
            first = false;
            append_json_string(out, e->key);
            out += ':';
            json_of(out, e->value);
        }
        out += '}';
        return;
    }
    }
}

// Code points Go's strconv.IsPrint rejects among those queueforge is likely
// to meet: C1 controls, no-break and other special spaces, format characters.

}  // namespace

std::optional<Number> number_of(const Node& n) {
    if (n.kind() == Node::Kind::Int) {
        if (auto v = n.as_int()) return Number{true, *v, static_cast<double>(*v)};
        // Beyond int64 the server decodes a float64.
        auto d = parse_float_text(n.text());
        if (!d) return std::nullopt;
        return Number{false, 0, *d};
    }
    if (n.kind() == Node::Kind::Float) {
        auto d = parse_float_text(n.text());
        if (!d) return std::nullopt;
        if (std::isfinite(*d) && std::trunc(*d) == *d && *d >= -kTwo63 && *d < kTwo63)
            return Number{true, static_cast<std::int64_t>(*d), *d};
        return Number{false, 0, *d};
    }
    return std::nullopt;
}

const char* json_type_name(const Node& n) {
    switch (n.kind()) {
    case Node::Kind::Null: return "null";
    case Node::Kind::Bool: return "boolean";
    case Node::Kind::Int:
    case Node::Kind::Float: {
        auto num = number_of(n);
        return num && num->is_int ? "integer" : "number";
    }
    case Node::Kind::String: return "string";
    case Node::Kind::Seq: return "array";
    case Node::Kind::Map: return "object";
    }
    return "null";
}


std::string go_float(double d) {
    if (std::isnan(d)) return "NaN";
    if (std::isinf(d)) return d > 0 ? "+Inf" : "-Inf";
    if (d == 0) return std::signbit(d) ? "-0" : "0";
    // %v is %g with the shortest digits, which switches to %e once the
    // exponent is < -4 or >= 6 (fmt.Println(1e6) prints 1e+06).
    Decimal dec = shortest(d);
    int exp = dec.exp10 - 1;
    std::string s = (exp < -4 || exp >= 6) ? sci_from(dec, true) : fixed_from(dec);
    return dec.neg ? "-" + s : s;
}

std::string go_number(double d) {
    if (std::isfinite(d) && std::trunc(d) == d && d >= -kTwo63 && d < kTwo63)
        return std::to_string(static_cast<std::int64_t>(d));
    return go_float(d);
}

std::string go_json(const Node& n) {
    std::string out;
    json_of(out, n);
    return out;
}

std::string go_value(const Node& n) {
    switch (n.kind()) {
    case Node::Kind::String: return go_quote(n.text());
    case Node::Kind::Bool: return n.as_bool() ? "true" : "false";
    case Node::Kind::Int:
    case Node::Kind::Float: {
        auto num = number_of(n);
        if (!num) return n.text();
        return num->is_int ? std::to_string(num->i) : go_float(num->d);
    }
    default: return go_json(n);
    }
}

bool deep_equal(const Node& a, const Node& b) {
    auto na = number_of(a), nb = number_of(b);
    if (na || nb) {
        if (!na || !nb) return false;
        if (na->is_int && nb->is_int) return na->i == nb->i;
        return na->d == nb->d;
    }
    if (a.kind() != b.kind()) return false;
    switch (a.kind()) {
    case Node::Kind::Null: return true;
    case Node::Kind::Bool: return a.as_bool() == b.as_bool();
    case Node::Kind::String: return a.text() == b.text();
    case Node::Kind::Seq: {
        const auto& x = a.items();
        const auto& y = b.items();
        if (x.size() != y.size()) return false;
        for (std::size_t i = 0; i < x.size(); ++i)
            if (!deep_equal(x[i], y[i])) return false;
        return true;
    }
    case Node::Kind::Map: {
        if (a.entries().size() != b.entries().size()) return false;
        for (const auto& e : a.entries()) {
            const Node* o = b.find(e.key);
            if (!o || !deep_equal(e.value, *o)) return false;
        }
        return true;
    }
    default: return false;
    }
}

std::size_t deep_hash(const Node& n) {
    auto mix = [](std::size_t h, std::size_t v) { return h ^ (v + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2)); };
    if (auto num = number_of(n)) return mix(3, std::hash<double>{}(num->d));
    switch (n.kind()) {
    case Node::Kind::Null: return 1;
    case Node::Kind::Bool: return n.as_bool() ? 5 : 7;
    case Node::Kind::String: return mix(11, std::hash<std::string>{}(n.text()));
    case Node::Kind::Seq: {
        std::size_t h = 13;
        for (const auto& i : n.items()) h = mix(h, deep_hash(i));
        return h;
    }
    case Node::Kind::Map: {
        // Order-independent: sum of per-entry hashes.
        std::size_t h = 17;
        for (const auto& e : n.entries()) h += mix(std::hash<std::string>{}(e.key), deep_hash(e.value));
        return h;
    }
    default: return 0;
    }
}

std::size_t rune_count(std::string_view s) {
    std::size_t count = 0;
    for (std::size_t i = 0; i < s.size(); ++count) {
        unsigned char c = static_cast<unsigned char>(s[i]);
        std::size_t n = c < 0x80 ? 1 : (c >> 5) == 0x6 ? 2 : (c >> 4) == 0xE ? 3 : (c >> 3) == 0x1E ? 4 : 1;
        bool ok = i + n <= s.size();
        for (std::size_t k = 1; ok && k < n; ++k)
            if ((static_cast<unsigned char>(s[i + k]) & 0xC0) != 0x80) ok = false;
        i += ok ? n : 1;
    }
    return count;
}

}  // namespace queueforge::openapi
