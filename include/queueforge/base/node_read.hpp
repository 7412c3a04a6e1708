#pragma once
// The one way to read optional fields of a Node tree. Every function accepts
// a null pointer and any node kind, so a chain of lookups never needs a
// check between steps: text(present(child(doc, "spec"), "cohort")).
#include <queueforge/base/node.hpp>

#include <initializer_list>
#include <string>
#include <string_view>
#include <vector>

namespace queueforge {

// Map member, or nullptr when `n` is not a map or lacks the key.
const Node* child(const Node* n, std::string_view key);
// A member that is present and not null (CEL's has() after the API server
// drops explicit nulls of optional fields).
const Node* present(const Node* n, std::string_view key);
// The node at a path of map keys, or nullptr where a step is missing.
const Node* at_path(const Node* n, std::initializer_list<std::string_view> keys);
inline const Node* at_path(const Node& n, std::initializer_list<std::string_view> keys) { return at_path(&n, keys); }
// True for a non-null scalar.
bool is_text(const Node* n);
// Scalar text of a non-null scalar, else "".
std::string text(const Node* n);
// Scalar text at a path ("" when absent, null or not a scalar).
inline std::string text_at(const Node& n, std::initializer_list<std::string_view> keys) { return text(at_path(&n, keys)); }
// Items of a sequence (empty for anything else).
const Node::Items& items(const Node* n);

}  // namespace queueforge
