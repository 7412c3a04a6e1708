#include <queueforge/node.hpp>

#include <charconv>

namespace queueforge {

Node Node::null_value(Mark m) {
    Node n;
    n.text_ = "null";
    n.mark_ = m;
    return n;
}

Node Node::boolean(bool v, Mark m) {
    Node n;
    n.kind_ = Kind::Bool;
    n.text_ = v ? "true" : "false";
    n.mark_ = m;
    return n;
}

Node Node::integer(std::int64_t v, Mark m) {
    Node n;
    n.kind_ = Kind::Int;
    n.text_ = std::to_string(v);
    n.mark_ = m;
    return n;
}

Node Node::scalar(Kind kind, std::string text, Mark m, bool quoted) {
    Node n;
    n.kind_ = kind;
    n.text_ = std::move(text);
    n.mark_ = m;
    n.quoted_ = quoted;
    return n;
}

Node Node::string(std::string v, Mark m) { return scalar(Kind::String, std::move(v), m); }

Node Node::sequence(Mark m) {
    Node n;
    n.kind_ = Kind::Seq;
    n.mark_ = m;
    return n;
}

Node Node::mapping(Mark m) {
    Node n;
    n.kind_ = Kind::Map;
    n.mark_ = m;
    return n;
}

std::optional<std::int64_t> Node::as_int() const {
    if (kind_ != Kind::Int) return std::nullopt;
    std::int64_t v = 0;
    const char* b = text_.data();
    const char* e = b + text_.size();
    if (b != e && *b == '+') ++b;
    auto [p, ec] = std::from_chars(b, e, v);
    if (ec != std::errc() || p != e) return std::nullopt;
    return v;
}

Node& Node::push(Node n) {
    items_.push_back(std::move(n));
    return items_.back();
}

const Node::Entry* Node::find_entry(std::string_view key) const {
    for (const auto& e : entries_)
        if (e.key == key) return &e;
    return nullptr;
}

const Node* Node::find(std::string_view key) const {
    const Entry* e = find_entry(key);
    return e ? &e->value : nullptr;
}

Node* Node::find(std::string_view key) {
    for (auto& e : entries_)
        if (e.key == key) return &e.value;
    return nullptr;
}

Node& Node::set(std::string key, Node value) {
    if (Node* existing = find(key)) {
        *existing = std::move(value);
        return *existing;
    }
    entries_.push_back(Entry{std::move(key), {}, std::move(value)});
    return entries_.back().value;
}

bool Node::erase(std::string_view key) {
    for (auto it = entries_.begin(); it != entries_.end(); ++it) {
        if (it->key == key) {
            entries_.erase(it);
            return true;
        }
    }
    return false;
}

std::size_t Node::size() const {
    if (kind_ == Kind::Seq) return items_.size();
    if (kind_ == Kind::Map) return entries_.size();
    return 0;
}

bool Node::same_as(const Node& o) const {
    if (kind_ != o.kind_) return false;
    switch (kind_) {
    case Kind::Seq:
        if (items_.size() != o.items_.size()) return false;
        for (std::size_t i = 0; i < items_.size(); ++i)
            if (!items_[i].same_as(o.items_[i])) return false;
        return true;
    case Kind::Map:
        if (entries_.size() != o.entries_.size()) return false;
        for (std::size_t i = 0; i < entries_.size(); ++i)
            if (entries_[i].key != o.entries_[i].key || !entries_[i].value.same_as(o.entries_[i].value))
                return false;
        return true;
    case Kind::Null:
        // Node() has an empty text and null_value() says "null"; both are null.
        return true;
    default:
        return text_ == o.text_;
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

}  // namespace queueforge
