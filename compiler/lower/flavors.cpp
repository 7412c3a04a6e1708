#include "lower/metadata.hpp"
#include "lower/passes.hpp"

#include <set>

namespace queueforge::lower {

void lower_flavors(Context& ctx) {
    for (const auto& pool : ctx.site.pools) {
        const std::string what = "pool \"" + pool.name.value + "\"";
        // ResourceFlavor limits (kueue-semantics.md V10, V14).
        if (pool.node_labels.size() > 8)
            ctx.error(pool.mark, what + ": " + std::to_string(pool.node_labels.size()) + " nodeLabels; at most 8 are allowed", "V10");
        if (pool.taints.size() > 8)
            ctx.error(pool.mark, what + ": " + std::to_string(pool.taints.size()) + " taints; at most 8 are allowed", "V10");
        if (pool.tolerations.size() > 8)
            ctx.error(pool.mark, what + ": " + std::to_string(pool.tolerations.size()) + " tolerations; at most 8 are allowed", "V10");
        std::set<std::pair<std::string, std::string>> taint_keys;
        for (const auto& t : pool.taints)
            if (!taint_keys.insert({t.key.value, t.effect.value}).second)
                ctx.error(t.mark, what + ": taints must be unique by key and effect pair", "V14");
        bool empty = pool.node_labels.empty() && pool.taints.empty() && pool.tolerations.empty();
        if (ctx.target.single_cluster_queue && !empty)
            ctx.warning(pool.mark,
                        what + ": OpenShift AI " + ctx.target.release.to_string() +
                            " supports only empty ResourceFlavors (no node labels, taints or tolerations)",
                        "target.support");

        Node& doc = add_object(ctx, {.api_version = ctx.target.kueue_api_version,
                                     .kind = "ResourceFlavor",
                                     .name = pool.name.value,
                                     .component = "kueue-queueing",
                                     .labels = {{"queueforge.io/pool", pool.name.value}},
                                     .wave = kWaveFlavor,
                                     .kind_rank = 0,
                                     .origin = pool.mark});
        Node spec = Node::mapping();
        if (!pool.node_labels.empty()) {
            std::vector<std::pair<std::string, std::string>> kv;
            for (const auto& [k, v] : pool.node_labels) kv.emplace_back(k.value, v.value);
            spec.set("nodeLabels", sorted_string_map(std::move(kv)));
        }
        if (!pool.taints.empty()) {
            Node taints = Node::sequence();
            for (const auto& t : pool.taints) {
                Node n = Node::mapping();
                n.set("key", Node::string(t.key.value));
                if (!t.value.value.empty()) n.set("value", Node::string(t.value.value));
                n.set("effect", Node::string(t.effect.value));
                taints.push(std::move(n));
            }
            spec.set("nodeTaints", std::move(taints));
        }
        if (!pool.tolerations.empty()) {
            Node tolerations = Node::sequence();
            for (const auto& t : pool.tolerations) tolerations.push(t);
            spec.set("tolerations", std::move(tolerations));
        }
        doc.set("spec", std::move(spec));
    }
}

}  // namespace queueforge::lower
