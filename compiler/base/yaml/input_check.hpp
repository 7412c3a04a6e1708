#pragma once
// Checks on the raw bytes that run before yaml-cpp sees them: yaml-cpp guesses
// UTF-16/32 from NUL bytes and reports tabs with unhelpful messages (or not at
// all), so both are caught here with precise positions.
#include <queueforge/base/diagnostics.hpp>

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace queueforge::yaml_detail {

// Rejects NUL bytes, invalid UTF-8 and characters YAML does not allow in a
// stream (the set go-yaml's reader accepts). Reports the first problem only:
// a binary file would otherwise produce thousands. Returns false on error.
bool check_encoding(const std::string& path, std::string_view text, Diagnostics& diags);

struct LayoutScan {
    // Offsets of tabs leading blank and comment-only lines: legal YAML that
    // yaml-cpp nevertheless refuses, so the caller hands yaml-cpp a copy with
    // those tabs turned into spaces (columns stay the same).
    std::vector<std::size_t> harmless_tabs;
    // Offset of a quote the scan still considered open at the end of the
    // input. yaml-cpp accepts such a string, running to the end of the file;
    // the caller confirms against the parse before reporting it.
    std::optional<std::size_t> unclosed_quote;
};

// Reports lines whose indentation contains a tab, outside block scalars,
// quoted scalars and flow collections (where tabs are legal whitespace, e.g.
// tab-indented JSON). Returns false when any was found.
bool check_layout(const std::string& path, std::string_view text, Diagnostics& diags, LayoutScan& scan);

// yaml-cpp silently starts a new document when content follows a finished
// top-level node ("- a" then "b: c" at column 0, "[1]" then "[2]", or an
// indented ---). True when the document yaml-cpp starts at byte `pos` has no
// column-1 `---` and the previous content line is not a `...` end marker:
// YAML and Kubernetes reject that, and it is almost always an indentation
// mistake.
bool starts_document_without_marker(std::string_view text, std::size_t pos);

// True when the key at byte `pos` (its line starting at `line_start`)
// follows a "? " indicator, after indentation and any "- " entries.
bool follows_explicit_key_indicator(std::string_view text, std::size_t line_start, std::size_t pos);

}  // namespace queueforge::yaml_detail
