// ray.io/v1 RayCluster and RayJob (kueue-semantics.md 4.1). Sources: Kueue
// pkg/controller/jobs/raycluster/common.go (BuildPodSets, ValidateCreate:
// head podSet, worker groups, autoscaler sidecar, GCS fault-tolerance Redis
// cleanup), jobs/rayjob/rayjob_controller.go (submitter podSet or sidecar,
// default submitter template) and rayjob_webhook.go validateCreate; the
// KubeRay v1.7.0 CRDs in shared/upstream/jobs (defaults: workerGroupSpecs
// replicas 0, numOfHosts 1, submissionMode K8sJobMode).
#include "engines/workloads/jobs.hpp"

#include <queueforge/base/quantity.hpp>

namespace queueforge::workloads::detail {

namespace {

constexpr std::string_view kHeadPodSet = "head";
constexpr std::string_view kSubmitterPodSet = "submitter";
constexpr std::string_view kSubmitterContainer = "ray-job-submitter";  // KubeRay utils.SubmitterContainerName
constexpr std::string_view kAutoscalerContainer = "autoscaler";

Node resource_list(std::initializer_list<std::pair<std::string_view, std::string_view>> values, Mark m) {
    Node l = Node::mapping(m);
    for (const auto& [k, v] : values) l.set(std::string(k), Node::string(std::string(v), m));
    return l;
}

// KubeRay's defaults for the submitter (K8sJobMode Job and SidecarMode
// container): requests cpu 500m / memory 200Mi, limits cpu 1 / memory 1Gi.
Node submitter_resources(Mark m) {
    Node r = Node::mapping(m);
    r.set("limits", resource_list({{"cpu", "1"}, {"memory", "1Gi"}}, m));
    r.set("requests", resource_list({{"cpu", "500m"}, {"memory", "200Mi"}}, m));
    return r;
}

Node container(std::string_view name, const Node* image, Node resources, Mark m) {
    Node c = Node::mapping(m);
    c.set("name", Node::string(std::string(name), m));
    if (image) c.set("image", *image);
    c.set("resources", std::move(resources));
    return c;
}

// The template's spec.containers, created when missing.
Node& containers_of(Node& tmpl) {
    Node* spec = tmpl.find("spec");
    if (!spec || !spec->is_map()) spec = &tmpl.set("spec", Node::mapping(tmpl.mark()));
    Node* cs = spec->find("containers");
    if (!cs || !cs->is_seq()) cs = &spec->set("containers", Node::sequence(tmpl.mark()));
    return *cs;
}

// GCS fault tolerance: KubeRay runs a Redis cleanup Job with the head's
// scheduling, so Kueue raises the Ray container's requests to at least
// cpu 200m / memory 256Mi (accountForRedisCleanupInHeadPodSet, keep max).
void raise_for_redis_cleanup(Node& head_container, Mark m) {
    Node* res = head_container.find("resources");
    if (!res || !res->is_map()) res = &head_container.set("resources", Node::mapping(m));
    Node* req = res->find("requests");
    if (!req || !req->is_map()) req = &res->set("requests", Node::mapping(m));
    for (auto [name, floor] : {std::pair{"cpu", "200m"}, std::pair{"memory", "256Mi"}}) {
        const Node* cur = req->find(name);
        auto have = cur ? Quantity::parse(text(cur)) : std::nullopt;
        auto min = Quantity::parse(floor);
        if (have && min && !(*have < *min)) continue;
        req->set(name, Node::string(floor, m));
    }
}

bool ft_enabled(const Node& doc, const Node& cluster) {
    return lower(text(annotation(doc, "ray.io/ft-enabled"))) == "true" || present(&cluster, "gcsFaultToleranceOptions");
}

}  // namespace

// The RayCluster spec's podSets: head, then one per worker group.
bool ray_cluster_pod_sets(const Reporter& rep, const Node& cluster, const std::string& path, Built& out) {
    const Node* head = present(&cluster, "headGroupSpec");
    if (!head || !head->is_map()) {
        rep.invalid(head ? head : &cluster, path + ".headGroupSpec", "Required value");
        return false;
    }
    const Node* head_tmpl = read_template(rep, head, path + ".headGroupSpec");
    if (!head_tmpl) return false;
    const Node* head_containers = present(present(head_tmpl, "spec"), "containers");
    if (!head_containers || !head_containers->is_seq() || head_containers->items().empty()) {
        rep.invalid(head_tmpl, path + ".headGroupSpec.template.spec.containers", "Required value: the head needs the Ray container");
        return false;
    }
    PodSet hp{.name = std::string(kHeadPodSet), .count = 1, .tmpl = *head_tmpl, .mark = head->mark()};
    hp.name_at = head;
    // raycluster/common.go ValidateTopologyRequest: the head's and each
    // worker group's annotations, slice bounds and podSet groups.
    hp.tas.path = path + ".headGroupSpec.template.metadata";
    out.tas.groups = true;
    if (ft_enabled(rep.doc(), cluster)) {
        Node& ray = containers_of(hp.tmpl).items().front();
        if (ray.is_map()) raise_for_redis_cleanup(ray, ray.mark());
    }
    if (const Node* autoscaling = present(&cluster, "enableInTreeAutoscaling"); autoscaling && autoscaling->as_bool()) {
        // Kueue only manages autoscaling Ray clusters as elastic workloads.
        if (!elastic(rep.doc())) {
            rep.invalid(autoscaling, path + ".enableInTreeAutoscaling",
                        "Invalid value: true: a kueue managed job should only use autoscaling when workload slicing is enabled "
                        "(annotation kueue.x-k8s.io/elastic-job: \"true\")");
            return false;
        }
        // KubeRay injects the autoscaler sidecar at pod build time; Kueue
        // accounts for it: autoscalerOptions.resources or requests = limits =
        // cpu 500m / memory 512Mi.
        const Node* custom = present(present(&cluster, "autoscalerOptions"), "resources");
        Node res = custom ? *custom : Node::mapping(autoscaling->mark());
        if (!custom) {
            res.set("limits", resource_list({{"cpu", "500m"}, {"memory", "512Mi"}}, autoscaling->mark()));
            res.set("requests", resource_list({{"cpu", "500m"}, {"memory", "512Mi"}}, autoscaling->mark()));
        }
        containers_of(hp.tmpl).push(container(kAutoscalerContainer, nullptr, std::move(res), autoscaling->mark()));
    }
    out.pod_sets.push_back(std::move(hp));

    const Node* groups = present(&cluster, "workerGroupSpecs");
    if (groups && !groups->is_seq()) {
        rep.invalid(groups, path + ".workerGroupSpecs", "must be a list");
        return false;
    }
    bool ok = true;
    for (std::size_t i = 0; groups && i < groups->items().size(); ++i) {
        const Node& g = groups->items()[i];
        const std::string gp = path + ".workerGroupSpecs[" + std::to_string(i) + "]";
        const Node* name = present(&g, "groupName");
        if (!g.is_map() || text(name).empty()) {
            rep.invalid(&g, gp + ".groupName", "Required value");
            ok = false;
            continue;
        }
        if (text(name) == kHeadPodSet) {
            rep.invalid(name, gp + ".groupName", "Forbidden: \"head\" is reserved for the head group");
            ok = false;
            continue;
        }
        const Node* tmpl = read_template(rep, &g, gp);
        // An absent replicas is 0 once the API server applies the CRD default;
        // Kueue's own fallback of 1 only applies to objects that skipped it.
        auto replicas = read_int(rep, &g, "replicas", gp + ".replicas", 0);
        auto hosts = read_int(rep, &g, "numOfHosts", gp + ".numOfHosts", 1);
        auto min_replicas = read_int(rep, &g, "minReplicas", gp + ".minReplicas", 0);
        std::string ps_name = pod_set_name(rep, text(name), name, gp + ".groupName");
        if (!tmpl || !replicas || !hosts || !min_replicas || ps_name.empty()) {
            ok = false;
            continue;
        }
        if (*replicas < *min_replicas)
            rep.report(Severity::Warning, "jobs.ray-replicas", present(&g, "replicas") ? present(&g, "replicas") : &g, gp + ".replicas",
                       "worker group \"" + text(name) + "\": Kueue reserves quota for replicas (" + std::to_string(*replicas) +
                           ") but KubeRay starts minReplicas (" + std::to_string(*min_replicas) + ") workers");
        PodSet ps{.name = std::move(ps_name), .count = *replicas * (*hosts > 1 ? *hosts : 1), .tmpl = *tmpl, .mark = g.mark()};
        ps.name_at = name;
        ps.tas.path = gp + ".template.metadata";
        out.pod_sets.push_back(std::move(ps));
    }
    return ok;
}

bool build_raycluster(const Reporter& rep, Built& out) {
    const Node* spec = present(&rep.doc(), "spec");
    if (!spec || !spec->is_map()) {
        rep.invalid(spec ? spec : &rep.doc(), "spec", "Required value");
        return false;
    }
    return ray_cluster_pod_sets(rep, *spec, "spec", out) && check_pod_sets(rep, out, spec, "spec.workerGroupSpecs");
}

bool build_rayjob(const Reporter& rep, Built& out) {
    const Node* spec = present(&rep.doc(), "spec");
    if (!spec || !spec->is_map()) {
        rep.invalid(spec ? spec : &rep.doc(), "spec", "Required value");
        return false;
    }
    const Node* selector = present(spec, "clusterSelector");
    const bool has_selector = selector && selector->is_map() && !selector->entries().empty();
    const Node* cluster = present(spec, "rayClusterSpec");
    if (has_selector && cluster) {
        rep.invalid(selector, "spec.clusterSelector", "Invalid value: a kueue managed job should not use an existing cluster");
        return false;
    }
    if (has_selector) {
        // The RayJob runs on a RayCluster that has its own Workload.
        rep.report(Severity::Warning, "jobs.not-managed", selector, "spec.clusterSelector",
                   "runs on an existing RayCluster (clusterSelector); Kueue does not manage the RayJob itself, so it has no Workload");
        return false;
    }
    if (!cluster || !cluster->is_map()) {
        rep.invalid(cluster ? cluster : spec, "spec.rayClusterSpec",
                    "Required value: rayClusterSpec is required for Kueue-managed jobs that don't use clusterSelector");
        return false;
    }
    if (const Node* shutdown = present(spec, "shutdownAfterJobFinishes"); !shutdown || !shutdown->as_bool()) {
        rep.invalid(shutdown ? shutdown : spec, "spec.shutdownAfterJobFinishes",
                    "Invalid value: false: a kueue managed job should delete the cluster after finishing");
        return false;
    }
    if (!ray_cluster_pod_sets(rep, *cluster, "spec.rayClusterSpec", out)) return false;

    const Node* mode_at = present(spec, "submissionMode");
    const std::string mode = mode_at ? text(mode_at) : "K8sJobMode";
    const Mark m = mode_at ? mode_at->mark() : spec->mark();
    if (mode == "K8sJobMode") {
        PodSet sub{.name = std::string(kSubmitterPodSet), .count = 1, .mark = m};
        if (const Node* custom = present(spec, "submitterPodTemplate")) {
            if (!custom->is_map()) {
                rep.invalid(custom, "spec.submitterPodTemplate", "must be a pod template (a map)");
                return false;
            }
            sub.tmpl = *custom;
        } else {
            // The submitter Job KubeRay creates: the head's image, Never restart.
            const Node& head_ray = out.pod_sets.front().tmpl.find("spec")->find("containers")->items().front();
            Node c = container(kSubmitterContainer, present(&head_ray, "image"), submitter_resources(m), m);
            Node pod_spec = Node::mapping(m);
            pod_spec.set("containers", Node::sequence(m)).push(std::move(c));
            pod_spec.set("restartPolicy", Node::string("Never", m));
            sub.tmpl = Node::mapping(m);
            sub.tmpl.set("spec", std::move(pod_spec));
        }
        sub.name_at = mode_at ? mode_at : spec;
        // The submitter's request is built (rayjob_controller.go PodSets) but
        // no webhook checks its annotations: no path.
        out.pod_sets.push_back(std::move(sub));
    } else if (mode == "SidecarMode") {
        containers_of(out.pod_sets.front().tmpl).push(container(kSubmitterContainer, nullptr, submitter_resources(m), m));
    }
    // HTTPMode and InteractiveMode submit from the operator: no extra pods.
    return check_pod_sets(rep, out, cluster, "spec.rayClusterSpec.workerGroupSpecs");
}

}  // namespace queueforge::workloads::detail
