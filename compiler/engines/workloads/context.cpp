// The cluster objects job conversion looks up: LocalQueues (default queue),
// WorkloadPriorityClasses and PriorityClasses (priority values), training
// runtimes (a TrainJob's pods).
#include "engines/workloads/jobs.hpp"

#include <limits>

namespace queueforge::workloads {

namespace {

bool in_group(const Resource& r, std::string_view group) {
    const std::string& v = r.ref.api_version;
    return v.size() > group.size() && v.compare(0, group.size(), group) == 0 && v[group.size()] == '/';
}

}  // namespace

ClusterContext cluster_context(const std::vector<Resource>& all) {
    ClusterContext ctx;
    for (const auto& r : all) {
        if (in_group(r, "kueue.x-k8s.io") && r.ref.kind == "LocalQueue") ctx.local_queues.push_back(&r);
        else if (in_group(r, "kueue.x-k8s.io") && r.ref.kind == "WorkloadPriorityClass") ctx.priority_classes.push_back(&r);
        else if (in_group(r, "scheduling.k8s.io") && r.ref.kind == "PriorityClass") ctx.k8s_priority_classes.push_back(&r);
        else if (in_group(r, "trainer.kubeflow.org") && (r.ref.kind == "TrainingRuntime" || r.ref.kind == "ClusterTrainingRuntime"))
            ctx.training_runtimes.push_back(&r);
    }
    return ctx;
}

std::vector<Resource> resources_from_objects(const std::vector<Object>& objects, const std::string& file) {
    std::vector<Resource> out;
    out.reserve(objects.size());
    for (const auto& o : objects) out.push_back(resource_of(o, file));
    return out;
}

namespace detail {

const Resource* find_local_queue(const ClusterContext& ctx, const std::string& ns, const std::string& name) {
    for (const Resource* lq : ctx.local_queues)
        if (lq->ref.name == name && namespace_of(*lq) == ns) return lq;
    return nullptr;
}

const Resource* find_wpc(const ClusterContext& ctx, const std::string& name) {
    for (const Resource* c : ctx.priority_classes)
        if (c->ref.name == name) return c;
    return nullptr;
}

const Resource* find_priority_class(const ClusterContext& ctx, const std::string& name) {
    for (const Resource* c : ctx.k8s_priority_classes)
        if (c->ref.name == name) return c;
    return nullptr;
}

// Several globalDefault classes can exist after a race; Kueue takes the one
// with the lowest value (pkg/util/priority/priority.go getDefaultPriorityClass).
const Resource* global_default_priority_class(const ClusterContext& ctx) {
    const Resource* best = nullptr;
    std::int64_t best_value = std::numeric_limits<std::int64_t>::max();
    for (const Resource* c : ctx.k8s_priority_classes) {
        const Node* g = present(&c->doc, "globalDefault");
        if (!g || !g->as_bool()) continue;
        const Node* v = present(&c->doc, "value");
        const std::int64_t value = v && v->as_int() ? *v->as_int() : 0;
        if (!best || value < best_value) best = c, best_value = value;
    }
    return best;
}

const Resource* annotated_default_queue(const ClusterContext& ctx, const std::string& ns) {
    const Resource* found = nullptr;
    for (const Resource* lq : ctx.local_queues) {
        if (namespace_of(*lq) != ns || text(annotation(lq->doc, kDefaultQueueAnnotation)) != "true") continue;
        if (found) return nullptr;  // ambiguous: the CodeFlare SDK would not pick one either
        found = lq;
    }
    return found;
}

}  // namespace detail

}  // namespace queueforge::workloads
