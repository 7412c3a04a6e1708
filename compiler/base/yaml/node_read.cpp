#include <queueforge/base/node_read.hpp>

namespace queueforge {

namespace {
const Node::Items kNoItems;
}

const Node* child(const Node* n, std::string_view key) { return n && n->is_map() ? n->find(key) : nullptr; }

const Node* present(const Node* n, std::string_view key) {
    const Node* c = child(n, key);
    return c && !c->is_null() ? c : nullptr;
}

const Node* at_path(const Node* n, std::initializer_list<std::string_view> keys) {
    for (auto k : keys) n = child(n, k);
    return n;
}

bool is_text(const Node* n) { return n && n->is_scalar() && !n->is_null(); }

std::string text(const Node* n) { return is_text(n) ? n->text().str() : std::string(); }

const Node::Items& items(const Node* n) { return n && n->is_seq() ? n->items() : kNoItems; }

}  // namespace queueforge
