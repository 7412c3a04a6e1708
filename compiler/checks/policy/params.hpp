#pragma once
// A binding's paramRef resolved against the param objects given with
// --policy, as the API server resolves it for one request.
#include "checks/policy/model.hpp"

#include <vector>

namespace queueforge::policy {

// The param objects for evaluating `object` under binding `b` of policy `p`
// (one evaluation per param). Namespaced params without paramRef.namespace
// are looked up in the object's namespace.
std::vector<const Resource*> find_params(const Data& d, const AdmissionPolicy& p, const ParamRef& ref,
                                         const Resource& object);

}  // namespace queueforge::policy
