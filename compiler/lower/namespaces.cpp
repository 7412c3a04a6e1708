#include "lower/metadata.hpp"
#include "lower/passes.hpp"

#include <set>

namespace queueforge::lower {

void lower_namespaces(Context& ctx) {
    const bool manage = ctx.site.manage_namespaces && ctx.site.manage_namespaces->value;
    std::set<std::string> seen;
    std::vector<const site::Text*> namespaces;
    for (const auto& t : ctx.site.teams)
        for (const auto& ns : t.namespaces)
            if (seen.insert(ns.value).second) namespaces.push_back(&ns);

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
    for (const auto* ns : namespaces) {
        std::vector<PendingRecord> records;
        Trace labels_tr = Trace(records).field("metadata").field("labels");
        for (const auto& [k, v] : required)
            labels_tr.set(k, target_origin(ctx, "Kueue manages jobs only in namespaces labelled " + k + "=" + v));
        add_object(ctx, {.api_version = "v1",
                         .kind = "Namespace",
                         .name = ns->value,
                         .labels = required,
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
