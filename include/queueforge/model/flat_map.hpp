#pragma once
// A small map sorted by key, keyed by interned ids (flavor/resource pairs of
// the quota tree, resources of a request): Go's map semantics (a missing key
// reads as the value type's zero) over one sorted vector.
#include <algorithm>
#include <cstddef>
#include <utility>
#include <vector>

namespace queueforge::model {

template <class V>
class FlatMap {
public:
    using Entry = std::pair<int, V>;
    V get(int k, V dflt = V{}) const {
        auto it = lower(k);
        return it != v_.end() && it->first == k ? it->second : dflt;
    }
    const V* find(int k) const {
        auto it = lower(k);
        return it != v_.end() && it->first == k ? &it->second : nullptr;
    }
    bool has(int k) const { return find(k) != nullptr; }
    V& at(int k) {
        auto it = std::lower_bound(v_.begin(), v_.end(), k, [](const Entry& e, int key) { return e.first < key; });
        if (it == v_.end() || it->first != k) it = v_.insert(it, Entry{k, V{}});
        return it->second;
    }
    void set(int k, V val) { at(k) = std::move(val); }
    bool empty() const { return v_.empty(); }
    std::size_t size() const { return v_.size(); }
    auto begin() const { return v_.begin(); }
    auto end() const { return v_.end(); }
    auto begin() { return v_.begin(); }
    auto end() { return v_.end(); }
    void clear() { v_.clear(); }
    friend bool operator==(const FlatMap& a, const FlatMap& b) { return a.v_ == b.v_; }

private:
    typename std::vector<Entry>::const_iterator lower(int k) const {
        return std::lower_bound(v_.begin(), v_.end(), k, [](const Entry& e, int key) { return e.first < key; });
    }
    std::vector<Entry> v_;
};

}  // namespace queueforge::model
