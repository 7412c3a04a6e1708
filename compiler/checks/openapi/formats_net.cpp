// Network and address formats: hostname, ipv4/ipv6, cidr, mac, email, uri.
// Where Go delegates to a large parser (net/mail, net/url) the check here is
// a close approximation; see the comments on those two.
#include "checks/openapi/formats.hpp"

#include <queueforge/base/text.hpp>

#include <re2/re2.h>

#include <string>
#include <vector>

namespace queueforge::openapi::net_format {

namespace {

bool is_digit(char c) { return c >= '0' && c <= '9'; }
bool is_hex(char c) { return is_digit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'); }
bool is_alpha(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }

// Unicode classes for single runes of a hostname. Compiled once; RE2 objects
// are safe to share between threads once built.
struct HostClasses {
    RE2 letter{R"(\p{L})"};
    RE2 letter_or_symbol{R"([\p{L}\p{S}])"};
};

const HostClasses& host_classes() {
    static const HostClasses c;
    return c;
}

// One rune of a hostname: [a-zA-Z0-9\p{S}\p{L}] ("name") or [a-zA-Z\p{L}]
// ("letter"). Go's regexp reads an invalid byte as U+FFFD, a symbol.
bool host_rune(std::string_view r, bool valid, bool letters_only) {
    if (!valid) return !letters_only;
    if (r.size() == 1) {
        char c = r[0];
        if (is_alpha(c)) return true;
        if (is_digit(c)) return !letters_only;
        static constexpr std::string_view ascii_symbols = "$+<=>^`|~";
        return !letters_only && ascii_symbols.find(c) != std::string_view::npos;
    }
    return RE2::FullMatch(r, letters_only ? host_classes().letter : host_classes().letter_or_symbol);
}

// Old net.ParseIP IPv4 (what ParseIPSloppy keeps): four decimal fields <= 255,
// leading zeros allowed.
bool parse_ipv4(std::string_view s) {
    int fields = 0;
    std::size_t i = 0;
    while (fields < 4) {
        if (fields > 0) {
            if (i >= s.size() || s[i] != '.') return false;
            ++i;
        }
        std::size_t start = i;
        unsigned v = 0;
        while (i < s.size() && is_digit(s[i])) {
            v = v * 10 + static_cast<unsigned>(s[i] - '0');
            if (v > 255) return false;
            ++i;
        }
        if (i == start) return false;
        ++fields;
    }
    return i == s.size();
}

bool parse_ipv6(std::string_view s) {
    int groups = 0;
    bool ellipsis = false;
    std::size_t i = 0;
    if (s.size() >= 2 && s[0] == ':' && s[1] == ':') {
        ellipsis = true;
        i = 2;
        if (i == s.size()) return true;
    }
    while (i < s.size()) {
        std::size_t start = i;
        while (i < s.size() && is_hex(s[i]) && i - start < 5) ++i;
        std::size_t n = i - start;
        if (n == 0 || n > 4) {
            return false;
        }
        if (i < s.size() && s[i] == '.') {
            // Trailing IPv4 takes two groups.
            if (!parse_ipv4(s.substr(start))) return false;
            groups += 2;
            i = s.size();
            break;
        }
        ++groups;
        if (i == s.size()) break;
        if (s[i] != ':') return false;
        ++i;
        if (i < s.size() && s[i] == ':') {
            if (ellipsis) return false;
            ellipsis = true;
            ++i;
            if (i == s.size()) break;
        } else if (i == s.size()) {
            return false;  // trailing single colon
        }
        if (groups > 8) return false;
    }
    return ellipsis ? groups < 8 : groups == 8;
}

bool is_atext(char c) {
    static constexpr std::string_view specials = "!#$%&'*+-/=?^_`{|}~";
    return is_alpha(c) || is_digit(c) || specials.find(c) != std::string_view::npos ||
           static_cast<unsigned char>(c) >= 0x80;
}

bool is_dot_atom(std::string_view s) {
    if (s.empty() || s.front() == '.' || s.back() == '.') return false;
    for (std::size_t i = 0; i < s.size(); ++i) {
        if (s[i] == '.') {
            if (s[i + 1] == '.') return false;
        } else if (!is_atext(s[i])) {
            return false;
        }
    }
    return true;
}

bool valid_percent_escapes(std::string_view s) {
    for (std::size_t i = 0; i < s.size(); ++i) {
        if (s[i] == '%') {
            if (i + 2 >= s.size() || !is_hex(s[i + 1]) || !is_hex(s[i + 2])) return false;
            i += 2;
        }
    }
    return true;
}

}  // namespace

// strfmt.IsHostname's regex, spelled out because RE2 runs out of DFA memory
// on its counted Unicode classes:
//   ^(N(-?N{0,62})?|(N((N|-){0,61}N)?\.)+L{2,63})$
// (N name rune, L letter rune), plus at most 255 bytes and 63 per label.
bool is_hostname(std::string_view s) {
    if (s.size() > 255) return false;
    struct Rune {
        std::string_view bytes;
        bool valid;
    };
    auto runes_of = [](std::string_view part) {
        std::vector<Rune> out;
        for (std::size_t i = 0; i < part.size();) {
            std::size_t n = utf8_at(part, i).length;
            unsigned char c = static_cast<unsigned char>(part[i]);
            out.push_back({part.substr(i, n), c < 0x80 || n > 1});
            i += n;
        }
        return out;
    };
    std::vector<std::string_view> parts;
    for (std::size_t start = 0;;) {
        std::size_t dot = s.find('.', start);
        parts.push_back(s.substr(start, dot == std::string_view::npos ? std::string_view::npos : dot - start));
        if (dot == std::string_view::npos) break;
        start = dot + 1;
    }
    for (auto p : parts)
        if (p.size() > 63) return false;
    auto name = [](const Rune& r) { return host_rune(r.bytes, r.valid, false); };
    if (parts.size() == 1) {
        auto rs = runes_of(parts[0]);
        if (rs.empty() || !name(rs[0])) return false;
        std::size_t i = 1;
        if (i < rs.size() && rs[i].bytes == "-") ++i;
        if (rs.size() - i > 62) return false;
        for (; i < rs.size(); ++i)
            if (!name(rs[i])) return false;
        return true;
    }
    auto tld = runes_of(parts.back());
    if (tld.size() < 2 || tld.size() > 63) return false;
    for (const auto& r : tld)
        if (!host_rune(r.bytes, r.valid, true)) return false;
    for (std::size_t p = 0; p + 1 < parts.size(); ++p) {
        auto rs = runes_of(parts[p]);
        if (rs.empty() || rs.size() > 63 || !name(rs.front()) || !name(rs.back())) return false;
        for (std::size_t i = 1; i + 1 < rs.size(); ++i)
            if (rs[i].bytes != "-" && !name(rs[i])) return false;
    }
    return true;
}

bool is_ip(std::string_view s) {
    return s.find(':') != std::string_view::npos ? parse_ipv6(s) : parse_ipv4(s);
}

bool is_cidr(std::string_view s) {
    std::size_t slash = s.find('/');
    if (slash == std::string_view::npos) return false;
    std::string_view ip = s.substr(0, slash), mask = s.substr(slash + 1);
    int bits = 0;
    if (parse_ipv4(ip))
        bits = 32;
    else if (parse_ipv6(ip))
        bits = 128;
    else
        return false;
    if (mask.empty()) return false;
    unsigned n = 0;
    for (char c : mask) {
        if (!is_digit(c)) return false;
        n = n * 10 + static_cast<unsigned>(c - '0');
        if (n > 0xFFFFFF) return false;
    }
    return n <= static_cast<unsigned>(bits);
}

// net.ParseMAC: 6, 8 or 20 octets as xx:xx.., xx-xx.. or xxxx.xxxx..
bool is_mac(std::string_view s) {
    if (s.size() < 14) return false;
    auto octets_ok = [](std::size_t n) { return n == 6 || n == 8 || n == 20; };
    if (s[2] == ':' || s[2] == '-') {
        if ((s.size() + 1) % 3 != 0 || !octets_ok((s.size() + 1) / 3)) return false;
        for (std::size_t x = 0; x < s.size(); x += 3) {
            if (!is_hex(s[x]) || !is_hex(s[x + 1])) return false;
            if (x + 2 < s.size() && s[x + 2] != s[2]) return false;
        }
        return true;
    }
    if (s[4] == '.') {
        if ((s.size() + 1) % 5 != 0 || !octets_ok(2 * (s.size() + 1) / 5)) return false;
        for (std::size_t x = 0; x < s.size(); x += 5) {
            for (std::size_t k = 0; k < 4; ++k)
                if (!is_hex(s[x + k])) return false;
            if (x + 4 < s.size() && s[x + 4] != '.') return false;
        }
        return true;
    }
    return false;
}

// Approximates net/mail.ParseAddress: "local@domain" or "Name <local@domain>",
// local part a dot-atom or quoted string, domain a dot-atom or [literal].
// Comments and folding whitespace that net/mail also accepts are not.
bool is_email(std::string_view s) {
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
    if (!s.empty() && s.back() == '>') {
        std::size_t lt = s.rfind('<');
        if (lt == std::string_view::npos) return false;
        s = s.substr(lt + 1, s.size() - lt - 2);
    }
    std::size_t at = s.rfind('@');
    if (at == std::string_view::npos) return false;
    std::string_view local = s.substr(0, at), domain = s.substr(at + 1);
    bool local_ok = false;
    if (local.size() >= 2 && local.front() == '"' && local.back() == '"') {
        local_ok = true;
        for (char c : local.substr(1, local.size() - 2))
            if (static_cast<unsigned char>(c) < 0x20 && c != '\t') local_ok = false;
    } else {
        local_ok = is_dot_atom(local);
    }
    if (!local_ok) return false;
    if (domain.size() >= 2 && domain.front() == '[' && domain.back() == ']') return true;
    return is_dot_atom(domain);
}

// Approximates url.ParseRequestURI: an absolute URI (scheme:...) or an
// absolute path; no control characters; a valid authority when "//" follows
// the scheme; well-formed %-escapes in the path.
bool is_request_uri(std::string_view s) {
    if (s.empty()) return false;
    for (char c : s)
        if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) return false;
    std::string_view scheme, rest = s;
    for (std::size_t i = 0; i < s.size(); ++i) {
        char c = s[i];
        if (is_alpha(c)) continue;
        if (is_digit(c) || c == '+' || c == '-' || c == '.') {
            if (i == 0) break;
            continue;
        }
        if (c == ':') {
            if (i == 0) return false;  // missing protocol scheme
            scheme = s.substr(0, i);
            rest = s.substr(i + 1);
        }
        break;
    }
    if (std::size_t q = rest.find('?'); q != std::string_view::npos) rest = rest.substr(0, q);
    if (!rest.starts_with('/')) return !scheme.empty();
    if (!scheme.empty() && rest.starts_with("//")) {
        rest.remove_prefix(2);
        std::size_t slash = rest.find('/');
        std::string_view authority = rest.substr(0, slash);
        rest = slash == std::string_view::npos ? std::string_view{} : rest.substr(slash);
        std::string_view host = authority;
        if (std::size_t at = authority.rfind('@'); at != std::string_view::npos) {
            static constexpr std::string_view user_ok = "-._:~!$&'()*+,;=%@";
            for (char c : authority.substr(0, at))
                if (!is_alpha(c) && !is_digit(c) && user_ok.find(c) == std::string_view::npos) return false;
            host = authority.substr(at + 1);
        }
        std::string_view port;
        if (host.starts_with('[')) {
            std::size_t close = host.find(']');
            if (close == std::string_view::npos) return false;
            port = host.substr(close + 1);
            if (!port.empty() && port[0] != ':') return false;
        } else if (std::size_t colon = host.rfind(':'); colon != std::string_view::npos) {
            port = host.substr(colon);
            host = host.substr(0, colon);
            static constexpr std::string_view host_ok = "-_.~$&'()*+,;=:[]<>\"!%";
            for (char c : host)
                if (!is_alpha(c) && !is_digit(c) && static_cast<unsigned char>(c) < 0x80 &&
                    host_ok.find(c) == std::string_view::npos)
                    return false;
        } else {
            static constexpr std::string_view host_ok = "-_.~$&'()*+,;=:[]<>\"!%";
            for (char c : host)
                if (!is_alpha(c) && !is_digit(c) && static_cast<unsigned char>(c) < 0x80 &&
                    host_ok.find(c) == std::string_view::npos)
                    return false;
        }
        if (!port.empty()) {
            for (char c : port.substr(1))
                if (!is_digit(c)) return false;
        }
    }
    return valid_percent_escapes(rest);
}

}  // namespace queueforge::openapi::net_format
