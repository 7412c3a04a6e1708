#include <queueforge/base/diagnostics.hpp>

#include <string_view>
#include <vector>

namespace queueforge {

std::string render_text(const Diagnostic& d, SourceIndex& index) {
    std::string out = d.file.empty() ? "<input>" : escape_controls(d.file);
    if (d.mark.known()) {
        out += ':';
        out += std::to_string(d.mark.line);
        out += ':';
        out += std::to_string(d.mark.col);
    }
    out += ": ";
    out += severity_name(d.severity);
    out += ": ";
    // Diagnostics::add already bounded and escaped it; a Diagnostic built
    // by hand has not been.
    out += escape_controls(d.message);
    if (!d.rule.empty()) out += " [" + d.rule + "]";
    out += '\n';
    if (const SourceLines* src = d.mark.known() ? index.lines(d.file) : nullptr)
        out += caret_excerpt(src->line(d.mark.line), d.mark.col, "  ");
    return out;
}

std::string render_text(const Diagnostics& diags, const std::vector<SourceText>& sources) {
    std::string out;
    SourceIndex index(sources);
    for (const auto& d : diags.all()) out += render_text(d, index);
    return out;
}

}  // namespace queueforge
