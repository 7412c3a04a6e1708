// Tests for offline ValidatingAdmissionPolicy evaluation (compiler/checks/policy/
// evaluate_vap.cpp): bindings and their validationActions, params through
// paramRef, match constraints and selectors, matchConditions and
// failurePolicy, the variables bound for a CREATE, and bad input.
#include "policy_util.hpp"
#include "test_util.hpp"

#include <queueforge/checks/policy.hpp>
#include <queueforge/frontend/manifests.hpp>

#include <catch2/catch.hpp>

#include <string>
#include <vector>

using namespace queueforge;
using qf_test::run_cli;
using qf_test::shell_quote;

namespace {

std::string yaml(const char* text) {
    std::string s = text;
    if (!s.empty() && s.front() == '\n') s.erase(0, 1);
    return s;
}

Diagnostics run(const std::string& policies, const std::string& objects) {
    return qf_test::run_policies("vap.yaml", policies, objects);
}

using qf_test::with_rule;

std::string dump(const Diagnostics& d) {
    std::string s;
    for (const auto& x : d.all())
        s += x.file + ":" + std::to_string(x.mark.line) + ":" + std::to_string(x.mark.col) + ": " +
             severity_name(x.severity) + ": " + x.message + " [" + x.rule + "] " + x.object.display() + "\n";
    return s;
}

// A policy limiting GPU quota per ClusterQueue, with params.
const std::string kPolicy = yaml(R"Y(
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata: {name: gpu-quota-limit}
spec:
  failurePolicy: Fail
  paramKind: {apiVersion: v1, kind: ConfigMap}
  matchConstraints:
    resourceRules:
    - apiGroups: [kueue.x-k8s.io]
      apiVersions: ["*"]
      operations: [CREATE, UPDATE]
      resources: [clusterqueues]
  variables:
  - name: gpus
    expression: >-
      object.spec.resourceGroups.map(rg, rg.flavors.map(f, f.resources.filter(r, r.name == 'nvidia.com/gpu')
        .map(r, int(r.nominalQuota)).sum()).sum()).sum()
  validations:
  - expression: variables.gpus <= int(params.data.maxGpus)
    messageExpression: "'ClusterQueue ' + object.metadata.name + ' has ' + string(variables.gpus) + ' GPUs, more than ' + params.data.maxGpus"
    reason: Forbidden
)Y");

const std::string kBinding = yaml(R"Y(
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicyBinding
metadata: {name: gpu-quota-limit-binding}
spec:
  policyName: gpu-quota-limit
  validationActions: [Deny]
  paramRef: {name: gpu-limits, namespace: kueue-system, parameterNotFoundAction: Deny}
)Y");

const std::string kParams = yaml(R"Y(
apiVersion: v1
kind: ConfigMap
metadata: {name: gpu-limits, namespace: kueue-system}
data: {maxGpus: "8"}
)Y");

std::string queue(const std::string& name, int gpus, const std::string& extra = {}) {
    return "apiVersion: kueue.x-k8s.io/v1beta2\nkind: ClusterQueue\nmetadata: {name: " + name + extra +
           "}\nspec:\n  namespaceSelector: {}\n  resourceGroups:\n  - coveredResources: [nvidia.com/gpu]\n"
           "    flavors: [{name: h100, resources: [{name: nvidia.com/gpu, nominalQuota: " +
           std::to_string(gpus) + "}]}]\n";
}

}  // namespace

TEST_CASE("vap: policy + binding + params deny as the API server words it", "[vap]") {
    const std::string objects = queue("small", 4) + "---\n" + queue("big", 16);
    auto d = run(kPolicy + "---\n" + kBinding + "---\n" + kParams, objects);
    INFO(dump(d));
    REQUIRE(d.all().size() == 1);
    const auto& f = d.all()[0];
    CHECK(f.severity == Severity::Error);
    CHECK(f.rule == "gpu-quota-limit");
    CHECK(f.object.name == "big");
    CHECK(f.file == "objects.yaml");
    CHECK(f.mark.line == 10);
    CHECK(f.message == "ValidatingAdmissionPolicy 'gpu-quota-limit' with binding 'gpu-quota-limit-binding' denied request: "
                       "ClusterQueue big has 16 GPUs, more than 8 (reason: Forbidden)");
}

TEST_CASE("vap: validationActions give the severity", "[vap]") {
    auto with_actions = [&](const std::string& actions) {
        std::string b = kBinding;
        b.replace(b.find("[Deny]"), 6, actions);
        return run(kPolicy + "---\n" + b + "---\n" + kParams, queue("big", 16));
    };
    auto warn = with_actions("[Warn]");
    REQUIRE(warn.all().size() == 1);
    CHECK(warn.all()[0].severity == Severity::Warning);
    CHECK(warn.all()[0].message.find("Validation failed for ValidatingAdmissionPolicy 'gpu-quota-limit' with binding "
                                     "'gpu-quota-limit-binding': ClusterQueue big") == 0);
    auto audit = with_actions("[Audit]");
    REQUIRE(audit.all().size() == 1);
    CHECK(audit.all()[0].severity == Severity::Note);
    auto both = with_actions("[Warn, Audit]");
    REQUIRE(both.all().size() == 1);
    CHECK(both.all()[0].severity == Severity::Warning);
    auto deny = with_actions("[Audit, Deny]");
    REQUIRE(deny.all().size() == 1);
    CHECK(deny.all()[0].severity == Severity::Error);
    auto bad = with_actions("[Block]");
    CHECK(bad.has_errors());
    CHECK(with_rule(bad, "policy.invalid").size() == 1);
}

TEST_CASE("vap: params by selector, namespaces, and missing params", "[vap]") {
    const std::string selector_binding = yaml(R"Y(
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicyBinding
metadata: {name: by-selector}
spec:
  policyName: gpu-quota-limit
  validationActions: [Deny]
  paramRef:
    namespace: kueue-system
    selector: {matchLabels: {limits: gpu}}
    parameterNotFoundAction: Deny
)Y");
    const std::string params = yaml(R"Y(
apiVersion: v1
kind: ConfigMap
metadata: {name: strict, namespace: kueue-system, labels: {limits: gpu}}
data: {maxGpus: "2"}
---
apiVersion: v1
kind: ConfigMap
metadata: {name: lax, namespace: kueue-system, labels: {limits: gpu}}
data: {maxGpus: "100"}
---
apiVersion: v1
kind: ConfigMap
metadata: {name: other-namespace, namespace: default, labels: {limits: gpu}}
data: {maxGpus: "1"}
)Y");
    // One evaluation per selected param: only "strict" (2) denies 4 GPUs.
    auto d = run(kPolicy + "---\n" + selector_binding + "---\n" + params, queue("mid", 4));
    INFO(dump(d));
    REQUIRE(d.all().size() == 1);
    CHECK(d.all()[0].message.find("more than 2") != std::string::npos);

    // No params found: Deny denies every matched object, Allow lets it pass.
    auto missing = run(kPolicy + "---\n" + kBinding, queue("mid", 4));
    INFO(dump(missing));
    REQUIRE(missing.all().size() == 1);
    CHECK(missing.all()[0].message.find("no params found for binding gpu-quota-limit-binding (ConfigMap gpu-limits)") !=
          std::string::npos);
    std::string allow = kBinding;
    allow.replace(allow.find("parameterNotFoundAction: Deny"), 29, "parameterNotFoundAction: Allow");
    CHECK(run(kPolicy + "---\n" + allow, queue("mid", 4)).empty());

    // A policy with paramKind needs a binding with paramRef.
    std::string no_ref = kBinding.substr(0, kBinding.find("  paramRef"));
    auto nr = run(kPolicy + "---\n" + no_ref + "---\n" + kParams, queue("mid", 4));
    REQUIRE(nr.all().size() == 1);
    CHECK(nr.all()[0].message.find("has paramKind ConfigMap but binding gpu-quota-limit-binding has no paramRef") !=
          std::string::npos);

    // paramRef needs exactly one of name and selector.
    std::string both = kBinding;
    both.replace(both.find("parameterNotFoundAction"), 0, "selector: {}, ");
    CHECK(with_rule(run(kPolicy + "---\n" + both, queue("q", 1)), "policy.invalid").size() == 1);
}

TEST_CASE("vap: a binding without its policy, and a policy without binding", "[vap]") {
    auto orphan = run(kBinding + "---\n" + kParams, queue("big", 16));
    INFO(dump(orphan));
    REQUIRE(orphan.all().size() == 1);
    CHECK(orphan.all()[0].severity == Severity::Warning);
    CHECK(orphan.all()[0].rule == "policy.binding");
    CHECK(orphan.all()[0].file == "vap.yaml");
    CHECK(orphan.all()[0].mark.line == 5);  // spec.policyName
    CHECK(orphan.all()[0].message.find("binds policy \"gpu-quota-limit\", which is not among the --policy inputs") !=
          std::string::npos);

    const std::string unbound = yaml(R"Y(
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata: {name: named-queues}
spec:
  matchConstraints:
    resourceRules: [{apiGroups: [kueue.x-k8s.io], apiVersions: [v1beta2], operations: ["*"], resources: [clusterqueues]}]
  validations:
  - expression: object.metadata.name.startsWith('team-')
)Y");
    auto d = run(unbound, queue("big", 16));
    INFO(dump(d));
    REQUIRE(d.all().size() == 2);
    CHECK(with_rule(d, "policy.binding")[0].severity == Severity::Note);
    auto deny = with_rule(d, "named-queues");
    REQUIRE(deny.size() == 1);
    CHECK(deny[0].severity == Severity::Error);
    CHECK(deny[0].message == "ValidatingAdmissionPolicy 'named-queues' with binding '(none)' denied request: failed "
                             "expression: object.metadata.name.startsWith('team-')");
    // An unbound policy that needs params is not evaluated.
    auto p = run(kPolicy, queue("big", 16));
    CHECK(with_rule(p, "gpu-quota-limit").empty());
    CHECK(with_rule(p, "policy.binding").size() == 1);
}

TEST_CASE("vap: matchConstraints, selectors and the binding's matchResources", "[vap]") {
    const std::string objects = yaml(R"Y(
apiVersion: v1
kind: Namespace
metadata: {name: team-a, labels: {tier: gold}}
---
apiVersion: kueue.x-k8s.io/v1beta2
kind: LocalQueue
metadata: {name: q, namespace: team-a, labels: {app: train}}
spec: {clusterQueue: cq}
---
apiVersion: kueue.x-k8s.io/v1beta2
kind: LocalQueue
metadata: {name: q, namespace: team-b}
spec: {clusterQueue: cq}
---
apiVersion: kueue.x-k8s.io/v1beta2
kind: WorkloadPriorityClass
metadata: {name: high}
value: 100
)Y");
    auto names = [&](const std::string& match, const std::string& binding_match = {}) {
        std::string p = "apiVersion: admissionregistration.k8s.io/v1\nkind: ValidatingAdmissionPolicy\nmetadata: {name: p}\n"
                        "spec:\n  matchConstraints:\n" + match +
                        "  validations: [{expression: 'false', messageExpression: 'object.kind + \"/\" + object.metadata.name'}]\n"
                        "---\napiVersion: admissionregistration.k8s.io/v1\nkind: ValidatingAdmissionPolicyBinding\n"
                        "metadata: {name: b}\nspec:\n  policyName: p\n  validationActions: [Warn]\n" + binding_match;
        auto d = run(p, objects);
        INFO(dump(d));
        CHECK_FALSE(d.has_errors());
        std::vector<std::string> out;
        for (const auto& x : with_rule(d, "p")) out.push_back(x.object.display());
        return out;
    };
    using V = std::vector<std::string>;
    const std::string lqs = "    resourceRules: [{apiGroups: [kueue.x-k8s.io], apiVersions: ['*'], operations: [CREATE], resources: [localqueues]}]\n";
    CHECK(names(lqs) == V{"LocalQueue/team-a/q", "LocalQueue/team-b/q"});
    CHECK(names("    resourceRules: [{apiGroups: ['*'], apiVersions: ['*'], operations: ['*'], resources: [workloadpriorityclasses]}]\n") ==
          V{"WorkloadPriorityClass/high"});
    CHECK(names("    resourceRules: [{apiGroups: [''], apiVersions: [v1], operations: [CREATE], resources: [namespaces]}]\n") ==
          V{"Namespace/team-a"});
    CHECK(names("    resourceRules: [{apiGroups: ['*'], apiVersions: ['*'], operations: ['*'], resources: ['*'], scope: Cluster}]\n") ==
          V{"Namespace/team-a", "WorkloadPriorityClass/high"});
    CHECK(names("    resourceRules: [{apiGroups: ['*'], apiVersions: ['*'], operations: [UPDATE, DELETE], resources: ['*']}]\n").empty());
    CHECK(names("    resourceRules: [{apiGroups: [kueue.x-k8s.io], apiVersions: [v1beta1], operations: ['*'], resources: ['*']}]\n").empty());
    CHECK(names("    resourceRules: [{apiGroups: ['*'], apiVersions: ['*'], operations: ['*'], resources: [localqueues/status]}]\n").empty());
    CHECK(names(lqs + "    namespaceSelector: {matchLabels: {tier: gold}}\n") == V{"LocalQueue/team-a/q"});
    CHECK(names(lqs + "    namespaceSelector: {matchExpressions: [{key: tier, operator: DoesNotExist}]}\n") == V{"LocalQueue/team-b/q"});
    CHECK(names(lqs + "    objectSelector: {matchExpressions: [{key: app, operator: In, values: [train, serve]}]}\n") ==
          V{"LocalQueue/team-a/q"});
    CHECK(names(lqs + "    excludeResourceRules: [{apiGroups: ['*'], apiVersions: ['*'], operations: ['*'], resources: ['*'], resourceNames: [q]}]\n").empty());
    CHECK(names(lqs, "  matchResources: {namespaceSelector: {matchLabels: {tier: gold}}}\n") == V{"LocalQueue/team-a/q"});
    CHECK(names(lqs, "  matchResources:\n    resourceRules: [{apiGroups: ['*'], apiVersions: ['*'], operations: ['*'], resources: [namespaces]}]\n")
              .empty());
}

TEST_CASE("vap: matchConditions, failurePolicy, variables and the CREATE request", "[vap]") {
    auto policy = [](const std::string& failure, const std::string& conditions, const std::string& validation) {
        return "apiVersion: admissionregistration.k8s.io/v1\nkind: ValidatingAdmissionPolicy\nmetadata: {name: p}\nspec:\n"
               "  failurePolicy: " + failure + "\n"
               "  matchConstraints:\n    resourceRules: [{apiGroups: ['*'], apiVersions: ['*'], operations: [CREATE], resources: ['*']}]\n" +
               conditions + "  variables: [{name: ns, expression: 'object.metadata.?namespace.orValue(\"\")'}]\n"
               "  validations:\n  - expression: " + validation + "\n";
    };
    const std::string objects = queue("cq", 1) + "---\napiVersion: kueue.x-k8s.io/v1beta2\nkind: LocalQueue\n"
                                                 "metadata: {name: q, namespace: team-a}\nspec: {clusterQueue: cq}\n"
                                                 "---\napiVersion: v1\nkind: Namespace\nmetadata: {name: team-a, labels: {owner: ml}}\n";
    // The request of a CREATE: no oldObject, operation, resource, namespaceObject when the Namespace is given.
    auto ok = run(policy("Fail", "",
                         "\"oldObject == null && request.operation == 'CREATE' && request.resource.resource in "
                         "['clusterqueues', 'localqueues', 'namespaces'] && request.name == object.metadata.name && "
                         "(variables.ns == '' ? namespaceObject == null : namespaceObject.metadata.labels.owner == 'ml') && "
                         "params == null && request.kind.kind == object.kind\""),
                  objects);
    INFO(dump(ok));
    CHECK(with_rule(ok, "p").empty());

    // matchConditions: all must hold; false skips the object. (They cannot see variables.)
    auto cond = run(policy("Fail", "  matchConditions:\n  - {name: namespaced, expression: \"has(object.metadata.namespace)\"}\n"
                                   "  - {name: notKubeSystem, expression: \"object.metadata.?namespace.orValue('') != 'kube-system'\"}\n",
                           "'false'"),
                    objects);
    INFO(dump(cond));
    REQUIRE(with_rule(cond, "p").size() == 1);
    CHECK(with_rule(cond, "p")[0].object.display() == "LocalQueue/team-a/q");

    // Errors: a finding with failurePolicy Fail, nothing with Ignore.
    auto fail = run(policy("Fail", "", "object.spec.nothing.here"), objects);
    INFO(dump(fail));
    REQUIRE(with_rule(fail, "p").size() == 3);
    CHECK(with_rule(fail, "p")[0].message.find("denied request: expression 'object.spec.nothing.here' resulted in error: no such key") !=
          std::string::npos);
    CHECK(with_rule(run(policy("Ignore", "", "object.spec.nothing.here"), objects), "p").empty());
    auto cond_err = run(policy("Fail", "  matchConditions: [{name: broken, expression: 'object.nope == 1'}]\n", "'true'"), objects);
    REQUIRE(with_rule(cond_err, "p").size() == 3);
    CHECK(with_rule(cond_err, "p")[0].message.find("matchCondition broken resulted in error") != std::string::npos);
    CHECK(with_rule(run(policy("Ignore", "  matchConditions: [{name: broken, expression: 'object.nope == 1'}]\n", "'false'"), objects),
                    "p")
              .empty());
    // matchConditions cannot see variables, not even the previous object's.
    auto stale = run(policy("Fail", "  matchConditions: [{name: usesVariable, expression: \"variables.ns == ''\"}]\n", "'true'"), objects);
    REQUIRE(with_rule(stale, "p").size() == 3);
    for (const auto& f : with_rule(stale, "p")) CHECK(f.message.find("undeclared reference") != std::string::npos);
    // A non-bool validation is an error too.
    auto nonbool = run(policy("Fail", "", "'1'"), objects);
    CHECK(with_rule(nonbool, "p")[0].message.find("expected bool, got int") != std::string::npos);
    // messageExpression falls back to message when it fails or is not one line.
    auto msg = run("apiVersion: admissionregistration.k8s.io/v1\nkind: ValidatingAdmissionPolicy\nmetadata: {name: p}\nspec:\n"
                   "  matchConstraints:\n    resourceRules: [{apiGroups: ['*'], apiVersions: ['*'], operations: [CREATE], resources: [clusterqueues]}]\n"
                   "  validations:\n  - {expression: 'false', message: static, messageExpression: 'object.nope'}\n"
                   "  - {expression: 'false', message: static2, messageExpression: '\"two\\nlines\"'}\n",
                   objects);
    auto m = with_rule(msg, "p");
    REQUIRE(m.size() == 2);
    CHECK(m[0].message.ends_with("denied request: static"));
    CHECK(m[1].message.ends_with("denied request: static2"));
}

TEST_CASE("vap: authorizer is reported as unsupported, bad documents are clear errors", "[vap]") {
    const std::string authz = yaml(R"Y(
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata: {name: authz}
spec:
  matchConstraints:
    resourceRules: [{apiGroups: ['*'], apiVersions: ['*'], operations: [CREATE], resources: ['*']}]
  validations:
  - expression: authorizer.group('kueue.x-k8s.io').resource('clusterqueues').check('create').allowed()
  - expression: "'authorizer' != '' && false"
    message: a string that says authorizer is fine
)Y");
    auto d = run(authz, queue("cq", 1));
    INFO(dump(d));
    auto unsupported = with_rule(d, "policy.unsupported");
    REQUIRE(unsupported.size() == 1);
    CHECK(unsupported[0].mark.line == 8);
    auto found = with_rule(d, "authz");
    REQUIRE(found.size() == 1);  // only the second validation ran
    CHECK(found[0].message.find("a string that says authorizer is fine") != std::string::npos);

    const std::vector<std::pair<std::string, std::string>> bad = {
        {"spec:\n  matchConstraints: {resourceRules: []}\n  validations: [{expression: 'true'}]\n", "resourceRules: required"},
        {"spec:\n  failurePolicy: Sometimes\n  matchConstraints: {resourceRules: [{resources: ['*']}]}\n  validations: [{expression: 'true'}]\n",
         "is not Fail or Ignore"},
        {"spec:\n  matchConstraints: {resourceRules: [{resources: ['*']}]}\n  validations: [{expression: 'true', fieldPath: spec}]\n",
         "unknown field \"fieldPath\""},
        {"spec:\n  matchConstraints: {resourceRules: [{resources: ['*'], operations: [PATCH]}]}\n  validations: [{expression: 'true'}]\n",
         "\"PATCH\" is not CREATE"},
        {"spec:\n  matchConstraints: {resourceRules: [{resources: ['*']}]}\n  validations: [{expression: 'a.('}]\n", "Syntax error"},
        {"spec:\n  matchConstraints: {resourceRules: [{resources: ['*']}], objectSelector: {matchExpressions: [{key: a, operator: In}]}}\n"
         "  validations: [{expression: 'true'}]\n",
         "values: must be non-empty"},
        {"spec:\n  matchConstraints: {resourceRules: [{resources: ['*']}]}\n  validations: [{expression: 'true', reason: Nope}]\n",
         "reason: Unsupported value: \"Nope\""},
        {"spec:\n  matchConstraints: {resourceRules: [{resources: ['*']}]}\n", "at least one validation is required"},
    };
    for (const auto& [spec, message] : bad) {
        const std::string text =
            "apiVersion: admissionregistration.k8s.io/v1\nkind: ValidatingAdmissionPolicy\nmetadata: {name: bad}\n" + spec;
        auto b = run(text, queue("cq", 1));
        INFO(text << dump(b));
        auto errs = with_rule(b, "policy.invalid");
        REQUIRE_FALSE(errs.empty());
        CHECK(errs[0].message.find(message) != std::string::npos);
        CHECK(errs[0].mark.known());
        CHECK(with_rule(b, "bad").empty());
    }
    auto dup = run(authz + "---\n" + authz, queue("cq", 1));
    CHECK(with_rule(dup, "policy.invalid").size() == 1);
}

TEST_CASE("vap: validate --policy with a folder of VAPs, bindings and params", "[vap]") {
    qf_test::TempDir tmp;
    qf_test::write_text(tmp.path / "vap/policy.yaml", kPolicy);
    qf_test::write_text(tmp.path / "vap/binding.yaml", kBinding);
    qf_test::write_text(tmp.path / "vap/params.yaml", kParams);
    qf_test::write_text(tmp.path / "queues.yaml", queue("big", 16) + "---\n" + queue("small", 2) +
                                                      "---\napiVersion: kueue.x-k8s.io/v1beta2\nkind: ResourceFlavor\nmetadata: {name: h100}\n");
    const std::string args = " --disable default-local-queue --policy " + shell_quote((tmp.path / "vap").string()) + " " +
                             shell_quote((tmp.path / "queues.yaml").string());
    auto r = run_cli("validate" + args);
    INFO(r.out << r.err);
    CHECK(r.exit == 1);
    CHECK(r.out.find("queues.yaml:1:1: error: ValidatingAdmissionPolicy 'gpu-quota-limit'") != std::string::npos);
    CHECK(r.out.find("denied request: ClusterQueue big has 16 GPUs, more than 8 (reason: Forbidden) [gpu-quota-limit]") !=
          std::string::npos);
    CHECK(r.out.find("ClusterQueue small has") == std::string::npos);
    auto off = run_cli("validate --disable gpu-quota-limit" + args);
    INFO(off.out << off.err);
    CHECK(off.exit == 0);
}

TEST_CASE("vap: objects, selectors and namespaces are seen with the API server's defaults", "[vap]") {
    const std::string job = yaml(R"Y(
apiVersion: batch/v1
kind: Job
metadata: {name: train, namespace: team-a}
spec:
  template:
    metadata: {labels: {app: train}}
    spec:
      restartPolicy: Never
      containers: [{name: c, image: busybox}]
)Y");
    auto evaluate = [&](const std::string& selectors, const std::string& expression, const std::string& extra = {}) {
        const std::string p =
            "apiVersion: admissionregistration.k8s.io/v1\nkind: ValidatingAdmissionPolicy\nmetadata: {name: p}\nspec:\n"
            "  matchConstraints:\n    resourceRules: [{apiGroups: [batch], apiVersions: [v1], operations: [CREATE], "
            "resources: [jobs]}]\n  validations: [{expression: \"" + expression + "\"}]\n---\n"
            "apiVersion: admissionregistration.k8s.io/v1\nkind: ValidatingAdmissionPolicyBinding\nmetadata: {name: b}\n"
            "spec:\n  policyName: p\n  validationActions: [Deny]\n  matchResources:\n" + selectors;
        auto d = run(p, job + extra);
        INFO(dump(d));
        CHECK_FALSE(with_rule(d, "policy.invalid").size());
        return with_rule(d, "p").size();
    };
    // Every namespace carries kubernetes.io/metadata.name, also when its
    // Namespace object is not among the inputs.
    CHECK(evaluate("    namespaceSelector: {matchLabels: {kubernetes.io/metadata.name: team-a}}\n", "false") == 1);
    CHECK(evaluate("    namespaceSelector: {matchLabels: {kubernetes.io/metadata.name: team-b}}\n", "false") == 0);
    // The Job has no labels of its own: the API server copies its template's.
    CHECK(evaluate("    objectSelector: {matchLabels: {app: train}}\n", "false") == 1);
    CHECK(evaluate("    objectSelector: {matchLabels: {app: train}}\n", "object.metadata.labels.app == 'train'") == 0);
    // The defaults a policy may observe on a Job and its containers.
    CHECK(evaluate("    objectSelector: {}\n",
                   "object.spec.suspend == false && object.spec.backoffLimit == 6 && object.spec.completions == 1 && "
                   "object.spec.completionMode == 'NonIndexed' && object.spec.template.spec.dnsPolicy == 'ClusterFirst' && "
                   "object.spec.template.spec.schedulerName == 'default-scheduler' && "
                   "object.spec.template.spec.containers.all(c, c.resources == {} && c.imagePullPolicy == 'Always' && "
                   "c.terminationMessagePolicy == 'File')") == 0);
    // namespaceObject is the Namespace as stored: with its name label and phase.
    const std::string ns = "---\napiVersion: v1\nkind: Namespace\nmetadata: {name: team-a}\n";
    CHECK(evaluate("    objectSelector: {}\n",
                   "namespaceObject.metadata.labels['kubernetes.io/metadata.name'] == 'team-a' && "
                   "namespaceObject.status.phase == 'Active'",
                   ns) == 0);

    // queueforge's own Policies keep judging the manifest as written.
    const std::string own = yaml(R"Y(
apiVersion: queueforge.io/v1alpha1
kind: Policy
metadata: {name: as-written}
spec:
  severity: error
  description: the manifest says nothing about suspend
  match: {kinds: [{group: batch, kinds: [Job]}]}
  validations: [{expression: "has(object.spec.suspend)"}]
)Y");
    auto d = run(own, job);
    INFO(dump(d));
    CHECK(with_rule(d, "as-written").size() == 1);
}
