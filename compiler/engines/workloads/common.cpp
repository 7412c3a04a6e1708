// Helpers shared by the job integrations: Node access, positioned findings,
// and the checks the Workload API applies to podSets (kueue-semantics.md 2.7).
#include "engines/workloads/jobs.hpp"

#include <queueforge/base/names.hpp>

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <set>

namespace queueforge::workloads::detail {

namespace {

constexpr std::size_t kMaxPodSets = 18;  // Workload spec.podSets maxItems (jobframework.MaxPodSets)

}  // namespace

const Node* meta_field(const Node& doc, std::string_view map, std::string_view key) {
    return present(present(present(&doc, "metadata"), map), key);
}

std::string namespace_of(const Resource& r) { return r.ref.namespace_.empty() ? std::string(kDefaultName) : r.ref.namespace_.str(); }

std::string lower(std::string_view s) {
    std::string out(s);
    std::transform(out.begin(), out.end(), out.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return out;
}

void Reporter::report(Severity s, const std::string& rule, const Node* at, const std::string& path,
                      const std::string& message) const {
    diags_.add(object_finding(job_, s, at, job_.ref.display() + ": " + message, rule, path));
}

void Reporter::invalid(const Node* at, const std::string& path, const std::string& message) const {
    report(Severity::Error, "jobs.invalid", at, path, path.empty() ? message : path + ": " + message);
}

bool elastic(const Node& doc) { return text(annotation(doc, kElasticAnnotation)) == "true"; }

std::optional<std::int64_t> read_int(const Reporter& rep, const Node* parent, std::string_view key,
                                     const std::string& path, std::int64_t fallback, std::int64_t min) {
    const Node* n = present(parent, key);
    if (!n) return fallback;
    auto v = n->as_int();
    if (!v || *v > kInt32Max || *v < -kInt32Max - 1) {
        rep.invalid(n, path, "must be an integer (int32), got \"" + text(n) + "\"");
        return std::nullopt;
    }
    if (*v < min) {
        rep.invalid(n, path, "must be greater than or equal to " + std::to_string(min) + ", got " + std::to_string(*v));
        return std::nullopt;
    }
    return v;
}

std::optional<std::int64_t> parse_int(std::string_view s) {
    std::string_view digits = s;
    if (!digits.empty() && (digits.front() == '+' || digits.front() == '-')) digits.remove_prefix(1);
    if (digits.empty() || digits.size() > 18 || !std::all_of(digits.begin(), digits.end(), [](char c) { return c >= '0' && c <= '9'; }))
        return std::nullopt;
    std::int64_t v = 0;
    for (char c : digits) v = v * 10 + (c - '0');
    return s.front() == '-' ? -v : v;
}

bool suspended_by_other_parent(const Reporter& rep, const Node* tmpl, std::string_view framework, std::string_view kind) {
    constexpr std::string_view kSuspendedByParent = "kueue.x-k8s.io/pod-suspending-parent";
    const Node* parent = present(present(present(tmpl, "metadata"), "annotations"), kSuspendedByParent);
    if (!parent || text(parent) == framework) return false;
    rep.report(Severity::Warning, "jobs.not-managed", parent,
               "spec.template.metadata.annotations[" + std::string(kSuspendedByParent) + "]",
               "its pods are admitted through the Workloads of \"" + text(parent) + "\"; Kueue does not manage the " +
                   std::string(kind) + " itself, so it has no Workload (give the parent object)");
    return true;
}

std::optional<ReplicatedPods> read_replicated_pods(const Reporter& rep, std::string_view kind, std::string_view framework) {
    const Node* spec = present(&rep.doc(), "spec");
    if (!spec || !spec->is_map()) {
        rep.invalid(spec ? spec : &rep.doc(), "spec",
                    "Required value: a " + std::string(kind) + " needs a spec with a pod template");
        return std::nullopt;
    }
    const Node* tmpl = read_template(rep, spec, "spec");
    auto replicas = read_int(rep, spec, "replicas", "spec.replicas", 1);  // the API server defaults it to 1
    if (!tmpl || !replicas) return std::nullopt;
    // Another framework's (an LWS's, an AppWrapper's component): its Workloads are that object's.
    if (suspended_by_other_parent(rep, tmpl, framework, kind)) return std::nullopt;
    return ReplicatedPods{spec, tmpl, *replicas};
}

void add_template_pod_set(Built& out, const Node* tmpl, std::int64_t count, std::string_view pod_index_label) {
    Node pod_template = Node::mapping(tmpl->mark());
    if (const Node* pod_spec = present(tmpl, "spec")) pod_template.set("spec", *pod_spec);
    PodSet ps{.name = "main", .count = count, .tmpl = std::move(pod_template), .mark = tmpl->mark()};
    ps.name_at = tmpl;
    ps.tas.meta = present(tmpl, "metadata");
    ps.tas.path = "spec.template.metadata";
    ps.tas.pod_index_label = std::string(pod_index_label);
    out.tas.slice_bound = false;
    out.pod_sets.push_back(std::move(ps));
}

const Node* read_template(const Reporter& rep, const Node* parent, const std::string& path, std::string_view key) {
    const Node* t = present(parent, key);
    const std::string at = path + "." + std::string(key);
    if (!t) {
        rep.invalid(parent, at, "Required value: the pod template is missing");
        return nullptr;
    }
    if (!t->is_map()) {
        rep.invalid(t, at, std::string("must be a pod template (a map), got a ") + Node::kind_name(t->kind()));
        return nullptr;
    }
    if (const Node* spec = t->find("spec"); spec && !spec->is_null() && !spec->is_map()) {
        rep.invalid(spec, at + ".spec", std::string("must be a pod spec (a map), got a ") + Node::kind_name(spec->kind()));
        return nullptr;
    }
    return t;
}

std::string pod_set_name(const Reporter& rep, std::string_view raw, const Node* at, const std::string& path) {
    std::string name = lower(raw);
    if (auto why = check_dns1123_label(name); !why.empty()) {
        rep.invalid(at, path, "podSet name \"" + name + "\" is not valid for a Workload: " + why);
        return {};
    }
    return name;
}

bool check_pod_sets(const Reporter& rep, const Built& b, const Node* at, const std::string& path) {
    if (b.pod_sets.empty()) {
        rep.invalid(at, path, "Required value: the job has no pods (a Workload needs at least one podSet)");
        return false;
    }
    if (b.pod_sets.size() > kMaxPodSets) {
        rep.invalid(at, path, "Too many: " + std::to_string(b.pod_sets.size()) + ": must have at most " +
                                  std::to_string(kMaxPodSets) + " podSets (Workload spec.podSets maxItems)");
        return false;
    }
    std::set<std::string> seen;
    for (const auto& ps : b.pod_sets) {
        if (!seen.insert(ps.name).second) {
            rep.invalid(ps.name_at ? ps.name_at : at, path, "Duplicate value: podSet \"" + ps.name + "\" appears twice");
            return false;
        }
        if (ps.count > kInt32Max) {
            rep.invalid(ps.name_at ? ps.name_at : at, path,
                        "podSet \"" + ps.name + "\" has " + std::to_string(ps.count) + " pods, more than a Workload count (int32) holds");
            return false;
        }
    }
    return true;
}

}  // namespace queueforge::workloads::detail
