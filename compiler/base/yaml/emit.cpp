#include <queueforge/base/yaml_emit.hpp>

#include "scalar_resolve.hpp"

#include <cstdint>
#include <string_view>

namespace queueforge {

namespace {

// yaml-cpp and libyaml (go-yaml) refuse implicit keys longer than 1024
// characters; longer keys are written in the explicit "? key" form.
constexpr std::size_t kMaxImplicitKey = 1000;

// Decodes one UTF-8 sequence; returns its length, or 0 if malformed.
std::size_t utf8_at(std::string_view s, std::size_t i, std::uint32_t& cp) {
    const auto b0 = static_cast<unsigned char>(s[i]);
    auto cont = [&](std::size_t k) {
        return i + k < s.size() && (static_cast<unsigned char>(s[i + k]) & 0xC0u) == 0x80u;
    };
    auto bits = [&](std::size_t k) { return static_cast<std::uint32_t>(static_cast<unsigned char>(s[i + k]) & 0x3Fu); };
    if (b0 < 0x80) {
        cp = b0;
        return 1;
    }
    if (b0 >= 0xC2 && b0 <= 0xDF && cont(1)) {
        cp = ((b0 & 0x1Fu) << 6) | bits(1);
        return 2;
    }
    if (b0 >= 0xE0 && b0 <= 0xEF && cont(1) && cont(2)) {
        cp = ((b0 & 0x0Fu) << 12) | (bits(1) << 6) | bits(2);
        if (cp < 0x800 || (cp >= 0xD800 && cp <= 0xDFFF)) return 0;
        return 3;
    }
    if (b0 >= 0xF0 && b0 <= 0xF4 && cont(1) && cont(2) && cont(3)) {
        cp = ((b0 & 0x07u) << 18) | (bits(1) << 12) | (bits(2) << 6) | bits(3);
        if (cp < 0x10000 || cp > 0x10FFFF) return 0;
        return 4;
    }
    return 0;
}

// Characters that may appear raw in a double-quoted scalar. Besides YAML's
// non-printables this excludes NEL, LS and PS (line breaks to YAML 1.1
// readers) and the BOM, which some readers strip wherever it appears.
bool printable_raw(std::uint32_t cp) {
    if (cp < 0x20 || cp == 0x7F) return false;
    if (cp >= 0x80 && cp <= 0x9F) return false;
    if (cp == 0x2028 || cp == 0x2029 || cp == 0xFEFF || cp == 0xFFFE || cp == 0xFFFF) return false;
    return true;
}

void append_hex(std::string& out, std::uint32_t v, int digits) {
    static constexpr char kHex[] = "0123456789ABCDEF";
    for (int shift = (digits - 1) * 4; shift >= 0; shift -= 4) out += kHex[(v >> shift) & 0xFu];
}

void append_double_quoted(std::string& out, std::string_view s) {
    out += '"';
    for (std::size_t i = 0; i < s.size();) {
        const char c = s[i];
        switch (c) {
        case '"': out += "\\\""; ++i; continue;
        case '\\': out += "\\\\"; ++i; continue;
        case '\n': out += "\\n"; ++i; continue;
        case '\t': out += "\\t"; ++i; continue;
        case '\r': out += "\\r"; ++i; continue;
        case '\0': out += "\\0"; ++i; continue;
        default: break;
        }
        std::uint32_t cp = 0;
        const std::size_t len = utf8_at(s, i, cp);
        if (len == 0) {
            // Bytes that are not UTF-8 cannot be written in YAML at all;
            // U+FFFD keeps the output valid and shows where data was lost.
            out += "\\uFFFD";
            ++i;
            continue;
        }
        if (printable_raw(cp)) {
            out.append(s.data() + i, len);
        } else if (cp <= 0xFF) {
            out += "\\x";
            append_hex(out, cp, 2);
        } else {
            out += "\\u";
            append_hex(out, cp, 4);
        }
        i += len;
    }
    out += '"';
}

bool is_indicator(char c) {
    static constexpr std::string_view kIndicators = "-?:,[]{}#&*!|>'\"%@`";
    return kIndicators.find(c) != std::string_view::npos;
}

void append_string(std::string& out, const std::string& s) {
    if (yaml_needs_quotes(s))
        append_double_quoted(out, s);
    else
        out += s;
}

// Whether a string reads back unchanged from a literal block scalar (`|` or
// `|-`) indented by any amount: several lines, at most one final line break,
// no leading blank or empty first line (the indentation would be guessed
// from it), no line of spaces only (read as an empty line), and nothing but
// printable characters besides the breaks.
bool literal_block_ok(std::string_view s) {
    if (s.find('\n') == std::string_view::npos) return false;
    if (s.front() == ' ' || s.front() == '\n') return false;
    if (s.size() >= 2 && s[s.size() - 1] == '\n' && s[s.size() - 2] == '\n') return false;
    std::size_t line_start = 0;
    bool only_spaces = true;
    for (std::size_t i = 0; i < s.size();) {
        if (s[i] == '\n') {
            if (only_spaces && i > line_start) return false;
            line_start = i + 1;
            only_spaces = true;
            ++i;
            continue;
        }
        if (s[i] != ' ') only_spaces = false;
        std::uint32_t cp = 0;
        const std::size_t len = utf8_at(s, i, cp);
        if (len == 0 || !printable_raw(cp)) return false;
        i += len;
    }
    return !(only_spaces && s.size() > line_start);
}

class Writer {
public:
    explicit Writer(std::string& out) : out_(out) {}

    void document(const Node& root) {
        if (root.is_map() && root.size() > 0)
            map(root, 0, false);
        else if (root.is_seq() && root.size() > 0)
            seq(root, 0, false);
        else {
            inline_value(root);
            out_ += '\n';
        }
    }

private:
    void indent(int n) { out_.append(static_cast<std::size_t>(n), ' '); }

    // Scalars and empty collections: everything that fits after "key: " or "- ".
    void inline_value(const Node& n) {
        using K = Node::Kind;
        switch (n.kind()) {
        case K::Null: out_ += "null"; return;
        case K::Bool: out_ += n.as_bool() ? "true" : "false"; return;
        case K::Int:
        case K::Float: {
            // A number node whose text would not read back as a number is a
            // builder bug; quoting it at least keeps the output valid YAML.
            const auto kind = yaml_detail::resolve_plain(n.text()).kind;
            if (kind == K::Int || kind == K::Float)
                out_ += n.text();
            else
                append_double_quoted(out_, n.text());
            return;
        }
        case K::String: append_string(out_, n.text()); return;
        case K::Seq: out_ += "[]"; return;
        case K::Map: out_ += "{}"; return;
        }
    }

    // Writes what follows "key:" or "?"-less ":" at the given parent indentation.
    void after_colon(const Node& v, int parent_indent) {
        if (v.is_map() && v.size() > 0) {
            out_ += '\n';
            map(v, parent_indent + 2, false);
        } else if (v.is_seq() && v.size() > 0) {
            // Items sit two spaces under their key, as kubectl and our
            // conventions (5.7) show them.
            out_ += '\n';
            seq(v, parent_indent + 2, false);
        } else if (v.kind() == Node::Kind::String && literal_block_ok(v.text())) {
            // Multi-line text (a configuration file in a ConfigMap) as a
            // literal block, line by line, as kubectl users write it.
            const std::string& t = v.text();
            out_ += t.back() == '\n' ? " |\n" : " |-\n";
            std::size_t start = 0;
            while (start < t.size()) {
                std::size_t end = t.find('\n', start);
                if (end == std::string::npos) end = t.size();
                if (end > start) indent(parent_indent + 2);
                out_.append(t, start, end - start);
                out_ += '\n';
                start = end + 1;
            }
        } else {
            out_ += ' ';
            inline_value(v);
            out_ += '\n';
        }
    }

    // first_inline: the first entry continues a line already started by "- ".
    void map(const Node& m, int ind, bool first_inline) {
        bool first = true;
        for (const auto& e : m.entries()) {
            if (!(first && first_inline)) indent(ind);
            first = false;
            const std::size_t key_start = out_.size();
            append_string(out_, e.key);
            if (out_.size() - key_start > kMaxImplicitKey) {
                out_.insert(key_start, "? ");
                out_ += '\n';
                indent(ind);
            }
            out_ += ':';
            after_colon(e.value, ind);
        }
    }

    void seq(const Node& s, int ind, bool first_inline) {
        bool first = true;
        for (const auto& item : s.items()) {
            if (!(first && first_inline)) indent(ind);
            first = false;
            out_ += "- ";
            if (item.is_map() && item.size() > 0) {
                map(item, ind + 2, true);
            } else if (item.is_seq() && item.size() > 0) {
                seq(item, ind + 2, true);
            } else {
                inline_value(item);
                out_ += '\n';
            }
        }
    }

    std::string& out_;
};

// Rough output size so the buffer is allocated about once.
std::size_t estimate(const Node& n, std::size_t depth) {
    std::size_t total = n.text().size() + 2 * depth + 4;
    for (const auto& item : n.items()) total += estimate(item, depth + 1);
    for (const auto& e : n.entries()) total += e.key.size() + 2 + estimate(e.value, depth + 1);
    return total;
}

}  // namespace

bool yaml_needs_quotes(const std::string& s) {
    if (s.empty()) return true;
    if (is_indicator(s.front())) return true;
    const char first = s.front(), last = s.back();
    if (first == ' ' || last == ' ' || last == ':') return true;
    // Document markers would end or start a document when a root scalar is
    // written at column 0.
    if (s.starts_with("...") || s.starts_with("---")) return true;
    if (s.find(": ") != std::string::npos || s.find(" #") != std::string::npos) return true;
    for (std::size_t i = 0; i < s.size();) {
        const auto c = static_cast<unsigned char>(s[i]);
        if (c < 0x80) {  // ASCII, the common case: printable_raw without decoding
            if (c < 0x20 || c == 0x7F) return true;
            ++i;
            continue;
        }
        std::uint32_t cp = 0;
        const std::size_t len = utf8_at(s, i, cp);
        // Tabs and every line break must be escaped, which only double quotes can do.
        if (len == 0 || !printable_raw(cp)) return true;
        i += len;
    }
    return yaml_detail::may_resolve_to_non_string(s);
}

std::string emit_yaml(const Node& root) {
    std::string out;
    out.reserve(estimate(root, 0));
    Writer(out).document(root);
    return out;
}

std::string emit_yaml_stream(const std::vector<Node>& docs, const std::string& header) {
    std::string out;
    std::size_t size = header.size() + 4;
    for (const auto& d : docs) size += estimate(d, 0) + 4;
    out.reserve(size);
    if (!header.empty()) {
        out += "# ";
        // A multi-line header must stay a comment on every line.
        for (char c : header) {
            if (c == '\r') continue;
            out += c;
            if (c == '\n') out += "# ";
        }
        out += '\n';
    }
    for (const auto& d : docs) {
        out += "---\n";
        Writer(out).document(d);
    }
    return out;
}

}  // namespace queueforge
