#pragma once
// Value internals shared by the evaluator and the function libraries: map
// payloads, CEL ordering, and the canonical spellings of numbers and times.
#include <queueforge/checks/cel.hpp>

#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>

namespace queueforge::cel {

struct MapData {
    using Index = std::unordered_map<std::string, std::size_t>;
    Value::MapEntries entries;
    // Built for larger maps only; small maps are scanned, which is faster.
    // Behind a pointer: most maps have none, and a policy run holds one
    // MapData per object of the input (64 bytes with its count, where an
    // inline index made it 128).
    std::unique_ptr<Index> index;
    // A map of from_node_lazy: the mapping whose entries are converted on
    // first read (entries and index are empty until then).
    const Node* pending = nullptr;
    const Node* source = nullptr;  // the mapping a from_node_lazy map was made from (kept after it is read)
};
static_assert(sizeof(MapData) <= 48);

// Identity of a map key under CEL's key equivalence: 1, 1u and 1.0 share a
// code. nullopt for values that can never be keys (lists, non-integral
// doubles, ...), which are simply absent from every map.
std::optional<std::string> map_key_code(const Value& key);

bool is_numeric(const Value& v);

enum class Order { Less, Equal, Greater, Unordered, NoOverload };
// CEL `<` family: numbers across int/uint/double (NaN is Unordered), and
// same-kind string, bytes, bool, timestamp, duration. Anything else is
// NoOverload.
Order compare(const Value& a, const Value& b);

// Go's %g spelling of a double, which cel-go's string(double) produces:
// shortest round-trip digits, exponent form below 1e-4 and from 1e6.
std::string format_double(double d);
// RFC 3339 in UTC with trailing fractional zeros trimmed.
std::string format_timestamp(const Value& ts);
// Seconds with up to nine fractional digits, trailing zeros trimmed, "s".
std::string format_duration(const Value& d);

// "no such overload: name(int, string)".
Value no_such_overload(std::string_view function, std::span<const Value> args);

class QuantityValue final : public Opaque {
public:
    explicit QuantityValue(const Quantity& q) : q_(q) {}
    std::string type_name() const override { return "kubernetes.Quantity"; }
    bool equals(const Opaque& other) const override;
    std::string to_string() const override { return q_.to_string(); }
    const Quantity& quantity() const { return q_; }

private:
    Quantity q_;
};

}  // namespace queueforge::cel
