// GitHub Actions workflow commands: one `::error file=…,line=…,col=…,title=RULE::message`
// line per finding, which the runner turns into annotations on the PR diff,
// then a summary notice, because GitHub shows only the first few annotations
// of a step.
//
// Escaping is what @actions/core does. It is also what stops a message that
// quotes input from starting a workflow command of its own on a new line.
#include "backends/findings/common.hpp"

namespace queueforge {

namespace {

std::string escape_data(std::string_view s) {
    std::string out;
    for (const char c : s) {
        switch (c) {
        case '%': out += "%25"; break;
        case '\r': out += "%0D"; break;
        case '\n': out += "%0A"; break;
        default: out += c;
        }
    }
    return out;
}

std::string escape_property(std::string_view s) {
    std::string out;
    for (const char c : escape_data(s)) {
        switch (c) {
        case ':': out += "%3A"; break;
        case ',': out += "%2C"; break;
        default: out += c;
        }
    }
    return out;
}

const char* command(Severity s) {
    switch (s) {
    case Severity::Error: return "error";
    case Severity::Warning: return "warning";
    case Severity::Note: return "notice";
    }
    return "error";
}

std::string annotation(const Diagnostic& d) {
    std::vector<std::string> props;
    if (!d.file.empty()) props.push_back("file=" + escape_property(d.file));
    if (d.mark.known()) {
        props.push_back("line=" + std::to_string(d.mark.line));
        if (d.mark.col > 0) props.push_back("col=" + std::to_string(d.mark.col));
    }
    if (!d.rule.empty()) props.push_back("title=" + escape_property(d.rule));

    std::string out = "::";
    out += command(d.severity);
    for (std::size_t i = 0; i < props.size(); ++i) out += (i == 0 ? " " : ",") + props[i];
    // The object and field go on a second line of the annotation: the
    // annotation shows no other trace of them.
    std::string message = d.message;
    if (auto context = findings::finding_context(d); !context.empty()) message += "\n" + context;
    return out + "::" + escape_data(message) + "\n";
}

}  // namespace

void write_github(const Diagnostics& diags, const ReportContext& ctx, ReportOut& report) {
    std::string& out = report.text();
    for (const auto& d : diags.all()) {
        out += annotation(d);
        report.piece();
    }
    std::string summary = findings::summary_line(diags, ctx);
    if (ctx.summary) {
        std::string kinds;
        for (const auto& [kind, n] : findings::sorted_kinds(ctx))
            kinds += (kinds.empty() ? "" : ", ") + kind + " " + std::to_string(n);
        if (!kinds.empty()) summary += " (" + kinds + ")";
    }
    out += "::notice title=" + escape_property(ctx.tool_name) + "::" + escape_data(summary) + "\n";
}

}  // namespace queueforge
