#pragma once
// The tree-walking evaluator. Every node costs one unit; functions and
// comprehensions add their own charges (functions.hpp, EvalContext).
#include "checks/cel/ast.hpp"
#include "checks/cel/functions.hpp"

namespace queueforge::cel {

Value eval(EvalContext& ctx, const Expr& e);
Value eval_comprehension(EvalContext& ctx, const Expr& e);  // comprehension.cpp

// Field selection `v.field` (and `has(v.field)` when test_only), with the
// optional-chaining rules when v is an optional.
Value select_field(const Value& v, const std::string& field, bool test_only);
// `v.?field`.
Value select_optional(const Value& v, const std::string& field);
// `c[i]` and `c[?i]`.
Value index_value(const Value& c, const Value& i);
Value index_optional(const Value& c, const Value& i);

// Type names that are values in expressions (int, list, net.IP, ...).
bool is_type_name(std::string_view name);

}  // namespace queueforge::cel
