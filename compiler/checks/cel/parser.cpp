#include "checks/cel/parser.hpp"

#include "checks/cel/lexer.hpp"

#include <algorithm>
#include <array>
#include <charconv>
#include <cstdlib>
#include <limits>

namespace queueforge::cel {
namespace {

// Words CEL reserves for future use: never identifiers, though they may be
// field names after a dot and receiver function names.
constexpr std::array<std::string_view, 17> kReserved = {
    "as", "break", "const", "continue", "else", "for", "function", "if", "import",
    "let", "loop", "package", "namespace", "return", "var", "void", "while",
};

bool is_reserved(std::string_view w) {
    for (auto r : kReserved)
        if (r == w) return true;
    return false;
}

// A failed parse unwinds through every level at once.
struct Abort {};

class Parser {
public:
    Parser(std::vector<Token> tokens, const Options& opts, SyntaxError& err)
        : toks_(std::move(tokens)), opts_(opts), err_(err) {}

    ExprPtr run() {
        try {
            ExprPtr e = parse_expr();
            if (peek().kind != Tok::End) fail_expected("end of expression or operator");
            return e;
        } catch (const Abort&) {
            return nullptr;
        }
    }

private:
    const Token& peek(std::size_t ahead = 0) const {
        const std::size_t i = pos_ + ahead;
        return i < toks_.size() ? toks_[i] : toks_.back();
    }
    const Token& advance() {
        const Token& t = toks_[pos_];
        if (pos_ + 1 < toks_.size()) ++pos_;
        return t;
    }
    bool accept(Tok k) {
        if (peek().kind != k) return false;
        advance();
        return true;
    }

    [[noreturn]] void fail_at(std::uint32_t offset, std::string message) {
        err_.offset = offset;
        err_.message = std::move(message);
        throw Abort{};
    }
    [[noreturn]] void fail_expected(const std::string& what) {
        const Token& t = peek();
        std::string found = token_name(t.kind);
        if (t.kind == Tok::Ident) found = "'" + t.text + "'";
        fail_at(t.offset, "Syntax error: expected " + what + " but found " + found);
    }
    const Token& expect(Tok k) {
        if (peek().kind != k) fail_expected(token_name(k));
        return advance();
    }

    struct DepthGuard {
        Parser& p;
        explicit DepthGuard(Parser& parser, std::uint32_t offset) : p(parser) {
            if (++p.depth_ > p.opts_.max_nesting_depth)
                p.fail_at(offset, "expression nesting exceeds the limit of " + std::to_string(p.opts_.max_nesting_depth));
        }
        ~DepthGuard() { --p.depth_; }
    };

    ExprPtr call(std::string fn, std::uint32_t offset, ExprPtr a, ExprPtr b = nullptr, ExprPtr c = nullptr) {
        auto e = make_expr(ExprKind::Call, offset);
        e->name = std::move(fn);
        e->args.push_back(std::move(a));
        if (b) e->args.push_back(std::move(b));
        if (c) e->args.push_back(std::move(c));
        return done(std::move(e));
    }

    // Operator chains (a + b + c ...) are parsed by loops, not recursion, so
    // the height of the tree is bounded here: the evaluator, and the
    // destructors, recurse on it.
    ExprPtr done(ExprPtr e) {
        std::uint32_t h = 0;
        if (e->target) h = std::max(h, e->target->height);
        for (const auto& a : e->args) h = std::max(h, a->height);
        for (const auto& en : e->entries) {
            if (en.key) h = std::max(h, en.key->height);
            if (en.value) h = std::max(h, en.value->height);
        }
        e->height = h + 1;
        if (e->height > static_cast<std::uint32_t>(opts_.max_nesting_depth) * 4)
            fail_at(e->offset, "expression nesting exceeds the limit of " + std::to_string(opts_.max_nesting_depth));
        return e;
    }

    // Expr = ConditionalOr ["?" ConditionalOr ":" Expr]
    ExprPtr parse_expr() {
        DepthGuard guard(*this, peek().offset);
        ExprPtr cond = parse_logical(Tok::Or);
        if (peek().kind != Tok::Question) return cond;
        const std::uint32_t at = advance().offset;
        ExprPtr yes = parse_logical(Tok::Or);
        expect(Tok::Colon);
        ExprPtr no = parse_expr();
        return call("_?_:_", at, std::move(cond), std::move(yes), std::move(no));
    }

    // Chains of || and && are built as balanced trees: they are associative
    // (and commutative for errors), and a balanced tree keeps long chains
    // shallow for the evaluator.
    ExprPtr parse_logical(Tok op) {
        std::vector<ExprPtr> operands;
        std::vector<std::uint32_t> offsets;
        operands.push_back(op == Tok::Or ? parse_logical(Tok::And) : parse_relation());
        while (peek().kind == op) {
            offsets.push_back(advance().offset);
            operands.push_back(op == Tok::Or ? parse_logical(Tok::And) : parse_relation());
        }
        if (operands.size() == 1) return std::move(operands[0]);
        return balance(op == Tok::Or ? "_||_" : "_&&_", operands, offsets, 0, operands.size());
    }

    ExprPtr balance(const char* fn, std::vector<ExprPtr>& ops, const std::vector<std::uint32_t>& offsets,
                    std::size_t lo, std::size_t hi) {
        if (hi - lo == 1) return std::move(ops[lo]);
        const std::size_t mid = (lo + hi) / 2;
        ExprPtr left = balance(fn, ops, offsets, lo, mid);
        ExprPtr right = balance(fn, ops, offsets, mid, hi);
        return call(fn, offsets[mid - 1], std::move(left), std::move(right));
    }

    ExprPtr parse_relation() {
        ExprPtr left = parse_addition();
        while (true) {
            const char* fn = nullptr;
            switch (peek().kind) {
                case Tok::Lt: fn = "_<_"; break;
                case Tok::Le: fn = "_<=_"; break;
                case Tok::Gt: fn = "_>_"; break;
                case Tok::Ge: fn = "_>=_"; break;
                case Tok::Eq: fn = "_==_"; break;
                case Tok::Ne: fn = "_!=_"; break;
                case Tok::In: fn = "@in"; break;
                default: return left;
            }
            const std::uint32_t at = advance().offset;
            left = call(fn, at, std::move(left), parse_addition());
        }
    }

    ExprPtr parse_addition() {
        ExprPtr left = parse_multiplication();
        while (peek().kind == Tok::Plus || peek().kind == Tok::Minus) {
            const Token& t = advance();
            left = call(t.kind == Tok::Plus ? "_+_" : "_-_", t.offset, std::move(left), parse_multiplication());
        }
        return left;
    }

    ExprPtr parse_multiplication() {
        ExprPtr left = parse_unary();
        while (peek().kind == Tok::Star || peek().kind == Tok::Slash || peek().kind == Tok::Percent) {
            const Token& t = advance();
            const char* fn = t.kind == Tok::Star ? "_*_" : t.kind == Tok::Slash ? "_/_" : "_%_";
            left = call(fn, t.offset, std::move(left), parse_unary());
        }
        return left;
    }

    ExprPtr parse_unary() {
        if (peek().kind == Tok::Not) {
            std::vector<std::uint32_t> ops;
            while (peek().kind == Tok::Not) ops.push_back(advance().offset);
            return wrap_unary("!_", parse_member(), ops);
        }
        if (peek().kind == Tok::Minus) {
            std::vector<std::uint32_t> ops;
            while (peek().kind == Tok::Minus) ops.push_back(advance().offset);
            ExprPtr e;
            // A minus directly before a number belongs to the literal, as in
            // the CEL grammar; that is how -9223372036854775808 is an int.
            if (peek().kind == Tok::Int || peek().kind == Tok::Double) {
                const std::uint32_t at = ops.back();
                ops.pop_back();
                e = parse_member_suffix(parse_number(advance(), true, at));
            } else {
                e = parse_member();
            }
            return wrap_unary("-_", std::move(e), ops);
        }
        return parse_member();
    }

    ExprPtr wrap_unary(const char* fn, ExprPtr e, const std::vector<std::uint32_t>& ops) {
        for (auto it = ops.rbegin(); it != ops.rend(); ++it) e = call(fn, *it, std::move(e));
        return e;
    }

    ExprPtr parse_member() { return parse_member_suffix(parse_primary()); }

    static bool is_ident_chain(const Expr& e) {
        if (e.kind == ExprKind::Ident) return true;
        return e.kind == ExprKind::Select && !e.optional && !e.test_only && e.target && is_ident_chain(*e.target);
    }

    static std::string chain_name(const Expr& e) {
        if (e.kind == ExprKind::Ident) return (e.absolute ? "." : "") + e.name;
        return chain_name(*e.target) + "." + e.name;
    }

    ExprPtr parse_member_suffix(ExprPtr e) {
        while (true) {
            const Tok k = peek().kind;
            if (k == Tok::Dot) {
                const std::uint32_t at = advance().offset;
                const bool opt = accept(Tok::Question);
                const Token& name = peek();
                if (name.kind != Tok::Ident && name.kind != Tok::QuotedIdent && name.kind != Tok::True &&
                    name.kind != Tok::False && name.kind != Tok::Null && name.kind != Tok::In)
                    fail_expected("field name after '.'");
                advance();
                std::string field = name.text;
                if (name.kind == Tok::True) field = "true";
                else if (name.kind == Tok::False) field = "false";
                else if (name.kind == Tok::Null) field = "null";
                else if (name.kind == Tok::In) field = "in";
                if (!opt && name.kind != Tok::QuotedIdent && peek().kind == Tok::LParen) {
                    advance();
                    std::vector<ExprPtr> args = parse_args(Tok::RParen);
                    e = make_call(std::move(field), name.offset, std::move(e), std::move(args));
                    continue;
                }
                auto sel = make_expr(ExprKind::Select, at);
                sel->name = std::move(field);
                sel->optional = opt;
                sel->target = std::move(e);
                e = done(std::move(sel));
            } else if (k == Tok::LBracket) {
                const std::uint32_t at = advance().offset;
                const bool opt = accept(Tok::Question);
                ExprPtr index = parse_expr();
                expect(Tok::RBracket);
                e = call(opt ? "_[?_]" : "_[_]", at, std::move(e), std::move(index));
            } else if (k == Tok::LBrace && is_ident_chain(*e)) {
                e = parse_struct(std::move(e));
            } else {
                return e;
            }
        }
    }

    ExprPtr make_call(std::string fn, std::uint32_t offset, ExprPtr target, std::vector<ExprPtr> args) {
        MacroResult m = expand_macro(fn, target, args, offset);
        if (m.matched) {
            if (!m.error.empty()) fail_at(offset, m.error);
            return done(std::move(m.expr));
        }
        auto e = make_expr(ExprKind::Call, offset);
        e->name = std::move(fn);
        e->target = std::move(target);
        e->args = std::move(args);
        return done(std::move(e));
    }

    std::vector<ExprPtr> parse_args(Tok close) {
        std::vector<ExprPtr> args;
        if (accept(close)) return args;
        while (true) {
            args.push_back(parse_expr());
            if (accept(close)) return args;
            expect(Tok::Comma);
        }
    }

    ExprPtr parse_struct(ExprPtr type_expr) {
        auto e = make_expr(ExprKind::Struct, type_expr->offset);
        e->name = chain_name(*type_expr);
        advance();  // {
        parse_entries(*e, [&](MapEntryExpr& entry) {
            const Token& field = peek();
            if (field.kind != Tok::Ident && field.kind != Tok::QuotedIdent) fail_expected("field name");
            advance();
            entry.field = field.text;
        });
        return done(std::move(e));
    }

    // The entries of a map or message literal up to the closing brace:
    // `?`, the key (read by `key`), `:`, the value, separated by commas.
    template <typename ReadKey>
    void parse_entries(Expr& e, ReadKey key) {
        while (peek().kind != Tok::RBrace) {
            MapEntryExpr entry;
            entry.optional = accept(Tok::Question);
            key(entry);
            expect(Tok::Colon);
            entry.value = parse_expr();
            e.entries.push_back(std::move(entry));
            if (!accept(Tok::Comma)) break;
        }
        expect(Tok::RBrace);
    }

    ExprPtr parse_number(const Token& t, bool negative, std::uint32_t offset) {
        auto e = make_expr(ExprKind::Literal, offset);
        if (t.kind == Tok::Double) {
            double d = 0;
            const char* b = t.text.data();
            const char* end = b + t.text.size();
            auto res = std::from_chars(b, end, d);
            if (res.ec == std::errc::result_out_of_range) {
                // Overflow is +-Inf in IEEE terms; underflow rounds to zero.
                d = std::strtod(t.text.c_str(), nullptr);
            } else if (res.ec != std::errc() || res.ptr != end) {
                fail_at(t.offset, "invalid double literal");
            }
            e->literal = Value::dbl(negative ? -d : d);
            return e;
        }
        std::uint64_t mag = 0;
        if (!parse_unsigned(t.text, mag)) fail_at(t.offset, "integer literal out of range: " + t.text);
        if (t.kind == Tok::Uint) {
            e->literal = Value::uinteger(mag);
            return e;
        }
        constexpr std::uint64_t kMax = static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max());
        if (negative) {
            if (mag > kMax + 1) fail_at(offset, "integer literal out of range: -" + t.text);
            e->literal = Value::integer(mag == kMax + 1 ? std::numeric_limits<std::int64_t>::min()
                                                        : -static_cast<std::int64_t>(mag));
        } else {
            if (mag > kMax) fail_at(t.offset, "integer literal out of range: " + t.text);
            e->literal = Value::integer(static_cast<std::int64_t>(mag));
        }
        return e;
    }

    static bool parse_unsigned(const std::string& text, std::uint64_t& out) {
        int base = 10;
        std::size_t start = 0;
        if (text.size() > 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X')) {
            base = 16;
            start = 2;
        }
        auto res = std::from_chars(text.data() + start, text.data() + text.size(), out, base);
        return res.ec == std::errc() && res.ptr == text.data() + text.size();
    }

    ExprPtr parse_primary() {
        const Token& t = peek();
        switch (t.kind) {
            case Tok::Int:
            case Tok::Double:
            case Tok::Uint: {
                const Token& tok = advance();
                return parse_number(tok, false, tok.offset);
            }
            case Tok::String:
            case Tok::Bytes: {
                const Token& tok = advance();
                auto e = make_expr(ExprKind::Literal, tok.offset);
                e->literal = tok.kind == Tok::String ? Value::string(tok.text) : Value::bytes(tok.text);
                return e;
            }
            case Tok::True:
            case Tok::False: {
                const Token& tok = advance();
                auto e = make_expr(ExprKind::Literal, tok.offset);
                e->literal = Value::boolean(tok.kind == Tok::True);
                return e;
            }
            case Tok::Null: {
                auto e = make_expr(ExprKind::Literal, advance().offset);
                return e;
            }
            case Tok::Dot:
            case Tok::Ident: {
                const std::uint32_t at = t.offset;
                const bool absolute = accept(Tok::Dot);
                const Token& name = peek();
                if (name.kind != Tok::Ident) fail_expected("identifier");
                advance();
                if (is_reserved(name.text)) fail_at(name.offset, "reserved identifier '" + name.text + "'");
                if (peek().kind == Tok::LParen) {
                    advance();
                    std::vector<ExprPtr> args = parse_args(Tok::RParen);
                    std::string fn = (absolute ? "." : "") + name.text;
                    return make_call(std::move(fn), at, nullptr, std::move(args));
                }
                auto e = make_expr(ExprKind::Ident, at);
                e->name = name.text;
                e->absolute = absolute;
                return e;
            }
            case Tok::LParen: {
                advance();
                ExprPtr e = parse_expr();
                expect(Tok::RParen);
                return e;
            }
            case Tok::LBracket: {
                auto e = make_expr(ExprKind::List, advance().offset);
                while (peek().kind != Tok::RBracket) {
                    const bool opt = accept(Tok::Question);
                    e->args.push_back(parse_expr());
                    e->optional_elems.push_back(opt ? 1 : 0);
                    if (!accept(Tok::Comma)) break;
                }
                expect(Tok::RBracket);
                return done(std::move(e));
            }
            case Tok::LBrace: {
                auto e = make_expr(ExprKind::Map, advance().offset);
                parse_entries(*e, [&](MapEntryExpr& entry) { entry.key = parse_expr(); });
                return done(std::move(e));
            }
            default: fail_expected("expression");
        }
    }

    std::vector<Token> toks_;
    const Options& opts_;
    SyntaxError& err_;
    std::size_t pos_ = 0;
    int depth_ = 0;
};

}  // namespace

ExprPtr parse_expression(std::string_view src, const Options& options, SyntaxError& error) {
    std::vector<Token> tokens;
    LexError lex_error;
    if (!tokenize(src, tokens, lex_error)) {
        error.offset = lex_error.offset;
        error.message = "Syntax error: " + lex_error.message;
        return nullptr;
    }
    return Parser(std::move(tokens), options, error).run();
}

}  // namespace queueforge::cel
