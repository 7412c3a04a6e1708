#include "checks/policy/params.hpp"

#include "checks/policy/match.hpp"

namespace queueforge::policy {

std::vector<const Resource*> find_params(const Data& d, const AdmissionPolicy& p, const ParamRef& ref,
                                         const Resource& object) {
    std::vector<const Resource*> out;
    for (const auto& r : d.params) {
        if (r.ref.kind != p.param_kind) continue;
        // paramKind.apiVersion "group/version": the version the param was
        // written in need not match, as the API server converts between them.
        if (group_of(r.ref.api_version) != group_of(p.param_api_version)) continue;
        if (!r.ref.namespace_.empty()) {
            const std::string_view ns = ref.namespace_.empty() ? std::string_view(object.ref.namespace_) : std::string_view(ref.namespace_);
            if (ns != r.ref.namespace_) continue;
        }
        if (!ref.name.empty() ? r.ref.name == ref.name : selector_matches(*ref.selector, labels_of(r.doc)))
            out.push_back(&r);
    }
    return out;
}

}  // namespace queueforge::policy
