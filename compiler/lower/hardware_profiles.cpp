// HardwareProfiles of type Queue: what OpenShift AI's dashboard offers data
// scientists instead of LocalQueue names (infrastructure.opendatahub.io,
// opendatahub-io/opendatahub-operator api/infrastructure/v1*/
// hardwareprofile_types.go). Each profile names a team's LocalQueue
// (spec.scheduling.kueue.localQueueName) and optionally a
// WorkloadPriorityClass, and bounds cpu, memory and the pool's accelerator
// (spec.identifiers). They are emitted into the namespace the dashboard reads
// cluster-wide profiles from (the DSCInitialization's applicationsNamespace,
// redhat-ods-applications); the dashboard shows a Queue profile in a project
// only when its LocalQueue exists in the project's namespace (odh-dashboard
// #8404), so each profile records the namespaces it is meant for in the
// annotation queueforge.io/namespaces, which `validate` checks.
#include "lower/metadata.hpp"
#include "lower/passes.hpp"

#include <queueforge/base/names.hpp>
#include <queueforge/base/node_read.hpp>
#include <queueforge/frontend/kueue_operator.hpp>

#include <algorithm>
#include <map>
#include <set>

namespace queueforge::lower {

namespace {

bool is_accelerator(const std::string& r) {
    return r != "cpu" && r != "memory" && r != "pods" && r != "ephemeral-storage" && !r.starts_with("hugepages-");
}

// The pool's accelerator: the first extended resource its nodes allocate
// (nvidia.com/gpu, amd.com/gpu, ...), or "".
std::string accelerator_of(const site::Pool& p) {
    for (const auto& a : p.allocatable)
        if (is_accelerator(a.resource) && a.absolute && a.absolute->sign() > 0) return a.resource;
    return {};
}

std::optional<Quantity> node_allocatable(const site::Pool& p, const std::string& resource) {
    for (const auto& a : p.allocatable)
        if (a.resource == resource && a.absolute) return a.absolute;
    return std::nullopt;
}

std::string local_queue_of(const Context& ctx, const site::Team& t) {
    if (!t.settings.local_queue.value.empty()) return t.settings.local_queue.value;
    if (!ctx.site.team_defaults.local_queue.value.empty()) return ctx.site.team_defaults.local_queue.value;
    return "default";
}

bool has_quota_in(const site::Team& t, const std::string& pool) {
    return std::any_of(t.quota.begin(), t.quota.end(), [&](const site::QuotaEntry& q) { return q.pool.value == pool; });
}

// The most of `resource` one workload of the team can get from `pool`: the
// ClusterQueue's nominalQuota plus its borrowingLimit; without a cohort the
// nominal quota alone; in a cohort without a borrowingLimit nothing bounds it
// below the cohort (nullopt). Read from the ClusterQueue just lowered, so
// shares are already resolved.
std::optional<Quantity> team_reach(const Context& ctx, const site::Team& t, const std::string& pool,
                                   const std::string& resource) {
    const std::string cq_name = t.cluster_queue.value.empty() ? t.name.value : t.cluster_queue.value;
    for (const auto& o : ctx.objects) {
        if (o.kind != "ClusterQueue" || o.name != cq_name) continue;
        const Node* spec = o.doc.find("spec");
        const bool cohort = spec && (spec->find("cohort") || spec->find("cohortName"));
        for (const auto& rg : items(present(spec, "resourceGroups")))
            for (const auto& fl : items(present(&rg, "flavors"))) {
                if (text(present(&fl, "name")) != pool) continue;
                for (const auto& r : items(present(&fl, "resources"))) {
                    if (text(present(&r, "name")) != resource) continue;
                    auto nominal = Quantity::parse(text(present(&r, "nominalQuota")));
                    if (!nominal) return std::nullopt;
                    const Node* bl = present(&r, "borrowingLimit");
                    if (bl) {
                        auto b = Quantity::parse(text(bl));
                        if (!b) return std::nullopt;
                        auto sum = nominal->add(*b);
                        return sum ? sum : std::nullopt;
                    }
                    if (cohort) return std::nullopt;
                    return nominal;
                }
            }
    }
    return Quantity();  // the ClusterQueue holds none of it
}

// IntOrString: an integer count as a number, anything else ("8Gi") as its
// canonical spelling.
Node count_node(const Quantity& q) {
    const std::string s = q.to_string();
    if (!s.empty() && std::all_of(s.begin(), s.end(), [](unsigned char c) { return c >= '0' && c <= '9'; }))
        return Node::integer(q.value());
    return Node::string(s);
}

struct Identifier {
    std::string display_name, identifier, resource_type;
    Quantity min, def;
    std::optional<Quantity> max;
    Origin from;
};

struct Profile {
    std::string name;
    std::string display_name, description;
    std::string local_queue;
    std::string priority_class;
    std::vector<std::string> namespaces;  // meant for
    std::string team;                     // when it serves one team
    std::vector<Identifier> identifiers;
    Mark origin;
    std::string rule;
    Origin local_queue_from, priority_from;
};

Quantity min_q(const Quantity& a, const Quantity& b) { return a.compare(b) <= 0 ? a : b; }

// A generated identifier: min and default clamped under max.
Identifier generated(std::string display, std::string resource, std::string type, Quantity min, Quantity def,
                     std::optional<Quantity> max, Origin from) {
    if (max) {
        def = min_q(def, *max);
        min = min_q(min, def);
    }
    return {std::move(display), std::move(resource), std::move(type), min, def, max, std::move(from)};
}

std::optional<Quantity> cap(std::optional<Quantity> node, std::optional<Quantity> reach) {
    if (node && reach) return min_q(*node, *reach);
    return node ? node : reach;
}

void emit(Context& ctx, const Profile& p, const std::string& api_version, const std::string& ns, Mark ns_mark) {
    std::vector<PendingRecord> records;
    Trace tr(records);
    std::vector<std::pair<std::string, std::string>> annotations;
    Trace ann = tr.field("metadata").field("annotations");
    // The dashboard reads name, description and visibility from annotations
    // (the operator's config/hardwareprofiles/default-profile.yaml).
    annotations.emplace_back("opendatahub.io/display-name", p.display_name);
    ann.set("opendatahub.io/display-name", p.origin, Derivation::Written, "the profile's display name");
    if (!p.description.empty()) {
        annotations.emplace_back("opendatahub.io/description", p.description);
        ann.set("opendatahub.io/description", p.origin, Derivation::Written, "the profile's description");
    }
    annotations.emplace_back("opendatahub.io/disabled", "false");
    ann.set("opendatahub.io/disabled", p.origin, Derivation::Default, "default: the profile is offered");
    if (!p.namespaces.empty()) {
        std::string list;
        for (const auto& n : p.namespaces) list += (list.empty() ? "" : ",") + n;
        annotations.emplace_back("queueforge.io/namespaces", list);
        ann.set("queueforge.io/namespaces", p.origin, Derivation::Formed,
                "the namespaces the profile is meant for (validate checks its LocalQueue exists in each)");
    }
    if (ns_mark.known()) tr.field("metadata").set("namespace", ns_mark, Derivation::Written, "spec.hardwareProfiles.namespace");
    else tr.field("metadata").set("namespace", target_origin(ctx, "the dashboard's applications namespace (redhat-ods-applications)"));

    Node spec = Node::mapping();
    Trace spec_tr = tr.field("spec");
    if (!p.identifiers.empty()) {
        Node ids = Node::sequence();
        for (std::size_t i = 0; i < p.identifiers.size(); ++i) {
            const auto& id = p.identifiers[i];
            Node n = Node::mapping();
            n.set("displayName", Node::string(id.display_name));
            n.set("identifier", Node::string(id.identifier));
            n.set("minCount", count_node(id.min));
            if (id.max) n.set("maxCount", count_node(*id.max));
            n.set("defaultCount", count_node(id.def));
            n.set("resourceType", Node::string(id.resource_type));
            spec_tr.field("identifiers").item(i).set(id.from);
            ids.push(std::move(n));
        }
        spec.set("identifiers", std::move(ids));
    }
    Node kueue = Node::mapping();
    kueue.set("localQueueName", Node::string(p.local_queue));
    Trace sched = spec_tr.field("scheduling");
    sched.set("type", p.origin, Derivation::Default, "a Queue profile: workloads go to the team's LocalQueue");
    sched.field("kueue").set("localQueueName", p.local_queue_from);
    if (!p.priority_class.empty()) {
        kueue.set("priorityClass", Node::string(p.priority_class));
        sched.field("kueue").set("priorityClass", p.priority_from);
    }
    Node scheduling = Node::mapping();
    scheduling.set("type", Node::string("Queue"));
    scheduling.set("kueue", std::move(kueue));
    spec.set("scheduling", std::move(scheduling));

    std::vector<std::pair<std::string, std::string>> labels;
    if (!p.team.empty()) labels.emplace_back("queueforge.io/team", p.team);
    add_object(ctx, {.api_version = api_version,
                     .kind = "HardwareProfile",
                     .name = p.name,
                     .namespace_ = ns,
                     .component = "hardware-profiles",
                     .labels = std::move(labels),
                     .annotations = std::move(annotations),
                     .wave = kWaveHardwareProfile,
                     .kind_rank = 0,
                     .origin = p.origin,
                     .rule = p.rule,
                     .name_from = {p.origin, Derivation::Written, {}},
                     .fields = one_field("spec", std::move(spec)),
                     .provenance = std::move(records)});
}

}  // namespace

void lower_hardware_profiles(Context& ctx) {
    if (!ctx.site.hardware_profiles) return;
    const auto& hp = *ctx.site.hardware_profiles;
    const std::string api_version = platform::hardware_profile_api_version(ctx.target);
    if (api_version.empty()) {
        ctx.error(hp.mark,
                  "spec.hardwareProfiles: target " + ctx.target.name +
                      " serves no HardwareProfile of type Queue (infrastructure.opendatahub.io); the first release that "
                      "does is OpenShift AI " + platform::first_hardware_profile_release().to_string() +
                      " (v1alpha1; v1 from 3.0)",
                  "target.hardware-profile");
        return;
    }
    const std::string ns = hp.namespace_.value.empty() ? std::string(platform::kDashboardNamespace) : hp.namespace_.value;

    std::map<std::string, const site::Team*> teams;
    for (const auto& t : ctx.site.teams) teams.emplace(t.name.value, &t);
    auto known_priority = [&](const site::Text& pc) {
        if (pc.value.empty() || ctx.priority_classes.count(pc.value)) return true;
        std::vector<std::string> names;
        for (const auto& [n, _] : ctx.priority_classes) names.push_back(n);
        std::string hint = did_you_mean(pc.value, names);
        ctx.error(pc.mark,
                  "unknown priority class \"" + pc.value + "\" (declare it under spec.priorityClasses)" +
                      (hint.empty() ? "" : "; did you mean \"" + hint + "\"?"),
                  "site.unknown-priority-class");
        return false;
    };
    known_priority(hp.priority_class);

    std::vector<Profile> out;
    // The sensible default: one Queue profile per team and GPU pool.
    if (hp.per_team_and_pool && hp.per_team_and_pool->value) {
        for (const auto& t : ctx.site.teams)
            for (const auto& q : t.quota) {
                auto pool = ctx.pools.find(q.pool.value);
                if (pool == ctx.pools.end()) continue;  // site.unknown-pool, reported by the teams pass
                const site::Pool& p = *pool->second;
                const std::string acc = accelerator_of(p);
                if (acc.empty()) continue;
                auto acc_reach = team_reach(ctx, t, p.name.value, acc);
                if (acc_reach && acc_reach->sign() <= 0) continue;  // no accelerator of this pool for the team
                Profile pr;
                pr.name = t.name.value + "-" + p.name.value;
                const std::string team_label = t.display_name.value.empty() ? t.name.value : t.display_name.value;
                pr.display_name = team_label + ": " + p.name.value;
                pr.local_queue = local_queue_of(ctx, t);
                auto acc_max = cap(node_allocatable(p, acc), acc_reach);
                pr.description = "Queue " + pr.local_queue + " of team " + t.name.value + " on pool " + p.name.value +
                                 (acc_max ? " (up to " + acc_max->to_string() + " " + acc + " per workload)" : "");
                pr.priority_class = hp.priority_class.value;
                pr.priority_from = {hp.priority_class.mark, Derivation::Written, "spec.hardwareProfiles.priorityClass"};
                for (const auto& n : t.namespaces) pr.namespaces.push_back(n.value);
                pr.team = t.name.value;
                pr.origin = q.mark;
                pr.rule = "perTeamAndPool: one Queue profile for team " + t.name.value + " on GPU pool " + p.name.value;
                pr.local_queue_from = {t.mark, Derivation::Formed, "the team's LocalQueue"};
                const Origin node_from{p.name.mark, Derivation::Formed,
                                       "generated: maximum = the pool's node (largest node), capped by the team's quota"};
                auto cpu_max = cap(node_allocatable(p, "cpu"), team_reach(ctx, t, p.name.value, "cpu"));
                auto mem_max = cap(node_allocatable(p, "memory"), team_reach(ctx, t, p.name.value, "memory"));
                pr.identifiers.push_back(generated("CPU", "cpu", "CPU", Quantity::from_int(1), Quantity::from_int(2), cpu_max, node_from));
                pr.identifiers.push_back(generated("Memory", "memory", "Memory", *Quantity::parse("2Gi"), *Quantity::parse("8Gi"), mem_max, node_from));
                pr.identifiers.push_back(generated(acc, acc, "Accelerator", Quantity::from_int(1), Quantity::from_int(1), acc_max, node_from));
                out.push_back(std::move(pr));
            }
    }

    for (const auto& h : hp.profiles) {
        const std::string what = "hardware profile \"" + h.name.value + "\"";
        bool ok = true;
        const site::Team* team = nullptr;
        const site::Pool* pool = nullptr;
        if (!h.team.value.empty()) {
            auto it = teams.find(h.team.value);
            if (it == teams.end()) {
                std::vector<std::string> names;
                for (const auto& [n, _] : teams) names.push_back(n);
                std::string hint = did_you_mean(h.team.value, names);
                ctx.error(h.team.mark, what + ": unknown team \"" + h.team.value + "\"" + (hint.empty() ? "" : "; did you mean \"" + hint + "\"?"),
                          "site.unknown-team");
                ok = false;
            } else {
                team = it->second;
            }
        }
        if (!h.pool.value.empty()) {
            auto it = ctx.pools.find(h.pool.value);
            if (it == ctx.pools.end()) {
                std::vector<std::string> names;
                for (const auto& [n, _] : ctx.pools) names.push_back(n);
                std::string hint = did_you_mean(h.pool.value, names);
                ctx.error(h.pool.mark, what + ": unknown pool \"" + h.pool.value + "\"" + (hint.empty() ? "" : "; did you mean \"" + hint + "\"?"),
                          "site.unknown-pool");
                ok = false;
            } else {
                pool = it->second;
            }
        }
        if (!known_priority(h.priority_class)) ok = false;
        if (!ok) continue;

        // The teams the profile serves: the one named, or every team with
        // quota in the pool.
        std::vector<const site::Team*> served;
        if (team) {
            if (pool && !has_quota_in(*team, pool->name.value))
                ctx.warning(h.pool.mark,
                            what + ": team " + team->name.value + " has no quota in pool " + pool->name.value +
                                ": workloads of the profile cannot be admitted there",
                            "site.hardware-profile");
            served.push_back(team);
        } else {
            for (const auto& t : ctx.site.teams)
                if (has_quota_in(t, pool->name.value)) served.push_back(&t);
            if (served.empty()) {
                ctx.error(h.pool.mark, what + ": no team has quota in pool " + pool->name.value, "site.hardware-profile");
                continue;
            }
        }
        Profile pr;
        pr.name = h.name.value;
        pr.display_name = h.display_name.value.empty() ? h.name.value : h.display_name.value;
        pr.description = h.description.value;
        pr.origin = h.mark;
        pr.rule = "spec.hardwareProfiles: " + what;
        if (!h.local_queue.value.empty()) {
            pr.local_queue = h.local_queue.value;
            pr.local_queue_from = {h.local_queue.mark, Derivation::Written, {}};
        } else {
            std::set<std::string> names;
            for (const auto* t : served) names.insert(local_queue_of(ctx, *t));
            if (names.size() > 1) {
                std::string list;
                for (const auto& n : names) list += (list.empty() ? "" : ", ") + n;
                ctx.error(h.mark,
                          what + ": the teams with quota in pool " + pool->name.value +
                              " use different LocalQueue names (" + list + "); give localQueue",
                          "site.hardware-profile");
                continue;
            }
            pr.local_queue = *names.begin();
            pr.local_queue_from = {h.mark, Derivation::Formed, "the LocalQueue of the teams the profile serves"};
        }
        pr.priority_class = h.priority_class.value.empty() ? hp.priority_class.value : h.priority_class.value;
        pr.priority_from = h.priority_class.value.empty()
                               ? Origin{hp.priority_class.mark, Derivation::Written, "spec.hardwareProfiles.priorityClass"}
                               : Origin{h.priority_class.mark, Derivation::Written, {}};
        for (const auto* t : served)
            for (const auto& n : t->namespaces)
                if (std::find(pr.namespaces.begin(), pr.namespaces.end(), n.value) == pr.namespaces.end())
                    pr.namespaces.push_back(n.value);
        if (served.size() == 1) pr.team = served.front()->name.value;

        auto add = [&](const std::optional<site::CountRange>& r, std::string display, std::string resource, std::string type,
                       Quantity default_min) {
            if (!r) return;
            Identifier id;
            id.display_name = std::move(display);
            id.identifier = std::move(resource);
            id.resource_type = std::move(type);
            id.min = r->min ? r->min->value : default_min;
            id.def = r->def ? r->def->value : id.min;
            if (r->max) id.max = r->max->value;
            id.from = {r->mark, Derivation::Written, {}};
            pr.identifiers.push_back(std::move(id));
        };
        add(h.cpu, "CPU", "cpu", "CPU", Quantity::from_int(1));
        add(h.memory, "Memory", "memory", "Memory", *Quantity::parse("1Gi"));
        if (h.accelerator) {
            const std::string acc = pool ? accelerator_of(*pool) : std::string();
            if (!pool) {
                ctx.error(h.accelerator->mark, what + ": accelerator needs a pool (whose accelerator it counts)",
                          "site.hardware-profile");
                continue;
            }
            if (acc.empty()) {
                ctx.error(h.accelerator->mark,
                          what + ": pool " + pool->name.value + " allocates no accelerator (an extended resource such as nvidia.com/gpu)",
                          "site.hardware-profile");
                continue;
            }
            add(h.accelerator, acc, acc, "Accelerator", Quantity::from_int(1));
        }
        out.push_back(std::move(pr));
    }

    for (const auto& p : out) emit(ctx, p, api_version, ns, hp.namespace_.mark);
}

}  // namespace queueforge::lower
