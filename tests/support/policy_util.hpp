#pragma once
// Helpers shared by the policy and ValidatingAdmissionPolicy tests.
#include "test_util.hpp"

#include <queueforge/checks/policy.hpp>
#include <queueforge/frontend/manifests.hpp>

#include <optional>
#include <string>
#include <vector>

namespace qf_test {

// Loads policies from text (no built-ins, as `file`) and evaluates them over
// the objects.
inline queueforge::Diagnostics run_policies(const std::string& file, const std::string& policies,
                                            const std::string& objects,
                                            const std::optional<queueforge::Target>& target = std::nullopt,
                                            queueforge::policy::Options opts = {}) {
    queueforge::Diagnostics d;
    opts.no_builtin = true;
    auto set = queueforge::policy::load_policies_from_text(file, policies, opts, d);
    queueforge::LoadedResources in;
    if (!objects.empty()) queueforge::load_resources_from_text("objects.yaml", objects, in, d);
    queueforge::policy::evaluate(set, in.resources, target, opts, d);
    return d;
}

}  // namespace qf_test
