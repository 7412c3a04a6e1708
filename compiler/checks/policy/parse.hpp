#pragma once
// Policy documents → compiled model. Each parser reports every problem it
// finds (not only the first) and returns nullopt when there was any.
#include "checks/policy/model.hpp"
#include "checks/policy/reader.hpp"

#include <optional>

namespace queueforge::policy {

inline constexpr std::string_view kPolicyApiVersion = "queueforge.io/v1alpha1";

bool is_policy_document(const Resource& r);        // queueforge.io Policy
bool is_policy_config_document(const Resource& r);  // queueforge.io PolicyConfig
bool is_admission_policy(const Resource& r);         // admissionregistration.k8s.io ValidatingAdmissionPolicy
bool is_admission_binding(const Resource& r);        // ... ValidatingAdmissionPolicyBinding
// Whether a CEL expression names `authorizer` (outside string literals).
bool names_authorizer(std::string_view expression);

std::optional<Policy> parse_policy(const Resource& r, DocReader& rd);
std::optional<PolicyConfig> parse_policy_config(const Resource& r, DocReader& rd);
std::optional<AdmissionPolicy> parse_admission_policy(const Resource& r, DocReader& rd);
std::optional<AdmissionBinding> parse_admission_binding(const Resource& r, DocReader& rd);

// Reads `validations` of either format; `fields` are the keys a validation may have.
std::vector<Validation> parse_validations(const Node* spec, DocReader& rd, std::string_view what,
                                          std::initializer_list<std::string_view> fields);

}  // namespace queueforge::policy
