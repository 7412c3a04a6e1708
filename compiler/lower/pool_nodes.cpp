// A site's pools as Node objects, so that checks written for cluster dumps
// (capacity, node shapes, policies) see a site like a cluster.
#include <queueforge/lower.hpp>

namespace queueforge {

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
        // One Node stands for the pool's `nodes`: what one node allocates is
        // the total divided by this count (the HardwareProfile checks).
        Node annotations = Node::mapping();
        annotations.set("queueforge.io/pool-nodes", Node::string(std::to_string(p.nodes->value)));
        meta.set("annotations", std::move(annotations));
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

}  // namespace queueforge
