#pragma once
// The job kinds a site's sample workloads are written as: the apiVersion and
// kind of each document of each workload's `file:` (relative to the file
// that names it, confined to the site's source root like every read). What
// cannot be read or parsed is skipped: the commands that run the samples
// (validate, simulate) report it.
#include <queueforge/base/mark.hpp>
#include <queueforge/frontend/site.hpp>

#include <string>
#include <vector>

namespace queueforge {

struct JobKind {
    std::string api_version;
    std::string kind;
    std::string workload;  // the site workload whose file holds it
    Mark mark;             // the workload's `file:` in the site
};

std::vector<JobKind> site_job_kinds(const site::Site& s);

}  // namespace queueforge
