#pragma once
// The document tree every stage works on: what the YAML loader produces, what
// lowering builds and what the emitter prints. Maps keep insertion order, so a
// document's key order is decided by the code that builds it, never by a hash.
#include <queueforge/base/compact_string.hpp>
#include <queueforge/base/compact_vector.hpp>
#include <queueforge/base/mark.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace queueforge {

class Node {
public:
    enum class Kind : std::uint8_t { Null, Bool, Int, Float, String, Seq, Map };
    struct Entry;
    using Items = CompactVector<Node>;
    using Entries = CompactVector<Entry>;

    Node() noexcept : text_() {}
    Node(const Node& o);
    Node(Node&& o) noexcept;
    Node& operator=(const Node& o);
    Node& operator=(Node&& o) noexcept;
    ~Node();
    static Node null_value(Mark m = {});
    static Node boolean(bool v, Mark m = {});
    static Node integer(std::int64_t v, Mark m = {});
    // A scalar of the given kind whose exact source spelling is kept
    // (numbers that do not fit int64, floats, quoted strings).
    static Node scalar(Kind kind, std::string_view text, Mark m = {}, bool quoted = false);
    // The same with text already made (a copy of a CompactString shares its text).
    static Node scalar_of(Kind kind, CompactString text, Mark m = {}, bool quoted = false);
    static Node string(std::string_view v, Mark m = {});
    static Node sequence(Mark m = {});
    static Node mapping(Mark m = {});

    Kind kind() const { return kind_; }
    bool is_null() const { return kind_ == Kind::Null; }
    bool is_map() const { return kind_ == Kind::Map; }
    bool is_seq() const { return kind_ == Kind::Seq; }
    bool is_string() const { return kind_ == Kind::String; }
    bool is_scalar() const { return kind_ != Kind::Seq && kind_ != Kind::Map; }

    // Scalar text: the spelling in the source for parsed nodes, the canonical
    // spelling for built ones ("true", "42").
    const CompactString& text() const;
    bool quoted() const { return quoted_; }
    bool as_bool() const { return text() == "true"; }
    std::optional<std::int64_t> as_int() const;

    Mark mark() const { return mark_; }
    void set_mark(Mark m) { mark_ = m; }

    // Sequences.
    const Items& items() const;
    Items& items();
    Node& push(Node n);

    // Maps.
    const Entries& entries() const;
    Entries& entries();
    const Node* find(std::string_view key) const;
    Node* find(std::string_view key);
    const Entry* find_entry(std::string_view key) const;
    // Replaces the value of an existing key in place, or appends a new entry.
    Node& set(std::string_view key, Node value);
    bool erase(std::string_view key);

    std::size_t size() const;
    // Structural equality: kinds, scalar texts, order of items and entries.
    // Marks and quoting are ignored.
    bool same_as(const Node& other) const;

    static const char* kind_name(Kind k);

private:
    // Which member of the union holds the payload. Not the kind: items() and
    // entries() turn any node's payload into a list (kind unchanged).
    enum class Payload : std::uint8_t { Text, Items, Entries };
    void destroy() noexcept;
    void copy_payload(const Node& o);
    void move_payload(Node&& o) noexcept;
    // `slot` (items_ or entries_) as the live payload, an empty list unless
    // it already was.
    template <class List>
    List& list_payload(List& slot, Payload kind);

    Mark mark_;
    // Scalar text, sequence items or map entries: one at a time, each 16
    // bytes, which keeps large documents (hundreds of thousands of objects)
    // small in memory: 40 bytes a node, 64 a map entry.
    union {
        CompactString text_;
        Items items_;
        Entries entries_;
    };
    Kind kind_ = Kind::Null;
    bool quoted_ = false;
    Payload payload_ = Payload::Text;
};

// A key's position is its line and column: its file is its value's
// (Mark::file), as a key and its value come from one file (a site's bases
// set both). 8 bytes where a Mark is 16: a large stream has millions of
// entries.
struct Node::Entry {
    CompactString key;
    std::int32_t key_line = 0;
    std::int32_t key_col = 0;
    Node value;

    Entry() = default;
    Entry(CompactString k, const Mark& at, Node v)
        : key(std::move(k)), key_line(at.line), key_col(at.col), value(std::move(v)) {}
    // Where the key is, in its value's file.
    Mark key_mark() const;
    // The line and column of `at` (its file is the value's).
    void set_key_mark(const Mark& at) {
        key_line = at.line;
        key_col = at.col;
    }
};

static_assert(sizeof(Node) == 40);
static_assert(sizeof(Node::Entry) == 64);

// Every position in `n`'s tree (keys with their values) that names no file yet names
// `file`: for trees taken from another file than the document they join (a
// site's bases, a TrainJob's runtime).
void stamp_file(Node& n, const FileRef& file);


}  // namespace queueforge
