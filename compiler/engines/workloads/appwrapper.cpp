// workload.codeflare.dev/v1beta2 AppWrapper -> one Workload with one podSet
// per pod template the AppWrapper's components hold, in component order,
// named "<AppWrapper name>-<i>" (i counting across components). A
// component's podSets are the ones it declares (spec.components[].podSets:
// path into the component, replicas default 1) or, when it declares none,
// the ones the AppWrapper infers for the kinds it knows: batch/v1 Job
// (parallelism capped by completions), JobSet v1alpha2 (replicas x
// parallelism capped by completions per replicatedJob), PyTorchJob v1 (Master
// and Worker), RayCluster and RayJob v1 (head 1, worker groups' replicas,
// default 1), v1 Pod, apps/v1 Deployment and StatefulSet (replicas, default
// 1). A podSet's template is the subset the AppWrapper copies for Kueue
// (GetPodTemplateSpec): metadata labels and annotations; containers and init
// containers with their resources; nodeSelector, nodeName, affinity,
// tolerations, priorityClassName, overhead, topologySpreadConstraints,
// restartPolicy and a few defaults -- pod-level resources and
// runtimeClassName are not copied, so they do not count.
//
// Sources: Kueue ff69552e79ad21652c36caa97038382e55625cf7,
// pkg/controller/jobs/appwrapper/appwrapper_controller.go (PodSets: names,
// counts, templates from awutils.GetComponentPodSpecs); the AppWrapper
// project, project-codeflare/appwrapper v1.2.1 (Kueue's go.mod pins v1.2.2,
// the same code for these functions), pkg/utils/utils.go
// (GetComponentPodSpecs, EnsureComponentStatusInitialized, InferPodSets,
// inferReplicas, GetPodTemplateSpec, getValueAtPath, Replicas) and
// internal/webhook/appwrapper_webhook.go validateAppWrapperCreate (no nested
// AppWrapper, no other namespace, every declared path leads to a pod
// template, declared podSets agree with the inferred ones, 1 to 8 podSets in
// all), whose refusals are positioned errors here.
#include "engines/workloads/jobs.hpp"

#include <algorithm>
#include <map>

namespace queueforge::workloads::detail {

namespace {

constexpr std::size_t kMaxAppWrapperPodSets = 8;  // the AppWrapper webhook's bound (a Kueue invariant)

struct AwPodSet {
    std::string path;
    std::int64_t replicas = 1;
    const Node* at = nullptr;  // where it is declared (or the component)
    TasSource tas;             // the podSet's TAS labels (its workload.codeflare.dev.appwrapper/tas-* annotations)
};

// appwrapper_controller.go PodSets: a podSet's tas-pod-index-label,
// tas-sub-group-index-label and tas-sub-group-count annotations (a count
// that is not an integer is ignored); InferPodSets sets them for Jobs,
// JobSets and PyTorchJobs (appwrapper pkg/utils/utils.go).
constexpr std::string_view kAwTasPodIndexLabel = "workload.codeflare.dev.appwrapper/tas-pod-index-label";
constexpr std::string_view kAwTasSubGroupIndexLabel = "workload.codeflare.dev.appwrapper/tas-sub-group-index-label";
constexpr std::string_view kAwTasSubGroupCount = "workload.codeflare.dev.appwrapper/tas-sub-group-count";

TasSource declared_tas(const Node& ps) {
    TasSource t;
    const Node* anns = present(&ps, "annotations");
    if (const Node* v = present(anns, kAwTasPodIndexLabel)) t.pod_index_label = text(v);
    if (const Node* v = present(anns, kAwTasSubGroupIndexLabel)) t.sub_group_index_label = text(v);
    if (const Node* v = present(anns, kAwTasSubGroupCount))
        if (auto n = parse_int(text(v))) t.sub_group_count = *n;
    return t;
}

// getValueAtPath: a path starts with "template" (the component's object),
// then ".field" and "[index]" steps. nullptr with `why` set on failure.
const Node* value_at(const Node& obj, const std::string& path, std::string& why) {
    const std::string head = "template";
    if (path.compare(0, head.size(), head) != 0) {
        why = "first element of the path must be 'template'";
        return nullptr;
    }
    std::string rest = path.substr(head.size());
    std::string processed = head;
    const Node* cur = &obj;
    while (!rest.empty()) {
        if (rest.front() == '[') {
            const auto end = rest.find(']');
            if (end == std::string::npos) {
                why = "at path position '" + processed + "' invalid array index '" + rest + "'";
                return nullptr;
            }
            auto idx = parse_int(rest.substr(1, end - 1));
            if (!idx) {
                why = "at path position '" + processed + "' invalid index expression '" + rest.substr(1, end - 1) + "'";
                return nullptr;
            }
            if (!cur->is_seq()) {
                why = "at path position '" + processed + "' found non-array value";
                return nullptr;
            }
            if (*idx < 0 || *idx >= static_cast<std::int64_t>(cur->items().size())) {
                why = "at path position '" + processed + "' out of bounds index '" + std::to_string(*idx) + "'";
                return nullptr;
            }
            cur = &cur->items()[static_cast<std::size_t>(*idx)];
            processed += rest.substr(0, end);
            rest.erase(0, end + 1);
        } else if (rest.front() == '.') {
            rest.erase(0, 1);
            processed += ".";
            auto end = rest.size();
            if (auto dot = rest.find('.'); dot != std::string::npos && dot > 0) end = dot;
            if (auto br = rest.find('['); br != std::string::npos && br > 0 && br < end) end = br;
            const std::string key = rest.substr(0, end);
            if (!cur->is_map()) {
                why = "at path position '" + processed + "' non-map value";
                return nullptr;
            }
            cur = cur->find(key);
            if (!cur) {
                why = "at path position '" + processed + "' missing field '" + key + "'";
                return nullptr;
            }
            rest.erase(0, key.size());
            processed += key;
        } else {
            why = "at path position '" + processed + "' invalid path element '" + rest + "'";
            return nullptr;
        }
    }
    return cur;
}

// GetPodTemplateSpec: the map at `path` must hold a `spec` map.
const Node* pod_template_at(const Node& obj, const std::string& path, std::string& why) {
    const Node* t = value_at(obj, path, why);
    if (!t) return nullptr;
    if (!t->is_map()) {
        why = "at path position '" + path + "' non-map value";
        return nullptr;
    }
    const Node* spec = t->find("spec");
    if (!spec || !spec->is_map()) {
        why = "content at " + path + " does not contain a spec";
        return nullptr;
    }
    return t;
}

// An int at `path` (GetReplicas): nullopt when absent or not an int.
std::optional<std::int64_t> int_at(const Node& obj, const std::string& path) {
    std::string why;
    const Node* n = value_at(obj, path, why);
    return n && n->is_scalar() ? n->as_int() : std::nullopt;
}

// inferReplicas: 1 when absent or null, an error when not an int.
std::optional<std::int64_t> infer_replicas(const Node& obj, const std::string& path, std::string& why) {
    const auto dot = path.rfind('.');
    std::string ignored;
    const Node* parent = value_at(obj, path.substr(0, dot), ignored);
    const Node* v = parent && parent->is_map() ? parent->find(path.substr(dot + 1)) : nullptr;
    if (!v || v->is_null()) return 1;
    if (auto i = v->is_scalar() ? v->as_int() : std::nullopt) return i;
    why = "at path position '" + path + "' non-int value " + (v->is_scalar() ? v->text().str() : std::string(Node::kind_name(v->kind())));
    return std::nullopt;
}

// InferPodSets for the kinds the AppWrapper knows; empty for the others.
bool infer(const Node& obj, std::vector<AwPodSet>& out, std::string& why) {
    const std::string api = text(present(&obj, "apiVersion")), kind = text(present(&obj, "kind"));
    std::string ignored;
    auto ray = [&](const std::string& prefix) {
        out.push_back({prefix + "headGroupSpec.template", 1});
        const Node* workers = value_at(obj, prefix + "workerGroupSpecs", ignored);
        if (!workers || !workers->is_seq()) return true;
        for (std::size_t i = 0; i < workers->items().size(); ++i) {
            const std::string wp = prefix + "workerGroupSpecs[" + std::to_string(i) + "].";
            if (!value_at(obj, wp + "template", ignored)) continue;
            auto r = infer_replicas(obj, wp + "replicas", why);
            if (!r) return false;
            out.push_back({wp + "template", *r});
        }
        return true;
    };
    if (api == "batch/v1" && kind == "Job") {
        std::int64_t n = int_at(obj, "template.spec.parallelism").value_or(1);
        if (auto c = int_at(obj, "template.spec.completions"); c && *c < n) n = *c;
        out.push_back({"template.spec.template", n});
        out.back().tas.pod_index_label = std::string(kJobCompletionIndexLabel);
    } else if (api == "jobset.x-k8s.io/v1alpha2" && kind == "JobSet") {
        const Node* jobs = value_at(obj, "template.spec.replicatedJobs", ignored);
        if (jobs && jobs->is_seq())
            for (std::size_t i = 0; i < jobs->items().size(); ++i) {
                const std::string jp = "template.spec.replicatedJobs[" + std::to_string(i) + "].";
                if (!value_at(obj, jp + "template", ignored)) continue;
                std::int64_t pods = int_at(obj, jp + "template.spec.parallelism").value_or(1);
                if (auto c = int_at(obj, jp + "template.spec.completions"); c && *c < pods) pods = *c;
                const std::int64_t replicas = int_at(obj, jp + "replicas").value_or(1);
                out.push_back({jp + "template.spec.template", replicas * pods});
                out.back().tas.pod_index_label = std::string(kJobCompletionIndexLabel);
                out.back().tas.sub_group_index_label = std::string(kJobSetJobIndexLabel);
                out.back().tas.sub_group_count = replicas;
            }
    } else if (api == "kubeflow.org/v1" && kind == "PyTorchJob") {
        for (const char* role : {"Master", "Worker"}) {
            const std::string p = std::string("template.spec.pytorchReplicaSpecs.") + role + ".";
            if (!value_at(obj, p + "template", ignored)) continue;
            auto r = infer_replicas(obj, p + "replicas", why);
            if (!r) return false;
            out.push_back({p + "template", *r});
            out.back().tas.pod_index_label = std::string(kKubeflowReplicaIndexLabel);
        }
    } else if (api == "ray.io/v1" && kind == "RayCluster") {
        if (!ray("template.spec.")) return false;
    } else if (api == "ray.io/v1" && kind == "RayJob") {
        if (!ray("template.spec.rayClusterSpec.")) return false;
    } else if (api == "v1" && kind == "Pod") {
        if (value_at(obj, "template", ignored)) out.push_back({"template", 1});
    } else if (api == "apps/v1" && (kind == "Deployment" || kind == "StatefulSet")) {
        if (value_at(obj, "template.spec.template", ignored)) {
            auto r = infer_replicas(obj, "template.spec.replicas", why);
            if (!r) return false;
            out.push_back({"template.spec.template", *r});
        }
    }
    for (const auto& ps : out)
        if (!pod_template_at(obj, ps.path, ignored)) {
            why = ps.path + " does not refer to a v1.PodSpecTemplate: " + ignored;
            return false;
        }
    return true;
}

// The subset of a pod template GetPodTemplateSpec keeps.
Node kueue_template(const Node& t) {
    Node out = Node::mapping(t.mark());
    if (const Node* meta = present(&t, "metadata"); meta && meta->is_map()) {
        Node m = Node::mapping(meta->mark());
        for (auto k : {"labels", "annotations"})
            if (const Node* v = present(meta, k); v && v->is_map()) {
                Node kept = Node::mapping(v->mark());
                for (const auto& e : v->entries())
                    if (e.value.is_scalar() && !e.value.is_null()) kept.set(e.key, e.value);
                m.set(k, std::move(kept));
            }
        if (m.size() > 0) out.set("metadata", std::move(m));
    }
    const Node& spec = *t.find("spec");
    Node s = Node::mapping(spec.mark());
    for (auto ck : {"initContainers", "containers"}) {
        const Node* cs = present(&spec, ck);
        if (!cs || !cs->is_seq()) continue;
        Node list = Node::sequence(cs->mark());
        for (const auto& c : cs->items()) {
            Node kept = Node::mapping(c.mark());
            if (c.is_map())
                for (auto k : {"name", "image", "command", "args", "resources", "securityContext"})
                    if (const Node* v = present(&c, k)) kept.set(k, *v);
            list.push(std::move(kept));
        }
        s.set(ck, std::move(list));
    }
    for (auto k : {"restartPolicy", "terminationGracePeriodSeconds", "dnsPolicy", "nodeSelector", "nodeName", "securityContext",
                   "affinity", "schedulerName", "tolerations", "priorityClassName", "preemptionPolicy", "overhead",
                   "topologySpreadConstraints"})
        if (const Node* v = present(&spec, k)) s.set(k, *v);
    out.set("spec", std::move(s));
    return out;
}

}  // namespace

bool build_appwrapper(const Reporter& rep, Built& out) {
    const Node* spec = present(&rep.doc(), "spec");
    const Node* comps = present(spec, "components");
    if (!comps || !comps->is_seq()) {
        rep.invalid(comps ? comps : spec ? spec : &rep.doc(), "spec.components",
                    comps ? std::string("must be a list, got a ") + Node::kind_name(comps->kind())
                          : std::string("Required value: an AppWrapper needs its components"));
        return false;
    }
    const std::string aw_ns = namespace_of(rep.job());
    struct Found {
        const Node* tmpl;
        std::int64_t count;
        const Node* at;
        TasSource tas;
    };
    std::vector<Found> found;
    std::size_t pod_spec_count = 0;  // the webhook's count: max(declared, inferred) per component
    for (std::size_t i = 0; i < comps->items().size(); ++i) {
        const Node& comp = comps->items()[i];
        const std::string cpath = "spec.components[" + std::to_string(i) + "]";
        const Node* obj = present(&comp, "template");
        if (!obj || !obj->is_map() || text(present(obj, "kind")).empty() || text(present(obj, "apiVersion")).empty()) {
            rep.invalid(obj ? obj : &comp, cpath + ".template", "Invalid value: failed to decode as JSON: the component needs an object with apiVersion and kind");
            return false;
        }
        if (text(present(obj, "kind")) == "AppWrapper" && text(present(obj, "apiVersion")).starts_with("workload.codeflare.dev/")) {
            rep.invalid(present(obj, "kind"), cpath + ".template", "Forbidden: Nested AppWrappers are forbidden");
            return false;
        }
        if (const Node* ns = present(present(obj, "metadata"), "namespace"); ns && !text(ns).empty() && text(ns) != aw_ns) {
            rep.invalid(ns, cpath + ".template.metadata.namespace", "Forbidden: AppWrappers cannot create objects in other namespaces");
            return false;
        }
        std::vector<AwPodSet> declared;
        const Node* dps = present(&comp, "podSets");
        if (dps && !dps->is_seq()) {
            rep.invalid(dps, cpath + ".podSets", std::string("must be a list, got a ") + Node::kind_name(dps->kind()));
            return false;
        }
        for (std::size_t j = 0; dps && j < dps->items().size(); ++j) {
            const Node& ps = dps->items()[j];
            const std::string ppath = cpath + ".podSets[" + std::to_string(j) + "]";
            const Node* path_at = present(&ps, "path");
            if (text(path_at).empty()) {
                rep.invalid(path_at ? path_at : &ps, ppath + ".path", "Required value: podspec must specify path");
                return false;
            }
            auto replicas = read_int(rep, &ps, "replicas", ppath + ".replicas", 1);
            if (!replicas) return false;
            std::string why;
            if (!pod_template_at(*obj, text(path_at), why)) {
                rep.invalid(path_at, ppath + ".path", "Invalid value: \"" + text(path_at) + "\": path does not refer to a v1.PodSpecTemplate: " + why);
                return false;
            }
            declared.push_back({text(path_at), *replicas, &ps, declared_tas(ps)});
        }
        std::vector<AwPodSet> inferred;
        std::string why;
        if (!infer(*obj, inferred, why)) {
            rep.invalid(obj, cpath + ".template", "Invalid value: error inferring PodSets: " + why);
            return false;
        }
        pod_spec_count += std::max(declared.size(), inferred.size());
        // ValidatePodSets: declared ones agree with what inference finds.
        if (!declared.empty()) {
            std::map<std::string, const AwPodSet*> by_path;
            for (const auto& d : declared)
                if (!by_path.emplace(d.path, &d).second) {
                    rep.invalid(d.at, cpath + ".podSets", "Invalid value: multiple DeclaredPodSets with path '" + d.path + "'");
                    return false;
                }
            if (!inferred.empty()) {
                if (inferred.size() != declared.size()) {
                    rep.invalid(dps, cpath + ".podSets", "Invalid value: DeclaredPodSet count " + std::to_string(declared.size()) +
                                                             " differs from inferred count " + std::to_string(inferred.size()));
                    return false;
                }
                for (const auto& ip : inferred) {
                    auto it = by_path.find(ip.path);
                    if (it == by_path.end()) {
                        rep.invalid(dps, cpath + ".podSets", "Invalid value: PodSet with path '" + ip.path + "' is missing");
                        return false;
                    }
                    if (it->second->replicas != ip.replicas) {
                        rep.invalid(it->second->at, cpath + ".podSets",
                                    "Invalid value: replica count " + std::to_string(it->second->replicas) + " differs from inferred count " +
                                        std::to_string(ip.replicas) + " for PodSet at path position '" + ip.path + "'");
                        return false;
                    }
                }
            }
        }
        for (const auto& ps : declared.empty() ? inferred : declared) {
            std::string ignored;
            found.push_back({pod_template_at(*obj, ps.path, ignored), ps.replicas, ps.at ? ps.at : obj, ps.tas});
        }
    }
    if (pod_spec_count == 0 || pod_spec_count > kMaxAppWrapperPodSets) {
        rep.invalid(comps, "spec.components",
                    pod_spec_count == 0 ? std::string("Invalid value: components contains no podspecs")
                                        : "Invalid value: components contains " + std::to_string(pod_spec_count) +
                                              " podspecs; at most " + std::to_string(kMaxAppWrapperPodSets) + " are allowed");
        return false;
    }
    const std::string& name = rep.job().ref.name;
    for (std::size_t i = 0; i < found.size(); ++i) {
        const std::string ps_name = pod_set_name(rep, name + "-" + std::to_string(i), present(present(&rep.doc(), "metadata"), "name"), "metadata.name");
        if (ps_name.empty()) return false;
        PodSet ps{.name = ps_name, .count = found[i].count, .tmpl = kueue_template(*found[i].tmpl), .mark = found[i].at->mark()};
        ps.name_at = found[i].at;
        ps.tas = found[i].tas;  // no webhook checks the annotations: only Kueue's build can fail
        out.pod_sets.push_back(std::move(ps));
    }
    out.tas.mode = TasChecks::Mode::None;
    return check_pod_sets(rep, out, comps, "spec.components");
}

}  // namespace queueforge::workloads::detail
