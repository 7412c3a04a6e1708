#include "lower/metadata.hpp"
#include "lower/passes.hpp"
#include "lower/quota.hpp"
#include "lower/selector.hpp"
#include "site/reader.hpp"

#include <map>
#include <set>

namespace queueforge::lower {

namespace {

// Team setting, else the site's teamDefaults, else Kueue's default.
std::string pick(const site::Text& team, const site::Text& defaults, std::string fallback) {
    if (!team.value.empty()) return team.value;
    if (!defaults.value.empty()) return defaults.value;
    return fallback;
}

Mark mark_of(const site::Text& team, const site::Text& defaults, Mark fallback) {
    if (!team.value.empty()) return team.mark;
    if (!defaults.value.empty()) return defaults.mark;
    return fallback;
}

// Kueue before 0.15 spells the v1beta2 value MayStopSearch as Borrow
// (whenCanBorrow) and Preempt (whenCanPreempt) (kueue-semantics.md 1.9).
std::string fungibility_value(const Context& ctx, const std::string& v, const char* legacy) {
    if (v == "MayStopSearch" && !ctx.kueue_at_least(0, 15)) return legacy;
    return v;
}

Node cluster_queue_spec(Context& ctx, const site::Team& t, const std::vector<ResourceGroup>& groups) {
    const auto& s = t.settings;
    const auto& d = ctx.site.team_defaults;
    const std::string what = "team \"" + t.name.value + "\"";
    Node spec = Node::mapping();
    spec.set("resourceGroups", resource_groups_node(groups));
    if (!t.cohort.value.empty()) spec.set(ctx.v1beta2() ? "cohortName" : "cohort", Node::string(t.cohort.value));
    spec.set("queueingStrategy", Node::string(pick(s.queueing_strategy, d.queueing_strategy, "BestEffortFIFO")));
    spec.set("namespaceSelector", namespace_selector(ctx, t));

    // CRD defaults are written out so the live object equals the desired one
    // (conventions.md 1.9).
    std::string when_borrow = pick(s.fungibility.when_can_borrow, d.fungibility.when_can_borrow, "MayStopSearch");
    std::string when_preempt = pick(s.fungibility.when_can_preempt, d.fungibility.when_can_preempt, "TryNextFlavor");
    std::string preference = pick(s.fungibility.preference, d.fungibility.preference, "");
    Node ff = Node::mapping();
    if (!preference.empty()) {
        Mark m = mark_of(s.fungibility.preference, d.fungibility.preference, t.mark);
        if (!ctx.kueue_at_least(0, 15))
            ctx.error(m, what + ": flavorFungibility.preference is not served by Kueue " + ctx.target.kueue.to_string() + " (needs 0.15 or newer)", "target.field");
        if (when_borrow != "TryNextFlavor" || when_preempt != "TryNextFlavor")
            ctx.error(m, what + ": preference can only be set when both whenCanBorrow and whenCanPreempt are TryNextFlavor", "V33");
        ff.set("preference", Node::string(preference));
    }
    ff.set("whenCanBorrow", Node::string(fungibility_value(ctx, when_borrow, "Borrow")));
    ff.set("whenCanPreempt", Node::string(fungibility_value(ctx, when_preempt, "Preempt")));
    spec.set("flavorFungibility", std::move(ff));

    std::string reclaim = pick(s.preemption.reclaim_within_cohort, d.preemption.reclaim_within_cohort, "Never");
    std::string within = pick(s.preemption.within_cluster_queue, d.preemption.within_cluster_queue, "Never");
    std::string borrow = pick(s.preemption.borrow_policy, d.preemption.borrow_policy, "Never");
    auto threshold = s.preemption.max_priority_threshold ? s.preemption.max_priority_threshold
                                                         : d.preemption.max_priority_threshold;
    if (reclaim == "Never" && borrow != "Never")
        ctx.error(mark_of(s.preemption.borrow_policy, d.preemption.borrow_policy, t.mark),
                  what + ": reclaimWithinCohort=Never and borrowWithinCohort.Policy!=Never", "V34");
    Node pre = Node::mapping();
    pre.set("reclaimWithinCohort", Node::string(reclaim));
    // borrowWithinCohort has a CRD default ({policy: Never}) from Kueue 0.10 on;
    // before that an absent one stays absent, so it is written only when set.
    bool borrow_set = !s.preemption.borrow_policy.value.empty() || !d.preemption.borrow_policy.value.empty() || threshold;
    if (ctx.kueue_at_least(0, 10) || borrow_set) {
        Node bwc = Node::mapping();
        bwc.set("policy", Node::string(borrow));
        if (threshold) bwc.set("maxPriorityThreshold", Node::integer(threshold->value));
        pre.set("borrowWithinCohort", std::move(bwc));
    }
    pre.set("withinClusterQueue", Node::string(within));
    spec.set("preemption", std::move(pre));

    spec.set("stopPolicy", Node::string(pick(s.stop_policy, d.stop_policy, "None")));
    auto weight = s.fair_sharing_weight ? s.fair_sharing_weight : d.fair_sharing_weight;
    if (weight) {
        if (!ctx.kueue_at_least(0, 7))
            ctx.error(weight->mark, what + ": fairSharing is not served by Kueue " + ctx.target.kueue.to_string() + " (needs 0.7 or newer)", "target.field");
        Node fs = Node::mapping();
        fs.set("weight", Node::string(weight->value.to_string()));
        spec.set("fairSharing", std::move(fs));
    }
    return spec;
}

}  // namespace

Node resource_groups_node(const std::vector<ResourceGroup>& groups) {
    Node rgs = Node::sequence();
    for (const auto& g : groups) {
        Node rg = Node::mapping();
        Node covered = Node::sequence();
        for (const auto& r : g.covered) covered.push(Node::string(r));
        rg.set("coveredResources", std::move(covered));
        Node flavors = Node::sequence();
        for (const auto& f : g.flavors) {
            Node fn = Node::mapping();
            fn.set("name", Node::string(f.flavor));
            Node resources = Node::sequence();
            for (const auto& r : f.resources) {
                Node rn = Node::mapping();
                rn.set("name", Node::string(r.name));
                rn.set("nominalQuota", Node::string(r.nominal.to_string()));
                if (r.borrowing_limit) rn.set("borrowingLimit", Node::string(r.borrowing_limit->to_string()));
                if (r.lending_limit) rn.set("lendingLimit", Node::string(r.lending_limit->to_string()));
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

    for (const auto& t : ctx.site.teams) {
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

        auto groups = form_resource_groups(ctx, t.quota, what, has_cohort, true);
        Node spec = cluster_queue_spec(ctx, t, groups);
        Node& cq = add_object(ctx, {.api_version = ctx.target.kueue_api_version,
                                    .kind = "ClusterQueue",
                                    .name = cq_name,
                                    .component = "kueue-queueing",
                                    .labels = {{"queueforge.io/team", t.name.value}},
                                    .wave = kWaveClusterQueue,
                                    .kind_rank = 4,
                                    .origin = t.mark});
        cq.set("spec", std::move(spec));

        const auto& d = ctx.site.team_defaults;
        const std::string lq_name = pick(t.settings.local_queue, d.local_queue, "default");
        bool is_default = t.settings.default_queue ? t.settings.default_queue->value
                                                   : (d.default_queue ? d.default_queue->value : true);
        for (const auto& ns : t.namespaces) {
            if (operator_queues && lq_name == op_lq)
                ctx.warning(ns.mark,
                            what + ": LocalQueue \"" + lq_name + "\" in namespace \"" + ns.value +
                                "\" has the name of the queue the OpenShift AI operator creates in managed namespaces on " + ctx.target.name,
                            "target.auto-queues");
            if (is_default && ++default_queues[ns.value] == 2)
                ctx.warning(ns.mark, "namespace \"" + ns.value + "\" gets more than one default LocalQueue", "site.default-queue");
            std::vector<std::pair<std::string, std::string>> annotations;
            // Read by the CodeFlare SDK, not by Kueue (kueue-semantics.md 1.10).
            if (is_default) annotations.emplace_back("kueue.x-k8s.io/default-queue", "true");
            Node& lq = add_object(ctx, {.api_version = ctx.target.kueue_api_version,
                                        .kind = "LocalQueue",
                                        .name = lq_name,
                                        .namespace_ = ns.value,
                                        .component = "kueue-queueing",
                                        .labels = {{"queueforge.io/team", t.name.value}},
                                        .annotations = std::move(annotations),
                                        .wave = kWaveLocalQueue,
                                        .kind_rank = 5,
                                        .origin = ns.mark});
            Node lspec = Node::mapping();
            lspec.set("clusterQueue", Node::string(cq_name));
            // LocalQueue.stopPolicy is served from Kueue 0.8 on (the CRDs of every
            // release tag; absent from 0.6's).
            if (ctx.kueue_at_least(0, 8)) lspec.set("stopPolicy", Node::string("None"));
            lq.set("spec", std::move(lspec));
        }
    }
}

}  // namespace queueforge::lower
