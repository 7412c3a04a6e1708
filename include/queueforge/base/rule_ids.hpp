#pragma once
// Lists of rule ids as people write them: "rule-a, rule-b" in a site's
// `ignore:` entries and in the ignore annotation of a manifest.
#include <string>
#include <string_view>
#include <vector>

namespace queueforge {

// "rule-a, rule-b" -> {"rule-a", "rule-b"} (blanks around ids dropped).
std::vector<std::string> split_rule_ids(std::string_view text);

}  // namespace queueforge
