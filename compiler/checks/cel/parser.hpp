#pragma once
// Recursive-descent parser for the CEL grammar (cel-spec langdef.md). Nesting
// is bounded (Options::max_nesting_depth), so hostile input yields a parse
// error rather than a stack overflow.
#include "checks/cel/ast.hpp"

#include <string>
#include <string_view>
#include <vector>

namespace queueforge::cel {

struct SyntaxError {
    std::uint32_t offset = 0;
    std::string message;
};

// nullptr on failure, with `error` filled.
ExprPtr parse_expression(std::string_view src, const Options& options, SyntaxError& error);

// Macro expansion, called by the parser for every call: global `has(x)`,
// `cel.bind(...)`, and receiver macros (all, exists, exists_one, map,
// filter, two-variable forms, optMap, optFlatMap). `matched` tells whether
// the call was a macro; `error` is set when it was malformed.
struct MacroResult {
    bool matched = false;
    ExprPtr expr;
    std::string error;
};
MacroResult expand_macro(const std::string& function, ExprPtr& target, std::vector<ExprPtr>& args, std::uint32_t offset);

}  // namespace queueforge::cel
