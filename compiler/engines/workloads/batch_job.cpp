// batch/v1 Job -> one podSet `main` (kueue-semantics.md 4.1; Kueue
// pkg/controller/jobs/job/job_controller.go PodSets, podsCount, minPodsCount,
// and job_webhook.go validatePartialAdmissionCreate); topology request with
// the completion index as podIndexLabel (job_webhook.go validateTopologyRequest).
#include "engines/workloads/jobs.hpp"

namespace queueforge::workloads::detail {

namespace {

// Labels the Job controller puts on its pods; Kueue drops them from the
// podSet template except batch.kubernetes.io/job-name (cleanLabels).
constexpr std::string_view kManagedLabels[] = {"job-name", "controller-uid", "batch.kubernetes.io/controller-uid"};

Node clean_template(const Node& tmpl) {
    Node t = tmpl;
    if (Node* meta = t.find("metadata"); meta && meta->is_map())
        if (Node* labels = meta->find("labels"); labels && labels->is_map())
            for (auto key : kManagedLabels) labels->erase(key);
    return t;
}

}  // namespace

bool build_batch_job(const Reporter& rep, Built& out) {
    const Node* spec = present(&rep.doc(), "spec");
    if (!spec || !spec->is_map()) {
        rep.invalid(spec ? spec : &rep.doc(), "spec", "Required value: a Job needs a spec with a pod template");
        return false;
    }
    const Node* tmpl = read_template(rep, spec, "spec");
    auto parallelism = read_int(rep, spec, "parallelism", "spec.parallelism", 1);  // Kubernetes defaults it to 1
    auto completions = read_int(rep, spec, "completions", "spec.completions", -1);
    if (!tmpl || !parallelism || !completions) return false;

    // Pods running at once: parallelism, capped by completions when set.
    std::int64_t count = *parallelism;
    if (*completions >= 0 && *completions < count) count = *completions;

    PodSet ps{.name = "main", .count = count, .tmpl = clean_template(*tmpl), .mark = tmpl->mark()};
    ps.name_at = tmpl;
    ps.tas.path = "spec.template.metadata";
    ps.tas.pod_index_label = std::string(kJobCompletionIndexLabel);
    out.tas.job_webhook = true;

    if (const Node* min = annotation(rep.doc(), kMinParallelismAnnotation)) {
        const std::string path = "metadata.annotations[" + std::string(kMinParallelismAnnotation) + "]";
        auto v = parse_int(text(min));
        if (!v) {
            rep.invalid(min, path, "Invalid value: \"" + text(min) + "\": not an integer");
            return false;
        }
        // The webhook accepts 1 .. count-1 only: minCount == count would make
        // partial admission pointless.
        if (*v <= 0 || *v >= count) {
            rep.invalid(min, path, "Invalid value: " + std::to_string(*v) + ": should be between 0 and " + std::to_string(count - 1));
            return false;
        }
        if (elastic(rep.doc())) {
            rep.invalid(min, path, "Invalid value: \"" + text(min) + "\": partial admission and elastic job cannot be used together");
            return false;
        }
        ps.min_count = *v;
    }
    out.pod_sets.push_back(std::move(ps));
    return true;
}

}  // namespace queueforge::workloads::detail
