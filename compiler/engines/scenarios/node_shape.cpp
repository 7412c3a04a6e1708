#include "engines/scenarios/node_shape.hpp"
#include "engines/scenarios/site_nodes.hpp"

#include <map>

namespace queueforge::scenarios {

namespace {

std::map<std::string, std::string> labels_of(const Node* m) {
    std::map<std::string, std::string> out;
    if (m && m->is_map())
        for (const auto& e : m->entries()) out[e.key] = e.value.text();
    return out;
}

}  // namespace

std::vector<NodeShape> node_shapes(const std::vector<const site::Site*>& sites, const std::vector<Resource>& objects) {
    std::vector<NodeShape> out;
    for (const auto* s : sites)
        for (const auto& p : s->pools) {
            if (!p.nodes || p.allocatable.empty()) continue;
            NodeShape n{p.name.value, {}, p.nodes->value};
            for (const auto& a : p.allocatable) n.allocatable.emplace_back(a.resource, *a.absolute);
            out.push_back(std::move(n));
        }
    // Node objects count for every flavor whose nodeLabels they carry.
    std::vector<std::pair<std::string, std::map<std::string, std::string>>> flavors;
    for (const auto& r : objects)
        if (r.ref.kind == "ResourceFlavor") {
            const Node* spec = r.doc.find("spec");
            flavors.emplace_back(r.ref.name, labels_of(spec ? spec->find("nodeLabels") : nullptr));
        }
    for (const auto& r : objects) {
        if (r.ref.kind != "Node" || r.ref.api_version != "v1") continue;
        const Node* meta = r.doc.find("metadata");
        // A site pool's own nodes: the pool above already counts them.
        if (const Node* ann = meta ? meta->find("annotations") : nullptr; ann && ann->find(kSitePoolAnnotation)) continue;
        auto labels = labels_of(meta ? meta->find("labels") : nullptr);
        const Node* status = r.doc.find("status");
        const Node* alloc = status ? status->find("allocatable") : nullptr;
        if (!alloc || !alloc->is_map()) continue;
        for (const auto& [flavor, want] : flavors) {
            bool match = true;
            for (const auto& [k, v] : want) {
                auto it = labels.find(k);
                if (it == labels.end() || it->second != v) match = false;
            }
            if (!match) continue;
            NodeShape n{flavor, {}, 1};
            for (const auto& e : alloc->entries())
                if (auto q = Quantity::parse(e.value.text())) n.allocatable.emplace_back(e.key, *q);
            out.push_back(std::move(n));
        }
    }
    return out;
}

namespace {

// Why the pods of an admitted workload can never all be scheduled on the
// nodes of the flavors they were assigned, or empty.
std::string shape_problem(const scheduler::WorkloadOutcome& w, const std::vector<NodeShape>& shapes) {
    if (!w.admitted) return {};
    for (const auto& a : w.assignments) {
        // On a TAS flavor the placement already put each pod on a node.
        if (a.count <= 0 || a.topology_assignment) continue;
        // One flavor per resource; the pod needs a node of the flavor its
        // resources were assigned (they share one resource group here).
        std::map<std::string, std::vector<const NodeShape*>> nodes_of;
        for (const auto& [res, flavor] : a.flavors)
            for (const auto& n : shapes)
                if (n.flavor == flavor) nodes_of[flavor].push_back(&n);
        for (const auto& [res, flavor] : a.flavors) {
            if (res == "pods" || !nodes_of.count(flavor)) continue;
            auto usage = a.resource_usage.find(res);
            if (usage == a.resource_usage.end()) continue;
            auto total = Quantity::parse(usage->second);
            if (!total) continue;
            auto per_pod = total->scale(1, a.count);
            if (!per_pod) continue;
            std::optional<Quantity> largest, capacity = Quantity{};
            for (const auto* n : nodes_of[flavor])
                for (const auto& [r, q] : n->allocatable)
                    if (r == res) {
                        if (!largest || *largest < q) largest = q;
                        if (capacity) capacity = capacity->add(*q.mul(n->count));
                    }
            if (!largest)
                return "pod set " + a.name + " needs " + res + " but no node of flavor " + flavor + " offers it";
            if (*largest < *per_pod)
                return "pod set " + a.name + " was admitted on flavor " + flavor + ", but one pod needs " +
                       per_pod->to_string() + " " + res + " and the largest node of " + flavor + " has " +
                       largest->to_string() + ": the pods can never be scheduled";
            if (capacity && *capacity < *total)
                return "pod set " + a.name + " needs " + total->to_string() + " " + res + " in total but the nodes of flavor " +
                       flavor + " have " + capacity->to_string();
        }
    }
    return {};
}

}  // namespace

void check_node_shapes(Report& report, const std::vector<NodeShape>& shapes) {
    if (shapes.empty()) return;
    // Every sample, in both runs: a pod that fits no node stays a problem
    // when another workload keeps it pending in the together run.
    for (auto& s : report.workloads) {
        s.node_shape_problem = shape_problem(s.together, shapes);
        if (s.alone) {
            std::string alone = shape_problem(*s.alone, shapes);
            s.alone_node_shape = !alone.empty();
            if (s.node_shape_problem.empty() && !alone.empty()) s.node_shape_problem = "alone: " + alone;
        }
        if (!s.node_shape_problem.empty()) report.node_shape_problems = true;
    }
}

}  // namespace queueforge::scenarios
