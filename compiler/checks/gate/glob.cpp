// Path globs for per-path rule settings in .queueforge.yaml.
#include <queueforge/checks/gate.hpp>

#include <vector>

namespace queueforge::gate {

namespace {

std::vector<std::string_view> segments(std::string_view p) {
    std::vector<std::string_view> out;
    std::size_t start = 0;
    while (start <= p.size()) {
        std::size_t slash = p.find('/', start);
        if (slash == std::string_view::npos) slash = p.size();
        if (slash > start) out.push_back(p.substr(start, slash - start));
        start = slash + 1;
    }
    return out;
}

// `*` and `?` within one segment. Iterative with one backtrack point: linear
// in practice, O(n*m) at worst.
bool segment_match(std::string_view pat, std::string_view s) {
    std::size_t p = 0, i = 0, star = std::string_view::npos, mark = 0;
    while (i < s.size()) {
        if (p < pat.size() && (pat[p] == '?' || pat[p] == s[i])) {
            ++p;
            ++i;
        } else if (p < pat.size() && pat[p] == '*') {
            star = p++;
            mark = i;
        } else if (star != std::string_view::npos) {
            p = star + 1;
            i = ++mark;
        } else {
            return false;
        }
    }
    while (p < pat.size() && pat[p] == '*') ++p;
    return p == pat.size();
}

// Segments with `**` matching any number of segments, by dynamic programming
// over (pattern segment, path segment): O(|pattern| * |path|).
bool segments_match(const std::vector<std::string_view>& pat, const std::vector<std::string_view>& path) {
    const std::size_t n = pat.size(), m = path.size();
    std::vector<std::vector<char>> ok(n + 1, std::vector<char>(m + 1, 0));
    ok[n][m] = 1;
    for (std::size_t i = n; i-- > 0;) {
        for (std::size_t j = m + 1; j-- > 0;) {
            if (pat[i] == "**") ok[i][j] = ok[i + 1][j] || (j < m && ok[i][j + 1]);
            else ok[i][j] = j < m && segment_match(pat[i], path[j]) && ok[i + 1][j + 1];
        }
    }
    return ok[0][0];
}

}  // namespace

bool glob_match(std::string_view pattern, std::string_view path) {
    if (pattern.starts_with("./")) pattern.remove_prefix(2);
    if (path.starts_with("./")) path.remove_prefix(2);
    const auto pat = segments(pattern);
    const auto segs = segments(path);
    if (pat.empty()) return false;
    if (pattern.find('/') == std::string_view::npos) return !segs.empty() && segment_match(pat[0], segs.back());
    // A trailing slash or folder name means everything beneath it too.
    if (pattern.ends_with("/")) {
        auto with_all = pat;
        with_all.emplace_back("**");
        return segments_match(with_all, segs);
    }
    return segments_match(pat, segs);
}

}  // namespace queueforge::gate
