#pragma once
// Kueue's quota integers (pkg/resources/amount.go, pkg/util/math): int64 with
// saturation, where MaxInt64 doubles as "Unlimited". kueue-semantics.md 3.3.
#include <algorithm>
#include <cstdint>
#include <limits>
#include <utility>
#include <vector>

namespace queueforge::sim::detail {

using Amount = std::int64_t;
inline constexpr Amount kUnlimited = std::numeric_limits<std::int64_t>::max();
inline constexpr Amount kMinAmount = std::numeric_limits<std::int64_t>::min();

inline std::int64_t sat_add(std::int64_t a, std::int64_t b) {
    std::int64_t r;
    if (__builtin_add_overflow(a, b, &r)) return b > 0 ? kUnlimited : kMinAmount;
    return r;
}
inline std::int64_t sat_sub(std::int64_t a, std::int64_t b) {
    std::int64_t r;
    if (__builtin_sub_overflow(a, b, &r)) return b < 0 ? kUnlimited : kMinAmount;
    return r;
}
inline std::int64_t sat_mul(std::int64_t a, std::int64_t b) {
    std::int64_t r;
    if (__builtin_mul_overflow(a, b, &r)) return ((a < 0) != (b < 0)) ? kMinAmount : kUnlimited;
    return r;
}

// Amount.Add: Unlimited absorbs.
inline Amount amt_add(Amount a, Amount b) {
    if (a == kUnlimited || b == kUnlimited) return kUnlimited;
    return sat_add(a, b);
}
// Amount.AddInt64: only the receiver's Unlimited absorbs.
inline Amount amt_add_int(Amount a, std::int64_t v) { return a == kUnlimited ? a : sat_add(a, v); }
// Amount.Sub: U-U = 0, U-x = U, x-U = MinInt64.
inline Amount amt_sub(Amount a, Amount b) {
    if (a == kUnlimited && b == kUnlimited) return 0;
    if (a == kUnlimited) return kUnlimited;
    if (b == kUnlimited) return kMinAmount;
    return sat_sub(a, b);
}

// A small map sorted by key; Go's map semantics (a missing key reads 0).
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

}  // namespace queueforge::sim::detail
