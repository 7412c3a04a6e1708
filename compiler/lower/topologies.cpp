// spec.topologies as Kueue Topology objects, and each pool's place in one
// (its flavor's spec.topologyName, the shape of its node inventory).
//
// Facts (kubernetes-sigs/kueue ff69552e, apis/kueue/v1beta2/topology_types.go
// and the CRDs of each release in ../shared/upstream): Topology is served as
// v1alpha1 from 0.9 to 0.13 behind the alpha TopologyAwareScheduling gate
// (off by default), as v1beta1 from 0.14 with the gate beta and on, and as
// v1beta2 from 0.15. A flavor with topologyName must have node labels (V17).
#include "lower/metadata.hpp"
#include "lower/passes.hpp"

#include <queueforge/base/names.hpp>

namespace queueforge::lower {

namespace {

constexpr auto kMaxNodes = static_cast<std::int64_t>(kMaxTopologyNodes);

// Levels that are not kubernetes.io/hostname: the ones the shape counts domains of.
std::size_t domain_levels(const site::Topology& t) {
    std::size_t n = t.levels.size();
    if (n > 0 && t.levels.back().value == kHostnameLabel) --n;
    return n;
}

void check_pool_shape(Context& ctx, const site::Pool& pool, const site::Topology& topo) {
    const auto& pt = *pool.topology;
    const std::string what = "pool \"" + pool.name.value + "\": topology.shape";
    const std::size_t want = domain_levels(topo) + 1;
    if (pt.shape.empty()) return;  // reported when read
    if (pt.shape.size() != want) {
        std::string levels;
        for (std::size_t i = 0; i < domain_levels(topo); ++i) levels += topo.levels[i].value + ", ";
        ctx.error(pt.shape.front().mark,
                  what + ": " + std::to_string(pt.shape.size()) + " numbers; topology \"" + topo.name.value +
                      "\" needs " + std::to_string(want) + ": the domains per parent at each level (" + levels +
                      "from the top), then the nodes per lowest domain",
                  "site.topology");
        return;
    }
    std::int64_t nodes = 1;
    for (const auto& s : pt.shape) {
        if (nodes > kMaxNodes / s.value) {
            ctx.error(s.mark, what + ": more than " + std::to_string(kMaxNodes) + " nodes; the placement limit is " +
                                  std::to_string(kMaxNodes) + " nodes per topology",
                      "site.topology");
            return;
        }
        nodes *= s.value;
    }
    if (pool.nodes && pool.nodes->value != nodes)
        ctx.error(pt.shape.front().mark,
                  what + " describes " + std::to_string(nodes) + " nodes, but the pool has nodes: " +
                      std::to_string(pool.nodes->value),
                  "site.topology");
}

}  // namespace

void lower_topologies(Context& ctx) {
    const auto& topologies = ctx.topologies;
    for (const auto& pool : ctx.site.pools) {
        if (!pool.topology || pool.topology->name.value.empty()) continue;
        const auto& ref = pool.topology->name;
        auto it = topologies.find(ref.value);
        if (it == topologies.end()) {
            std::vector<std::string> names;
            for (const auto& [n, t] : topologies) names.push_back(n);
            std::string msg = "pool \"" + pool.name.value + "\": unknown topology \"" + ref.value +
                              "\" (declare it under spec.topologies)";
            std::string hint = did_you_mean(ref.value, names);
            if (!hint.empty()) msg += "; did you mean \"" + hint + "\"?";
            ctx.error(ref.mark, msg, "site.unknown-topology");
            continue;
        }
        check_pool_shape(ctx, pool, *it->second);
    }
    if (ctx.site.topologies.empty()) return;

    const bool beta = ctx.kueue_at_least(0, 14);
    if (!beta) {
        ctx.error(ctx.site.topologies.front().mark,
                  "spec.topologies: target " + ctx.target.name + " (Kueue " + ctx.target.kueue.to_string() +
                      ") " + (ctx.kueue_at_least(0, 9) ? "serves Topology only as v1alpha1, behind the alpha TopologyAwareScheduling feature gate (off by default)"
                                                        : "serves no Topology objects") +
                      "; topology-aware scheduling needs Kueue 0.14 or newer",
                  "target.unserved");
        return;
    }
    for (const auto& t : ctx.site.topologies) {
        std::vector<PendingRecord> records;
        Trace spec_tr = Trace(records).field("spec");
        Node levels = Node::sequence();
        Trace levels_tr = spec_tr.field("levels");
        for (const auto& l : t.levels) {
            Node level = Node::mapping();
            level.set("nodeLabel", Node::string(l.value));
            levels_tr.item(levels.size()).set("nodeLabel", l.mark, Derivation::Written);
            levels.push(std::move(level));
        }
        Node spec = Node::mapping();
        spec.set("levels", std::move(levels));
        add_object(ctx, {.api_version = ctx.target.kueue_api_version,
                         .kind = "Topology",
                         .name = t.name.value,
                         .component = "kueue-queueing",
                         .wave = kWaveFlavor,
                         .kind_rank = -1,  // before the flavors that name it
                         .origin = t.mark,
                         .rule = "topology " + t.name.value + ": one Topology per entry of spec.topologies",
                         .name_from = {t.name.mark, Derivation::Written, "the topology's name"},
                         .fields = one_field("spec", std::move(spec)),
                         .provenance = std::move(records)});
    }
}

}  // namespace queueforge::lower
