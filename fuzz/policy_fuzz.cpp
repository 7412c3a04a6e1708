// Policy files (queueforge Policies, ValidatingAdmissionPolicies, bindings,
// params): loaded, then evaluated over the objects of the same input, which
// also serve as the cluster the policies see.
#include "fuzz_util.hpp"

#include <queueforge/checks/policy.hpp>
#include <queueforge/frontend/manifests.hpp>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace queueforge;
    const std::string text = fuzz::text_of(data, size);
    policy::Options opts;
    opts.no_builtin = true;
    opts.cost_limit = 100'000;
    Diagnostics diags;
    auto set = policy::load_policies_from_text("policy.yaml", text, opts, diags);
    (void)set.ids();
    (void)set.replaced_rules();
    LoadedResources objects;
    Diagnostics ignored;
    load_resources_from_text("policy.yaml", text, objects, ignored);
    (void)policy::evaluate(set, objects.resources, std::nullopt, opts, diags);
    fuzz::require_positioned(diags, "policy");
    return 0;
}
