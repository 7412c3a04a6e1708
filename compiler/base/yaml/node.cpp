#include <queueforge/base/node.hpp>

#include <charconv>
#include <cstring>
#include <new>
#include <utility>

namespace queueforge {

Node::Node(const Node& o) : mark_(o.mark_), text_(), kind_(o.kind_), quoted_(o.quoted_) { copy_payload(o); }

// Trees are built by moving nodes into place (millions for a large stream):
// the payload is moved into the empty union directly, and `o` keeps an
// empty payload of the same member.
Node::Node(Node&& o) noexcept : mark_(std::move(o.mark_)), kind_(o.kind_), quoted_(o.quoted_), payload_(o.payload_) {
    switch (payload_) {
    case Payload::Text: new (&text_) CompactString(std::move(o.text_)); break;
    case Payload::Items: new (&items_) Items(std::move(o.items_)); break;
    case Payload::Entries: new (&entries_) Entries(std::move(o.entries_)); break;
    }
}

Node& Node::operator=(const Node& o) {
    if (this != &o) {
        Node copy(o);
        *this = std::move(copy);
    }
    return *this;
}

Node& Node::operator=(Node&& o) noexcept {
    if (this != &o) {
        // `o` may live inside this node's payload (n = std::move(n.items()[0])):
        // take it out before the payload is destroyed.
        Node taken(std::move(o));
        destroy();
        mark_ = std::move(taken.mark_);
        kind_ = taken.kind_;
        quoted_ = taken.quoted_;
        move_payload(std::move(taken));
    }
    return *this;
}

Node::~Node() { destroy(); }

void Node::destroy() noexcept {
    switch (payload_) {
    case Payload::Text: text_.~CompactString(); break;
    case Payload::Items: items_.~Items(); break;
    case Payload::Entries: entries_.~Entries(); break;
    }
    payload_ = Payload::Text;
    new (&text_) CompactString();
}

// Both take a node whose payload is an empty text.
void Node::copy_payload(const Node& o) {
    switch (o.payload_) {
    case Payload::Text: text_ = o.text_; break;
    case Payload::Items: list_payload(items_, Payload::Items) = o.items_; break;
    case Payload::Entries: list_payload(entries_, Payload::Entries) = o.entries_; break;
    }
}

void Node::move_payload(Node&& o) noexcept {
    switch (o.payload_) {
    case Payload::Text: text_ = std::move(o.text_); break;
    case Payload::Items: list_payload(items_, Payload::Items) = std::move(o.items_); break;
    case Payload::Entries: list_payload(entries_, Payload::Entries) = std::move(o.entries_); break;
    }
}

Node Node::null_value(Mark m) {
    Node n;
    n.text_ = "null";
    n.mark_ = std::move(m);
    return n;
}

Node Node::boolean(bool v, Mark m) {
    Node n;
    n.kind_ = Kind::Bool;
    n.text_ = v ? "true" : "false";
    n.mark_ = std::move(m);
    return n;
}

Node Node::integer(std::int64_t v, Mark m) {
    Node n;
    n.kind_ = Kind::Int;
    char buf[24];
    auto [end, ec] = std::to_chars(buf, buf + sizeof buf, v);
    (void)ec;
    n.text_ = std::string_view(buf, static_cast<std::size_t>(end - buf));
    n.mark_ = std::move(m);
    return n;
}

Node Node::scalar(Kind kind, std::string_view text, Mark m, bool quoted) {
    return scalar_of(kind, CompactString(text), std::move(m), quoted);
}

Node Node::scalar_of(Kind kind, CompactString text, Mark m, bool quoted) {
    Node n;
    n.kind_ = kind;
    n.text_ = std::move(text);
    n.mark_ = std::move(m);
    n.quoted_ = quoted;
    return n;
}

Node Node::string(std::string_view v, Mark m) { return scalar(Kind::String, v, std::move(m)); }

Node Node::sequence(Mark m) {
    Node n;
    n.kind_ = Kind::Seq;
    n.items();
    n.mark_ = std::move(m);
    return n;
}

Node Node::mapping(Mark m) {
    Node n;
    n.kind_ = Kind::Map;
    n.entries();
    n.mark_ = std::move(m);
    return n;
}

const CompactString& Node::text() const {
    static const CompactString empty;
    return payload_ == Payload::Text ? text_ : empty;
}

template <class List>
List& Node::list_payload(List& slot, Payload kind) {
    if (payload_ != kind) {
        destroy();
        text_.~CompactString();
        new (&slot) List();
        payload_ = kind;
    }
    return slot;
}

const Node::Items& Node::items() const {
    static const Items empty;
    return payload_ == Payload::Items ? items_ : empty;
}

Node::Items& Node::items() { return list_payload(items_, Payload::Items); }

const Node::Entries& Node::entries() const {
    static const Entries empty;
    return payload_ == Payload::Entries ? entries_ : empty;
}

Node::Entries& Node::entries() { return list_payload(entries_, Payload::Entries); }

std::optional<std::int64_t> Node::as_int() const {
    if (kind_ != Kind::Int) return std::nullopt;
    std::int64_t v = 0;
    const std::string_view t = text();
    const char* b = t.data();
    const char* e = b + t.size();
    if (b != e && *b == '+') ++b;
    auto [p, ec] = std::from_chars(b, e, v);
    if (ec != std::errc() || p != e) return std::nullopt;
    return v;
}

Node& Node::push(Node n) {
    auto& v = items();
    v.push_back(std::move(n));
    return v.back();
}

namespace {

// Key lookups are the commonest operation on trees: most keys differ in size
// or in their first character, which is checked before calling memcmp.
bool same_key(const CompactString& k, std::string_view key) {
    return k.size() == key.size() && (key.empty() || (k[0] == key[0] && std::memcmp(k.data(), key.data(), key.size()) == 0));
}

}  // namespace

const Node::Entry* Node::find_entry(std::string_view key) const {
    for (const auto& e : entries())
        if (same_key(e.key, key)) return &e;
    return nullptr;
}

const Node* Node::find(std::string_view key) const {
    const Entry* e = find_entry(key);
    return e ? &e->value : nullptr;
}

Node* Node::find(std::string_view key) {
    for (auto& e : entries())
        if (same_key(e.key, key)) return &e.value;
    return nullptr;
}

Node& Node::set(std::string_view key, Node value) {
    if (Node* existing = find(key)) {
        *existing = std::move(value);
        return *existing;
    }
    auto& v = entries();
    v.push_back(Entry{CompactString(key), {}, std::move(value)});
    return v.back().value;
}

bool Node::erase(std::string_view key) {
    if (payload_ != Payload::Entries) return false;
    for (auto it = entries_.begin(); it != entries_.end(); ++it) {
        if (it->key == key) {
            entries_.erase(it);
            return true;
        }
    }
    return false;
}

std::size_t Node::size() const {
    if (kind_ == Kind::Seq) return items().size();
    if (kind_ == Kind::Map) return entries().size();
    return 0;
}

bool Node::same_as(const Node& o) const {
    if (kind_ != o.kind_) return false;
    switch (kind_) {
    case Kind::Seq: {
        const auto &a = items(), &b = o.items();
        if (a.size() != b.size()) return false;
        for (std::size_t i = 0; i < a.size(); ++i)
            if (!a[i].same_as(b[i])) return false;
        return true;
    }
    case Kind::Map: {
        const auto &a = entries(), &b = o.entries();
        if (a.size() != b.size()) return false;
        for (std::size_t i = 0; i < a.size(); ++i)
            if (a[i].key != b[i].key || !a[i].value.same_as(b[i].value)) return false;
        return true;
    }
    case Kind::Null:
        // Node() has an empty text and null_value() says "null"; both are null.
        return true;
    default:
        return text() == o.text();
    }
}

const char* Node::kind_name(Kind k) {
    switch (k) {
    case Kind::Null: return "null";
    case Kind::Bool: return "boolean";
    case Kind::Int: return "integer";
    case Kind::Float: return "number";
    case Kind::String: return "string";
    case Kind::Seq: return "list";
    case Kind::Map: return "map";
    }
    return "?";
}

Mark Node::Entry::key_mark() const {
    Mark m = value.mark();
    m.line = key_line;
    m.col = key_col;
    return m;
}

void stamp_file(Node& n, const FileRef& file) {
    Mark m = n.mark();
    if (!m.file) {
        m.file = file;
        n.set_mark(std::move(m));
    }
    if (n.is_seq())
        for (auto& i : n.items()) stamp_file(i, file);
    else if (n.is_map())
        for (auto& e : n.entries()) stamp_file(e.value, file);  // the key's file is its value's
}

}  // namespace queueforge
