// xref.duplicate: the same object twice in the input, as the API server
// identifies objects (group, kind, namespace, name).
#include "checks/rules/inventory.hpp"

#include <map>
#include <tuple>

namespace queueforge::rules::detail {

void check_duplicates(const CrossContext& ctx, Diagnostics& diags) {
    const std::vector<Resource>& resources = ctx.resources;
    // Identity as the API server sees it: group (not version), kind,
    // namespace, name. The same object in v1beta1 and v1beta2 is one object.
    std::map<std::tuple<std::string, std::string, std::string, std::string>, const Resource*> seen;
    for (const auto& r : resources) {
        if (r.ref.name.empty()) continue;  // generateName objects cannot collide
        auto [it, fresh] = seen.emplace(std::tuple{api_group(r.ref.api_version), r.ref.kind, r.ref.namespace_, r.ref.name}, &r);
        if (fresh) continue;
        const Reporter rep{r, diags};
        rep.error("xref.duplicate", present(present(&r.doc, "metadata"), "name"), "metadata.name",
                  r.ref.display() + " is defined twice (first at " + where(*it->second) +
                      "); applying both keeps only the last one");
    }
}

}  // namespace queueforge::rules::detail
