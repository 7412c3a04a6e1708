// Operators: checked arithmetic, equality, ordering, negation, membership,
// indexing and size. Arithmetic never mixes numeric types (1 + 1u has no
// overload), but equality and ordering compare across them.
#include "checks/cel/eval.hpp"
#include "checks/cel/functions.hpp"
#include "checks/cel/values.hpp"

#include "checks/cel/utf8.hpp"

#include <algorithm>
#include <limits>

namespace queueforge::cel {
namespace {

using K = Value::Kind;
using Args = std::span<const Value>;

Value overflow() { return Value::error("integer overflow"); }

// Rough size of the work a value's traversal or copy takes.
std::uint64_t size_cost(const Value& v) {
    switch (v.kind()) {
        case K::String:
        case K::Bytes: return v.as_string().size() / 10;
        case K::List: return v.as_list().size();
        case K::Map: return v.map_entries().size();
        default: return 0;
    }
}

Result add(EvalContext& ctx, Args a) {
    if (!arity(a, 2)) return std::nullopt;
    const Value& x = a[0];
    const Value& y = a[1];
    if (x.kind() != y.kind()) {
        if (is(x, K::Timestamp) && is(y, K::Duration)) return Value::timestamp(x.total_nanos() + y.total_nanos());
        if (is(x, K::Duration) && is(y, K::Timestamp)) return Value::timestamp(x.total_nanos() + y.total_nanos());
        return std::nullopt;
    }
    switch (x.kind()) {
        case K::Int: {
            std::int64_t r;
            if (__builtin_add_overflow(x.as_int(), y.as_int(), &r)) return overflow();
            return Value::integer(r);
        }
        case K::Uint: {
            std::uint64_t r;
            if (__builtin_add_overflow(x.as_uint(), y.as_uint(), &r)) return overflow();
            return Value::uinteger(r);
        }
        case K::Double: return Value::dbl(x.as_double() + y.as_double());
        case K::String:
        case K::Bytes: {
            if (!ctx.charge(1 + size_cost(x) + size_cost(y))) return EvalContext::cost_error();
            std::string s = x.as_string();
            s += y.as_string();
            return is(x, K::String) ? Value::string(std::move(s)) : Value::bytes(std::move(s));
        }
        case K::List: {
            if (!ctx.charge(1 + size_cost(x) + size_cost(y))) return EvalContext::cost_error();
            Value::ListItems items = x.as_list();
            items.insert(items.end(), y.as_list().begin(), y.as_list().end());
            return Value::list(std::move(items));
        }
        case K::Duration: return Value::duration(x.total_nanos() + y.total_nanos());
        default: return std::nullopt;
    }
}

Result subtract(EvalContext&, Args a) {
    if (!arity(a, 2)) return std::nullopt;
    const Value& x = a[0];
    const Value& y = a[1];
    if (is(x, K::Timestamp) && is(y, K::Duration)) return Value::timestamp(x.total_nanos() - y.total_nanos());
    if (x.kind() != y.kind()) return std::nullopt;
    switch (x.kind()) {
        case K::Int: {
            std::int64_t r;
            if (__builtin_sub_overflow(x.as_int(), y.as_int(), &r)) return overflow();
            return Value::integer(r);
        }
        case K::Uint: {
            std::uint64_t r;
            if (__builtin_sub_overflow(x.as_uint(), y.as_uint(), &r)) return overflow();
            return Value::uinteger(r);
        }
        case K::Double: return Value::dbl(x.as_double() - y.as_double());
        case K::Timestamp: return Value::duration(x.total_nanos() - y.total_nanos());
        case K::Duration: return Value::duration(x.total_nanos() - y.total_nanos());
        default: return std::nullopt;
    }
}

Result multiply(EvalContext&, Args a) {
    if (!arity(a, 2) || a[0].kind() != a[1].kind()) return std::nullopt;
    const Value& x = a[0];
    const Value& y = a[1];
    switch (x.kind()) {
        case K::Int: {
            std::int64_t r;
            if (__builtin_mul_overflow(x.as_int(), y.as_int(), &r)) return overflow();
            return Value::integer(r);
        }
        case K::Uint: {
            std::uint64_t r;
            if (__builtin_mul_overflow(x.as_uint(), y.as_uint(), &r)) return overflow();
            return Value::uinteger(r);
        }
        case K::Double: return Value::dbl(x.as_double() * y.as_double());
        default: return std::nullopt;
    }
}

Result divide(EvalContext&, Args a) {
    if (!arity(a, 2) || a[0].kind() != a[1].kind()) return std::nullopt;
    const Value& x = a[0];
    const Value& y = a[1];
    switch (x.kind()) {
        case K::Int:
            if (y.as_int() == 0) return Value::error("division by zero");
            if (x.as_int() == std::numeric_limits<std::int64_t>::min() && y.as_int() == -1) return overflow();
            return Value::integer(x.as_int() / y.as_int());
        case K::Uint:
            if (y.as_uint() == 0) return Value::error("division by zero");
            return Value::uinteger(x.as_uint() / y.as_uint());
        case K::Double: return Value::dbl(x.as_double() / y.as_double());
        default: return std::nullopt;
    }
}

Result modulo(EvalContext&, Args a) {
    if (!arity(a, 2) || a[0].kind() != a[1].kind()) return std::nullopt;
    const Value& x = a[0];
    const Value& y = a[1];
    switch (x.kind()) {
        case K::Int:
            if (y.as_int() == 0) return Value::error("modulus by zero");
            if (x.as_int() == std::numeric_limits<std::int64_t>::min() && y.as_int() == -1) return overflow();
            return Value::integer(x.as_int() % y.as_int());
        case K::Uint:
            if (y.as_uint() == 0) return Value::error("modulus by zero");
            return Value::uinteger(x.as_uint() % y.as_uint());
        default: return std::nullopt;
    }
}

Result negate(EvalContext&, Args a) {
    if (!arity(a, 1)) return std::nullopt;
    if (is(a[0], K::Int)) {
        if (a[0].as_int() == std::numeric_limits<std::int64_t>::min()) return overflow();
        return Value::integer(-a[0].as_int());
    }
    if (is(a[0], K::Double)) return Value::dbl(-a[0].as_double());
    return std::nullopt;
}

Result logical_not(EvalContext&, Args a) {
    if (!arity(a, 1) || !is(a[0], K::Bool)) return std::nullopt;
    return Value::boolean(!a[0].as_bool());
}

Result equal(EvalContext& ctx, Args a) {
    if (!arity(a, 2)) return std::nullopt;
    if (!ctx.charge(std::min(size_cost(a[0]), size_cost(a[1])))) return EvalContext::cost_error();
    return Value::boolean(a[0].equals(a[1]));
}

Result not_equal(EvalContext& ctx, Args a) {
    if (!arity(a, 2)) return std::nullopt;
    if (!ctx.charge(std::min(size_cost(a[0]), size_cost(a[1])))) return EvalContext::cost_error();
    return Value::boolean(!a[0].equals(a[1]));
}

template <bool (*Pred)(Order)>
Result ordering(EvalContext&, Args a) {
    if (!arity(a, 2)) return std::nullopt;
    const Order o = compare(a[0], a[1]);
    if (o == Order::NoOverload) return std::nullopt;
    return Value::boolean(Pred(o));
}

bool is_less(Order o) { return o == Order::Less; }
bool is_less_equal(Order o) { return o == Order::Less || o == Order::Equal; }
bool is_greater(Order o) { return o == Order::Greater; }
bool is_greater_equal(Order o) { return o == Order::Greater || o == Order::Equal; }

Result in(EvalContext& ctx, Args a) {
    if (!arity(a, 2)) return std::nullopt;
    const Value& elem = a[0];
    const Value& container = a[1];
    if (is(container, K::List)) {
        if (!ctx.charge(size_cost(container))) return EvalContext::cost_error();
        for (const auto& item : container.as_list())
            if (item.equals(elem)) return Value::boolean(true);
        return Value::boolean(false);
    }
    if (is(container, K::Map)) return Value::boolean(container.map_find(elem) != nullptr);
    return std::nullopt;
}

Result index(EvalContext&, Args a) {
    if (!arity(a, 2)) return std::nullopt;
    return index_value(a[0], a[1]);
}

Result index_opt(EvalContext&, Args a) {
    if (!arity(a, 2)) return std::nullopt;
    return index_optional(a[0], a[1]);
}

Result size(EvalContext& ctx, Args a) {
    if (!arity(a, 1)) return std::nullopt;
    const Value& v = a[0];
    switch (v.kind()) {
        case K::String:
            if (!ctx.charge(size_cost(v))) return EvalContext::cost_error();
            return Value::integer(static_cast<std::int64_t>(utf8::length(v.as_string())));
        case K::Bytes: return Value::integer(static_cast<std::int64_t>(v.as_string().size()));
        case K::List: return Value::integer(static_cast<std::int64_t>(v.as_list().size()));
        case K::Map: return Value::integer(static_cast<std::int64_t>(v.map_entries().size()));
        default: return std::nullopt;
    }
}

}  // namespace

void register_operators(Registry& r) {
    r.add("_+_", add);
    r.add("_-_", subtract);
    r.add("_*_", multiply);
    r.add("_/_", divide);
    r.add("_%_", modulo);
    r.add("-_", negate);
    r.add("!_", logical_not);
    r.add("_==_", equal);
    r.add("_!=_", not_equal);
    r.add("_<_", ordering<is_less>);
    r.add("_<=_", ordering<is_less_equal>);
    r.add("_>_", ordering<is_greater>);
    r.add("_>=_", ordering<is_greater_equal>);
    r.add("@in", in);
    r.add("_[_]", index);
    r.add("_[?_]", index_opt);
    r.add("size", size);
}

}  // namespace queueforge::cel
