#pragma once
// Typed, strict reading of policy documents: every problem is an error at the
// offending line:col (rule "policy.invalid"), unknown fields come with a
// "did you mean", and CEL syntax errors point into the policy file.
#include "checks/policy/model.hpp"

#include <functional>
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace queueforge::policy {

struct DocReader {
    const std::string& file;
    std::string_view source;  // the file's text, for CEL error positions
    Diagnostics& diags;
    int errors = 0;

    void error(Mark m, std::string msg);
    // An error or warning under another rule id than "policy.invalid".
    void error(Mark m, std::string msg, std::string_view rule);
    void warning(Mark m, std::string msg, std::string_view rule);
    // True when `n` is a map; reports every key outside `known`.
    bool expect_map(const Node* n, std::string_view what, std::initializer_list<std::string_view> known);
    bool expect_seq(const Node* n, std::string_view what);
    // A string; nullopt (and an error if `required`) when absent or not a string.
    std::optional<std::string> text(const Node* map, std::string_view key, std::string_view what, bool required);
    std::vector<std::string> strings(const Node* map, std::string_view key, std::string_view what);
    // Compiles the CEL expression at map[key]; errors carry the file position.
    std::optional<Expression> expression(const Node* map, std::string_view key, std::string_view what, bool required);
    // `name`/`expression` lists (matchConditions, variables). Names are
    // required; what else a name must be is the format's rule: `accept` is
    // called for each named item in order, with the name, its path
    // ("spec.variables[2].name") and position, reports what is wrong and
    // returns whether to keep the item.
    using NameCheck = std::function<bool(const std::string& name, const std::string& path, Mark at)>;
    std::vector<NamedExpression> named_expressions(const Node* map, std::string_view key, std::string_view what,
                                                   const NameCheck& accept);
    std::optional<LabelSelector> selector(const Node* n, std::string_view what);
};

// queueforge Policy names of matchConditions and variables: CEL identifiers
// (letters, digits, _), unique in their list.
DocReader::NameCheck unique_cel_identifiers(DocReader& rd);

// Where the node is, or the fallback when it has no position.
inline Mark at(const Node* n, Mark fallback) { return n && n->mark().known() ? n->mark() : fallback; }

}  // namespace queueforge::policy
