// leaderworkerset.x-k8s.io/v1 LeaderWorkerSet -> one Workload per group
// (spec.replicas, default 1; none at 0), each holding one group's pods
// (spec.leaderWorkerTemplate.size, default 1): with a leaderTemplate the
// podSets `leader` (1 pod, leaderTemplate) and `worker` (size - 1 pods,
// workerTemplate; kept at count 0 when size is 1), without one the podSet
// `main` (size pods, workerTemplate). Group i's Workload is named after
// "<name>-<i>" and annotated with its index, the LWS as job owner and
// is-group-workload; surge groups of a rolling update under way count too.
//
// Sources: Kueue ff69552e79ad21652c36caa97038382e55625cf7,
// pkg/controller/jobs/leaderworkerset/: leaderworkerset_reconciler.go
// (filterWorkloads, constructWorkload, podSets, newPodSet,
// dropLWSPrefixedKeys), leaderworkerset_controller.go (the replicas and size
// defaults, validateLeaderWorkerSetReplicaCount), leaderworkerset_webhook.go
// (validateCreate, validateReplicasField, GetWorkloadName), and
// pkg/controller/jobs/pod/pod_controller.go NewGroupWorkload. The LWS API and
// its own webhook, kubernetes-sigs/lws 060ab4da17eea1f0865fcbd3236bb1075e2cea32:
// api/leaderworkerset/v1/leaderworkerset_types.go (replicas 0..1000000,
// workerTemplate required) and pkg/webhooks/leaderworkerset_webhook.go
// generalValidate (name a DNS-1035 label, size >= 1, replicas * size within
// int32).
//
// Not reproduced: the labels and annotations Kueue's LWS webhook adds to the
// templates (queue name, priority class, suspended-by-parent, group-serving)
// and the de-duplication of container env vars (SanitizePodSet): neither
// changes what a Workload requests.
#include "engines/workloads/jobs.hpp"

#include <queueforge/base/names.hpp>

namespace queueforge::workloads::detail {

namespace {

constexpr std::int64_t kMaxLeaderWorkerSetReplicas = 1000000;  // maxLeaderWorkerSetReplicas
// queueforge's own bound: each group is a Workload of its own (about 16 KB
// once simulated), so one manifest line must not become a million of them.
constexpr std::int64_t kMaxGroups = 10000;
constexpr std::string_view kLwsPrefix = "leaderworkerset.sigs.k8s.io";
constexpr std::string_view kLwsNameLabel = "leaderworkerset.sigs.k8s.io/name";

// dropLWSPrefixedKeys, on the template's labels and annotations alike.
Node drop_lws_keys(const Node& tmpl) {
    Node t = tmpl;
    Node* meta = t.find("metadata");
    if (!meta || !meta->is_map()) return t;
    for (auto map : {"labels", "annotations"}) {
        Node* m = meta->find(map);
        if (!m || !m->is_map()) continue;
        std::vector<std::string> drop;
        for (const auto& e : m->entries())
            if (e.key.starts_with(kLwsPrefix) && e.key != kLwsNameLabel) drop.push_back(e.key);
        for (const auto& k : drop) m->erase(k);
    }
    return t;
}

// filterWorkloads and isRollingUpdateWithSurge: while a rolling update with
// maxSurge > 0 is under way (status.updatedReplicas below spec.replicas),
// the surge groups up to status.replicas keep Workloads of their own.
// maxSurge is read as intstr's IntValue does (a percentage is 0). A status
// count past the replicas bound is ignored.
std::int64_t groups(const Node& doc, const Node& spec, std::int64_t replicas) {
    const Node* status = present(&doc, "status");
    const Node* current = present(status, "replicas");
    const std::int64_t have = current && current->as_int() ? *current->as_int() : 0;
    if (have <= replicas || have > kMaxLeaderWorkerSetReplicas) return replicas;
    const Node* surge = present(present(present(&spec, "rolloutStrategy"), "rollingUpdateConfiguration"), "maxSurge");
    const std::int64_t max_surge = surge ? parse_int(text(surge)).value_or(0) : 0;
    const Node* updated = present(status, "updatedReplicas");
    const std::int64_t updated_n = updated && updated->as_int() ? *updated->as_int() : 0;
    return max_surge > 0 && updated_n < replicas ? have : replicas;
}

// The LWS operator's webhook (generalValidate): the name names a headless
// Service, so it must be a DNS-1035 label (apivalidation.NameIsDNS1035Label).
// Besides, it keeps the per-group Workload names apart: without Kueue's hash
// suffix, names cut at 253 characters would collide.
std::string check_dns1035_label(std::string_view s) {
    if (auto why = check_dns1123_label(s); !why.empty() && s.size() > 63) return why;
    const bool ok = !s.empty() && s.front() >= 'a' && s.front() <= 'z' && check_dns1123_label(s).empty();
    return ok ? std::string()
              : "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic "
                "character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for "
                "validation is '[a-z]([-a-z0-9]*[a-z0-9])?')";
}

// newPodSet; the topology request is built from the template as given (the
// LWS keys dropped from the podSet template are not Kueue's annotations).
PodSet pod_set(std::string name, std::int64_t count, const Node& tmpl, std::string meta_path, bool worker) {
    PodSet ps{.name = std::move(name), .count = count, .tmpl = drop_lws_keys(tmpl), .mark = tmpl.mark()};
    ps.name_at = &tmpl;
    ps.tas.path = std::move(meta_path);
    if (worker) ps.tas.pod_index_label = std::string(kLwsWorkerIndexLabel);
    return ps;
}

}  // namespace

bool build_leaderworkerset(const Reporter& rep, Built& out) {
    const Node* spec = present(&rep.doc(), "spec");
    if (!spec || !spec->is_map()) {
        rep.invalid(spec ? spec : &rep.doc(), "spec", "Required value: a LeaderWorkerSet needs a spec with a leaderWorkerTemplate");
        return false;
    }
    const Node* lwt = present(spec, "leaderWorkerTemplate");
    if (!lwt || !lwt->is_map()) {
        rep.invalid(lwt ? lwt : spec, "spec.leaderWorkerTemplate",
                    lwt ? std::string("must be a map, got a ") + Node::kind_name(lwt->kind())
                        : std::string("Required value: the group's pod templates are missing"));
        return false;
    }
    if (const std::string& name = rep.job().ref.name; !name.empty())
        if (auto why = check_dns1035_label(name); !why.empty()) {
            rep.invalid(present(present(&rep.doc(), "metadata"), "name"), "metadata.name", "Invalid value: \"" + name + "\": " + why);
            return false;
        }
    const std::string base = "spec.leaderWorkerTemplate";
    // Type errors only: the ranges are checked below with the webhooks' words.
    auto replicas = read_int(rep, spec, "replicas", "spec.replicas", 1, kInt32Min);
    auto size = read_int(rep, lwt, "size", base + ".size", 1, kInt32Min);
    const Node* leader = present(lwt, "leaderTemplate") ? read_template(rep, lwt, base, "leaderTemplate") : nullptr;
    const bool leader_ok = !present(lwt, "leaderTemplate") || leader;
    const Node* worker = read_template(rep, lwt, base, "workerTemplate");
    if (!replicas || !size || !leader_ok || !worker) return false;

    bool ok = true;
    if (*replicas < 0 || *replicas > kMaxLeaderWorkerSetReplicas) {
        const std::string bound = *replicas < 0 ? "must be >= 0" : "must be <= " + std::to_string(kMaxLeaderWorkerSetReplicas);
        rep.invalid(present(spec, "replicas"), "spec.replicas",
                    "Invalid value: " + std::to_string(*replicas) + ": invalid LeaderWorkerSet replicas: " + bound + ", got " +
                        std::to_string(*replicas));
        ok = false;
    }
    if (*size < 1) {
        rep.invalid(present(lwt, "size"), base + ".size", "Invalid value: " + std::to_string(*size) + ": size must be equal or greater than 1");
        ok = false;
    }
    if (ok && *replicas * *size > kInt32Max) {
        rep.invalid(present(spec, "replicas"), "spec.replicas",
                    "Invalid value: " + std::to_string(*replicas) + ": the product of replicas and worker replicas must not exceed " +
                        std::to_string(kInt32Max));
        ok = false;
    }
    if (!ok) return false;

    if (leader) {
        out.pod_sets.push_back(pod_set("leader", 1, *leader, base + ".leaderTemplate.metadata", false));
        out.pod_sets.push_back(pod_set("worker", *size - 1, *worker, base + ".workerTemplate.metadata", true));
    } else {
        out.pod_sets.push_back(pod_set("main", *size, *worker, base + ".workerTemplate.metadata", true));
    }
    out.tas.groups = true;  // leaderworkerset_webhook.go validateTopologyRequest
    out.components = groups(rep.doc(), *spec, *replicas);
    if (*out.components > kMaxGroups) {
        const Node* at = present(spec, "replicas");
        rep.report(Severity::Warning, "jobs.unsupported", at ? at : spec, "spec.replicas",
                   std::to_string(*out.components) + " groups are not converted: the simulator takes at most " +
                       std::to_string(kMaxGroups) + " groups (Workloads) per LeaderWorkerSet");
        return false;
    }
    out.annotations = {{std::string(kIsGroupWorkload), "true"},
                       {"kueue.x-k8s.io/job-owner-gvk", "leaderworkerset.x-k8s.io/v1, Kind=LeaderWorkerSet"}};
    if (!rep.job().ref.name.empty()) out.annotations.emplace_back("kueue.x-k8s.io/job-owner-name", rep.job().ref.name);
    return check_pod_sets(rep, out, lwt, base);
}

}  // namespace queueforge::workloads::detail
