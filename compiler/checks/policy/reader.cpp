#include "checks/policy/reader.hpp"

#include "checks/policy/expr_position.hpp"
#include "frontend/site/reader.hpp"

#include <memory>
#include <set>

namespace queueforge::policy {

namespace {

bool cel_identifier(std::string_view s) {
    if (s.empty()) return false;
    for (std::size_t i = 0; i < s.size(); ++i) {
        const char c = s[i];
        const bool letter = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
        if (!letter && !(i > 0 && c >= '0' && c <= '9')) return false;
    }
    return true;
}

}  // namespace

void DocReader::error(Mark m, std::string msg) { error(m, std::move(msg), "policy.invalid"); }

void DocReader::error(Mark m, std::string msg, std::string_view rule) {
    ++errors;
    diags.error(file, m, std::move(msg), std::string(rule));
}

void DocReader::warning(Mark m, std::string msg, std::string_view rule) {
    diags.warning(file, m, std::move(msg), std::string(rule));
}

bool DocReader::expect_map(const Node* n, std::string_view what, std::initializer_list<std::string_view> known) {
    if (!n || !n->is_map()) {
        error(n ? n->mark() : Mark{}, std::string(what) + ": expected a map, got " +
                                          (n ? Node::kind_name(n->kind()) : "nothing"));
        return false;
    }
    for (const auto& e : n->entries()) {
        bool ok = false;
        for (auto k : known) ok = ok || k == e.key;
        if (ok) continue;
        std::string msg = std::string(what) + ": unknown field \"" + e.key + "\"";
        std::string hint = site::did_you_mean(e.key, known);
        if (!hint.empty()) msg += "; did you mean \"" + hint + "\"?";
        error(e.key_mark(), msg);
    }
    return true;
}

bool DocReader::expect_seq(const Node* n, std::string_view what) {
    if (n && n->is_seq()) return true;
    error(n ? n->mark() : Mark{}, std::string(what) + ": expected a list, got " + (n ? Node::kind_name(n->kind()) : "nothing"));
    return false;
}

std::optional<std::string> DocReader::text(const Node* map, std::string_view key, std::string_view what, bool required) {
    const Node* n = map ? map->find(key) : nullptr;
    if (!n || n->is_null()) {
        if (required) error(map ? map->mark() : Mark{}, std::string(what) + ": " + std::string(key) + " is required");
        return std::nullopt;
    }
    if (!n->is_scalar() || n->is_null()) {
        error(n->mark(), std::string(what) + "." + std::string(key) + ": expected a string, got " + Node::kind_name(n->kind()));
        return std::nullopt;
    }
    return n->text();
}

std::vector<std::string> DocReader::strings(const Node* map, std::string_view key, std::string_view what) {
    std::vector<std::string> out;
    const Node* n = map ? map->find(key) : nullptr;
    if (!n || n->is_null()) return out;
    const std::string path = std::string(what) + "." + std::string(key);
    if (!expect_seq(n, path)) return out;
    for (const auto& item : n->items()) {
        if (item.is_scalar() && !item.is_null()) out.push_back(item.text());
        else error(item.mark(), path + ": expected strings, got " + Node::kind_name(item.kind()));
    }
    return out;
}

std::optional<Expression> DocReader::expression(const Node* map, std::string_view key, std::string_view what,
                                                bool required) {
    auto src = text(map, key, what, required);
    if (!src) return std::nullopt;
    const Node* n = map->find(key);
    const std::string path = std::string(what) + "." + std::string(key);
    auto compiled = cel::compile(*src);
    if (auto* e = std::get_if<cel::ParseError>(&compiled)) {
        error(position_in_scalar(source, n->mark(), e->line, e->column), path + ": " + e->message);
        return std::nullopt;
    }
    return Expression{*src, std::get<cel::Program>(std::move(compiled)), n->mark()};
}

std::vector<NamedExpression> DocReader::named_expressions(const Node* map, std::string_view key, std::string_view what,
                                                         const NameCheck& accept) {
    std::vector<NamedExpression> out;
    const Node* list = map ? map->find(key) : nullptr;
    if (!list || list->is_null()) return out;
    const std::string base = std::string(what) + "." + std::string(key);
    if (!expect_seq(list, base)) return out;
    for (std::size_t i = 0; i < list->items().size(); ++i) {
        const Node& item = list->items()[i];
        const std::string path = base + "[" + std::to_string(i) + "]";
        if (!expect_map(&item, path, {"name", "expression"})) continue;
        auto name = text(&item, "name", path, true);
        auto expr = expression(&item, "expression", path, true);
        if (!name) continue;
        if (!accept(*name, path + ".name", item.find("name")->mark()) || !expr) continue;
        out.push_back({*name, std::move(*expr), "variables." + *name});
    }
    return out;
}

DocReader::NameCheck unique_cel_identifiers(DocReader& rd) {
    auto seen = std::make_shared<std::set<std::string>>();
    return [&rd, seen](const std::string& name, const std::string& path, Mark at) {
        if (!cel_identifier(name)) {
            rd.error(at, path + ": \"" + name + "\" is not a CEL identifier (letters, digits, _)");
            return false;
        }
        if (!seen->insert(name).second) {
            rd.error(at, path + ": \"" + name + "\" is given twice");
            return false;
        }
        return true;
    };
}

std::optional<LabelSelector> DocReader::selector(const Node* n, std::string_view what) {
    if (!n || n->is_null()) return std::nullopt;
    if (!expect_map(n, what, {"matchLabels", "matchExpressions"})) return std::nullopt;
    LabelSelector s;
    const std::string base(what);
    if (const Node* ml = n->find("matchLabels"); ml && !ml->is_null()) {
        if (!ml->is_map()) error(ml->mark(), base + ".matchLabels: expected a map");
        else
            for (const auto& e : ml->entries()) {
                if (e.value.is_scalar() && !e.value.is_null()) s.match_labels[e.key] = e.value.text();
                else error(e.value.mark(), base + ".matchLabels." + e.key + ": expected a string");
            }
    }
    if (const Node* me = n->find("matchExpressions"); me && !me->is_null() && expect_seq(me, base + ".matchExpressions")) {
        for (std::size_t i = 0; i < me->items().size(); ++i) {
            const Node& item = me->items()[i];
            const std::string path = base + ".matchExpressions[" + std::to_string(i) + "]";
            if (!expect_map(&item, path, {"key", "operator", "values"})) continue;
            auto key = text(&item, "key", path, true);
            auto op = text(&item, "operator", path, true);
            if (!key || !op) continue;
            Requirement r{*key, *op, strings(&item, "values", path)};
            const bool needs_values = r.op == "In" || r.op == "NotIn";
            if (!needs_values && r.op != "Exists" && r.op != "DoesNotExist")
                error(item.find("operator")->mark(), path + ".operator: \"" + r.op + "\" is not In, NotIn, Exists or DoesNotExist");
            else if (needs_values && r.values.empty())
                error(item.mark(), path + ".values: must be non-empty when operator is " + r.op);
            else if (!needs_values && !r.values.empty())
                error(item.find("values")->mark(), path + ".values: must be empty when operator is " + r.op);
            else s.expressions.push_back(std::move(r));
        }
    }
    return s;
}

}  // namespace queueforge::policy
