// Core string functions: contains, startsWith, endsWith. (size is with the
// operators, matches with the regex library.)
#include "checks/cel/functions.hpp"

namespace queueforge::cel {
namespace {

using K = Value::Kind;
using Args = std::span<const Value>;

bool two_strings(Args a) { return arity(a, 2) && is(a[0], K::String) && is(a[1], K::String); }

Result contains(EvalContext& ctx, Args a) {
    if (!two_strings(a)) return std::nullopt;
    if (!ctx.charge(a[0].as_string().size() / 10)) return EvalContext::cost_error();
    return Value::boolean(a[0].as_string().find(a[1].as_string()) != std::string::npos);
}

Result starts_with(EvalContext&, Args a) {
    if (!two_strings(a)) return std::nullopt;
    return Value::boolean(a[0].as_string().starts_with(a[1].as_string()));
}

Result ends_with(EvalContext&, Args a) {
    if (!two_strings(a)) return std::nullopt;
    return Value::boolean(a[0].as_string().ends_with(a[1].as_string()));
}

}  // namespace

void register_strings(Registry& r) {
    r.add("contains", contains);
    r.add("startsWith", starts_with);
    r.add("endsWith", ends_with);
}

}  // namespace queueforge::cel
