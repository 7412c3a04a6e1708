#pragma once
// Kubernetes resource.Quantity, exactly: the grammar, exact decimal values
// (rounded up to nano units as the API server does), checked arithmetic, and
// the canonical String() spelling the API server writes back. See
// kueue-semantics.md section 3 and conventions.md section 5.4.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace queueforge {

// GCC/Clang extension; the __extension__ typedef keeps -Wpedantic quiet for
// every file that includes this header.
__extension__ typedef __int128 int128;

class Quantity {
public:
    enum class Format { DecimalSI, BinarySI, DecimalExponent };

    Quantity() = default;  // zero, DecimalSI

    // Parses a quantity string. On failure returns nullopt and, when `error`
    // is given, a human-readable reason ("unknown suffix \"Kb\"", "value too
    // large", ...).
    static std::optional<Quantity> parse(std::string_view text, std::string* error = nullptr);
    static Quantity from_int(std::int64_t units, Format f = Format::DecimalSI);
    static Quantity from_milli(std::int64_t milli, Format f = Format::DecimalSI);

    Format format() const { return format_; }
    // Exact value in nano units (10^-9).
    int128 nanos() const { return nanos_; }
    int sign() const { return nanos_ < 0 ? -1 : (nanos_ > 0 ? 1 : 0); }
    bool is_zero() const { return nanos_ == 0; }

    // value and value*1000 rounded up away from zero (Go's Value()/MilliValue()
    // for int64-backed quantities: -1.5 -> -2), clamped to int64.
    std::int64_t value() const;
    std::int64_t milli_value() const;

    // Checked arithmetic; nullopt on overflow of the representable range.
    // The result keeps this quantity's format (Go keeps the receiver's).
    std::optional<Quantity> add(const Quantity& o) const;
    std::optional<Quantity> sub(const Quantity& o) const;
    std::optional<Quantity> mul(std::int64_t factor) const;
    // value * numerator / denominator rounded up to nano units; used for
    // percentage shares (numerator/denominator exact, e.g. 125/1000 = 12.5%).
    std::optional<Quantity> scale(std::int64_t numerator, std::int64_t denominator) const;

    int compare(const Quantity& o) const;
    friend bool operator==(const Quantity& a, const Quantity& b) { return a.nanos_ == b.nanos_; }
    friend bool operator<(const Quantity& a, const Quantity& b) { return a.nanos_ < b.nanos_; }

    // Canonical spelling, as Go's Quantity.String().
    std::string to_string() const;

private:
    int128 nanos_ = 0;
    Format format_ = Format::DecimalSI;
};

}  // namespace queueforge
