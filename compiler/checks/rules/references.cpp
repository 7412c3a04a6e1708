// References between Kueue objects: a LocalQueue's ClusterQueue, the
// flavors ClusterQueues and Cohorts list, a ClusterQueue's cohort and a
// Cohort's parent (xref.missing-*, xref.implicit-cohort).
#include "checks/rules/inventory.hpp"

#include <set>

namespace queueforge::rules::detail {

void check_references(const CrossContext& ctx, Diagnostics& diags) {
    const Inventory& inv = ctx.inv;
    const auto cq_names = inv.names(inv.cq_by_name);
    const auto flavor_names_all = inv.names(inv.flavor_by_name);
    const auto cohort_names = inv.names(inv.cohort_by_name);

    // A reference into a kind the input holds none of (a tenant repository
    // with only LocalQueues) cannot be checked here: a note. When the input
    // holds objects of that kind but not the one named, it is most likely a
    // typo: an error.
    for (const Resource* lq : inv.local_queues) {
        const Node* cq = present(present(&lq->doc, "spec"), "clusterQueue");
        if (!is_text(cq) || inv.cq_by_name.count(cq->text())) continue;
        if (inv.cluster_queues.empty()) {
            Reporter{*lq, diags}.note("xref.missing-clusterqueue", cq, "spec.clusterQueue",
                                      "ClusterQueue " + go_quote(cq->text()) +
                                          " is not checked: the input holds no ClusterQueue (validate the cluster's "
                                          "queues together with it to check the reference)");
            continue;
        }
        Reporter{*lq, diags}.error(
            "xref.missing-clusterqueue", cq, "spec.clusterQueue",
            "ClusterQueue " + go_quote(cq->text()) + " is not in the input" + suggestion(cq->text(), cq_names) +
                ": Kueue keeps the LocalQueue inactive and its workloads pending until it exists");
    }

    // Flavors named by ClusterQueues and Cohorts must exist as ResourceFlavors.
    auto check_flavors = [&](const Resource& r) {
        std::set<std::string> reported;  // a flavor listed twice (V26) is missing once
        const auto& rgs = items(present(present(&r.doc, "spec"), "resourceGroups"));
        for (std::size_t i = 0; i < rgs.size(); ++i) {
            const auto& fl = items(present(&rgs[i], "flavors"));
            for (std::size_t j = 0; j < fl.size(); ++j) {
                const Node* name = present(&fl[j], "name");
                if (!is_text(name) || inv.flavor_by_name.count(name->text()) || !reported.insert(name->text()).second) continue;
                if (inv.flavor_by_name.empty()) {
                    Reporter{r, diags}.note("xref.missing-flavor", name,
                                            index(index("spec.resourceGroups", i) + ".flavors", j) + ".name",
                                            "ResourceFlavor " + go_quote(name->text()) +
                                                " is not checked: the input holds no ResourceFlavor");
                    continue;
                }
                const std::string consequence =
                    r.ref.kind == "ClusterQueue"
                        ? "Kueue marks ClusterQueue " + r.ref.name + " inactive (FlavorNotFound) and admits nothing through it"
                        : "Cohort " + r.ref.name + "'s quota for it cannot be used";
                Reporter{r, diags}.error("xref.missing-flavor", name,
                                         index(index("spec.resourceGroups", i) + ".flavors", j) + ".name",
                                         "ResourceFlavor " + go_quote(name->text()) + " is not in the input" +
                                             suggestion(name->text(), flavor_names_all) + ": " + consequence);
            }
        }
    };
    for (const Resource* cq : inv.cluster_queues) check_flavors(*cq);
    for (const Resource* co : inv.cohorts) check_flavors(*co);

    // A cohort without a Cohort object is fine (Kueue creates it implicitly),
    // but when the input defines Cohorts a name matching none may be a typo.
    if (!inv.cohorts.empty()) {
        for (const Resource* cq : inv.cluster_queues) {
            const Node* cohort = cluster_queue_cohort(*cq);
            if (!cohort || inv.cohort_by_name.count(cohort->text())) continue;
            Reporter{*cq, diags}.note("xref.implicit-cohort", cohort, "spec." + cluster_queue_cohort_field(*cq),
                                      "cohort " + go_quote(cohort->text()) + " has no Cohort object among the " +
                                          std::to_string(inv.cohorts.size()) + " in the input" +
                                          suggestion(cohort->text(), cohort_names) +
                                          "; Kueue creates it implicitly, as a root cohort without quota of its own");
        }
    }
    for (const Resource* co : inv.cohorts) {
        const Node* parent = cohort_parent(*co);
        if (!parent || inv.cohort_by_name.count(parent->text())) continue;
        Reporter{*co, diags}.warning("xref.missing-parent-cohort", parent, "spec." + cohort_parent_field(*co),
                                     "parent Cohort " + go_quote(parent->text()) + " is not in the input" +
                                         suggestion(parent->text(), cohort_names) +
                                         "; Kueue treats it as an implicit cohort without quota of its own");
    }
}

}  // namespace queueforge::rules::detail
