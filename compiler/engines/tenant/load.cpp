// Reading what `queues` is given: sites (compiled for their target) and
// manifests, as one cluster.
#include <queueforge/engines/tenant.hpp>

#include <queueforge/frontend/site_parse.hpp>
#include <queueforge/lower.hpp>

#include <filesystem>

namespace queueforge::tenant {

namespace fs = std::filesystem;

namespace {

bool is_site(const Resource& r) { return r.ref.kind == "Site" && r.ref.api_version.starts_with("queueforge.io/"); }

// A site's pools: one shape per pool, allocatable per node.
void add_pools(const site::Site& s, Inputs& in) {
    for (const auto& p : s.pools) {
        NodeShape n;
        n.flavor = p.name.value;
        n.name = "pool " + p.name.value;
        n.count = p.nodes ? p.nodes->value : 0;
        for (const auto& a : p.allocatable)
            if (a.absolute && !a.resource.empty()) n.allocatable.emplace(a.resource, *a.absolute);
        if (n.count > 0 && !n.allocatable.empty()) in.nodes.push_back(std::move(n));
    }
}

}  // namespace

std::optional<Inputs> load(const std::vector<std::string>& paths, const std::string& target, Diagnostics& diags) {
    Inputs in;
    std::vector<std::string> files;
    for (const auto& p : paths) {
        // A folder holding a site means the site file, as for every command.
        std::error_code ec;
        if (fs::is_directory(p, ec) && fs::exists(fs::path(p) / "queueforge-site.yaml", ec))
            files.push_back((fs::path(p) / "queueforge-site.yaml").string());
        else files.push_back(p);
    }
    LoadedResources loaded = load_resources(files.empty() ? std::vector<std::string>{"."} : files, diags);
    in.sources = std::move(loaded.sources);
    if (diags.has_errors()) return std::nullopt;
    for (auto& r : loaded.resources) {
        if (!is_site(r)) {
            in.objects.push_back(std::move(r));
            continue;
        }
        auto s = load_site_document(r.doc, r.file, diags, &in.sources);
        if (!s) continue;
        auto lowered = lower_site(*s, diags, {.target_override = target});
        if (!lowered) continue;
        if (in.target.empty()) in.target = lowered->target.name;
        add_pools(*s, in);
        for (auto& o : lowered->objects) in.objects.push_back(resource_of(std::move(o), r.file));
    }
    if (diags.has_errors()) return std::nullopt;
    return in;
}

}  // namespace queueforge::tenant
