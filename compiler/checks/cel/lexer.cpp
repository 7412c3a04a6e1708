#include "checks/cel/lexer.hpp"

#include "checks/cel/utf8.hpp"

#include <cstdio>

namespace queueforge::cel {
namespace {

bool is_ident_start(char c) { return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
bool is_digit(char c) { return c >= '0' && c <= '9'; }
bool is_ident_char(char c) { return is_ident_start(c) || is_digit(c); }
bool is_hex(char c) { return is_digit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'); }
int hex_value(char c) {
    if (is_digit(c)) return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    return c - 'A' + 10;
}

class Lexer {
public:
    Lexer(std::string_view src, std::vector<Token>& out, LexError& err) : src_(src), out_(out), err_(err) {}

    bool run() {
        while (true) {
            skip_space_and_comments();
            if (pos_ >= src_.size()) {
                out_.push_back(Token{Tok::End, static_cast<std::uint32_t>(pos_), {}});
                return true;
            }
            if (!lex_one()) return false;
        }
    }

private:
    bool fail(std::size_t at, std::string message) {
        err_.offset = static_cast<std::uint32_t>(at);
        err_.message = std::move(message);
        return false;
    }

    char peek(std::size_t ahead = 0) const { return pos_ + ahead < src_.size() ? src_[pos_ + ahead] : '\0'; }

    void emit(Tok kind, std::size_t start, std::string text = {}) {
        out_.push_back(Token{kind, static_cast<std::uint32_t>(start), std::move(text)});
    }

    void skip_space_and_comments() {
        while (pos_ < src_.size()) {
            const char c = src_[pos_];
            if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f') {
                ++pos_;
            } else if (c == '/' && peek(1) == '/') {
                while (pos_ < src_.size() && src_[pos_] != '\n') ++pos_;
            } else {
                break;
            }
        }
    }

    bool lex_one() {
        const std::size_t start = pos_;
        const char c = src_[pos_];
        if (is_digit(c) || (c == '.' && is_digit(peek(1)))) return lex_number();
        if (c == '"' || c == '\'') return lex_string(start, false, false);
        if (is_ident_start(c)) {
            // String prefixes: r/R (raw), b/B (bytes), b then r (raw bytes).
            const char c1 = peek(1);
            const char c2 = peek(2);
            if ((c == 'r' || c == 'R') && (c1 == '"' || c1 == '\'')) {
                pos_ += 1;
                return lex_string(start, true, false);
            }
            if ((c == 'b' || c == 'B') && (c1 == '"' || c1 == '\'')) {
                pos_ += 1;
                return lex_string(start, false, true);
            }
            if ((c == 'b' || c == 'B') && (c1 == 'r' || c1 == 'R') && (c2 == '"' || c2 == '\'')) {
                pos_ += 2;
                return lex_string(start, true, true);
            }
            while (pos_ < src_.size() && is_ident_char(src_[pos_])) ++pos_;
            std::string word(src_.substr(start, pos_ - start));
            if (word == "true") emit(Tok::True, start);
            else if (word == "false") emit(Tok::False, start);
            else if (word == "null") emit(Tok::Null, start);
            else if (word == "in") emit(Tok::In, start);
            else emit(Tok::Ident, start, std::move(word));
            return true;
        }
        if (c == '`') return lex_quoted_ident(start);
        ++pos_;
        switch (c) {
            case '(': emit(Tok::LParen, start); return true;
            case ')': emit(Tok::RParen, start); return true;
            case '[': emit(Tok::LBracket, start); return true;
            case ']': emit(Tok::RBracket, start); return true;
            case '{': emit(Tok::LBrace, start); return true;
            case '}': emit(Tok::RBrace, start); return true;
            case '.': emit(Tok::Dot, start); return true;
            case ',': emit(Tok::Comma, start); return true;
            case ':': emit(Tok::Colon, start); return true;
            case '?': emit(Tok::Question, start); return true;
            case '+': emit(Tok::Plus, start); return true;
            case '-': emit(Tok::Minus, start); return true;
            case '*': emit(Tok::Star, start); return true;
            case '/': emit(Tok::Slash, start); return true;
            case '%': emit(Tok::Percent, start); return true;
            case '!':
                if (peek() == '=') {
                    ++pos_;
                    emit(Tok::Ne, start);
                } else {
                    emit(Tok::Not, start);
                }
                return true;
            case '=':
                if (peek() == '=') {
                    ++pos_;
                    emit(Tok::Eq, start);
                    return true;
                }
                return fail(start, "unexpected '=' (did you mean '=='?)");
            case '<':
                if (peek() == '=') {
                    ++pos_;
                    emit(Tok::Le, start);
                } else {
                    emit(Tok::Lt, start);
                }
                return true;
            case '>':
                if (peek() == '=') {
                    ++pos_;
                    emit(Tok::Ge, start);
                } else {
                    emit(Tok::Gt, start);
                }
                return true;
            case '&':
                if (peek() == '&') {
                    ++pos_;
                    emit(Tok::And, start);
                    return true;
                }
                return fail(start, "unexpected '&' (did you mean '&&'?)");
            case '|':
                if (peek() == '|') {
                    ++pos_;
                    emit(Tok::Or, start);
                    return true;
                }
                return fail(start, "unexpected '|' (did you mean '||'?)");
            default: break;
        }
        const auto uc = static_cast<unsigned char>(c);
        if (uc < 0x20 || uc >= 0x7F) return fail(start, "unexpected character");
        return fail(start, std::string("unexpected character '") + c + "'");
    }

    bool lex_number() {
        const std::size_t start = pos_;
        if (src_[pos_] == '0' && (peek(1) == 'x' || peek(1) == 'X')) {
            pos_ += 2;
            const std::size_t digits = pos_;
            while (pos_ < src_.size() && is_hex(src_[pos_])) ++pos_;
            if (pos_ == digits) return fail(start, "invalid hexadecimal literal");
            std::string text(src_.substr(start, pos_ - start));
            if (peek() == 'u' || peek() == 'U') {
                ++pos_;
                emit(Tok::Uint, start, std::move(text));
            } else {
                emit(Tok::Int, start, std::move(text));
            }
            return true;
        }
        bool is_float = false;
        while (pos_ < src_.size() && is_digit(src_[pos_])) ++pos_;
        if (peek() == '.' && is_digit(peek(1))) {
            is_float = true;
            ++pos_;
            while (pos_ < src_.size() && is_digit(src_[pos_])) ++pos_;
        }
        if (peek() == 'e' || peek() == 'E') {
            std::size_t p = pos_ + 1;
            if (p < src_.size() && (src_[p] == '+' || src_[p] == '-')) ++p;
            if (p < src_.size() && is_digit(src_[p])) {
                is_float = true;
                pos_ = p;
                while (pos_ < src_.size() && is_digit(src_[pos_])) ++pos_;
            }
        }
        std::string text(src_.substr(start, pos_ - start));
        if (is_float) {
            emit(Tok::Double, start, std::move(text));
        } else if (peek() == 'u' || peek() == 'U') {
            ++pos_;
            emit(Tok::Uint, start, std::move(text));
        } else {
            emit(Tok::Int, start, std::move(text));
        }
        return true;
    }

    bool lex_quoted_ident(std::size_t start) {
        ++pos_;
        const std::size_t begin = pos_;
        while (pos_ < src_.size() && src_[pos_] != '`') {
            const char c = src_[pos_];
            // Quoted field names allow letters, digits and _ . - / only.
            if (!(is_ident_char(c) || c == '.' || c == '-' || c == '/' || c == ' ')) {
                return fail(pos_, "invalid character in quoted identifier");
            }
            ++pos_;
        }
        if (pos_ >= src_.size()) return fail(start, "unterminated quoted identifier");
        if (pos_ == begin) return fail(start, "empty quoted identifier");
        emit(Tok::QuotedIdent, start, std::string(src_.substr(begin, pos_ - begin)));
        ++pos_;
        return true;
    }

    // pos_ is at the opening quote.
    bool lex_string(std::size_t start, bool raw, bool bytes) {
        const char q = src_[pos_];
        const bool triple = peek(1) == q && peek(2) == q;
        pos_ += triple ? 3 : 1;
        std::string value;
        while (true) {
            if (pos_ >= src_.size()) return fail(start, "unterminated string literal");
            const char c = src_[pos_];
            if (c == q) {
                if (!triple) {
                    ++pos_;
                    break;
                }
                if (peek(1) == q && peek(2) == q) {
                    pos_ += 3;
                    break;
                }
            }
            if (!triple && (c == '\n' || c == '\r')) return fail(pos_, "newline in string literal");
            if (c == '\\' && !raw) {
                if (!decode_escape(value, bytes)) return false;
                continue;
            }
            value += c;
            ++pos_;
        }
        emit(bytes ? Tok::Bytes : Tok::String, start, std::move(value));
        return true;
    }

    // pos_ is at the backslash.
    bool decode_escape(std::string& out, bool bytes) {
        const std::size_t at = pos_;
        const char e = peek(1);
        pos_ += 2;
        switch (e) {
            case 'a': out += '\a'; return true;
            case 'b': out += '\b'; return true;
            case 'f': out += '\f'; return true;
            case 'n': out += '\n'; return true;
            case 'r': out += '\r'; return true;
            case 't': out += '\t'; return true;
            case 'v': out += '\v'; return true;
            case '\\': out += '\\'; return true;
            case '?': out += '?'; return true;
            case '"': out += '"'; return true;
            case '\'': out += '\''; return true;
            case '`': out += '`'; return true;
            case 'x':
            case 'X': {
                if (!is_hex(peek()) || !is_hex(peek(1))) return fail(at, "invalid \\x escape: two hex digits expected");
                const int v = hex_value(peek()) * 16 + hex_value(peek(1));
                pos_ += 2;
                put_unit(out, static_cast<char32_t>(v), bytes);
                return true;
            }
            case 'u':
            case 'U': {
                const int n = e == 'u' ? 4 : 8;
                char32_t v = 0;
                for (int i = 0; i < n; ++i) {
                    if (!is_hex(peek(i))) return fail(at, std::string("invalid \\") + e + " escape: " + std::to_string(n) + " hex digits expected");
                    v = v * 16 + static_cast<char32_t>(hex_value(peek(i)));
                }
                pos_ += n;
                if (bytes) return fail(at, "unicode escapes are not allowed in bytes literals");
                if (v > 0x10FFFF || (v >= 0xD800 && v <= 0xDFFF)) return fail(at, "invalid unicode code point in escape");
                utf8::append(out, v);
                return true;
            }
            default:
                if (e >= '0' && e <= '3') {
                    const char d1 = peek();
                    const char d2 = peek(1);
                    if (d1 < '0' || d1 > '7' || d2 < '0' || d2 > '7') return fail(at, "invalid octal escape: three octal digits expected");
                    const int v = (e - '0') * 64 + (d1 - '0') * 8 + (d2 - '0');
                    pos_ += 2;
                    put_unit(out, static_cast<char32_t>(v), bytes);
                    return true;
                }
                return fail(at, std::string("invalid escape sequence '\\") + (e ? std::string(1, e) : std::string()) + "'");
        }
    }

    // \x and octal escapes are bytes in bytes literals, code points in strings.
    static void put_unit(std::string& out, char32_t v, bool bytes) {
        if (bytes) out += static_cast<char>(v);
        else utf8::append(out, v);
    }

    std::string_view src_;
    std::vector<Token>& out_;
    LexError& err_;
    std::size_t pos_ = 0;
};

}  // namespace

bool tokenize(std::string_view src, std::vector<Token>& out, LexError& error) {
    return Lexer(src, out, error).run();
}

const char* token_name(Tok t) {
    switch (t) {
        case Tok::End: return "end of expression";
        case Tok::Int: return "integer";
        case Tok::Uint: return "unsigned integer";
        case Tok::Double: return "double";
        case Tok::String: return "string";
        case Tok::Bytes: return "bytes";
        case Tok::Ident: return "identifier";
        case Tok::QuotedIdent: return "quoted identifier";
        case Tok::True: return "'true'";
        case Tok::False: return "'false'";
        case Tok::Null: return "'null'";
        case Tok::In: return "'in'";
        case Tok::LParen: return "'('";
        case Tok::RParen: return "')'";
        case Tok::LBracket: return "'['";
        case Tok::RBracket: return "']'";
        case Tok::LBrace: return "'{'";
        case Tok::RBrace: return "'}'";
        case Tok::Dot: return "'.'";
        case Tok::Comma: return "','";
        case Tok::Colon: return "':'";
        case Tok::Question: return "'?'";
        case Tok::Not: return "'!'";
        case Tok::Minus: return "'-'";
        case Tok::Plus: return "'+'";
        case Tok::Star: return "'*'";
        case Tok::Slash: return "'/'";
        case Tok::Percent: return "'%'";
        case Tok::Eq: return "'=='";
        case Tok::Ne: return "'!='";
        case Tok::Lt: return "'<'";
        case Tok::Le: return "'<='";
        case Tok::Gt: return "'>'";
        case Tok::Ge: return "'>='";
        case Tok::And: return "'&&'";
        case Tok::Or: return "'||'";
    }
    return "token";
}

}  // namespace queueforge::cel
