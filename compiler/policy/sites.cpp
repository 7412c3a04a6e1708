#include "policy/sites.hpp"

#include <queueforge/lower.hpp>
#include <queueforge/site_parse.hpp>

namespace queueforge::policy {

bool is_site(const Resource& r) { return r.ref.kind == "Site" && r.ref.api_version.starts_with("queueforge.io/"); }

namespace {

// The pools of a site as Node objects (allocatable = nodes x per-node
// allocatable), as validate_all builds them for its capacity check.
void add_pool_nodes(const site::Site& s, const std::string& file, std::vector<Resource>& out) {
    for (const auto& p : s.pools) {
        if (!p.nodes || p.allocatable.empty()) continue;
        Node doc = Node::mapping(p.mark);
        doc.set("apiVersion", Node::string("v1"));
        doc.set("kind", Node::string("Node"));
        Node meta = Node::mapping(p.mark);
        meta.set("name", Node::string(p.name.value + ".pool"));
        Node labels = Node::mapping();
        for (const auto& [k, v] : p.node_labels) labels.set(k.value, Node::string(v.value));
        meta.set("labels", std::move(labels));
        doc.set("metadata", std::move(meta));
        Node alloc = Node::mapping();
        for (const auto& a : p.allocatable)
            if (auto total = a.absolute->mul(p.nodes->value)) alloc.set(a.resource, Node::string(total->to_string()));
        Node status = Node::mapping();
        status.set("allocatable", std::move(alloc));
        doc.set("status", std::move(status));
        Resource r;
        r.file = file;
        r.doc = std::move(doc);
        r.ref = {"v1", "Node", "", p.name.value + ".pool"};
        out.push_back(std::move(r));
    }
}

}  // namespace

std::optional<ClusterInput> render_site(const Resource& r, const std::optional<Target>& target) {
    Diagnostics ignored;
    auto s = parse_site(r.doc, r.file, ignored);
    if (!s) return std::nullopt;
    LowerOptions lo;
    if (target) lo.target_override = target->name;
    auto lowered = lower_site(*s, ignored, lo);
    if (!lowered) return std::nullopt;
    ClusterInput c;
    c.target = lowered->target;
    for (auto& o : lowered->objects) {
        Resource g;
        g.file = r.file;
        g.doc = std::move(o.doc);
        g.doc.set_mark(o.origin);
        g.ref = {o.api_version, o.kind, o.namespace_, o.name};
        c.objects.push_back(std::move(g));
    }
    add_pool_nodes(*s, r.file, c.objects);
    return c;
}

}  // namespace queueforge::policy
