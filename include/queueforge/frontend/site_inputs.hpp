#pragma once
// The files a site's build depends on: what `diff` compiles per site and what
// the pre-commit hooks use to find the sites a staged file reaches.
#include <string>
#include <vector>

namespace queueforge {

// The site file itself and every file its build reads (the bases of its
// spec.extends chain and its workloads' job manifests, `file:`: Site::inputs),
// as lexically normal paths spelled like `site_file` (relative stays
// relative), sorted, without duplicates. A site that cannot be parsed yields
// the site file and the bases read before the failure, so a change to a base
// still reaches a broken site; its own check reports what is wrong. Policies
// are not site inputs: they are given on the command line (--policy) and
// reach every site checked with them.
std::vector<std::string> site_inputs(const std::string& site_file);

}  // namespace queueforge
