// Parse-time macro expansion. Each macro becomes one Comprehension node that
// remembers its kind; the evaluator (comprehension.cpp) implements each kind
// directly rather than through cel-go's generic accumulator loop, which keeps
// map()/filter() linear instead of copying the accumulator every step.
#include "checks/cel/parser.hpp"

namespace queueforge::cel {
namespace {

struct MacroShape {
    std::string_view name;
    std::size_t args;  // including the iteration variable(s)
    std::size_t vars;
    MacroKind kind;
};

constexpr MacroShape kReceiverMacros[] = {
    {"all", 2, 1, MacroKind::All},
    {"exists", 2, 1, MacroKind::Exists},
    {"exists_one", 2, 1, MacroKind::ExistsOne},
    {"existsOne", 2, 1, MacroKind::ExistsOne},
    {"map", 2, 1, MacroKind::Map},
    {"map", 3, 1, MacroKind::MapFilter},
    {"filter", 2, 1, MacroKind::Filter},
    {"all", 3, 2, MacroKind::All2},
    {"exists", 3, 2, MacroKind::Exists2},
    {"exists_one", 3, 2, MacroKind::ExistsOne2},
    {"existsOne", 3, 2, MacroKind::ExistsOne2},
    {"transformList", 3, 2, MacroKind::TransformList},
    {"transformList", 4, 2, MacroKind::TransformListFilter},
    {"transformMap", 3, 2, MacroKind::TransformMap},
    {"transformMap", 4, 2, MacroKind::TransformMapFilter},
    {"transformMapEntry", 3, 2, MacroKind::TransformMapEntry},
    {"transformMapEntry", 4, 2, MacroKind::TransformMapEntryFilter},
    {"optMap", 2, 1, MacroKind::OptMap},
    {"optFlatMap", 2, 1, MacroKind::OptFlatMap},
};

bool simple_name(const ExprPtr& e) { return e && e->kind == ExprKind::Ident && !e->absolute; }

bool is_namespace(const ExprPtr& target, std::string_view ns) {
    return target && target->kind == ExprKind::Ident && !target->absolute && target->name == ns;
}

}  // namespace

MacroResult expand_macro(const std::string& function, ExprPtr& target, std::vector<ExprPtr>& args,
                         std::uint32_t offset) {
    MacroResult r;
    if (!target) {
        if (function != "has" || args.size() != 1) return r;
        r.matched = true;
        ExprPtr& arg = args[0];
        if (arg->kind != ExprKind::Select || arg->optional) {
            r.error = "invalid argument to has() macro: a field selection (x.f) is required";
            return r;
        }
        arg->test_only = true;
        r.expr = std::move(arg);
        return r;
    }

    // cel.block([e0, e1, ...], result), the optimizer's common-subexpression
    // form: cel.index(i) names slot i, cel.iterVar(i, j) and cel.accuVar(i, j)
    // name comprehension variables.
    if (is_namespace(target, "cel")) {
        if (function == "block" && args.size() == 2) {
            r.matched = true;
            if (args[0]->kind != ExprKind::List) {
                r.error = "cel.block() requires a list literal of bindings";
                return r;
            }
            auto e = make_expr(ExprKind::Comprehension, offset);
            e->macro = MacroKind::Block;
            for (auto& slot : args[0]->args) {
                e->block_slots.push_back("@index" + std::to_string(e->args.size()));
                e->args.push_back(std::move(slot));
            }
            e->args.push_back(std::move(args[1]));
            r.expr = std::move(e);
            return r;
        }
        const bool index = function == "index" && args.size() == 1;
        const bool iter = (function == "iterVar" || function == "accuVar") && args.size() == 2;
        if (index || iter) {
            r.matched = true;
            std::string name = index ? "@index" : function == "iterVar" ? "@it" : "@ac";
            for (const auto& a : args) {
                if (a->kind != ExprKind::Literal || a->literal.kind() != Value::Kind::Int || a->literal.as_int() < 0) {
                    r.error = "cel." + function + "() requires non-negative int literals";
                    return r;
                }
                name += (index ? "" : ":") + std::to_string(a->literal.as_int());
            }
            auto e = make_expr(ExprKind::Ident, offset);
            e->name = std::move(name);
            r.expr = std::move(e);
            return r;
        }
    }

    if (function == "bind" && args.size() == 3 && is_namespace(target, "cel")) {
        r.matched = true;
        if (!simple_name(args[0])) {
            r.error = "cel.bind() variable must be a simple name";
            return r;
        }
        auto e = make_expr(ExprKind::Comprehension, offset);
        e->macro = MacroKind::Bind;
        e->var = args[0]->name;
        e->target = std::move(args[1]);
        e->args.push_back(std::move(args[2]));
        r.expr = std::move(e);
        return r;
    }

    for (const auto& shape : kReceiverMacros) {
        if (shape.name != function || shape.args != args.size()) continue;
        r.matched = true;
        for (std::size_t i = 0; i < shape.vars; ++i) {
            if (!simple_name(args[i])) {
                r.error = std::string(function) + "() variable names must be simple identifiers";
                return r;
            }
        }
        auto e = make_expr(ExprKind::Comprehension, offset);
        e->macro = shape.kind;
        e->var = args[0]->name;
        if (shape.vars == 2) {
            e->var2 = args[1]->name;
            if (e->var == e->var2) {
                r.error = std::string(function) + "() variables must differ";
                return r;
            }
        }
        e->target = std::move(target);
        for (std::size_t i = shape.vars; i < args.size(); ++i) e->args.push_back(std::move(args[i]));
        r.expr = std::move(e);
        return r;
    }
    return r;
}

}  // namespace queueforge::cel
