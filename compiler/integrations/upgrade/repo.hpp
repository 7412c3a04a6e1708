#pragma once
// What upgrade-check knows of the repository: its hand-written manifests,
// what its sites compile to for the old target, and the job manifests the
// sites name; and which of those a platform change concerns.
#include <queueforge/frontend/manifests.hpp>
#include <queueforge/integrations/upgrade.hpp>

#include <string>
#include <vector>

namespace queueforge::upgrade {

struct Repo {
    struct Site {
        std::string label;  // as discovery names the cluster ("" for the only one)
        std::string file;
        bool queues = false;  // emits Kueue objects
    };
    std::vector<Resource> written;  // every input that is not a site
    std::vector<Resource> emitted;  // the sites' objects for the old target (file = the site file)
    std::vector<Resource> samples;  // job manifests the sites' workloads name
    std::vector<Site> sites;
    std::string first_input;        // where a change that concerns everything points
};

// The objects of `repo` a change concerns (empty: none).
std::vector<Subject> subjects(const Change& c, const Repo& repo, const Target& from, const Target& to, bool upgrade);

}  // namespace queueforge::upgrade
