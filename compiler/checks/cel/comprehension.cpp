// Evaluation of macro comprehensions and cel.bind. Semantics follow cel-go's
// expansions: all/exists short-circuit on a decisive result and otherwise
// report the first error; exists_one, map and filter are exhaustive and fail
// on the first error.
#include "checks/cel/eval.hpp"

#include "checks/cel/values.hpp"

#include <algorithm>
#include <iterator>
#include <optional>

namespace queueforge::cel {
namespace {

using K = Value::Kind;

// Pushes comprehension variables for the lifetime of one iteration.
class Scope {
public:
    explicit Scope(EvalContext& ctx) : ctx_(ctx), size_(ctx.locals.size()) {}
    ~Scope() { ctx_.locals.resize(size_); }
    Scope(const Scope&) = delete;
    Scope& operator=(const Scope&) = delete;
    void bind(const std::string& name, Value v) { ctx_.locals.emplace_back(&name, std::move(v)); }

private:
    EvalContext& ctx_;
    std::size_t size_;
};

// One step of iteration: the first variable is the element (one-variable
// forms over lists), the key (maps) or the index (two-variable forms over
// lists); the second is the value.
struct Element {
    Value first;
    Value second;
};

std::size_t range_size(const Value& range) {
    return is(range, K::List) ? range.as_list().size() : range.map_entries().size();
}

Element element_at(const Value& range, std::size_t i, bool two_vars) {
    if (is(range, K::List)) {
        const Value& item = range.as_list()[i];
        if (two_vars) return {Value::integer(static_cast<std::int64_t>(i)), item};
        return {item, Value()};
    }
    const auto& [k, v] = range.map_entries()[i];
    return {k, two_vars ? v : Value()};
}

Value bad_predicate(const Value& v) {
    return v.is_error() ? v : Value::error("no matching overload: predicate returned " + v.type_name());
}

Value eval_optional_macro(EvalContext& ctx, const Expr& e, const Value& range) {
    if (!is(range, K::Optional)) return no_such_overload(e.macro == MacroKind::OptMap ? "optMap" : "optFlatMap", std::vector<Value>{range});
    if (!range.optional_has_value()) return range;
    Scope scope(ctx);
    scope.bind(e.var, range.optional_value());
    Value r = eval(ctx, *e.args[0]);
    if (r.is_error()) return r;
    if (e.macro == MacroKind::OptMap) return Value::optional_of(std::move(r));
    if (!is(r, K::Optional)) return Value::error("optFlatMap() expression must return an optional, got " + r.type_name());
    return r;
}

// `var.kind == 'K'` (either side), the literal K.
const CompactString* kind_test(const Expr& p, const std::string& var) {
    if (p.kind != ExprKind::Call || p.target || p.name != "_==_" || p.args.size() != 2) return nullptr;
    auto is_kind_of_var = [&](const Expr& x) {
        return x.kind == ExprKind::Select && x.name == "kind" && !x.optional && !x.test_only && x.target &&
               x.target->kind == ExprKind::Ident && x.target->name == var && !x.target->absolute;
    };
    auto is_text = [](const Expr& x) { return x.kind == ExprKind::Literal && is(x.literal, K::String); };
    if (is_kind_of_var(*p.args[0]) && is_text(*p.args[1])) return &p.args[1]->literal.as_string();
    if (is_kind_of_var(*p.args[1]) && is_text(*p.args[0])) return &p.args[0]->literal.as_string();
    return nullptr;
}

// The kind a predicate requires of its element: a kind test that is the
// predicate or one of the conjuncts of its `&&` chain.
const CompactString* required_kind(const Expr& p, const std::string& var, int depth = 0) {
    if (const CompactString* k = kind_test(p, var)) return k;
    if (depth > 64 || p.kind != ExprKind::Call || p.target || p.name != "_&&_" || p.args.size() != 2) return nullptr;
    if (const CompactString* k = required_kind(*p.args[0], var, depth + 1)) return k;
    return required_kind(*p.args[1], var, depth + 1);
}

// The positions of `range` a comprehension needs to visit when a kind index
// covers it (EvalOptions::kind_index): the elements of the required kind and
// those without a string kind, in list order. nullopt: every position.
std::optional<std::vector<std::uint32_t>> indexed_positions(const EvalContext& ctx, const Expr& e, const Value& range) {
    const KindIndex* index = ctx.kind_index;
    if (!index || !is(range, K::List) || range.identity() != index->list || !e.var2.empty()) return std::nullopt;
    if (e.macro != MacroKind::Filter && e.macro != MacroKind::Exists && e.macro != MacroKind::ExistsOne &&
        e.macro != MacroKind::MapFilter)
        return std::nullopt;
    const CompactString* kind = required_kind(*e.args[0], e.var);
    if (!kind) return std::nullopt;
    static const std::vector<std::uint32_t> none;
    auto it = index->by_kind.find(*kind);
    const auto& of_kind = it == index->by_kind.end() ? none : it->second;
    std::vector<std::uint32_t> out;
    out.reserve(of_kind.size() + index->other.size());
    std::merge(of_kind.begin(), of_kind.end(), index->other.begin(), index->other.end(), std::back_inserter(out));
    return out;
}

}  // namespace

Value eval_comprehension(EvalContext& ctx, const Expr& e) {
    if (e.macro == MacroKind::Block) {
        // Slots see the earlier ones; an erroneous slot only matters if used.
        Scope scope(ctx);
        for (std::size_t i = 0; i < e.block_slots.size(); ++i) {
            Value v = eval(ctx, *e.args[i]);
            if (ctx.exhausted) return EvalContext::cost_error();
            scope.bind(e.block_slots[i], std::move(v));
        }
        return eval(ctx, *e.args.back());
    }
    Value range = eval(ctx, *e.target);
    if (ctx.exhausted) return EvalContext::cost_error();

    if (e.macro == MacroKind::Bind) {
        // The bound value may be an error; it only matters if it is used.
        Scope scope(ctx);
        scope.bind(e.var, std::move(range));
        return eval(ctx, *e.args[0]);
    }
    if (range.is_error()) return range;
    if (e.macro == MacroKind::OptMap || e.macro == MacroKind::OptFlatMap) return eval_optional_macro(ctx, e, range);

    const bool two_vars = !e.var2.empty();
    if (!is(range, K::List) && !is(range, K::Map))
        return Value::error("cannot iterate over a value of type " + range.type_name());
    // Either every position, or the ones a kind index leaves.
    const std::optional<std::vector<std::uint32_t>> positions = indexed_positions(ctx, e, range);
    const std::size_t n = positions ? positions->size() : range_size(range);
    auto at = [&](std::size_t i) { return positions ? std::size_t{(*positions)[i]} : i; };

    auto step = [&](const Element& el, const Expr& body) {
        Scope scope(ctx);
        scope.bind(e.var, el.first);
        if (two_vars) scope.bind(e.var2, el.second);
        return eval(ctx, body);
    };

    switch (e.macro) {
        case MacroKind::All:
        case MacroKind::All2:
        case MacroKind::Exists:
        case MacroKind::Exists2: {
            const bool is_all = e.macro == MacroKind::All || e.macro == MacroKind::All2;
            std::optional<Value> first_error;
            for (std::size_t i = 0; i < n; ++i) {
                if (!ctx.charge(1)) return EvalContext::cost_error();
                const Element el = element_at(range, at(i), two_vars);
                Value r = step(el, *e.args[0]);
                if (ctx.exhausted) return EvalContext::cost_error();
                if (is(r, K::Bool)) {
                    if (r.as_bool() != is_all) return r;
                } else if (!first_error) {
                    first_error = bad_predicate(r);
                }
            }
            if (first_error) return *first_error;
            return Value::boolean(is_all);
        }
        case MacroKind::ExistsOne:
        case MacroKind::ExistsOne2: {
            std::size_t count = 0;
            for (std::size_t i = 0; i < n; ++i) {
                if (!ctx.charge(1)) return EvalContext::cost_error();
                const Element el = element_at(range, at(i), two_vars);
                Value r = step(el, *e.args[0]);
                if (!is(r, K::Bool)) return bad_predicate(r);
                if (r.as_bool()) ++count;
            }
            return Value::boolean(count == 1);
        }
        case MacroKind::Map:
        case MacroKind::MapFilter:
        case MacroKind::Filter:
        case MacroKind::TransformList:
        case MacroKind::TransformListFilter: {
            const bool filtered = e.macro == MacroKind::MapFilter || e.macro == MacroKind::TransformListFilter;
            Value::ListItems out;
            for (std::size_t i = 0; i < n; ++i) {
                if (!ctx.charge(1)) return EvalContext::cost_error();
                const Element el = element_at(range, at(i), two_vars);
                if (filtered || e.macro == MacroKind::Filter) {
                    Value keep = step(el, *e.args[0]);
                    if (!is(keep, K::Bool)) return bad_predicate(keep);
                    if (!keep.as_bool()) continue;
                    if (e.macro == MacroKind::Filter) {
                        out.push_back(el.first);
                        continue;
                    }
                }
                Value r = step(el, *e.args[filtered ? 1 : 0]);
                if (r.is_error()) return r;
                out.push_back(std::move(r));
            }
            return Value::list(std::move(out));
        }
        case MacroKind::TransformMap:
        case MacroKind::TransformMapFilter:
        case MacroKind::TransformMapEntry:
        case MacroKind::TransformMapEntryFilter: {
            const bool filtered = e.macro == MacroKind::TransformMapFilter || e.macro == MacroKind::TransformMapEntryFilter;
            const bool entry_form = e.macro == MacroKind::TransformMapEntry || e.macro == MacroKind::TransformMapEntryFilter;
            Value::MapEntries out;
            for (std::size_t i = 0; i < n; ++i) {
                if (!ctx.charge(1)) return EvalContext::cost_error();
                const Element el = element_at(range, at(i), two_vars);
                if (filtered) {
                    Value keep = step(el, *e.args[0]);
                    if (!is(keep, K::Bool)) return bad_predicate(keep);
                    if (!keep.as_bool()) continue;
                }
                Value r = step(el, *e.args[filtered ? 1 : 0]);
                if (r.is_error()) return r;
                if (!entry_form) {
                    out.emplace_back(el.first, std::move(r));
                    continue;
                }
                if (!is(r, K::Map)) return Value::error("transformMapEntry() expression must return a map, got " + r.type_name());
                for (const auto& kv : r.map_entries()) out.push_back(kv);
            }
            // Value::map reports repeated keys from transformMapEntry.
            return Value::map(std::move(out));
        }
        default: return Value::error("unsupported comprehension");
    }
}

}  // namespace queueforge::cel
