#pragma once
// The files under templates/ and schemas/, compiled into the binary so that queueforge
// needs nothing beside itself at run time (Argo CD sidecars, pre-commit).
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace queueforge {

// Path relative to the repository root, e.g. "schemas/site.schema.json".
std::optional<std::string_view> find_embedded(std::string_view path);
// Path relative to templates/, e.g. "dsc/rhoai-2.10.yaml".
std::optional<std::string_view> find_template(std::string_view path);
// Every embedded path starting with `prefix`, sorted.
std::vector<std::string> template_paths(std::string_view prefix = {});

}  // namespace queueforge
