// Quota vs physical capacity, when the input carries Node objects (a
// `kubectl get nodes -o yaml` dump, or a site's pools): a flavor's capacity
// is the allocatable of the Nodes its nodeLabels select (all Nodes when it
// has none). Quota above it is admitted by Kueue but its pods cannot be
// scheduled, so workloads start and then sit Pending.
#include "checks/rules/inventory.hpp"
#include "checks/rules/selector.hpp"

namespace queueforge::rules::detail {

namespace {

struct Contribution {
    const Resource* owner;
    const Node* node;
    std::string path;
    Quantity amount;
};

struct Capacity {
    Quantity total;
    std::size_t nodes = 0;
};

Capacity capacity_of(const Inventory& inv, const Labels& node_labels, const std::string& resource) {
    Capacity c;
    for (const Resource* n : inv.nodes) {
        if (!node_selected(*n, node_labels)) continue;
        ++c.nodes;
        auto q = quantity_quiet(present(present(present(&n->doc, "status"), "allocatable"), resource));
        if (!q) continue;
        // Go keeps the receiver's format: start from the first amount so a
        // memory total prints as Gi, not as a long DecimalSI integer.
        if (c.total.is_zero()) c.total = *q;
        else if (auto sum = c.total.add(*q)) c.total = *sum;
    }
    return c;
}

}  // namespace

void check_capacity(const CrossContext& ctx, Diagnostics& diags) {
    const Inventory& inv = ctx.inv;
    if (inv.nodes.empty()) return;
    // (flavor, resource) -> quota entries, in input order.
    std::map<std::pair<std::string, std::string>, std::vector<Contribution>> quota;
    auto collect = [&](const Resource& r) {
        const auto& rgs = items(present(present(&r.doc, "spec"), "resourceGroups"));
        for (std::size_t i = 0; i < rgs.size(); ++i) {
            const auto& fl = items(present(&rgs[i], "flavors"));
            for (std::size_t j = 0; j < fl.size(); ++j) {
                const std::string flavor = text(present(&fl[j], "name"));
                const auto& res = items(present(&fl[j], "resources"));
                for (std::size_t k = 0; k < res.size(); ++k) {
                    const Node* nq = present(&res[k], "nominalQuota");
                    auto q = quantity_quiet(nq);
                    if (flavor.empty() || !q || q->sign() <= 0) continue;
                    quota[{flavor, text(present(&res[k], "name"))}].push_back(
                        {&r, nq, index(index(index("spec.resourceGroups", i) + ".flavors", j) + ".resources", k) + ".nominalQuota", *q});
                }
            }
        }
    };
    // A Cohort's own nominalQuota is admissible capacity too, on top of its members'.
    for (const Resource* cq : inv.cluster_queues) collect(*cq);
    for (const Resource* co : inv.cohorts) collect(*co);

    for (const auto& [fr, entries] : quota) {
        const auto& [flavor, resource] = fr;
        auto rf = inv.flavor_by_name.find(flavor);
        if (rf == inv.flavor_by_name.end()) continue;  // xref.missing-flavor already says so
        const Labels node_labels = string_map(present(present(&rf->second->doc, "spec"), "nodeLabels"));
        const Capacity cap = capacity_of(inv, node_labels, resource);

        Quantity sum;
        const Contribution* tipping = nullptr;
        std::vector<std::string> parts;
        for (const auto& c : entries) {
            auto next = sum.is_zero() ? std::optional<Quantity>(c.amount) : sum.add(c.amount);
            if (!next) break;
            sum = *next;
            if (!tipping && sum.compare(cap.total) > 0) tipping = &c;
            parts.push_back(c.owner->ref.kind + " " + c.owner->ref.name + " " + c.amount.to_string());
        }
        if (!tipping) continue;
        std::string nodes;
        if (cap.nodes == 0)
            nodes = "no Node in the input matches its nodeLabels (" + describe_labels(node_labels) + ")";
        else
            nodes = "the " + std::to_string(cap.nodes) + " Node" + (cap.nodes == 1 ? "" : "s") +
                    (node_labels.empty() ? " in the input" : " matching its nodeLabels") + " allocate " +
                    cap.total.to_string();
        Reporter{*tipping->owner, diags}.warning(
            "xref.overcommit", tipping->node, tipping->path,
            "nominalQuota of " + resource + " in flavor " + flavor + " adds up to " + sum.to_string() + " (" +
                join(parts, ", ") + "), but " + nodes +
                ": Kueue admits workloads up to the quota, and pods beyond the nodes' capacity stay Pending");
    }
}

}  // namespace queueforge::rules::detail
