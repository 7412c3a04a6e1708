#include "input_check.hpp"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstring>

namespace queueforge::yaml_detail {

namespace {

std::string hex_code(std::uint32_t cp, int digits) {
    char buf[16];
    std::snprintf(buf, sizeof buf, "%0*X", digits, static_cast<unsigned>(cp));
    return buf;
}

// Decodes one UTF-8 sequence at text[i]; returns its length, or 0 when the
// bytes are not well-formed UTF-8 (overlongs, surrogates, > U+10FFFF).
std::size_t decode_utf8(std::string_view text, std::size_t i, std::uint32_t& cp) {
    auto b = [&](std::size_t k) { return static_cast<unsigned char>(text[i + k]); };
    const unsigned char c = b(0);
    const std::size_t left = text.size() - i;
    auto cont = [&](std::size_t k) { return k < left && (b(k) & 0xC0u) == 0x80u; };
    if (c < 0x80) {
        cp = c;
        return 1;
    }
    if (c >= 0xC2 && c <= 0xDF) {
        if (!cont(1)) return 0;
        cp = ((c & 0x1Fu) << 6) | (b(1) & 0x3Fu);
        return 2;
    }
    if (c >= 0xE0 && c <= 0xEF) {
        if (!cont(1) || !cont(2)) return 0;
        if (c == 0xE0 && b(1) < 0xA0) return 0;  // overlong
        if (c == 0xED && b(1) > 0x9F) return 0;  // UTF-16 surrogate
        cp = ((c & 0x0Fu) << 12) | ((b(1) & 0x3Fu) << 6) | (b(2) & 0x3Fu);
        return 3;
    }
    if (c >= 0xF0 && c <= 0xF4) {
        if (!cont(1) || !cont(2) || !cont(3)) return 0;
        if (c == 0xF0 && b(1) < 0x90) return 0;  // overlong
        if (c == 0xF4 && b(1) > 0x8F) return 0;  // beyond U+10FFFF
        cp = ((c & 0x07u) << 18) | ((b(1) & 0x3Fu) << 12) | ((b(2) & 0x3Fu) << 6) | (b(3) & 0x3Fu);
        return 4;
    }
    return 0;
}

// YAML's c-printable plus TAB/LF/CR, exactly what go-yaml's reader admits,
// so we refuse what kubectl would refuse.
bool allowed_in_stream(std::uint32_t cp) {
    return cp == 0x09 || cp == 0x0A || cp == 0x0D || (cp >= 0x20 && cp <= 0x7E) || cp == 0x85 ||
           (cp >= 0xA0 && cp <= 0xD7FF) || (cp >= 0xE000 && cp <= 0xFFFD) || (cp >= 0x10000 && cp <= 0x10FFFF);
}

bool is_blank(char c) { return c == ' ' || c == '\t' || c == '\r'; }

// A line-at-a-time approximation of the YAML scanner, just precise enough to
// know whether a line's leading whitespace is indentation. When unsure it
// errs towards "not indentation": a missed tab still reaches yaml-cpp, a
// false alarm would reject a valid file.
class LayoutScanner {
public:
    struct LineResult {
        std::size_t bad_tab = std::string_view::npos;  // 0-based column of a tab used as indentation
        bool blank_or_comment = false;                 // outside block and quoted scalars
    };
    // `offset` is where the line starts in the stream.
    LineResult scan_line(std::string_view line, std::size_t offset);
    std::optional<std::size_t> open_quote() const {
        return quote_ ? std::optional<std::size_t>(quote_offset_) : std::nullopt;
    }

private:
    void scan_rest(std::string_view line, std::size_t i, int line_indent, bool node_start);
    // Enters a quoted scalar whose opening quote is line[i].
    std::size_t start_quote(std::string_view line, std::size_t i);
    // Scans quoted-scalar content from i; returns the index after the closing
    // quote, or npos (with quote_ still set) when it continues on later lines.
    std::size_t skip_quoted(std::string_view line, std::size_t i);
    static bool block_header_rest_ok(std::string_view line, std::size_t i, bool& explicit_indent);

    std::size_t line_offset_ = 0;
    int flow_ = 0;
    char quote_ = 0;
    std::size_t quote_offset_ = 0;
    bool block_ = false;
    int block_owner_ = 0;
    int block_indent_ = -1;  // content indentation once the first content line fixed it
};

std::size_t LayoutScanner::start_quote(std::string_view line, std::size_t i) {
    quote_ = line[i];
    quote_offset_ = line_offset_ + i;
    return skip_quoted(line, i + 1);
}

std::size_t LayoutScanner::skip_quoted(std::string_view line, std::size_t i) {
    while (i < line.size()) {
        const char c = line[i];
        if (quote_ == '"') {
            if (c == '\\') {
                i += 2;
                continue;
            }
            if (c == '"') {
                quote_ = 0;
                return i + 1;
            }
        } else if (c == '\'') {
            if (i + 1 < line.size() && line[i + 1] == '\'') {
                i += 2;
                continue;
            }
            quote_ = 0;
            return i + 1;
        }
        ++i;
    }
    return std::string_view::npos;
}

bool LayoutScanner::block_header_rest_ok(std::string_view line, std::size_t i, bool& explicit_indent) {
    explicit_indent = false;
    while (i < line.size() && (line[i] == '+' || line[i] == '-' || (line[i] >= '1' && line[i] <= '9'))) {
        explicit_indent = explicit_indent || (line[i] != '+' && line[i] != '-');
        ++i;
    }
    const bool blank_before = i == line.size() || is_blank(line[i]);
    while (i < line.size() && is_blank(line[i])) ++i;
    return i == line.size() || (line[i] == '#' && blank_before);
}

LayoutScanner::LineResult LayoutScanner::scan_line(std::string_view line, std::size_t offset) {
    line_offset_ = offset;
    if (quote_) {
        const std::size_t j = skip_quoted(line, 0);
        if (j != std::string_view::npos) scan_rest(line, j, 0, false);
        return {};
    }
    const std::size_t ws_end = std::min(line.find_first_not_of(" \t\r"), line.size());
    const int spaces = static_cast<int>(std::min<std::size_t>(line.find_first_not_of(' '), 1u << 20));
    if (block_) {
        if (ws_end == line.size()) return {};
        if (block_indent_ < 0 && spaces > block_owner_) {
            block_indent_ = spaces;
            return {};
        }
        if (block_indent_ >= 0 && spaces >= block_indent_) return {};
        block_ = false;
    }
    if (ws_end == line.size() || line[ws_end] == '#') return {std::string_view::npos, true};
    const std::size_t tab = line.substr(0, ws_end).find('\t');
    const bool flagged = flow_ == 0 && tab != std::string_view::npos;
    scan_rest(line, ws_end, spaces, flow_ == 0);
    return {flagged ? tab : std::string_view::npos, false};
}

void LayoutScanner::scan_rest(std::string_view line, std::size_t i, int line_indent, bool node_start) {
    bool prev_blank = true;
    char prev = ' ';
    bool after_doc_marker = false;
    const std::size_t n = line.size();
    auto blank_or_end = [&](std::size_t k) { return k >= n || is_blank(line[k]); };
    while (i < n) {
        const char c = line[i];
        if (is_blank(c)) {
            prev_blank = true;
            prev = c;
            ++i;
            continue;
        }
        if (c == '#' && prev_blank) return;  // comment
        prev_blank = false;
        if (flow_ > 0) {
            if (c == '[' || c == '{') {
                ++flow_;
            } else if (c == ']' || c == '}') {
                --flow_;
                if (flow_ == 0) node_start = false;
            } else if ((c == '"' || c == '\'') &&
                       (is_blank(prev) || prev == '[' || prev == '{' || prev == ',' || prev == ':')) {
                i = start_quote(line, i);
                if (i == std::string_view::npos) return;
                prev = c;
                continue;
            }
            prev = c;
            ++i;
            continue;
        }
        if (!node_start) {
            // Inside a plain scalar or after a node: only ": " opens a value.
            if (c == ':' && blank_or_end(i + 1)) node_start = true;
            prev = c;
            ++i;
            continue;
        }
        if (i == 0 && (line.substr(0, 3) == "---" || line.substr(0, 3) == "...") && blank_or_end(3)) {
            after_doc_marker = true;
            flow_ = 0;
            i = 3;
            prev = '-';
            continue;
        }
        switch (c) {
        case '[':
        case '{':
            flow_ = 1;
            node_start = false;
            break;
        case '"':
        case '\'':
            i = start_quote(line, i);
            if (i == std::string_view::npos) return;
            node_start = false;
            prev = c;
            continue;
        case '|':
        case '>': {
            bool explicit_indent = false;
            if (block_header_rest_ok(line, i + 1, explicit_indent)) {
                block_ = true;
                // "--- |" content may start in column 0.
                block_owner_ = after_doc_marker ? -1 : line_indent;
                // With an explicit indentation indicator the first line may be
                // indented deeper than the content; assume the shallowest legal
                // content indentation so no content line is mistaken for
                // structure.
                block_indent_ = explicit_indent ? block_owner_ + 1 : -1;
                return;
            }
            node_start = false;
            break;
        }
        case '-':
        case '?':
        case ':':
            if (!blank_or_end(i + 1)) node_start = false;
            break;
        case '!':
        case '&':
        case '*':
            while (i < n && !is_blank(line[i])) ++i;
            node_start = c != '*';
            prev = 'x';
            continue;
        default:
            node_start = false;
            break;
        }
        prev = c;
        ++i;
    }
}

}  // namespace

namespace {

// Printable ASCII and LF, nearly all of a manifest: bytes that need no
// decoding.
bool plain_byte(unsigned char c) { return (c >= 0x20 && c < 0x7F) || c == '\n'; }

// Whether the 16 bytes at `p` are all plain, tested as one vector (GCC's and
// clang's vector extensions, which compile to SIMD where the target has it).
bool plain_block(const char* p) {
    using Bytes = unsigned char __attribute__((vector_size(16)));
    using Words = std::uint64_t __attribute__((vector_size(16)));
    Bytes v;
    std::memcpy(&v, p, sizeof v);
    const auto odd = ((v < 0x20) & (v != '\n')) | (v >= 0x7F);
    Words w;
    static_assert(sizeof odd == sizeof w);
    std::memcpy(&w, &odd, sizeof w);
    return (w[0] | w[1]) == 0;
}

// The position of byte `i`, counted only when there is something to report.
Mark mark_of_byte(std::string_view text, std::size_t i) {
    const auto before = text.substr(0, i);
    const std::size_t nl = before.rfind('\n');
    const std::size_t line_start = nl == std::string_view::npos ? 0 : nl + 1;
    const auto line = std::count(before.begin(), before.end(), '\n') + 1;
    return Mark{static_cast<int>(std::min<std::ptrdiff_t>(line, 1 << 30)),
                static_cast<int>(std::min<std::size_t>(i - line_start + 1, 1u << 30))};
}

}  // namespace

bool check_encoding(const std::string& path, std::string_view text, Diagnostics& diags) {
    const std::size_t n = text.size();
    for (std::size_t i = 0; i < n;) {
        while (n - i >= 16 && plain_block(text.data() + i)) i += 16;
        if (i == n) break;
        const char c = text[i];
        if (plain_byte(static_cast<unsigned char>(c))) {
            ++i;
            continue;
        }
        if (c == '\0') {
            diags.error(path, mark_of_byte(text, i),
                        "NUL byte in input; YAML must be UTF-8 text (is this a binary or UTF-16 file?)",
                        "yaml.encoding");
            return false;
        }
        std::uint32_t cp = 0;
        const std::size_t len = decode_utf8(text, i, cp);
        if (len == 0) {
            diags.error(path, mark_of_byte(text, i),
                        "invalid UTF-8 (byte 0x" + hex_code(static_cast<unsigned char>(c), 2) +
                            "); YAML input must be UTF-8",
                        "yaml.encoding");
            return false;
        }
        if (!allowed_in_stream(cp)) {
            diags.error(path, mark_of_byte(text, i),
                        "control character U+" + hex_code(cp, 4) +
                            " is not allowed in YAML; write it as an escape inside a double-quoted string",
                        "yaml.encoding");
            return false;
        }
        i += len;
    }
    return true;
}

bool check_layout(const std::string& path, std::string_view text, Diagnostics& diags, LayoutScan& scan) {
    // Enough to show the pattern without flooding the output for a file that
    // is tab-indented throughout.
    constexpr int kMaxReports = 20;
    LayoutScanner scanner;
    int reported = 0;
    int line_no = 0;
    std::size_t pos = 0;
    while (pos <= text.size() && reported < kMaxReports) {
        ++line_no;
        std::size_t end = text.find('\n', pos);
        if (end == std::string_view::npos) end = text.size();
        const std::string_view line = text.substr(pos, end - pos);
        const auto r = scanner.scan_line(line, pos);
        if (r.bad_tab != std::string_view::npos) {
            diags.error(path, Mark{line_no, static_cast<int>(r.bad_tab + 1)},
                        "tab character used for indentation; YAML allows only spaces", "yaml.tab");
            ++reported;
        } else if (r.blank_or_comment) {
            for (std::size_t i = 0; i < line.size() && (line[i] == ' ' || line[i] == '\t'); ++i)
                if (line[i] == '\t') scan.harmless_tabs.push_back(pos + i);
        }
        if (end == text.size()) break;
        pos = end + 1;
    }
    scan.unclosed_quote = scanner.open_quote();
    return reported == 0;
}

bool starts_document_without_marker(std::string_view text, std::size_t pos) {
    if (pos > text.size()) return false;
    auto is_marker = [&](std::size_t at, std::string_view m) {
        if (text.compare(at, 3, m) != 0) return false;
        return at + 3 >= text.size() || std::string_view(" \t\r\n").find(text[at + 3]) != std::string_view::npos;
    };
    auto line_start = [&](std::size_t i) {
        const std::size_t nl = i == 0 ? std::string_view::npos : text.rfind('\n', i - 1);
        return nl == std::string_view::npos ? 0 : nl + 1;
    };
    auto has_content = [](std::string_view line) {
        const std::size_t first = line.find_first_not_of(" \t\r");
        return first != std::string_view::npos && line[first] != '#';
    };
    std::size_t start = line_start(pos);
    // yaml-cpp also takes an indented --- as a document start; YAML only one
    // in column 1.
    if (is_marker(pos, "---")) return pos != start;
    if (has_content(text.substr(start, pos - start))) return true;
    // Walk back over blank and comment lines to the previous content line.
    while (start > 0) {
        const std::size_t prev = line_start(start - 1);
        if (has_content(text.substr(prev, start - 1 - prev))) return !is_marker(prev, "...");
        start = prev;
    }
    return false;
}

bool follows_explicit_key_indicator(std::string_view text, std::size_t line_start, std::size_t pos) {
    if (line_start > pos || pos > text.size()) return false;
    std::string_view prefix = text.substr(line_start, pos - line_start);
    for (;;) {
        const std::size_t i = prefix.find_first_not_of(' ');
        if (i == std::string_view::npos || i + 1 >= prefix.size() || !is_blank(prefix[i + 1])) return false;
        if (prefix[i] == '?') return true;
        if (prefix[i] != '-') return false;
        prefix.remove_prefix(i + 2);
    }
}

}  // namespace queueforge::yaml_detail
