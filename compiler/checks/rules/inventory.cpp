#include "checks/rules/inventory.hpp"

#include "frontend/site/reader.hpp"

namespace queueforge::rules::detail {

std::vector<std::string> Inventory::names(const ByName& m) const {
    std::vector<std::string> out;
    for (const auto& [n, _] : m) out.push_back(n);
    return out;
}

Inventory build_inventory(const std::vector<Resource>& resources) {
    Inventory inv;
    for (const auto& r : resources) {
        const std::string_view group = api_group_view(r.ref.api_version);
        const std::string_view kind = r.ref.kind;
        if (group == kKueueGroup) {
            if (kind == "ResourceFlavor") {
                inv.flavors.push_back(&r);
                inv.flavor_by_name.emplace(r.ref.name, &r);
            } else if (kind == "ClusterQueue") {
                inv.cluster_queues.push_back(&r);
                inv.cq_by_name.emplace(r.ref.name, &r);
            } else if (kind == "Cohort") {
                inv.cohorts.push_back(&r);
                inv.cohort_by_name.emplace(r.ref.name, &r);
            } else if (kind == "LocalQueue") {
                inv.local_queues.push_back(&r);
            }
        } else if (group.empty() && r.ref.api_version == "v1") {
            if (kind == "Namespace") {
                inv.namespaces.push_back(&r);
                inv.namespace_by_name.emplace(r.ref.name, &r);
            } else if (kind == "Node") {
                inv.nodes.push_back(&r);
            }
        } else if (group == "datasciencecluster.opendatahub.io" && kind == "DataScienceCluster") {
            inv.dscs.push_back(&r);
        } else if (group == "infrastructure.opendatahub.io" && kind == "HardwareProfile") {
            inv.hardware_profiles.push_back(&r);
        }
    }
    return inv;
}

std::string suggestion(const std::string& word, const std::vector<std::string>& candidates) {
    auto hint = site::did_you_mean(word, candidates);
    return hint.empty() || hint == word ? std::string() : " (did you mean " + go_quote(hint) + "?)";
}

std::string where(const Resource& r) {
    Mark m = r.doc.mark();
    std::string s = r.file;
    if (m.known()) s += ":" + std::to_string(m.line) + ":" + std::to_string(m.col);
    return s;
}

}  // namespace queueforge::rules::detail
