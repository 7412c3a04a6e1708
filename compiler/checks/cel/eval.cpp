#include "checks/cel/eval.hpp"

#include "checks/cel/values.hpp"

#include <cmath>

namespace queueforge::cel {
namespace {

using K = Value::Kind;

Value non_bool_error(const char* op, const Value& v) {
    return Value::error(std::string("no matching overload for '") + op + "' applied to " + v.type_name());
}

// `a && b` and `a || b` with CEL's commutative error absorption: a decisive
// operand (false for &&, true for ||) wins over an error on either side.
Value eval_logical(EvalContext& ctx, const Expr& e, bool is_and) {
    const bool decisive = !is_and;
    const char* op = is_and ? "_&&_" : "_||_";
    Value left = eval(ctx, *e.args[0]);
    if (ctx.exhausted) return EvalContext::cost_error();
    if (is(left, K::Bool) && left.as_bool() == decisive) return left;
    Value right = eval(ctx, *e.args[1]);
    if (ctx.exhausted) return EvalContext::cost_error();
    if (is(right, K::Bool) && right.as_bool() == decisive) return right;
    if (!is(left, K::Bool)) return left.is_error() ? left : non_bool_error(op, left);
    if (!is(right, K::Bool)) return right.is_error() ? right : non_bool_error(op, right);
    return right;  // both are the non-decisive value
}

Value eval_conditional(EvalContext& ctx, const Expr& e) {
    Value cond = eval(ctx, *e.args[0]);
    if (cond.is_error()) return cond;
    if (!is(cond, K::Bool)) return non_bool_error("_?_:_", cond);
    return eval(ctx, *e.args[cond.as_bool() ? 1 : 2]);
}

const Value* find_local(const EvalContext& ctx, const std::string& name) {
    for (auto it = ctx.locals.rbegin(); it != ctx.locals.rend(); ++it)
        if (*it->first == name) return &it->second;
    return nullptr;
}

std::string joined(const std::vector<std::string>& parts, std::size_t n) {
    std::string out;
    for (std::size_t i = 0; i < n; ++i) {
        if (i) out += '.';
        out += parts[i];
    }
    return out;
}

// An identifier or a chain of field selections on one (a.b.c): a local
// variable wins; otherwise the longest prefix that names a bound variable,
// trying container candidates for each prefix, then type names.
Value eval_chain(EvalContext& ctx, const Expr& e) {
    const auto& parts = e.parts;
    const std::size_t n = parts.size();
    auto apply_rest = [&](Value v, std::size_t from) {
        for (std::size_t i = from; i < n && !v.is_error(); ++i) v = select_field(v, parts[i], false);
        return v;
    };
    const bool absolute = [&] {
        const Expr* root = &e;
        while (root->kind == ExprKind::Select) root = root->target.get();
        return root->absolute;
    }();
    if (!absolute) {
        if (const Value* local = find_local(ctx, parts[0])) return apply_rest(*local, 1);
    }
    for (std::size_t k = n; k >= 1; --k) {
        for (const auto& candidate : e.candidates[k - 1]) {
            auto it = ctx.activation.find(candidate);
            if (it != ctx.activation.end()) return apply_rest(it->second, k);
        }
    }
    const std::string name = joined(parts, n);
    if (is_type_name(name)) return Value::type(name);
    return Value::error("undeclared reference to '" + name + "'");
}

Value eval_call(EvalContext& ctx, const Expr& e) {
    const std::string& fn = e.name;
    if (!e.target && e.args.size() == 2 && (fn == "_&&_" || fn == "_||_")) return eval_logical(ctx, e, fn == "_&&_");
    if (!e.target && e.args.size() == 3 && fn == "_?_:_") return eval_conditional(ctx, e);

    // Functions are strict: the first error among the arguments is the result.
    std::vector<Value> args;
    args.reserve(e.args.size() + (e.target ? 1 : 0));
    if (e.target) {
        args.push_back(eval(ctx, *e.target));
        if (args.back().is_error()) return args.back();
    }
    for (const auto& a : e.args) {
        args.push_back(eval(ctx, *a));
        if (args.back().is_error()) return args.back();
    }
    if (ctx.exhausted) return EvalContext::cost_error();
    if (!e.function) return no_such_overload(fn, args);
    ctx.call = &e;
    Value result = call_function(ctx, *e.function, args);
    ctx.call = nullptr;
    if (ctx.exhausted) return EvalContext::cost_error();
    return result;
}

Value eval_list(EvalContext& ctx, const Expr& e) {
    Value::ListItems items;
    items.reserve(e.args.size());
    for (std::size_t i = 0; i < e.args.size(); ++i) {
        Value v = eval(ctx, *e.args[i]);
        if (v.is_error()) return v;
        if (e.optional_elems[i]) {
            if (!is(v, K::Optional)) return Value::error("optional list element is not an optional: " + v.type_name());
            if (v.optional_has_value()) items.push_back(v.optional_value());
            continue;
        }
        items.push_back(std::move(v));
    }
    ctx.charge(items.size());
    return Value::list(std::move(items));
}

Value eval_map(EvalContext& ctx, const Expr& e) {
    Value::MapEntries entries;
    entries.reserve(e.entries.size());
    for (const auto& entry : e.entries) {
        Value k = eval(ctx, *entry.key);
        if (k.is_error()) return k;
        Value v = eval(ctx, *entry.value);
        if (v.is_error()) return v;
        if (entry.optional) {
            if (!is(v, K::Optional)) return Value::error("optional map entry is not an optional: " + v.type_name());
            if (!v.optional_has_value()) continue;
            v = v.optional_value();
        }
        entries.emplace_back(std::move(k), std::move(v));
    }
    ctx.charge(entries.size());
    return Value::map(std::move(entries));
}

}  // namespace

Value eval(EvalContext& ctx, const Expr& e) {
    if (!ctx.charge(1)) return EvalContext::cost_error();
    switch (e.kind) {
        case ExprKind::Literal: return e.literal;
        case ExprKind::Ident: return eval_chain(ctx, e);
        case ExprKind::Select: {
            if (!e.parts.empty()) return eval_chain(ctx, e);
            Value operand = eval(ctx, *e.target);
            if (operand.is_error()) return operand;
            if (e.optional) return select_optional(operand, e.name);
            return select_field(operand, e.name, e.test_only);
        }
        case ExprKind::Call: return eval_call(ctx, e);
        case ExprKind::List: return eval_list(ctx, e);
        case ExprKind::Map: return eval_map(ctx, e);
        case ExprKind::Struct: return Value::error("message construction is not supported: " + e.name);
        case ExprKind::Comprehension: return eval_comprehension(ctx, e);
    }
    return Value::error("unknown expression");
}

Value select_field(const Value& v, const std::string& field, bool test_only) {
    switch (v.kind()) {
        case K::Error: return v;
        case K::Map: {
            const Value* found = v.map_find(std::string_view(field));
            if (test_only) return Value::boolean(found != nullptr);
            if (!found) return Value::error("no such key: '" + field + "'");
            return *found;
        }
        case K::Optional: {
            if (!v.optional_has_value()) return test_only ? Value::boolean(false) : v;
            const Value& inner = v.optional_value();
            if (test_only) return select_field(inner, field, true);
            if (is(inner, K::Map)) {
                const Value* found = inner.map_find(std::string_view(field));
                return found ? Value::optional_of(*found) : Value::optional_none();
            }
            Value r = select_field(inner, field, false);
            return r.is_error() ? r : Value::optional_of(std::move(r));
        }
        default:
            return Value::error("type '" + v.type_name() + "' does not support field selection");
    }
}

Value select_optional(const Value& v, const std::string& field) {
    if (is(v, K::Optional)) {
        if (!v.optional_has_value()) return v;
        return select_optional(v.optional_value(), field);
    }
    if (is(v, K::Map)) {
        const Value* found = v.map_find(std::string_view(field));
        return found ? Value::optional_of(*found) : Value::optional_none();
    }
    if (v.is_error()) return v;
    return Value::error("type '" + v.type_name() + "' does not support field selection");
}

namespace {

// A list position from an int, uint or integral double; nullopt otherwise.
std::optional<std::int64_t> list_position(const Value& i) {
    switch (i.kind()) {
        case K::Int: return i.as_int();
        case K::Uint:
            if (i.as_uint() > static_cast<std::uint64_t>(INT64_MAX)) return INT64_MAX;
            return static_cast<std::int64_t>(i.as_uint());
        case K::Double: {
            const double d = i.as_double();
            if (!std::isfinite(d) || std::trunc(d) != d || std::fabs(d) > 9.0e18) return std::nullopt;
            return static_cast<std::int64_t>(d);
        }
        default: return std::nullopt;
    }
}

}  // namespace

Value index_value(const Value& c, const Value& i) {
    switch (c.kind()) {
        case K::List: {
            const auto pos = list_position(i);
            if (!pos) return Value::error("invalid_argument: list index must be an integer, got " + i.type_name());
            const auto& items = c.as_list();
            if (*pos < 0 || static_cast<std::uint64_t>(*pos) >= items.size())
                return Value::error("index out of range: " + std::to_string(*pos));
            return items[static_cast<std::size_t>(*pos)];
        }
        case K::Map: {
            const Value* found = c.map_find(i);
            if (!found) return Value::error("no such key: " + i.debug_string());
            return *found;
        }
        case K::Optional: {
            if (!c.optional_has_value()) return c;
            return index_optional(c.optional_value(), i);
        }
        default: return no_such_overload("_[_]", std::vector<Value>{c, i});
    }
}

Value index_optional(const Value& c, const Value& i) {
    switch (c.kind()) {
        case K::List: {
            const auto pos = list_position(i);
            if (!pos) return Value::error("invalid_argument: list index must be an integer, got " + i.type_name());
            const auto& items = c.as_list();
            if (*pos < 0 || static_cast<std::uint64_t>(*pos) >= items.size()) return Value::optional_none();
            return Value::optional_of(items[static_cast<std::size_t>(*pos)]);
        }
        case K::Map: {
            const Value* found = c.map_find(i);
            return found ? Value::optional_of(*found) : Value::optional_none();
        }
        case K::Optional: {
            if (!c.optional_has_value()) return c;
            return index_optional(c.optional_value(), i);
        }
        default: return no_such_overload("_[?_]", std::vector<Value>{c, i});
    }
}

bool is_type_name(std::string_view name) {
    static constexpr std::string_view kTypes[] = {
        "int", "uint", "double", "bool", "string", "bytes", "list", "map", "null_type", "type",
        "optional_type", "google.protobuf.Timestamp", "google.protobuf.Duration", "net.IP", "net.CIDR",
        "kubernetes.Quantity",
    };
    for (auto t : kTypes)
        if (t == name) return true;
    return false;
}

}  // namespace queueforge::cel
