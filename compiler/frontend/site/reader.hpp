#pragma once
// Typed access to a site document's fields. Each function reports a
// positioned error when the node has the wrong type and leaves the output
// untouched, so parsing goes on and finds the next problem too.
#include <queueforge/base/diagnostics.hpp>
#include <queueforge/base/names.hpp>
#include <queueforge/frontend/site.hpp>

#include <initializer_list>
#include <string>
#include <string_view>

namespace queueforge::site {

struct Reader {
    const std::string& file;
    Diagnostics& diags;
    // Rules are "<prefix>.<problem>": the same reader serves other
    // queueforge documents (timeline scenarios).
    std::string_view rule_prefix = "site";

    std::string rule(std::string_view problem) const { return std::string(rule_prefix) + "." + std::string(problem); }

    void error(Mark m, std::string msg, std::string rule) const {
        diags.error(file, m, std::move(msg), std::move(rule));
    }
    void warning(Mark m, std::string msg, std::string rule) const {
        diags.warning(file, m, std::move(msg), std::move(rule));
    }

    // True when `n` is a map; reports unknown keys (with a suggestion).
    bool expect_map(const Node& n, std::string_view what, std::initializer_list<std::string_view> known) const;
    bool expect_seq(const Node& n, std::string_view what) const;

    bool read_text(const Node* n, std::string_view what, Text& out) const;
    bool read_name(const Node* n, std::string_view what, Text& out) const;  // DNS-1123 label
    // Whether the map `n` has `key`; when not, "<what>.<key>: required" at `n`.
    bool require(const Node& n, std::string_view key, const std::string& what) const;
    bool read_int(const Node* n, std::string_view what, std::optional<Located<std::int64_t>>& out,
                  std::int64_t min, std::int64_t max) const;
    bool read_bool(const Node* n, std::string_view what, std::optional<Located<bool>>& out) const;
    bool read_enum(const Node* n, std::string_view what, Text& out,
                   std::initializer_list<std::string_view> allowed) const;
    bool read_quantity(const Node* n, std::string_view what, std::optional<Located<Quantity>>& out) const;
    // A map resource → amount. `allow_share` permits "50%".
    void read_amounts(const Node* n, std::string_view what, std::vector<Amount>& out, bool allow_share) const;
    void read_string_map(const Node* n, std::string_view what, std::vector<std::pair<Text, Text>>& out) const;
    void read_name_list(const Node* n, std::string_view what, std::vector<Text>& out) const;
    void read_text_list(const Node* n, std::string_view what, std::vector<Text>& out) const;  // strings
    // Rule ids: a list, or one comma-separated string ("V24,xref.missing-flavor").
    void read_rule_list(const Node* n, std::string_view what, std::vector<Text>& out) const;
};

// The suggestion helper lives in <queueforge/base/names.hpp>; site code and its
// other users call it as site::did_you_mean too.
using queueforge::did_you_mean;

}  // namespace queueforge::site
