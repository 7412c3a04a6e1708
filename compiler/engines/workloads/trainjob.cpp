// trainer.kubeflow.org/v1alpha1 TrainJob -> one Workload whose podSets are
// those of the JobSet the Trainer would build from the TrainJob and its
// runtime: one podSet per replicatedJob of the runtime's
// spec.template.spec, named after it, of replicas x count pods, the template
// the replicatedJob's pod template. The runtime is the
// ClusterTrainingRuntime (spec.runtimeRef.kind default) or the TrainingRuntime
// in the TrainJob's namespace named by spec.runtimeRef.name, given in the same
// input set; one that is not there is an error naming it.
//
// Count of a replicatedJob (the Trainer's newRuntimeInfo and EnforceMLPolicy
// plugins; Kueue then sets parallelism = completions = count): its
// parallelism (default 1); for the trainer step (template label
// trainer.kubeflow.org/trainjob-ancestor-step: trainer) of a runtime with an
// mlPolicy, mlPolicy.numNodes (default 1). spec.trainer.numNodes overrides
// it: for an MPI policy on the replicatedJob `node` (numNodes - 1, at least
// 1, when runLauncherAsNode), otherwise on the trainer step. The trainer
// step's replicas are forced to 1 (the JobSet builder's Trainer).
// spec.trainer.resourcesPerNode is merged key by key into the requests and
// limits of the container `node` of the trainer step (only when the runtime
// has an mlPolicy) and, for MPI with runLauncherAsNode, of the replicatedJob
// `node`. spec.runtimePatches: of the pod spec fields a patch may set, those
// that change placement are applied as the Trainer's strategic merge does
// (nodeSelector merged key by key, affinity merged as a map with lists
// replaced, tolerations replaced); the others (env, volumes, service
// account, ...) change no request.
//
// Sources: Kueue ff69552e79ad21652c36caa97038382e55625cf7,
// pkg/controller/jobs/trainjob/trainjob_controller.go (getChildJobSet,
// getRuntimeSpec, PodSets: the JobSet's podSets) and
// pkg/controller/jobs/jobset (PodSets, PodsCountPerReplica); Kubeflow Trainer
// v2.3.0 (the version Kueue's go.mod pins), pkg/runtime/core/trainingruntime.go
// (newRuntimeInfo, mergeRuntimePatches), pkg/runtime/framework/plugins/
// {torch,mpi,plainml,jax,xgboost}/*.go (EnforceMLPolicy),
// pkg/runtime/framework/plugins/jobset/builder.go (Trainer),
// pkg/util/trainingruntime MergeResourceRequirements,
// pkg/apis/trainer/v1alpha1 (RuntimeRef defaults). Not converted (a
// warning): a runtime with the Flux policy, whose plugin rewrites the
// trainer pods.
#include "engines/workloads/jobs.hpp"

#include <memory>

namespace queueforge::workloads::detail {

namespace {

constexpr std::string_view kGroup = "trainer.kubeflow.org";
constexpr std::string_view kClusterRuntime = "ClusterTrainingRuntime";
constexpr std::string_view kRuntime = "TrainingRuntime";
constexpr std::string_view kAncestorLabel = "trainer.kubeflow.org/trainjob-ancestor-step";
constexpr std::string_view kAncestorTrainer = "trainer";
constexpr std::string_view kNode = "node";  // the trainer container, and MPI's node replicatedJob

// Strategic merge of a map without list merge keys: keys of `patch` replace
// or (maps) merge into `base`; a null deletes.
void merge_map(Node& base, const Node& patch) {
    for (const auto& e : patch.entries()) {
        Node* have = base.find(e.key);
        if (e.value.is_null()) base.erase(e.key);
        else if (e.value.is_map() && have && have->is_map()) merge_map(*have, e.value);
        else base.set(e.key, e.value);
    }
}

const Resource* find_runtime(const ClusterContext& ctx, std::string_view kind, const std::string& ns, const std::string& name) {
    for (const Resource* r : ctx.training_runtimes)
        if (r->ref.kind == kind && r->ref.name == name && (kind == kClusterRuntime || namespace_of(*r) == ns)) return r;
    return nullptr;
}

struct Step {
    const Node* rj = nullptr;
    std::string name;
    std::string ancestor;
    std::int64_t replicas = 1;
    std::int64_t count = 1;
    Node tmpl;  // the pod template, patched
};

}  // namespace

bool build_trainjob(const Reporter& rep, Built& out) {
    const Node* spec = present(&rep.doc(), "spec");
    if (!spec || !spec->is_map()) {
        rep.invalid(spec ? spec : &rep.doc(), "spec", "Required value: a TrainJob needs a spec with a runtimeRef");
        return false;
    }
    const Node* ref = present(spec, "runtimeRef");
    const Node* ref_name = present(ref, "name");
    if (!ref || !ref->is_map() || text(ref_name).empty()) {
        rep.invalid(ref_name ? ref_name : ref ? ref : spec, "spec.runtimeRef.name", "Required value: the TrainJob names no runtime");
        return false;
    }
    const std::string name = text(ref_name);
    const Node* kind_at = present(ref, "kind");
    const Node* group_at = present(ref, "apiGroup");
    const std::string kind = kind_at ? text(kind_at) : std::string(kClusterRuntime);
    const std::string group = group_at ? text(group_at) : std::string(kGroup);
    if (group != kGroup || (kind != kClusterRuntime && kind != kRuntime)) {
        // getChildJobSet: the runtime registry knows these two only.
        rep.invalid(group != kGroup ? group_at : kind_at, group != kGroup ? "spec.runtimeRef.apiGroup" : "spec.runtimeRef.kind",
                    "Unsupported value: unsupported runtime: " + kind + "." + group + " (supported: " + std::string(kClusterRuntime) +
                        "." + std::string(kGroup) + ", " + std::string(kRuntime) + "." + std::string(kGroup) + ")");
        return false;
    }
    const std::string ns = namespace_of(rep.job());
    const Resource* runtime = out.cluster ? find_runtime(*out.cluster, kind, ns, name) : nullptr;
    if (!runtime) {
        rep.invalid(ref_name, "spec.runtimeRef.name",
                    "Not found: runtime '" + name + "' not found: no " + kind + " \"" + name + "\"" +
                        (kind == kRuntime ? " in namespace \"" + ns + "\"" : std::string()) +
                        " among the inputs; give it beside the TrainJob");
        return false;
    }

    // The TrainJob's own fields.
    const Node* trainer = present(spec, "trainer");
    if (trainer && !trainer->is_map()) {
        rep.invalid(trainer, "spec.trainer", std::string("must be a map, got a ") + Node::kind_name(trainer->kind()));
        return false;
    }
    std::optional<std::int64_t> num_nodes;
    if (present(trainer, "numNodes")) {
        num_nodes = read_int(rep, trainer, "numNodes", "spec.trainer.numNodes", 1, 0);
        if (!num_nodes) return false;
    }
    const Node* per_node = present(trainer, "resourcesPerNode");
    if (per_node && !per_node->is_map()) {
        rep.invalid(per_node, "spec.trainer.resourcesPerNode", std::string("must be a map, got a ") + Node::kind_name(per_node->kind()));
        return false;
    }
    for (auto k : {"requests", "limits"})
        if (const Node* m = present(per_node, k); m && !m->is_map()) {
            rep.invalid(m, "spec.trainer.resourcesPerNode." + std::string(k), std::string("must be a map, got a ") + Node::kind_name(m->kind()));
            return false;
        }

    // The runtime.
    const Reporter rt = rep.about(*runtime);
    const Node* rt_spec = present(&runtime->doc, "spec");
    const Node* policy = present(rt_spec, "mlPolicy");
    if (policy && !policy->is_map()) {
        rt.invalid(policy, "spec.mlPolicy", std::string("must be a map, got a ") + Node::kind_name(policy->kind()));
        return false;
    }
    if (const Node* flux = present(policy, "flux")) {
        rep.report(Severity::Warning, "jobs.unsupported", ref_name, "spec.runtimeRef.name",
                   "runtime \"" + name + "\" has the Flux policy, whose plugin rewrites the trainer pods; not converted");
        (void)flux;
        return false;
    }
    const Node* mpi = present(policy, "mpi");
    const bool launcher_as_node = text(present(mpi, "runLauncherAsNode")) == "true";
    std::optional<std::int64_t> policy_nodes;
    if (policy) {
        policy_nodes = read_int(rt, policy, "numNodes", "spec.mlPolicy.numNodes", 1, 0);
        if (!policy_nodes) return false;
    }
    const Node* rjs = present(present(present(rt_spec, "template"), "spec"), "replicatedJobs");
    if (!rjs || !rjs->is_seq() || rjs->items().empty()) {
        rt.invalid(rjs ? rjs : rt_spec ? rt_spec : &runtime->doc, "spec.template.spec.replicatedJobs",
                   "Required value: the runtime needs at least one replicatedJob");
        return false;
    }
    FileRef other_file;
    if (runtime->file != rep.job().file) other_file = FileRef(runtime->file);

    std::vector<Step> steps;
    for (std::size_t i = 0; i < rjs->items().size(); ++i) {
        const Node& rj = rjs->items()[i];
        const std::string path = "spec.template.spec.replicatedJobs[" + std::to_string(i) + "]";
        const Node* rj_name = present(&rj, "name");
        if (!rj.is_map() || text(rj_name).empty()) {
            rt.invalid(rj_name ? rj_name : &rj, path + ".name", "Required value: a replicatedJob needs a name");
            return false;
        }
        const Node* job_tmpl = present(&rj, "template");
        const Node* job_spec = present(job_tmpl, "spec");
        if (!job_spec || !job_spec->is_map()) {
            rt.invalid(&rj, path + ".template.spec", "Required value: the replicatedJob needs a Job template");
            return false;
        }
        const Node* tmpl = read_template(rt, job_spec, path + ".template.spec");
        auto replicas = read_int(rt, &rj, "replicas", path + ".replicas", 1);
        auto parallelism = read_int(rt, job_spec, "parallelism", path + ".template.spec.parallelism", 1);
        if (!tmpl || !replicas || !parallelism) return false;
        Step s{.rj = &rj, .name = text(rj_name), .replicas = *replicas, .count = *parallelism, .tmpl = *tmpl};
        s.ancestor = text(present(present(present(job_tmpl, "metadata"), "labels"), kAncestorLabel));
        if (s.ancestor == kAncestorTrainer && policy) s.count = *policy_nodes;
        if (other_file) stamp_file(s.tmpl, other_file);
        steps.push_back(std::move(s));
    }

    // runtimePatches (mergeRuntimePatches): the placement fields of each
    // replicatedJob's pod spec.
    if (const Node* patches = present(spec, "runtimePatches"); patches && patches->is_seq()) {
        for (std::size_t p = 0; p < patches->items().size(); ++p) {
            const std::string ppath = "spec.runtimePatches[" + std::to_string(p) + "]";
            const Node* prjs = present(present(present(present(&patches->items()[p], "trainingRuntimeSpec"), "template"), "spec"),
                                       "replicatedJobs");
            if (!prjs || !prjs->is_seq()) continue;
            for (std::size_t j = 0; j < prjs->items().size(); ++j) {
                const Node& prj = prjs->items()[j];
                const std::string jpath = ppath + ".trainingRuntimeSpec.template.spec.replicatedJobs[" + std::to_string(j) + "]";
                const Node* pname = present(&prj, "name");
                Step* target = nullptr;
                for (auto& s : steps)
                    if (s.name == text(pname)) target = &s;
                if (!target) {
                    rep.invalid(pname ? pname : &prj, jpath + ".name",
                                "Invalid value: \"" + text(pname) + "\": runtime \"" + name + "\" has no replicatedJob of that name");
                    return false;
                }
                const Node* pspec = present(present(present(present(&prj, "template"), "spec"), "template"), "spec");
                if (!pspec || !pspec->is_map()) continue;
                Node* tspec = target->tmpl.find("spec");
                if (!tspec || !tspec->is_map()) tspec = &target->tmpl.set("spec", Node::mapping(target->tmpl.mark()));
                for (auto key : {"nodeSelector", "affinity", "tolerations"}) {
                    const Node* v = pspec->find(key);
                    if (!v) continue;
                    Node* have = tspec->find(key);
                    if (v->is_null()) tspec->erase(key);
                    else if (v->is_map() && have && have->is_map()) merge_map(*have, *v);
                    else tspec->set(key, *v);
                }
            }
        }
    }

    // spec.trainer: numNodes (EnforceMLPolicy), resourcesPerNode
    // (newRuntimeInfo), the trainer step's replicas (the JobSet builder).
    for (auto& s : steps) {
        const bool trainer_step = s.ancestor == kAncestorTrainer;
        const bool mpi_node = mpi && launcher_as_node && s.name == kNode;
        if (num_nodes) {
            if (mpi) {
                if (s.name == kNode) s.count = launcher_as_node ? std::max<std::int64_t>(*num_nodes - 1, 1) : *num_nodes;
            } else if (trainer_step) {
                s.count = *num_nodes;
            }
        }
        if (per_node && ((trainer_step && policy) || mpi_node)) {
            Node* cs = s.tmpl.find("spec") ? s.tmpl.find("spec")->find("containers") : nullptr;
            if (cs && cs->is_seq())
                for (auto& c : cs->items()) {
                    if (!c.is_map() || text(c.find("name")) != kNode) continue;
                    Node* res = c.find("resources");
                    if (!res || !res->is_map()) res = &c.set("resources", Node::mapping(per_node->mark()));
                    for (auto k : {"requests", "limits"}) {
                        const Node* over = present(per_node, k);
                        if (!over) continue;
                        Node* have = res->find(k);
                        if (!have || !have->is_map()) have = &res->set(k, Node::mapping(over->mark()));
                        for (const auto& e : over->entries()) have->set(e.key, e.value);
                    }
                    break;
                }
        }
        if (trainer_step) s.replicas = 1;
    }

    for (auto& s : steps) {
        const std::string ps_name = pod_set_name(rt, s.name, present(s.rj, "name"), "spec.template.spec.replicatedJobs.name");
        if (ps_name.empty()) return false;
        PodSet ps{.name = ps_name, .count = s.replicas * s.count, .tmpl = std::move(s.tmpl), .mark = ref_name->mark()};
        ps.name_at = ref_name;
        // The JobSet's podSets (jobset_controller.go PodSets): the JobSet
        // index labels; trainjob_webhook.go validateTopologyRequest names
        // each podSet "job[<name>]".
        ps.tas.path = "job[" + ps_name + "]";
        ps.tas.pod_index_label = std::string(kJobCompletionIndexLabel);
        ps.tas.sub_group_index_label = std::string(kJobSetJobIndexLabel);
        ps.tas.sub_group_count = s.replicas;
        out.pod_sets.push_back(std::move(ps));
    }
    out.tas.mode = TasChecks::Mode::AfterPodSets;
    out.tas.detail_suffix =
        ". Adjust either the \"TrainJob.spec.runtimePatches\" or the \"TrainingRuntime.Template\" annotations for the corresponding Job";
    return check_pod_sets(rep, out, ref_name, "spec.runtimeRef");
}

}  // namespace queueforge::workloads::detail
