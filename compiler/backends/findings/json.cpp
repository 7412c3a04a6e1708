// queueforge's own machine-readable report. The shape is a contract (README,
// "JSON report"): every key below is always present, so consumers need no
// null checks; "" and 0 mean unknown. Only summary.kinds depends on
// --summary. New keys may be added; existing ones never change meaning.
#include "backends/findings/common.hpp"
#include "backends/findings/json_writer.hpp"

namespace queueforge {

namespace {

void finding(findings::JsonWriter& w, const Diagnostic& d) {
    w.begin_object();
    w.member("file", d.file);
    w.member("line", d.mark.line);
    w.member("column", d.mark.known() ? d.mark.col : 0);
    w.member("severity", severity_name(d.severity));
    w.member("rule", d.rule);
    w.member("message", d.message);
    w.key("object");
    w.begin_object();
    w.member("apiVersion", d.object.api_version);
    w.member("kind", d.object.kind);
    w.member("namespace", d.object.namespace_);
    w.member("name", d.object.name);
    w.end_object();
    w.member("path", d.path);
    w.member("site", d.site);
    w.end_object();
}

}  // namespace

void write_json(const Diagnostics& diags, const ReportContext& ctx, ReportOut& report) {
    std::string& out = report.text();
    findings::JsonWriter w(out);
    w.begin_object();
    w.member("apiVersion", "queueforge.io/v1alpha1");
    w.member("kind", "ValidationReport");
    w.key("tool");
    w.begin_object();
    w.member("name", ctx.tool_name);
    w.member("version", ctx.tool_version);
    w.end_object();
    w.key("summary");
    w.begin_object();
    w.member("files", findings::report_files(diags, ctx).size());
    w.member("objects", ctx.objects_checked);
    w.member("errors", diags.count(Severity::Error));
    w.member("warnings", diags.count(Severity::Warning));
    w.member("notes", diags.count(Severity::Note));
    if (ctx.summary) {
        w.key("kinds");
        w.begin_object();
        for (const auto& [kind, n] : findings::sorted_kinds(ctx)) w.member(kind, n);
        w.end_object();
    }
    w.end_object();
    w.key("findings");
    w.begin_array();
    for (const auto& d : diags.all()) {
        finding(w, d);
        report.piece();
    }
    w.end_array();
    w.end_object();
    out += '\n';
}

}  // namespace queueforge
