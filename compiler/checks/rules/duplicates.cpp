// xref.duplicate: the same object twice in the input, as the API server
// identifies objects (group, kind, namespace, name).
#include "checks/rules/inventory.hpp"

#include <string_view>
#include <unordered_map>

namespace queueforge::rules::detail {

namespace {

// An object's identity as views into its ObjectRef: the resources are not
// changed while they are checked, so a set of 100,000 makes no strings.
struct Identity {
    std::string_view group, kind, namespace_, name;
    bool operator==(const Identity&) const = default;
};

struct IdentityHash {
    std::size_t operator()(const Identity& k) const noexcept {
        std::size_t h = 0;
        for (std::string_view part : {k.group, k.kind, k.namespace_, k.name})
            h = h * 1000003u ^ std::hash<std::string_view>{}(part);
        return h;
    }
};

}  // namespace

void check_duplicates(const CrossContext& ctx, Diagnostics& diags) {
    const std::vector<Resource>& resources = ctx.resources;
    // Identity as the API server sees it: group (not version), kind,
    // namespace, name. The same object in v1beta1 and v1beta2 is one object.
    std::unordered_map<Identity, const Resource*, IdentityHash> seen;
    seen.reserve(resources.size());
    for (const auto& r : resources) {
        if (r.ref.name.empty()) continue;  // generateName objects cannot collide
        auto [it, fresh] = seen.emplace(Identity{api_group_view(r.ref.api_version), r.ref.kind, r.ref.namespace_, r.ref.name}, &r);
        if (fresh) continue;
        const Reporter rep{r, diags};
        rep.error("xref.duplicate", present(present(&r.doc, "metadata"), "name"), "metadata.name",
                  r.ref.display() + " is defined twice (first at " + where(*it->second) +
                      "); applying both keeps only the last one");
    }
}

}  // namespace queueforge::rules::detail
