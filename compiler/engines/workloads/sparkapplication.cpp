// sparkoperator.k8s.io/v1beta2 SparkApplication -> one Workload of podSets
// `driver` (1 pod) and `executor` (spec.executor.instances pods, default 0),
// sized as Kueue's integration sizes them: each pod is built from scratch
// (the Spark container -- spark-kubernetes-driver / spark-kubernetes-executor
// -- then the role's sidecars; the role's initContainers), not from the
// role's pod template, whose metadata alone is kept (with the role's labels
// and annotations). On the Spark container: cpu request coreRequest and
// limit coreLimit (Kubernetes quantities; `cores` is not read), memory
// request `memory` and limit `memoryLimit` (Java-style strings converted as
// the Spark operator converts them: a k/kb, m/mb, g/gb, t/tb or p/pb suffix,
// matched case-insensitively, becomes Ki, Mi, Gi, Ti or Pi -- the memory
// overhead Spark adds is not counted), a GPU limit {name: quantity} when
// both are set; priorityClassName, nodeSelector, affinity and tolerations
// from the role. A string Kueue cannot parse that way (e.g. "2G": the suffix
// is matched in lower case but cut in the case written, leaving "2GGi") is
// an error at its position with Kueue's words: Kueue cannot build the
// Workload. The webhook refuses a mode other than cluster and
// dynamicAllocation.enabled (the SparkApplication is not an elastic job).
//
// Sources: Kueue ff69552e79ad21652c36caa97038382e55625cf7,
// pkg/controller/jobs/sparkapplication/: sparkapplication_controller.go
// (PodSets, driverPodSetName, executorPodSetName),
// sparkapplication_podset.go (numInitialExecutors, build*PodTemplateSpec,
// mutateSparkPod and its options, findContainer), sparkapplication_webhook.go
// (validateCreate); the Spark operator kubeflow/spark-operator v2.5.2 (Kueue's
// go.mod pin): pkg/util/util.go (unitMap,
// ConvertJavaMemoryStringToK8sMemoryString), pkg/common/spark.go (container
// names), api/v1beta2 (executor instances).
#include "engines/workloads/jobs.hpp"

#include <queueforge/base/quantity.hpp>

namespace queueforge::workloads::detail {

namespace {

// ConvertJavaMemoryStringToK8sMemoryString. Go ranges over a map, in no
// fixed order, but no two units end one string, so the result is fixed.
std::string java_memory(const std::string& s) {
    static constexpr std::pair<std::string_view, std::string_view> kUnits[] = {
        {"kb", "Ki"}, {"mb", "Mi"}, {"gb", "Gi"}, {"tb", "Ti"}, {"pb", "Pi"}, {"k", "Ki"}, {"m", "Mi"}, {"g", "Gi"}, {"t", "Ti"}, {"p", "Pi"}};
    const std::string low = lower(s);
    for (const auto& [unit, k8s] : kUnits)
        if (low.ends_with(unit)) {
            // strings.TrimSuffix on the string as written.
            std::string head = s.ends_with(unit) ? s.substr(0, s.size() - unit.size()) : s;
            return head + std::string(k8s);
        }
    return s;
}

struct Role {
    const char* name;       // podSet name and spec key
    const char* container;  // the Spark container Kueue starts the pod with
};

bool build_role(const Reporter& rep, const Node* spec, const Role& r, std::int64_t count, Built& out) {
    const std::string base = std::string("spec.") + r.name;
    const Node* role = present(spec, r.name);
    if (role && !role->is_map()) {
        rep.invalid(role, base, std::string("must be a map, got a ") + Node::kind_name(role->kind()));
        return false;
    }
    const Mark m = role ? role->mark() : spec->mark();
    Node container = Node::mapping(m);
    container.set("name", Node::string(r.container, m));
    Node requests = Node::mapping(m), limits = Node::mapping(m);

    struct Field {
        const char* key;
        const char* resource;
        bool limit, memory;
        const char* what;
    };
    static constexpr Field kFields[] = {{"coreRequest", "cpu", false, false, "CPU requests"},
                                        {"coreLimit", "cpu", true, false, "CPU limit"},
                                        {"memory", "memory", false, true, "memory requests"},
                                        {"memoryLimit", "memory", true, true, "memory limit"}};
    for (const auto& f : kFields) {
        const Node* v = present(role, f.key);
        if (!v) continue;
        const std::string path = base + "." + f.key;
        if (!v->is_scalar()) {
            rep.invalid(v, path, std::string("must be a string, got a ") + Node::kind_name(v->kind()));
            return false;
        }
        const std::string q = f.memory ? java_memory(v->text()) : v->text().str();
        std::string why;
        if (!Quantity::parse(q, &why)) {
            rep.invalid(v, path,
                        "Invalid value: \"" + v->text() + "\": failed to parse " + f.what + " " + v->text() + ": " +
                            (f.memory && q != v->text() ? "\"" + q + "\": " : std::string()) + why +
                            (f.memory ? " (Java-style memory: a number with k/kb, m/mb, g/gb, t/tb or p/pb in lower case, or a Kubernetes quantity)"
                                      : std::string()));
            return false;
        }
        (f.limit ? limits : requests).set(f.resource, Node::string(q, v->mark()));
    }
    if (const Node* gpu = present(role, "gpu")) {
        const Node* gname = present(gpu, "name");
        const Node* gq = present(gpu, "quantity");
        if (gq && !(gq->is_scalar() && gq->as_int())) {
            rep.invalid(gq, base + ".gpu.quantity", "must be an integer, got \"" + text(gq) + "\"");
            return false;
        }
        if (!text(gname).empty() && gq && *gq->as_int() > 0) limits.set(text(gname), Node::integer(*gq->as_int(), gq->mark()));
    }
    Node res = Node::mapping(m);
    if (requests.size() > 0) res.set("requests", std::move(requests));
    if (limits.size() > 0) res.set("limits", std::move(limits));
    if (res.size() > 0) container.set("resources", std::move(res));

    Node pod_spec = Node::mapping(m);
    Node containers = Node::sequence(m);
    containers.push(std::move(container));
    if (const Node* sidecars = present(role, "sidecars"); sidecars && sidecars->is_seq())
        for (const auto& c : sidecars->items()) containers.push(c);
    if (const Node* inits = present(role, "initContainers"); inits && inits->is_seq()) pod_spec.set("initContainers", *inits);
    pod_spec.set("containers", std::move(containers));
    for (auto k : {"priorityClassName", "nodeSelector", "affinity", "tolerations"})
        if (const Node* v = present(role, k)) pod_spec.set(k, *v);

    // addObjectMeta: the role template's metadata, then the role's labels
    // and annotations.
    Node meta = Node::mapping(m);
    const Node* tmeta = present(present(role, "template"), "metadata");
    for (auto k : {"labels", "annotations"}) {
        Node kv = Node::mapping(m);
        if (const Node* t = present(tmeta, k); t && t->is_map())
            for (const auto& e : t->entries()) kv.set(e.key, e.value);
        if (const Node* own = present(role, k); own && own->is_map())
            for (const auto& e : own->entries()) kv.set(e.key, e.value);
        if (kv.size() > 0) meta.set(k, std::move(kv));
    }
    Node tmpl = Node::mapping(m);
    if (meta.size() > 0) tmpl.set("metadata", std::move(meta));
    tmpl.set("spec", std::move(pod_spec));
    PodSet ps{.name = r.name, .count = count, .tmpl = std::move(tmpl), .mark = m};
    ps.name_at = role ? role : spec;
    // sparkapplication_webhook.go validateTopologyRequest: the podSet
    // template's annotations, reported under spec.driver / spec.executor.
    ps.tas.path = "spec." + std::string(r.name);
    out.tas.mode = TasChecks::Mode::AfterPodSets;
    out.pod_sets.push_back(std::move(ps));
    return true;
}

}  // namespace

bool build_sparkapplication(const Reporter& rep, Built& out) {
    const Node* spec = present(&rep.doc(), "spec");
    if (!spec || !spec->is_map()) {
        rep.invalid(spec ? spec : &rep.doc(), "spec", "Required value: a SparkApplication needs a spec");
        return false;
    }
    const Node* mode = present(spec, "mode");
    if (text(mode) != "cluster") {
        rep.invalid(mode ? mode : spec, "spec.mode",
                    "Invalid value: \"" + text(mode) + "\": only Cluster mode is supported for a kueue managed job");
        return false;
    }
    if (const Node* enabled = present(present(spec, "dynamicAllocation"), "enabled"); enabled && enabled->as_bool()) {
        rep.invalid(enabled, "spec.dynamicAllocation.enabled",
                    "Invalid value: true: a kueue managed job can use dynamicAllocation only when the "
                    "ElasticJobsViaWorkloadSlices feature gate is on and the job is an elastic job");
        return false;
    }
    const Node* executor = present(spec, "executor");
    auto instances = read_int(rep, executor && executor->is_map() ? executor : nullptr, "instances", "spec.executor.instances", 0);
    if (!instances) return false;
    return build_role(rep, spec, {"driver", "spark-kubernetes-driver"}, 1, out) &&
           build_role(rep, spec, {"executor", "spark-kubernetes-executor"}, *instances, out) &&
           check_pod_sets(rep, out, spec, "spec");
}

}  // namespace queueforge::workloads::detail
