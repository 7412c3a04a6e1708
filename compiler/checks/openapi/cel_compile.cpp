// Compiling a CRD's x-kubernetes-validations once per schema: the rule, its
// messageExpression, its fieldPath (resolved against the schema as the API
// server's ValidFieldPath does) and whether it is a transition rule.
#include "checks/openapi/cel_validation.hpp"
#include "checks/openapi/values.hpp"

#include "checks/cel/parser.hpp"

#include <variant>

namespace queueforge::openapi {

namespace {

// Whether the expression reads the variable `name` (the API server asks the
// type checker; the parsed tree tells the same for a top-level variable).
bool references(const cel::Expr& e, std::string_view name) {
    if (e.kind == cel::ExprKind::Ident && !e.absolute && e.name == name) return true;
    if (e.target && references(*e.target, name)) return true;
    for (const auto& a : e.args)
        if (a && references(*a, name)) return true;
    for (const auto& en : e.entries)
        if ((en.key && references(*en.key, name)) || (en.value && references(*en.value, name))) return true;
    return false;
}

bool uses_variable(const std::string& rule, std::string_view name) {
    cel::SyntaxError err;
    cel::ExprPtr root = cel::parse_expression(rule, cel::Options{}, err);
    return root && references(*root, name);
}

// The body of a single-quoted fieldPath segment, with its escapes resolved.
std::optional<std::string> unquote(std::string_view body) {
    std::string out;
    for (std::size_t i = 0; i < body.size(); ++i) {
        if (body[i] != '\\') {
            out += body[i];
            continue;
        }
        if (++i >= body.size()) return std::nullopt;
        switch (body[i]) {
            case 'a': out += '\a'; break;
            case 'b': out += '\b'; break;
            case 'f': out += '\f'; break;
            case 'n': out += '\n'; break;
            case 'r': out += '\r'; break;
            case 't': out += '\t'; break;
            case 'v': out += '\v'; break;
            case '\'': out += '\''; break;
            case '\\': out += '\\'; break;
            default: return std::nullopt;
        }
    }
    return out;
}

// ".a.b['c.d']" against the schema of the rule's node: each step names a
// declared property, or a key when the object is a map. An error message
// when the path is malformed or leaves the schema.
std::variant<std::vector<FieldStep>, std::string> resolve_field_path(const Schema& start, std::string_view fp) {
    std::vector<FieldStep> steps;
    const Schema* s = &start;
    std::size_t i = 0;
    auto step = [&](std::string name) -> std::string {
        if (!s->properties.empty()) {
            const Schema* sub = s->property(name);
            if (!sub) return "does not refer to a valid field";
            steps.push_back({std::move(name), false});
            s = sub;
        } else if (s->extra == Extra::Schema && s->additional) {
            steps.push_back({std::move(name), true});
            s = s->additional.get();
        } else {
            return "does not refer to a valid field";
        }
        return {};
    };
    while (i < fp.size()) {
        if (fp[i] == '.') {
            const std::size_t b = ++i;
            while (i < fp.size() && fp[i] != '.' && fp[i] != '[' && fp[i] != ']') ++i;
            if (i == b) return std::string("unexpected end of JSON path");
            if (auto err = step(std::string(fp.substr(b, i - b))); !err.empty()) return err;
        } else if (fp[i] == '[') {
            if (++i >= fp.size() || fp[i] != '\'') return std::string("expected single quoted string");
            std::size_t e = i + 1;
            while (e < fp.size() && !(fp[e] == '\'' && fp[e - 1] != '\\')) ++e;
            if (e >= fp.size()) return std::string("unexpected end of JSON path");
            auto name = unquote(fp.substr(i + 1, e - i - 1));
            if (!name) return std::string("invalid string literal");
            i = e + 1;
            if (i >= fp.size() || fp[i] != ']') return std::string("expected ]");
            ++i;
            if (auto err = step(std::move(*name)); !err.empty()) return err;
        } else {
            return "expected [ or . but got: " + std::string(fp.substr(i, 1));
        }
    }
    return steps;
}

CompiledRule compile_rule(const Schema& s, const CelEntry& c) {
    CompiledRule r;
    std::vector<std::string> problems;
    if (trim_rule_text(c.rule).empty()) {
        problems.push_back("is empty");
    } else {
        auto p = cel::compile(c.rule);
        if (auto* prog = std::get_if<cel::Program>(&p)) {
            r.program = *prog;
            r.uses_old_self = uses_variable(c.rule, "oldSelf");
        } else {
            problems.push_back("does not compile: " + std::get<cel::ParseError>(p).to_string());
        }
    }
    if (!c.message_expression.empty()) {
        auto m = cel::compile(c.message_expression);
        if (auto* prog = std::get_if<cel::Program>(&m))
            r.message = *prog;
        else
            problems.push_back("has a messageExpression that does not compile (the message is used instead): " +
                               std::get<cel::ParseError>(m).to_string());
    }
    if (!c.field_path.empty()) {
        auto fp = resolve_field_path(s, c.field_path);
        if (auto* steps = std::get_if<std::vector<FieldStep>>(&fp))
            r.field_path = std::move(*steps);
        else
            problems.push_back("has an invalid fieldPath " + go_quote(c.field_path) +
                               " (findings are reported at the rule's node instead): " + std::get<std::string>(fp));
    }
    for (const auto& p : problems) r.problem += (r.problem.empty() ? "" : "; ") + p;
    return r;
}

// Calls f(rules, node) for every schema whose rules the CEL walk evaluates,
// with the schema of the value they see: rules of allOf branches apply to
// the value of the node that has the allOf. (The API server also descends
// into properties declared inside allOf branches; such rules are not
// evaluated here.)
template <class F>
void for_each_rule_owner(const Schema& rules, const Schema& node, F& f) {
    f(rules, node);
    for (const auto& a : rules.all_of) for_each_rule_owner(*a, node, f);
}

template <class F>
void for_each_cel_node(const Schema& s, F& f) {
    if (!s.cel_below) return;
    for_each_rule_owner(s, s, f);
    for (const auto& p : s.properties) for_each_cel_node(*p.schema, f);
    if (s.items) for_each_cel_node(*s.items, f);
    if (s.additional) for_each_cel_node(*s.additional, f);
}

}  // namespace

void compile_cel(const Schema& root) {
    std::call_once(root.cel_once, [&] {
        auto f = [](const Schema& rules, const Schema& node) {
            if (rules.cel.empty() || rules.cel_compiled) return;
            auto compiled = std::make_shared<CelCompiled>();
            compiled->rules.reserve(rules.cel.size());
            for (const auto& c : rules.cel) compiled->rules.push_back(compile_rule(node, c));
            rules.cel_compiled = std::move(compiled);
        };
        for_each_cel_node(root, f);
    });
}

std::vector<CelProblem> cel_problems(const Schema& root) {
    compile_cel(root);
    std::vector<CelProblem> out;
    auto f = [&](const Schema& rules, const Schema&) {
        if (!rules.cel_compiled) return;
        for (std::size_t i = 0; i < rules.cel.size(); ++i)
            if (!rules.cel_compiled->rules[i].problem.empty())
                out.push_back(CelProblem{&rules.cel[i], rules.schema_path, rules.cel_compiled->rules[i].problem});
    };
    for_each_cel_node(root, f);
    return out;
}

}  // namespace queueforge::openapi
