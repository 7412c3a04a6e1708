#include "fast_parse.hpp"

#include "scalar_resolve.hpp"

#include <algorithm>
#include <deque>
#include <iterator>
#include <string>
#include <system_error>
#include <thread>
#include <unordered_map>
#include <unordered_set>

namespace queueforge::yaml_detail {

namespace {

// Leaving the fast path is not an error: the caller re-reads with yaml-cpp.
struct Bail {};

bool is_space(char c) { return c == ' '; }
bool is_eol(char c) { return c == '\n' || c == '\r'; }

class FastParser {
public:
    // `first_line` is the line `t` starts on in the stream (a part of it, see
    // fast_parse below).
    FastParser(std::string_view t, const LoadOptions& o, int first_line = 1) : t_(t), o_(o), line_(first_line) {}

    // Documents read, the empty ones included (what the next part's indexes
    // continue from), and nodes made.
    int documents() const { return index_; }
    std::size_t nodes() const { return nodes_; }

    std::vector<Document> run() {
        std::vector<Document> docs;
        int& index = index_;
        bool first = true;
        for (;;) {
            skip_blank_lines();
            if (eof()) break;
            const bool explicit_start = at_marker("---");
            if (!explicit_start && !first) throw Bail{};  // content after a document without ---
            Mark start = here();
            if (explicit_start) {
                p_ += 3;
                if (!rest_of_line_empty()) throw Bail{};  // "--- value" and friends
                next_line();
                skip_blank_lines();
            }
            first = false;
            if (eof() || at_marker("---")) {
                ++index;  // an empty document counts but yields nothing
                continue;
            }
            if (at_marker("...")) throw Bail{};
            const int indent = line_indent();
            // yaml-cpp marks a document without "---" at its first token, past
            // any indentation (found by fuzz/yaml_diff_fuzz.cpp).
            if (!explicit_start) start = here();
            Node root = block_node(indent, 1);
            docs.push_back(Document{std::move(root), start, index++});
            skip_blank_lines();
            if (!eof() && !at_marker("---")) throw Bail{};
        }
        return docs;
    }

private:
    std::string_view t_;
    std::deque<std::vector<Node::Entry>> entry_stack_;  // scratch()
    std::deque<std::vector<Node>> item_stack_;
    const LoadOptions& o_;
    std::size_t p_ = 0;
    std::size_t line_start_ = 0;
    int line_ = 1;
    std::size_t nodes_ = 0;
    int index_ = 0;
    // What peek_next_indent found from position `from`, so that the
    // advance_to_next_content which usually follows it does not scan the
    // same blank lines and indentation again.
    struct Peeked {
        std::size_t from = std::string_view::npos;
        std::size_t p = 0, line_start = 0;
        int line = 0, indent = -1;
        bool dash = false;
    } peeked_;
    // A quoted scalar with escapes, unescaped (quoted()'s result points here
    // until the next quoted scalar is read).
    std::string unescaped_;
    // Long texts met before in this part -- keys such as namespaceSelector,
    // values such as an apiVersion -- each made once: the nodes that repeat
    // one share its text (CompactString). Keyed by views of the texts kept.
    // Bounded, so that a stream of distinct long values does not grow it.
    static constexpr std::size_t kMaxShared = 4096, kMaxSharedLength = 64;
    std::unordered_map<std::string_view, CompactString> shared_;

    CompactString text_of(std::string_view s) {
        if (s.size() <= CompactString::inline_capacity || s.size() > kMaxSharedLength) return CompactString(s);
        if (auto it = shared_.find(s); it != shared_.end()) return it->second;
        CompactString made(s);
        if (shared_.size() < kMaxShared) shared_.emplace(made.view(), made);
        return made;
    }

    bool eof() const { return p_ >= t_.size(); }
    char cur() const { return p_ < t_.size() ? t_[p_] : '\n'; }
    char at(std::size_t i) const { return i < t_.size() ? t_[i] : '\n'; }
    Mark here() const { return Mark{line_, static_cast<int>(p_ - line_start_) + 1}; }
    int column() const { return static_cast<int>(p_ - line_start_); }

    void count(int depth) {
        if (++nodes_ > o_.max_nodes || depth > o_.max_depth) throw Bail{};
    }

    // At the start of a line: "---" or "..." followed by space or end of line.
    bool at_marker(const char* m) const {
        if (p_ != line_start_ || t_.compare(p_, 3, m) != 0) return false;
        char c = at(p_ + 3);
        return is_space(c) || is_eol(c) || p_ + 3 >= t_.size();
    }

    void next_line() {
        while (!eof() && t_[p_] != '\n') ++p_;
        if (!eof()) {
            ++p_;
            ++line_;
            line_start_ = p_;
        }
    }

    // From p_: only spaces and an optional comment up to the end of the line.
    bool rest_of_line_empty() const {
        std::size_t q = p_;
        while (q < t_.size() && is_space(t_[q])) ++q;
        if (q >= t_.size() || t_[q] == '\n') return true;
        // Only CR LF ends a line: yaml-cpp reads a CR that ends the input as
        // part of the scalar before it (found by fuzz/yaml_diff_fuzz.cpp).
        if (t_[q] == '\r') return q + 1 < t_.size() && t_[q + 1] == '\n';
        return t_[q] == '#' && (q == p_ || is_space(t_[q - 1]));
    }

    // Moves p_ to the first line with content; p_ stays at that line's start.
    void skip_blank_lines() {
        if (p_ != line_start_) {
            if (!rest_of_line_empty()) throw Bail{};
            next_line();
        }
        for (;;) {
            if (eof()) return;
            std::size_t q = p_;
            while (q < t_.size() && is_space(t_[q])) ++q;
            if (q < t_.size() && t_[q] == '\t') throw Bail{};
            // A CR not followed by LF (the input's last byte included) is a
            // line break to YAML but not to yaml-cpp; left to it.
            if (q < t_.size() && t_[q] == '\r' && (q + 1 >= t_.size() || t_[q + 1] != '\n')) throw Bail{};
            if (q >= t_.size() || t_[q] == '\n' || t_[q] == '\r' || t_[q] == '#') {
                next_line();
                continue;
            }
            return;
        }
    }

    // p_ at a line start with content: moves past the indentation.
    int line_indent() {
        while (!eof() && is_space(t_[p_])) ++p_;
        if (cur() == '\t') throw Bail{};
        return column();
    }

    // Indentation of the next line with content, without moving; -1 at the end.
    int peek_next_indent(bool* dash = nullptr) {
        if (peeked_.from == p_) {
            if (dash) *dash = peeked_.dash;
            return peeked_.indent;
        }
        const std::size_t from = p_;
        std::size_t save_p = p_, save_ls = line_start_;
        int save_line = line_;
        if (p_ != line_start_) next_line();
        skip_blank_lines();
        int ind = -1;
        bool at_dash = false;
        if (!eof() && !at_marker("---") && !at_marker("...")) {
            ind = line_indent();
            at_dash = cur() == '-' && (is_space(at(p_ + 1)) || is_eol(at(p_ + 1)));
        } else if (!eof()) {
            ind = -2;  // a document marker ends every block
        }
        if (dash) *dash = at_dash;
        peeked_ = {from, p_, line_start_, line_, ind, at_dash};
        p_ = save_p;
        line_start_ = save_ls;
        line_ = save_line;
        return ind;
    }

    // Moves to the next line with content and past its indentation.
    int advance_to_next_content() {
        if (peeked_.from == p_ && peeked_.indent >= 0) {
            p_ = peeked_.p;
            line_start_ = peeked_.line_start;
            line_ = peeked_.line;
            return peeked_.indent;
        }
        if (p_ != line_start_) next_line();
        skip_blank_lines();
        return line_indent();
    }

    bool at_seq_entry() const { return cur() == '-' && (is_space(at(p_ + 1)) || is_eol(at(p_ + 1))); }

    // A block node whose first character is at p_ (column == indent).
    Node block_node(int indent, int depth) {
        if (at_seq_entry()) return block_seq(indent, depth);
        if (!line_is_map_entry()) throw Bail{};  // a bare scalar document, or something unusual
        return block_map(indent, depth);
    }

    // Does the text from p_ read "key: ..." (key plain or quoted)?
    bool line_is_map_entry() const {
        std::size_t q = p_;
        char c = at(q);
        if (c == '{' || c == '[') return false;  // a flow collection, whatever it contains
        if (c == '"' || c == '\'') {
            ++q;
            while (q < t_.size() && !is_eol(t_[q])) {
                if (c == '"' && t_[q] == '\\') {
                    q += 2;
                    continue;
                }
                if (t_[q] == c) {
                    if (c == '\'' && at(q + 1) == '\'') {
                        q += 2;
                        continue;
                    }
                    break;
                }
                ++q;
            }
            if (at(q) != c) return false;
            ++q;
            while (is_space(at(q))) ++q;
            return at(q) == ':' && (is_space(at(q + 1)) || is_eol(at(q + 1)) || q + 1 >= t_.size());
        }
        for (; q < t_.size() && !is_eol(t_[q]); ++q) {
            if (t_[q] == '#' && q > p_ && is_space(t_[q - 1])) return false;
            if (t_[q] == ':' && (q + 1 >= t_.size() || is_space(t_[q + 1]) || is_eol(t_[q + 1]))) return true;
        }
        return false;
    }

    static bool plain_start_ok(char c, char next) {
        switch (c) {
        case '!': case '&': case '*': case '|': case '>': case '%': case '@': case '`':
        case '"': case '\'': case '#': case '{': case '}': case '[': case ']': case ',':
            return false;
        case '-': case '?': case ':':
            return !(next == ' ' || next == '\n' || next == '\r');
        default:
            return !(c == ' ' || c == '\t' || c == '\n' || c == '\r');
        }
    }

    CompactString read_key(Mark& m, bool& plain) {
        m = here();
        CompactString key;
        if (cur() == '"' || cur() == '\'') {
            key = text_of(quoted());
            plain = false;
            while (is_space(cur())) ++p_;
        } else {
            plain = true;
            if (!plain_start_ok(cur(), at(p_ + 1))) throw Bail{};
            std::size_t b = p_;
            while (!(cur() == ':' && (is_space(at(p_ + 1)) || is_eol(at(p_ + 1)) || p_ + 1 >= t_.size()))) {
                // Tabs are whitespace YAML trims around plain scalars; rare enough to leave to yaml-cpp.
                if (is_eol(cur()) || cur() == '\t') throw Bail{};
                // " #" starts a comment: "key:e # note: x" has no key on this line.
                if (cur() == '#' && p_ > b && is_space(t_[p_ - 1])) throw Bail{};
                ++p_;
            }
            std::size_t e = p_;
            while (e > b && is_space(t_[e - 1])) --e;
            const std::string_view spelled = t_.substr(b, e - b);
            // Keys that are not plain strings get Kubernetes' spelling (and a
            // warning) from the full reader; merge keys are refused there.
            if (spelled == "<<" || (!plainly_string(spelled) && resolve_plain(spelled).kind != Node::Kind::String))
                throw Bail{};
            key = text_of(spelled);
        }
        if (cur() != ':') throw Bail{};
        // In a block map the value indicator needs a space after it, after a
        // quoted key too: yaml-cpp refuses "'a':b" (found by
        // fuzz/yaml_diff_fuzz.cpp); left to it.
        if (!is_space(at(p_ + 1)) && !is_eol(at(p_ + 1))) throw Bail{};
        ++p_;
        return key;
    }

    // Adds a key/value, refusing duplicates (the full reader reports them).
    static void add_entry(std::vector<Node::Entry>& entries, CompactString key, const Mark& key_mark, Node value,
                          std::unordered_set<std::string>* index) {
        if (index) {
            if (!index->insert(key.str()).second) throw Bail{};
        } else {
            for (const auto& e : entries)
                if (e.key == key) throw Bail{};
        }
        entries.emplace_back(std::move(key), key_mark, std::move(value));
    }

    // The entries or items of the collection being read at each depth: they
    // are gathered here and moved into the node once, at their final size,
    // so a tree has no growth slack (documents stay in memory while they are
    // checked) and a collection is allocated once, not once per doubling.
    template <class T>
    static std::vector<T>& scratch(std::deque<std::vector<T>>& stack, int depth) {
        const auto d = static_cast<std::size_t>(depth);
        if (stack.size() <= d) stack.resize(d + 1);  // a deque: the callers' vectors stay where they are
        stack[d].clear();
        return stack[d];
    }
    template <class T>
    static void take(CompactVector<T>& into, std::vector<T>& from) {
        into.reserve(into.size() + from.size());
        for (T& v : from) into.push_back(std::move(v));
        from.clear();
    }

    Node block_map(int indent, int depth) {
        count(depth);
        Node map = Node::mapping(here());
        auto& entries = scratch(entry_stack_, depth);
        std::unordered_set<std::string> index;
        bool use_index = false;
        for (;;) {
            Mark key_mark;
            bool plain = true;
            CompactString key = read_key(key_mark, plain);
            Node value = block_value(indent, depth + 1, /*in_map=*/true);
            if (!use_index && entries.size() >= 32) {
                for (const auto& e : entries) index.insert(e.key.str());
                use_index = true;
            }
            add_entry(entries, std::move(key), key_mark, std::move(value), use_index ? &index : nullptr);
            int next = peek_next_indent();
            if (next != indent) {
                if (next > indent) throw Bail{};
                take(map.entries(), entries);
                return map;
            }
            advance_to_next_content();
            if (at_seq_entry()) throw Bail{};
        }
    }

    Node block_seq(int indent, int depth) {
        count(depth);
        Node seq = Node::sequence(here());
        auto& items = scratch(item_stack_, depth);
        for (;;) {
            ++p_;  // '-'
            if (rest_of_line_empty()) {
                bool dash = false;
                int next = peek_next_indent(&dash);
                if (next > indent) {
                    int ind = advance_to_next_content();
                    items.push_back(block_node(ind, depth + 1));
                } else {
                    throw Bail{};  // "-" with nothing: null item; rare, leave to yaml-cpp
                }
            } else {
                while (is_space(cur())) ++p_;
                if (at_seq_entry()) throw Bail{};
                if (line_is_map_entry()) {
                    items.push_back(block_map(column(), depth + 1));
                } else {
                    items.push_back(inline_value(depth + 1));
                    if (!rest_of_line_empty()) throw Bail{};
                    if (peek_next_indent() > indent) throw Bail{};
                }
            }
            bool dash = false;
            int next = peek_next_indent(&dash);
            if (next != indent || !dash) {
                if (next > indent) throw Bail{};
                take(seq.items(), items);
                return seq;
            }
            advance_to_next_content();
        }
    }

    // The value after "key:" in a block map at `indent`.
    Node block_value(int indent, int depth, bool in_map) {
        (void)in_map;
        if (rest_of_line_empty()) {
            bool dash = false;
            int next = peek_next_indent(&dash);
            if (next > indent || (next == indent && dash)) {
                int ind = advance_to_next_content();
                return block_node(ind, depth);
            }
            throw Bail{};  // "key:" alone is null; yaml-cpp places that mark
        }
        while (is_space(cur())) ++p_;
        Node v = inline_value(depth);
        if (!rest_of_line_empty()) throw Bail{};
        if (peek_next_indent() > indent) throw Bail{};  // a multi-line plain scalar, or an error
        return v;
    }

    // A scalar or flow collection that starts at p_ in block context.
    Node inline_value(int depth) {
        char c = cur();
        if (c == '{' || c == '[') return flow(depth);
        if (c == '"' || c == '\'') {
            count(depth);
            Mark m = here();
            return Node::scalar_of(Node::Kind::String, text_of(quoted()), m, true);
        }
        if (!plain_start_ok(c, at(p_ + 1))) throw Bail{};
        count(depth);
        Mark m = here();
        std::size_t b = p_;
        while (!eof() && !is_eol(cur())) {
            if (cur() == '\t') throw Bail{};
            if (cur() == '#' && is_space(at(p_ - 1))) break;
            if (cur() == ':' && (is_space(at(p_ + 1)) || is_eol(at(p_ + 1)))) throw Bail{};
            ++p_;
        }
        std::size_t e = p_;
        while (e > b && is_space(t_[e - 1])) --e;
        if (e > b && t_[e - 1] == ':') throw Bail{};
        return plain_scalar(t_.substr(b, e - b), m);
    }

    // A plain scalar spelled `spelled` at `m`, typed as Kubernetes types it.
    Node plain_scalar(std::string_view spelled, const Mark& m) {
        if (plainly_string(spelled)) return Node::scalar_of(Node::Kind::String, text_of(spelled), m, false);
        auto r = resolve_plain(spelled);
        return Node::scalar(r.kind, r.text, m, false);
    }

    // A one-line quoted scalar at p_ (flow context allows no line breaks
    // either here). Its text is a view of the input when it has no escapes,
    // else of unescaped_: either way valid until the next quoted scalar.
    std::string_view quoted() {
        const char q = cur();
        ++p_;
        const std::size_t b = p_;
        // The common case: no escape before the closing quote.
        for (;;) {
            if (eof() || is_eol(cur())) throw Bail{};
            const char c = cur();
            if (c == q) {
                if (q == '\'' && at(p_ + 1) == '\'') break;
                ++p_;
                return t_.substr(b, p_ - 1 - b);
            }
            if (q == '"' && c == '\\') break;
            if (static_cast<unsigned char>(c) < 0x20) throw Bail{};
            ++p_;
        }
        std::string& out = unescaped_;
        out.assign(t_.substr(b, p_ - b));
        for (;;) {
            if (eof() || is_eol(cur())) throw Bail{};
            char c = cur();
            if (c == q) {
                if (q == '\'' && at(p_ + 1) == '\'') {
                    out += '\'';
                    p_ += 2;
                    continue;
                }
                ++p_;
                return out;
            }
            if (q == '"' && c == '\\') {
                char e = at(p_ + 1);
                p_ += 2;
                switch (e) {
                case '"': out += '"'; break;
                case '\\': out += '\\'; break;
                case '/': out += '/'; break;
                case 'n': out += '\n'; break;
                case 't': out += '\t'; break;
                default: throw Bail{};  // rarer escapes: leave them to yaml-cpp
                }
                continue;
            }
            if (static_cast<unsigned char>(c) < 0x20) throw Bail{};
            out += c;
            ++p_;
        }
    }

    void skip_flow_space() {
        for (;;) {
            if (eof()) throw Bail{};
            char c = cur();
            if (c == ' ') {
                ++p_;
            } else if (c == '\n') {
                ++p_;
                ++line_;
                line_start_ = p_;
                // A column-1 document marker ends the document, even inside
                // a flow collection: yaml-cpp stops there with an error,
                // which the full reader reports.
                if (at_marker("---") || at_marker("...")) throw Bail{};
            } else if (c == '\r' && at(p_ + 1) == '\n') {
                ++p_;
            } else if (c == '\t' || c == '#') {
                throw Bail{};
            } else {
                return;
            }
        }
    }

    static bool flow_indicator(char c) { return c == ',' || c == '[' || c == ']' || c == '{' || c == '}'; }

    Node flow_scalar(int depth, bool key) {
        count(depth);
        Mark m = here();
        char c = cur();
        if (c == '"' || c == '\'') return Node::scalar_of(Node::Kind::String, text_of(quoted()), m, true);
        if (!plain_start_ok(c, at(p_ + 1))) throw Bail{};
        std::size_t b = p_;
        while (!eof() && !is_eol(cur()) && !flow_indicator(cur())) {
            if (cur() == '\t') throw Bail{};
            if (cur() == ':' && (is_space(at(p_ + 1)) || is_eol(at(p_ + 1)) || flow_indicator(at(p_ + 1)))) break;
            if (cur() == '#' && is_space(at(p_ - 1))) throw Bail{};
            // yaml-cpp rejects "{a?b: c}" ("unknown token"); leave any '?' in
            // a flow scalar to it (found by fuzz/yaml_diff_fuzz.cpp).
            if (cur() == '?') throw Bail{};
            ++p_;
        }
        std::size_t e = p_;
        while (e > b && is_space(t_[e - 1])) --e;
        if (e == b) throw Bail{};
        const std::string_view spelled = t_.substr(b, e - b);
        if (key && (spelled == "<<" || (!plainly_string(spelled) && resolve_plain(spelled).kind != Node::Kind::String)))
            throw Bail{};
        return plain_scalar(spelled, m);
    }

    Node flow(int depth) {
        count(depth);
        Mark m = here();
        const bool is_map = cur() == '{';
        const char close = is_map ? '}' : ']';
        ++p_;
        Node n = is_map ? Node::mapping(m) : Node::sequence(m);
        auto& entries = scratch(entry_stack_, depth);
        auto& items = scratch(item_stack_, depth);
        auto done = [&] {
            if (is_map) take(n.entries(), entries);
            else take(n.items(), items);
            return std::move(n);
        };
        std::unordered_set<std::string> index;
        bool first = true;
        for (;;) {
            skip_flow_space();
            if (cur() == close) {
                ++p_;
                return done();
            }
            if (!first) {
                if (cur() != ',') throw Bail{};
                ++p_;
                skip_flow_space();
                if (cur() == close) {  // a trailing comma
                    ++p_;
                    return done();
                }
            }
            first = false;
            if (!is_map) {
                items.push_back(flow_value(depth + 1));
                continue;
            }
            Mark km = here();
            Node key = flow_scalar(depth + 1, true);
            --nodes_;  // keys are not nodes of the tree
            const int key_line = line_;
            skip_flow_space();
            if (cur() != ':') throw Bail{};  // "{a, b}": keys without values
            // An implicit key is one line long: yaml-cpp reads "x: {a\n: b}"
            // as a key without a value and a null key (found by
            // fuzz/yaml_diff_fuzz.cpp); left to it.
            if (line_ != key_line) throw Bail{};
            // After a plain key the value indicator needs a space ("{a:{b: c}}"
            // is read otherwise by yaml-cpp; found by fuzz/yaml_diff_fuzz.cpp).
            // JSON's quoted keys may be followed by the value directly.
            if (!key.quoted() && !is_space(at(p_ + 1)) && !is_eol(at(p_ + 1))) throw Bail{};
            ++p_;
            skip_flow_space();
            if (cur() == ',' || cur() == close) throw Bail{};
            Node value = flow_value(depth + 1);
            if (entries.size() >= 32 && index.empty())
                for (const auto& e : entries) index.insert(e.key.str());
            add_entry(entries, key.text(), km, std::move(value), index.empty() ? nullptr : &index);
        }
    }

    Node flow_value(int depth) {
        if (cur() == '{' || cur() == '[') return flow(depth);
        return flow_scalar(depth, false);
    }
};

}  // namespace

namespace {

struct Part {
    std::vector<Document> docs;
    int documents = 0;
    std::size_t nodes = 0;
    bool ok = false;
};

Part read_part(std::string_view text, const LoadOptions& opts, int first_line) {
    Part part;
    try {
        FastParser p(text, opts, first_line);
        part.docs = p.run();
        part.documents = p.documents();
        part.nodes = p.nodes();
        part.ok = true;
    } catch (...) {
        // Bail, or bad_alloc: the full reader reports what there is to report.
    }
    return part;
}

// Where to cut `text` into `parts` parts: at the starts of column-1 "---"
// lines (followed by a space or the end of the line), the first at or past
// each k/parts of the text. Always 0 first and text.size() last.
std::vector<std::size_t> cuts_of(std::string_view text, unsigned parts) {
    std::vector<std::size_t> cuts{0};
    for (unsigned k = 1; k < parts; ++k) {
        std::size_t from = std::max(cuts.back() + 1, text.size() / parts * k);
        for (;;) {
            const std::size_t nl = text.find("\n---", from);
            if (nl == std::string_view::npos) break;
            const std::size_t after = nl + 4;
            if (after >= text.size() || text[after] == ' ' || text[after] == '\n' || text[after] == '\r') {
                cuts.push_back(nl + 1);
                break;
            }
            from = after;
        }
    }
    cuts.push_back(text.size());
    return cuts;
}

}  // namespace

unsigned parallel_parts(std::size_t bytes, const LoadOptions& opts) {
    if (bytes < opts.parallel_min_bytes) return 1;
    unsigned n = opts.threads;
    if (n == 0) n = std::min(4u, std::max(1u, std::thread::hardware_concurrency()));
    return std::max(1u, n);
}

namespace {

// A large stream read in parts side by side, one thread each, cut where a
// document starts (`cuts`); the parts' documents are joined in order, with
// the lines and indexes they have in the whole stream. The fast reader takes
// no scalar over a line end and no document marker inside a flow
// collection, so a column-1 "---" it accepts is a document start in the
// whole stream too; a part it declines (a cut inside a flow collection, say)
// declines the whole stream, for the full reader to read.
std::optional<std::vector<Document>> read_in_parts(std::string_view text, const std::vector<std::size_t>& cuts,
                                                   const LoadOptions& opts) {
    const std::size_t n = cuts.size() - 1;
    std::vector<int> first_line(n, 1);
    for (std::size_t k = 1; k < n; ++k) {
        const std::string_view between = text.substr(cuts[k - 1], cuts[k] - cuts[k - 1]);
        first_line[k] = first_line[k - 1] + static_cast<int>(std::count(between.begin(), between.end(), '\n'));
    }
    std::vector<Part> read(n);
    auto part_text = [&](std::size_t k) { return text.substr(cuts[k], cuts[k + 1] - cuts[k]); };
    {
        std::vector<std::jthread> workers;  // joined when the block ends, also on an exception
        workers.reserve(n - 1);
        for (std::size_t k = 1; k < n; ++k)
            workers.emplace_back([&, k] { read[k] = read_part(part_text(k), opts, first_line[k]); });
        read[0] = read_part(part_text(0), opts, 1);
    }
    std::size_t nodes = 0, total = 0;
    for (const auto& p : read) {
        if (!p.ok) return std::nullopt;
        nodes += p.nodes;
        total += p.docs.size();
    }
    if (nodes > opts.max_nodes) return std::nullopt;  // the limit is the whole stream's
    std::vector<Document> docs;
    docs.reserve(total);
    int index = 0;
    for (auto& p : read) {
        for (auto& d : p.docs) {
            d.index += index;
            docs.push_back(std::move(d));
        }
        index += p.documents;
    }
    return docs;
}

}  // namespace

std::optional<std::vector<Document>> fast_parse(std::string_view text, const LoadOptions& opts) {
    if (text.substr(0, 3) == "\xEF\xBB\xBF") return std::nullopt;  // columns on line 1 shift
    auto whole = [&]() -> std::optional<std::vector<Document>> {
        Part p = read_part(text, opts, 1);
        if (!p.ok) return std::nullopt;
        return std::move(p.docs);
    };
    const unsigned parts = parallel_parts(text.size(), opts);
    if (parts <= 1) return whole();
    try {
        const std::vector<std::size_t> cuts = cuts_of(text, parts);
        if (cuts.size() <= 2) return whole();
        return read_in_parts(text, cuts, opts);
    } catch (const std::system_error&) {
        return whole();  // no thread to be had: one reader for the whole stream
    } catch (...) {
        return std::nullopt;  // e.g. bad_alloc: the full reader reports it properly
    }
}

}  // namespace queueforge::yaml_detail
