// For people: render_text's `file:line:col: severity: message [rule]` with
// the source line and caret, then which object and field the finding is
// about. The first line of each finding stays exactly render_text's so that
// editors and `grep` keep working on it.
#include "backends/findings/common.hpp"

#include <algorithm>

namespace queueforge {

namespace {

// GCC's default palette (GCC_COLORS), which terminal users already read.
constexpr std::string_view kReset = "\x1b[0m";
constexpr std::string_view kLocus = "\x1b[01m";
constexpr std::string_view kCaret = "\x1b[01;32m";

std::string_view severity_color(Severity s) {
    switch (s) {
    case Severity::Error: return "\x1b[01;31m";
    case Severity::Warning: return "\x1b[01;35m";
    case Severity::Note: return "\x1b[01;36m";
    }
    return "";
}

std::string colored(std::string_view code, std::string_view text) {
    return std::string(code) + std::string(text) + std::string(kReset);
}

// Colours the locus and the severity word of render_text's first line.
std::string color_headline(const Diagnostic& d, const std::string& line) {
    std::string locus = d.file.empty() ? std::string(findings::kNoFile) : d.file.str();
    if (d.mark.known()) locus += ":" + std::to_string(d.mark.line) + ":" + std::to_string(d.mark.col);
    const std::string sev = severity_name(d.severity);
    const std::string prefix = locus + ": " + sev + ": ";
    if (!line.starts_with(prefix)) return line;  // render_text changed; plain beats garbled
    return colored(kLocus, locus) + ": " + colored(severity_color(d.severity), sev) + ": " +
           line.substr(prefix.size());
}

// render_text's caret line is blanks (spaces, tabs) and then '^'.
bool is_caret_line(const std::string& line) {
    return line.ends_with('^') && line.find_first_not_of(" \t") == line.size() - 1;
}

std::vector<std::string> split_lines(const std::string& s) {
    std::vector<std::string> lines;
    std::size_t pos = 0;
    while (pos < s.size()) {
        const auto end = s.find('\n', pos);
        if (end == std::string::npos) {
            lines.push_back(s.substr(pos));
            break;
        }
        lines.push_back(s.substr(pos, end - pos));
        pos = end + 1;
    }
    return lines;
}

std::string summary_block(const Diagnostics& diags, const ReportContext& ctx) {
    std::string out = "summary: " + findings::summary_line(diags, ctx) + "\n";
    const auto kinds = findings::sorted_kinds(ctx);
    std::size_t width = 0;
    for (const auto& [kind, n] : kinds) width = std::max(width, kind.size());
    for (const auto& [kind, n] : kinds)
        out += "  " + kind + std::string(width - kind.size() + 2, ' ') + std::to_string(n) + "\n";
    return out;
}

// "clusters/prod: 0 errors, 2 warnings" for each cluster of a command that
// covered several.
std::string site_lines(const Diagnostics& diags, const ReportContext& ctx) {
    std::string out;
    for (const auto& site : ctx.sites) {
        std::size_t errors = 0, warnings = 0;
        for (const auto& d : diags.all()) {
            if (d.site != site) continue;
            errors += d.severity == Severity::Error;
            warnings += d.severity == Severity::Warning;
        }
        out += site + ": " + std::to_string(errors) + (errors == 1 ? " error, " : " errors, ") + std::to_string(warnings) +
               (warnings == 1 ? " warning\n" : " warnings\n");
    }
    return out;
}

}  // namespace

void write_text(const Diagnostics& diags, const ReportContext& ctx, ReportOut& report) {
    std::string& out = report.text();
    // One index for the whole report: building it per finding was quadratic.
    SourceIndex index(ctx.sources);
    for (const auto& d : diags.all()) {
        // One finding at a time so the object context lands under its own caret.
        const auto lines = split_lines(render_text(d, index));
        for (std::size_t i = 0; i < lines.size(); ++i) {
            const std::string& line = lines[i];
            if (!ctx.color) out += line;
            else if (i == 0) out += color_headline(d, line);
            else if (i + 1 == lines.size() && is_caret_line(line))
                out += line.substr(0, line.size() - 1) + colored(kCaret, "^");
            else out += line;
            out += '\n';
        }
        if (auto context = findings::finding_context(d); !context.empty()) out += "  = " + context + "\n";
        report.piece();
    }
    if (ctx.summary) {
        if (!report.empty()) out += '\n';
        out += summary_block(diags, ctx);
    }
    if (!ctx.sites.empty() && !report.empty()) out += '\n';
    out += site_lines(diags, ctx);
}

}  // namespace queueforge
