#pragma once
// Small Node helpers for the importer: path lookups, order-insensitive
// equality and a structural difference.
#include <queueforge/base/node.hpp>
#include <queueforge/base/node_read.hpp>

#include <initializer_list>
#include <string>
#include <string_view>
#include <vector>

namespace queueforge::importer {

// The node at a path of map keys, or nullptr.
// Path lookups and scalar text are <queueforge/base/node_read.hpp>'s; `at` on a
// mutable tree is the same walk.
inline const Node* at(const Node& n, std::initializer_list<std::string_view> path) { return at_path(n, path); }
inline Node* at(Node& n, std::initializer_list<std::string_view> path) { return const_cast<Node*>(at_path(n, path)); }
using queueforge::text;
using queueforge::text_at;

// Null, {} and [] mean "not set" to the API server's defaulting and to queueforge.
bool is_unset(const Node* n);

// Same scalars (by text: 9 and "9" are one value), same map entries in any
// order, same sequences in order; unset entries count as absent.
bool equivalent(const Node& a, const Node& b);

struct Difference {
    enum Type { Added, Missing, Changed };  // Added: only the input has it; Missing: only the site's object
    Type type = Changed;
    std::vector<std::string> keys;  // map keys from the root; empty when `in_list`
    bool in_list = false;           // the difference lies inside a sequence
    std::string path;               // "spec.resourceGroups[0].flavors[1].name", for messages
    const Node* input = nullptr;
    const Node* generated = nullptr;
};

// Differences between an input object and the object the site produces.
std::vector<Difference> differences(const Node& input, const Node& generated);

// Sets `value` at a path of map keys, creating maps on the way.
void set_path(Node& root, const std::vector<std::string>& keys, Node value);

// A short, single-line rendering of a value for messages.
std::string brief(const Node* n);

}  // namespace queueforge::importer
