#include "lower/metadata.hpp"
#include "lower/passes.hpp"

#include <set>

namespace queueforge::lower {

void lower_flavors(Context& ctx) {
    for (const auto& pool : ctx.site.pools) {
        const std::string what = "pool \"" + pool.name.value + "\"";
        // ResourceFlavor list limits (kueue-semantics.md V10, a schema rule);
        // V14 (taints unique by key and effect) is checks/rules', run on the
        // object by the compile step.
        if (pool.node_labels.size() > 8)
            ctx.error(pool.mark, what + ": " + std::to_string(pool.node_labels.size()) + " nodeLabels; at most 8 are allowed", "V10");
        if (pool.taints.size() > 8)
            ctx.error(pool.mark, what + ": " + std::to_string(pool.taints.size()) + " taints; at most 8 are allowed", "V10");
        if (pool.tolerations.size() > 8)
            ctx.error(pool.mark, what + ": " + std::to_string(pool.tolerations.size()) + " tolerations; at most 8 are allowed", "V10");
        bool empty = pool.node_labels.empty() && pool.taints.empty() && pool.tolerations.empty();
        if (ctx.target.single_cluster_queue && !empty)
            ctx.warning(pool.mark,
                        what + ": OpenShift AI " + ctx.target.release.to_string() +
                            " supports only empty ResourceFlavors (no node labels, taints or tolerations)",
                        "target.support");

        std::vector<PendingRecord> records;
        Trace spec_tr = Trace(records).field("spec");
        Trace(records).field("metadata").field("labels").set("queueforge.io/pool", pool.name.mark, Derivation::Generated,
                                                             "generated label: the pool's name");
        Node spec = Node::mapping();
        if (empty)
            spec_tr.set(pool.mark, Derivation::Formed,
                        "pool \"" + pool.name.value + "\" has no node labels, taints or tolerations: an empty flavor");
        if (!pool.node_labels.empty()) {
            std::vector<std::pair<std::string, std::string>> kv;
            Trace labels_tr = spec_tr.field("nodeLabels");
            for (const auto& [k, v] : pool.node_labels) {
                kv.emplace_back(k.value, v.value);
                labels_tr.set(k.value, v.mark, Derivation::Written);
            }
            spec.set("nodeLabels", sorted_string_map(std::move(kv)));
        }
        if (!pool.taints.empty()) {
            Node taints = Node::sequence();
            Trace taints_tr = spec_tr.field("nodeTaints");
            for (const auto& t : pool.taints) {
                Trace t_tr = taints_tr.item(taints.size());
                t_tr.set(t.mark, Derivation::Written);
                Node n = Node::mapping();
                n.set("key", Node::string(t.key.value));
                t_tr.set("key", t.key.mark, Derivation::Written);
                if (!t.value.value.empty()) {
                    n.set("value", Node::string(t.value.value));
                    t_tr.set("value", t.value.mark, Derivation::Written);
                }
                n.set("effect", Node::string(t.effect.value));
                t_tr.set("effect", t.effect.mark, Derivation::Written);
                taints.push(std::move(n));
            }
            spec.set("nodeTaints", std::move(taints));
        }
        if (!pool.tolerations.empty()) {
            Node tolerations = Node::sequence();
            Trace tol_tr = spec_tr.field("tolerations");
            for (const auto& t : pool.tolerations) {
                tol_tr.item(tolerations.size()).set_copied(t);
                tolerations.push(t);
            }
            spec.set("tolerations", std::move(tolerations));
        }
        // Last, as in Kueue's ResourceFlavorSpec.
        if (pool.topology && !pool.topology->name.value.empty()) {
            spec.set("topologyName", Node::string(pool.topology->name.value));
            spec_tr.set("topologyName", pool.topology->name.mark, Derivation::Written);
        }
        add_object(ctx, {.api_version = ctx.target.kueue_api_version,
                         .kind = "ResourceFlavor",
                         .name = pool.name.value,
                         .component = "kueue-queueing",
                         .labels = {{"queueforge.io/pool", pool.name.value}},
                         .wave = kWaveFlavor,
                         .kind_rank = 0,
                         .origin = pool.mark,
                         .rule = "pool " + pool.name.value + ": one ResourceFlavor per pool",
                         .name_from = {pool.name.mark, Derivation::Written, "the pool's name"},
                         .fields = one_field("spec", std::move(spec)),
                         .provenance = std::move(records)});
    }
}

}  // namespace queueforge::lower
