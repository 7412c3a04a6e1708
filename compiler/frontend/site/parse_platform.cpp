// The platform around the queues: spec.hardwareProfiles (the dashboard's
// HardwareProfiles of type Queue), spec.kueueOperator (the Red Hat build of
// Kueue operator's Kueue CR) and spec.kueueConfig (plain Kueue's own
// Configuration). Shape and types only; references (teams, pools,
// priority classes) and what the target serves are checked when lowering.
#include "frontend/site/parse_parts.hpp"

#include <map>
#include <set>

namespace queueforge::site {

namespace {

void read_range(const Reader& r, const Node* n, const std::string& what, std::optional<CountRange>& out) {
    if (!n) return;
    if (!r.expect_map(*n, what, {"min", "default", "max"})) return;
    CountRange c;
    c.mark = n->mark();
    r.read_quantity(n->find("min"), what + ".min", c.min);
    r.read_quantity(n->find("default"), what + ".default", c.def);
    r.read_quantity(n->find("max"), what + ".max", c.max);
    for (const auto* q : {&c.min, &c.def, &c.max})
        if (*q && (*q)->value.sign() < 0)
            r.error((*q)->mark, what + ": a count cannot be negative", "site.hardware-profile");
    // The dashboard's own form refuses min > default > max; Kueue would see
    // the default request.
    auto order = [&](const std::optional<Located<Quantity>>& lo, const std::optional<Located<Quantity>>& hi,
                     const char* lo_name, const char* hi_name) {
        if (lo && hi && lo->value.compare(hi->value) > 0)
            r.error(hi->mark,
                    what + "." + hi_name + " (" + hi->value.to_string() + ") is below " + lo_name + " (" +
                        lo->value.to_string() + ")",
                    "site.hardware-profile");
    };
    order(c.min, c.def, "min", "default");
    order(c.def, c.max, "default", "max");
    if (!c.def) order(c.min, c.max, "min", "max");
    out = std::move(c);
}

// deviceClassMappings: [{name, deviceClassNames}], as Kueue validates them
// (kubernetes-sigs/kueue ff69552e pkg/config/validation.go
// validateDeviceClassMappings; the Kueue CR's CRD has the same bounds,
// openshift/kueue-operator release-1.4 types.go): at most 16 mappings, each
// name a label key (<= 253) and unique, 1-8 DeviceClass names that are label
// keys, a DeviceClass in one mapping only.
void read_device_class_mappings(const Reader& r, const Node* n, const std::string& what,
                                std::vector<DeviceClassMapping>& out) {
    if (!n || !r.expect_seq(*n, what)) return;
    if (n->items().size() > 16)
        r.error(n->mark(), what + ": " + std::to_string(n->items().size()) + " mappings, Kueue accepts at most 16",
                "site.kueue-config");
    std::map<std::string, std::string> class_owner;  // DeviceClass -> the mapping's name
    std::set<std::string> names;
    for (std::size_t i = 0; i < n->items().size(); ++i) {
        const Node& m = n->items()[i];
        const std::string w = what + "[" + std::to_string(i) + "]";
        if (!r.expect_map(m, w, {"name", "deviceClassNames"})) continue;
        if (!r.require(m, "name", w) || !r.require(m, "deviceClassNames", w)) continue;
        DeviceClassMapping d;
        d.mark = m.mark();
        if (!r.read_text(m.find("name"), w + ".name", d.name)) continue;
        if (auto e = check_qualified_name(d.name.value); !e.empty())
            r.error(d.name.mark, w + ".name: \"" + d.name.value + "\" is not a resource name Kueue accepts: " + e,
                    "site.kueue-config");
        else if (!names.insert(d.name.value).second)
            r.error(d.name.mark, w + ".name: \"" + d.name.value + "\" is mapped twice", "site.kueue-config");
        r.read_text_list(m.find("deviceClassNames"), w + ".deviceClassNames", d.device_class_names);
        if (d.device_class_names.empty())
            r.error(m.find("deviceClassNames")->mark(), w + ".deviceClassNames: at least one DeviceClass name is required",
                    "site.kueue-config");
        if (d.device_class_names.size() > 8)
            r.error(m.find("deviceClassNames")->mark(),
                    w + ".deviceClassNames: " + std::to_string(d.device_class_names.size()) +
                        " names, Kueue accepts at most 8",
                    "site.kueue-config");
        std::set<std::string> mine;
        for (const auto& c : d.device_class_names) {
            if (auto e = check_qualified_name(c.value); !e.empty()) {
                r.error(c.mark, w + ".deviceClassNames: \"" + c.value + "\" is not a DeviceClass name Kueue accepts: " + e,
                        "site.kueue-config");
                continue;
            }
            if (!mine.insert(c.value).second) {
                r.error(c.mark, w + ".deviceClassNames: \"" + c.value + "\" is listed twice", "site.kueue-config");
                continue;
            }
            auto [it, fresh] = class_owner.try_emplace(c.value, d.name.value);
            if (!fresh)
                r.error(c.mark,
                        w + ".deviceClassNames: DeviceClass \"" + c.value + "\" is already mapped to " + it->second +
                            " (Kueue counts a DeviceClass as one resource)",
                        "site.kueue-config");
        }
        out.push_back(std::move(d));
    }
}

}  // namespace

bool read_hardware_profile(const Reader& r, const Node& n, const std::string& what, HardwareProfile& out) {
    if (!r.expect_map(n, what,
                      {"name", "team", "pool", "displayName", "description", "localQueue", "priorityClass", "cpu",
                       "memory", "accelerator"}))
        return false;
    out.mark = n.mark();
    if (!r.require(n, "name", what)) return false;
    r.read_name(n.find("name"), what + ".name", out.name);
    r.read_name(n.find("team"), what + ".team", out.team);
    r.read_name(n.find("pool"), what + ".pool", out.pool);
    if (!n.find("team") && !n.find("pool"))
        r.error(n.mark(), what + ": give team, pool or both (whose queue the profile submits to)", "site.hardware-profile");
    r.read_text(n.find("displayName"), what + ".displayName", out.display_name);
    r.read_text(n.find("description"), what + ".description", out.description);
    r.read_name(n.find("localQueue"), what + ".localQueue", out.local_queue);
    r.read_name(n.find("priorityClass"), what + ".priorityClass", out.priority_class);
    read_range(r, n.find("cpu"), what + ".cpu", out.cpu);
    read_range(r, n.find("memory"), what + ".memory", out.memory);
    read_range(r, n.find("accelerator"), what + ".accelerator", out.accelerator);
    return true;
}

void read_hardware_profiles(const Reader& r, const Node& n, HardwareProfiles& out) {
    const std::string what = "spec.hardwareProfiles";
    if (!r.expect_map(n, what, {"perTeamAndPool", "namespace", "priorityClass", "profiles"})) return;
    out.mark = n.mark();
    r.read_bool(n.find("perTeamAndPool"), what + ".perTeamAndPool", out.per_team_and_pool);
    r.read_name(n.find("namespace"), what + ".namespace", out.namespace_);
    r.read_name(n.find("priorityClass"), what + ".priorityClass", out.priority_class);
    if (const Node* p = n.find("profiles"); p && r.expect_seq(*p, what + ".profiles")) {
        for (std::size_t i = 0; i < p->items().size(); ++i) {
            HardwareProfile h;
            if (read_hardware_profile(r, p->items()[i], what + ".profiles[" + std::to_string(i) + "]", h))
                out.profiles.push_back(std::move(h));
        }
    }
}

void read_kueue_operator(const Reader& r, const Node& n, Mark key, KueueOperator& out) {
    const std::string what = "spec.kueueOperator";
    out.mark = n.is_null() ? key : n.mark();
    if (n.is_null()) return;  // `kueueOperator:` alone: emit the CR with what the site implies
    if (!r.expect_map(n, what,
                      {"frameworks", "labelPolicy", "gangScheduling", "preemptionPolicy", "admissionFairSharing",
                       "deviceClassMappings"}))
        return;
    read_device_class_mappings(r, n.find("deviceClassMappings"), what + ".deviceClassMappings", out.device_class_mappings);
    // Names are checked against the target's operator release when lowering
    // (the enum grows from release to release).
    r.read_text_list(n.find("frameworks"), what + ".frameworks", out.frameworks);
    r.read_enum(n.find("labelPolicy"), what + ".labelPolicy", out.label_policy, {"QueueName", "None"});
    if (const Node* g = n.find("gangScheduling"); g && r.expect_map(*g, what + ".gangScheduling", {"policy", "admission"})) {
        r.read_enum(g->find("policy"), what + ".gangScheduling.policy", out.gang_scheduling, {"ByWorkload", "None"});
        r.read_enum(g->find("admission"), what + ".gangScheduling.admission", out.gang_admission,
                    {"Sequential", "Parallel"});
        if (!out.gang_admission.value.empty() && out.gang_scheduling.value != "ByWorkload")
            r.error(out.gang_admission.mark,
                    what + ".gangScheduling.admission: only with policy ByWorkload (the Kueue CR's CEL rule: byWorkload "
                           "is required when policy is ByWorkload, and forbidden otherwise)",
                    "site.kueue-operator");
    }
    r.read_enum(n.find("preemptionPolicy"), what + ".preemptionPolicy", out.preemption_policy,
                {"Classical", "FairSharing"});
    if (const Node* a = n.find("admissionFairSharing")) {
        const std::string aw = what + ".admissionFairSharing";
        out.admission_fair_sharing = true;
        out.admission_fair_sharing_mark = a->mark();
        if (!a->is_null() &&
            r.expect_map(*a, aw, {"usageHalfLifeTimeSeconds", "usageSamplingIntervalSeconds", "resourceWeights"})) {
            // Bounds of the Kueue CR (kueue-operator release-1.4 types.go).
            r.read_int(a->find("usageHalfLifeTimeSeconds"), aw + ".usageHalfLifeTimeSeconds",
                       out.usage_half_life_seconds, 1, 31536000);
            r.read_int(a->find("usageSamplingIntervalSeconds"), aw + ".usageSamplingIntervalSeconds",
                       out.usage_sampling_seconds, 1, 3600);
            r.read_string_map(a->find("resourceWeights"), aw + ".resourceWeights", out.resource_weights);
            if (out.resource_weights.size() > 16)
                r.error(a->find("resourceWeights")->mark(), aw + ".resourceWeights: at most 16 resources",
                        "site.kueue-operator");
            for (const auto& [res, w] : out.resource_weights) {
                // ResourceWeight.weight: a non-negative decimal number.
                const std::string& v = w.value;
                bool ok = !v.empty();
                bool dot = false, digit = false;
                for (std::size_t i = 0; i < v.size() && ok; ++i) {
                    char c = v[i];
                    if (c == '+' && i == 0) continue;
                    if (c == '.' && !dot) dot = true;
                    else if (c >= '0' && c <= '9') digit = true;
                    else ok = false;
                }
                if (!ok || !digit)
                    r.error(w.mark, aw + ".resourceWeights." + res.value + ": \"" + v + "\" is not a non-negative number",
                            "site.kueue-operator");
            }
        }
    }
}

void read_kueue_config(const Reader& r, const Node& n, Mark key, KueueConfiguration& out) {
    const std::string what = "spec.kueueConfig";
    out.mark = n.is_null() ? key : n.mark();
    if (n.is_null()) return;  // `kueueConfig:` alone: emit the Configuration with what the site implies
    if (!r.expect_map(n, what,
                      {"namespace", "frameworks", "manageJobsWithoutQueueName", "fairSharing", "deviceClassMappings"}))
        return;
    r.read_name(n.find("namespace"), what + ".namespace", out.namespace_);
    // Names are checked against the target's Kueue when lowering (the list
    // of integrations grows from release to release).
    r.read_text_list(n.find("frameworks"), what + ".frameworks", out.frameworks);
    r.read_bool(n.find("manageJobsWithoutQueueName"), what + ".manageJobsWithoutQueueName",
                out.manage_jobs_without_queue_name);
    r.read_bool(n.find("fairSharing"), what + ".fairSharing", out.fair_sharing);
    read_device_class_mappings(r, n.find("deviceClassMappings"), what + ".deviceClassMappings", out.device_class_mappings);
}

}  // namespace queueforge::site
