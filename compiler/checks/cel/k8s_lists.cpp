// Kubernetes' lists library (k8s.io/apiserver/pkg/cel/library/lists.go):
// isSorted, sum, min, max, indexOf, lastIndexOf on lists.
#include "checks/cel/functions.hpp"
#include "checks/cel/values.hpp"

namespace queueforge::cel {
namespace {

using K = Value::Kind;
using Args = std::span<const Value>;

bool receiver_list(Args a, std::size_t n) { return arity(a, n) && is(a[0], K::List); }

Value not_comparable(const Value& x, const Value& y) {
    return Value::error("no such overload: cannot compare " + x.type_name() + " and " + y.type_name());
}

Result is_sorted(EvalContext& ctx, Args a) {
    if (!receiver_list(a, 1)) return std::nullopt;
    const auto& items = a[0].as_list();
    if (!ctx.charge(items.size())) return EvalContext::cost_error();
    for (std::size_t i = 1; i < items.size(); ++i) {
        const Order o = compare(items[i - 1], items[i]);
        if (o == Order::NoOverload) return not_comparable(items[i - 1], items[i]);
        if (o == Order::Greater) return Value::boolean(false);
    }
    return Value::boolean(true);
}

Result sum(EvalContext& ctx, Args a) {
    if (!receiver_list(a, 1)) return std::nullopt;
    const auto& items = a[0].as_list();
    if (!ctx.charge(items.size())) return EvalContext::cost_error();
    if (items.empty()) return Value::integer(0);
    const Function* add = standard_registry().find("_+_");
    Value total = items[0];
    const K kind = total.kind();
    if (kind != K::Int && kind != K::Uint && kind != K::Double && kind != K::Duration)
        return Value::error("no such overload: sum() of " + total.type_name());
    for (std::size_t i = 1; i < items.size(); ++i) {
        if (items[i].kind() != kind)
            return Value::error("no such overload: sum() of mixed " + total.type_name() + " and " + items[i].type_name());
        const Value pair[2] = {total, items[i]};
        total = call_function(ctx, *add, pair);
        if (total.is_error()) return total;
    }
    return total;
}

template <bool Max>
Result list_extreme(EvalContext& ctx, Args a) {
    if (!receiver_list(a, 1)) return std::nullopt;
    const auto& items = a[0].as_list();
    if (items.empty()) return Value::error(std::string(Max ? "max" : "min") + "() called on an empty list");
    if (!ctx.charge(items.size())) return EvalContext::cost_error();
    std::size_t best = 0;
    for (std::size_t i = 1; i < items.size(); ++i) {
        const Order o = compare(items[i], items[best]);
        if (o == Order::NoOverload) return not_comparable(items[i], items[best]);
        if (o == (Max ? Order::Greater : Order::Less)) best = i;
    }
    if (items.size() == 1 && compare(items[0], items[0]) == Order::NoOverload)
        return not_comparable(items[0], items[0]);
    return items[best];
}

Result list_index_of(EvalContext& ctx, Args a) {
    if (!receiver_list(a, 2)) return std::nullopt;
    const auto& items = a[0].as_list();
    if (!ctx.charge(items.size())) return EvalContext::cost_error();
    for (std::size_t i = 0; i < items.size(); ++i)
        if (items[i].equals(a[1])) return Value::integer(static_cast<std::int64_t>(i));
    return Value::integer(-1);
}

Result list_last_index_of(EvalContext& ctx, Args a) {
    if (!receiver_list(a, 2)) return std::nullopt;
    const auto& items = a[0].as_list();
    if (!ctx.charge(items.size())) return EvalContext::cost_error();
    for (std::size_t i = items.size(); i > 0; --i)
        if (items[i - 1].equals(a[1])) return Value::integer(static_cast<std::int64_t>(i - 1));
    return Value::integer(-1);
}

}  // namespace

void register_k8s_lists(Registry& r) {
    r.add("isSorted", is_sorted);
    r.add("sum", sum);
    r.add("min", list_extreme<false>);
    r.add("max", list_extreme<true>);
    r.add("indexOf", list_index_of);
    r.add("lastIndexOf", list_last_index_of);
}

}  // namespace queueforge::cel
