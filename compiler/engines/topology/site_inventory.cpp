// spec_from_site: the nodes of a pool's topology.shape (lower/topologies.cpp
// checks the shape against the levels; this builds what it describes).
#include <queueforge/engines/topology_site.hpp>

#include <queueforge/model/cluster.hpp>

namespace queueforge::topology {

namespace {

// "cloud.provider.com/topology-rack" -> "rack": the name part of the label,
// without a "topology-" prefix.
std::string short_name(const std::string& label) {
    std::string s = label.substr(label.rfind('/') == std::string::npos ? 0 : label.rfind('/') + 1);
    if (s.starts_with("topology-") && s.size() > 9) s = s.substr(9);
    return s;
}

Toleration toleration_of(const queueforge::Node& t) {
    Toleration out;
    auto text = [&](const char* k) { return t.find(k) ? t.find(k)->text().str() : std::string(); };
    out.key = text("key");
    if (!text("operator").empty()) out.op = text("operator");
    out.value = text("value");
    out.effect = text("effect");
    return out;
}

}  // namespace

std::optional<TopologySpec> spec_from_site(const site::Site& s, const site::Pool& pool) {
    if (!pool.topology) return std::nullopt;
    const site::Topology* topo = nullptr;
    for (const auto& t : s.topologies)
        if (t.name.value == pool.topology->name.value) topo = &t;
    if (!topo || topo->levels.empty()) return std::nullopt;
    const auto& shape = pool.topology->shape;
    std::vector<std::string> domain_levels;
    for (const auto& l : topo->levels)
        if (l.value != kHostnameLabel) domain_levels.push_back(l.value);
    if (shape.size() != domain_levels.size() + 1) return std::nullopt;
    std::int64_t total = 1;
    for (const auto& n : shape) {
        if (n.value < 1 || total > static_cast<std::int64_t>(kMaxNodes) / n.value) return std::nullopt;
        total *= n.value;
    }

    TopologySpec spec;
    spec.name = topo->name.value;
    for (const auto& l : topo->levels) spec.levels.push_back(l.value);
    for (const auto& [k, v] : pool.node_labels) spec.flavor_node_labels[k.value] = v.value;
    for (const auto& t : pool.tolerations) spec.flavor_tolerations.push_back(toleration_of(t));
    Node base;
    base.labels = spec.flavor_node_labels;
    for (const auto& a : pool.allocatable)
        if (a.absolute) base.allocatable[a.resource] = model::kueue_amount(a.resource, *a.absolute);
    // Every node reports allocatable pods; the kubelet's default maxPods is
    // 110 when the pool does not say.
    base.allocatable.try_emplace("pods", 110);
    for (const auto& t : pool.taints) base.taints.push_back({t.key.value, t.value.value, t.effect.value});

    // Node i's index at each level: a mixed-radix count over the shape.
    spec.nodes.reserve(static_cast<std::size_t>(total));
    std::vector<std::int64_t> digit(shape.size(), 0);
    for (std::int64_t i = 0; i < total; ++i) {
        Node n = base;
        std::string path = pool.name.value;
        for (std::size_t l = 0; l < domain_levels.size(); ++l) {
            path += "-" + short_name(domain_levels[l]) + std::to_string(digit[l] + 1);
            n.labels[domain_levels[l]] = path;
        }
        n.name = path + "-n" + std::to_string(digit.back() + 1);
        n.labels[kHostnameLabel] = n.name;
        spec.nodes.push_back(std::move(n));
        for (std::size_t l = shape.size(); l-- > 0;) {
            if (++digit[l] < shape[l].value) break;
            digit[l] = 0;
        }
    }
    return spec;
}

}  // namespace queueforge::topology
