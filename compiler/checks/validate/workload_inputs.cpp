#include "checks/validate/workload_inputs.hpp"

namespace queueforge::validate {

void check_workload_input(const Resource& r, Diagnostics& diags) {
    if (r.ref.kind != "Workload" || !r.ref.api_version.starts_with("kueue.x-k8s.io/") || !r.doc.is_map()) return;
    const Node* spec = r.doc.find("spec");
    if (spec && !spec->is_map()) return;  // the schema reports the type
    const Node* pod_sets = spec ? spec->find("podSets") : nullptr;
    // v1beta1 requires podSets and both versions refuse an empty list
    // (minItems 1): the schema reports those. The v1beta2 CRD (Kueue v0.19)
    // leaves an absent list to the webhook, which no longer checks it.
    if (pod_sets && !pod_sets->is_null()) return;
    if (r.ref.api_version == "kueue.x-k8s.io/v1beta1") return;
    diags.add({Severity::Error, r.file, spec ? spec->mark() : r.doc.mark(),
               "spec.podSets: Required value: a Workload without podSets describes no pods; Kueue would account "
               "nothing for it, so it is not simulated",
               "workload.no-pod-sets", r.ref, "spec.podSets"});
}

}  // namespace queueforge::validate
