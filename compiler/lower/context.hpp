#pragma once
// State shared by the lowering passes of one site.
#include <queueforge/base/diagnostics.hpp>
#include <queueforge/base/object.hpp>
#include <queueforge/frontend/site.hpp>
#include <queueforge/frontend/platform.hpp>

#include <map>
#include <string>
#include <vector>

namespace queueforge::lower {

struct Context {
    const site::Site& site;
    Diagnostics& diags;
    Target target;
    std::map<std::string, const site::Topology*> topologies;
    std::map<std::string, const site::Pool*> pools;
    std::map<std::string, const site::Cohort*> cohorts;
    std::map<std::string, const site::PriorityClass*> priority_classes;
    std::vector<Object> objects;
    bool provenance = true;  // LowerOptions::provenance
    // lower_site_releasing_quota: the site itself (as `site`), whose teams'
    // quota amounts lower_teams releases once each team is lowered. Null:
    // the site is only read.
    site::Site* releasable = nullptr;

    void error(Mark m, std::string msg, std::string rule) { diags.error(site.file, m, std::move(msg), std::move(rule)); }
    void warning(Mark m, std::string msg, std::string rule) {
        diags.warning(site.file, m, std::move(msg), std::move(rule));
    }
    void note(Mark m, std::string msg, std::string rule) { diags.note(site.file, m, std::move(msg), std::move(rule)); }

    bool v1beta2() const { return target.kueue_api_version == "kueue.x-k8s.io/v1beta2"; }
    bool kueue_at_least(int major, int minor) const { return target.kueue >= Version{major, minor, 0}; }
};

}  // namespace queueforge::lower
