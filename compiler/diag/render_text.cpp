#include <queueforge/diagnostics.hpp>

#include <string_view>

namespace queueforge {

namespace {

std::string_view line_of(const std::string& text, int line) {
    std::size_t pos = 0;
    for (int i = 1; i < line; ++i) {
        pos = text.find('\n', pos);
        if (pos == std::string::npos) return {};
        ++pos;
    }
    std::size_t end = text.find('\n', pos);
    std::string_view v(text.data() + pos, (end == std::string::npos ? text.size() : end) - pos);
    if (!v.empty() && v.back() == '\r') v.remove_suffix(1);
    return v;
}

const SourceText* source_for(const std::vector<SourceText>& sources, const std::string& path) {
    for (const auto& s : sources)
        if (s.path == path) return &s;
    return nullptr;
}

}  // namespace

std::string render_text(const Diagnostics& diags, const std::vector<SourceText>& sources) {
    std::string out;
    for (const auto& d : diags.all()) {
        out += d.file.empty() ? "<input>" : d.file;
        if (d.mark.known()) out += ":" + std::to_string(d.mark.line) + ":" + std::to_string(d.mark.col);
        out += ": ";
        out += severity_name(d.severity);
        out += ": ";
        out += d.message;
        if (!d.rule.empty()) out += " [" + d.rule + "]";
        out += '\n';
        const SourceText* src = d.mark.known() ? source_for(sources, d.file) : nullptr;
        if (!src) continue;
        std::string_view line = line_of(src->text, d.mark.line);
        if (line.empty() || line.size() > 400) continue;
        out += "  ";
        out += line;
        out += "\n  ";
        // Keep tabs in the caret line so the caret lines up under tabbed text.
        for (int i = 1; i < d.mark.col && static_cast<std::size_t>(i - 1) < line.size(); ++i)
            out += line[static_cast<std::size_t>(i - 1)] == '\t' ? '\t' : ' ';
        out += "^\n";
    }
    return out;
}

}  // namespace queueforge
