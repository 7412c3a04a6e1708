#include "checks/rules/common.hpp"

#include <cstdio>

namespace queueforge::rules::detail {

std::string api_group(std::string_view api_version) { return std::string(api_group_view(api_version)); }

std::string_view api_group_view(std::string_view api_version) {
    auto slash = api_version.find('/');
    return slash == std::string_view::npos ? std::string_view() : api_version.substr(0, slash);
}

std::string api_version_of(std::string_view api_version) {
    auto slash = api_version.find('/');
    return std::string(slash == std::string_view::npos ? api_version : api_version.substr(slash + 1));
}

bool is_kueue(const Resource& r) { return api_group(r.ref.api_version) == kKueueGroup; }

std::string cluster_queue_cohort_field(const Resource& cq) {
    // v1beta1 says cohort, v1beta2 cohortName (kueue-semantics.md 1.9).
    return api_version_of(cq.ref.api_version) == "v1beta1" ? "cohort" : "cohortName";
}

std::string cohort_parent_field(const Resource& cohort) {
    // v1alpha1 (Kueue 0.9-0.12) says parent, v1beta1/v1beta2 parentName.
    return api_version_of(cohort.ref.api_version) == "v1alpha1" ? "parent" : "parentName";
}

const Node* cluster_queue_cohort(const Resource& cq) {
    const Node* c = present(child(&cq.doc, "spec"), cluster_queue_cohort_field(cq));
    return c && !text(c).empty() ? c : nullptr;
}

const Node* cohort_parent(const Resource& cohort) {
    const Node* p = present(child(&cohort.doc, "spec"), cohort_parent_field(cohort));
    return p && !text(p).empty() ? p : nullptr;
}

std::map<std::string, std::string> string_map(const Node* n) {
    std::map<std::string, std::string> out;
    if (n && n->is_map())
        for (const auto& e : n->entries()) out[e.key] = text(&e.value);
    return out;
}

std::string index(std::string_view path, std::size_t i) { return std::string(path) + "[" + std::to_string(i) + "]"; }

std::string key(std::string_view path, std::string_view k) { return std::string(path) + "[" + std::string(k) + "]"; }

std::string invalid(std::string_view path, std::string_view value, std::string_view detail) {
    std::string s = std::string(path) + ": Invalid value: " + std::string(value);
    if (!detail.empty()) s += ": " + std::string(detail);
    return s;
}

std::string duplicate(std::string_view path, std::string_view value, std::string_view detail) {
    std::string s = std::string(path) + ": Duplicate value: " + std::string(value);
    if (!detail.empty()) s += ": " + std::string(detail);
    return s;
}

std::string unsupported(std::string_view path, std::string_view value, std::vector<std::string> supported) {
    std::string s = std::string(path) + ": Unsupported value: " + std::string(value);
    if (!supported.empty()) {
        for (auto& v : supported) v = go_quote(v);
        s += ": supported values: " + join(supported, ", ");
    }
    return s;
}

std::string required(std::string_view path, std::string_view detail) {
    return std::string(path) + ": Required value: " + std::string(detail);
}

std::string forbidden(std::string_view path, std::string_view detail) {
    return std::string(path) + ": Forbidden: " + std::string(detail);
}

std::string not_found(std::string_view path, std::string_view value) {
    return std::string(path) + ": Not found: " + std::string(value);
}

std::string cel(std::string_view path, std::string_view type, std::string_view message) {
    return invalid(path.empty() ? "<nil>" : path, go_quote(type), message);
}

void Reporter::add(Severity s, std::string rule, const Node* at, std::string path, std::string message) const {
    diags.add({s, r.file, mark_of(at, r), std::move(message), std::move(rule), r.ref, std::move(path)});
}

void Reporter::error_at(std::string rule, Mark m, std::string path, std::string message) const {
    diags.add({Severity::Error, r.file, m.known() ? m : r.doc.mark(), std::move(message), std::move(rule), r.ref,
               std::move(path)});
}

std::optional<Quantity> quantity_quiet(const Node* n) {
    if (!is_text(n)) return std::nullopt;
    return Quantity::parse(n->text());
}

void report_bad_quantity(const Reporter& rep, const Node* n, const std::string& path, const std::string& why) {
    rep.error("V4", n, path,
              invalid(path, go_quote(n->text()), "invalid quantity: " + why +
                                                      " (quantities are a number with an optional suffix "
                                                      "n, u, m, k, M, G, T, P, E, Ki, Mi, Gi, Ti, Pi, Ei "
                                                      "or an exponent e<n>)"));
}

std::optional<Quantity> quantity(const Reporter& rep, const Node* n, const std::string& path) {
    return quantity_at(rep, n, [&] { return path; });
}

std::int64_t resource_value(std::string_view resource, const Quantity& q) {
    return resource == "cpu" ? q.milli_value() : q.value();
}

}  // namespace queueforge::rules::detail
