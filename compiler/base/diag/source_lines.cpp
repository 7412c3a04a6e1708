#include <queueforge/base/diagnostics.hpp>

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

SourceIndex::SourceIndex(const std::vector<SourceText>& sources) : sources_(&sources) {
    for (std::size_t i = 0; i < sources.size(); ++i) first_.emplace(sources[i].path, i);
}

const SourceLines* SourceIndex::lines(const std::string& path) {
    if (auto it = indexed_.find(path); it != indexed_.end()) return &it->second;
    auto src = first_.find(path);
    if (src == first_.end()) return nullptr;
    return &indexed_.emplace(path, SourceLines((*sources_)[src->second])).first->second;
}

}  // namespace queueforge
