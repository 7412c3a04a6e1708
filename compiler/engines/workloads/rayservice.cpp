// ray.io/v1 RayService -> one Workload for the RayCluster it serves from:
// the podSets of spec.rayClusterConfig (KubeRay's json name of RayServiceSpec.RayClusterSpec), as for a RayCluster (head, then one per
// worker group; the GCS fault-tolerance Redis cleanup raise of the head;
// autoscaling only as an elastic job). A serving workload: the Workload
// holds its quota as long as the RayService exists. Kueue accepts
// kueue.x-k8s.io/elastic-job on it.
//
// Sources: Kueue ff69552e79ad21652c36caa97038382e55625cf7,
// pkg/controller/jobs/rayservice/: rayservice_controller.go (PodSets:
// raycluster.BuildPodSets over spec.rayClusterConfig), rayservice_webhook.go
// (validateCreate: raycluster.ValidateCreate on spec.rayClusterConfig, then
// ValidateJobOnCreate), and jobframework/validation.go
// (supportedElasticJobGVKs lists RayService). Not modelled: the podSet counts
// Kueue takes from the active RayCluster of an autoscaling service
// (UpdatePodSets, status.activeServiceStatus.rayClusterName) and the second
// cluster a zero-downtime upgrade starts.
#include "engines/workloads/jobs.hpp"

namespace queueforge::workloads::detail {

bool build_rayservice(const Reporter& rep, Built& out) {
    const Node* spec = present(&rep.doc(), "spec");
    if (!spec || !spec->is_map()) {
        rep.invalid(spec ? spec : &rep.doc(), "spec", "Required value: a RayService needs a spec with a rayClusterConfig");
        return false;
    }
    const Node* cluster = present(spec, "rayClusterConfig");
    if (!cluster || !cluster->is_map()) {
        rep.invalid(cluster ? cluster : spec, "spec.rayClusterConfig",
                    cluster ? std::string("must be a map, got a ") + Node::kind_name(cluster->kind())
                            : std::string("Required value: the RayService's cluster spec is missing"));
        return false;
    }
    return ray_cluster_pod_sets(rep, *cluster, "spec.rayClusterConfig", out) &&
           check_pod_sets(rep, out, cluster, "spec.rayClusterConfig.workerGroupSpecs");
}

}  // namespace queueforge::workloads::detail
