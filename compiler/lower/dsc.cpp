// The DataScienceCluster: the target's template (templates/dsc/) with the
// site's component states and Kueue settings merged in structurally.
#include "lower/metadata.hpp"
#include "lower/passes.hpp"

#include "frontend/site/reader.hpp"

#include <queueforge/base/templates.hpp>
#include <queueforge/base/yaml_load.hpp>

#include <algorithm>

namespace queueforge::lower {

namespace {

std::string unknown_component_hint(const Context& ctx, const std::string& name) {
    const bool v2 = ctx.target.dsc_api_version.ends_with("/v2");
    if (v2 && name == "datasciencepipelines") return "; in DataScienceCluster v2 it is called \"aipipelines\"";
    if (v2 && (name == "codeflare" || name == "modelmeshserving"))
        return "; it was removed in DataScienceCluster v2 (OpenShift AI 3.0)";
    if (!v2 && name == "aipipelines") return "; before DataScienceCluster v2 it is called \"datasciencepipelines\"";
    std::vector<std::string> names;
    for (const auto& c : ctx.target.components) names.push_back(c.name);
    std::string hint = site::did_you_mean(name, names);
    return hint.empty() ? "" : "; did you mean \"" + hint + "\"?";
}

std::string state_hint(const Context& ctx, const std::string& component, const std::string& state) {
    if (component == "kueue" && state == "Managed" && !ctx.target.embedded_kueue)
        return "; Kueue managementState Managed is not supported on " + ctx.target.name +
               ", use Unmanaged (Kueue from the Red Hat build of Kueue operator) or Removed";
    return "";
}

}  // namespace

void lower_data_science_cluster(Context& ctx) {
    const auto& d = ctx.site.dsc;
    if (ctx.target.dsc_api_version.empty()) {
        if (d.mark.known() && d.emit)
            ctx.warning(d.mark, "target " + ctx.target.name + " has no DataScienceCluster; spec.dataScienceCluster is ignored", "target.dsc");
        return;
    }
    if (!d.emit) return;

    auto text = find_template(ctx.target.dsc_template);
    Diagnostics tdiags;
    std::vector<Document> docs;
    if (text) docs = load_yaml("templates/" + ctx.target.dsc_template, std::string(*text), tdiags);
    const Node* tspec = docs.size() == 1 ? docs[0].root.find("spec") : nullptr;
    if (!tspec || tdiags.has_errors()) {
        ctx.error(ctx.site.target.mark, "internal: template templates/" + ctx.target.dsc_template + " is missing or invalid", "internal");
        return;
    }
    Node spec = *tspec;
    std::vector<PendingRecord> records;
    Trace spec_tr = Trace(records).field("spec");
    // Template values carry the template's line numbers; each gets a record
    // so none is mistaken for a value copied from the site.
    spec_tr.set_from_template(*tspec, target_origin(ctx, "DataScienceCluster template"), "templates/" + ctx.target.dsc_template);
    Trace components_tr = spec_tr.field("components");
    Node* components = spec.find("components");
    if (!components || !components->is_map()) {
        ctx.error(ctx.site.target.mark, "internal: template templates/" + ctx.target.dsc_template + " has no spec.components", "internal");
        return;
    }

    for (const auto& [name, state] : d.components) {
        const Component* c = ctx.target.component(name.value);
        if (!c) {
            ctx.error(name.mark,
                      "dataScienceCluster component \"" + name.value + "\" is not served by " + ctx.target.name + " (" +
                          ctx.target.dsc_api_version + ")" + unknown_component_hint(ctx, name.value),
                      "target.component");
            continue;
        }
        if (std::find(c->states.begin(), c->states.end(), state.value) == c->states.end()) {
            std::string allowed;
            for (const auto& s : c->states) allowed += (allowed.empty() ? "" : ", ") + s;
            ctx.error(state.mark,
                      "dataScienceCluster component \"" + name.value + "\": managementState " + state.value +
                          " is not accepted on " + ctx.target.name + " (allowed: " + allowed + ")" +
                          state_hint(ctx, name.value, state.value),
                      "target.component-state");
            continue;
        }
        Node* comp = components->find(name.value);
        if (!comp) {
            comp = &components->set(name.value, Node::mapping());
            components_tr.set(name.value, name.mark, Derivation::Written);
        }
        comp->set("managementState", Node::string(state.value));
        components_tr.field(name.value).set("managementState", state.mark, Derivation::Written);
    }

    Node* kueue = components->find("kueue");
    const std::string kueue_state = kueue && kueue->find("managementState") ? kueue->find("managementState")->text() : "";
    if (kueue_state == "Removed" && !ctx.site.teams.empty())
        ctx.warning(d.mark.known() ? d.mark : ctx.site.target.mark,
                    "dataScienceCluster component kueue is Removed: nothing on " + ctx.target.name + " will serve the site's queues",
                    "target.kueue-removed");
    if (kueue) {
        if (d.auto_create_queues && !ctx.target.dsc_auto_create_queues)
            ctx.error(d.auto_create_queues->mark, "dataScienceCluster.autoCreateQueues needs OpenShift AI 3.5 or newer", "target.field");
        for (const auto* f : {&d.default_local_queue_name, &d.default_cluster_queue_name})
            if (!f->value.empty() && !ctx.target.dsc_default_queue_fields)
                ctx.error(f->mark, "dataScienceCluster default queue names need OpenShift AI 2.23 or newer", "target.field");
        Trace kueue_tr = components_tr.field("kueue");
        if (ctx.target.dsc_default_queue_fields) {
            if (!d.default_cluster_queue_name.value.empty()) {
                kueue->set("defaultClusterQueueName", Node::string(d.default_cluster_queue_name.value));
                kueue_tr.set("defaultClusterQueueName", d.default_cluster_queue_name.mark, Derivation::Written);
            }
            if (!d.default_local_queue_name.value.empty()) {
                kueue->set("defaultLocalQueueName", Node::string(d.default_local_queue_name.value));
                kueue_tr.set("defaultLocalQueueName", d.default_local_queue_name.mark, Derivation::Written);
            }
        }
        if (ctx.target.dsc_auto_create_queues) {
            // The site owns the queues: the operator must not create competing
            // default-flavor / default queues (openshift-ai.md section 2, 3.5 row).
            bool value = d.auto_create_queues ? d.auto_create_queues->value : false;
            if (value && !ctx.site.teams.empty())
                ctx.warning(d.auto_create_queues->mark,
                            "autoCreateQueues: true makes the operator create default-flavor and default queues next to the site's own",
                            "target.auto-queues");
            kueue->set("autoCreateQueues", Node::boolean(value));
            kueue_tr.set("autoCreateQueues",
                         d.auto_create_queues
                             ? Origin{d.auto_create_queues->mark, Derivation::Written, {}}
                             : target_origin(ctx, "autoCreateQueues false: the site owns the queues, so the operator "
                                                  "must not create default-flavor and default queues"));
        }
    }

    const bool embedded = kueue_state == "Managed";
    const Mark origin = d.mark.known() ? d.mark : ctx.site.target.mark;
    add_object(ctx, {.api_version = ctx.target.dsc_api_version,
                     .kind = "DataScienceCluster",
                     .name = d.name.value.empty() ? "default-dsc" : d.name.value,
                     .component = "rhoai-platform",
                     // Removing the DataScienceCluster tears OpenShift AI down.
                     .sync_options = {"Prune=false", "Delete=false"},
                     .wave = embedded ? kWaveEmbeddedKueueDsc : kWavePlatformDsc,
                     .kind_rank = 1,
                     .origin = origin,
                     .rule = d.mark.known() ? "spec.dataScienceCluster: OpenShift AI's DataScienceCluster"
                                            : "target " + ctx.target.name + ": OpenShift AI's DataScienceCluster",
                     .name_from = d.name.value.empty()
                                      ? Origin{origin, Derivation::Default, "default: default-dsc (the name OpenShift AI uses)"}
                                      : Origin{d.name.mark, Derivation::Written, {}},
                     .fields = one_field("spec", std::move(spec)),
                     .provenance = std::move(records)});
}

}  // namespace queueforge::lower
