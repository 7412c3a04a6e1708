// The nodes a site's pools describe with `topology.shape`, as v1 Node objects
// for the simulator's topology-aware placement (the scheduler reads Nodes the
// way it reads a `kubectl get nodes -o yaml` dump).
#include "engines/scenarios/site_nodes.hpp"

#include <queueforge/engines/topology_site.hpp>

namespace queueforge::scenarios {

namespace {

std::string amount_text(const std::string& resource, std::int64_t v) {
    // Kueue's int64 amounts: cpu in milli-units.
    return resource == "cpu" ? std::to_string(v) + "m" : std::to_string(v);
}

Resource node_object(const topology::Node& n, const std::string& pool, const std::string& file) {
    Resource r;
    r.file = file;
    r.ref = {"v1", "Node", "", n.name};
    r.doc = Node::mapping();
    r.doc.set("apiVersion", Node::string("v1"));
    r.doc.set("kind", Node::string("Node"));
    Node meta = Node::mapping();
    meta.set("name", Node::string(n.name));
    Node labels = Node::mapping();
    for (const auto& [k, v] : n.labels) labels.set(k, Node::string(v));
    meta.set("labels", std::move(labels));
    Node annotations = Node::mapping();
    annotations.set(std::string(kSitePoolAnnotation), Node::string(pool));
    meta.set("annotations", std::move(annotations));
    r.doc.set("metadata", std::move(meta));
    if (!n.taints.empty()) {
        Node taints = Node::sequence();
        for (const auto& t : n.taints) {
            Node x = Node::mapping();
            x.set("key", Node::string(t.key));
            if (!t.value.empty()) x.set("value", Node::string(t.value));
            x.set("effect", Node::string(t.effect));
            taints.push(std::move(x));
        }
        Node spec = Node::mapping();
        spec.set("taints", std::move(taints));
        r.doc.set("spec", std::move(spec));
    }
    Node alloc = Node::mapping();
    for (const auto& [res, v] : n.allocatable) alloc.set(res, Node::string(amount_text(res, v)));
    Node status = Node::mapping();
    status.set("allocatable", std::move(alloc));
    r.doc.set("status", std::move(status));
    return r;
}

}  // namespace

std::vector<Resource> site_nodes(const site::Site& s, const std::string& file) {
    std::vector<Resource> out;
    for (const auto& pool : s.pools) {
        auto spec = topology::spec_from_site(s, pool);
        if (!spec) continue;
        for (const auto& n : spec->nodes) out.push_back(node_object(n, pool.name.value, file));
    }
    return out;
}

}  // namespace queueforge::scenarios
