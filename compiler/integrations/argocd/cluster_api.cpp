// Following the destination cluster's Kueue API version in plugin mode:
// Argo CD tells the plugin which API versions the cluster serves
// (KUBE_API_VERSIONS, conventions.md section 1); a site that pins none is
// rendered in the one the cluster serves.
#include <queueforge/frontend/platform.hpp>
#include <queueforge/integrations/argocd.hpp>

namespace queueforge::argocd {

namespace {

std::string target_spec(const site::Site& s) {
    if (!s.target.name.value.empty()) return s.target.name.value;
    if (!s.target.openshift_ai.value.empty()) return "rhoai-" + s.target.openshift_ai.value;
    return "kueue-" + s.target.kueue.value;
}

// "kueue.x-k8s.io/v1beta2" -> "v1beta2"; "" stays "".
std::string version_of(const std::string& api_version) {
    const auto slash = api_version.find('/');
    return slash == std::string::npos ? "" : api_version.substr(slash + 1);
}

}  // namespace

std::set<std::string> served_kueue_versions(std::string_view list) {
    std::set<std::string> out;
    constexpr std::string_view kGroup = "kueue.x-k8s.io/";
    for (std::size_t b = 0; b < list.size();) {
        std::size_t e = list.find(',', b);
        if (e == std::string_view::npos) e = list.size();
        std::string_view item = list.substr(b, e - b);
        if (item.starts_with(kGroup)) {
            std::string_view v = item.substr(kGroup.size());
            v = v.substr(0, v.find('/'));
            if (!v.empty()) out.emplace(v);
        }
        b = e + 1;
    }
    return out;
}

std::string follow_cluster_api(site::Site& s, const std::string& override_target, const std::set<std::string>& served) {
    if (!s.target.kueue_api_version.value.empty() || served.empty()) return {};
    auto t = find_target(override_target.empty() ? target_spec(s) : override_target);
    if (!t.target) return {};
    const std::string mine = version_of(t.target->kueue_api_version);
    if (served.count(mine)) return {};
    for (const char* other : {"v1beta2", "v1beta1"}) {
        if (!served.count(other)) continue;
        // Cohorts follow the queues when their version is not served either.
        const std::string cohort_version = version_of(t.target->cohort_api_version);
        const std::string cohort_override = !cohort_version.empty() && !served.count(cohort_version) ? other : "";
        if (!apply_overrides(*t.target, {other, "", cohort_override}).target) return {};
        s.target.kueue_api_version.value = other;
        s.target.cohort_api_version.value = cohort_override;
        return "the destination cluster serves kueue.x-k8s.io/" + std::string(other) + ", not " + mine + "; emitting " +
               other;
    }
    return {};
}

}  // namespace queueforge::argocd
