#include "lower/metadata.hpp"
#include "lower/passes.hpp"

#include <set>

namespace queueforge::lower {

void lower_namespaces(Context& ctx) {
    const bool manage = ctx.site.manage_namespaces && ctx.site.manage_namespaces->value;
    std::set<std::string> seen;
    std::vector<std::pair<const site::Text*, const site::Team*>> namespaces;  // first team naming each
    for (const auto& t : ctx.site.teams)
        for (const auto& ns : t.namespaces)
            if (seen.insert(ns.value).second) namespaces.emplace_back(&ns, &t);

    std::vector<std::pair<std::string, std::string>> required;
    for (const auto& kv : ctx.target.namespace_labels) {
        auto eq = kv.find('=');
        required.emplace_back(kv.substr(0, eq), eq == std::string::npos ? "" : kv.substr(eq + 1));
    }
    if (!manage) {
        if (!required.empty() && !namespaces.empty()) {
            std::string labels;
            for (const auto& [k, v] : required) labels += (labels.empty() ? "" : ", ") + k + "=" + v;
            ctx.note(ctx.site.name.mark,
                     "on " + ctx.target.name + " team namespaces must carry " + labels +
                         " for Kueue to manage their jobs; set spec.manageNamespaces: true to emit the Namespaces",
                     "target.namespace-labels");
        }
        return;
    }
    const bool dashboard = ctx.target.platform == Platform::OpenShiftAI;
    for (const auto& [ns, team] : namespaces) {
        std::vector<PendingRecord> records;
        Trace meta_tr = Trace(records).field("metadata");
        Trace labels_tr = meta_tr.field("labels");
        auto labels = required;
        for (const auto& [k, v] : required)
            labels_tr.set(k, target_origin(ctx, "Kueue manages jobs only in namespaces labelled " + k + "=" + v));
        std::vector<std::pair<std::string, std::string>> annotations;
        // The OpenShift AI dashboard lists a namespace as a data science
        // project only with this label, under the display-name annotation.
        if (dashboard) {
            labels.emplace_back("opendatahub.io/dashboard", "true");
            labels_tr.set("opendatahub.io/dashboard",
                          target_origin(ctx, "the OpenShift AI dashboard shows namespaces labelled opendatahub.io/dashboard=true as projects"));
            const bool named = !team->display_name.value.empty();
            annotations.emplace_back("openshift.io/display-name", named ? team->display_name.value : team->name.value);
            meta_tr.field("annotations")
                .set("openshift.io/display-name", named ? team->display_name.mark : team->name.mark,
                     named ? Derivation::Written : Derivation::Default,
                     named ? "the team's displayName" : "default: the team's name, as the dashboard's project name");
        }
        add_object(ctx, {.api_version = "v1",
                         .kind = "Namespace",
                         .name = ns->value,
                         .labels = std::move(labels),
                         .annotations = std::move(annotations),
                         .custom_resource = false,
                         .wave = kWaveNamespace,
                         .kind_rank = 0,
                         .origin = ns->mark,
                         .rule = "namespace " + ns->value + ": a team namespace (manageNamespaces: true)",
                         .name_from = {ns->mark, Derivation::Written, {}},
                         .provenance = std::move(records)});
    }
}

}  // namespace queueforge::lower
