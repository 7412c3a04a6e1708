// v1 Pod: a plain Pod is one podSet `main` of count 1; Pods sharing a
// kueue.x-k8s.io/pod-group-name form one Workload named after the group with
// one podSet per pod role (kueue-semantics.md 4.1; Kueue
// pkg/controller/jobs/pod/pod_controller.go constructPodSet,
// constructGroupPodSets(Fast), validatePodGroupMetadata, groupTotalCount).
// A role's podSet is named by its role hash -- the pod's
// kueue.x-k8s.io/role-hash annotation when set, else the hash Kueue's webhook
// computes (role_hash.cpp: SHA-256 over Go's JSON of the pod's shape) -- and
// the podSets are sorted by name, as Kueue does.
#include "engines/workloads/jobs.hpp"

#include <algorithm>
#include <map>

namespace queueforge::workloads::detail {

namespace {

const Node* pod_spec_of(const Reporter& rep, const Node& doc) {
    const Node* spec = present(&doc, "spec");
    if (!spec || !spec->is_map()) {
        rep.invalid(spec ? spec : &doc, "spec", "Required value: a Pod needs a spec");
        return nullptr;
    }
    return spec;
}

// Kueue copies the Pod's spec only (no metadata) into the podSet template.
Node template_of(const Node& spec) {
    Node t = Node::mapping(spec.mark());
    t.set("spec", spec);
    return t;
}

bool failed(const Node& doc) { return text(present(present(&doc, "status"), "phase")) == "Failed"; }

}  // namespace

std::string pod_group_name(const Resource& pod) {
    if (auto a = text(annotation(pod.doc, kPodGroupName)); !a.empty()) return a;
    return text(label(pod.doc, kPodGroupName));
}

bool build_pod(const Reporter& rep, Built& out) {
    const Node* spec = pod_spec_of(rep, rep.doc());
    if (!spec) return false;
    PodSet ps{.name = "main", .count = 1, .tmpl = template_of(*spec), .mark = spec->mark()};
    ps.name_at = spec;
    // constructPodSet: the Pod's own annotations, checked by the Pod webhook
    // (pod_webhook.go validateTopologyRequest; no slice-size bound).
    ps.tas.meta = present(&rep.doc(), "metadata");
    ps.tas.path = "metadata";
    ps.tas.pod_index_label = std::string(kPodGroupPodIndexLabel);
    out.tas.slice_bound = false;
    out.pod_sets.push_back(std::move(ps));
    return true;
}

bool build_pod_group(const std::vector<const Resource*>& pods, const Reporter& rep, Built& out) {
    const Resource& first = *pods.front();
    const std::string group = pod_group_name(first);
    const std::string total_path = "metadata.annotations[" + std::string(kPodGroupTotalCount) + "]";
    const Node* total_at = annotation(first.doc, kPodGroupTotalCount);
    auto total = parse_int(text(total_at));
    if (!total_at || !total || *total < 1) {
        rep.invalid(total_at ? total_at : &first.doc, total_path,
                    "pod group \"" + group + "\" needs a group total count greater than zero, got \"" + text(total_at) + "\"");
        return false;
    }
    // The Pod webhook checks each member's TAS annotations (pod_webhook.go
    // validateTopologyRequest), at the member's own position.
    bool tas_ok = true;
    for (const Resource* p : pods) {
        const Reporter pr = rep.about(*p);
        for (const auto& e : validate_topology_annotations(present(present(&p->doc, "metadata"), "annotations"), "metadata")) {
            pr.invalid(e.at ? e.at : &p->doc, e.path, e.message);
            tas_ok = false;
        }
    }
    if (!tas_ok) return false;
    // Every member must agree on the queue and the total count.
    const std::string queue = text(label(first.doc, kQueueLabel));
    std::vector<const Resource*> active;
    for (const Resource* p : pods) {
        if (failed(p->doc)) continue;
        const Reporter pr = rep.about(*p);
        if (text(label(p->doc, kQueueLabel)) != queue) {
            pr.invalid(label(p->doc, kQueueLabel) ? label(p->doc, kQueueLabel) : &p->doc, "metadata.labels[" + std::string(kQueueLabel) + "]",
                        "pods '" + first.ref.name + "' and '" + p->ref.name + "' of group \"" + group + "\" have different queue names");
            return false;
        }
        if (parse_int(text(annotation(p->doc, kPodGroupTotalCount))) != total) {
            pr.invalid(annotation(p->doc, kPodGroupTotalCount) ? annotation(p->doc, kPodGroupTotalCount) : &p->doc, total_path,
                        "pods of group \"" + group + "\" have different " + std::string(kPodGroupTotalCount) + " values");
            return false;
        }
        active.push_back(p);
    }
    if (active.empty()) {
        rep.invalid(&first.doc, "", "pod group \"" + group + "\" has no runnable pod");
        return false;
    }
    const bool fast = text(annotation(first.doc, kPodGroupFastAdmission)) == "true";
    if (!fast && static_cast<std::int64_t>(active.size()) < *total) {
        // Kueue waits for the whole group before it creates the Workload.
        rep.report(Severity::Warning, "jobs.pod-group-incomplete", total_at, total_path,
                   "pod group \"" + group + "\" has " + std::to_string(active.size()) + " of " + std::to_string(*total) +
                       " pods; Kueue creates its Workload once all of them exist");
        return false;
    }
    if (static_cast<std::int64_t>(active.size()) > *total) {
        rep.report(Severity::Warning, "jobs.pod-group-excess", total_at, total_path,
                   "pod group \"" + group + "\" has " + std::to_string(active.size()) + " pods for a total count of " +
                       std::to_string(*total) + "; Kueue deletes the excess pods (here: the last ones given)");
        active.resize(static_cast<std::size_t>(*total));
    }

    // One podSet per role hash, in order of first appearance, then sorted by name.
    std::map<std::string, std::size_t> by_role;
    for (const Resource* p : fast ? std::vector<const Resource*>{active.front()} : active) {
        const Reporter pr = rep.about(*p);
        const Node* spec = pod_spec_of(pr, p->doc);
        if (!spec) return false;
        // Kueue groups by the role hash itself, so an annotated hash wins.
        const Node* hash_at = annotation(p->doc, kRoleHashAnnotation);
        const std::string name = hash_at ? pod_set_name(pr, text(hash_at), hash_at, "metadata.annotations[" + std::string(kRoleHashAnnotation) + "]")
                                         : role_hash(*spec);
        if (name.empty()) return false;
        if (auto it = by_role.find(name); it != by_role.end()) {
            ++out.pod_sets[it->second].count;
            continue;
        }
        by_role.emplace(name, out.pod_sets.size());
        PodSet ps{.name = name, .count = fast ? *total : 1, .tmpl = template_of(*spec), .mark = p->doc.mark()};
        ps.name_at = spec;
        // Each role's request comes from the Pod that stands for it (checked
        // above with every member, so no path here).
        ps.tas.meta = present(&p->doc, "metadata");
        ps.tas.pod_index_label = std::string(kPodGroupPodIndexLabel);
        out.pod_sets.push_back(std::move(ps));
    }
    out.tas.slice_bound = false;
    std::sort(out.pod_sets.begin(), out.pod_sets.end(), [](const PodSet& a, const PodSet& b) { return a.name < b.name; });
    out.workload_name = group;
    out.group = true;
    return check_pod_sets(rep, out, total_at, total_path);
}

}  // namespace queueforge::workloads::detail
