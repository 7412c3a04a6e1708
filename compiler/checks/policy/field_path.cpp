#include "checks/policy/field_path.hpp"

#include <charconv>
#include <optional>
#include <string>

namespace queueforge::policy {

const Node* resolve_field_path(const Node& root, std::string_view path) {
    if (path.starts_with("object.")) path.remove_prefix(7);
    if (path.starts_with(".")) path.remove_prefix(1);
    const Node* n = &root;
    std::size_t i = 0;
    while (i < path.size()) {
        std::string key;
        std::optional<std::size_t> index;
        if (path[i] == '.') {
            ++i;
            continue;
        }
        if (path[i] == '[') {
            auto close = path.find(']', i);
            if (close == std::string_view::npos) return nullptr;
            std::string_view inner = path.substr(i + 1, close - i - 1);
            if (inner.size() >= 2 && (inner.front() == '\'' || inner.front() == '"') && inner.back() == inner.front()) {
                key = std::string(inner.substr(1, inner.size() - 2));
            } else {
                std::size_t v = 0;
                auto [p, ec] = std::from_chars(inner.data(), inner.data() + inner.size(), v);
                if (ec != std::errc() || p != inner.data() + inner.size()) return nullptr;
                index = v;
            }
            i = close + 1;
        } else {
            std::size_t end = i;
            while (end < path.size() && path[end] != '.' && path[end] != '[') ++end;
            key = std::string(path.substr(i, end - i));
            i = end;
        }
        const Node* next = nullptr;
        if (index) next = n->is_seq() && *index < n->items().size() ? &n->items()[*index] : nullptr;
        else next = n->is_map() ? n->find(key) : nullptr;
        if (!next) return n;  // the field is missing: its parent is the closest position
        n = next;
    }
    return n;
}

}  // namespace queueforge::policy
