// What every integration shares: the priority a Workload gets and the
// Workload object itself (kueue-semantics.md 1.8 and 1.10; Kueue
// pkg/controller/jobframework/reconciler.go ConstructWorkload,
// PrepareWorkloadPriority, ExtractPriority; utils.go NewWorkload;
// pkg/util/priority/priority.go).
#include "engines/workloads/jobs.hpp"

#include <queueforge/base/names.hpp>

#include <array>

namespace queueforge::workloads::detail {

namespace {

// PriorityClasses every Kubernetes cluster has (scheduling/v1 SystemPriorityClasses).
struct BuiltinClass {
    std::string_view name;
    std::int64_t value;
};
constexpr std::array<BuiltinClass, 2> kSystemClasses{{{"system-node-critical", 2000001000}, {"system-cluster-critical", 2000000000}}};

std::int64_t value_of(const Resource& c) {
    const Node* v = present(&c.doc, "value");
    return v && v->as_int() ? *v->as_int() : 0;
}

Priority pod_priority_ref(std::string name, std::int64_t value, Mark m) {
    return {value, "scheduling.k8s.io", "PriorityClass", std::move(name), m};
}

// The PriorityClass named by the pods: Kubeflow/MPI's own choice, else the
// first podSet template with spec.priorityClassName (extractPriorityFromPodSets).
std::pair<std::string, const Node*> pod_priority_class(const Built& b) {
    if (b.custom_priority) return {b.priority_class, b.priority_class_at};
    for (const auto& ps : b.pod_sets)
        if (const Node* n = present(present(&ps.tmpl, "spec"), "priorityClassName"); !text(n).empty()) return {text(n), n};
    return {"", nullptr};
}

Node str(const std::string& s, Mark m) { return Node::string(s, m); }

}  // namespace

std::optional<Priority> resolve_priority(const ClusterContext& ctx, const Reporter& rep, const std::string& wpc,
                                         const Node* at, const Built& b) {
    std::string wanted = wpc;
    Mark mark = mark_of(at, rep.job());
    // Gate WorkloadPriorityClassDefaulting (on since 0.20): the webhook labels
    // jobs that name no class with the WorkloadPriorityClass `default` if it exists.
    if (wanted.empty() && find_wpc(ctx, std::string(kDefaultName))) {
        wanted = kDefaultName;
        mark = mark_of(present(&rep.doc(), "metadata"), rep.job());
    }
    if (!wanted.empty()) {
        const Resource* c = find_wpc(ctx, wanted);
        if (!c) {
            rep.report(Severity::Warning, "jobs.priority-class-not-found", at, "metadata.labels[" + std::string(kPriorityLabel) + "]",
                       "WorkloadPriorityClass \"" + wanted + "\" not found: Kueue emits WorkloadPriorityClassNotFound and creates no Workload");
            return std::nullopt;
        }
        return Priority{value_of(*c), "kueue.x-k8s.io", "WorkloadPriorityClass", wanted, mark};
    }
    auto [pc, pc_at] = pod_priority_class(b);
    if (!pc.empty()) {
        const Mark m = mark_of(pc_at, rep.job());
        if (const Resource* c = find_priority_class(ctx, pc)) return pod_priority_ref(pc, value_of(*c), m);
        for (const auto& s : kSystemClasses)
            if (s.name == pc) return pod_priority_ref(pc, s.value, m);
        // Kueue's reconcile fails on the missing class and retries: no Workload meanwhile.
        rep.report(Severity::Warning, "jobs.priority-class-not-found", pc_at, "",
                   "PriorityClass \"" + pc + "\" not found: Kueue creates no Workload until it exists");
        return std::nullopt;
    }
    if (const Resource* c = global_default_priority_class(ctx))
        return pod_priority_ref(c->ref.name, value_of(*c), mark_of(present(&rep.doc(), "metadata"), rep.job()));
    return Priority{0, "", "", "", mark_of(present(&rep.doc(), "metadata"), rep.job())};
}

Resource make_workload(const Resource& job, const WorkloadHead& head, Built b) {
    const Node* job_meta = present(&job.doc, "metadata");
    const Mark doc_mark = job.doc.mark();
    const Mark meta_mark = mark_of(job_meta, job);
    // A Pod's Workload (component_kind): the Pod's uid is not in the manifest.
    const Node* uid = b.component_kind.empty() ? present(job_meta, "uid") : nullptr;

    Node meta = Node::mapping(meta_mark);
    meta.set("name", str(head.name, mark_of(present(job_meta, "name"), job)));
    meta.set("namespace", str(head.namespace_, mark_of(present(job_meta, "namespace"), job)));
    if (const Node* ts = present(job_meta, "creationTimestamp")) meta.set("creationTimestamp", *ts);
    else if (!head.creation_timestamp.empty()) meta.set("creationTimestamp", str(head.creation_timestamp, head.creation_mark));
    if (uid) meta.set("uid", *uid);
    // The job-uid label lets reports find a Workload's job (Kueue skips it for
    // pod groups and when the uid is not a valid label value).
    if (uid && !b.group && check_label_value(text(uid)).empty()) {
        Node labels = Node::mapping(meta_mark);
        labels.set(std::string(kJobUidLabel), str(text(uid), uid->mark()));
        meta.set("labels", std::move(labels));
    }
    Node annotations = Node::mapping(meta_mark);
    if (const Node* ja = present(job_meta, "annotations"); ja && ja->is_map())
        for (const auto& e : ja->entries())
            if (e.key.starts_with(kProvReqPrefix)) annotations.set(e.key, e.value);
    if (elastic(job.doc)) annotations.set(std::string(kElasticAnnotation), str("true", meta_mark));
    if (b.group) annotations.set(std::string(kIsGroupWorkload), str("true", meta_mark));
    for (const auto& [key, value] : b.annotations) annotations.set(key, str(value, meta_mark));
    if (head.component) annotations.set(std::string(kComponentIndex), str(std::to_string(*head.component), meta_mark));
    if (annotations.size() > 0) meta.set("annotations", std::move(annotations));
    if (uid && !b.group) {
        Node owner = Node::mapping(meta_mark);
        owner.set("apiVersion", str(job.ref.api_version, meta_mark));
        owner.set("kind", str(job.ref.kind, meta_mark));
        owner.set("name", str(job.ref.name, meta_mark));
        owner.set("uid", *uid);
        owner.set("controller", Node::boolean(true, meta_mark));
        owner.set("blockOwnerDeletion", Node::boolean(true, meta_mark));
        meta.set("ownerReferences", Node::sequence(meta_mark)).push(std::move(owner));
    }

    const Mark spec_mark = mark_of(present(&job.doc, "spec"), job);
    Node spec = Node::mapping(spec_mark);
    spec.set("queueName", str(head.queue, head.queue_mark));
    // Kueue always writes the resolved priority (0 without any class).
    spec.set("priority", Node::integer(head.priority.value, head.priority.mark));
    if (!head.priority.name.empty()) {
        Node ref = Node::mapping(head.priority.mark);
        ref.set("group", str(head.priority.group, head.priority.mark));
        ref.set("kind", str(head.priority.kind, head.priority.mark));
        ref.set("name", str(head.priority.name, head.priority.mark));
        spec.set("priorityClassRef", std::move(ref));
    }
    Node pod_sets = Node::sequence(spec_mark);
    for (auto& ps : b.pod_sets) {
        Node n = Node::mapping(ps.mark);
        const Mark name_mark = mark_of(ps.name_at, job);
        n.set("name", str(ps.name, name_mark));
        n.set("count", Node::integer(ps.count, ps.mark));
        if (ps.min_count) n.set("minCount", Node::integer(*ps.min_count, ps.mark));
        n.set("template", std::move(ps.tmpl));
        if (ps.topology_request) n.set("topologyRequest", std::move(*ps.topology_request));
        pod_sets.push(std::move(n));
    }
    spec.set("podSets", std::move(pod_sets));
    if (head.max_exec_seconds)
        spec.set("maximumExecutionTimeSeconds", Node::integer(*head.max_exec_seconds, head.max_exec_mark));

    Node doc = Node::mapping(doc_mark);
    doc.set("apiVersion", str("kueue.x-k8s.io/v1beta2", doc_mark));
    doc.set("kind", str("Workload", doc_mark));
    doc.set("metadata", std::move(meta));
    doc.set("spec", std::move(spec));

    Resource out;
    out.file = job.file;
    out.doc_index = job.doc_index;
    out.doc = std::move(doc);
    out.ref = {"kueue.x-k8s.io/v1beta2", "Workload", head.namespace_, head.name};
    return out;
}

}  // namespace queueforge::workloads::detail
