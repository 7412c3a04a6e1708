// Tenant RBAC: who may submit to a team's queues. For every team with
// `members`, one RoleBinding per team namespace to Kueue's
// kueue-batch-user-role (Kueue's config/components/rbac/batch_user_role.yaml
// under the kueue- name prefix of its default kustomization; the Red Hat
// build of Kueue ships the same ClusterRole), and, when the admin names one,
// a second RoleBinding to the project role (e.g. edit). queueforge never
// emits the operator-owned kueue-admin-rolebinding.
#include "lower/metadata.hpp"
#include "lower/passes.hpp"

namespace queueforge::lower {

namespace {

constexpr std::string_view kRbacGroup = "rbac.authorization.k8s.io";
constexpr std::string_view kBatchUserRole = "kueue-batch-user-role";

struct Subject {
    std::string kind;  // Group | User | ServiceAccount
    std::string name;
    std::string namespace_;  // ServiceAccount only
    Mark mark;
};

std::vector<Subject> subjects_of(const site::Members& m, const std::string& ns) {
    std::vector<Subject> out;
    for (const auto& g : m.groups) out.push_back({"Group", g.value, {}, g.mark});
    for (const auto& u : m.users) out.push_back({"User", u.value, {}, u.mark});
    for (const auto& sa : m.service_accounts) {
        auto slash = sa.value.find('/');
        if (slash == std::string::npos)
            out.push_back({"ServiceAccount", sa.value, ns, sa.mark});
        else
            out.push_back({"ServiceAccount", sa.value.substr(slash + 1), sa.value.substr(0, slash), sa.mark});
    }
    return out;
}

Node subjects_node(const std::vector<Subject>& subjects, const Trace& at) {
    Node list = Node::sequence();
    for (std::size_t i = 0; i < subjects.size(); ++i) {
        const auto& s = subjects[i];
        Node n = Node::mapping();
        n.set("kind", Node::string(s.kind));
        n.set("name", Node::string(s.name));
        if (s.kind == "ServiceAccount")
            n.set("namespace", Node::string(s.namespace_));
        else
            n.set("apiGroup", Node::string(std::string(kRbacGroup)));
        at.item(i).set(s.mark, Derivation::Written, "a member of the team");
        list.push(std::move(n));
    }
    return list;
}

void add_binding(Context& ctx, const site::Team& t, const site::Text& ns, const std::string& role, Mark role_mark,
                 Derivation role_how, const std::string& why) {
    std::vector<PendingRecord> records;
    Trace tr(records);
    tr.field("metadata").set("namespace", ns.mark, Derivation::Written, "a namespace of team " + t.name.value);
    Node role_ref = Node::mapping();
    role_ref.set("apiGroup", Node::string(std::string(kRbacGroup)));
    role_ref.set("kind", Node::string("ClusterRole"));
    role_ref.set("name", Node::string(role));
    tr.field("roleRef").set("name", role_mark, role_how, why);
    Node subjects = subjects_node(subjects_of(*t.members, ns.value), tr.field("subjects"));
    add_object(ctx, {.api_version = std::string(kRbacGroup) + "/v1",
                     .kind = "RoleBinding",
                     .name = t.name.value + "-" + role,
                     .namespace_ = ns.value,
                     .component = "tenant-rbac",
                     .labels = {{"queueforge.io/team", t.name.value}},
                     .custom_resource = false,
                     .wave = kWaveTenantRbac,
                     .kind_rank = 0,
                     .origin = t.members->mark,
                     .rule = "team " + t.name.value + ", namespace " + ns.value + ": " + why,
                     .name_from = {t.name.mark, Derivation::Generated, "<team>-<role>"},
                     .fields = {{"roleRef", std::move(role_ref)}, {"subjects", std::move(subjects)}},
                     .provenance = std::move(records)});
}

}  // namespace

void lower_tenant_rbac(Context& ctx) {
    for (const auto& t : ctx.site.teams) {
        if (!t.members || t.members->empty()) continue;
        for (const auto& ns : t.namespaces) {
            add_binding(ctx, t, ns, std::string(kBatchUserRole), t.members->mark, Derivation::Generated,
                        "members may submit jobs to the team's LocalQueues (Kueue's kueue-batch-user-role)");
            if (!t.members->project_role.value.empty())
                add_binding(ctx, t, ns, t.members->project_role.value, t.members->project_role.mark,
                            Derivation::Written, "the project role the admin names for the team's members");
        }
    }
}

}  // namespace queueforge::lower
