#pragma once
// CEL tokens (cel-spec langdef.md, "Syntax"). String and bytes literals are
// decoded here, so the parser sees their values.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace queueforge::cel {

enum class Tok : std::uint8_t {
    End, Int, Uint, Double, String, Bytes, Ident, QuotedIdent,
    True, False, Null, In,
    LParen, RParen, LBracket, RBracket, LBrace, RBrace,
    Dot, Comma, Colon, Question,
    Not, Minus, Plus, Star, Slash, Percent,
    Eq, Ne, Lt, Le, Gt, Ge, And, Or,
};

struct Token {
    Tok kind = Tok::End;
    std::uint32_t offset = 0;  // byte offset into the expression
    // Identifier name, numeric spelling (without the u suffix), or the
    // decoded content of a string/bytes literal.
    std::string text;
};

struct LexError {
    std::uint32_t offset = 0;
    std::string message;
};

// Tokenizes the whole expression; the last token is End. Returns false and
// fills `error` on the first invalid token.
bool tokenize(std::string_view src, std::vector<Token>& out, LexError& error);

const char* token_name(Tok t);

}  // namespace queueforge::cel
