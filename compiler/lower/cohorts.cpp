#include "lower/metadata.hpp"
#include "lower/passes.hpp"
#include "lower/quota.hpp"

#include <algorithm>
#include <map>
#include <set>
#include <string_view>
#include <vector>

namespace queueforge::lower {

void lower_cohorts(Context& ctx) {
    const bool served = !ctx.target.cohort_api_version.empty();
    std::map<std::string, int> members;
    for (const auto& t : ctx.site.teams)
        if (!t.cohort.value.empty()) ++members[t.cohort.value];

    for (const auto& c : ctx.site.cohorts) {
        const std::string what = "cohort \"" + c.name.value + "\"";
        if (!c.parent.value.empty() && !ctx.cohorts.count(c.parent.value))
            ctx.error(c.parent.mark, what + ": unknown parent cohort \"" + c.parent.value + "\"", "site.unknown-cohort");
        bool needs_object = !c.parent.value.empty() || !c.quota.empty() || c.fair_sharing_weight;
        if (!served && needs_object) {
            ctx.error(c.mark,
                      what + ": target " + ctx.target.name + " (Kueue " + ctx.target.kueue.to_string() +
                          ") serves no Cohort objects, so a cohort can have no parent, quota or weight; Cohort needs Kueue 0.9 or newer",
                      "target.cohort");
            continue;
        }
        // A support statement, not an API rule: the cluster accepts it, so a note.
        if (!ctx.target.shared_cohorts_supported && members[c.name.value] > 1)
            ctx.note(c.mark,
                        what + " is shared by " + std::to_string(members[c.name.value]) +
                            " teams; Red Hat does not support shared cohorts on OpenShift AI " +
                            ctx.target.release.to_string(),
                        "target.support");
        if (!served) continue;
        const bool v1alpha1 = ctx.target.cohort_parent_field == "parent";
        if (v1alpha1 && c.fair_sharing_weight)
            ctx.error(c.fair_sharing_weight->mark,
                      what + ": Cohort " + ctx.target.cohort_api_version + " has no fairSharing; it needs Kueue 0.13 or newer",
                      "target.field");

        auto groups = form_resource_groups(ctx, c.quota, what);
        std::vector<PendingRecord> records;
        Trace spec_tr = Trace(records).field("spec");
        Node spec = Node::mapping();
        if (!c.parent.value.empty()) {
            spec.set(ctx.target.cohort_parent_field, Node::string(c.parent.value));
            spec_tr.set(ctx.target.cohort_parent_field, c.parent.mark, Derivation::Written,
                        "written in the site (" + ctx.target.cohort_parent_field + " in Cohort " +
                            ctx.target.cohort_api_version + ")");
        }
        if (!groups.empty())
            spec.set("resourceGroups", resource_groups_node(groups, spec_tr.field("resourceGroups"), "the cohort's quota"));
        if (c.fair_sharing_weight) {
            Node fs = Node::mapping();
            fs.set("weight", Node::string(c.fair_sharing_weight->value.to_string()));
            spec.set("fairSharing", std::move(fs));
            spec_tr.field("fairSharing").set("weight", c.fair_sharing_weight->mark, Derivation::Written);
        }
        if (spec.size() == 0)
            spec_tr.set(c.mark, Derivation::Formed, "cohort \"" + c.name.value + "\" has no parent, quota or weight");
        add_object(ctx, {.api_version = ctx.target.cohort_api_version,
                         .kind = "Cohort",
                         .name = c.name.value,
                         .component = "kueue-queueing",
                         .wave = kWaveFlavor,
                         .kind_rank = 2,
                         .origin = c.mark,
                         .rule = "cohort " + c.name.value + ": one Cohort per cohort of spec.cohorts",
                         .name_from = {c.name.mark, Derivation::Written, "the cohort's name"},
                         .fields = one_field("spec", std::move(spec)),
                         .provenance = std::move(records)});
    }
}

void lower_priority_classes(Context& ctx) {
    for (const auto& p : ctx.site.priority_classes) {
        if (ctx.v1beta2() && p.description.value.size() > 2048)
            ctx.error(p.description.mark, "priority class \"" + p.name.value + "\": description may be at most 2048 characters", "V55");
        std::vector<PendingRecord> records;
        Trace tr(records);
        std::vector<std::pair<std::string, Node>> fields;
        fields.emplace_back("value", Node::integer(p.value.value));
        if (!p.description.value.empty()) fields.emplace_back("description", Node::string(p.description.value));
        tr.set("value", p.value.mark, Derivation::Written);
        if (!p.description.value.empty()) tr.set("description", p.description.mark, Derivation::Written);
        add_object(ctx, {.api_version = ctx.target.kueue_api_version,
                         .kind = "WorkloadPriorityClass",
                         .name = p.name.value,
                         .component = "kueue-queueing",
                         .wave = kWaveFlavor,
                         .kind_rank = 3,
                         .origin = p.mark,
                         .rule = "priority class " + p.name.value + ": one WorkloadPriorityClass per priority class",
                         .name_from = {p.name.mark, Derivation::Written, "the priority class's name"},
                         .fields = std::move(fields),
                         .provenance = std::move(records)});
    }
}

}  // namespace queueforge::lower
