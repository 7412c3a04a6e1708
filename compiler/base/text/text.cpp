#include <queueforge/base/text.hpp>

#include <cstdint>
#include <cstdio>

namespace queueforge {

namespace {

constexpr const char* kHex = "0123456789abcdef";

// unicode.IsPrint's complement among the code points a Kubernetes name or
// message plausibly holds (C1 controls, format characters, separators,
// surrogates): what strconv.Quote escapes as \u.
bool go_non_printable(std::uint32_t cp) {
    return (cp >= 0x80 && cp <= 0xA0) || cp == 0xAD || (cp >= 0x2000 && cp <= 0x200F) ||
           (cp >= 0x2028 && cp <= 0x202F) || (cp >= 0x205F && cp <= 0x206F) || cp == 0x3000 || cp == 0xFEFF ||
           (cp >= 0xFFF9 && cp <= 0xFFFB) || (cp >= 0xD800 && cp <= 0xDFFF);
}

void append_hex_byte(std::string& out, const char* prefix, unsigned char c) {
    out += prefix;
    out += kHex[c >> 4];
    out += kHex[c & 0xF];
}

template <class Parts>
std::string join_parts(const Parts& parts, std::string_view sep) {
    std::string out;
    for (const auto& p : parts) {
        if (!out.empty()) out += sep;
        out += p;
    }
    return out;
}

}  // namespace

Utf8Char utf8_at(std::string_view s, std::size_t i) {
    auto c = static_cast<unsigned char>(s[i]);
    if (c < 0x80) return {c, 1, true};
    std::size_t n = (c >> 5) == 0x6 ? 2 : (c >> 4) == 0xE ? 3 : (c >> 3) == 0x1E ? 4 : 0;
    if (n == 0 || i + n > s.size()) return {c, 1, false};
    std::uint32_t cp = n == 2 ? (c & 0x1Fu) : n == 3 ? (c & 0x0Fu) : (c & 0x07u);
    for (std::size_t k = 1; k < n; ++k) {
        auto cc = static_cast<unsigned char>(s[i + k]);
        if ((cc & 0xC0) != 0x80) return {c, 1, false};
        cp = (cp << 6) | (cc & 0x3Fu);
    }
    return {static_cast<char32_t>(cp), n, true};
}

bool append_escape(std::string& out, char c, Escapes set) {
    switch (c) {
    case '"': out += "\\\""; return true;
    case '\\': out += "\\\\"; return true;
    case '\n': out += "\\n"; return true;
    case '\r': out += "\\r"; return true;
    case '\t': out += "\\t"; return true;
    default: break;
    }
    if (set == Escapes::Json) return false;
    switch (c) {
    case '\a': out += "\\a"; return true;
    case '\b': out += "\\b"; return true;
    case '\f': out += "\\f"; return true;
    case '\v': out += "\\v"; return true;
    default: return false;
    }
}

std::string go_quote(std::string_view s) {
    std::string out = "\"";
    for (std::size_t i = 0; i < s.size();) {
        Utf8Char ch = utf8_at(s, i);
        auto c = static_cast<unsigned char>(s[i]);
        if (!ch.valid) {
            append_hex_byte(out, "\\x", c);
        } else if (ch.length == 1) {
            if (!append_escape(out, static_cast<char>(c))) {
                if (c < 0x20 || c == 0x7f)
                    append_hex_byte(out, "\\x", c);
                else
                    out += static_cast<char>(c);
            }
        } else if (go_non_printable(ch.code_point)) {
            char buf[16];
            std::snprintf(buf, sizeof buf, ch.code_point > 0xFFFF ? "\\U%08x" : "\\u%04x",
                          static_cast<unsigned>(ch.code_point));
            out += buf;
        } else {
            out += s.substr(i, ch.length);
        }
        i += ch.length;
    }
    return out + "\"";
}

void append_json_string(std::string& out, std::string_view s) {
    out += '"';
    for (std::size_t i = 0; i < s.size();) {
        Utf8Char ch = utf8_at(s, i);
        auto c = static_cast<unsigned char>(s[i]);
        if (!ch.valid) {
            out += "\\ufffd";
        } else if (ch.length == 1) {
            if (!append_escape(out, static_cast<char>(c), Escapes::Json)) {
                // Go 1.22 and newer write \b and \f short (encoding/json's encodeState.string).
                if (c == '\b')
                    out += "\\b";
                else if (c == '\f')
                    out += "\\f";
                else if (c < 0x20 || c == '<' || c == '>' || c == '&')
                    append_hex_byte(out, "\\u00", c);
                else
                    out += static_cast<char>(c);
            }
        } else if (ch.code_point == 0x2028 || ch.code_point == 0x2029) {
            out += ch.code_point == 0x2028 ? "\\u2028" : "\\u2029";
        } else {
            out += s.substr(i, ch.length);
        }
        i += ch.length;
    }
    out += '"';
}

std::string join(const std::vector<std::string>& parts, std::string_view sep) { return join_parts(parts, sep); }
std::string join(const std::vector<std::string_view>& parts, std::string_view sep) { return join_parts(parts, sep); }

}  // namespace queueforge
