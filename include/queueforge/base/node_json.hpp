#pragma once
// Node ↔ JSON, for JSON output formats and for comparing documents with
// tools that speak JSON. Integers that fit int64 and floats become numbers;
// everything else keeps its text.
#include <queueforge/base/node.hpp>

#include <nlohmann/json.hpp>

namespace queueforge {

nlohmann::ordered_json to_json(const Node& n);
Node from_json(const nlohmann::ordered_json& j);

}  // namespace queueforge
