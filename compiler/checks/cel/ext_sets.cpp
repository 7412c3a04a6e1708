// cel-go's sets extension, in Kubernetes since 1.29: sets.contains,
// sets.equivalent, sets.intersects, with CEL equality between elements.
#include "checks/cel/functions.hpp"

namespace queueforge::cel {
namespace {

using K = Value::Kind;
using Args = std::span<const Value>;

bool two_lists(Args a) { return arity(a, 2) && is(a[0], K::List) && is(a[1], K::List); }

bool member(const Value& x, const Value::ListItems& items) {
    for (const auto& item : items)
        if (item.equals(x)) return true;
    return false;
}

bool contains_all(const Value::ListItems& a, const Value::ListItems& b) {
    for (const auto& x : b)
        if (!member(x, a)) return false;
    return true;
}

Result sets_contains(EvalContext& ctx, Args a) {
    if (!two_lists(a)) return std::nullopt;
    if (!ctx.charge(a[0].as_list().size() * a[1].as_list().size())) return EvalContext::cost_error();
    return Value::boolean(contains_all(a[0].as_list(), a[1].as_list()));
}

Result equivalent(EvalContext& ctx, Args a) {
    if (!two_lists(a)) return std::nullopt;
    if (!ctx.charge(2 * a[0].as_list().size() * a[1].as_list().size())) return EvalContext::cost_error();
    return Value::boolean(contains_all(a[0].as_list(), a[1].as_list()) && contains_all(a[1].as_list(), a[0].as_list()));
}

Result intersects(EvalContext& ctx, Args a) {
    if (!two_lists(a)) return std::nullopt;
    if (!ctx.charge(a[0].as_list().size() * a[1].as_list().size())) return EvalContext::cost_error();
    for (const auto& x : a[1].as_list())
        if (member(x, a[0].as_list())) return Value::boolean(true);
    return Value::boolean(false);
}

}  // namespace

void register_sets(Registry& r) {
    r.add("sets.contains", sets_contains);
    r.add("sets.equivalent", equivalent);
    r.add("sets.intersects", intersects);
}

}  // namespace queueforge::cel
