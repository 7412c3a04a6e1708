#pragma once
// Kubernetes name syntax (apimachinery's validation package). Each check
// returns an empty string when the value is valid, otherwise the reason in
// the API server's words.
#include <string>
#include <string_view>

namespace queueforge {

std::string check_dns1123_label(std::string_view s);      // <= 63, [a-z0-9]([-a-z0-9]*[a-z0-9])?
std::string check_dns1123_subdomain(std::string_view s);  // <= 253, labels joined by '.'
std::string check_qualified_name(std::string_view s);     // label key: [prefix/]name
std::string check_label_value(std::string_view s);        // <= 63, may be empty

}  // namespace queueforge
