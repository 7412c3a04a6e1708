#include <queueforge/diagnostics.hpp>

#include <string_view>
#include <vector>

namespace queueforge {

namespace {

// Line starts of one source, computed once: findings are many, files few.
struct LineIndex {
    const SourceText* src = nullptr;
    std::vector<std::size_t> starts;

    explicit LineIndex(const SourceText* s) : src(s) {
        starts.push_back(0);
        for (std::size_t i = 0; i < s->text.size(); ++i)
            if (s->text[i] == '\n') starts.push_back(i + 1);
    }
    std::string_view line(int n) const {
        if (n < 1 || static_cast<std::size_t>(n) > starts.size()) return {};
        std::size_t b = starts[static_cast<std::size_t>(n - 1)];
        std::size_t e = static_cast<std::size_t>(n) < starts.size() ? starts[static_cast<std::size_t>(n)] - 1 : src->text.size();
        std::string_view v(src->text.data() + b, e - b);
        if (!v.empty() && v.back() == '\r') v.remove_suffix(1);
        return v;
    }
};

const LineIndex* index_for(std::vector<LineIndex>& cache, const std::vector<SourceText>& sources, const std::string& path) {
    for (const auto& c : cache)
        if (c.src->path == path) return &c;
    for (const auto& s : sources)
        if (s.path == path) return &cache.emplace_back(&s);
    return nullptr;
}

}  // namespace

std::string render_text(const Diagnostics& diags, const std::vector<SourceText>& sources) {
    std::string out;
    std::vector<LineIndex> cache;
    cache.reserve(sources.size());
    for (const auto& d : diags.all()) {
        out += d.file.empty() ? "<input>" : d.file;
        if (d.mark.known()) out += ":" + std::to_string(d.mark.line) + ":" + std::to_string(d.mark.col);
        out += ": ";
        out += severity_name(d.severity);
        out += ": ";
        out += d.message;
        if (!d.rule.empty()) out += " [" + d.rule + "]";
        out += '\n';
        const LineIndex* src = d.mark.known() ? index_for(cache, sources, d.file) : nullptr;
        if (!src) continue;
        std::string_view line = src->line(d.mark.line);
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
