// What findings quote of their input, bounded and made inert: the source
// line under a caret is cut to a window around the column, messages to their
// head and tail, and control characters are shown escaped (an ESC sequence in
// a name must not reach the terminal or a CI log as a live escape).
#include <queueforge/base/diagnostics.hpp>

#include <algorithm>

namespace queueforge {

namespace {

constexpr std::string_view kEllipsis = "…";

bool continuation(char c) { return (static_cast<unsigned char>(c) & 0xC0) == 0x80; }

// Moves `i` back to the start of the UTF-8 sequence it falls in.
std::size_t char_start(std::string_view s, std::size_t i) {
    while (i > 0 && i < s.size() && continuation(s[i])) --i;
    return i;
}

// Appends the escaped form of the character at `s[i]` when it is a control
// character and returns the bytes it covers; 0 (nothing appended) otherwise.
std::size_t append_escaped(std::string& out, std::string_view s, std::size_t i) {
    static constexpr char kHex[] = "0123456789abcdef";
    const auto c = static_cast<unsigned char>(s[i]);
    // Tab, LF and CR are layout (each report format escapes them its own way).
    if ((c < 0x20 && c != '\t' && c != '\n' && c != '\r') || c == 0x7f) {
        out += "\\x";
        out += kHex[c >> 4];
        out += kHex[c & 0xF];
        return 1;
    }
    // C1 controls, U+0080..U+009F, encoded C2 80..C2 9F (U+009B is a CSI).
    if (c == 0xC2 && i + 1 < s.size()) {
        const auto d = static_cast<unsigned char>(s[i + 1]);
        if (d >= 0x80 && d <= 0x9F) {
            out += "\\u00";
            out += kHex[d >> 4];
            out += kHex[d & 0xF];
            return 2;
        }
    }
    return 0;
}

}  // namespace

std::string escape_controls(std::string_view s) {
    std::string out;
    out.reserve(s.size());
    for (std::size_t i = 0; i < s.size();) {
        if (std::size_t n = append_escaped(out, s, i)) i += n;
        else out += s[i++];
    }
    return out;
}

std::string bounded_message(std::string_view s) {
    if (s.size() <= kMessageLimit) return std::string(s);
    // Most of the budget to the head (what the finding is), the rest to the
    // tail (what it expected); cut on character boundaries.
    const std::size_t head = char_start(s, kMessageLimit * 3 / 5);
    const std::size_t tail = char_start(s, s.size() - kMessageLimit * 3 / 10);
    std::string out(s.substr(0, head));
    out += kEllipsis;
    out += s.substr(tail);
    return out;
}

std::string caret_excerpt(std::string_view line, int col, std::string_view indent) {
    if (line.empty()) return {};
    const std::size_t at = std::min(static_cast<std::size_t>(std::max(col, 1) - 1), line.size());
    // A window of kExcerptWidth bytes around the column, on character
    // boundaries; short lines are shown whole, as before.
    std::size_t begin = 0, end = line.size();
    if (line.size() > kExcerptWidth) {
        begin = at > kExcerptWidth / 2 ? at - kExcerptWidth / 2 : 0;
        end = std::min(line.size(), begin + kExcerptWidth);
        begin = char_start(line, end - std::min(end, kExcerptWidth));
        end = char_start(line, end);
    }
    std::string text, pad;
    if (begin > 0) {
        text += kEllipsis;
        pad += ' ';
    }
    for (std::size_t i = begin; i < end;) {
        const std::size_t before = text.size();
        std::size_t n = append_escaped(text, line, i);
        if (n == 0) {
            text += line[i];
            n = 1;
        }
        // The caret pads one blank per byte (tabs kept), as many as the
        // escape takes for a control character.
        if (i < at) pad.append(line[i] == '\t' ? std::string("\t") : std::string(text.size() - before, ' '));
        i += n;
    }
    if (end < line.size()) text += kEllipsis;
    std::string out(indent);
    out += text;
    out += '\n';
    out += indent;
    out += pad;
    out += "^\n";
    return out;
}

}  // namespace queueforge
