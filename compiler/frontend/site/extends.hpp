#pragma once
// spec.extends: a site built on bases (README, "Repositories with several
// clusters"). The site document and every base it extends, directly or
// through other bases, are merged into one document tree before the site is
// parsed, so the parser and every check see one site; each node keeps the
// position of the file that set it (Mark::file for nodes from a base).
#include <queueforge/base/diagnostics.hpp>
#include <queueforge/base/node.hpp>

#include <optional>
#include <string>
#include <vector>

namespace queueforge::site {

inline constexpr const char* kBaseKind = "SiteBase";
// Bases extending bases: deeper chains than this are refused.
inline constexpr int kMaxExtendsDepth = 16;

// `root` is the site document read from `path`: returns the merged document
// with spec.extends removed (a document without it comes back unchanged).
// Bases are read only inside the source root of `path` (source_root.hpp);
// each base read is appended to `bases` (as findings name it, with its text,
// for carets), also when something fails. nullopt after an error in `diags`.
std::optional<Node> resolve_extends(const std::string& path, Node root, Diagnostics& diags,
                                    std::vector<SourceText>& bases);

// Merges `over` into `base` (merge.cpp): maps key by key, lists of named items
// by name (named_list_key), other lists and scalars replaced, null removes a
// key, {name: X, $delete: true} removes a named item. `shape` is the path of
// the node with list indexes written "[]" ("spec.teams[].quota"); `file` is
// where `over` was read, for findings.
Node merge_nodes(Node base, const Node& over, const std::string& shape, const std::string& file, Diagnostics& diags);

// The field that names the items of the list at `shape` ("name", "pool"), or
// "" when the list is replaced as a whole.
std::string named_list_key(const std::string& shape);

}  // namespace queueforge::site
