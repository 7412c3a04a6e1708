// Kubernetes' IP and CIDR libraries (k8s.io/apiserver/pkg/cel/library/ip.go,
// cidr.go; 1.30+), with Go's net/netip parsing rules: IPv4 octets without
// leading zeros, IPv6 with at most one "::" and an optional dotted IPv4 tail.
// As in Kubernetes, zones ("%eth0") and IPv4-mapped IPv6 addresses are
// rejected.
#include "checks/cel/functions.hpp"

#include <algorithm>
#include <array>
#include <cstdio>
#include <optional>
#include <string>

namespace queueforge::cel {
namespace {

using K = Value::Kind;
using Args = std::span<const Value>;

struct Addr {
    bool v6 = false;
    std::array<std::uint8_t, 16> b{};  // IPv4 uses the first four bytes

    std::size_t size() const { return v6 ? 16 : 4; }
    bool operator==(const Addr& o) const { return v6 == o.v6 && b == o.b; }

    std::string to_string() const {
        if (!v6) return std::to_string(b[0]) + "." + std::to_string(b[1]) + "." + std::to_string(b[2]) + "." + std::to_string(b[3]);
        std::array<unsigned, 8> g{};
        for (int i = 0; i < 8; ++i) g[static_cast<std::size_t>(i)] = (b[static_cast<std::size_t>(2 * i)] << 8) | b[static_cast<std::size_t>(2 * i + 1)];
        // RFC 5952: compress the longest run (first on ties) of two or more zero groups.
        int best = -1, best_len = 0;
        for (int i = 0; i < 8;) {
            if (g[static_cast<std::size_t>(i)] != 0) {
                ++i;
                continue;
            }
            int j = i;
            while (j < 8 && g[static_cast<std::size_t>(j)] == 0) ++j;
            if (j - i > best_len && j - i >= 2) {
                best = i;
                best_len = j - i;
            }
            i = j;
        }
        std::string out;
        char buf[8];
        for (int i = 0; i < 8; ++i) {
            if (i == best) {
                out += "::";
                i += best_len - 1;
                continue;
            }
            if (!out.empty() && out.back() != ':') out += ':';
            std::snprintf(buf, sizeof buf, "%x", g[static_cast<std::size_t>(i)]);
            out += buf;
        }
        return out;
    }

    bool is_4in6() const {
        if (!v6) return false;
        for (int i = 0; i < 10; ++i)
            if (b[static_cast<std::size_t>(i)] != 0) return false;
        return b[10] == 0xff && b[11] == 0xff;
    }
};

bool parse_v4(std::string_view s, std::uint8_t* out) {
    int part = 0;
    std::size_t i = 0;
    while (part < 4) {
        if (i >= s.size() || s[i] < '0' || s[i] > '9') return false;
        const std::size_t start = i;
        int v = 0;
        while (i < s.size() && s[i] >= '0' && s[i] <= '9') {
            v = v * 10 + (s[i] - '0');
            if (v > 255) return false;
            ++i;
        }
        if (i - start > 1 && s[start] == '0') return false;  // leading zero
        out[part++] = static_cast<std::uint8_t>(v);
        if (part < 4) {
            if (i >= s.size() || s[i] != '.') return false;
            ++i;
        }
    }
    return i == s.size();
}

int hex_digit(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

bool parse_v6(std::string_view s, std::uint8_t* out) {
    std::array<std::uint8_t, 16> bytes{};
    int filled = 0;     // bytes written
    int ellipsis = -1;  // byte position of "::"
    std::size_t i = 0;
    if (s.size() >= 2 && s[0] == ':' && s[1] == ':') {
        ellipsis = 0;
        i = 2;
        if (i == s.size()) {
            std::copy(bytes.begin(), bytes.end(), out);
            return true;
        }
    }
    while (i < s.size()) {
        if (filled == 16) return false;
        // A group, or a dotted IPv4 tail.
        std::size_t j = i;
        while (j < s.size() && hex_digit(s[j]) >= 0) ++j;
        if (j < s.size() && s[j] == '.') {
            if (filled > 12) return false;
            if (!parse_v4(s.substr(i), &bytes[static_cast<std::size_t>(filled)])) return false;
            filled += 4;
            i = s.size();
            break;
        }
        if (j == i || j - i > 4) return false;
        unsigned v = 0;
        for (std::size_t k = i; k < j; ++k) v = v * 16 + static_cast<unsigned>(hex_digit(s[k]));
        bytes[static_cast<std::size_t>(filled++)] = static_cast<std::uint8_t>(v >> 8);
        bytes[static_cast<std::size_t>(filled++)] = static_cast<std::uint8_t>(v & 0xff);
        i = j;
        if (i == s.size()) break;
        if (s[i] != ':') return false;
        ++i;
        if (i < s.size() && s[i] == ':') {
            if (ellipsis >= 0) return false;
            ellipsis = filled;
            ++i;
            if (i == s.size()) break;
        } else if (i == s.size()) {
            return false;  // trailing single colon
        }
    }
    if (ellipsis >= 0) {
        if (filled == 16) return false;
        const int n = filled - ellipsis;
        for (int k = n - 1; k >= 0; --k) bytes[static_cast<std::size_t>(16 - n + k)] = bytes[static_cast<std::size_t>(ellipsis + k)];
        for (int k = ellipsis; k < 16 - n; ++k) bytes[static_cast<std::size_t>(k)] = 0;
    } else if (filled != 16) {
        return false;
    }
    std::copy(bytes.begin(), bytes.end(), out);
    return true;
}

// The address, or an error message.
std::optional<Addr> parse_addr(const std::string& s, std::string& error, const char* what) {
    if (s.find('%') != std::string::npos) {
        error = std::string(what) + " with zone value is not allowed";
        return std::nullopt;
    }
    Addr a;
    if (s.find(':') != std::string::npos) {
        a.v6 = true;
        if (!parse_v6(s, a.b.data())) {
            error = std::string(what) + " '" + s + "' parse error during conversion from string";
            return std::nullopt;
        }
        if (a.is_4in6()) {
            error = "IPv4-mapped IPv6 address is not allowed";
            return std::nullopt;
        }
        return a;
    }
    if (!parse_v4(s, a.b.data())) {
        error = std::string(what) + " '" + s + "' parse error during conversion from string";
        return std::nullopt;
    }
    return a;
}

class IPValue final : public Opaque {
public:
    explicit IPValue(Addr a) : addr(a) {}
    std::string type_name() const override { return "net.IP"; }
    bool equals(const Opaque& o) const override {
        const auto* other = dynamic_cast<const IPValue*>(&o);
        return other && other->addr == addr;
    }
    std::string to_string() const override { return addr.to_string(); }
    Addr addr;
};

class CIDRValue final : public Opaque {
public:
    CIDRValue(Addr a, int bits) : addr(a), prefix(bits) {}
    std::string type_name() const override { return "net.CIDR"; }
    bool equals(const Opaque& o) const override {
        const auto* other = dynamic_cast<const CIDRValue*>(&o);
        return other && other->addr == addr && other->prefix == prefix;
    }
    std::string to_string() const override { return addr.to_string() + "/" + std::to_string(prefix); }
    Addr masked_addr() const {
        Addr m = addr;
        for (std::size_t i = 0; i < m.size(); ++i) {
            const int keep = std::clamp(prefix - static_cast<int>(i) * 8, 0, 8);
            m.b[i] &= static_cast<std::uint8_t>(keep == 0 ? 0 : (0xFF << (8 - keep)) & 0xFF);
        }
        return m;
    }
    bool contains(const Addr& a) const {
        if (a.v6 != addr.v6) return false;
        CIDRValue other(a, prefix);
        return other.masked_addr() == masked_addr();
    }
    Addr addr;
    int prefix;
};

std::optional<CIDRValue> parse_cidr(const std::string& s, std::string& error) {
    if (s.find('%') != std::string::npos) {
        error = "CIDR with zone value is not allowed";
        return std::nullopt;
    }
    const auto slash = s.find('/');
    auto bad = [&] {
        error = "network address '" + s + "' parse error during conversion from string";
        return std::nullopt;
    };
    if (slash == std::string::npos || slash + 1 >= s.size() || s.size() - slash > 4) return bad();
    int bits = 0;
    for (std::size_t i = slash + 1; i < s.size(); ++i) {
        if (s[i] < '0' || s[i] > '9') return bad();
        bits = bits * 10 + (s[i] - '0');
    }
    if (s.size() - slash > 2 && s[slash + 1] == '0') return bad();
    std::string addr_error;
    auto a = parse_addr(s.substr(0, slash), addr_error, "network address");
    if (!a) {
        error = addr_error.find("IPv4-mapped") != std::string::npos ? addr_error : "network address '" + s + "' parse error during conversion from string";
        return std::nullopt;
    }
    if (bits > static_cast<int>(a->size()) * 8) return bad();
    return CIDRValue(*a, bits);
}

const IPValue* as_ip(const Value& v) { return dynamic_cast<const IPValue*>(v.as_opaque()); }
const CIDRValue* as_cidr(const Value& v) { return dynamic_cast<const CIDRValue*>(v.as_opaque()); }

Value ip_value(const Addr& a) { return Value::opaque(std::make_shared<const IPValue>(a)); }

Result ip(EvalContext&, Args a) {
    if (!arity(a, 1) || !is(a[0], K::String)) return std::nullopt;
    std::string error;
    auto addr = parse_addr(a[0].as_string(), error, "IP Address");
    if (!addr) return Value::error(error);
    return ip_value(*addr);
}

Result is_ip(EvalContext&, Args a) {
    if (!arity(a, 1) || !is(a[0], K::String)) return std::nullopt;
    std::string error;
    return Value::boolean(parse_addr(a[0].as_string(), error, "IP Address").has_value());
}

Result is_canonical(EvalContext&, Args a) {
    if (!arity(a, 1) || !is(a[0], K::String)) return std::nullopt;
    std::string error;
    auto addr = parse_addr(a[0].as_string(), error, "IP Address");
    if (!addr) return Value::error(error);
    return Value::boolean(addr->to_string() == a[0].as_string());
}

Result family(EvalContext&, Args a) {
    if (!arity(a, 1) || !as_ip(a[0])) return std::nullopt;
    return Value::integer(as_ip(a[0])->addr.v6 ? 6 : 4);
}

enum class IPTest { Unspecified, Loopback, LinkLocalMulticast, LinkLocalUnicast, GlobalUnicast };

bool test_addr(const Addr& x, IPTest t) {
    const auto& b = x.b;
    auto all_zero = [&](std::size_t n) {
        for (std::size_t i = 0; i < n; ++i)
            if (b[i]) return false;
        return true;
    };
    const bool unspecified = all_zero(x.size());
    const bool loopback = x.v6 ? (all_zero(15) && b[15] == 1) : b[0] == 127;
    const bool llm = x.v6 ? (b[0] == 0xff && (b[1] & 0x0f) == 0x02) : (b[0] == 224 && b[1] == 0 && b[2] == 0);
    const bool llu = x.v6 ? (b[0] == 0xfe && (b[1] & 0xc0) == 0x80) : (b[0] == 169 && b[1] == 254);
    const bool multicast = x.v6 ? b[0] == 0xff : (b[0] & 0xf0) == 0xe0;
    const bool broadcast = !x.v6 && b[0] == 255 && b[1] == 255 && b[2] == 255 && b[3] == 255;
    switch (t) {
        case IPTest::Unspecified: return unspecified;
        case IPTest::Loopback: return loopback;
        case IPTest::LinkLocalMulticast: return llm;
        case IPTest::LinkLocalUnicast: return llu;
        case IPTest::GlobalUnicast: return !broadcast && !unspecified && !loopback && !multicast && !llu;
    }
    return false;
}

template <IPTest T>
Result ip_test(EvalContext&, Args a) {
    if (!arity(a, 1) || !as_ip(a[0])) return std::nullopt;
    return Value::boolean(test_addr(as_ip(a[0])->addr, T));
}

Result cidr(EvalContext&, Args a) {
    if (!arity(a, 1) || !is(a[0], K::String)) return std::nullopt;
    std::string error;
    auto c = parse_cidr(a[0].as_string(), error);
    if (!c) return Value::error(error);
    return Value::opaque(std::make_shared<const CIDRValue>(*c));
}

Result is_cidr(EvalContext&, Args a) {
    if (!arity(a, 1) || !is(a[0], K::String)) return std::nullopt;
    std::string error;
    return Value::boolean(parse_cidr(a[0].as_string(), error).has_value());
}

Result contains_ip(EvalContext&, Args a) {
    if (!arity(a, 2) || !as_cidr(a[0])) return std::nullopt;
    if (const IPValue* x = as_ip(a[1])) return Value::boolean(as_cidr(a[0])->contains(x->addr));
    if (!is(a[1], K::String)) return std::nullopt;
    std::string error;
    auto addr = parse_addr(a[1].as_string(), error, "IP Address");
    if (!addr) return Value::error(error);
    return Value::boolean(as_cidr(a[0])->contains(*addr));
}

Result contains_cidr(EvalContext&, Args a) {
    if (!arity(a, 2) || !as_cidr(a[0])) return std::nullopt;
    std::optional<CIDRValue> other;
    if (const CIDRValue* c = as_cidr(a[1])) {
        other = *c;
    } else if (is(a[1], K::String)) {
        std::string error;
        other = parse_cidr(a[1].as_string(), error);
        if (!other) return Value::error(error);
    } else {
        return std::nullopt;
    }
    const CIDRValue& self = *as_cidr(a[0]);
    return Value::boolean(self.addr.v6 == other->addr.v6 && self.prefix <= other->prefix && self.contains(other->addr));
}

Result cidr_ip(EvalContext&, Args a) {
    if (!arity(a, 1) || !as_cidr(a[0])) return std::nullopt;
    return ip_value(as_cidr(a[0])->addr);
}

Result masked(EvalContext&, Args a) {
    if (!arity(a, 1) || !as_cidr(a[0])) return std::nullopt;
    const CIDRValue& c = *as_cidr(a[0]);
    return Value::opaque(std::make_shared<const CIDRValue>(c.masked_addr(), c.prefix));
}

Result prefix_length(EvalContext&, Args a) {
    if (!arity(a, 1) || !as_cidr(a[0])) return std::nullopt;
    return Value::integer(as_cidr(a[0])->prefix);
}

}  // namespace

void register_network(Registry& r) {
    r.add("ip", ip);
    r.add("isIP", is_ip);
    r.add("ip.isCanonical", is_canonical);
    r.add("family", family);
    r.add("isUnspecified", ip_test<IPTest::Unspecified>);
    r.add("isLoopback", ip_test<IPTest::Loopback>);
    r.add("isLinkLocalMulticast", ip_test<IPTest::LinkLocalMulticast>);
    r.add("isLinkLocalUnicast", ip_test<IPTest::LinkLocalUnicast>);
    r.add("isGlobalUnicast", ip_test<IPTest::GlobalUnicast>);
    r.add("cidr", cidr);
    r.add("isCIDR", is_cidr);
    r.add("containsIP", contains_ip);
    r.add("containsCIDR", contains_cidr);
    r.add("masked", masked);
    r.add("prefixLength", prefix_length);
    // cidr.ip(): a receiver call named "ip", tried after ip(string).
    r.add("ip", cidr_ip);
}

}  // namespace queueforge::cel
