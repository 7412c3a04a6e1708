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
    auto r = read_replicated_pods(rep, "StatefulSet", "statefulset");
    if (!r) return false;
    // One group Workload: a podSet of all the replicas.
    add_template_pod_set(out, r->tmpl, r->replicas, kStatefulSetPodIndexLabel);
    if (r->replicas == 0) out.components = 0;  // reconcileWorkload creates none
    out.annotations = {{std::string(kIsGroupWorkload), "true"}, {"kueue.x-k8s.io/job-owner-gvk", "apps/v1, Kind=StatefulSet"}};
    if (!rep.job().ref.name.empty()) out.annotations.emplace_back("kueue.x-k8s.io/job-owner-name", rep.job().ref.name);
    return check_pod_sets(rep, out, r->tmpl, "spec.template");
}

}  // namespace queueforge::workloads::detail
