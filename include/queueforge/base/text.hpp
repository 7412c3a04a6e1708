#pragma once
// Spelling text the way Go and Kubernetes print it, UTF-8 decoding and
// joining: the one module every message, JSON writer and report uses.
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace queueforge {

// One UTF-8 character at s[i] (i < s.size()). An invalid or truncated
// sequence gives {the byte, 1, false}.
struct Utf8Char {
    char32_t code_point = 0;
    std::size_t length = 1;
    bool valid = false;
};
Utf8Char utf8_at(std::string_view s, std::size_t i);

// Single-character backslash escapes: appends the escape for `c` and returns
// true, or returns false (nothing appended) for any other byte. `Go` is the
// set Go and CEL share (\a \b \f \n \r \t \v \\ \"), `Json` the one JSON
// has a short form for that both writers use (\" \\ \n \r \t).
enum class Escapes { Go, Json };
bool append_escape(std::string& out, char c, Escapes set = Escapes::Go);

// Go's strconv.Quote (fmt's %q): printable runes as they are, the usual
// backslash escapes, \xNN for invalid bytes, \uNNNN for non-printables.
std::string go_quote(std::string_view s);

// encoding/json's string encoding as of Go 1.22 (HTML-safe: <, > and &
// escaped; \b and \f short; invalid bytes become U+FFFD; U+2028/U+2029
// escaped), appended to `out`.
void append_json_string(std::string& out, std::string_view s);

std::string join(const std::vector<std::string>& parts, std::string_view sep);
std::string join(const std::vector<std::string_view>& parts, std::string_view sep);

}  // namespace queueforge
