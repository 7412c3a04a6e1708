// Tenant RBAC across RoleBindings and ClusterRoleBindings, emitted or
// hand-written: a tenant (a subject bound to Kueue's kueue-batch-user-role)
// must not also hold kueue-batch-admin-role, which administers every team's
// queues; and the Kueue operator's own kueue-admin-rolebinding is not a
// repository's to manage (the operator reconciles it back).
#include "checks/rules/inventory.hpp"

#include <map>
#include <set>
#include <tuple>

namespace queueforge::rules::detail {

namespace {

constexpr std::string_view kUserRole = "kueue-batch-user-role";
constexpr std::string_view kAdminRole = "kueue-batch-admin-role";
constexpr std::string_view kOperatorBinding = "kueue-admin-rolebinding";

bool is_binding(const Resource& r) {
    return api_group(r.ref.api_version) == "rbac.authorization.k8s.io" &&
           (r.ref.kind == "RoleBinding" || r.ref.kind == "ClusterRoleBinding");
}

std::string cluster_role_of(const Resource& r) {
    const Node* ref = present(&r.doc, "roleRef");
    return text(present(ref, "kind")) == "ClusterRole" ? text(present(ref, "name")) : std::string();
}

// A subject as RBAC identifies it: kind, name, and the namespace of a
// ServiceAccount (a RoleBinding's own namespace when the subject omits it).
using SubjectKey = std::tuple<std::string, std::string, std::string>;

SubjectKey key_of(const Resource& binding, const Node& s) {
    std::string kind = text(present(&s, "kind"));
    std::string ns;
    if (kind == "ServiceAccount") {
        ns = text(present(&s, "namespace"));
        if (ns.empty()) ns = binding.ref.namespace_;
    }
    return {kind, text(present(&s, "name")), ns};
}

std::string describe(const SubjectKey& k) {
    const auto& [kind, name, ns] = k;
    return kind + " " + go_quote(ns.empty() ? name : ns + "/" + name);
}

}  // namespace

void check_tenant_rbac(const CrossContext& ctx, Diagnostics& diags) {
    const std::vector<Resource>& resources = ctx.resources;
    std::map<SubjectKey, const Resource*> tenants;  // subject -> first binding to kueue-batch-user-role
    for (const auto& r : resources)
        if (is_binding(r) && cluster_role_of(r) == kUserRole)
            for (const auto& s : items(present(&r.doc, "subjects"))) tenants.emplace(key_of(r, s), &r);

    for (const auto& r : resources) {
        if (!is_binding(r)) continue;
        const Reporter rep{r, diags};
        if (r.ref.kind == "ClusterRoleBinding" && r.ref.name == kOperatorBinding)
            rep.warning("rbac.operator-owned-binding", present(present(&r.doc, "metadata"), "name"), "metadata.name",
                        "ClusterRoleBinding " + std::string(kOperatorBinding) +
                            " belongs to the Kueue operator, which reconciles it: a repository that manages it "
                            "fights the operator; bind your own subjects in a binding of your own");
        if (cluster_role_of(r) != kAdminRole) continue;
        const auto& subjects = items(present(&r.doc, "subjects"));
        for (std::size_t i = 0; i < subjects.size(); ++i) {
            auto tenant = tenants.find(key_of(r, subjects[i]));
            if (tenant == tenants.end()) continue;
            const std::string path = index("subjects", i);
            rep.error("rbac.tenant-batch-admin", &subjects[i], path,
                      describe(tenant->first) + " is a tenant (bound to " + std::string(kUserRole) + " by " +
                          tenant->second->ref.display() + ") and is bound here to " + std::string(kAdminRole) +
                          ", which lets it change every team's queues and workloads");
        }
    }
}

}  // namespace queueforge::rules::detail
