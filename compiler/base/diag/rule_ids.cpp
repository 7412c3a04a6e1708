#include <queueforge/base/rule_ids.hpp>

namespace queueforge {

std::vector<std::string> split_rule_ids(std::string_view text) {
    std::vector<std::string> out;
    std::size_t start = 0;
    while (start <= text.size()) {
        std::size_t comma = text.find(',', start);
        if (comma == std::string_view::npos) comma = text.size();
        std::string_view id = text.substr(start, comma - start);
        while (!id.empty() && (id.front() == ' ' || id.front() == '\t')) id.remove_prefix(1);
        while (!id.empty() && (id.back() == ' ' || id.back() == '\t')) id.remove_suffix(1);
        if (!id.empty()) out.emplace_back(id);
        start = comma + 1;
    }
    return out;
}

}  // namespace queueforge
