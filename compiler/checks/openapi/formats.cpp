// Format checks with the acceptance rules of the Go functions the API server
// calls (kube-openapi strfmt, govalidator, time). Network and address formats
// live in formats_net.cpp.
#include "checks/openapi/formats.hpp"

#include <queueforge/base/text.hpp>

#include <queueforge/base/names.hpp>

#include <re2/re2.h>

#include <array>
#include <cstdint>
#include <string>

namespace queueforge::openapi {

namespace {

bool is_digit(char c) { return c >= '0' && c <= '9'; }
bool is_hex(char c) { return is_digit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'); }
bool is_alpha(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
char lower(char c) { return (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c; }
// Go's \s in regexp: [\t\n\f\r ].
bool is_go_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\f' || c == '\r'; }

// Regexes too irregular to hand-code. Compiled once; RE2 objects are safe to
// share between threads once built.
struct FormatRegexes {
    RE2 credit_card{
        R"(^(?:4[0-9]{12}(?:[0-9]{3})?|5[1-5][0-9]{14}|6(?:011|5[0-9][0-9])[0-9]{12}|3[47][0-9]{13}|3(?:0[0-5]|[68][0-9])[0-9]{11}|(?:2131|1800|35\d{3})\d{11})$)"};
    RE2 rgb_color{
        R"(^rgb\(\s*(0|[1-9]\d?|1\d\d?|2[0-4]\d|25[0-5])\s*,\s*(0|[1-9]\d?|1\d\d?|2[0-4]\d|25[0-5])\s*,\s*(0|[1-9]\d?|1\d\d?|2[0-4]\d|25[0-5])\s*\)$)"};
};

const FormatRegexes& regexes() {
    static const FormatRegexes r;
    return r;
}

// (?i)^[0-9a-f]{8}-?[0-9a-f]{4}-?V[0-9a-f]{3}-?[V2][0-9a-f]{3}-?[0-9a-f]{12}$
// with version digit V and variant class V2 (0 = any).
bool uuid_like(std::string_view s, char version, bool rfc_variant) {
    static constexpr std::array<int, 5> groups{8, 4, 4, 4, 12};
    std::size_t i = 0;
    for (std::size_t g = 0; g < groups.size(); ++g) {
        if (g > 0 && i < s.size() && s[i] == '-') ++i;
        for (int k = 0; k < groups[g]; ++k, ++i) {
            if (i >= s.size() || !is_hex(s[i])) return false;
            if (k == 0 && g == 2 && version && s[i] != version) return false;
            if (k == 0 && g == 3 && rfc_variant) {
                char c = lower(s[i]);
                if (c != '8' && c != '9' && c != 'a' && c != 'b') return false;
            }
        }
    }
    return i == s.size();
}

bool is_leap(int y) { return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0; }

// time.Parse("2006-01-02", s): fixed-width fields, real calendar days.
bool is_date(std::string_view s) {
    if (s.size() != 10 || s[4] != '-' || s[7] != '-') return false;
    for (std::size_t i : {0u, 1u, 2u, 3u, 5u, 6u, 8u, 9u})
        if (!is_digit(s[i])) return false;
    int y = (s[0] - '0') * 1000 + (s[1] - '0') * 100 + (s[2] - '0') * 10 + (s[3] - '0');
    int m = (s[5] - '0') * 10 + (s[6] - '0');
    int d = (s[8] - '0') * 10 + (s[9] - '0');
    if (m < 1 || m > 12 || d < 1) return false;
    static constexpr std::array<int, 12> days{31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    int max = days[static_cast<std::size_t>(m - 1)] + (m == 2 && is_leap(y) ? 1 : 0);
    return d <= max;
}

// strfmt.IsDateTime: lower-case, split on "t", a full date before it and
// ^([0-9]{2}):([0-9]{2}):([0-9]{2})(.[0-9]+)?(z|([+-][0-9]{2}:[0-9]{2}))$
// after it, with hour <= 23 and minute/second <= 59.
bool is_date_time(std::string_view in) {
    if (in.size() < 4) return false;
    std::string s(in);
    for (char& c : s) c = lower(c);
    std::size_t t = s.find('t');
    if (t == std::string::npos) return false;
    if (!is_date(std::string_view(s).substr(0, t))) return false;
    std::size_t t2 = s.find('t', t + 1);
    std::string_view rest = std::string_view(s).substr(t + 1, t2 == std::string::npos ? std::string::npos : t2 - t - 1);
    if (rest.size() < 9) return false;
    for (std::size_t i : {0u, 1u, 3u, 4u, 6u, 7u})
        if (!is_digit(rest[i])) return false;
    if (rest[2] != ':' || rest[5] != ':') return false;
    if (rest.substr(0, 2) > "23" || rest.substr(3, 2) > "59" || rest.substr(6, 2) > "59") return false;
    std::size_t i = 8;
    // (.[0-9]+)? -- any one rune, then digits; backtracks when what follows is the zone.
    auto zone_ok = [&](std::size_t j) {
        std::string_view z = rest.substr(j);
        if (z == "z") return true;
        return z.size() == 6 && (z[0] == '+' || z[0] == '-') && is_digit(z[1]) && is_digit(z[2]) && z[3] == ':' &&
               is_digit(z[4]) && is_digit(z[5]);
    };
    if (zone_ok(i)) return true;
    if (i >= rest.size() || rest[i] == '\n') return false;
    i += utf8_at(rest, i).length;  // one rune, as Go's regexp steps over for "."
    std::size_t digits = 0;
    while (i < rest.size() && is_digit(rest[i])) ++i, ++digits;
    return digits > 0 && zone_ok(i);
}

// time.ParseDuration: [-+]?([0-9]*(\.[0-9]*)?[a-z]+)+ with Go's units.
bool go_parse_duration(std::string_view s) {
    if (!s.empty() && (s[0] == '-' || s[0] == '+')) s.remove_prefix(1);
    if (s == "0") return true;
    if (s.empty()) return false;
    double total = 0;
    while (!s.empty()) {
        if (!(s[0] == '.' || is_digit(s[0]))) return false;
        std::size_t i = 0;
        double v = 0;
        while (i < s.size() && is_digit(s[i])) v = v * 10 + (s[i++] - '0');
        bool pre = i > 0;
        bool post = false;
        if (i < s.size() && s[i] == '.') {
            ++i;
            double scale = 0.1;
            while (i < s.size() && is_digit(s[i])) {
                v += (s[i++] - '0') * scale;
                scale /= 10;
                post = true;
            }
        }
        if (!pre && !post) return false;
        std::size_t u = i;
        while (u < s.size() && s[u] != '.' && !is_digit(s[u])) ++u;
        if (u == i) return false;
        std::string_view unit = s.substr(i, u - i);
        double ns = 0;
        if (unit == "ns")
            ns = 1;
        else if (unit == "us" || unit == "\xC2\xB5s" || unit == "\xCE\xBCs")
            ns = 1e3;
        else if (unit == "ms")
            ns = 1e6;
        else if (unit == "s")
            ns = 1e9;
        else if (unit == "m")
            ns = 60e9;
        else if (unit == "h")
            ns = 3600e9;
        else
            return false;
        total += v * ns;
        if (total > 9.223372036854775807e18) return false;
        s.remove_prefix(u);
    }
    return true;
}

// strfmt.ParseDuration's fallback: any "<digits><spaces><letters>" whose unit
// is one of the spelled-out variants ("5 days", "3wk") makes the whole string
// a duration, whatever surrounds it.
bool strfmt_duration_fallback(std::string_view s) {
    static constexpr std::array<std::array<std::string_view, 3>, 8> units{{
        {"ns", "nano", ""},
        {"us", "\xC2\xB5s", "micro"},
        {"ms", "milli", ""},
        {"s", "sec", ""},
        {"m", "min", ""},
        {"h", "hr", "hour"},
        {"d", "day", ""},
        {"w", "wk", "week"},
    }};
    bool ok = false;
    std::size_t i = 0;
    while (i < s.size()) {
        if (!is_digit(s[i])) {
            ++i;
            continue;
        }
        std::size_t j = i;
        while (j < s.size() && is_digit(s[j])) ++j;
        std::size_t k = j;
        while (k < s.size() && is_go_space(s[k])) ++k;
        std::size_t l = k;
        while (l < s.size()) {
            if (is_alpha(s[l]))
                ++l;
            else if (s[l] == '\xC2' && l + 1 < s.size() && s[l + 1] == '\xB5')
                l += 2;
            else
                break;
        }
        if (l == k) {
            i = j;
            continue;
        }
        // strconv.Atoi fails past int64, and that failure fails the parse.
        std::string_view digits = s.substr(i, j - i);
        while (digits.size() > 1 && digits[0] == '0') digits.remove_prefix(1);
        if (digits.size() > 19 || (digits.size() == 19 && digits > "9223372036854775807")) return false;
        std::string unit(s.substr(k, l - k));
        for (char& c : unit) c = lower(c);
        for (const auto& variants : units) {
            std::size_t last = 0;
            while (last + 1 < variants.size() && !variants[last + 1].empty()) ++last;
            for (std::size_t v = 0; v <= last; ++v) {
                if ((v == last && std::string_view(unit).starts_with(variants[v])) || unit == variants[v]) ok = true;
            }
        }
        i = l;
    }
    return ok;
}

// govalidator's base64 regex: whole quartets, '=' padding only at the end, and
// at least one quartet (the empty string is not base64 here).
bool is_base64(std::string_view s) {
    if (s.empty() || s.size() % 4 != 0) return false;
    auto b64 = [](char c) { return is_alpha(c) || is_digit(c) || c == '+' || c == '/'; };
    std::size_t pad = 0;
    if (s.back() == '=') pad = (s[s.size() - 2] == '=') ? 2 : 1;
    for (std::size_t i = 0; i + pad < s.size(); ++i)
        if (!b64(s[i])) return false;
    return true;
}

bool is_isbn(std::string_view in, int version) {
    std::string s;
    for (char c : in)
        if (!is_go_space(c) && c != '\v' && c != '-') s += c;
    if (version == 10) {
        if (s.size() != 10) return false;
        for (std::size_t i = 0; i < 9; ++i)
            if (!is_digit(s[i])) return false;
        if (!is_digit(s[9]) && s[9] != 'X') return false;
        int sum = 0;
        for (int i = 0; i < 9; ++i) sum += (i + 1) * (s[static_cast<std::size_t>(i)] - '0');
        sum += 10 * (s[9] == 'X' ? 10 : s[9] - '0');
        return sum % 11 == 0;
    }
    if (s.size() != 13) return false;
    int sum = 0;
    for (std::size_t i = 0; i < 13; ++i) {
        if (!is_digit(s[i])) return false;
        if (i < 12) sum += (s[i] - '0') * (i % 2 == 0 ? 1 : 3);
    }
    return (10 - sum % 10) % 10 == s[12] - '0';
}

bool is_credit_card(std::string_view in) {
    std::string s;
    for (char c : in)
        if (is_digit(c)) s += c;
    if (!RE2::FullMatch(s, regexes().credit_card)) return false;
    int sum = 0;
    bool dbl = false;
    for (std::size_t i = s.size(); i-- > 0;) {
        int d = s[i] - '0';
        if (dbl) {
            d *= 2;
            sum += d >= 10 ? d % 10 + 1 : d;
        } else {
            sum += d;
        }
        dbl = !dbl;
    }
    return sum % 10 == 0;
}

bool is_ssn(std::string_view s) {
    if (s.size() != 11) return false;
    auto sep = [](char c) { return c == '-' || c == ' '; };
    for (std::size_t i : {0u, 1u, 2u, 4u, 5u, 7u, 8u, 9u, 10u})
        if (!is_digit(s[i])) return false;
    return sep(s[3]) && sep(s[6]);
}

bool is_hex_color(std::string_view s) {
    if (!s.empty() && s[0] == '#') s.remove_prefix(1);
    if (s.size() != 3 && s.size() != 6) return false;
    for (char c : s)
        if (!is_hex(c)) return false;
    return true;
}

}  // namespace

Format resolve_format(std::string_view name, std::string_view single_type) {
    if (name.empty()) return Format::None;
    if (single_type == "integer") {
        if (name == "int32") return Format::Int32;
        if (name == "int64") return Format::Int64;
        return Format::None;
    }
    if (single_type == "number") {
        if (name == "float") return Format::Float;
        if (name == "double") return Format::Double;
        return Format::None;
    }
    if (!single_type.empty() && single_type != "string") return Format::None;
    std::string n;
    for (char c : name)
        if (c != '-') n += c;
    struct Named {
        std::string_view name;
        Format format;
    };
    static constexpr std::array<Named, 26> table{{
        {"bsonobjectid", Format::BsonObjectId}, {"uri", Format::Uri},
        {"email", Format::Email},               {"hostname", Format::Hostname},
        {"ipv4", Format::Ipv4},                 {"ipv6", Format::Ipv6},
        {"cidr", Format::Cidr},                 {"mac", Format::Mac},
        {"uuid", Format::Uuid},                 {"uuid3", Format::Uuid3},
        {"uuid4", Format::Uuid4},               {"uuid5", Format::Uuid5},
        {"isbn", Format::Isbn},                 {"isbn10", Format::Isbn10},
        {"isbn13", Format::Isbn13},             {"creditcard", Format::CreditCard},
        {"ssn", Format::Ssn},                   {"hexcolor", Format::HexColor},
        {"rgbcolor", Format::RgbColor},         {"byte", Format::Byte},
        {"password", Format::Password},         {"date", Format::Date},
        {"duration", Format::Duration},         {"datetime", Format::DateTime},
        {"k8sshortname", Format::K8sShortName}, {"k8slongname", Format::K8sLongName},
    }};
    for (const auto& e : table)
        if (e.name == n) return e.format;
    return Format::None;
}

bool is_string_format(Format f) {
    return f != Format::None && f != Format::Int32 && f != Format::Int64 && f != Format::Float &&
           f != Format::Double;
}

bool check_string_format(Format f, std::string_view s) {
    switch (f) {
    case Format::BsonObjectId:
        if (s.size() != 24) return false;
        for (char c : s)
            if (!is_hex(c)) return false;
        return true;
    case Format::Uri: return net_format::is_request_uri(s);
    case Format::Email: return net_format::is_email(s);
    case Format::Hostname: return net_format::is_hostname(s);
    case Format::Ipv4: return net_format::is_ip(s) && s.find('.') != std::string_view::npos;
    case Format::Ipv6: return net_format::is_ip(s) && s.find(':') != std::string_view::npos;
    case Format::Cidr: return net_format::is_cidr(s);
    case Format::Mac: return net_format::is_mac(s);
    case Format::Uuid: return uuid_like(s, 0, false);
    case Format::Uuid3: return uuid_like(s, '3', false);
    case Format::Uuid4: return uuid_like(s, '4', true);
    case Format::Uuid5: return uuid_like(s, '5', true);
    case Format::Isbn: return is_isbn(s, 10) || is_isbn(s, 13);
    case Format::Isbn10: return is_isbn(s, 10);
    case Format::Isbn13: return is_isbn(s, 13);
    case Format::CreditCard: return is_credit_card(s);
    case Format::Ssn: return is_ssn(s);
    case Format::HexColor: return is_hex_color(s);
    case Format::RgbColor: return RE2::FullMatch(s, regexes().rgb_color);
    case Format::Byte: return is_base64(s);
    case Format::Password: return true;
    case Format::Date: return is_date(s);
    case Format::Duration: return go_parse_duration(s) || strfmt_duration_fallback(s);
    case Format::DateTime: return is_date_time(s);
    case Format::K8sShortName: return check_dns1123_label(s).empty();
    case Format::K8sLongName: return check_dns1123_subdomain(s).empty();
    default: return true;
    }
}

}  // namespace queueforge::openapi
