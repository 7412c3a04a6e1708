#include <queueforge/report.hpp>

namespace queueforge {

std::optional<ReportFormat> parse_report_format(std::string_view name) {
    // Exact, lower-case names only: `-o JSON` failing loudly (exit 2) beats a
    // CI job that silently uploads the wrong thing.
    if (name == "text") return ReportFormat::Text;
    if (name == "json") return ReportFormat::Json;
    if (name == "sarif") return ReportFormat::Sarif;
    if (name == "junit") return ReportFormat::Junit;
    if (name == "github") return ReportFormat::Github;
    return std::nullopt;
}

std::string format_report(ReportFormat f, const Diagnostics& diags, const ReportContext& ctx) {
    switch (f) {
    case ReportFormat::Text: return format_text(diags, ctx);
    case ReportFormat::Json: return format_json(diags, ctx);
    case ReportFormat::Sarif: return format_sarif(diags, ctx);
    case ReportFormat::Junit: return format_junit(diags, ctx);
    case ReportFormat::Github: return format_github(diags, ctx);
    }
    return format_text(diags, ctx);
}

}  // namespace queueforge
