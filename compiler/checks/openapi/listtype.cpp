// x-kubernetes-list-type set and map: uniqueness of whole items (set) or of
// the x-kubernetes-list-map-keys tuple (map), reported as the API server's
// listtype package does -- one "Duplicate value" on the second occurrence of
// each repeated value, nothing on the third and later ones.
#include "checks/openapi/validator.hpp"
#include "checks/openapi/values.hpp"

#include <algorithm>
#include <utility>

namespace queueforge::openapi {

namespace {

// Below this many items a quadratic scan beats allocating a hash index.
constexpr std::size_t kLinearLimit = 64;

const Node* key_field(const Node& item, const std::string& k) { return item.is_map() ? item.find(k) : nullptr; }

bool same_keys(const Node& a, const Node& b, const std::vector<std::string>& keys) {
    for (const auto& k : keys) {
        const Node* x = key_field(a, k);
        const Node* y = key_field(b, k);
        if (!x != !y) return false;
        if (x && !deep_equal(*x, *y)) return false;
    }
    return true;
}

std::size_t key_hash(const Node& item, const std::vector<std::string>& keys) {
    std::size_t h = 0x51ed27;
    for (const auto& k : keys) {
        const Node* x = key_field(item, k);
        h = h * 31 + (x ? deep_hash(*x) : 0x5bd1e995);
    }
    return h;
}

// The value the server prints: the key fields that are present, as a map.
std::string key_value(const Node& item, const std::vector<std::string>& keys) {
    Node m = Node::mapping();
    for (const auto& k : keys)
        if (const Node* x = key_field(item, k)) m.set(k, *x);
    return go_json(m);
}

}  // namespace

void Validator::list_type(const Schema& s, const Node& v) {
    const auto& items = v.items();
    const bool is_map = s.list_type == ListType::Map;
    if (is_map) {
        // Only objects (or null, an item without keys) may be list-map items;
        // the server stops at the first that is not.
        for (std::size_t i = 0; i < items.size(); ++i) {
            if (items[i].is_map() || items[i].is_null()) continue;
            PathGuard g(*this, i);
            error(items[i].mark(), "schema.list-type", [&] {
                return path() + ": Invalid value: " + go_value(items[i]) +
                       ": must be an object for an array of list-type map";
            });
            return;
        }
    }
    if (items.size() <= 1) return;
    auto same = [&](const Node& a, const Node& b) {
        return is_map ? same_keys(a, b, s.list_map_keys) : deep_equal(a, b);
    };
    auto report = [&](std::size_t i) {
        PathGuard g(*this, i);
        error(items[i].mark(), "schema.unique", [&] {
            return path() + ": Duplicate value: " +
                   (is_map ? key_value(items[i], s.list_map_keys) : go_value(items[i]));
        });
    };
    if (items.size() <= kLinearLimit) {
        for (std::size_t i = 1; i < items.size() && !stop_; ++i) {
            std::size_t earlier = 0;
            for (std::size_t j = 0; j < i && earlier < 2; ++j)
                if (same(items[i], items[j])) ++earlier;
            if (earlier == 1) report(i);
        }
        return;
    }
    std::vector<std::pair<std::size_t, std::size_t>> index;  // (hash, position)
    index.reserve(items.size());
    for (std::size_t i = 0; i < items.size(); ++i)
        index.emplace_back(is_map ? key_hash(items[i], s.list_map_keys) : deep_hash(items[i]), i);
    std::sort(index.begin(), index.end());
    std::vector<std::size_t> dups;
    for (std::size_t g = 0; g < index.size();) {
        std::size_t end = g;
        while (end < index.size() && index[end].first == index[g].first) ++end;
        for (std::size_t a = g + 1; a < end; ++a) {
            std::size_t earlier = 0;
            for (std::size_t b = g; b < a && earlier < 2; ++b)
                if (same(items[index[a].second], items[index[b].second])) ++earlier;
            if (earlier == 1) dups.push_back(index[a].second);
        }
        g = end;
    }
    std::sort(dups.begin(), dups.end());
    for (std::size_t i : dups) {
        if (stop_) return;
        report(i);
    }
}

}  // namespace queueforge::openapi
