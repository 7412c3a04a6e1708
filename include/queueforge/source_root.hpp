#pragma once
// Paths from an untrusted repository (Argo CD hands queueforge any repo):
// resolve a relative path inside a root folder and refuse everything that
// would leave it -- absolute paths, "..", and symlinks pointing outside.
#include <optional>
#include <string>

namespace queueforge {

// The canonical path of `relative` inside `root`, or nullopt with `why` set.
std::optional<std::string> resolve_inside(const std::string& root, const std::string& relative, std::string* why);

}  // namespace queueforge
