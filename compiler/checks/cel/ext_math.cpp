// cel-go's math extension (ext.Math; not in Kubernetes' base environment):
// greatest/least across numeric types, rounding, abs, sign, IEEE
// predicates and bit operations.
#include "checks/cel/functions.hpp"
#include "checks/cel/values.hpp"

#include <cmath>
#include <limits>

namespace queueforge::cel {
namespace {

using K = Value::Kind;
using Args = std::span<const Value>;

template <bool Greatest>
Result extreme(EvalContext& ctx, Args a) {
    std::span<const Value> items = a;
    if (a.size() == 1 && is(a[0], K::List)) items = a[0].as_list();
    if (items.empty()) return Value::error(std::string("math.") + (Greatest ? "greatest" : "least") + "() requires at least one argument");
    if (!ctx.charge(items.size())) return EvalContext::cost_error();
    for (const auto& v : items)
        if (!is_numeric(v)) return std::nullopt;
    std::size_t best = 0;
    for (std::size_t i = 1; i < items.size(); ++i)
        if (compare(items[i], items[best]) == (Greatest ? Order::Greater : Order::Less)) best = i;
    return items[best];
}

template <double (*F)(double)>
Result rounding(EvalContext&, Args a) {
    if (!arity(a, 1) || !is(a[0], K::Double)) return std::nullopt;
    return Value::dbl(F(a[0].as_double()));
}

double ceil_(double d) { return std::ceil(d); }
double floor_(double d) { return std::floor(d); }
double round_(double d) { return std::round(d); }  // half away from zero, as Go's math.Round
double trunc_(double d) { return std::trunc(d); }

Result abs(EvalContext&, Args a) {
    if (!arity(a, 1)) return std::nullopt;
    switch (a[0].kind()) {
        case K::Int:
            if (a[0].as_int() == std::numeric_limits<std::int64_t>::min()) return Value::error("integer overflow");
            return Value::integer(a[0].as_int() < 0 ? -a[0].as_int() : a[0].as_int());
        case K::Uint: return a[0];
        case K::Double: return Value::dbl(std::fabs(a[0].as_double()));
        default: return std::nullopt;
    }
}

Result sign(EvalContext&, Args a) {
    if (!arity(a, 1)) return std::nullopt;
    switch (a[0].kind()) {
        case K::Int: return Value::integer(a[0].as_int() > 0 ? 1 : (a[0].as_int() < 0 ? -1 : 0));
        case K::Uint: return Value::uinteger(a[0].as_uint() > 0 ? 1 : 0);
        case K::Double: {
            const double d = a[0].as_double();
            if (std::isnan(d) || d == 0) return a[0];
            return Value::dbl(d > 0 ? 1.0 : -1.0);
        }
        default: return std::nullopt;
    }
}

template <int Test>  // 0: isNaN, 1: isInf, 2: isFinite
Result ieee(EvalContext&, Args a) {
    if (!arity(a, 1) || !is(a[0], K::Double)) return std::nullopt;
    const double d = a[0].as_double();
    return Value::boolean(Test == 0 ? std::isnan(d) : Test == 1 ? std::isinf(d) : std::isfinite(d));
}

template <int Op>  // 0: and, 1: or, 2: xor
Result bitwise(EvalContext&, Args a) {
    if (!arity(a, 2) || a[0].kind() != a[1].kind()) return std::nullopt;
    auto apply = [](std::uint64_t x, std::uint64_t y) { return Op == 0 ? (x & y) : Op == 1 ? (x | y) : (x ^ y); };
    if (is(a[0], K::Int))
        return Value::integer(static_cast<std::int64_t>(apply(static_cast<std::uint64_t>(a[0].as_int()), static_cast<std::uint64_t>(a[1].as_int()))));
    if (is(a[0], K::Uint)) return Value::uinteger(apply(a[0].as_uint(), a[1].as_uint()));
    return std::nullopt;
}

Result bit_not(EvalContext&, Args a) {
    if (!arity(a, 1)) return std::nullopt;
    if (is(a[0], K::Int)) return Value::integer(~a[0].as_int());
    if (is(a[0], K::Uint)) return Value::uinteger(~a[0].as_uint());
    return std::nullopt;
}

// Shifts are logical for both int and uint; shifting by 64 or more gives 0.
template <bool Left>
Result shift(EvalContext&, Args a) {
    if (!arity(a, 2) || !is(a[1], K::Int) || !(is(a[0], K::Int) || is(a[0], K::Uint))) return std::nullopt;
    const std::int64_t n = a[1].as_int();
    if (n < 0) return Value::error("math.bitShift: negative offset " + std::to_string(n));
    const std::uint64_t x = is(a[0], K::Int) ? static_cast<std::uint64_t>(a[0].as_int()) : a[0].as_uint();
    const std::uint64_t r = n >= 64 ? 0 : (Left ? x << n : x >> n);
    if (is(a[0], K::Int)) return Value::integer(static_cast<std::int64_t>(r));
    return Value::uinteger(r);
}

Result sqrt(EvalContext&, Args a) {
    if (!arity(a, 1)) return std::nullopt;
    switch (a[0].kind()) {
        case K::Int: return Value::dbl(std::sqrt(static_cast<double>(a[0].as_int())));
        case K::Uint: return Value::dbl(std::sqrt(static_cast<double>(a[0].as_uint())));
        case K::Double: return Value::dbl(std::sqrt(a[0].as_double()));
        default: return std::nullopt;
    }
}

}  // namespace

void register_math_ext(Registry& r) {
    r.add("math.greatest", extreme<true>);
    r.add("math.least", extreme<false>);
    r.add("math.ceil", rounding<ceil_>);
    r.add("math.floor", rounding<floor_>);
    r.add("math.round", rounding<round_>);
    r.add("math.trunc", rounding<trunc_>);
    r.add("math.abs", abs);
    r.add("math.sign", sign);
    r.add("math.isNaN", ieee<0>);
    r.add("math.isInf", ieee<1>);
    r.add("math.isFinite", ieee<2>);
    r.add("math.bitAnd", bitwise<0>);
    r.add("math.bitOr", bitwise<1>);
    r.add("math.bitXor", bitwise<2>);
    r.add("math.bitNot", bit_not);
    r.add("math.bitShiftLeft", shift<true>);
    r.add("math.bitShiftRight", shift<false>);
    r.add("math.sqrt", sqrt);
}

}  // namespace queueforge::cel
