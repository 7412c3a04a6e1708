#pragma once
// UTF-8 helpers. CEL strings are sequences of code points: size(), indexes
// and substrings count code points, never bytes.
#include <cstddef>
#include <string>
#include <string_view>

namespace queueforge::cel::utf8 {

bool valid(std::string_view s);
// Number of code points; s must be valid.
std::size_t length(std::string_view s);
// Byte offset of code point `index` (index <= length(s)); s must be valid.
std::size_t offset_of(std::string_view s, std::size_t index);
// Decodes the code point at byte offset `pos` and advances `pos`.
char32_t next(std::string_view s, std::size_t& pos);
void append(std::string& out, char32_t cp);

}  // namespace queueforge::cel::utf8
