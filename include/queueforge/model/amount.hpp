#pragma once
// The one arithmetic type of quota math: Kueue's quota integers
// (pkg/resources/amount.go, pkg/util/math): int64 in the resource's Kueue
// unit (milli for cpu, units otherwise), saturating, where MaxInt64 doubles as
// "Unlimited" (kueue-semantics.md 3.3). Chosen over capacity's 128-bit nano
// amounts because it is what the scheduler compares: a quota tree in any
// other unit can disagree with Kueue on rounding (1.5 memory units is 2 for
// Kueue). Source values stay exact as Quantity in the model (cluster.hpp).
#include <cstdint>
#include <limits>

namespace queueforge::model {

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

}  // namespace queueforge::model
