#include "checks/policy/expr_position.hpp"

#include <string>
#include <vector>

namespace queueforge::policy {

namespace {

std::vector<std::string_view> lines_of(std::string_view s) {
    std::vector<std::string_view> out;
    for (;;) {
        auto nl = s.find('\n');
        std::string_view l = s.substr(0, nl);
        if (!l.empty() && l.back() == '\r') l.remove_suffix(1);
        out.push_back(l);
        if (nl == std::string_view::npos) return out;
        s.remove_prefix(nl + 1);
    }
}

int indent_of(std::string_view l) {
    int i = 0;
    while (i < static_cast<int>(l.size()) && (l[i] == ' ' || l[i] == '\t')) ++i;
    return i;
}

bool blank_line(std::string_view l) { return indent_of(l) == static_cast<int>(l.size()); }

// One stretch of source text that the scalar's value was folded from.
struct Segment {
    int line;   // 1-based
    int col;    // 1-based column of its first character
    int length;
};

// Walks folded text: segments joined by one space, a blank source line
// starting a new value line. Returns the source position of (line, col).
Mark walk_folded(const std::vector<std::string_view>& src, Segment first, int block_indent, int line, int col,
                 Mark fallback) {
    int eline = 1, ecol = 1;
    Segment seg = first;
    int l = first.line;
    for (;;) {
        if (eline == line && col >= ecol && col < ecol + seg.length + 1)
            return {seg.line, seg.col + (col - ecol)};
        ecol += seg.length + 1;
        // Next non-blank source line; blank ones are newlines in the value.
        ++l;
        bool newline = false;
        while (l <= static_cast<int>(src.size()) && blank_line(src[l - 1])) ++l, newline = true;
        if (l > static_cast<int>(src.size())) return fallback;
        std::string_view text = src[l - 1];
        int ind = indent_of(text);
        if (block_indent >= 0 && ind < block_indent) return fallback;  // the block ended
        if (newline) ++eline, ecol = 1;
        if (eline > line) return fallback;
        seg = {l, ind + 1, static_cast<int>(text.size()) - ind};
    }
}

}  // namespace

Mark position_in_scalar(std::string_view source, Mark value, int line, int col) {
    if (!value.known() || line < 1 || col < 1) return value;
    const auto src = lines_of(source);
    if (value.line > static_cast<int>(src.size())) return value;
    std::string_view first = src[value.line - 1];
    if (value.col < 1 || value.col > static_cast<int>(first.size())) return value;
    const char c = first[value.col - 1];
    if (c == '|' || c == '>') {
        // Block scalar: content starts on the next line at the block's indentation.
        int l = value.line + 1;
        while (l <= static_cast<int>(src.size()) && blank_line(src[l - 1])) ++l;
        if (l > static_cast<int>(src.size())) return value;
        const int indent = indent_of(src[l - 1]);
        if (c == '|') {
            const int target = value.line + line;
            if (target > static_cast<int>(src.size())) return value;
            return {target, indent + col};
        }
        std::string_view text = src[l - 1];
        return walk_folded(src, {l, indent + 1, static_cast<int>(text.size()) - indent}, indent, line, col, value);
    }
    const int skip = (c == '"' || c == '\'') ? 1 : 0;
    const int start = value.col + skip;
    int length = static_cast<int>(first.size()) - (start - 1);
    if (line == 1 && col <= length) return {value.line, start + col - 1};
    return walk_folded(src, {value.line, start, length}, -1, line, col, value);
}

}  // namespace queueforge::policy
