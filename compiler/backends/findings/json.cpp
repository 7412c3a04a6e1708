// queueforge's own machine-readable report. The shape is a contract (README,
// "JSON report"): every key below is always present, so consumers need no
// null checks; "" and 0 mean unknown. Only summary.kinds depends on
// --summary. New keys may be added; existing ones never change meaning.
#include "backends/findings/common.hpp"

#include <nlohmann/json.hpp>

namespace queueforge {

namespace {

using Json = nlohmann::ordered_json;  // insertion order: stable and readable

Json finding(const Diagnostic& d) {
    return Json{
        {"file", d.file},
        {"line", d.mark.line},
        {"column", d.mark.known() ? d.mark.col : 0},
        {"severity", severity_name(d.severity)},
        {"rule", d.rule},
        {"message", d.message},
        {"object",
         {{"apiVersion", d.object.api_version},
          {"kind", d.object.kind},
          {"namespace", d.object.namespace_},
          {"name", d.object.name}}},
        {"path", d.path},
        {"site", d.site},
    };
}

}  // namespace

std::string format_json(const Diagnostics& diags, const ReportContext& ctx) {
    Json summary{
        {"files", findings::report_files(diags, ctx).size()},
        {"objects", ctx.objects_checked},
        {"errors", diags.count(Severity::Error)},
        {"warnings", diags.count(Severity::Warning)},
        {"notes", diags.count(Severity::Note)},
    };
    if (ctx.summary) {
        Json kinds = Json::object();
        for (const auto& [kind, n] : findings::sorted_kinds(ctx)) kinds[kind] = n;
        summary["kinds"] = std::move(kinds);
    }
    Json findings = Json::array();
    for (const auto& d : diags.all()) findings.push_back(finding(d));

    const Json doc{
        {"apiVersion", "queueforge.io/v1alpha1"},
        {"kind", "ValidationReport"},
        {"tool", {{"name", ctx.tool_name}, {"version", ctx.tool_version}}},
        {"summary", std::move(summary)},
        {"findings", std::move(findings)},
    };
    // `replace`: a message quoting a file name with invalid UTF-8 must not
    // turn the whole report into an exception.
    return doc.dump(2, ' ', false, Json::error_handler_t::replace) + "\n";
}

}  // namespace queueforge
