// What the --target cluster's Kueue does not serve: kinds, API versions and
// fields. API-version facts come from the target matrix (compiler/frontend/platform);
// the field table below was read off Kueue's CRDs at each release tag
// (config/components/crd/bases at v0.6.0 ... v0.20-dev): first minor whose
// CRD has the field.
#include "checks/rules/inventory.hpp"

#include "frontend/platform/matrix.hpp"

#include <array>

namespace queueforge::rules::detail {

namespace {

std::string minor(const Version& v) { return std::to_string(v.major) + "." + std::to_string(v.minor); }
Version minor_line(const Version& v) { return {v.major, v.minor, 0}; }

std::string describe(const Target& t) { return "Kueue " + t.kueue.to_string() + " of target " + t.name; }

struct Serving {
    std::string_view version;
    Version first, last;
    Version deprecated_from;  // zero: never within the known range
};

// Topology is not in the matrix (compile never emits it); facts from the
// CRDs: v1alpha1 0.9-0.13, v1beta1 in 0.11 only and again from 0.14,
// v1beta2 from 0.15; v1beta1 deprecated from 0.16 and no longer served from
// 0.20 (CHANGELOG-0.20.md, #14558), like every kueue.x-k8s.io kind.
constexpr std::array<Serving, 4> kTopology{{
    {"v1alpha1", {0, 9, 0}, {0, 13, 0}, {}},
    {"v1beta1", {0, 11, 0}, {0, 11, 0}, {}},
    {"v1beta1", {0, 14, 0}, platform::kLastV1beta1Kueue, {0, 16, 0}},
    {"v1beta2", {0, 15, 0}, platform::kNewestKueue, {}},
}};

std::vector<Serving> serving_for(std::string_view kind) {
    std::vector<Serving> out;
    if (kind == "Topology") return {kTopology.begin(), kTopology.end()};
    platform::ApiFamily family;
    if (kind == "Cohort") family = platform::ApiFamily::Cohort;
    else if (kind == "ResourceFlavor" || kind == "ClusterQueue" || kind == "LocalQueue" || kind == "WorkloadPriorityClass" ||
             kind == "Workload" || kind == "AdmissionCheck")
        family = platform::ApiFamily::Queues;  // served together, same versions
    else return out;                         // other Kueue kinds (MultiKueue, ...) are not tracked
    for (const auto& s : platform::kueue_api_serving())
        if (s.family == family) out.push_back({s.version, s.first, s.last, s.deprecated_from});
    return out;
}

struct FieldIntro {
    std::string_view kind;
    std::string_view field;  // dotted path under the object; "[]" marks list items
    Version first;
};

constexpr std::array<FieldIntro, 13> kFields{{
    {"ClusterQueue", "spec.admissionChecksStrategy", {0, 7, 0}},
    {"ClusterQueue", "spec.fairSharing", {0, 7, 0}},
    {"ClusterQueue", "spec.admissionScope", {0, 12, 0}},
    {"ClusterQueue", "spec.flavorFungibility.preference", {0, 15, 0}},
    {"ClusterQueue", "spec.concurrentAdmissionPolicy", {0, 18, 0}},
    {"Cohort", "spec.fairSharing", {0, 11, 0}},
    {"LocalQueue", "spec.stopPolicy", {0, 8, 0}},
    {"LocalQueue", "spec.fairSharing", {0, 12, 0}},
    {"ResourceFlavor", "spec.topologyName", {0, 9, 0}},
    {"Workload", "spec.maximumExecutionTimeSeconds", {0, 9, 0}},
    {"Workload", "spec.podSets[].topologyRequest", {0, 9, 0}},
    {"Workload", "spec.preemptionGates", {0, 17, 0}},
    {"Workload", "spec.podSets[].topologyRequest.podSetSliceSize", {0, 13, 0}},
}};

// Finds the nodes at a dotted path with "[]" steps; calls f(node, path).
template <typename F>
void visit(const Node* n, std::string_view rest, const std::string& path, F&& f) {
    if (!n) return;
    if (rest.empty()) return f(n, path);
    auto dot = rest.find('.');
    std::string_view step = rest.substr(0, dot);
    std::string_view tail = dot == std::string_view::npos ? std::string_view{} : rest.substr(dot + 1);
    const bool list = step.ends_with("[]");
    if (list) step.remove_suffix(2);
    const Node* c = present(n, step);
    const std::string p = path.empty() ? std::string(step) : path + "." + std::string(step);
    if (!list) return visit(c, tail, p, f);
    const auto& xs = items(c);
    for (std::size_t i = 0; i < xs.size(); ++i) visit(&xs[i], tail, index(p, i), f);
}

// False when the object's apiVersion is not served at all.
bool check_api_version(const Resource& r, const Target& t, Diagnostics& diags) {
    const auto serving = serving_for(r.ref.kind);
    if (serving.empty()) return true;
    const std::string version = api_version_of(r.ref.api_version);
    const Reporter rep{r, diags};
    const Node* at = present(&r.doc, "apiVersion");
    const Version line = minor_line(t.kueue);
    std::vector<std::string> served_here;
    const Serving* match = nullptr;
    Version first_ever{99, 0, 0};
    for (const auto& s : serving) {
        if (s.first < first_ever) first_ever = s.first;
        const bool on = s.first <= line && line <= s.last;
        if (on) served_here.push_back(std::string(kKueueGroup) + "/" + std::string(s.version));
        if (on && s.version == version) match = &s;
    }
    // A target whose overrides say "no Cohort kind" serves none.
    if (r.ref.kind == "Cohort" && t.cohort_api_version.empty()) served_here.clear(), match = nullptr;
    if (!match) {
        std::string msg = r.ref.api_version + " " + r.ref.kind + " is not served by " + describe(t);
        if (served_here.empty())
            msg += "; " + r.ref.kind + " objects need Kueue " + minor(first_ever) + " or newer" +
                   (r.ref.kind == "Cohort" ? " (a ClusterQueue's cohort field alone still forms an implicit cohort)" : "");
        else
            msg += " (served there: " + join(served_here, ", ") + ")";
        if (version == "v1beta1" && line > platform::kLastV1beta1Kueue && !served_here.empty())
            msg += "; Kueue 0.20 stopped serving v1beta1 (kubernetes-sigs/kueue#14558): rewrite the object as " +
                   std::string(kKueueGroup) + "/v1beta2" +
                   (r.ref.kind == "ClusterQueue" ? " (spec.cohort becomes spec.cohortName)" : "");
        rep.error("target.unserved", at, "apiVersion", msg);
        return false;
    }
    if (match->deprecated_from != Version{} && line >= match->deprecated_from) {
        std::vector<std::string> newer;
        for (const auto& v : served_here)
            if (v != r.ref.api_version) newer.push_back(v);
        rep.warning("target.deprecated", at, "apiVersion",
                    r.ref.api_version + " " + r.ref.kind + " is deprecated on " + describe(t) +
                        (newer.empty() ? std::string() : "; use " + join(newer, " or ")));
    }
    return true;
}

void check_fields(const Resource& r, const Target& t, Diagnostics& diags) {
    const Reporter rep{r, diags};
    for (const auto& f : kFields) {
        if (f.kind != r.ref.kind || minor_line(t.kueue) >= f.first) continue;
        visit(&r.doc, f.field, "", [&](const Node* n, const std::string& path) {
            rep.error("target.unserved", n, path,
                      path + " is not served by " + describe(t) + " (needs Kueue " + minor(f.first) +
                          " or newer): an unknown field there, which kubectl --validate=strict rejects and the API "
                          "server otherwise drops");
        });
    }
}

// Limits and behaviours that change with the Kueue release, checked where a
// target names the release.
//  - ConcurrentAdmission allows 16 flavors in the ResourceGroup before 0.20
//    and 32 from 0.20 (CHANGELOG-0.20.md, kubernetes-sigs/kueue#15949); V38
//    itself applies the newest webhook's limit.
//  - From 0.20 gate WorkloadPriorityClassDefaulting is Beta and on: every
//    workload without a priority class gets the WorkloadPriorityClass named
//    "default" (CHANGELOG-0.20.md, #13719).
constexpr Version kConcurrentAdmission32{0, 20, 0};
constexpr std::size_t kConcurrentAdmissionFlavorsBefore020 = 16;
constexpr Version kDefaultPriorityClassDefaulting{0, 20, 0};

void check_release_limits(const Resource& r, const Target& t, Diagnostics& diags) {
    const Reporter rep{r, diags};
    const Version line = minor_line(t.kueue);
    if (r.ref.kind == "ClusterQueue" && line < kConcurrentAdmission32) {
        const Node* spec = present(&r.doc, "spec");
        const auto& groups = items(present(spec, "resourceGroups"));
        if (present(spec, "concurrentAdmissionPolicy") && groups.size() == 1) {
            const Node* flavors = present(&groups[0], "flavors");
            const std::size_t n = items(flavors).size();
            if (n > kConcurrentAdmissionFlavorsBefore020)
                rep.error("V38", flavors, "spec.resourceGroups[0].flavors",
                          invalid("spec.resourceGroups[0].flavors", std::to_string(n),
                                  "cannot have more than 16 resource flavors in the ResourceGroup when "
                                  "ConcurrentAdmissionPolicy is defined") +
                              " (" + describe(t) + "; Kueue 0.20 allows 32)");
        }
    }
    if (r.ref.kind == "WorkloadPriorityClass" && r.ref.name == "default" && line >= kDefaultPriorityClassDefaulting)
        rep.warning("target.default-priority-class", present(&r.doc, "metadata"), "metadata.name",
                    "a WorkloadPriorityClass named \"default\" becomes the priority of every workload that names "
                    "none on " + describe(t) +
                        " (gate WorkloadPriorityClassDefaulting, on from Kueue 0.20): rename it unless that is "
                        "intended");
}

}  // namespace

void check_target_apis(const CrossContext& ctx, Diagnostics& diags) {
    if (!ctx.target) return;  // without a target every version and field is served
    const Target& target = *ctx.target;
    for (const auto& r : ctx.resources) {
        if (!is_kueue(r)) continue;
        // Field findings on an unserved version would only repeat the point.
        if (!check_api_version(r, target, diags)) continue;
        check_fields(r, target, diags);
        check_release_limits(r, target, diags);
    }
}

}  // namespace queueforge::rules::detail
