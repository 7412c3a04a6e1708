#include <queueforge/diagnostics.hpp>

#include <string_view>
#include <vector>

namespace queueforge {

namespace {

const SourceLines* index_for(std::vector<SourceLines>& cache, const std::vector<SourceText>& sources,
                             const std::string& path) {
    for (const auto& c : cache)
        if (c.source().path == path) return &c;
    for (const auto& s : sources)
        if (s.path == path) return &cache.emplace_back(s);
    return nullptr;
}

}  // namespace

std::string render_text(const Diagnostics& diags, const std::vector<SourceText>& sources) {
    std::string out;
    std::vector<SourceLines> cache;
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
        if (const SourceLines* src = d.mark.known() ? index_for(cache, sources, d.file) : nullptr)
            out += caret_excerpt(src->line(d.mark.line), d.mark.col, "  ");
    }
    return out;
}

}  // namespace queueforge
