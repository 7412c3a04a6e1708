#pragma once
// Prints Node trees as YAML: block style, two-space indentation, sequences
// indented under their key, LF line endings, no anchors or tags. Scalars are
// quoted whenever a YAML 1.1 or 1.2 reader could take them for anything but a
// string (yes/no/on/off, numbers, octal, sexagesimal, dates, "1.10", ...), so
// the text is read back as exactly the tree that was built. Empty maps and
// sequences print as {} and []. Same tree, same bytes.
#include <queueforge/base/node.hpp>

#include <string>
#include <vector>

namespace queueforge {

// One document, without the leading `---`.
std::string emit_yaml(const Node& root);

// A stream: every document starts with `---` on its own line; `header`, when
// not empty, is written first as a `# ` comment line.
std::string emit_yaml_stream(const std::vector<Node>& docs, const std::string& header = {});

// True when a string must be quoted to survive a YAML round trip.
bool yaml_needs_quotes(const std::string& s);

}  // namespace queueforge
