#pragma once
// Kubernetes name syntax (apimachinery's validation package). Each check
// returns an empty string when the value is valid, otherwise the reason in
// the API server's words.
#include <cstddef>
#include <initializer_list>
#include <string>
#include <string_view>
#include <vector>

namespace queueforge {

// The node label Kubernetes sets to each node's name (a well-known label);
// a Kueue Topology may use it only as its lowest level.
inline constexpr const char* kHostnameLabel = "kubernetes.io/hostname";
// The most nodes one topology may hold: the placement engine's bound
// (engines/topology), which the site reader and the lowering check too.
inline constexpr std::size_t kMaxTopologyNodes = 100000;

std::string check_dns1123_label(std::string_view s);      // <= 63, [a-z0-9]([-a-z0-9]*[a-z0-9])?
std::string check_dns1123_subdomain(std::string_view s);  // <= 253, labels joined by '.'
std::string check_qualified_name(std::string_view s);     // label key: [prefix/]name
std::string check_label_value(std::string_view s);        // <= 63, may be empty

// For "did you mean ...?" hints wherever a name can be wrong: the candidate
// closest to `word` (case-insensitive edit distance at most max(2, a third
// of the candidate's length, and not every character different); the first
// of equally close ones), or empty.
std::string did_you_mean(std::string_view word, std::initializer_list<std::string_view> candidates);
std::string did_you_mean(std::string_view word, const std::vector<std::string>& candidates);

}  // namespace queueforge
