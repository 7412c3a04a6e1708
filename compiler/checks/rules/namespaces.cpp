// Which namespaces a ClusterQueue admits from: a missing namespaceSelector
// matches nothing (metav1.LabelSelectorAsSelector(nil) is labels.Nothing()),
// `{}` matches everything, anything else is evaluated against the
// LocalQueues' namespaces. Also: several LocalQueues marked as the
// namespace's default queue.
#include "checks/rules/inventory.hpp"
#include "checks/rules/selector.hpp"

namespace queueforge::rules::detail {

namespace {

constexpr std::string_view kNameLabel = "kubernetes.io/metadata.name";
constexpr std::string_view kDefaultQueueAnnotation = "kueue.x-k8s.io/default-queue";

void check_selector_presence(const Resource& cq, Diagnostics& diags) {
    const Node* spec = present(&cq.doc, "spec");
    const Node* sel = present(spec, "namespaceSelector");
    const Reporter rep{cq, diags};
    if (!sel) {
        rep.error("xref.no-namespace-selector", spec ? spec : &cq.doc, "spec.namespaceSelector",
                  "ClusterQueue " + cq.ref.name +
                      " has no namespaceSelector, which Kueue reads as \"no namespace\": it admits no workload at "
                      "all; write namespaceSelector: {} to admit every namespace, or select the teams' namespaces");
    } else if (selector_is_empty(*sel)) {
        rep.note("xref.all-namespaces", sel, "spec.namespaceSelector",
                 "namespaceSelector {} admits workloads from every namespace that has a LocalQueue pointing to "
                 "ClusterQueue " + cq.ref.name);
    }
}

void check_local_queue_namespace(const Inventory& inv, const Resource& lq, Diagnostics& diags) {
    const std::string_view ns = lq.ref.namespace_;
    const Node* cq_name = present(present(&lq.doc, "spec"), "clusterQueue");
    if (ns.empty() || !is_text(cq_name)) return;  // namespace unknown until applied
    auto cq = inv.cq_by_name.find(cq_name->text().view());
    if (cq == inv.cq_by_name.end()) return;
    const Node* sel = present(present(&cq->second->doc, "spec"), "namespaceSelector");
    if (!sel || selector_is_empty(*sel)) return;  // no selector is reported on the ClusterQueue itself

    // The API server labels every namespace with its name; the rest is
    // known only when the Namespace object is part of the input.
    auto ns_obj = inv.namespace_by_name.find(ns);
    const bool known = ns_obj != inv.namespace_by_name.end();
    Labels labels = known ? string_map(present(present(&ns_obj->second->doc, "metadata"), "labels")) : Labels{};
    labels[std::string(kNameLabel)] = ns;
    auto match = selector_matches(*sel, labels);
    if (!match || *match) return;  // an invalid selector is V32 on the ClusterQueue
    std::string basis = known ? "its labels are " + describe_labels(labels)
                              : "Namespace " + std::string(ns) + " is not in the input, so only its automatic label " +
                                    std::string(kNameLabel) + "=" + std::string(ns) + " was checked";
    Reporter{lq, diags}.warning("xref.namespace-mismatch", cq_name, "spec.clusterQueue",
                                "ClusterQueue " + cq_name->text() + "'s namespaceSelector does not match namespace " + std::string(ns) +
                                    " (" + basis + "): Kueue keeps this LocalQueue's workloads pending "
                                    "(\"workload namespace doesn't match ClusterQueue selector\")");
}

// The annotation is read by the CodeFlare SDK (not by Kueue) to pick a queue;
// with two of them the pick is arbitrary.
void check_default_queues(const Inventory& inv, Diagnostics& diags) {
    std::map<std::string, const Resource*> first;
    for (const Resource* lq : inv.local_queues) {
        const Node* ann = present(present(present(&lq->doc, "metadata"), "annotations"), kDefaultQueueAnnotation);
        if (text(ann) != "true") continue;
        auto [it, fresh] = first.emplace(lq->ref.namespace_, lq);
        if (fresh) continue;
        Reporter{*lq, diags}.warning("xref.multiple-default-queues", ann,
                                     "metadata.annotations[" + std::string(kDefaultQueueAnnotation) + "]",
                                     "namespace " + (lq->ref.namespace_.empty() ? std::string("(unset)") : lq->ref.namespace_.str()) +
                                         " has more than one LocalQueue annotated " + std::string(kDefaultQueueAnnotation) +
                                         ": \"true\" (also " + it->second->ref.name + " at " + where(*it->second) +
                                         "); clients that pick the default queue from it get either one");
    }
}

}  // namespace

void check_namespaces(const CrossContext& ctx, Diagnostics& diags) {
    const Inventory& inv = ctx.inv;
    for (const Resource* cq : inv.cluster_queues) check_selector_presence(*cq, diags);
    for (const Resource* lq : inv.local_queues) check_local_queue_namespace(inv, *lq, diags);
    check_default_queues(inv, diags);
}

}  // namespace queueforge::rules::detail
