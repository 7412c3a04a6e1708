#include "checks/policy/sites.hpp"

#include <queueforge/compile.hpp>

namespace queueforge::policy {

bool is_site(const Resource& r) { return r.ref.kind == "Site" && r.ref.api_version.starts_with("queueforge.io/"); }


std::optional<ClusterInput> render_site(const Resource& r, const std::optional<Target>& target) {
    // The site's findings are validate's; a policy sees a site that compiles.
    Compilation c = compile({.path = r.file, .document = &r.doc, .target = target ? target->name : std::string()});
    if (!c.site || !c.lowered) return std::nullopt;
    ClusterInput in;
    in.target = c.lowered->target;
    for (auto& o : c.lowered->objects) in.objects.push_back(resource_of(std::move(o), r.file));
    add_pool_nodes(*c.site, r.file, in.objects);
    return in;
}

}  // namespace queueforge::policy
