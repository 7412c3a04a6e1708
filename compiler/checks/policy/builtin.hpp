#pragma once
// The built-in policies: policies/*.yaml, compiled into the binary by
// cmake/embed_templates.cmake.
#include <string>
#include <string_view>
#include <vector>

namespace queueforge {
// Every embedded path starting with `prefix`, sorted. Defined in the source
// cmake/embed_templates.cmake generates, beside find_embedded().
std::vector<std::string> embedded_paths(std::string_view prefix);
}  // namespace queueforge

namespace queueforge::policy {

struct BuiltinFile {
    std::string path;  // "policies/gpu-flavors-tainted.yaml"
    std::string_view text;
};

std::vector<BuiltinFile> builtin_policy_files();

// How findings and errors name a built-in file: "queueforge:policies/x.yaml".
std::string builtin_label(std::string_view path);

}  // namespace queueforge::policy
