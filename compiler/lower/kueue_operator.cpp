// The Red Hat build of Kueue operator's Kueue CR (kueue.openshift.io/v1,
// cluster-scoped, name `cluster`: the CRD's CEL rule "Kueue is a singleton")
// with the field set of the operator release that ships the target's Kueue
// (openshift/kueue-operator release-1.x, pkg/apis/kueueoperator/v1/types.go;
// compiler/frontend/platform/kueue_operator.cpp).
//
// integrations.frameworks: the job kinds of the site's sample workloads, plus
// StatefulSet and Deployment when the site has HardwareProfiles (the
// dashboard's workbenches are StatefulSets and its model servers
// Deployments: the kinds the OpenShift AI operator enables by default in the
// Kueue CR it creates, internal/controller/components/kueue/kueue_config.go),
// plus what the admin lists. preemption.preemptionPolicy FairSharing when a
// team or cohort sets a fair-sharing weight (the operator renders it as
// Kueue's fairSharing; without it Kueue ignores the weights).
#include "lower/kueue_settings.hpp"
#include "lower/metadata.hpp"
#include "lower/passes.hpp"

#include <queueforge/base/names.hpp>
#include <queueforge/frontend/kueue_operator.hpp>

#include <algorithm>
#include <map>

namespace queueforge::lower {

namespace {

std::string release_text(const platform::KueueOperatorRelease& r) { return "Red Hat build of Kueue " + r.release.to_string(); }

// The first release (after `rel`) whose enum lists `framework`, or nullopt.
std::optional<platform::KueueOperatorRelease> first_with(const std::string& framework) {
    for (auto& r : platform::kueue_operator_releases())
        if (std::find(r.frameworks.begin(), r.frameworks.end(), framework) != r.frameworks.end()) return r;
    return std::nullopt;
}

}  // namespace

void lower_kueue_operator(Context& ctx) {
    if (!ctx.site.kueue_operator) return;
    const auto& k = *ctx.site.kueue_operator;
    if (!platform::kueue_from_operator(ctx.target, kueue_unmanaged(ctx.site))) {
        std::string why;
        if (ctx.target.platform != Platform::OpenShiftAI)
            why = "plain Kueue is configured by its Configuration (config.kueue.x-k8s.io, the kueue-manager-config ConfigMap)";
        else if (ctx.target.dsc_default_queue_fields)
            why = "Kueue comes from the Red Hat build of Kueue operator only with dataScienceCluster.components.kueue: Unmanaged";
        else
            why = "OpenShift AI " + ctx.target.release.to_string() +
                  " embeds its own Kueue (the Red Hat build of Kueue operator is used from 2.23 with kueue Unmanaged, and "
                  "always from 3.0)";
        ctx.error(k.mark, "spec.kueueOperator: target " + ctx.target.name + " has no Kueue operator CR: " + why,
                  "target.kueue-operator");
        return;
    }
    auto rel = platform::kueue_operator_for_kueue(ctx.target.kueue);
    if (!rel) {
        ctx.error(k.mark,
                  "spec.kueueOperator: no Red Hat build of Kueue release ships Kueue " + ctx.target.kueue.to_string() +
                      " (target " + ctx.target.name + ")",
                  "target.kueue-operator");
        return;
    }
    const std::string rtext = release_text(*rel);
    const std::size_t errors_before = ctx.diags.count(Severity::Error);

    std::vector<PendingRecord> records;
    Trace tr(records);
    Trace cfg_tr = tr.field("spec").field("config");

    // ---- frameworks ---------------------------------------------------------
    std::map<std::string, Origin> wanted;
    auto want = [&](const std::string& f, Origin from, Mark at, const std::string& because) {
        if (std::find(rel->frameworks.begin(), rel->frameworks.end(), f) == rel->frameworks.end()) {
            auto first = first_with(f);
            ctx.error(at,
                      because + " needs the Kueue framework " + f + ", which " + rtext + " (target " + ctx.target.name +
                          ") does not offer" + (first ? "; it is first in " + release_text(*first) : std::string()),
                      "target.kueue-operator");
            return;
        }
        wanted.try_emplace(f, std::move(from));
    };
    for (auto& need : needed_job_kinds(ctx)) {
        const std::string f = platform::framework_of(need.api_version, need.kind);
        if (!f.empty()) want(f, std::move(need.from), need.at, need.because);
    }
    for (const auto& f : k.frameworks) {
        const bool known_anywhere = first_with(f.value).has_value();
        if (!known_anywhere) {
            std::vector<std::string> all = platform::kueue_operator_releases().back().frameworks;
            std::string hint = did_you_mean(f.value, all);
            ctx.error(f.mark,
                      "spec.kueueOperator.frameworks: \"" + f.value + "\" is not a Kueue operator framework" +
                          (hint.empty() ? "" : "; did you mean \"" + hint + "\"?"),
                      "site.kueue-operator");
            continue;
        }
        want(f.value, {f.mark, Derivation::Written, {}}, f.mark, "spec.kueueOperator.frameworks");
    }
    // Sorted by name, as the OpenShift AI operator writes them
    // (kueue_config.go convertIntegrations: slices.Sort).
    Node frameworks = Node::sequence();
    for (const auto& [f, from] : wanted) {
        cfg_tr.field("integrations").field("frameworks").item(frameworks.items().size()).set(from);
        frameworks.push(Node::string(f));
    }
    if (frameworks.items().empty())
        ctx.error(k.mark,
                  "spec.kueueOperator: no framework to enable: the site's workloads name no job kind Kueue integrates, "
                  "it has no HardwareProfiles, and frameworks is empty (the Kueue CR needs at least one)",
                  "site.kueue-operator");
    if (frameworks.items().size() > rel->max_frameworks)
        ctx.error(k.mark,
                  "spec.kueueOperator: " + std::to_string(frameworks.items().size()) + " frameworks, but " + rtext +
                      " accepts at most " + std::to_string(rel->max_frameworks),
                  "target.kueue-operator");

    Node config = Node::mapping();
    Node integrations = Node::mapping();
    integrations.set("frameworks", std::move(frameworks));
    config.set("integrations", std::move(integrations));

    // ---- workloadManagement, gangScheduling -------------------------------
    Node wm = Node::mapping();
    wm.set("labelPolicy", Node::string(k.label_policy.value.empty() ? "QueueName" : k.label_policy.value));
    if (k.label_policy.value.empty())
        cfg_tr.field("workloadManagement").set("labelPolicy", k.mark, Derivation::Default,
                                               "default: QueueName (only jobs with a queue-name label are queued)");
    else
        cfg_tr.field("workloadManagement").set("labelPolicy", k.label_policy.mark, Derivation::Written);
    config.set("workloadManagement", std::move(wm));
    if (!k.gang_scheduling.value.empty()) {
        Node gang = Node::mapping();
        gang.set("policy", Node::string(k.gang_scheduling.value));
        cfg_tr.field("gangScheduling").set("policy", k.gang_scheduling.mark, Derivation::Written);
        if (k.gang_scheduling.value == "ByWorkload") {
            Node by = Node::mapping();
            by.set("admission", Node::string(k.gang_admission.value.empty() ? "Parallel" : k.gang_admission.value));
            if (k.gang_admission.value.empty())
                cfg_tr.field("gangScheduling").field("byWorkload").set("admission", k.gang_scheduling.mark, Derivation::Default,
                                                                       "default: Parallel (the operator's default)");
            else
                cfg_tr.field("gangScheduling").field("byWorkload").set("admission", k.gang_admission.mark, Derivation::Written);
            gang.set("byWorkload", std::move(by));
        }
        config.set("gangScheduling", std::move(gang));
    }

    // ---- preemption --------------------------------------------------------
    const auto weight = first_fair_sharing_weight(ctx.site);
    std::string policy = k.preemption_policy.value;
    if (policy == "Classical" && weight)
        ctx.error(weight->first,
                  "the fair-sharing weight of " + weight->second +
                      " does nothing: spec.kueueOperator.preemptionPolicy is Classical, and Kueue reads ClusterQueue and "
                      "Cohort fairSharing.weight only with fair sharing (preemptionPolicy FairSharing)",
                  "site.fair-sharing-weights");
    if (!policy.empty()) {
        cfg_tr.field("preemption").set("preemptionPolicy", k.preemption_policy.mark, Derivation::Written);
    } else if (weight) {
        policy = "FairSharing";
        cfg_tr.field("preemption").set("preemptionPolicy", weight->first, Derivation::Formed,
                                       "FairSharing: " + weight->second + " sets a fair-sharing weight");
    }
    if (!policy.empty()) {
        Node p = Node::mapping();
        p.set("preemptionPolicy", Node::string(policy));
        config.set("preemption", std::move(p));
    }

    // ---- admissionFairSharing (1.4+) ---------------------------------------
    if (k.admission_fair_sharing) {
        if (!rel->admission_fair_sharing) {
            ctx.error(k.admission_fair_sharing_mark,
                      "spec.kueueOperator.admissionFairSharing: " + rtext + " (target " + ctx.target.name +
                          ") has no admissionFairSharing; it is first in Red Hat build of Kueue 1.4 (OpenShift AI 3.5)",
                      "target.kueue-operator");
        } else {
            Node afs = Node::mapping();
            const bool custom = k.usage_half_life_seconds || k.usage_sampling_seconds || !k.resource_weights.empty();
            afs.set("configuration", Node::string(custom ? "Custom" : "Default"));
            Trace afs_tr = cfg_tr.field("admissionFairSharing");
            afs_tr.set("configuration", k.admission_fair_sharing_mark, Derivation::Formed,
                       custom ? "Custom: the site sets usage intervals or resource weights" : "Default: the operator's values");
            if (custom) {
                Node c = Node::mapping();
                if (k.usage_half_life_seconds) {
                    c.set("usageHalfLifeTimeSeconds", Node::integer(k.usage_half_life_seconds->value));
                    afs_tr.field("custom").set("usageHalfLifeTimeSeconds", k.usage_half_life_seconds->mark, Derivation::Written);
                }
                if (k.usage_sampling_seconds) {
                    c.set("usageSamplingIntervalSeconds", Node::integer(k.usage_sampling_seconds->value));
                    afs_tr.field("custom").set("usageSamplingIntervalSeconds", k.usage_sampling_seconds->mark, Derivation::Written);
                }
                if (!k.resource_weights.empty()) {
                    Node ws = Node::sequence();
                    auto sorted = k.resource_weights;
                    std::sort(sorted.begin(), sorted.end(), [](const auto& a, const auto& b) { return a.first.value < b.first.value; });
                    for (std::size_t i = 0; i < sorted.size(); ++i) {
                        Node w = Node::mapping();
                        w.set("name", Node::string(sorted[i].first.value));
                        w.set("weight", Node::string(sorted[i].second.value));
                        afs_tr.field("custom").field("resourceWeights").item(i).set(sorted[i].first.mark, Derivation::Written);
                        ws.push(std::move(w));
                    }
                    c.set("resourceWeights", std::move(ws));
                }
                afs.set("custom", std::move(c));
            }
            config.set("admissionFairSharing", std::move(afs));
        }
    }
    // ---- resources.deviceClassMappings (1.4+) ------------------------------
    if (!k.device_class_mappings.empty()) {
        if (!rel->resources)
            ctx.error(k.device_class_mappings.front().mark,
                      "spec.kueueOperator.deviceClassMappings: " + rtext + " (target " + ctx.target.name +
                          ") has no spec.config.resources; it is first in Red Hat build of Kueue 1.4 (OpenShift AI 3.5)",
                      "target.kueue-operator");
        else {
            Node res = Node::mapping();
            res.set("deviceClassMappings",
                    device_class_mappings_node(k.device_class_mappings, cfg_tr.field("resources").field("deviceClassMappings")));
            config.set("resources", std::move(res));
        }
    }
    if (ctx.diags.count(Severity::Error) > errors_before) return;

    Node spec = Node::mapping();
    spec.set("managementState", Node::string("Managed"));
    tr.field("spec").set("managementState", k.mark, Derivation::Default, "default: Managed (the operator deploys Kueue)");
    spec.set("config", std::move(config));
    add_object(ctx, {.api_version = std::string(platform::kKueueOperatorApiVersion),
                     .kind = "Kueue",
                     .name = std::string(platform::kKueueOperatorName),
                     .component = "kueue-operator",
                     .wave = kWaveKueueOperator,
                     .kind_rank = 0,
                     .origin = k.mark,
                     .rule = "spec.kueueOperator: the " + rtext + " operator's Kueue CR for " + ctx.target.name,
                     .name_from = {k.mark, Derivation::Target, "the Kueue CR is a singleton named cluster"},
                     .fields = one_field("spec", std::move(spec)),
                     .provenance = std::move(records)});
}

}  // namespace queueforge::lower
