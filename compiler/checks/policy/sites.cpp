#include "checks/policy/sites.hpp"

#include <queueforge/lower.hpp>
#include <queueforge/frontend/site_parse.hpp>

namespace queueforge::policy {

bool is_site(const Resource& r) { return r.ref.kind == "Site" && r.ref.api_version.starts_with("queueforge.io/"); }


std::optional<ClusterInput> render_site(const Resource& r, const std::optional<Target>& target) {
    Diagnostics ignored;
    auto s = load_site_document(r.doc, r.file, ignored);
    if (!s) return std::nullopt;
    LowerOptions lo;
    if (target) lo.target_override = target->name;
    auto lowered = lower_site(*s, ignored, lo);
    if (!lowered) return std::nullopt;
    ClusterInput c;
    c.target = lowered->target;
    for (auto& o : lowered->objects) c.objects.push_back(resource_of(std::move(o), r.file));
    add_pool_nodes(*s, r.file, c.objects);
    return c;
}

}  // namespace queueforge::policy
