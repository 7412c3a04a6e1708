// JobSet -> one podSet per replicatedJob (kueue-semantics.md 4.1; Kueue
// pkg/controller/jobs/jobset/jobset_controller.go PodSets, PodsCountPerReplica).
#include "engines/workloads/jobs.hpp"

namespace queueforge::workloads::detail {

bool build_jobset(const Reporter& rep, Built& out) {
    const Node* spec = present(&rep.doc(), "spec");
    const Node* rjs = present(spec, "replicatedJobs");
    if (!rjs || !rjs->is_seq() || rjs->items().empty()) {
        rep.invalid(rjs ? rjs : spec ? spec : &rep.doc(), "spec.replicatedJobs", "Required value: a JobSet needs at least one replicatedJob");
        return false;
    }
    // jobset_webhook.go validateTopologyRequest: the podSets first, then the
    // annotations, slice bounds and podSet groups.
    out.tas.mode = TasChecks::Mode::AfterPodSets;
    out.tas.groups = true;
    bool ok = true;
    for (std::size_t i = 0; i < rjs->items().size(); ++i) {
        const Node& rj = rjs->items()[i];
        const std::string path = "spec.replicatedJobs[" + std::to_string(i) + "]";
        if (!rj.is_map()) {
            rep.invalid(&rj, path, "must be a map");
            ok = false;
            continue;
        }
        const Node* name = present(&rj, "name");
        if (!name || text(name).empty()) {
            rep.invalid(&rj, path + ".name", "Required value");
            ok = false;
            continue;
        }
        const Node* job_spec = present(present(&rj, "template"), "spec");
        if (!job_spec || !job_spec->is_map()) {
            rep.invalid(&rj, path + ".template.spec", "Required value: the replicatedJob needs a Job template");
            ok = false;
            continue;
        }
        const Node* tmpl = read_template(rep, job_spec, path + ".template.spec");
        auto replicas = read_int(rep, &rj, "replicas", path + ".replicas", 1);  // CRD default 1
        auto parallelism = read_int(rep, job_spec, "parallelism", path + ".template.spec.parallelism", 1);
        auto completions = read_int(rep, job_spec, "completions", path + ".template.spec.completions", -1);
        std::string ps_name = pod_set_name(rep, text(name), name, path + ".name");
        if (!tmpl || !replicas || !parallelism || !completions || ps_name.empty()) {
            ok = false;
            continue;
        }
        // Pods per child Job: parallelism, capped by completions (which
        // defaults to parallelism); times the number of child Jobs.
        std::int64_t per_replica = *parallelism;
        if (*completions >= 0 && *completions < per_replica) per_replica = *completions;
        PodSet ps{.name = std::move(ps_name), .count = *replicas * per_replica, .tmpl = *tmpl, .mark = rj.mark()};
        ps.name_at = name;
        ps.tas.path = path + ".template.spec.template.metadata";
        ps.tas.pod_index_label = std::string(kJobCompletionIndexLabel);
        ps.tas.sub_group_index_label = std::string(kJobSetJobIndexLabel);
        ps.tas.sub_group_count = *replicas;
        out.pod_sets.push_back(std::move(ps));
    }
    return ok && check_pod_sets(rep, out, rjs, "spec.replicatedJobs");
}

}  // namespace queueforge::workloads::detail
