#pragma once
// Findings → one output format. Each format lives in its own file under
// compiler/report/; a new format is one new file and one enum value.
#include <queueforge/diagnostics.hpp>

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace queueforge {

enum class ReportFormat { Text, Json, Sarif, Junit, Github };

std::optional<ReportFormat> parse_report_format(std::string_view name);  // "text", "json", ...

struct ReportContext {
    std::string tool_name = "queueforge";
    std::string tool_version;             // e.g. "0.1.0"
    std::vector<SourceText> sources;      // for carets in text output
    std::vector<std::string> inputs;      // files that were checked (JUnit test cases, SARIF artifacts)
    std::size_t objects_checked = 0;
    // Objects checked per kind, for --summary ("ClusterQueue" -> 12).
    std::vector<std::pair<std::string, std::size_t>> per_kind;
    bool summary = false;
    bool color = false;                   // text only
};

std::string format_report(ReportFormat f, const Diagnostics& diags, const ReportContext& ctx);

// One function per format (compiler/report/<format>.cpp).
std::string format_text(const Diagnostics& diags, const ReportContext& ctx);
std::string format_json(const Diagnostics& diags, const ReportContext& ctx);
std::string format_sarif(const Diagnostics& diags, const ReportContext& ctx);
std::string format_junit(const Diagnostics& diags, const ReportContext& ctx);
std::string format_github(const Diagnostics& diags, const ReportContext& ctx);

}  // namespace queueforge
