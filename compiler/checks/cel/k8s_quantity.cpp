// Kubernetes' quantity library (k8s.io/apiserver/pkg/cel/library/quantity.go)
// on the project's exact resource.Quantity. One deliberate difference:
// asInteger/isInteger accept any whole value that fits int64 ("1000m" is
// 1), where Go's AsInt64 is believed to refuse some whole values held with
// a negative scale or in big-decimal form (see the conformance README).
#include "checks/cel/functions.hpp"
#include "checks/cel/values.hpp"

namespace queueforge::cel {
namespace {

using K = Value::Kind;
using Args = std::span<const Value>;

constexpr int128 kNanosPerUnit = 1000000000;

const Quantity* quantity_of(const Value& v) { return v.as_quantity(); }

Result quantity(EvalContext&, Args a) {
    if (!arity(a, 1) || !is(a[0], K::String)) return std::nullopt;
    std::string error;
    auto q = Quantity::parse(a[0].as_string(), &error);
    if (!q) return Value::error("invalid quantity '" + a[0].as_string() + "': " + error);
    return Value::quantity(*q);
}

Result is_quantity(EvalContext&, Args a) {
    if (!arity(a, 1) || !is(a[0], K::String)) return std::nullopt;
    return Value::boolean(Quantity::parse(a[0].as_string()).has_value());
}

Result quantity_sign(EvalContext&, Args a) {
    if (!arity(a, 1) || !quantity_of(a[0])) return std::nullopt;
    return Value::integer(quantity_of(a[0])->sign());
}

template <int Mode>  // 0: compareTo, 1: isGreaterThan, 2: isLessThan
Result compare_quantities(EvalContext&, Args a) {
    if (!arity(a, 2) || !quantity_of(a[0]) || !quantity_of(a[1])) return std::nullopt;
    const int c = quantity_of(a[0])->compare(*quantity_of(a[1]));
    const int s = c < 0 ? -1 : (c > 0 ? 1 : 0);
    if (Mode == 0) return Value::integer(s);
    return Value::boolean(Mode == 1 ? s > 0 : s < 0);
}

std::optional<std::int64_t> whole_int64(const Quantity& q) {
    const int128 n = q.nanos();
    if (n % kNanosPerUnit != 0) return std::nullopt;
    const int128 units = n / kNanosPerUnit;
    if (units > INT64_MAX || units < INT64_MIN) return std::nullopt;
    return static_cast<std::int64_t>(units);
}

Result as_integer(EvalContext&, Args a) {
    if (!arity(a, 1) || !quantity_of(a[0])) return std::nullopt;
    auto i = whole_int64(*quantity_of(a[0]));
    if (!i) return Value::error("cannot convert quantity '" + quantity_of(a[0])->to_string() + "' to an int64 without loss");
    return Value::integer(*i);
}

Result is_integer(EvalContext&, Args a) {
    if (!arity(a, 1) || !quantity_of(a[0])) return std::nullopt;
    return Value::boolean(whole_int64(*quantity_of(a[0])).has_value());
}

Result as_approximate_float(EvalContext&, Args a) {
    if (!arity(a, 1) || !quantity_of(a[0])) return std::nullopt;
    const int128 n = quantity_of(a[0])->nanos();
    const int128 units = n / kNanosPerUnit;
    const int128 frac = n % kNanosPerUnit;
    return Value::dbl(static_cast<double>(units) + static_cast<double>(frac) / 1e9);
}

std::optional<Quantity> operand(const Value& v) {
    if (const Quantity* q = quantity_of(v)) return *q;
    if (is(v, K::Int)) return Quantity::from_int(v.as_int());
    return std::nullopt;
}

template <bool Add>
Result arithmetic(EvalContext&, Args a) {
    if (!arity(a, 2) || !quantity_of(a[0])) return std::nullopt;
    auto other = operand(a[1]);
    if (!other) return std::nullopt;
    auto r = Add ? quantity_of(a[0])->add(*other) : quantity_of(a[0])->sub(*other);
    if (!r) return Value::error("quantity arithmetic overflow");
    return Value::quantity(*r);
}

Result quantity_multiply(EvalContext&, Args a) {
    if (!arity(a, 2) || !quantity_of(a[0]) || !is(a[1], K::Int)) return std::nullopt;
    auto r = quantity_of(a[0])->mul(a[1].as_int());
    if (!r) return Value::error("quantity arithmetic overflow");
    return Value::quantity(*r);
}

}  // namespace

void register_quantity(Registry& r) {
    r.add("quantity", quantity);
    r.add("isQuantity", is_quantity);
    r.add("sign", quantity_sign);
    r.add("compareTo", compare_quantities<0>);
    r.add("isGreaterThan", compare_quantities<1>);
    r.add("isLessThan", compare_quantities<2>);
    r.add("asInteger", as_integer);
    r.add("isInteger", is_integer);
    r.add("asApproximateFloat", as_approximate_float);
    r.add("add", arithmetic<true>);
    r.add("sub", arithmetic<false>);
    r.add("mul", quantity_multiply);
}

}  // namespace queueforge::cel
