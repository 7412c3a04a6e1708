// "Did you mean ...?": the one implementation of the suggestion every
// unknown-name finding uses (site fields, teams, queues, schema properties).
#include <queueforge/base/names.hpp>

#include <algorithm>
#include <cctype>
#include <limits>

namespace queueforge {

namespace {

std::size_t edit_distance(std::string_view a, std::string_view b) {
    std::vector<std::size_t> prev(b.size() + 1), cur(b.size() + 1);
    for (std::size_t j = 0; j <= b.size(); ++j) prev[j] = j;
    for (std::size_t i = 1; i <= a.size(); ++i) {
        cur[0] = i;
        for (std::size_t j = 1; j <= b.size(); ++j) {
            bool same = std::tolower(static_cast<unsigned char>(a[i - 1])) ==
                        std::tolower(static_cast<unsigned char>(b[j - 1]));
            cur[j] = std::min({prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (same ? 0 : 1)});
        }
        std::swap(prev, cur);
    }
    return prev[b.size()];
}

}  // namespace

std::string did_you_mean(std::string_view word, std::initializer_list<std::string_view> candidates) {
    return did_you_mean(word, std::vector<std::string>(candidates.begin(), candidates.end()));
}

std::string did_you_mean(std::string_view word, const std::vector<std::string>& candidates) {
    std::string best;
    std::size_t best_d = std::numeric_limits<std::size_t>::max();
    for (const auto& c : candidates) {
        std::size_t d = edit_distance(word, c);
        std::size_t limit = std::max<std::size_t>(2, c.size() / 3);
        // A candidate with every character different ("b" for "a") is no hint.
        if (d >= std::max(word.size(), c.size())) continue;
        if (d <= limit && d < best_d) {
            best_d = d;
            best = c;
        }
    }
    return best;
}

}  // namespace queueforge
