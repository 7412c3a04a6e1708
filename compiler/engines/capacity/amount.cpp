#include "engines/capacity/arith.hpp"

#include <algorithm>
#include <limits>

namespace queueforge::capacity {

namespace {

constexpr int128 kNanosPerUnit = 1000000000;

int128 pow10_128(int n) {
    int128 v = 1;
    while (n-- > 0) v *= 10;
    return v;
}

std::string digits(int128 v) {
    if (v == 0) return "0";
    bool neg = v < 0;
    // Magnitudes here stay below 10^38, so negation cannot overflow.
    if (neg) v = -v;
    std::string s;
    while (v > 0) {
        s.push_back(static_cast<char>('0' + static_cast<int>(v % 10)));
        v /= 10;
    }
    if (neg) s.push_back('-');
    std::reverse(s.begin(), s.end());
    return s;
}

// a + b and a - b at most at the limit. Operands are within +-limit, whose
// sum (2 x 10^38) would overflow int128 (1.7 x 10^38) if added directly.
int128 add_sat(int128 a, int128 b) {
    const int128 lim = amount_limit();
    if (b > 0 && a > lim - b) return lim;
    if (b < 0 && a < -lim - b) return -lim;
    return a + b;
}

bool fits_int64(int128 v) {
    return v >= std::numeric_limits<std::int64_t>::min() && v <= std::numeric_limits<std::int64_t>::max();
}

}  // namespace

int128 amount_limit() { return pow10_128(38) - 1; }

std::string Amount::str() const {
    // The canonical spelling comes from Quantity itself, so the report writes
    // amounts exactly as the API server and the compiled manifests do.
    if (nanos % kNanosPerUnit == 0 && fits_int64(nanos / kNanosPerUnit))
        return Quantity::from_int(static_cast<std::int64_t>(nanos / kNanosPerUnit),
                                  binary ? Quantity::Format::BinarySI : Quantity::Format::DecimalSI)
            .to_string();
    if (nanos % 1000000 == 0 && fits_int64(nanos / 1000000))
        return Quantity::from_milli(static_cast<std::int64_t>(nanos / 1000000)).to_string();
    if (auto q = Quantity::parse(digits(nanos) + "n")) return q->to_string();
    return digits(nanos) + "n";
}

Amount amount_of(const Quantity& q) { return {q.nanos(), q.format() == Quantity::Format::BinarySI}; }

std::optional<Amount> parse_amount(const std::string& text) {
    auto q = Quantity::parse(text);
    if (!q) return std::nullopt;
    return amount_of(*q);
}

Amount plus(const Amount& a, const Amount& b) {
    Amount r{add_sat(a.nanos, b.nanos), a.nanos != 0 ? a.binary : b.binary};
    return r;
}

Amount minus_floor0(const Amount& a, const Amount& b) {
    int128 d = add_sat(a.nanos, -b.nanos);
    return {d > 0 ? d : 0, a.nanos != 0 ? a.binary : b.binary};
}

Amount times(const Amount& a, std::int64_t n) {
    // Saturate before multiplying: |a| < 10^38 and |n| < 2^63 would overflow int128.
    const int128 lim = amount_limit();
    if (n == 0 || a.nanos == 0) return {0, a.binary};
    int128 an = a.nanos < 0 ? -a.nanos : a.nanos;
    int128 nn = n < 0 ? -static_cast<int128>(n) : static_cast<int128>(n);
    int128 mag = an > lim / nn ? lim : an * nn;
    bool neg = (a.nanos < 0) != (n < 0);
    return {neg ? -mag : mag, a.binary};
}

std::optional<std::int64_t> permille(const Amount& a, const Amount& b) {
    if (b.nanos <= 0) return std::nullopt;
    if (a.nanos <= 0) return 0;
    // a * 1000 fits int128 for a < 10^35; beyond that the figure is huge anyway.
    constexpr std::int64_t kCap = 1000000000000LL;  // 10^9 percent
    int128 q;
    if (a.nanos < pow10_128(35)) q = (a.nanos * 1000 + b.nanos / 2) / b.nanos;
    else q = a.nanos / b.nanos * 1000;
    return static_cast<std::int64_t>(std::min<int128>(q, kCap));
}

std::string percent_text(std::int64_t pm) {
    return std::to_string(pm / 10) + "." + std::to_string(pm % 10) + "%";
}

double ratio(const Amount& a, const Amount& b) {
    if (b.nanos <= 0) return 0;
    return static_cast<double>(static_cast<long double>(a.nanos) / static_cast<long double>(b.nanos));
}

}  // namespace queueforge::capacity
