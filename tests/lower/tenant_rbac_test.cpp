// Tenant RBAC (issue 16 item 2): team members bound to Kueue's
// kueue-batch-user-role in every team namespace, the project role, the
// dashboard's project label, and the rules over hand-written bindings.
#include "test_util.hpp"

#include <queueforge/frontend/manifests.hpp>
#include <queueforge/checks/rules.hpp>

#include <catch2/catch.hpp>

using namespace queueforge;

namespace {

std::string site_text(const std::string& target, const std::string& team_extra, const std::string& spec_extra = {}) {
    return "apiVersion: queueforge.io/v1alpha1\n"  // 1
           "kind: Site\n"                          // 2
           "metadata:\n"                           // 3
           "  name: lab\n"                         // 4
           "spec:\n"                               // 5
           "  target: " + target + "\n" +          // 6
           spec_extra +
           "  pools:\n"
           "    - name: a100\n"
           "      nodes: 2\n"
           "      allocatable: {cpu: 96, memory: 1000Gi, nvidia.com/gpu: 8}\n"
           "  teams:\n"
           "    - name: team-a\n" +
           team_extra +
           "      quota: [{pool: a100, nominal: {cpu: 8, memory: 64Gi, nvidia.com/gpu: 4}}]\n";
}

Diagnostics cross(const std::string& yaml) {
    LoadedResources in;
    Diagnostics d;
    load_resources_from_text("x.yaml", yaml, in, d);
    REQUIRE_FALSE(d.has_errors());
    rules::check_cross_objects(in.resources, {}, d);
    return d;
}

bool has(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

}  // namespace

TEST_CASE("tenant rbac: members are bound to kueue-batch-user-role in every team namespace", "[rbac]") {
    Diagnostics d;
    auto out = qf_test::build_text(site_text("kueue-0.16",
                                        "      namespaces: [team-a, team-a-dev]\n"
                                        "      members:\n"
                                        "        groups: [ml-team-a]\n"
                                        "        users: [alice@example.com]\n"
                                        "        serviceAccounts: [pipeline-runner, ci/deployer]\n"
                                        "        projectRole: edit\n"),
                                   d);
    INFO(qf_test::messages(d) << out);
    REQUIRE_FALSE(out.empty());
    CHECK(has(out, R"(apiVersion: rbac.authorization.k8s.io/v1
kind: RoleBinding
metadata:
  name: team-a-kueue-batch-user-role
  namespace: team-a
)"));
    CHECK(has(out, "  name: team-a-kueue-batch-user-role\n  namespace: team-a-dev\n"));
    CHECK(has(out, "  name: team-a-edit\n  namespace: team-a\n"));
    CHECK(has(out, R"(roleRef:
  apiGroup: rbac.authorization.k8s.io
  kind: ClusterRole
  name: kueue-batch-user-role
subjects:
  - kind: Group
    name: ml-team-a
    apiGroup: rbac.authorization.k8s.io
  - kind: User
    name: alice@example.com
    apiGroup: rbac.authorization.k8s.io
  - kind: ServiceAccount
    name: pipeline-runner
    namespace: team-a
  - kind: ServiceAccount
    name: deployer
    namespace: ci
)"));
    CHECK_FALSE(has(out, "kueue-admin-rolebinding"));
    CHECK_FALSE(has(out, "kueue-batch-admin-role"));
    // Four bindings: two roles in two namespaces.
    std::size_t n = 0;
    for (auto at = out.find("kind: RoleBinding"); at != std::string::npos; at = out.find("kind: RoleBinding", at + 1)) ++n;
    CHECK(n == 4);
    // No members, no bindings.
    Diagnostics d2;
    auto plain = qf_test::build_text(site_text("kueue-0.16", "      namespaces: [team-a]\n"), d2);
    CHECK_FALSE(has(plain, "RoleBinding"));
}

TEST_CASE("tenant rbac: OpenShift AI namespaces carry the dashboard's project label and display name", "[rbac]") {
    Diagnostics d;
    auto out = qf_test::build_text(site_text("rhoai-3.5", "      displayName: Team A research\n      namespaces: [team-a]\n",
                                        "  manageNamespaces: true\n"),
                                   d);
    INFO(qf_test::messages(d) << out);
    REQUIRE_FALSE(out.empty());
    CHECK(has(out, "    openshift.io/display-name: Team A research\n"));
    CHECK(has(out, "    opendatahub.io/dashboard: \"true\"\n"));
    // Plain Kubernetes: no dashboard.
    Diagnostics d2;
    auto kube = qf_test::build_text(site_text("kueue-0.16", "      namespaces: [team-a]\n", "  manageNamespaces: true\n"), d2);
    INFO(qf_test::messages(d2));
    REQUIRE_FALSE(kube.empty());
    CHECK_FALSE(has(kube, "opendatahub.io/dashboard"));
    CHECK_FALSE(has(kube, "openshift.io/display-name"));
}

TEST_CASE("tenant rbac: bad members are positioned errors", "[rbac]") {
    struct Case {
        std::string team;
        std::string rule;
        int line, col;
        std::string part;
    };
    const std::vector<Case> cases{
        {"      namespaces: [team-a]\n      members: {groups: [\"\"]}\n", "site.rbac-subject", 14, 26, "cannot be empty"},
        {"      namespaces: [team-a]\n      members: {users: [\"bob smith\"]}\n", "site.rbac-subject", 14, 25, "blanks or control"},
        {"      namespaces: [team-a]\n      members: {serviceAccounts: [Pipeline_Runner]}\n", "site.rbac-subject", 14, 35,
         "\"Pipeline_Runner\""},
        {"      namespaces: [team-a]\n      members: {serviceAccounts: [\"Ci/deployer\"]}\n", "site.rbac-subject", 14, 35,
         "\"Ci/deployer\""},
        {"      namespaces: [team-a]\n      members: {groups: [a], projectRole: kueue-batch-admin-role}\n", "site.rbac-admin-role",
         14, 43, "power over every team's queues"},
        {"      namespaces: [team-a]\n      members: {groups: [a], projectRole: \"a/b\"}\n", "site.rbac-subject", 14, 43,
         "not a valid ClusterRole name"},
        {"      namespaceSelector: all\n      members: {groups: [a]}\n", "site.members-without-namespaces", 14, 16,
         "has no namespaces"},
        {"      namespaces: [team-a]\n      members: {group: [a]}\n", "site.unknown-field", 14, 17, "did you mean"},
    };
    for (const auto& c : cases) {
        Diagnostics d;
        auto out = qf_test::build_text(site_text("kueue-0.16", c.team), d);
        INFO(c.team << qf_test::messages(d));
        CHECK(out.empty());
        bool found = false;
        for (const auto& x : d.all())
            if (x.rule == c.rule && x.mark.line == c.line && x.mark.col == c.col && has(x.message, c.part)) found = true;
        CHECK(found);
    }
}

TEST_CASE("tenant rbac: a tenant bound to kueue-batch-admin-role is an error", "[rbac][rules]") {
    const std::string user_binding = R"(apiVersion: rbac.authorization.k8s.io/v1
kind: RoleBinding
metadata: {name: team-a-kueue-batch-user-role, namespace: team-a}
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: kueue-batch-user-role}
subjects:
  - {apiGroup: rbac.authorization.k8s.io, kind: Group, name: ml-team-a}
  - {kind: ServiceAccount, name: runner}
---
)";
    auto d = cross(user_binding + R"(apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRoleBinding
metadata: {name: ml-admins}
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: kueue-batch-admin-role}
subjects:
  - {apiGroup: rbac.authorization.k8s.io, kind: Group, name: platform-admins}
  - {apiGroup: rbac.authorization.k8s.io, kind: Group, name: ml-team-a}
  - {kind: ServiceAccount, name: runner, namespace: team-a}
)");
    INFO(qf_test::messages(d));
    std::vector<Diagnostic> found;
    for (const auto& x : d.all())
        if (x.rule == "rbac.tenant-batch-admin") found.push_back(x);
    REQUIRE(found.size() == 2);
    CHECK(found[0].path == "subjects[1]");
    CHECK(found[0].mark.line == 15);
    CHECK(has(found[0].message, "Group \"ml-team-a\" is a tenant (bound to kueue-batch-user-role by RoleBinding/team-a/team-a-kueue-batch-user-role)"));
    CHECK(found[1].path == "subjects[2]");
    CHECK(has(found[1].message, "ServiceAccount \"team-a/runner\""));
    // The same admin binding without tenants is fine.
    auto ok = cross(R"(apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRoleBinding
metadata: {name: ml-admins}
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: kueue-batch-admin-role}
subjects: [{apiGroup: rbac.authorization.k8s.io, kind: Group, name: ml-team-a}]
)");
    CHECK_FALSE(qf_test::has_rule(ok, "rbac.tenant-batch-admin"));
}

TEST_CASE("tenant rbac: the operator's kueue-admin-rolebinding is not the repository's", "[rbac][rules]") {
    auto d = cross(R"(apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRoleBinding
metadata: {name: kueue-admin-rolebinding}
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: kueue-batch-admin-role}
subjects: [{apiGroup: rbac.authorization.k8s.io, kind: Group, name: platform-admins}]
)");
    INFO(qf_test::messages(d));
    REQUIRE(qf_test::has_rule(d, "rbac.operator-owned-binding"));
    CHECK(d.count(Severity::Error) == 0);
}

// `validate` of a site with members used to fail with schema.missing: there
// was no built-in RoleBinding schema. The emitted bindings now check clean,
// and a hand-written binding without roleRef is the API server's error.
TEST_CASE("tenant rbac: validate checks the emitted RoleBindings against the built-in schema", "[rbac]") {
    qf_test::TempDir dir;
    qf_test::write_text(dir.path / "queueforge-site.yaml",
                        site_text("kueue-0.16", "      namespaces: [team-a]\n      members: {groups: [ml-team-a]}\n"));
    auto r = qf_test::run_cli("validate " + qf_test::shell_quote(dir.path.string()));
    INFO(r.out << r.err);
    CHECK(r.exit == 0);
    CHECK_FALSE(has(r.out + r.err, "schema.missing"));

    qf_test::write_text(dir.path / "binding.yaml", "apiVersion: rbac.authorization.k8s.io/v1\nkind: RoleBinding\n"
                                                   "metadata: {name: b, namespace: team-a}\n"
                                                   "subjects: [{kind: Group, apiGroup: rbac.authorization.k8s.io}]\n");
    auto bad = qf_test::run_cli("validate " + qf_test::shell_quote((dir.path / "binding.yaml").string()));
    INFO(bad.out << bad.err);
    CHECK(bad.exit == 1);
    CHECK(has(bad.out + bad.err, "roleRef"));
    CHECK(has(bad.out + bad.err, "subjects[0].name"));
}
