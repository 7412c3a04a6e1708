#include "lower/kueue_settings.hpp"

#include <queueforge/frontend/job_kinds.hpp>

#include <algorithm>

namespace queueforge::lower {

std::vector<NeededKind> needed_job_kinds(const Context& ctx) {
    std::vector<NeededKind> out;
    for (const auto& j : site_job_kinds(ctx.site))
        out.push_back({j.api_version, j.kind, {j.mark, Derivation::Formed, "workload " + j.workload + " is a " + j.kind},
                       j.mark, "workload \"" + j.workload + "\" (" + j.kind + ")"});
    const auto& hp = ctx.site.hardware_profiles;
    if (hp && (!hp->profiles.empty() || (hp->per_team_and_pool && hp->per_team_and_pool->value)))
        for (const char* k : {"StatefulSet", "Deployment"})
            out.push_back({"apps/v1", k,
                           {hp->mark, Derivation::Formed,
                            "HardwareProfiles: the dashboard's workbenches are StatefulSets, its model servers Deployments"},
                           hp->mark, "spec.hardwareProfiles"});
    return out;
}

bool kueue_unmanaged(const site::Site& s) {
    for (const auto& [name, state] : s.dsc.components)
        if (name.value == "kueue" && state.value == "Unmanaged") return true;
    return false;
}

std::optional<std::pair<Mark, std::string>> first_fair_sharing_weight(const site::Site& s) {
    if (s.team_defaults.fair_sharing_weight) return std::pair{s.team_defaults.fair_sharing_weight->mark, std::string("teamDefaults")};
    for (const auto& t : s.teams)
        if (t.settings.fair_sharing_weight) return std::pair{t.settings.fair_sharing_weight->mark, "team " + t.name.value};
    for (const auto& c : s.cohorts)
        if (c.fair_sharing_weight) return std::pair{c.fair_sharing_weight->mark, "cohort " + c.name.value};
    return std::nullopt;
}

Node device_class_mappings_node(const std::vector<site::DeviceClassMapping>& mappings, const Trace& at) {
    std::vector<const site::DeviceClassMapping*> sorted;
    for (const auto& m : mappings) sorted.push_back(&m);
    std::sort(sorted.begin(), sorted.end(), [](auto* a, auto* b) { return a->name.value < b->name.value; });
    Node out = Node::sequence();
    for (std::size_t i = 0; i < sorted.size(); ++i) {
        const auto& m = *sorted[i];
        Node entry = Node::mapping();
        entry.set("name", Node::string(m.name.value));
        std::vector<std::string> names;
        for (const auto& c : m.device_class_names) names.push_back(c.value);
        std::sort(names.begin(), names.end());
        Node classes = Node::sequence();
        for (auto& c : names) classes.push(Node::string(std::move(c)));
        entry.set("deviceClassNames", std::move(classes));
        at.item(i).set(m.mark, Derivation::Written);
        out.push(std::move(entry));
    }
    return out;
}

}  // namespace queueforge::lower
