// Optional values (cel-go's OptionalTypes, enabled in Kubernetes since 1.28):
// optional.of / none / ofNonZeroValue, hasValue, value, orValue, or. The
// .?field / [?index] syntax and optMap/optFlatMap are in the evaluator.
#include "checks/cel/functions.hpp"

namespace queueforge::cel {
namespace {

using K = Value::Kind;
using Args = std::span<const Value>;

bool is_zero_value(const Value& v) {
    switch (v.kind()) {
        case K::Null: return true;
        case K::Bool: return !v.as_bool();
        case K::Int: return v.as_int() == 0;
        case K::Uint: return v.as_uint() == 0;
        case K::Double: return v.as_double() == 0;
        case K::String:
        case K::Bytes: return v.as_string().empty();
        case K::List: return v.as_list().empty();
        case K::Map: return v.map_entries().empty();
        case K::Timestamp:
        case K::Duration: return v.seconds() == 0 && v.nanos() == 0;
        case K::Optional: return !v.optional_has_value();
        default: return false;
    }
}

Result of(EvalContext&, Args a) {
    if (!arity(a, 1)) return std::nullopt;
    return Value::optional_of(a[0]);
}

Result of_non_zero(EvalContext&, Args a) {
    if (!arity(a, 1)) return std::nullopt;
    return is_zero_value(a[0]) ? Value::optional_none() : Value::optional_of(a[0]);
}

Result none(EvalContext&, Args a) {
    if (!arity(a, 0)) return std::nullopt;
    return Value::optional_none();
}

Result has_value(EvalContext&, Args a) {
    if (!arity(a, 1) || !is(a[0], K::Optional)) return std::nullopt;
    return Value::boolean(a[0].optional_has_value());
}

Result value(EvalContext&, Args a) {
    if (!arity(a, 1) || !is(a[0], K::Optional)) return std::nullopt;
    if (!a[0].optional_has_value()) return Value::error("optional.none() dereference");
    return a[0].optional_value();
}

Result or_value(EvalContext&, Args a) {
    if (!arity(a, 2) || !is(a[0], K::Optional)) return std::nullopt;
    return a[0].optional_has_value() ? a[0].optional_value() : a[1];
}

Result or_optional(EvalContext&, Args a) {
    if (!arity(a, 2) || !is(a[0], K::Optional) || !is(a[1], K::Optional)) return std::nullopt;
    return a[0].optional_has_value() ? a[0] : a[1];
}

}  // namespace

void register_optional(Registry& r) {
    r.add("optional.of", of);
    r.add("optional.ofNonZeroValue", of_non_zero);
    r.add("optional.none", none);
    r.add("hasValue", has_value);
    r.add("value", value);
    r.add("orValue", or_value);
    r.add("or", or_optional);
}

}  // namespace queueforge::cel
