#include "frontend/site/reader.hpp"

#include <queueforge/base/rule_ids.hpp>

#include <queueforge/base/names.hpp>

#include <algorithm>
#include <limits>

namespace queueforge::site {

namespace {

std::string got(const Node& n) {
    if (!n.is_scalar() || n.kind() == Node::Kind::Null) return Node::kind_name(n.kind());
    std::string s = std::string(Node::kind_name(n.kind())) + " \"" + n.text() + "\"";
    // Kubernetes reads YAML 1.1, where y, yes, on, off... are booleans.
    if (n.kind() == Node::Kind::Bool)
        s += " (YAML 1.1 reads y, yes, on, off... as booleans; quote the value to make it a string)";
    return s;
}

// "12.5%" -> 12,500,000 (micro percent-points); nullopt if malformed.
std::optional<std::int64_t> parse_share(std::string_view s) {
    if (s.size() < 2 || s.back() != '%') return std::nullopt;
    s.remove_suffix(1);
    std::int64_t whole = 0, frac = 0;
    int frac_digits = 0;
    bool dot = false, any = false;
    for (char c : s) {
        if (c == '.' && !dot) {
            dot = true;
            continue;
        }
        if (c < '0' || c > '9') return std::nullopt;
        any = true;
        if (!dot) {
            whole = whole * 10 + (c - '0');
            if (whole > 100000) return std::nullopt;
        } else {
            if (++frac_digits > 6) return std::nullopt;
            frac = frac * 10 + (c - '0');
        }
    }
    if (!any) return std::nullopt;
    for (int i = frac_digits; i < 6; ++i) frac *= 10;
    return whole * 1000000 + frac;
}

}  // namespace

bool Reader::expect_map(const Node& n, std::string_view what, std::initializer_list<std::string_view> known) const {
    if (!n.is_map()) {
        error(n.mark(), std::string(what) + ": expected a map, got " + got(n), rule("type"));
        return false;
    }
    for (const auto& e : n.entries()) {
        if (std::find(known.begin(), known.end(), e.key) != known.end()) continue;
        std::string msg = std::string(what) + ": unknown field \"" + e.key + "\"";
        std::string hint = did_you_mean(e.key, known);
        if (!hint.empty()) msg += "; did you mean \"" + hint + "\"?";
        error(e.key_mark(), msg, rule("unknown-field"));
    }
    return true;
}

bool Reader::expect_seq(const Node& n, std::string_view what) const {
    if (n.is_seq()) return true;
    error(n.mark(), std::string(what) + ": expected a list, got " + got(n), rule("type"));
    return false;
}

bool Reader::read_text(const Node* n, std::string_view what, Text& out) const {
    if (!n) return false;
    if (n->kind() != Node::Kind::String) {
        error(n->mark(), std::string(what) + ": expected a string, got " + got(*n), rule("type"));
        return false;
    }
    out = {n->text(), n->mark()};
    return true;
}

bool Reader::require(const Node& n, std::string_view key, const std::string& what) const {
    if (n.find(key)) return true;
    error(n.mark(), what + "." + std::string(key) + ": required", "site.required");
    return false;
}

bool Reader::read_name(const Node* n, std::string_view what, Text& out) const {
    Text t;
    if (!read_text(n, what, t)) return false;
    std::string why = check_dns1123_label(t.value);
    if (!why.empty()) {
        error(t.mark, std::string(what) + ": invalid name \"" + t.value + "\": " + why, rule("name"));
        return false;
    }
    out = std::move(t);
    return true;
}

bool Reader::read_int(const Node* n, std::string_view what, std::optional<Located<std::int64_t>>& out,
                      std::int64_t min, std::int64_t max) const {
    if (!n) return false;
    auto v = n->as_int();
    if (n->kind() != Node::Kind::Int || !v) {
        error(n->mark(), std::string(what) + ": expected an integer, got " + got(*n), rule("type"));
        return false;
    }
    if (*v < min || *v > max) {
        error(n->mark(), std::string(what) + ": " + std::to_string(*v) + " is out of range [" + std::to_string(min) +
                             ", " + std::to_string(max) + "]",
              rule("range"));
        return false;
    }
    out = Located<std::int64_t>{*v, n->mark()};
    return true;
}

bool Reader::read_bool(const Node* n, std::string_view what, std::optional<Located<bool>>& out) const {
    if (!n) return false;
    if (n->kind() != Node::Kind::Bool) {
        error(n->mark(), std::string(what) + ": expected a boolean (true or false), got " + got(*n), rule("type"));
        return false;
    }
    out = Located<bool>{n->as_bool(), n->mark()};
    return true;
}

bool Reader::read_enum(const Node* n, std::string_view what, Text& out,
                       std::initializer_list<std::string_view> allowed) const {
    Text t;
    if (!read_text(n, what, t)) return false;
    if (std::find(allowed.begin(), allowed.end(), t.value) == allowed.end()) {
        std::string msg = std::string(what) + ": unsupported value \"" + t.value + "\"; expected one of";
        for (auto a : allowed) msg += " " + std::string(a);
        std::string hint = did_you_mean(t.value, allowed);
        if (!hint.empty()) msg += "; did you mean \"" + hint + "\"?";
        error(t.mark, msg, rule("enum"));
        return false;
    }
    out = std::move(t);
    return true;
}

bool Reader::read_quantity(const Node* n, std::string_view what, std::optional<Located<Quantity>>& out) const {
    if (!n) return false;
    if (n->kind() != Node::Kind::String && n->kind() != Node::Kind::Int && n->kind() != Node::Kind::Float) {
        error(n->mark(), std::string(what) + ": expected a quantity, got " + got(*n), rule("type"));
        return false;
    }
    std::string why;
    auto q = Quantity::parse(n->text(), &why);
    if (!q) {
        error(n->mark(), std::string(what) + ": invalid quantity \"" + n->text() + "\": " + why, rule("quantity"));
        return false;
    }
    if (q->sign() < 0) {
        error(n->mark(), std::string(what) + ": quantity \"" + n->text() + "\" must not be negative", rule("quantity"));
        return false;
    }
    out = Located<Quantity>{*q, n->mark()};
    return true;
}

void Reader::read_amounts(const Node* n, std::string_view what, std::vector<Amount>& out, bool allow_share) const {
    if (!n) return;
    if (!n->is_map()) {
        error(n->mark(), std::string(what) + ": expected a map of resource name to quantity, got " + got(*n),
              rule("type"));
        return;
    }
    out.reserve(out.size() + n->entries().size());
    for (const auto& e : n->entries()) {
        std::string label = std::string(what) + "." + e.key;
        std::string why = check_qualified_name(e.key);
        if (!why.empty()) {
            error(e.key_mark(), label + ": invalid resource name: " + why, rule("resource-name"));
            continue;
        }
        Amount a;
        a.mark = e.value.mark();
        a.resource = e.key;
        a.resource_mark = e.key_mark();
        a.written = e.value.text();
        if (allow_share && e.value.kind() == Node::Kind::String && !e.value.text().empty() &&
            e.value.text().back() == '%') {
            a.share_micro_pct = parse_share(e.value.text());
            if (!a.share_micro_pct) {
                error(e.value.mark(), label + ": invalid share \"" + e.value.text() +
                                          "\"; expected a percentage such as 50% or 12.5%",
                      rule("quantity"));
                continue;
            }
            if (*a.share_micro_pct > 100 * 1000000) {
                error(e.value.mark(), label + ": share " + e.value.text() + " is more than 100% of the pool",
                      rule("quantity"));
                continue;
            }
            out.push_back(std::move(a));
            continue;
        }
        std::optional<Located<Quantity>> q;
        if (!read_quantity(&e.value, label, q)) continue;
        a.absolute = q->value;
        out.push_back(std::move(a));
    }
}

void Reader::read_string_map(const Node* n, std::string_view what, std::vector<std::pair<Text, Text>>& out) const {
    if (!n) return;
    if (!n->is_map()) {
        error(n->mark(), std::string(what) + ": expected a map of strings, got " + got(*n), rule("type"));
        return;
    }
    for (const auto& e : n->entries()) {
        Text v;
        if (!e.value.is_scalar() || e.value.is_null()) {
            error(e.value.mark(), std::string(what) + "." + e.key + ": expected a string, got " + got(e.value),
                  rule("type"));
            continue;
        }
        // Label values such as "true" or "8" are strings to Kubernetes even when written unquoted.
        v = {e.value.text(), e.value.mark()};
        out.emplace_back(Text{e.key, e.key_mark()}, std::move(v));
    }
}

void Reader::read_name_list(const Node* n, std::string_view what, std::vector<Text>& out) const {
    if (!n || !expect_seq(*n, what)) return;
    for (const auto& item : n->items()) {
        Text t;
        if (read_name(&item, what, t)) out.push_back(std::move(t));
    }
}

void Reader::read_text_list(const Node* n, std::string_view what, std::vector<Text>& out) const {
    if (!n || !expect_seq(*n, what)) return;
    for (const auto& item : n->items()) {
        Text t;
        if (read_text(&item, what, t)) out.push_back(std::move(t));
    }
}

void Reader::read_rule_list(const Node* n, std::string_view what, std::vector<Text>& out) const {
    if (!n) return;
    auto add = [&](const Node& item) {
        if (!item.is_scalar() || item.is_null() || item.text().empty()) {
            error(item.mark(), std::string(what) + ": expected rule ids, got " + got(item), rule("type"));
            return;
        }
        for (auto& id : split_rule_ids(item.text())) out.push_back({std::move(id), item.mark()});
    };
    if (n->is_seq())
        for (const auto& item : n->items()) add(item);
    else
        add(*n);
}

}  // namespace queueforge::site
