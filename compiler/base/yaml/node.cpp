#include <queueforge/base/node.hpp>

#include <charconv>
#include <cstring>

namespace queueforge {

Node Node::null_value(Mark m) {
    Node n;
    n.data_ = std::string("null");
    n.mark_ = m;
    return n;
}

Node Node::boolean(bool v, Mark m) {
    Node n;
    n.kind_ = Kind::Bool;
    n.data_ = std::string(v ? "true" : "false");
    n.mark_ = m;
    return n;
}

Node Node::integer(std::int64_t v, Mark m) {
    Node n;
    n.kind_ = Kind::Int;
    n.data_ = std::string(std::to_string(v));
    n.mark_ = m;
    return n;
}

Node Node::scalar(Kind kind, std::string text, Mark m, bool quoted) {
    Node n;
    n.kind_ = kind;
    n.data_ = std::string(std::move(text));
    n.mark_ = m;
    n.quoted_ = quoted;
    return n;
}

Node Node::string(std::string v, Mark m) { return scalar(Kind::String, std::move(v), m); }

Node Node::sequence(Mark m) {
    Node n;
    n.kind_ = Kind::Seq;
    n.data_ = std::vector<Node>{};
    n.mark_ = m;
    return n;
}

Node Node::mapping(Mark m) {
    Node n;
    n.kind_ = Kind::Map;
    n.data_ = std::vector<Entry>{};
    n.mark_ = m;
    return n;
}

const std::string& Node::text() const {
    static const std::string empty;
    const auto* s = std::get_if<std::string>(&data_);
    return s ? *s : empty;
}

const std::vector<Node>& Node::items() const {
    static const std::vector<Node> empty;
    const auto* v = std::get_if<std::vector<Node>>(&data_);
    return v ? *v : empty;
}

std::vector<Node>& Node::items() {
    if (!std::holds_alternative<std::vector<Node>>(data_)) data_ = std::vector<Node>{};
    return std::get<std::vector<Node>>(data_);
}

const std::vector<Node::Entry>& Node::entries() const {
    static const std::vector<Entry> empty;
    const auto* v = std::get_if<std::vector<Entry>>(&data_);
    return v ? *v : empty;
}

std::vector<Node::Entry>& Node::entries() {
    if (!std::holds_alternative<std::vector<Entry>>(data_)) data_ = std::vector<Entry>{};
    return std::get<std::vector<Entry>>(data_);
}

std::optional<std::int64_t> Node::as_int() const {
    if (kind_ != Kind::Int) return std::nullopt;
    std::int64_t v = 0;
    const std::string& t = text();
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
bool same_key(const std::string& k, std::string_view key) {
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

Node& Node::set(std::string key, Node value) {
    if (Node* existing = find(key)) {
        *existing = std::move(value);
        return *existing;
    }
    auto& v = entries();
    v.push_back(Entry{std::move(key), {}, std::move(value)});
    return v.back().value;
}

bool Node::erase(std::string_view key) {
    auto* v = std::get_if<std::vector<Entry>>(&data_);
    if (!v) return false;
    for (auto it = v->begin(); it != v->end(); ++it) {
        if (it->key == key) {
            v->erase(it);
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

void stamp_file(Node& n, const FileRef& file) {
    Mark m = n.mark();
    if (!m.file) {
        m.file = file;
        n.set_mark(std::move(m));
    }
    if (n.is_seq())
        for (auto& i : n.items()) stamp_file(i, file);
    else if (n.is_map())
        for (auto& e : n.entries()) {
            if (!e.key_mark.file) e.key_mark.file = file;
            stamp_file(e.value, file);
        }
}

}  // namespace queueforge
