// apps/v1 Deployment -> one single-pod Workload per replica, as Kueue's pod
// integration makes for each of the Deployment's Pods: podSet `main` of one
// pod whose template is the pod spec alone (constructPodSet); none at
// replicas 0. spec.replicas defaults to 1 (the API server's default). The
// Deployment webhook copies the queue-name and priority-class labels onto the
// pod template, so every pod -- and its Workload -- has the Deployment's
// queue and priority (the queue defaulting to LocalQueue `default` and the
// WorkloadPriorityClass `default` apply to the Deployment first).
//
// Names: Kueue names a Pod's Workload "pod-<pod name>-<hash of the pod uid>";
// a Deployment's pods are named "<deployment>-<pod-template-hash>-<random>",
// which only the cluster knows, so replica i's Workload is
// "pod-<deployment>-<i>" (cut to 253 characters). Such a Workload belongs to
// its Pod, not to the Deployment: it carries no job-uid label, owner
// reference nor component index.
//
// A template marked kueue.x-k8s.io/pod-suspending-parent by another framework
// (the Deployment is that object's component) yields no Workload of its own:
// a warning ("jobs.not-managed") says to give the parent.
//
// queueforge's own bound: at most 10,000 replicas (Workloads) per Deployment
// are converted, as for LeaderWorkerSet groups; past it a warning
// ("jobs.unsupported") and no Workload.
//
// Sources: Kueue ff69552e79ad21652c36caa97038382e55625cf7,
// pkg/controller/jobs/deployment/: deployment_controller.go (a no-op
// reconciler that implicitly enables the pod integration),
// deployment_webhook.go (Default: suspended-by-parent annotation, managed
// label, queue-name and priority-class labels on the pod template;
// ValidateCreate: queue name and elastic annotation only), and
// pkg/controller/jobs/pod/pod_controller.go (PodSets, constructPodSet,
// workloadName, GetWorkloadNameForPod). Not modelled: the surge pods of a
// rolling update under way (each would hold quota for a Workload of its
// own).
#include "engines/workloads/jobs.hpp"

namespace queueforge::workloads::detail {

namespace {

constexpr std::int64_t kMaxDeploymentReplicas = 10000;

}  // namespace

bool build_deployment(const Reporter& rep, Built& out) {
    auto r = read_replicated_pods(rep, "Deployment", "deployment");
    if (!r) return false;
    const Node* tmpl = r->tmpl;
    if (r->replicas > kMaxDeploymentReplicas) {
        rep.report(Severity::Warning, "jobs.unsupported", present(r->spec, "replicas"), "spec.replicas",
                   std::to_string(r->replicas) + " replicas are not converted: the simulator takes at most " +
                       std::to_string(kMaxDeploymentReplicas) + " replicas (one Workload each) per Deployment");
        return false;
    }
    // Each Pod's own single-pod podSet and topology request.
    add_template_pod_set(out, tmpl, 1, kPodGroupPodIndexLabel);
    // The webhook overwrites the template's priority-class label only when
    // the Deployment has one (or gets `default`); otherwise the pods keep
    // theirs. A queue-name label on the template alone does not make the
    // Deployment Kueue's: its pods have no suspended-by-parent annotation and
    // are skipped while the pod integration is only implicitly enabled.
    out.pod_priority_label = present(present(present(tmpl, "metadata"), "labels"), kPriorityLabel);
    out.components = r->replicas;
    out.component_kind = "Pod";
    return check_pod_sets(rep, out, tmpl, "spec.template");
}

}  // namespace queueforge::workloads::detail
