#pragma once
// The parsed expression. Operators are calls with cel-go's internal names
// (_+_, _[_], @in, ...); macros are already expanded into Comprehension
// nodes by the parser, so the evaluator never sees has()/all()/map() calls.
#include <queueforge/checks/cel.hpp>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace re2 {
class RE2;
}

namespace queueforge::cel {

struct Function;

enum class ExprKind : std::uint8_t { Literal, Ident, Select, Call, List, Map, Struct, Comprehension };

// Which macro (or binding form) a Comprehension node came from.
enum class MacroKind : std::uint8_t {
    All, Exists, ExistsOne, Map, MapFilter, Filter,
    All2, Exists2, ExistsOne2,
    TransformList, TransformListFilter, TransformMap, TransformMapFilter,
    TransformMapEntry, TransformMapEntryFilter,
    OptMap, OptFlatMap, Bind, Block,
};

struct Expr;
using ExprPtr = std::unique_ptr<Expr>;

struct MapEntryExpr {
    ExprPtr key;  // Map only; for Struct the field name is in `field`
    std::string field;
    ExprPtr value;
    bool optional = false;  // {?key: opt}
};

struct Expr {
    ExprKind kind = ExprKind::Literal;
    std::uint32_t offset = 0;  // byte offset of the node's token
    std::uint32_t height = 1;  // of the subtree; the parser bounds it

    Value literal;      // Literal
    std::string name;   // Ident name, Select field, Call function, Struct type
    bool absolute = false;   // Ident written with a leading dot: .y
    bool test_only = false;  // Select inside has()
    bool optional = false;   // Select written .?field
    ExprPtr target;          // Select operand, Call receiver, Comprehension range
    std::vector<ExprPtr> args;         // Call arguments, List elements
    std::vector<std::uint8_t> optional_elems;  // List: [?x] per element
    std::vector<MapEntryExpr> entries;  // Map and Struct

    // Comprehension: iteration variables, then the body expressions in
    // macro order (predicate / transform, or filter then transform).
    MacroKind macro = MacroKind::All;
    std::string var;
    std::string var2;
    std::vector<std::string> block_slots;  // cel.block: local names of the slots

    // Filled by the resolver (program.cpp).
    // Ident/Select chains: the dotted parts (a.b.c), and for each prefix
    // length the candidate variable names in container order.
    std::vector<std::string> parts;
    std::vector<std::vector<std::string>> candidates;
    const Function* function = nullptr;            // Call
    std::shared_ptr<const re2::RE2> regex;         // constant pattern argument
    std::string regex_error;                       // when the constant pattern is invalid
};

inline ExprPtr make_expr(ExprKind kind, std::uint32_t offset) {
    auto e = std::make_unique<Expr>();
    e->kind = kind;
    e->offset = offset;
    return e;
}

}  // namespace queueforge::cel
