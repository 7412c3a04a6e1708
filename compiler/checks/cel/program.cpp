// compile(): parse, then resolve names once (qualified identifiers and
// their container candidates, function overloads, constant regexes), so
// evaluation does no string building. Program::eval runs the tree walker.
#include "checks/cel/eval.hpp"
#include "checks/cel/parser.hpp"
#include "checks/cel/utf8.hpp"
#include "checks/cel/values.hpp"

#include <nlohmann/json.hpp>
#include <re2/re2.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <exception>
#include <limits>

namespace queueforge::cel {

struct ProgramData {
    std::string source;
    Options options;
    ExprPtr root;
};

namespace {

struct CompileFailure {
    std::uint32_t offset;
    std::string message;
};

std::vector<std::string> container_candidates(const std::string& container, const std::string& name, bool absolute) {
    std::vector<std::string> out;
    if (!absolute) {
        std::string prefix = container;
        while (!prefix.empty()) {
            out.push_back(prefix + "." + name);
            const auto dot = prefix.rfind('.');
            prefix = dot == std::string::npos ? std::string() : prefix.substr(0, dot);
        }
    }
    out.push_back(name);
    return out;
}

bool is_regex_function(const std::string& name) { return name == "matches" || name == "find" || name == "findAll"; }

class Resolver {
public:
    Resolver(const Registry& registry, const std::string& container) : registry_(registry), container_(container) {}

    void resolve(Expr& e) {
        if (e.target) resolve(*e.target);
        for (auto& a : e.args) resolve(*a);
        for (auto& en : e.entries) {
            if (en.key) resolve(*en.key);
            if (en.value) resolve(*en.value);
        }
        switch (e.kind) {
            case ExprKind::Ident:
                e.parts = {e.name};
                set_candidates(e, e.absolute);
                break;
            case ExprKind::Select:
                if (!e.optional && !e.test_only && !e.target->parts.empty()) {
                    e.parts = e.target->parts;
                    e.parts.push_back(e.name);
                    set_candidates(e, chain_is_absolute(e));
                }
                break;
            case ExprKind::Call: resolve_call(e); break;
            default: break;
        }
    }

private:
    static bool chain_is_absolute(const Expr& e) {
        const Expr* root = &e;
        while (root->kind == ExprKind::Select) root = root->target.get();
        return root->absolute;
    }

    void set_candidates(Expr& e, bool absolute) {
        e.candidates.clear();
        std::string prefix;
        for (std::size_t k = 0; k < e.parts.size(); ++k) {
            if (k) prefix += '.';
            prefix += e.parts[k];
            e.candidates.push_back(container_candidates(container_, prefix, absolute));
        }
    }

    void resolve_call(Expr& e) {
        std::string name = e.name;
        if (!name.empty() && name[0] == '.') name.erase(0, 1);
        // Namespaced functions (optional.of, strings.quote, math.greatest)
        // parse as receiver calls on an identifier chain.
        if (e.target && !e.target->parts.empty()) {
            std::string qualified;
            for (const auto& p : e.target->parts) qualified += p + ".";
            qualified += name;
            if (const Function* f = registry_.find(qualified)) {
                e.function = f;
                e.target.reset();
                return;
            }
        }
        e.function = registry_.find(name);
        if (is_regex_function(name)) precompile_regex(e);
    }

    void precompile_regex(Expr& e) {
        const std::size_t pattern_index = e.target ? 0 : 1;
        if (e.args.size() <= pattern_index) return;
        const Expr& pattern = *e.args[pattern_index];
        if (pattern.kind != ExprKind::Literal || pattern.literal.kind() != Value::Kind::String) return;
        RE2::Options opts;
        opts.set_log_errors(false);
        auto re = std::make_shared<const RE2>(pattern.literal.as_string().view(), opts);
        if (!re->ok()) throw CompileFailure{pattern.offset, "invalid regular expression: " + re->error()};
        e.regex = std::move(re);
    }

    const Registry& registry_;
    const std::string& container_;
};

void line_column(std::string_view src, std::uint32_t offset, int& line, int& column) {
    line = 1;
    std::size_t line_start = 0;
    const std::size_t end = std::min<std::size_t>(offset, src.size());
    for (std::size_t i = 0; i < end; ++i) {
        if (src[i] == '\n') {
            ++line;
            line_start = i + 1;
        }
    }
    std::string_view prefix = src.substr(line_start, end - line_start);
    column = static_cast<int>(utf8::valid(prefix) ? utf8::length(prefix) : prefix.size()) + 1;
}

ParseError make_error(std::string_view src, std::uint32_t offset, std::string message) {
    ParseError err;
    line_column(src, offset, err.line, err.column);
    err.message = std::move(message);
    return err;
}

// Documents deeper than this are refused: conversion, comparison and
// destruction of values recurse on their depth.
constexpr int kMaxDocumentDepth = 1000;

Value too_deep() { return Value::error("document nesting exceeds " + std::to_string(kMaxDocumentDepth) + " levels"); }

template <typename Json>
Value json_to_value(const Json& j, int depth) {
    if (depth > kMaxDocumentDepth) return too_deep();
    switch (j.type()) {
        case Json::value_t::null: return Value::null();
        case Json::value_t::boolean: return Value::boolean(j.template get<bool>());
        case Json::value_t::number_integer: return Value::integer(j.template get<std::int64_t>());
        case Json::value_t::number_unsigned: {
            const auto u = j.template get<std::uint64_t>();
            if (u <= static_cast<std::uint64_t>(INT64_MAX)) return Value::integer(static_cast<std::int64_t>(u));
            return Value::uinteger(u);
        }
        case Json::value_t::number_float: return Value::dbl(j.template get<double>());
        case Json::value_t::string: return Value::string(j.template get<std::string>());
        case Json::value_t::array: {
            Value::ListItems items;
            items.reserve(j.size());
            for (const auto& item : j) {
                items.push_back(json_to_value(item, depth + 1));
                if (items.back().is_error()) return items.back();
            }
            return Value::list(std::move(items));
        }
        case Json::value_t::object: {
            Value::MapEntries entries;
            entries.reserve(j.size());
            for (auto it = j.begin(); it != j.end(); ++it)
                entries.emplace_back(Value::string(it.key()), json_to_value(it.value(), depth + 1));
            return Value::map(std::move(entries));
        }
        case Json::value_t::binary: {
            const auto& bin = j.get_binary();
            return Value::bytes(std::string(bin.begin(), bin.end()));
        }
        default: return Value::error("unsupported JSON value");
    }
}

Value float_from_text(const std::string& text) {
    std::string lower;
    for (char c : text) lower += static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
    if (lower == ".nan") return Value::dbl(std::numeric_limits<double>::quiet_NaN());
    if (lower == ".inf" || lower == "+.inf") return Value::dbl(std::numeric_limits<double>::infinity());
    if (lower == "-.inf") return Value::dbl(-std::numeric_limits<double>::infinity());
    char* end = nullptr;
    const double d = std::strtod(text.c_str(), &end);
    if (end == text.c_str()) return Value::string(text);
    return Value::dbl(d);
}

}  // namespace

std::string ParseError::to_string() const {
    return std::to_string(line) + ":" + std::to_string(column) + ": " + message;
}

std::variant<Program, ParseError> compile(std::string_view expression, const Options& options) {
    try {
        if (expression.size() > options.max_expression_bytes)
            return ParseError{1, 1, "expression is " + std::to_string(expression.size()) + " bytes, over the limit of " +
                                        std::to_string(options.max_expression_bytes)};
        if (!utf8::valid(expression)) return ParseError{1, 1, "expression is not valid UTF-8"};
        SyntaxError syntax;
        ExprPtr root = parse_expression(expression, options, syntax);
        if (!root) return make_error(expression, syntax.offset, syntax.message);
        Resolver(standard_registry(), options.container).resolve(*root);
        auto data = std::make_shared<ProgramData>();
        data->source = std::string(expression);
        data->options = options;
        data->root = std::move(root);
        return Program(std::move(data));
    } catch (const CompileFailure& f) {
        return make_error(expression, f.offset, f.message);
    } catch (const std::exception& ex) {
        return ParseError{1, 1, std::string("internal error: ") + ex.what()};
    }
}

Value Program::eval(const Activation& activation, const EvalOptions& options, EvalStats* stats) const {
    EvalContext ctx(activation, options.cost_limit, options.kind_index);
    Value result;
    try {
        result = cel::eval(ctx, *data_->root);
        if (ctx.exhausted) result = EvalContext::cost_error();
    } catch (const std::exception& ex) {
        result = Value::error(std::string("internal error: ") + ex.what());
    }
    if (stats) stats->cost = ctx.cost;
    return result;
}

const std::string& Program::source() const { return data_->source; }

namespace {

Value node_to_value(const Node& n, int depth) {
    if (depth > kMaxDocumentDepth) return too_deep();
    switch (n.kind()) {
        case Node::Kind::Null: return Value::null();
        case Node::Kind::Bool: return Value::boolean(n.as_bool());
        case Node::Kind::Int: {
            if (auto i = n.as_int()) return Value::integer(*i);
            char* end = nullptr;
            const std::string& t = n.text();
            errno = 0;
            const unsigned long long u = std::strtoull(t.c_str(), &end, 10);
            if (errno == 0 && end && *end == '\0' && !t.empty() && t[0] != '-') return Value::uinteger(u);
            return float_from_text(t);
        }
        case Node::Kind::Float: return float_from_text(n.text());
        case Node::Kind::String: return Value::string(n.text());
        case Node::Kind::Seq: {
            Value::ListItems items;
            items.reserve(n.items().size());
            for (const auto& item : n.items()) {
                items.push_back(node_to_value(item, depth + 1));
                if (items.back().is_error()) return items.back();
            }
            return Value::list(std::move(items));
        }
        case Node::Kind::Map: {
            Value::MapEntries entries;
            entries.reserve(n.entries().size());
            for (const auto& en : n.entries()) entries.emplace_back(Value::string(en.key), node_to_value(en.value, depth + 1));
            return Value::map(std::move(entries));
        }
    }
    return Value::null();
}

}  // namespace

Value from_json(const nlohmann::json& j) { return json_to_value(j, 0); }
Value from_json(const nlohmann::ordered_json& j) { return json_to_value(j, 0); }
Value from_node(const Node& n) { return node_to_value(n, 0); }

}  // namespace queueforge::cel
