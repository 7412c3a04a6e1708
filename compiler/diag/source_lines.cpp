#include <queueforge/diagnostics.hpp>

namespace queueforge {

SourceLines::SourceLines(const SourceText& s) : src_(&s) {
    starts_.push_back(0);
    for (std::size_t i = 0; i < s.text.size(); ++i)
        if (s.text[i] == '\n') starts_.push_back(i + 1);
}

std::string_view SourceLines::line(int n) const {
    if (n < 1 || static_cast<std::size_t>(n) > starts_.size()) return {};
    const std::size_t i = static_cast<std::size_t>(n);
    const std::size_t b = starts_[i - 1];
    const std::size_t e = i < starts_.size() ? starts_[i] - 1 : src_->text.size();
    std::string_view v(src_->text.data() + b, e - b);
    if (!v.empty() && v.back() == '\r') v.remove_suffix(1);
    return v;
}

std::string caret_excerpt(std::string_view line, int col, std::string_view indent) {
    if (line.empty() || line.size() > 400) return {};
    std::string out(indent);
    out += line;
    out += '\n';
    out += indent;
    for (int i = 1; i < col && static_cast<std::size_t>(i - 1) < line.size(); ++i)
        out += line[static_cast<std::size_t>(i - 1)] == '\t' ? '\t' : ' ';
    out += "^\n";
    return out;
}

}  // namespace queueforge
