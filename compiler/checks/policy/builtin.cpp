#include "checks/policy/builtin.hpp"

#include <queueforge/base/templates.hpp>

namespace queueforge::policy {

std::vector<BuiltinFile> builtin_policy_files() {
    std::vector<BuiltinFile> out;
    for (const auto& p : embedded_paths("policies/"))
        if (auto text = find_embedded(p)) out.push_back({p, *text});
    return out;
}

std::string builtin_label(std::string_view path) { return "queueforge:" + std::string(path); }

}  // namespace queueforge::policy
