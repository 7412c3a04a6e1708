// Kubeflow training jobs (kubeflow.org/v1 PyTorchJob, TFJob, XGBoostJob,
// PaddleJob, JAXJob) and MPIJob (kubeflow.org/v2beta1) -> one podSet per
// replica type present, in the integration's fixed order, named by the
// lowercased type, count = replicas (default 1). Sources: Kueue
// pkg/controller/jobs/kubeflow/kubeflowjob/kubeflowjob_controller.go (PodSets,
// PriorityClass, OrderedReplicaTypes), jobs/kubeflow/jobs/*/ (per-kind order),
// jobs/mpijob/mpijob_controller.go; training-operator v1.9.0
// pkg/apis/kubeflow.org/v1/defaulting_utils.go (replica type keys are matched
// case-insensitively) and pkg/webhooks/* (allowed types, single masters);
// mpi-operator v2beta1 validation (Launcher required, one replica).
#include "engines/workloads/jobs.hpp"

#include <queueforge/base/text.hpp>

#include <array>
#include <map>

namespace queueforge::workloads::detail {

namespace {

struct KindSpec {
    std::string_view kind;
    std::string_view field;                  // spec.<field>: map replica type -> ReplicaSpec
    std::vector<std::string_view> ordered;   // Kueue's podSet order (OrderedReplicaTypes)
    std::string_view required;               // type that must be present ("" = none)
    std::string_view single;                 // type whose replicas must be 1 ("" = none)
    bool case_insensitive;                   // training-operator camel-cases the keys; mpi-operator does not
};

const KindSpec* spec_for(std::string_view kind) {
    // TFJob's order resolves the UNSURE in kueue-semantics.md 4.1: Chief,
    // Master, PS, Worker, Evaluator (tfjob_controller.go OrderedReplicaTypes).
    static const std::array<KindSpec, 6> kSpecs{{
        {"PyTorchJob", "pytorchReplicaSpecs", {"Master", "Worker"}, "", "Master", true},
        {"TFJob", "tfReplicaSpecs", {"Chief", "Master", "PS", "Worker", "Evaluator"}, "", "", true},
        {"XGBoostJob", "xgbReplicaSpecs", {"Master", "Worker"}, "Master", "Master", true},
        {"PaddleJob", "paddleReplicaSpecs", {"Master", "Worker"}, "", "", true},
        {"JAXJob", "jaxReplicaSpecs", {"Worker"}, "", "", true},
        {"MPIJob", "mpiReplicaSpecs", {"Launcher", "Worker"}, "Launcher", "Launcher", false},
    }};
    for (const auto& s : kSpecs)
        if (s.kind == kind) return &s;
    return nullptr;
}

// "A", "B": the API server's list of supported values.
std::string supported_values(const std::vector<std::string_view>& v) {
    std::vector<std::string> quoted;
    for (auto x : v) quoted.push_back(go_quote(x));
    return join(quoted, ", ");
}

// Maps each entry of the replica spec map to its canonical type; reports
// unknown and duplicate types.
bool canonical_types(const Reporter& rep, const KindSpec& k, const Node& specs, const std::string& path,
                     std::map<std::string_view, const Node::Entry*>& out) {
    bool ok = true;
    for (const auto& e : specs.entries()) {
        const std::string_view* type = nullptr;
        for (const auto& t : k.ordered)
            if (k.case_insensitive ? lower(e.key) == lower(t) : e.key == t) type = &t;
        Node key_at = Node::string(e.key, e.key_mark());
        if (!type) {
            rep.invalid(&key_at, path + "[" + e.key + "]", "Unsupported value: \"" + e.key + "\": supported values: " + supported_values(k.ordered));
            ok = false;
        } else if (!out.emplace(*type, &e).second) {
            rep.invalid(&key_at, path + "[" + e.key + "]", "Duplicate value: replica type " + std::string(*type) + " is given twice");
            ok = false;
        }
    }
    return ok;
}

}  // namespace

bool build_kubeflow(const Reporter& rep, Built& out) {
    const KindSpec* k = spec_for(rep.job().ref.kind);
    if (!k) return false;
    const Node* spec = present(&rep.doc(), "spec");
    const std::string base = "spec." + std::string(k->field);
    const Node* specs = present(spec, k->field);
    if (!specs || !specs->is_map() || specs->entries().empty()) {
        rep.invalid(specs ? specs : spec ? spec : &rep.doc(), base, "Required value: the job has no replica specs");
        return false;
    }
    std::map<std::string_view, const Node::Entry*> by_type;
    if (!canonical_types(rep, *k, *specs, base, by_type)) return false;
    if (!k->required.empty() && !by_type.count(k->required)) {
        rep.invalid(specs, base + "[" + std::string(k->required) + "]", "Required value: must have a " + std::string(k->required) + " replica spec");
        return false;
    }

    bool ok = true;
    for (const auto& type : k->ordered) {
        auto it = by_type.find(type);
        if (it == by_type.end()) continue;
        const Node::Entry& e = *it->second;
        const std::string path = base + "[" + e.key + "]";
        if (!e.value.is_map()) {
            rep.invalid(&e.value, path, "must be a replica spec (a map)");
            ok = false;
            continue;
        }
        const Node* tmpl = read_template(rep, &e.value, path);
        auto replicas = read_int(rep, &e.value, "replicas", path + ".replicas", 1);  // operators default it to 1
        if (!tmpl || !replicas) {
            ok = false;
            continue;
        }
        if (type == k->single && *replicas != 1) {
            rep.invalid(present(&e.value, "replicas"), path + ".replicas", "Forbidden: must be 1");
            ok = false;
            continue;
        }
        PodSet ps{.name = lower(type), .count = *replicas, .tmpl = *tmpl, .mark = e.value.mark()};
        ps.name_at = &e.value;
        // Kueue's paths name the canonical replica type.
        ps.tas.path = base + "[" + std::string(type) + "].template.metadata";
        ps.tas.pod_index_label = std::string(kKubeflowReplicaIndexLabel);
        out.pod_sets.push_back(std::move(ps));
        // Priority: runPolicy.schedulingPolicy.priorityClass, else the first
        // template (in podSet order) naming a priorityClassName.
        if (out.priority_class.empty())
            if (const Node* pcn = present(present(tmpl, "spec"), "priorityClassName"); !text(pcn).empty())
                out.priority_class = text(pcn), out.priority_class_at = pcn;
    }
    out.custom_priority = true;
    if (const Node* pc = present(present(present(spec, "runPolicy"), "schedulingPolicy"), "priorityClass"); !text(pc).empty())
        out.priority_class = text(pc), out.priority_class_at = pc;
    return ok && check_pod_sets(rep, out, specs, base);
}

// mpijob_webhook.go validateTopologyRequest: the podSets first, then the
// annotations, slice bounds and podSet groups (kubeflowjob_controller.go
// ValidateOnCreate checks no groups).
bool build_mpijob(const Reporter& rep, Built& out) {
    out.tas.mode = TasChecks::Mode::AfterPodSets;
    out.tas.groups = true;
    return build_kubeflow(rep, out);
}

}  // namespace queueforge::workloads::detail
