// Workload: the CRD's CEL rules, Kueue's workload webhook (kueue-semantics.md
// 2.7, pkg/webhooks/workload_webhook.go) on create, and V71, the
// requests-vs-limits check the scheduler runs (pkg/workload/resources.go):
// the API accepts such a Workload, but it is never admitted (Misconfigured).
// Update-only rules (V68 immutability, stale reclaimable counts) need the
// stored object and are not checked.
#include "checks/rules/kinds.hpp"
#include "checks/rules/selector.hpp"

#include <queueforge/base/names.hpp>

#include <algorithm>
#include <cctype>

namespace queueforge::rules::detail {

namespace {

constexpr std::size_t kAnnotationSizeLimit = 256 * 1024;

std::int64_t count_of(const Node& ps) {
    // count defaults to 1 (CRD default), which the CEL rules see.
    const Node* c = present(&ps, "count");
    return c && c->as_int() ? *c->as_int() : 1;
}

// V64 (pods key), V65 (non-negative, gate on since 0.20) and V4 for one
// ResourceList, and its quantities for V71.
std::map<std::string, Quantity> check_resource_list(const Reporter& rep, const Node* list, const std::string& path) {
    std::map<std::string, Quantity> out;
    if (!list || !list->is_map()) return out;
    for (const auto& e : list->entries()) {
        const std::string p = key(path, e.key);
        if (e.key == "pods") rep.error_at("V64", e.key_mark(), p, invalid(p, go_quote("pods"), "the key is reserved for internal kueue use"));
        auto q = quantity(rep, &e.value, p);
        if (!q) continue;
        if (q->sign() < 0) rep.error("V65", &e.value, p, invalid(p, go_quote(q->to_string()), kNegative));
        out.emplace(e.key, *q);
    }
    return out;
}

// V71: keys present in both lists whose request is above the limit, in
// Kueue's integer units (milli-cpu, ceil units otherwise), sorted by name.
void check_requests_vs_limits(const Reporter& rep, const Node* resources, const std::string& requests_path,
                              const std::string& limits_path, const std::string& report_path) {
    auto requests = check_resource_list(rep, present(resources, "requests"), requests_path);
    auto limits = check_resource_list(rep, present(resources, "limits"), limits_path);
    std::vector<std::string> over;
    for (const auto& [name, req] : requests)
        if (auto it = limits.find(name); it != limits.end() && resource_value(name, req) > resource_value(name, it->second))
            over.push_back(name);
    if (over.empty()) return;
    std::vector<std::string> quoted;
    for (const auto& n : over) quoted.push_back(go_quote(n));
    const Node* at = present(present(resources, "requests"), over.front());
    rep.error("V71", at, key(requests_path, over.front()),
              "resources validation failed: " + invalid(report_path, "[" + join(quoted, ",") + "]", "requests must not exceed its limits") +
                  " (Kueue accepts the Workload but never admits it: reason Misconfigured)");
}

void check_containers(const Reporter& rep, const Node* pod_spec, const std::string& spec_path, std::string_view field) {
    const auto& cs = items(present(pod_spec, field));
    for (std::size_t i = 0; i < cs.size(); ++i) {
        const std::string cp = index(spec_path + "." + std::string(field), i);
        const Node* res = present(&cs[i], "resources");
        check_requests_vs_limits(rep, res, cp + ".resources.requests", cp + ".resources.limits", cp);
    }
}

void check_annotations(const Reporter& rep, const Node& annotations, const std::string& path) {
    if (!annotations.is_map()) return;
    std::size_t total = 0;
    for (const auto& e : annotations.entries()) {
        total += e.key.size() + text(&e.value).size();
        std::string lower = e.key;
        std::transform(lower.begin(), lower.end(), lower.begin(), [](unsigned char c) { return std::tolower(c); });
        if (auto why = check_qualified_name(lower); !why.empty())
            rep.error_at("V66", e.key_mark(), key(path, e.key), invalid(path, go_quote(e.key), why));
    }
    if (total > kAnnotationSizeLimit)
        rep.error("V66", &annotations, path,
                  path + ": Too long: may not be more than " + std::to_string(kAnnotationSizeLimit) + " bytes");
}

void check_pod_set(const Reporter& rep, const Node& ps, const std::string& p) {
    // V61 (CEL on each podSet).
    if (const Node* min = present(&ps, "minCount"); min && min->as_int() && *min->as_int() > count_of(ps))
        rep.error("V61", min, p + ".minCount", cel(p, "object", "minCount should be positive and less or equal to count"));
    const Node* tmpl = present(&ps, "template");
    const Node* meta = present(tmpl, "metadata");
    // V66 (gate WorkloadValidationForPodSetMetadata, on since 0.20).
    if (const Node* labels = present(meta, "labels")) validate_labels(rep, "V66", *labels, p + ".template.metadata.labels");
    if (const Node* ann = present(meta, "annotations")) check_annotations(rep, *ann, p + ".template.metadata.annotations");
    const Node* pod_spec = present(tmpl, "spec");
    const std::string sp = p + ".template.spec";
    check_containers(rep, pod_spec, sp, "initContainers");
    check_containers(rep, pod_spec, sp, "containers");
    if (const Node* res = present(pod_spec, "resources"))
        check_requests_vs_limits(rep, res, sp + ".resources.requests", sp + ".resources.limits", sp + ".resources");
}

// V67: CEL on spec and on priorityClassRef (v1beta2); v1beta1 has the
// priorityClassName form of the first rule.
void check_priority(const Reporter& rep, const Node* spec) {
    const bool has_priority = present(spec, "priority") != nullptr;
    if (const Node* ref = present(spec, "priorityClassRef")) {
        if (!has_priority)
            rep.error("V67", ref, "spec.priorityClassRef", cel("spec", "object", "priority should not be nil when priorityClassRef is set"));
        const std::string group = text(present(ref, "group"));
        const Node* kind = present(ref, "kind");
        if (group == "scheduling.k8s.io" && text(kind) != "PriorityClass")
            rep.error("V67", kind ? kind : ref, "spec.priorityClassRef.kind",
                      cel("spec.priorityClassRef", "object", "only the PriorityClass kind is allowed for the scheduling.k8s.io group"));
        if (group == "kueue.x-k8s.io" && text(kind) != "WorkloadPriorityClass")
            rep.error("V67", kind ? kind : ref, "spec.priorityClassRef.kind",
                      cel("spec.priorityClassRef", "object",
                          "only the WorkloadPriorityClass kind is allowed for the kueue.x-k8s.io group"));
    }
    if (const Node* name = present(spec, "priorityClassName"); name && !has_priority)
        rep.error("V67", name, "spec.priorityClassName", cel("spec", "object", "priority should not be nil when priorityClassName is set"));
}

bool quota_reserved(const Node* status) {
    for (const auto& c : items(present(status, "conditions")))
        if (text(present(&c, "type")) == "QuotaReserved" && text(present(&c, "status")) == "True") return true;
    return false;
}

// V69: status.admission while QuotaReserved=True.
void check_admission(const Reporter& rep, const Node* status, const Node::Items& pod_sets) {
    if (!quota_reserved(status)) return;
    const Node* admission = present(status, "admission");
    if (!admission) {
        rep.error("V69", status, "status.admission", required("status.admission", "must be set while the QuotaReserved condition is true"));
        return;
    }
    std::vector<std::string> names;
    for (const auto& ps : pod_sets) names.push_back(text(present(&ps, "name")));
    const Node* psas_node = present(admission, "podSetAssignments");
    const auto& psas = items(psas_node);
    if (psas.size() != pod_sets.size())
        rep.error("V69", psas_node ? psas_node : admission, "status.admission.podSetAssignments",
                  cel("", "object", "podSetAssignments must have the same number of podSets as the spec"));
    for (std::size_t i = 0; i < psas.size(); ++i) {
        const std::string p = index("status.admission.podSetAssignments", i);
        const Node* name = present(&psas[i], "name");
        if (is_text(name) && std::find(names.begin(), names.end(), name->text()) == names.end())
            rep.error("V69", name, p + ".name", not_found(p + ".name", go_quote(name->text())));
        const Node* count = present(&psas[i], "count");
        const std::int64_t n = count && count->as_int() ? *count->as_int() : 0;
        const Node* usage = present(&psas[i], "resourceUsage");
        if (n <= 0 || !usage || !usage->is_map()) continue;
        for (const auto& e : usage->entries()) {
            const std::string up = key(p + ".resourceUsage", e.key);
            auto q = quantity(rep, &e.value, up);
            if (q && resource_value(e.key, *q) % n != 0)
                rep.error("V69", &e.value, up, invalid(up, go_quote(q->to_string()), "is not a multiple of " + std::to_string(n)));
        }
    }
}

// V70: reclaimablePods name a podSet and do not exceed its count (create).
void check_reclaimable(const Reporter& rep, const Node* status, const Node::Items& pod_sets) {
    std::vector<std::string> names;
    for (const auto& ps : pod_sets) names.push_back(text(present(&ps, "name")));
    for (const auto& rp : items(present(status, "reclaimablePods"))) {
        const Node* name = present(&rp, "name");
        const std::string base = key("status.reclaimablePods", text(name));
        auto it = std::find(names.begin(), names.end(), text(name));
        if (it == names.end()) {
            rep.error("V70", name ? name : &rp, base + ".name", unsupported(base + ".name", go_quote(text(name)), names));
            continue;
        }
        const Node* count = present(&rp, "count");
        const std::int64_t limit = count_of(pod_sets[static_cast<std::size_t>(it - names.begin())]);
        if (count && count->as_int() && *count->as_int() > limit)
            rep.error("V70", count, base + ".count",
                      invalid(base + ".count", std::to_string(*count->as_int()), "should be less or equal to " + std::to_string(limit)));
    }
}

}  // namespace

void check_workload(const Reporter& rep) {
    const Node* spec = present(&rep.r.doc, "spec");
    const auto& pod_sets = items(present(spec, "podSets"));
    std::size_t with_min = 0;
    for (std::size_t i = 0; i < pod_sets.size(); ++i) {
        check_pod_set(rep, pod_sets[i], index("spec.podSets", i));
        if (present(&pod_sets[i], "minCount")) ++with_min;
    }
    const Node* ps_node = present(spec, "podSets");
    // V62: one variable-count podSet at most.
    if (with_min > 1)
        rep.error("V62", ps_node, "spec.podSets", invalid("spec.podSets", std::to_string(with_min), "at most one podSet can use minCount"));
    // V63: partial admission vs elastic jobs (gate ElasticJobsViaWorkloadSlices, on since 0.18).
    const Node* elastic = present(present(present(&rep.r.doc, "metadata"), "annotations"), "kueue.x-k8s.io/elastic-job");
    if (with_min > 0 && text(elastic) == "true")
        rep.error("V63", ps_node, "spec.podSets",
                  invalid("spec.podSets", std::to_string(with_min), "partial admission and elastic job cannot be used together"));
    check_priority(rep, spec);
    const Node* status = present(&rep.r.doc, "status");
    check_admission(rep, status, pod_sets);
    check_reclaimable(rep, status, pod_sets);
}

}  // namespace queueforge::rules::detail
