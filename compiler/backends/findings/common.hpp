#pragma once
// Pieces several report formats share, so that they agree on file lists,
// counts and wording.
#include <queueforge/backends/findings.hpp>

#include <cstddef>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace queueforge::findings {

// What render_text prints for a finding without a file.
inline constexpr std::string_view kNoFile = "<input>";

// Every file the report is about: the inputs in the order given, then files
// that only findings or objects mention, in order of first appearance.
std::vector<std::string> report_files(const Diagnostics& diags, const ReportContext& ctx);

// The per-kind counts sorted by kind, so that the caller's map order cannot
// change the output.
std::vector<std::pair<std::string, std::size_t>> sorted_kinds(const ReportContext& ctx);

// "1 error", "2 errors".
std::string plural(std::size_t n, std::string_view word);

// "3 files, 27 objects: 1 error, 0 warnings, 2 notes".
std::string summary_line(const Diagnostics& diags, const ReportContext& ctx);

// "in ClusterQueue/team-a at spec.x", "in ClusterQueue/team-a", "at spec.x", or "".
std::string finding_context(const Diagnostic& d);

// The finding's first text line as render_text prints it, without newline:
// "file:line:col: severity: message [rule]".
std::string headline(const Diagnostic& d);

// `s` with every invalid UTF-8 sequence replaced by U+FFFD. Messages quote
// input (file names, keys), and XML consumers reject a whole report over one
// bad byte.
std::string valid_utf8(std::string_view s);

}  // namespace queueforge::findings
