// Plain Kueue's own Configuration (config.kueue.x-k8s.io), emitted as the
// kueue-manager-config ConfigMap that Kueue's manager mounts and reads at
// start-up (include/queueforge/frontend/kueue_operator.hpp names it; Kueue
// reads it once: the manager must be restarted after a change).
//
// The Configuration is the one the target's Kueue release ships (its API
// version and manager settings: compiler/frontend/platform/
// kueue_integrations.cpp) with what the site says:
//  * integrations.frameworks: the job kinds of the site's sample workloads,
//    plus StatefulSet and Deployment when the site has HardwareProfiles, plus
//    what the admin lists; each must be one the release registers;
//  * manageJobsWithoutQueueName, when written;
//  * fairSharing, on when written or when a team or cohort sets a
//    fair-sharing weight (Kueue reads ClusterQueue and Cohort
//    fairSharing.weight only with it: pkg/cache/scheduler). v1beta1 needs
//    `enable: true`; v1beta2 turns it on by the section alone. Both with
//    Kueue's default strategies (apis/config/v1beta1/defaults.go:
//    LessThanOrEqualToFinalShare, LessThanInitialShare). Kueue 0.7+;
//  * resources.deviceClassMappings (Kueue 0.14+): counted only with the
//    DynamicResourceAllocation feature gate, alpha and off in 0.14-0.17
//    (pkg/features/kube_features.go), so the gate is turned on there; from
//    0.18 KueueDRAIntegration is beta and on.
// Without a kueueConfig section, a fair-sharing weight that nothing turns on
// is reported as a warning: the weights would do nothing.
#include "lower/kueue_settings.hpp"
#include "lower/metadata.hpp"
#include "lower/passes.hpp"

#include <queueforge/base/names.hpp>
#include <queueforge/base/node_read.hpp>
#include <queueforge/base/yaml_emit.hpp>
#include <queueforge/frontend/kueue_operator.hpp>

#include <algorithm>
#include <set>

namespace queueforge::lower {

namespace {

constexpr const char* kDefaultNamespace = "kueue-system";

// Why the target's Kueue is not configured through spec.kueueConfig.
std::string why_not_here(const Context& ctx) {
    if (platform::kueue_from_operator(ctx.target, kueue_unmanaged(ctx.site)))
        return "the Red Hat build of Kueue operator writes Kueue's Configuration from its Kueue CR: use spec.kueueOperator";
    return "OpenShift AI " + ctx.target.release.to_string() +
           " deploys its embedded Kueue and writes its Configuration itself (the Red Hat build of Kueue operator's CR, "
           "spec.kueueOperator, is used from 2.23 with kueue Unmanaged, and always from 3.0)";
}

void warn_unused_weights(Context& ctx) {
    const auto weight = first_fair_sharing_weight(ctx.site);
    if (!weight || ctx.site.kueue_operator) return;
    // A configuration kept whole in passthrough (an import) is validate's to
    // check against the weights (kueue-config.fair-sharing-weights).
    for (const auto& p : ctx.site.passthrough) {
        const std::string kind = text_at(p, {"kind"}), name = text_at(p, {"metadata", "name"});
        if ((kind == "ConfigMap" && name == platform::kKueueManagerConfigMap) || kind == "Configuration" ||
            (kind == "Kueue" && text_at(p, {"apiVersion"}) == platform::kKueueOperatorApiVersion))
            return;
    }
    std::string how;
    if (ctx.target.platform != Platform::OpenShiftAI)
        how = "add spec.kueueConfig (it turns fairSharing on in Kueue's Configuration)";
    else if (platform::kueue_from_operator(ctx.target, false) || ctx.target.dsc_default_queue_fields)
        how = "add spec.kueueOperator (its preemptionPolicy FairSharing turns Kueue's fair sharing on)";
    else
        how = "turn fairSharing on in the Configuration of the Kueue OpenShift AI " + ctx.target.release.to_string() +
              " deploys";
    ctx.warning(weight->first,
                "the fair-sharing weight of " + weight->second +
                    " does nothing unless Kueue's fair sharing is on, and the site does not turn it on: " + how,
                "site.fair-sharing-off");
}

}  // namespace

void lower_kueue_config(Context& ctx) {
    if (!ctx.site.kueue_config) {
        warn_unused_weights(ctx);
        return;
    }
    const auto& k = *ctx.site.kueue_config;
    if (ctx.target.platform == Platform::OpenShiftAI) {
        ctx.error(k.mark, "spec.kueueConfig: target " + ctx.target.name + ": " + why_not_here(ctx), "target.kueue-config");
        return;
    }
    const Version kueue = ctx.target.kueue;
    const std::string ktext = "Kueue " + kueue.to_string() + " (target " + ctx.target.name + ")";
    const std::size_t errors_before = ctx.diags.count(Severity::Error);

    std::vector<PendingRecord> records;
    Trace tr(records);
    const Trace data_tr = tr.field("data").field(platform::kKueueManagerConfigKey);

    // ---- integrations.frameworks -------------------------------------------
    const auto available = platform::kueue_integrations(kueue);
    // The text is one string (one provenance record), so only the names are kept.
    std::set<std::string> wanted;
    auto want = [&](const std::string& f, Mark at, const std::string& because) {
        if (!std::binary_search(available.begin(), available.end(), f)) {
            auto first = platform::first_kueue_with_integration(f);
            ctx.error(at,
                      because + " needs Kueue's integration " + f + ", which " + ktext + " does not register" +
                          (first && *first > kueue ? "; it is first in Kueue " + first->to_string()
                                                   : std::string("; Kueue dropped it")),
                      "target.kueue-config");
            return;
        }
        wanted.insert(f);
    };
    for (const auto& need : needed_job_kinds(ctx)) {
        const std::string f = platform::kueue_integration_of(need.api_version, need.kind);
        if (!f.empty()) want(f, need.at, need.because);
    }
    for (const auto& f : k.frameworks) {
        if (!platform::first_kueue_with_integration(f.value)) {
            std::string hint = did_you_mean(f.value, platform::kueue_integrations(Version{0, 20, 0}));
            ctx.error(f.mark,
                      "spec.kueueConfig.frameworks: \"" + f.value + "\" is not a Kueue integration" +
                          (hint.empty() ? "" : "; did you mean \"" + hint + "\"?"),
                      "site.kueue-config");
            continue;
        }
        want(f.value, f.mark, "spec.kueueConfig.frameworks");
    }
    if (wanted.empty() && ctx.diags.count(Severity::Error) == errors_before)
        ctx.error(k.mark,
                  "spec.kueueConfig: no integration to enable: the site's workloads name no job kind Kueue integrates, "
                  "it has no HardwareProfiles, and frameworks is empty (Kueue would manage no job)",
                  "site.kueue-config");

    Node cfg = Node::mapping();
    const std::string api_version = platform::kueue_configuration_api_version(kueue);
    const bool v1beta1 = api_version.ends_with("/v1beta1");
    cfg.set("apiVersion", Node::string(api_version));
    cfg.set("kind", Node::string("Configuration"));
    Node settings = platform::kueue_manager_settings(kueue);
    for (auto& e : settings.entries()) cfg.set(e.key, std::move(e.value));
    if (k.manage_jobs_without_queue_name)
        cfg.set("manageJobsWithoutQueueName", Node::boolean(k.manage_jobs_without_queue_name->value));
    Node frameworks = Node::sequence();
    for (const auto& f : wanted) frameworks.push(Node::string(f));
    Node integrations = Node::mapping();
    integrations.set("frameworks", std::move(frameworks));
    cfg.set("integrations", std::move(integrations));

    // ---- fairSharing ---------------------------------------------------------
    const auto weight = first_fair_sharing_weight(ctx.site);
    if (k.fair_sharing && !k.fair_sharing->value && weight)
        ctx.error(weight->first,
                  "the fair-sharing weight of " + weight->second +
                      " does nothing: spec.kueueConfig.fairSharing is false, and Kueue reads ClusterQueue and Cohort "
                      "fairSharing.weight only with fair sharing on",
                  "site.fair-sharing-weights");
    const bool fair = k.fair_sharing ? k.fair_sharing->value : weight.has_value();
    if (fair && kueue < Version{0, 7, 0})
        ctx.error(k.fair_sharing ? k.fair_sharing->mark : weight->first,
                  (k.fair_sharing ? std::string("spec.kueueConfig.fairSharing") : "the fair-sharing weight of " + weight->second) +
                      ": " + ktext + " has no fair sharing; it is first in Kueue 0.7",
                  "target.kueue-config");
    if (fair) {
        Node fs = Node::mapping();
        if (v1beta1) fs.set("enable", Node::boolean(true));
        Node strategies = Node::sequence();
        strategies.push(Node::string("LessThanOrEqualToFinalShare"));
        strategies.push(Node::string("LessThanInitialShare"));
        fs.set("preemptionStrategies", std::move(strategies));
        cfg.set("fairSharing", std::move(fs));
    }

    // ---- resources.deviceClassMappings -------------------------------------
    bool dra_gate = false;
    if (!k.device_class_mappings.empty()) {
        if (kueue < Version{0, 14, 0}) {
            ctx.error(k.device_class_mappings.front().mark,
                      "spec.kueueConfig.deviceClassMappings: " + ktext +
                          " does not count DRA devices; deviceClassMappings are first in Kueue 0.14",
                      "target.kueue-config");
        } else {
            std::vector<PendingRecord> unused;
            Node res = Node::mapping();
            res.set("deviceClassMappings", device_class_mappings_node(k.device_class_mappings, Trace(unused)));
            cfg.set("resources", std::move(res));
            dra_gate = kueue < Version{0, 18, 0};
        }
    }
    if (dra_gate) {
        Node gates = Node::mapping();
        gates.set("DynamicResourceAllocation", Node::boolean(true));
        cfg.set("featureGates", std::move(gates));
    }
    if (ctx.diags.count(Severity::Error) > errors_before) return;

    // The text is one string: its provenance is the section.
    data_tr.set(k.mark, Derivation::Formed,
                "spec.kueueConfig: " + ktext + "'s Configuration as its manifests ship it, with the site's integrations" +
                    std::string(fair ? ", fair sharing" : "") + (k.device_class_mappings.empty() ? "" : ", deviceClassMappings"));
    Node data = Node::mapping();
    data.set(std::string(platform::kKueueManagerConfigKey), Node::string(emit_yaml(cfg)));
    add_object(ctx, {.api_version = "v1",
                     .kind = "ConfigMap",
                     .name = std::string(platform::kKueueManagerConfigMap),
                     .namespace_ = k.namespace_.value.empty() ? std::string(kDefaultNamespace) : k.namespace_.value,
                     .component = "kueue-config",
                     .custom_resource = false,
                     .wave = kWaveKueueOperator,
                     .kind_rank = 1,
                     .origin = k.mark,
                     .rule = "spec.kueueConfig: Kueue's Configuration for " + ctx.target.name +
                             " (Kueue reads it at start-up: restart kueue-controller-manager after a change)",
                     .name_from = {k.mark, Derivation::Target, "Kueue's manager mounts the ConfigMap kueue-manager-config"},
                     .fields = one_field("data", std::move(data)),
                     .provenance = std::move(records)});
}

}  // namespace queueforge::lower
