#pragma once
// The names in a ValidatingAdmissionPolicy and its binding, checked as the
// API server checks them on create. Source: kubernetes/kubernetes
// pkg/apis/admissionregistration/validation/validation.go (read at commit
// 03d48b76831a3a02d503c3075d818a76afd83cd8, a 1.31-or-later tree; the rules
// below have been stable since ValidatingAdmissionPolicy went GA in v1.30):
//   - metadata.name of both kinds and a binding's spec.policyName are DNS-1123
//     subdomains (NameIsDNSSubdomain);
//   - spec.matchConditions[].name is a qualified name (ValidateQualifiedName:
//     an optional DNS-subdomain prefix and '/', then at most 63 characters of
//     [A-Za-z0-9][-A-Za-z0-9_.]*[A-Za-z0-9], so "exclude-jobset-owned" is
//     fine), unique in the list (field.Duplicate); at most 64 conditions;
//   - spec.variables[].name is a CEL identifier, [_a-zA-Z][_a-zA-Z0-9]*, that
//     is not a CEL reserved word (isCELIdentifier). Repeated variable names
//     are NOT rejected: the composition compiler keeps its variables in a map
//     by name, so the last definition wins (apiserver
//     pkg/admission/plugin/cel/composition.go, compiledVariables).
// Bad names are errors under rule "vap.invalid-name"; a repeated variable
// name is a warning under "vap.duplicate-variable"; both definitions are kept
// and bound in order, so the validations see the last one.
#include "checks/policy/reader.hpp"

#include <string>
#include <string_view>
#include <vector>

namespace queueforge::policy {

inline constexpr std::string_view kInvalidNameRule = "vap.invalid-name";
inline constexpr std::string_view kDuplicateVariableRule = "vap.duplicate-variable";
inline constexpr std::size_t kMaxMatchConditions = 64;

// Why `name` is not a CEL identifier the API server accepts, or "".
std::string check_cel_variable_name(std::string_view name);

// Checks for DocReader::named_expressions, one per list and document.
DocReader::NameCheck match_condition_names(DocReader& rd);
DocReader::NameCheck variable_names(DocReader& rd);

// A DNS-1123 subdomain check of metadata.name / spec.policyName at `at`;
// false (and an error) when the name is not one.
bool check_object_name(DocReader& rd, const std::string& name, const std::string& path, Mark at);

}  // namespace queueforge::policy
