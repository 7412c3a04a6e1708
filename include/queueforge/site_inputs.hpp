#pragma once
// The files a site's build depends on: what `diff` compiles per site and what
// the pre-commit hooks use to find the sites a staged file reaches.
#include <string>
#include <vector>

namespace queueforge {

// The site file itself and every file its build reads (today: its
// workloads' job manifests, `file:`), as lexically normal paths spelled like
// `site_file` (relative stays relative), sorted, without duplicates. A site
// that cannot be read or parsed yields the site file alone: its own check
// reports what is wrong. Policies are not site inputs: they are given on the
// command line (--policy) and reach every site checked with them.
//
// The one place to extend when sites gain more inputs (spec.extends bases).
std::vector<std::string> site_inputs(const std::string& site_file);

}  // namespace queueforge
