#include "lower/metadata.hpp"
#include "lower/passes.hpp"
#include "lower/quota.hpp"
#include "lower/selector.hpp"
#include "frontend/site/reader.hpp"

#include <map>
#include <set>

namespace queueforge::lower {

namespace {

// The team's setting, else the site's teamDefaults, else `fallback`; with
// where the value came from.
struct Choice {
    std::string value;
    Origin from;
};

Choice choose(const site::Team& t, const site::Text& team, const site::Text& defaults, std::string_view field,
              std::string fallback, std::string_view why) {
    if (!team.value.empty()) return {team.value, {team.mark, Derivation::Written, {}}};
    if (!defaults.value.empty())
        return {defaults.value, {defaults.mark, Derivation::TeamDefaults, "teamDefaults." + std::string(field)}};
    std::string rule = "default: " + (fallback.empty() ? std::string("unset") : fallback) + " (" + std::string(why) + ")";
    return {std::move(fallback), {t.mark, Derivation::Default, std::move(rule)}};
}

constexpr std::string_view kCrdDefault = "Kueue's CRD default, written explicitly";

// Kueue before 0.15 spells the v1beta2 value MayStopSearch as Borrow
// (whenCanBorrow) and Preempt (whenCanPreempt) and serves only that (CRD
// enums of v0.6.2 .. v0.13.10); from 0.15 the v1beta2 CRD serves only
// MayStopSearch (v0.19.2; kueue-semantics.md 1.9). The site takes either
// spelling and the target gets the one it serves.
std::string fungibility_value(const Context& ctx, const std::string& v, const char* legacy) {
    const bool old = !ctx.kueue_at_least(0, 15);
    if (v == "MayStopSearch" && old) return legacy;
    if (v == legacy && !old) return "MayStopSearch";
    return v;
}

void set_fungibility(Context& ctx, Node& ff, const Trace& ff_tr, const char* key, Choice c, const char* legacy) {
    std::string v = fungibility_value(ctx, c.value, legacy);
    if (v != c.value) {
        Origin t = target_origin(ctx, "Kueue " + ctx.target.kueue.to_string() + " spells " + c.value + " as " + v +
                                          (v == legacy ? " (before 0.15)" : " (0.15 and newer)"));
        c.from.rule = (c.from.rule.empty() ? "written in the site" : c.from.rule) + "; " + t.rule;
    }
    ff.set(key, Node::string(v));
    ff_tr.set(key, std::move(c.from));
}

Node cluster_queue_spec(Context& ctx, const site::Team& t, const std::vector<ResourceGroup>& groups, const Trace& tr) {
    const auto& s = t.settings;
    const auto& d = ctx.site.team_defaults;
    const std::string what = "team \"" + t.name.value + "\"";
    Node spec = Node::mapping();
    spec.set("resourceGroups", resource_groups_node(groups, tr.field("resourceGroups"), "the team's quota"));
    if (!t.cohort.value.empty()) {
        const char* field = ctx.v1beta2() ? "cohortName" : "cohort";
        spec.set(field, Node::string(t.cohort.value));
        tr.set(field, t.cohort.mark, Derivation::Written,
               ctx.v1beta2() ? "written in the site (cohortName in kueue.x-k8s.io/v1beta2)" : "");
    }
    Choice strategy = choose(t, s.queueing_strategy, d.queueing_strategy, "queueingStrategy", "BestEffortFIFO", kCrdDefault);
    spec.set("queueingStrategy", Node::string(strategy.value));
    tr.set("queueingStrategy", std::move(strategy.from));
    spec.set("namespaceSelector", namespace_selector(ctx, t, tr.field("namespaceSelector")));

    // CRD defaults are written out so the live object equals the desired one
    // (conventions.md 1.9).
    Choice when_borrow = choose(t, s.fungibility.when_can_borrow, d.fungibility.when_can_borrow,
                                "flavorFungibility.whenCanBorrow", "MayStopSearch", kCrdDefault);
    Choice when_preempt = choose(t, s.fungibility.when_can_preempt, d.fungibility.when_can_preempt,
                                 "flavorFungibility.whenCanPreempt", "TryNextFlavor", kCrdDefault);
    Choice preference = choose(t, s.fungibility.preference, d.fungibility.preference, "flavorFungibility.preference", "", kCrdDefault);
    Node ff = Node::mapping();
    Trace ff_tr = tr.field("flavorFungibility");
    if (!preference.value.empty()) {
        Mark m = preference.from.mark;
        if (!ctx.kueue_at_least(0, 15))
            ctx.error(m, what + ": flavorFungibility.preference is not served by Kueue " + ctx.target.kueue.to_string() + " (needs 0.15 or newer)", "target.field");
        ff.set("preference", Node::string(preference.value));
        ff_tr.set("preference", std::move(preference.from));
    }
    set_fungibility(ctx, ff, ff_tr, "whenCanBorrow", std::move(when_borrow), "Borrow");
    set_fungibility(ctx, ff, ff_tr, "whenCanPreempt", std::move(when_preempt), "Preempt");
    spec.set("flavorFungibility", std::move(ff));

    Choice reclaim = choose(t, s.preemption.reclaim_within_cohort, d.preemption.reclaim_within_cohort,
                            "preemption.reclaimWithinCohort", "Never", kCrdDefault);
    Choice within = choose(t, s.preemption.within_cluster_queue, d.preemption.within_cluster_queue,
                           "preemption.withinClusterQueue", "Never", kCrdDefault);
    Choice borrow = choose(t, s.preemption.borrow_policy, d.preemption.borrow_policy,
                           "preemption.borrowWithinCohort.policy", "Never", kCrdDefault);
    auto threshold = s.preemption.max_priority_threshold ? s.preemption.max_priority_threshold
                                                         : d.preemption.max_priority_threshold;
    Node pre = Node::mapping();
    Trace pre_tr = tr.field("preemption");
    pre.set("reclaimWithinCohort", Node::string(reclaim.value));
    pre_tr.set("reclaimWithinCohort", std::move(reclaim.from));
    // borrowWithinCohort has a CRD default ({policy: Never}) from Kueue 0.10 on;
    // before that an absent one stays absent, so it is written only when set.
    bool borrow_set = !s.preemption.borrow_policy.value.empty() || !d.preemption.borrow_policy.value.empty() || threshold;
    if (ctx.kueue_at_least(0, 10) || borrow_set) {
        Trace bwc_tr = pre_tr.field("borrowWithinCohort");
        if (!borrow_set)
            bwc_tr.set(t.mark, Derivation::Default, "default: {policy: Never} (Kueue's CRD default from 0.10, written explicitly)");
        Node bwc = Node::mapping();
        bwc.set("policy", Node::string(borrow.value));
        bwc_tr.set("policy", std::move(borrow.from));
        if (threshold) {
            bwc.set("maxPriorityThreshold", Node::integer(threshold->value));
            bwc_tr.set("maxPriorityThreshold", threshold->mark,
                       s.preemption.max_priority_threshold ? Derivation::Written : Derivation::TeamDefaults,
                       s.preemption.max_priority_threshold ? "" : "teamDefaults.preemption.borrowWithinCohort.maxPriorityThreshold");
        }
        pre.set("borrowWithinCohort", std::move(bwc));
    }
    pre.set("withinClusterQueue", Node::string(within.value));
    pre_tr.set("withinClusterQueue", std::move(within.from));
    spec.set("preemption", std::move(pre));

    Choice stop = choose(t, s.stop_policy, d.stop_policy, "stopPolicy", "None", kCrdDefault);
    spec.set("stopPolicy", Node::string(stop.value));
    tr.set("stopPolicy", std::move(stop.from));
    auto weight = s.fair_sharing_weight ? s.fair_sharing_weight : d.fair_sharing_weight;
    if (weight) {
        if (!ctx.kueue_at_least(0, 7))
            ctx.error(weight->mark, what + ": fairSharing is not served by Kueue " + ctx.target.kueue.to_string() + " (needs 0.7 or newer)", "target.field");
        Node fs = Node::mapping();
        fs.set("weight", Node::string(weight->value.to_string()));
        spec.set("fairSharing", std::move(fs));
        tr.field("fairSharing").set("weight", weight->mark,
                                    s.fair_sharing_weight ? Derivation::Written : Derivation::TeamDefaults,
                                    s.fair_sharing_weight ? "" : "teamDefaults.fairSharing.weight");
    }
    return spec;
}

}  // namespace

Node resource_groups_node(const std::vector<ResourceGroup>& groups, const Trace& at, const std::string& quota_of) {
    Node rgs = Node::sequence();
    if (!groups.empty() && !groups.front().flavors.empty())
        at.set(groups.front().flavors.front().mark, Derivation::Formed,
               "resource groups formed from " + quota_of + ": resources listed together for one pool share a group");
    for (const auto& g : groups) {
        Trace g_tr = at.item(rgs.size());
        Node rg = Node::mapping();
        Node covered = Node::sequence();
        Trace covered_tr = g_tr.field("coveredResources");
        for (std::size_t i = 0; i < g.covered.size(); ++i) {
            covered.push(Node::string(g.covered[i]));
            covered_tr.item(i).set(g.covered_marks[i], Derivation::Formed,
                                   "covered resources in Kueue's order: cpu, memory, ephemeral-storage, pods, then by name");
        }
        rg.set("coveredResources", std::move(covered));
        Node flavors = Node::sequence();
        // Sized up front: a large site has hundreds of thousands of these.
        flavors.items().reserve(g.flavors.size());
        Trace flavors_tr = g_tr.field("flavors");
        if (!g.flavors.empty())
            flavors_tr.set(g.flavors.front().mark, Derivation::Formed,
                           "one flavor per pool in the quota, in the order written (the preference order)");
        for (const auto& f : g.flavors) {
            // The flavor and its name answer with the pool the quota names.
            Trace f_tr = flavors_tr.item(flavors.size());
            f_tr.set(f.pool_mark, Derivation::Written);
            Node fn = Node::mapping();
            fn.entries().reserve(2);
            fn.set("name", Node::string(f.flavor));
            Node resources = Node::sequence();
            resources.items().reserve(f.resources.size());
            for (const auto& r : f.resources) {
                Trace r_tr = f_tr.field("resources").item(resources.size());
                r_tr.set(r.name_from);
                Node rn = Node::mapping();
                rn.entries().reserve(2 + (r.borrowing_limit ? 1 : 0) + (r.lending_limit ? 1 : 0));
                rn.set("name", Node::string(r.name));
                rn.set("nominalQuota", Node::string(r.nominal.to_string()));
                r_tr.set("nominalQuota", r.nominal_from);
                if (r.borrowing_limit) {
                    rn.set("borrowingLimit", Node::string(r.borrowing_limit->to_string()));
                    r_tr.set("borrowingLimit", r.borrowing_from);
                }
                if (r.lending_limit) {
                    rn.set("lendingLimit", Node::string(r.lending_limit->to_string()));
                    r_tr.set("lendingLimit", r.lending_from);
                }
                resources.push(std::move(rn));
            }
            fn.set("resources", std::move(resources));
            flavors.push(std::move(fn));
        }
        rg.set("flavors", std::move(flavors));
        rgs.push(std::move(rg));
    }
    return rgs;
}

void lower_teams(Context& ctx) {
    std::map<std::string, int> default_queues;  // namespace -> count
    std::set<std::string> auto_flavors = {"default-flavor", "nvidia-gpu-flavor", "amd-gpu-flavor"};
    const bool operator_queues = ctx.target.operator_creates_queues ||
                                 (ctx.site.dsc.auto_create_queues && ctx.site.dsc.auto_create_queues->value);
    const std::string op_cq = ctx.site.dsc.default_cluster_queue_name.value.empty() ? "default" : ctx.site.dsc.default_cluster_queue_name.value;
    const std::string op_lq = ctx.site.dsc.default_local_queue_name.value.empty() ? "default" : ctx.site.dsc.default_local_queue_name.value;

    if (ctx.target.single_cluster_queue && ctx.site.teams.size() > 1)
        ctx.warning(ctx.site.teams[1].mark,
                    "OpenShift AI " + ctx.target.release.to_string() + " supports only a single ClusterQueue per cluster; the site has " +
                        std::to_string(ctx.site.teams.size()) + " teams",
                    "target.support");
    if (operator_queues)
        for (const auto& p : ctx.site.pools)
            if (auto_flavors.count(p.name.value))
                ctx.warning(p.name.mark,
                            "pool \"" + p.name.value + "\" has the name of a ResourceFlavor the OpenShift AI operator creates on " +
                                ctx.target.name + "; both will manage the same object",
                            "target.auto-queues");

    for (std::size_t index = 0; index < ctx.site.teams.size(); ++index) {
        const site::Team& t = ctx.site.teams[index];
        const std::string what = "team \"" + t.name.value + "\"";
        const bool has_cohort = !t.cohort.value.empty();
        if (has_cohort && !ctx.cohorts.count(t.cohort.value)) {
            std::vector<std::string> names;
            for (const auto& [n, _] : ctx.cohorts) names.push_back(n);
            std::string msg = what + ": unknown cohort \"" + t.cohort.value + "\" (declare it under spec.cohorts)";
            std::string hint = site::did_you_mean(t.cohort.value, names);
            if (!hint.empty()) msg += "; did you mean \"" + hint + "\"?";
            ctx.error(t.cohort.mark, msg, "site.unknown-cohort");
        }
        if (t.quota.empty())
            ctx.error(t.mark, what + ": quota must name at least one pool", "V20");
        const std::string cq_name = t.cluster_queue.value.empty() ? t.name.value : t.cluster_queue.value;
        if (operator_queues && cq_name == op_cq)
            ctx.warning(t.cluster_queue.value.empty() ? t.name.mark : t.cluster_queue.mark,
                        what + ": ClusterQueue \"" + cq_name + "\" has the name of the queue the OpenShift AI operator creates on " +
                            ctx.target.name + "; both will manage the same object",
                        "target.auto-queues");

        auto groups = form_resource_groups(ctx, t.quota, what);
        std::vector<PendingRecord> records;
        Trace(records).field("metadata").field("labels").set("queueforge.io/team", t.name.mark, Derivation::Generated,
                                                             "generated label: the team's name");
        Node spec = cluster_queue_spec(ctx, t, groups, Trace(records).field("spec"));
        Origin cq_from = t.cluster_queue.value.empty()
                             ? Origin{t.name.mark, Derivation::Written, "the team's name (clusterQueue is not set)"}
                             : Origin{t.cluster_queue.mark, Derivation::Written, "the team's clusterQueue"};
        add_object(ctx, {.api_version = ctx.target.kueue_api_version,
                         .kind = "ClusterQueue",
                         .name = cq_name,
                         .component = "kueue-queueing",
                         .labels = {{"queueforge.io/team", t.name.value}},
                         .wave = kWaveClusterQueue,
                         .kind_rank = 4,
                         .origin = t.mark,
                         .rule = "team " + t.name.value + ": one ClusterQueue per team",
                         .name_from = cq_from,
                         .fields = one_field("spec", std::move(spec)),
                         .provenance = std::move(records)});
        // Nothing after this reads the team's amounts: the ClusterQueue holds
        // them now (lower_site_releasing_quota). The hardware profiles pass
        // reads which pools each team has quota in.
        if (ctx.releasable) release_amounts(ctx.releasable->teams[index], ctx.site.hardware_profiles.has_value());

        const auto& d = ctx.site.team_defaults;
        Choice lq = choose(t, t.settings.local_queue, d.local_queue, "localQueue", "default",
                           "queueforge's LocalQueue name when localQueue is not set");
        const std::string& lq_name = lq.value;
        bool is_default = t.settings.default_queue ? t.settings.default_queue->value
                                                   : (d.default_queue ? d.default_queue->value : true);
        Origin default_from = t.settings.default_queue ? Origin{t.settings.default_queue->mark, Derivation::Written, {}}
                              : d.default_queue ? Origin{d.default_queue->mark, Derivation::TeamDefaults, "teamDefaults.defaultQueue"}
                                                : Origin{t.mark, Derivation::Default, "default: defaultQueue true (the team's LocalQueues are its namespaces' default)"};
        for (const auto& ns : t.namespaces) {
            if (operator_queues && lq_name == op_lq)
                ctx.warning(ns.mark,
                            what + ": LocalQueue \"" + lq_name + "\" in namespace \"" + ns.value +
                                "\" has the name of the queue the OpenShift AI operator creates in managed namespaces on " + ctx.target.name,
                            "target.auto-queues");
            if (is_default && ++default_queues[ns.value] == 2)
                ctx.warning(ns.mark, "namespace \"" + ns.value + "\" gets more than one default LocalQueue", "site.default-queue");
            std::vector<std::pair<std::string, std::string>> annotations;
            std::vector<PendingRecord> lq_records;
            Trace lq_tr(lq_records);
            Trace lq_meta = lq_tr.field("metadata");
            lq_meta.set("namespace", ns.mark, Derivation::Written, "a namespace of team " + t.name.value);
            lq_meta.field("labels").set("queueforge.io/team", t.name.mark, Derivation::Generated, "generated label: the team's name");
            // Read by the CodeFlare SDK, not by Kueue (kueue-semantics.md 1.10).
            if (is_default) {
                annotations.emplace_back("kueue.x-k8s.io/default-queue", "true");
                lq_meta.field("annotations").set("kueue.x-k8s.io/default-queue", default_from);
            }
            Node lspec = Node::mapping();
            Trace lspec_tr = lq_tr.field("spec");
            lspec.set("clusterQueue", Node::string(cq_name));
            lspec_tr.set("clusterQueue", cq_from.mark, Derivation::Written, "the team's ClusterQueue");
            // LocalQueue.stopPolicy is served from Kueue 0.8 on (the CRDs of every
            // release tag; absent from 0.6's).
            if (ctx.kueue_at_least(0, 8)) {
                lspec.set("stopPolicy", Node::string("None"));
                lspec_tr.set("stopPolicy", t.mark, Derivation::Default, "default: None (Kueue's CRD default from 0.8, written explicitly)");
            }
            add_object(ctx, {.api_version = ctx.target.kueue_api_version,
                             .kind = "LocalQueue",
                             .name = lq_name,
                             .namespace_ = ns.value,
                             .component = "kueue-queueing",
                             .labels = {{"queueforge.io/team", t.name.value}},
                             .annotations = std::move(annotations),
                             .wave = kWaveLocalQueue,
                             .kind_rank = 5,
                             .origin = ns.mark,
                             .rule = "team " + t.name.value + ", namespace " + ns.value +
                                     ": one LocalQueue per namespace of the team",
                             .name_from = lq.from,
                             .fields = one_field("spec", std::move(lspec)),
                             .provenance = std::move(lq_records)});
        }
    }
}

}  // namespace queueforge::lower
