#pragma once
// Exact, saturating arithmetic on capacity::Amount for what the report adds
// to Kueue's quota tree (pool totals, node capacity, commit ratios); the tree
// itself is model/quota_tree.hpp, in Kueue's int64 amounts. Sums stop at
// Quantity's edge instead of wrapping, so a report on absurd input is absurd
// but never wrong-signed.
#include <queueforge/engines/capacity.hpp>

#include <optional>
#include <string>

namespace queueforge::capacity {

// 10^38 - 1 nano units: the largest magnitude a Quantity holds.
int128 amount_limit();

Amount amount_of(const Quantity& q);
// nullopt when `text` is not a quantity.
std::optional<Amount> parse_amount(const std::string& text);

// The result takes the spelling family of the first non-zero operand, as a
// sum written by hand would.
Amount plus(const Amount& a, const Amount& b);
Amount minus_floor0(const Amount& a, const Amount& b);  // max(0, a - b)
Amount times(const Amount& a, std::int64_t n);

// a / b in 1/1000, rounded half up; nullopt when b <= 0.
std::optional<std::int64_t> permille(const Amount& a, const Amount& b);
// "100.0%" from a permille figure.
std::string percent_text(std::int64_t permille);
// a / b as a double for drawing (0 when b <= 0).
double ratio(const Amount& a, const Amount& b);

}  // namespace queueforge::capacity
