#pragma once
// Site model → Kubernetes objects for the site's target. Resolves references,
// shares of pool capacity and per-target rules, forms resource groups, and
// refuses (with the site's line:col) what the site itself gets wrong.
// Kueue's webhook rules are not repeated here: the compile step
// (compile.hpp) runs checks/rules on the objects and reports at the site
// position each value came from.
#include <queueforge/base/diagnostics.hpp>
#include <queueforge/base/object.hpp>
#include <queueforge/frontend/manifests.hpp>
#include <queueforge/frontend/site.hpp>
#include <queueforge/frontend/platform.hpp>

#include <optional>
#include <vector>

namespace queueforge {

struct LowerOptions {
    std::string target_override;  // --target: replaces the site's target
    // Record where each field came from (Object::provenance: explain, build
    // --annotate, the report, the positions of findings on lowered objects).
    // Without it a site of 10,000 teams lowers in 100 MiB less.
    bool provenance = true;
};

struct Lowered {
    Target target;
    std::vector<Object> objects;  // in stream order
};

std::optional<Lowered> lower_site(const site::Site& s, Diagnostics& diags, const LowerOptions& opts = {});

// lower_site for a caller that needs the site no more once it is lowered
// (build): each team's quota amounts are released as soon as its
// ClusterQueue is lowered, so that a large site's quota and the resource
// groups lowered from it are not held at once (10,000 teams x 20 pools:
// 130 MB of amounts beside 180 MB of resource groups). The same objects and
// findings as lower_site; `s` is left without the teams' amounts (each quota
// entry keeps its pool when the site has hardware profiles, which read them;
// else the entries go too).
std::optional<Lowered> lower_site_releasing_quota(site::Site& s, Diagnostics& diags, const LowerOptions& opts = {});

// One v1 Node per pool with nodes and allocatable (named "<pool>.pool",
// labelled like the pool, allocatable = nodes x per-node allocatable),
// appended to `out`: what cluster-dump checks (capacity, policies) read.
void add_pool_nodes(const site::Site& s, const std::string& file, std::vector<Resource>& out);

}  // namespace queueforge
