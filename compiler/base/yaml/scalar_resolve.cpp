#include "scalar_resolve.hpp"

#include <array>
#include <charconv>
#include <cstdint>
#include <limits>
#include <optional>
#include <system_error>

namespace queueforge::yaml_detail {

namespace {

bool is_digit(char c) { return c >= '0' && c <= '9'; }

bool is_hex(char c) { return is_digit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'); }

char lower(char c) { return (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c; }

bool iequals(std::string_view a, std::string_view b) {
    if (a.size() != b.size()) return false;
    for (std::size_t i = 0; i < a.size(); ++i)
        if (lower(a[i]) != lower(b[i])) return false;
    return true;
}

template <std::size_t N>
bool one_of(std::string_view s, const std::array<std::string_view, N>& words) {
    for (auto w : words)
        if (s == w) return true;
    return false;
}

// go-yaml v2's lookup table (resolve.go); only these exact spellings count.
constexpr std::array<std::string_view, 11> kTrueWords{"y",  "Y",    "yes",  "Yes", "YES", "true",
                                                      "True", "TRUE", "on", "On",  "ON"};
constexpr std::array<std::string_view, 11> kFalseWords{"n",     "N",     "no",  "No",  "NO", "false",
                                                       "False", "FALSE", "off", "Off", "OFF"};
constexpr std::array<std::string_view, 4> kNullWords{"~", "null", "Null", "NULL"};
constexpr std::array<std::string_view, 12> kInfNanWords{".nan",  ".NaN",  ".NAN",  ".inf",  ".Inf",  ".INF",
                                                        "+.inf", "+.Inf", "+.INF", "-.inf", "-.Inf", "-.INF"};

struct ParsedInt {
    bool negative = false;
    std::uint64_t magnitude = 0;
};

// Go's strconv.ParseInt(s, 0, 64) with ParseUint as fallback, as go-yaml
// calls them: optional sign, 0x/0o/0b prefixes, a leading 0 meaning octal.
std::optional<ParsedInt> parse_go_int(std::string_view s) {
    ParsedInt r;
    bool explicit_plus = false;
    if (!s.empty() && (s[0] == '+' || s[0] == '-')) {
        r.negative = s[0] == '-';
        explicit_plus = s[0] == '+';
        s.remove_prefix(1);
    }
    if (s.empty()) return std::nullopt;
    unsigned base = 10;
    if (s.size() >= 2 && s[0] == '0') {
        const char p = lower(s[1]);
        base = p == 'x' ? 16 : p == 'b' ? 2 : 8;
        s.remove_prefix(p == 'x' || p == 'o' || p == 'b' ? 2 : 1);
        if (s.empty()) return std::nullopt;
    }
    std::uint64_t v = 0;
    for (char c : s) {
        unsigned d;
        if (is_digit(c)) d = static_cast<unsigned>(c - '0');
        else if (base == 16 && is_hex(c)) d = static_cast<unsigned>(lower(c) - 'a' + 10);
        else return std::nullopt;
        if (d >= base) return std::nullopt;
        if (v > (std::numeric_limits<std::uint64_t>::max() - d) / base) return std::nullopt;
        v = v * base + d;
    }
    r.magnitude = v;
    constexpr std::uint64_t kInt64Max = static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max());
    // ParseInt covers the signed range; ParseUint (no sign allowed) the rest.
    if (r.negative) return v <= kInt64Max + 1 ? std::optional(r) : std::nullopt;
    if (explicit_plus) return v <= kInt64Max ? std::optional(r) : std::nullopt;
    return r;
}

std::string canonical_int(const ParsedInt& p) {
    std::array<char, 24> buf{};
    char* b = buf.data();
    if (p.negative && p.magnitude != 0) *b++ = '-';
    auto [end, ec] = std::to_chars(b, buf.data() + buf.size(), p.magnitude);
    (void)ec;  // 24 bytes always fit a uint64 and a sign
    return std::string(buf.data(), end);
}

// go-yaml's yamlStyleFloat: ^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$
bool matches_yaml_style_float(std::string_view s) {
    std::size_t i = 0, n = s.size();
    if (i < n && (s[i] == '+' || s[i] == '-')) ++i;
    if (i < n && s[i] == '.') {
        ++i;
        std::size_t d = i;
        while (i < n && is_digit(s[i])) ++i;
        if (i == d) return false;
    } else {
        std::size_t d = i;
        while (i < n && is_digit(s[i])) ++i;
        if (i == d) return false;
        if (i < n && s[i] == '.') {
            ++i;
            while (i < n && is_digit(s[i])) ++i;
        }
    }
    if (i < n && (s[i] == 'e' || s[i] == 'E')) {
        ++i;
        if (i < n && (s[i] == '+' || s[i] == '-')) ++i;
        std::size_t d = i;
        while (i < n && is_digit(s[i])) ++i;
        if (i == d) return false;
    }
    return i == n;
}

// Go's ParseFloat fails with ErrRange on overflow (1e999), and go-yaml then
// keeps the scalar a string; underflow (1e-999) is not an error there.
// Input already matches matches_yaml_style_float.
bool float_overflows(std::string_view s) {
    if (!s.empty() && s[0] == '+') s.remove_prefix(1);
    double v = 0;
    auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    (void)p;
    if (ec != std::errc::result_out_of_range) return false;
    // from_chars reports over- and underflow alike; tell them apart by the
    // decimal exponent of the first significant digit.
    std::size_t i = (!s.empty() && s[0] == '-') ? 1 : 0;
    long long magnitude = 0;
    bool seen_point = false, found = false;
    long long int_digits = 0, frac_zeros = 0;
    for (; i < s.size() && s[i] != 'e' && s[i] != 'E'; ++i) {
        if (s[i] == '.') { seen_point = true; continue; }
        if (!found && s[i] == '0') {
            if (seen_point) ++frac_zeros;
            continue;
        }
        found = true;
        if (!seen_point) ++int_digits;
    }
    if (!found) return false;
    magnitude = int_digits > 0 ? int_digits - 1 : -(frac_zeros + 1);
    long long exp = 0;
    bool neg_exp = false;
    if (i < s.size()) {
        ++i;
        if (i < s.size() && (s[i] == '+' || s[i] == '-')) neg_exp = s[i++] == '-';
        for (; i < s.size(); ++i) exp = exp > 100000 ? exp : exp * 10 + (s[i] - '0');
    }
    return magnitude + (neg_exp ? -exp : exp) > 0;
}

// Go's strconv.underscoreOK: an underscore must sit between two digits.
// ParseFloat applies it to the raw text, which go-yaml passes unchanged for
// scalars starting with '.', so ".5e1_0" is 5e9 to Kubernetes.
bool go_underscores_ok(std::string_view s) {
    char saw = '^';  // ^ start, 0 digit, _ underscore, ! anything else
    for (char c : s) {
        if (is_digit(c)) {
            saw = '0';
        } else if (c == '_') {
            if (saw != '0') return false;
            saw = '_';
        } else {
            if (saw == '_') return false;
            saw = '!';
        }
    }
    return saw != '_';
}

bool is_timestamp_like(std::string_view s) {
    // Every YAML 1.1 timestamp starts YYYY-M; the rest does not matter for
    // deciding to quote.
    return s.size() >= 6 && is_digit(s[0]) && is_digit(s[1]) && is_digit(s[2]) && is_digit(s[3]) &&
           s[4] == '-' && is_digit(s[5]);
}

bool all_of_set(std::string_view s, bool (*pred)(char)) {
    if (s.empty()) return false;
    for (char c : s)
        if (!pred(c)) return false;
    return true;
}

// Superset of the number forms of YAML 1.1 (ints with _, base 2/8/16,
// sexagesimal 1:30, floats like "1.2.3" that the 1.1 regex admits) and of the
// 1.2 core schema, after an optional sign.
bool looks_numeric(std::string_view s) {
    if (!s.empty() && (s[0] == '+' || s[0] == '-')) s.remove_prefix(1);
    if (s.empty()) return false;
    for (auto w : {".inf", ".nan"})
        if (iequals(s, w)) return true;
    if (s.size() > 2 && s[0] == '0') {
        char p = lower(s[1]);
        auto rest = s.substr(2);
        if (p == 'x') return all_of_set(rest, [](char c) { return is_hex(c) || c == '_'; });
        if (p == 'o') return all_of_set(rest, [](char c) { return (c >= '0' && c <= '7') || c == '_'; });
        if (p == 'b') return all_of_set(rest, [](char c) { return c == '0' || c == '1' || c == '_'; });
    }
    if (!is_digit(s[0]) && s[0] != '.') return false;
    std::size_t i = 0;
    bool digit = false;
    while (i < s.size() && (is_digit(s[i]) || s[i] == '_' || s[i] == '.' || s[i] == ':')) {
        digit = digit || is_digit(s[i]);
        ++i;
    }
    if (!digit && s.substr(0, i) != ".") return false;  // the 1.1 float regex admits a lone "."
    if (i == s.size()) return true;
    if (s[i] != 'e' && s[i] != 'E') return false;
    ++i;
    if (i < s.size() && (s[i] == '+' || s[i] == '-')) ++i;
    std::size_t d = i;
    while (i < s.size() && is_digit(s[i])) ++i;
    return i > d && i == s.size();
}

}  // namespace

ResolvedScalar resolve_plain(std::string_view in) {
    using K = Node::Kind;
    if (in.empty()) return {K::Null, "null"};
    const char c0 = in[0];
    const bool sign = c0 == '+' || c0 == '-';
    // go-yaml consults its tables only when the first character could start
    // an entry; everything else is a string without further checks.
    static constexpr std::string_view kMapStarts = "yYnNtTfFoO~";
    if (!is_digit(c0) && !sign && c0 != '.' && kMapStarts.find(c0) == std::string_view::npos)
        return {K::String, std::string(in)};
    if (one_of(in, kNullWords)) return {K::Null, "null"};
    if (one_of(in, kTrueWords)) return {K::Bool, "true"};
    if (one_of(in, kFalseWords)) return {K::Bool, "false"};
    if (one_of(in, kInfNanWords)) return {K::Float, std::string(in)};
    if (!is_digit(c0) && !sign && c0 != '.') return {K::String, std::string(in)};
    std::string plain;
    plain.reserve(in.size());
    for (char c : in)
        if (c != '_') plain += c;
    if (c0 == '.') {
        // go-yaml calls ParseFloat on the raw text here, which takes Go's
        // digit separators but nothing else beyond a YAML-style float.
        if (go_underscores_ok(in) && matches_yaml_style_float(plain) && !float_overflows(plain))
            return {K::Float, std::string(in)};
        return {K::String, std::string(in)};
    }
    // Timestamps would be tried next, but go-yaml v2 hands them to
    // interface{} targets as strings, and none of them parses as a number.
    if (auto v = parse_go_int(plain)) return {K::Int, canonical_int(*v)};
    if (matches_yaml_style_float(plain) && !float_overflows(plain)) return {K::Float, std::string(in)};
    return {K::String, std::string(in)};
}

std::string float_key_spelling(std::string_view text) {
    std::string plain;
    for (char c : text)
        if (c != '_') plain += c;
    const bool neg = !plain.empty() && plain[0] == '-';
    std::string_view body = plain;
    if (!body.empty() && (body[0] == '+' || body[0] == '-')) body.remove_prefix(1);
    if (iequals(body, ".nan")) return ".nan";
    if (iequals(body, ".inf")) return neg ? "-.inf" : ".inf";
    double d = 0;
    auto [p, ec] = std::from_chars(body.data(), body.data() + body.size(), d);
    (void)p;
    if (ec == std::errc::result_out_of_range) d = 0;  // underflow; overflow never resolves to a float
    // Go rounds to float32 first; a float32 that overflows prints as +Inf.
    if (d > static_cast<double>(std::numeric_limits<float>::max())) return neg ? "-.inf" : ".inf";
    const float f = static_cast<float>(d);
    if (f == 0.0f) return neg ? "-0" : "0";
    // Shortest round-trip digits, then Go's 'g' layout: exponent form when
    // the decimal exponent is < -4 or >= 6 (Go's rule for shortest output).
    std::array<char, 64> buf{};
    auto [end, ec2] = std::to_chars(buf.data(), buf.data() + buf.size(), f, std::chars_format::scientific);
    (void)ec2;
    const std::string_view sci(buf.data(), static_cast<std::size_t>(end - buf.data()));
    const std::size_t e = sci.find('e');
    std::string digits;
    for (char c : sci.substr(0, e))
        if (is_digit(c)) digits += c;
    int exp = 0;
    std::from_chars(sci.data() + e + 1 + (sci[e + 1] == '+' ? 1 : 0), sci.data() + sci.size(), exp);
    std::string out = neg ? "-" : "";
    const int nd = static_cast<int>(digits.size());
    if (exp < -4 || exp >= 6) {
        out += digits[0];
        if (nd > 1) out += "." + digits.substr(1);
        out += exp < 0 ? "e-" : "e+";
        const int a = exp < 0 ? -exp : exp;
        if (a < 10) out += '0';
        out += std::to_string(a);
        return out;
    }
    const int dp = exp + 1;  // digits before the decimal point
    if (dp <= 0) {
        out += "0." + std::string(static_cast<std::size_t>(-dp), '0') + digits;
    } else if (dp >= nd) {
        out += digits + std::string(static_cast<std::size_t>(dp - nd), '0');
    } else {
        out += digits.substr(0, static_cast<std::size_t>(dp)) + "." + digits.substr(static_cast<std::size_t>(dp));
    }
    return out;
}

bool may_resolve_to_non_string(std::string_view s) {
    if (s.empty()) return true;
    // The words are at most 5 letters: longer scalars skip the list.
    static constexpr std::string_view kWords[] = {"y", "n", "yes", "no", "on", "off", "true", "false", "null", "~"};
    if (s.size() <= 5)
        for (auto w : kWords)
            if (iequals(s, w)) return true;
    // YAML 1.1 merge and value keys.
    if (s == "<<" || s == "=") return true;
    if (looks_numeric(s) || is_timestamp_like(s)) return true;
    return resolve_plain(s).kind != Node::Kind::String;
}

}  // namespace queueforge::yaml_detail
