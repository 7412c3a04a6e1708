// apps/v1 StatefulSet -> one Workload for all its pods: podSet `main` of
// spec.replicas pods (default 1) whose template is the pod spec alone (the
// template's metadata is not copied); no Workload at replicas 0. The Workload
// is a pod group's (is-group-workload) owned by the StatefulSet, with the
// job-owner annotations.
//
// Sources: Kueue ff69552e79ad21652c36caa97038382e55625cf7,
// pkg/controller/jobs/statefulset/: statefulset_reconciler.go
// (reconcileWorkload: created only when replicas > 0; constructWorkload;
// handle), statefulset_controller.go (managedByAnotherFramework),
// statefulset_webhook.go (ValidateCreate: queue name and elastic annotation
// only, GetWorkloadName); the topology request from the template annotations
// with apps.kubernetes.io/pod-index as podIndexLabel, checked as the Pods'
// webhook does (pod_webhook.go validateTopologyRequest).
#include "engines/workloads/jobs.hpp"

namespace queueforge::workloads::detail {

bool build_statefulset(const Reporter& rep, Built& out) {
    const Node* spec = present(&rep.doc(), "spec");
    if (!spec || !spec->is_map()) {
        rep.invalid(spec ? spec : &rep.doc(), "spec", "Required value: a StatefulSet needs a spec with a pod template");
        return false;
    }
    const Node* tmpl = read_template(rep, spec, "spec");
    auto replicas = read_int(rep, spec, "replicas", "spec.replicas", 1);  // the API server defaults it to 1
    if (!tmpl || !replicas) return false;

    // Another framework's (an LWS's, an AppWrapper's component): its Workloads are that object's.
    if (suspended_by_other_parent(rep, tmpl, "statefulset", "StatefulSet")) return false;

    Node pod_template = Node::mapping(tmpl->mark());
    if (const Node* pod_spec = present(tmpl, "spec")) pod_template.set("spec", *pod_spec);
    PodSet ps{.name = "main", .count = *replicas, .tmpl = std::move(pod_template), .mark = tmpl->mark()};
    ps.name_at = tmpl;
    // The topology request comes from the template's annotations (which the
    // podSet template leaves out), with the pod index label; the Pods'
    // webhook checks them (no slice-size bound).
    ps.tas.meta = present(tmpl, "metadata");
    ps.tas.path = "spec.template.metadata";
    ps.tas.pod_index_label = std::string(kStatefulSetPodIndexLabel);
    out.tas.slice_bound = false;
    out.pod_sets.push_back(std::move(ps));
    if (*replicas == 0) out.components = 0;  // reconcileWorkload creates none
    out.annotations = {{std::string(kIsGroupWorkload), "true"}, {"kueue.x-k8s.io/job-owner-gvk", "apps/v1, Kind=StatefulSet"}};
    if (!rep.job().ref.name.empty()) out.annotations.emplace_back("kueue.x-k8s.io/job-owner-name", rep.job().ref.name);
    return check_pod_sets(rep, out, tmpl, "spec.template");
}

}  // namespace queueforge::workloads::detail
