// Tests for compiler/checks/policy with queueforge's own Policy documents: the
// shipped policies against their fixtures (tests/fixtures/policies/<id>/
// pass.yaml and fail.yaml), the format's semantics (scopes, violations,
// params, targets, replaces), bad policies (clear errors at the policy file's
// line:col, never a crash), runtime errors and the cost limit, and the CLI.
#include "policy_util.hpp"
#include "test_util.hpp"

#include "checks/policy/expr_position.hpp"
#include "checks/policy/model.hpp"
#include "checks/policy/target_range.hpp"

#include <queueforge/checks/policy.hpp>
#include <queueforge/frontend/manifests.hpp>
#include <queueforge/frontend/platform.hpp>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

using namespace queueforge;
using qf_test::run_cli;
using qf_test::shell_quote;

namespace {

namespace fs = std::filesystem;

// Raw string literals start with a newline after R"( ; drop it so line 1 is the first line.
std::string yaml(const char* text) {
    std::string s = text;
    if (!s.empty() && s.front() == '\n') s.erase(0, 1);
    return s;
}

std::optional<Target> target(const std::string& name) {
    if (name.empty()) return std::nullopt;
    auto t = find_target(name);
    REQUIRE(t.target);
    return t.target;
}

// Loads user policies from text (no built-ins) and evaluates them over objects.
Diagnostics run(const std::string& policies, const std::string& objects, const std::string& target_name = {},
                policy::Options opts = {}) {
    return qf_test::run_policies("policy.yaml", policies, objects, target(target_name), opts);
}

using qf_test::with_rule;

std::string dump(const Diagnostics& d) {
    std::string s;
    for (const auto& x : d.all())
        s += x.file + ":" + std::to_string(x.mark.line) + ":" + std::to_string(x.mark.col) + ": " +
             severity_name(x.severity) + ": " + x.message + " [" + x.rule + "] " + x.object.display() + " " + x.path + "\n";
    return s;
}

// A minimal policy around one validation.
std::string policy_doc(const std::string& id, const std::string& spec) {
    return "apiVersion: queueforge.io/v1alpha1\nkind: Policy\nmetadata: {name: " + id + "}\nspec:\n" + spec;
}

const std::string kQueue = yaml(R"Y(
apiVersion: kueue.x-k8s.io/v1beta2
kind: ClusterQueue
metadata: {name: team-a}
spec:
  namespaceSelector: {}
  resourceGroups:
  - coveredResources: [cpu]
    flavors:
    - name: default-flavor
      resources:
      - {name: cpu, nominalQuota: "8", borrowingLimit: "2"}
)Y");

const std::vector<std::string> kShipped = {
    "borrowing-within-nominal",   "cluster-queue-namespace-selector", "default-local-queue",
    "gpu-flavors-tainted",        "priority-class-range",             "quota-within-capacity",
    "rhoai-empty-flavors",        "rhoai-no-shared-cohorts",          "rhoai-single-cluster-queue",
};

}  // namespace

TEST_CASE("policy: the built-in policies load cleanly and are the documented set", "[policy]") {
    Diagnostics d;
    auto set = policy::load_policies({}, d);
    INFO(dump(d));
    CHECK(d.empty());
    CHECK(set.ids() == kShipped);
    auto replaced = set.replaced_rules();
    CHECK(replaced == std::vector<std::string>{"target.support", "xref.no-namespace-selector", "xref.overcommit"});
    // Every shipped file is documented in policies/README.md.
    const std::string readme = qf_test::read_text(qf_test::source_dir() / "policies/README.md");
    for (const auto& id : kShipped) CHECK(readme.find("`" + id + "`") != std::string::npos);
}

TEST_CASE("policy: every shipped policy passes its pass fixture and fires on its fail fixture", "[policy]") {
    Diagnostics load_diags;
    auto set = policy::load_policies({}, load_diags);
    REQUIRE(load_diags.empty());
    const fs::path dir = qf_test::source_dir() / "tests/fixtures/policies";
    for (const auto& id : kShipped) {
        for (const std::string kind : {"pass", "fail"}) {
            const fs::path file = dir / id / (kind + ".yaml");
            INFO(file.string());
            REQUIRE(fs::exists(file));
            const std::string text = qf_test::read_text(file);
            // "# target: rhoai-2.10" on the first line names the cluster's target.
            std::string t;
            if (text.starts_with("# target: ")) t = text.substr(10, text.find('\n') - 10);
            LoadedResources in;
            Diagnostics d;
            load_resources_from_text(file.string(), text, in, d);
            REQUIRE(d.empty());
            policy::evaluate(set, in.resources, target(t), {}, d);
            INFO(dump(d));
            auto mine = with_rule(d, id);
            if (kind == "pass") {
                CHECK(mine.empty());
            } else {
                REQUIRE_FALSE(mine.empty());
                for (const auto& f : mine) {
                    CHECK(f.mark.known());
                    CHECK_FALSE(f.object.empty());
                    CHECK(f.message.find("could not be evaluated") == std::string::npos);
                }
            }
            // No shipped policy may fail to evaluate on its fixtures.
            for (const auto& x : d.all()) CHECK(x.message.find("could not be evaluated") == std::string::npos);
        }
    }
}

TEST_CASE("policy: shipped policies point at the right object and field", "[policy]") {
    Diagnostics ld;
    auto set = policy::load_policies({}, ld);
    auto eval = [&](const std::string& fixture, const std::string& t = {}) {
        const fs::path file = qf_test::source_dir() / "tests/fixtures/policies" / fixture;
        LoadedResources in;
        Diagnostics d;
        load_resources_from_text("f.yaml", qf_test::read_text(file), in, d);
        policy::evaluate(set, in.resources, target(t), {}, d);
        return d;
    };
    auto b = with_rule(eval("borrowing-within-nominal/fail.yaml"), "borrowing-within-nominal");
    REQUIRE(b.size() == 1);
    CHECK(b[0].path == "spec.resourceGroups[0].flavors[0].resources[1].borrowingLimit");
    CHECK(b[0].mark.line == 13);
    CHECK(b[0].message == "ClusterQueue team-a, flavor h100: borrowingLimit of nvidia.com/gpu (16) is above 1 x its nominalQuota (8)");

    auto s = with_rule(eval("rhoai-single-cluster-queue/fail.yaml", "rhoai-2.10"), "rhoai-single-cluster-queue");
    REQUIRE(s.size() == 1);
    CHECK(s[0].object.name == "team-b");
    CHECK(s[0].message.find("supports only a single ClusterQueue per cluster; the input has 2, and team-b is one beyond the first (team-a)") !=
          std::string::npos);

    auto c = with_rule(eval("rhoai-no-shared-cohorts/fail.yaml", "rhoai-2.19"), "rhoai-no-shared-cohorts");
    REQUIRE(c.size() == 1);
    CHECK(c[0].severity == Severity::Note);
    CHECK(c[0].object.name == "team-a");
    CHECK(c[0].message == "cohort research is shared by ClusterQueues team-a, team-b; Red Hat does not support shared "
                          "cohorts on OpenShift AI 2.19");

    auto q = with_rule(eval("quota-within-capacity/fail.yaml"), "quota-within-capacity");
    REQUIRE(q.size() == 1);
    CHECK(q[0].object.kind == "ResourceFlavor");
    CHECK(q[0].message.find("nominalQuota of nvidia.com/gpu in flavor h100 (ClusterQueue/team-a 8, ClusterQueue/team-b 4) "
                            "adds up to more than the 1 Node(s) matching its nodeLabels allocate (gpu-1 8)") == 0);

    auto g = with_rule(eval("gpu-flavors-tainted/fail.yaml"), "gpu-flavors-tainted");
    REQUIRE(g.size() == 1);
    CHECK(g[0].path == "spec.nodeLabels");
    CHECK(g[0].mark.line == 5);

    auto p = with_rule(eval("priority-class-range/fail.yaml"), "priority-class-range");
    REQUIRE(p.size() == 1);
    CHECK(p[0].mark.line == 4);
    CHECK(p[0].message == "WorkloadPriorityClass critical has value 2000000000, outside the allowed range [0, 1000000000]");

    auto n = with_rule(eval("default-local-queue/fail.yaml"), "default-local-queue");
    REQUIRE(n.size() == 1);
    CHECK(n[0].object.display() == "Namespace/team-a");
}

TEST_CASE("policy: the support policies' target ranges agree with the target matrix", "[policy]") {
    Diagnostics d;
    auto set = policy::load_policies({}, d);
    const policy::Policy* single = nullptr;
    const policy::Policy* empty = nullptr;
    const policy::Policy* cohorts = nullptr;
    for (const auto& p : set.data().policies) {
        if (p.id == "rhoai-single-cluster-queue") single = &p;
        if (p.id == "rhoai-empty-flavors") empty = &p;
        if (p.id == "rhoai-no-shared-cohorts") cohorts = &p;
    }
    REQUIRE((single && empty && cohorts));
    std::vector<std::string> names = supported_targets();
    for (const std::string extra : {"rhoai-2.11", "rhoai-2.15", "rhoai-2.17", "rhoai-2.21", "kueue-0.9", "kubernetes"})
        names.push_back(extra);
    for (const auto& name : names) {
        auto t = find_target(name);
        if (!t.target) continue;
        INFO(name);
        CHECK(single->targets->matches(*t.target) == t.target->single_cluster_queue);
        CHECK(empty->targets->matches(*t.target) == t.target->single_cluster_queue);
        CHECK(cohorts->targets->matches(*t.target) == !t.target->shared_cohorts_supported);
    }
}

TEST_CASE("policy: target ranges", "[policy]") {
    auto matches = [](const std::string& range, const std::string& t) {
        std::string error;
        auto r = policy::parse_target_range(range, error);
        INFO(range << ": " << error);
        REQUIRE(r);
        return r->matches(*find_target(t).target);
    };
    CHECK(matches(">=rhoai-2.16 <rhoai-3.0", "rhoai-2.25"));
    CHECK_FALSE(matches(">=rhoai-2.16 <rhoai-3.0", "rhoai-3.0"));
    CHECK_FALSE(matches(">=rhoai-2.16 <rhoai-3.0", "kueue-0.13"));  // not OpenShift AI at all
    CHECK(matches("rhoai-2.10", "rhoai-2.10"));
    CHECK(matches("<=rhoai-2.16", "rhoai-2.16"));
    CHECK(matches("kubernetes || >=rhoai-3.0", "kueue-0.13"));
    CHECK(matches("kubernetes || >=rhoai-3.0", "rhoai-3.5"));
    CHECK_FALSE(matches("kubernetes || >=rhoai-3.0", "rhoai-2.25"));
    CHECK(matches(">=kueue-0.11", "rhoai-2.25"));  // Kueue 0.11.6 embedded
    CHECK(matches(">kueue-0.10", "rhoai-2.25"));
    CHECK(matches("!=rhoai-2.10", "kubernetes"));
    CHECK(matches("rhoai", "rhoai-2.16"));
    CHECK_FALSE(matches("rhoai", "kubernetes"));
    CHECK(matches("openshift-ai-2.16", "rhoai-2.16"));
    for (const std::string bad : {"", ">=", "rhoai-x", "ocp-4.14", ">rhoai", "rhoai-2.16 ||"}) {
        std::string error;
        INFO(bad);
        CHECK_FALSE(policy::parse_target_range(bad, error));
        CHECK_FALSE(error.empty());
    }
}

TEST_CASE("policy: object scope, variables, params and messages", "[policy]") {
    const std::string p = policy_doc("cpu-cap", yaml(R"Y(
  severity: warning
  match:
    kinds: [{group: kueue.x-k8s.io, kinds: [ClusterQueue]}]
  params: {maxCpu: 4}
  variables:
  - name: cpu
    expression: object.spec.resourceGroups[0].flavors[0].resources[0]
  - name: amount
    expression: int(variables.cpu.nominalQuota)
  validations:
  - expression: variables.amount <= params.maxCpu
    messageExpression: "'cpu quota ' + string(variables.amount) + ' is above ' + string(params.maxCpu)"
    fieldPath: spec.resourceGroups[0].flavors[0].resources[0].nominalQuota
  - expression: "true"
    message: never shown
)Y"));
    auto d = run(p, kQueue);
    INFO(dump(d));
    REQUIRE(d.all().size() == 1);
    const auto& f = d.all()[0];
    CHECK(f.severity == Severity::Warning);
    CHECK(f.rule == "cpu-cap");
    CHECK(f.message == "cpu quota 8 is above 4");
    CHECK(f.file == "objects.yaml");
    CHECK(f.mark.line == 11);
    CHECK(f.mark.col == 35);  // the opening quote
    CHECK(f.object.display() == "ClusterQueue/team-a");
    CHECK(f.path == "spec.resourceGroups[0].flavors[0].resources[0].nominalQuota");

    // Kinds that do not match are not evaluated; apiVersion/kind matches pin the version.
    CHECK(run(policy_doc("x", "  severity: error\n  match: {kinds: [{group: kueue.x-k8s.io, kinds: [LocalQueue]}]}\n"
                              "  validations: [{expression: 'false'}]\n"),
              kQueue)
              .empty());
    auto pinned = run(policy_doc("x", "  severity: error\n  match: {kinds: [{apiVersion: kueue.x-k8s.io/v1beta2, kind: ClusterQueue}]}\n"
                                      "  validations: [{expression: 'false', message: m}]\n"),
                      kQueue);
    CHECK(pinned.all().size() == 1);
    CHECK(run(policy_doc("x", "  severity: error\n  match: {kinds: [{apiVersion: kueue.x-k8s.io/v1beta1, kind: ClusterQueue}]}\n"
                              "  validations: [{expression: 'false'}]\n"),
              kQueue)
              .empty());
    // Without match every object is matched; the description is the default message.
    auto all = run(policy_doc("x", "  severity: note\n  description: says no\n  validations: [{expression: 'false'}]\n"), kQueue);
    REQUIRE(all.all().size() == 1);
    CHECK(all.all()[0].message == "says no");
    CHECK(all.all()[0].severity == Severity::Note);
}

TEST_CASE("policy: validations may return violation lists", "[policy]") {
    const std::string objects = kQueue + "---\n" + yaml(R"Y(
apiVersion: kueue.x-k8s.io/v1beta2
kind: LocalQueue
metadata: {name: q, namespace: team-a}
spec: {clusterQueue: team-b}
)Y");
    // Set scope: objects returned are the findings' objects; messageExpression sees each as `object`.
    const std::string set = policy_doc("lq-target", yaml(R"Y(
  severity: error
  match: {kinds: [{group: kueue.x-k8s.io, kinds: [LocalQueue]}]}
  scope: set
  variables:
  - name: queues
    expression: objects.filter(o, o.kind == 'ClusterQueue').map(o, o.metadata.name)
  validations:
  - expression: objects.filter(o, o.kind == 'LocalQueue' && !(o.spec.clusterQueue in variables.queues))
    messageExpression: "'LocalQueue ' + object.metadata.name + ' names missing ClusterQueue ' + object.spec.clusterQueue"
    fieldPath: spec.clusterQueue
)Y"));
    auto d = run(set, objects);
    INFO(dump(d));
    REQUIRE(d.all().size() == 1);
    CHECK(d.all()[0].object.display() == "LocalQueue/team-a/q");
    CHECK(d.all()[0].message == "LocalQueue q names missing ClusterQueue team-b");
    CHECK(d.all()[0].mark.line == 16);
    CHECK(d.all()[0].mark.col == 22);

    // Strings, maps with fieldPath/object and nested lists; identical findings once.
    const std::string shapes = policy_doc("shapes", yaml(R"Y(
  severity: warning
  match: {kinds: [{group: kueue.x-k8s.io, kinds: [ClusterQueue]}]}
  validations:
  - expression: >-
      ['plain message', ['nested', ['deeper']],
       {'message': 'with path', 'fieldPath': 'spec.namespaceSelector'},
       {'message': 'dup'}, {'message': 'dup'}]
  - expression: "[]"
    message: an empty list is a pass
)Y"));
    auto s = run(shapes, objects);
    INFO(dump(s));
    REQUIRE(s.all().size() == 5);
    CHECK(s.all()[0].message == "plain message");
    CHECK(s.all()[1].message == "nested");
    CHECK(s.all()[2].message == "deeper");
    CHECK(s.all()[3].message == "with path");
    CHECK(s.all()[3].path == "spec.namespaceSelector");
    CHECK(s.all()[3].mark.line == 5);
    CHECK(s.all()[4].message == "dup");

    // Set scope returning false: one finding at the first matching object.
    auto f = run(policy_doc("never", "  severity: error\n  scope: set\n  match: {kinds: [{group: kueue.x-k8s.io, kinds: [LocalQueue]}]}\n"
                                     "  validations: [{expression: 'size(objects) > 5', message: too few objects}]\n"),
                 objects);
    REQUIRE(f.all().size() == 1);
    CHECK(f.all()[0].object.kind == "LocalQueue");
    CHECK(f.all()[0].message == "too few objects");

    // Wrong shapes are evaluation findings, not crashes.
    for (const std::string bad : {"1", "'text'", "[1]", "[{'colour': 'red'}]", "[{'kind': 'X', 'metadata': {'name': 'nope'}}]",
                                  "[{'object': {'kind': 'X', 'metadata': {'name': 'nope'}}}]", "[{'message': 1}]"}) {
        auto b = run(policy_doc("bad", "  severity: error\n  validations: [{expression: \"" + bad + "\"}]\n"), kQueue);
        INFO(bad << "\n" << dump(b));
        REQUIRE(b.all().size() == 1);
        CHECK(b.all()[0].message.find("could not be evaluated") != std::string::npos);
    }
}

TEST_CASE("policy: match.targets and the `target` variable", "[policy]") {
    const std::string p = policy_doc("t", yaml(R"Y(
  severity: note
  match: {targets: ">=rhoai-2.16 <rhoai-3.0"}
  validations:
  - expression: "false"
    messageExpression: "target.name + ' ' + target.openshiftAI + ' kueue ' + target.kueue + ' ' + target.kueueApiVersion + ' ' + string(target.sharedCohortsSupported)"
)Y"));
    CHECK(run(p, kQueue).empty());                  // no target: skipped
    CHECK(run(p, kQueue, "rhoai-3.0").empty());     // out of range
    auto d = run(p, kQueue, "rhoai-2.19");
    REQUIRE(d.all().size() == 1);
    CHECK(d.all()[0].message == "rhoai-2.19 2.19 kueue 0.10.1 kueue.x-k8s.io/v1beta1 false");
    // Without a target, `target` is null.
    auto n = run(policy_doc("n", "  severity: note\n  validations: [{expression: 'target == null', message: x}]\n"), kQueue);
    CHECK(n.empty());
}

TEST_CASE("policy: matchConditions select objects, their errors are findings", "[policy]") {
    const std::string objects = kQueue + "---\n" +
                                "apiVersion: kueue.x-k8s.io/v1beta2\nkind: ResourceFlavor\nmetadata: {name: default-flavor}\n";
    auto d = run(policy_doc("c", yaml(R"Y(
  severity: error
  matchConditions:
  - name: onlyFlavors
    expression: object.kind == 'ResourceFlavor'
  validations: [{expression: 'false', message: flavor}]
)Y")),
                 objects);
    REQUIRE(d.all().size() == 1);
    CHECK(d.all()[0].object.kind == "ResourceFlavor");
    auto e = run(policy_doc("c", "  severity: error\n  matchConditions: [{name: broken, expression: 'object.nope'}]\n"
                                 "  validations: [{expression: 'false'}]\n"),
                 kQueue);
    REQUIRE(e.all().size() == 1);
    INFO(dump(e));
    CHECK(e.all()[0].message.find("matchCondition broken could not be evaluated: no such key") != std::string::npos);
}

TEST_CASE("policy: runtime errors in a rule are findings, never crashes", "[policy]") {
    for (const std::string expr : {"object.spec.missing.field", "1 / 0 == 1", "int('x') > 0", "object.metadata.name + 1 == ''",
                                   "object.spec.resourceGroups[7].flavors.size() > 0", "variables.undefined",
                                   "quantity('not a quantity').isInteger()", "'%d'.format(['x']) == ''"}) {
        auto d = run(policy_doc("rt", "  severity: warning\n  validations: [{expression: \"" + expr + "\"}]\n"), kQueue);
        INFO(expr << "\n" << dump(d));
        REQUIRE(d.all().size() == 1);
        CHECK(d.all()[0].severity == Severity::Warning);
        CHECK(d.all()[0].rule == "rt");
        CHECK(d.all()[0].message.find("could not be evaluated") != std::string::npos);
        CHECK(d.all()[0].object.name == "team-a");
    }
    // A variable that fails only matters where it is used.
    auto v = run(policy_doc("v", "  severity: warning\n  variables: [{name: bad, expression: '1 / 0'}]\n"
                                 "  validations: [{expression: 'true || variables.bad == 1'}]\n"),
                 kQueue);
    CHECK(v.empty());
}

TEST_CASE("policy: huge lists and the cost limit", "[policy]") {
    // One object with 100,000 list items.
    std::string big = "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: big, namespace: x}\ndata:\n  items: [";
    for (int i = 0; i < 100000; ++i) big += (i ? "," : "") + std::to_string(i);
    big += "]\n";
    // Linear work over it stays within the default budget...
    auto ok = run(policy_doc("sum", "  severity: error\n  validations: [{expression: 'object.data.items.all(i, i >= 0)'}]\n"), big);
    INFO(dump(ok));
    CHECK(ok.empty());
    // ...quadratic work does not, and says so.
    auto slow = run(policy_doc("quad", "  severity: error\n  validations: [{expression: "
                                       "'object.data.items.all(i, object.data.items.exists(j, j == i))'}]\n"),
                    big);
    INFO(dump(slow));
    REQUIRE(slow.all().size() == 1);
    CHECK(slow.all()[0].message.find("cost limit exceeded") != std::string::npos);
    // The limit is configurable.
    policy::Options tight;
    tight.cost_limit = 100;
    auto t = run(policy_doc("sum", "  severity: error\n  validations: [{expression: 'object.data.items.all(i, i >= 0)'}]\n"), big,
                 {}, tight);
    REQUIRE(t.all().size() == 1);
    CHECK(t.all()[0].message.find("cost limit exceeded") != std::string::npos);

    // Many objects in set scope: the budget grows with the input.
    std::string many;
    for (int i = 0; i < 5000; ++i)
        many += "---\napiVersion: kueue.x-k8s.io/v1beta2\nkind: ResourceFlavor\nmetadata: {name: f" + std::to_string(i) + "}\n";
    auto s = run(policy_doc("set", "  severity: error\n  scope: set\n  validations: [{expression: "
                                   "'objects.map(o, o.metadata.name).all(n, n.startsWith(\"f\"))'}]\n"),
                 many);
    INFO(dump(s));
    CHECK(s.empty());
}

TEST_CASE("policy: invalid policies are clear errors at the policy file's line:col", "[policy]") {
    struct Case {
        std::string spec;
        int line, col;
        std::string message;
    };
    // Line 5 is the first line of spec (after apiVersion, kind, metadata, spec:).
    const std::vector<Case> cases = {
        {"  severity: error\n  validations:\n  - expression: object.name +\n", 7, 30, "expected expression"},
        {"  severity: error\n  validations:\n  - expression: \"object.x.exists(x,\"\n", 7, 36, "spec.validations[0].expression"},
        {"  severity: error\n  validations:\n  - expression: |\n      object.a &&\n        object.b ]\n", 9, 18, "Syntax error"},
        {"  severity: error\n  validations:\n  - expression: >-\n      object.a &&\n      object.b ]\n", 9, 16, "Syntax error"},
        {"  severity: error\n  validations:\n  - expression: 'x'\n    messageExpression: \"'a' + \"\n", 8, 31,
         "spec.validations[0].messageExpression"},
        {"  severity: error\n  valdations: []\n", 6, 3, "unknown field \"valdations\"; did you mean \"validations\"?"},
        {"  severity: error\n", 5, 3, "spec.validations: at least one validation is required"},
        {"  severity: error\n  validations: []\n", 5, 3, "at least one validation is required"},
        {"  severity: fatal\n  validations: [{expression: 'true'}]\n", 5, 13, "\"fatal\" is not error, warning or note"},
        {"  severity: error\n  scope: cluster\n  validations: [{expression: 'true'}]\n", 6, 10, "is not object or set"},
        {"  severity: error\n  match: {targets: '>=rhoai-two'}\n  validations: [{expression: 'true'}]\n", 6, 20,
         "spec.match.targets"},
        {"  severity: error\n  match: {kinds: [{group: g, kind: K}]}\n  validations: [{expression: 'true'}]\n", 6, 19,
         "give group/kinds or apiVersion/kind, not both"},
        {"  severity: error\n  variables: [{name: a-b, expression: '1'}]\n  validations: [{expression: 'true'}]\n", 6, 22,
         "is not a CEL identifier"},
        {"  severity: error\n  validations: [{expression: 'true', mesage: x}]\n", 6, 38, "unknown field \"mesage\"; did you mean \"message\"?"},
        {"  validations: [{expression: 'true'}]\n", 5, 3, "spec: severity is required"},
        {"  severity: error\n  params: [1]\n  validations: [{expression: 'true'}]\n", 6, 11, "spec.params: expected a map"},
    };
    for (const auto& c : cases) {
        Diagnostics d;
        const std::string text = policy_doc("broken", c.spec);
        INFO(text);
        auto set = policy::load_policies_from_text("p.yaml", text, {.no_builtin = true}, d);
        INFO(dump(d));
        CHECK(set.ids().empty());
        REQUIRE(d.has_errors());
        bool found = false;
        for (const auto& x : d.all())
            if (x.message.find(c.message) != std::string::npos) {
                found = true;
                CHECK(x.file == "p.yaml");
                CHECK(x.rule == "policy.invalid");
                CHECK(x.mark.line == c.line);
                CHECK(x.mark.col == c.col);
            }
        CHECK(found);
    }
    // No metadata: one error, about that.
    {
        Diagnostics d;
        policy::load_policies_from_text("p.yaml", "apiVersion: queueforge.io/v1alpha1\nkind: Policy\nspec:\n  severity: error\n"
                                                  "  validations: [{expression: 'true'}]\n",
                                        {.no_builtin = true}, d);
        INFO(dump(d));
        REQUIRE(d.all().size() == 1);
        CHECK(d.all()[0].message == "Policy: metadata.name is required (the policy id)");
    }
    // Other broken documents.
    for (const std::string text : {"apiVersion: queueforge.io/v1alpha1\nkind: Policy\nmetadata: {name: Bad_Id}\nspec: {}\n",
                                   "apiVersion: queueforge.io/v1alpha1\nkind: Policy\nmetadata: {name: a}\n",
                                   "apiVersion: queueforge.io/v1alpha1\nkind: Polcy\nmetadata: {name: a}\n",
                                   "apiVersion: queueforge.io/v1alpha1\nkind: Policy\nmetadata: {name: a}\nspec: 7\n",
                                   "apiVersion: queueforge.io/v1alpha1\nkind: Policy\nmetadata: [a]\nspec: {}\n",
                                   "- just a list\n", "{{{{", "apiVersion: queueforge.io/v1alpha1\nkind: Policy\n"}) {
        Diagnostics d;
        INFO(text);
        auto set = policy::load_policies_from_text("p.yaml", text, {.no_builtin = true}, d);
        CHECK(set.ids().empty());
        CHECK(d.has_errors());
    }
}

TEST_CASE("policy: expression positions in every scalar style", "[policy]") {
    const std::string src = "a: plain + x\nb: \"quoted\"\nc: |\n  l1\n    l2 here\nd: >-\n  f1\n  f2 here\n";
    using policy::position_in_scalar;
    CHECK(position_in_scalar(src, {1, 4}, 1, 7) == Mark{1, 10});
    CHECK(position_in_scalar(src, {2, 4}, 1, 3) == Mark{2, 7});
    CHECK(position_in_scalar(src, {3, 4}, 2, 4) == Mark{5, 6});
    CHECK(position_in_scalar(src, {6, 4}, 1, 4) == Mark{8, 3});   // "f1 f2 here": col 4 is f2's 'f'
    CHECK(position_in_scalar(src, {6, 4}, 1, 7) == Mark{8, 6});
    CHECK(position_in_scalar(src, {6, 4}, 9, 9) == Mark{6, 4});   // beyond the text: the scalar
    CHECK(position_in_scalar("", {3, 3}, 1, 1) == Mark{3, 3});
    CHECK(position_in_scalar(src, {}, 1, 1) == Mark{});
}

TEST_CASE("policy: PolicyConfig, --disable and overriding a built-in", "[policy]") {
    const std::string cfg = yaml(R"Y(
apiVersion: queueforge.io/v1alpha1
kind: PolicyConfig
metadata: {name: tighter}
spec:
  policy: borrowing-within-nominal
  severity: error
  params: {maxBorrowingRatio: 0.1, maxBorowingRatio: 2}
---
apiVersion: queueforge.io/v1alpha1
kind: PolicyConfig
metadata: {name: stray}
spec: {policy: no-such-policy}
)Y");
    qf_test::TempDir tmp;
    qf_test::write_text(tmp.path / "cfg.yaml", cfg);
    Diagnostics d;
    auto set = policy::load_policies({.paths = {(tmp.path / "cfg.yaml").string()}}, d);
    INFO(dump(d));
    CHECK(d.count(Severity::Error) == 0);
    CHECK(with_rule(d, "policy.unknown-param").size() == 1);
    CHECK(with_rule(d, "policy.unknown-param")[0].message.find("did you mean \"maxBorrowingRatio\"") != std::string::npos);
    CHECK(with_rule(d, "policy.unknown-id").size() == 1);
    LoadedResources in;
    load_resources_from_text("q.yaml", kQueue, in, d);
    Diagnostics out;
    policy::evaluate(set, in.resources, std::nullopt, {}, out);
    auto b = with_rule(out, "borrowing-within-nominal");
    REQUIRE(b.size() == 1);  // 2 > 0.1 x 8
    CHECK(b[0].severity == Severity::Error);
    CHECK(b[0].message.find("is above 0.1 x its nominalQuota (8)") != std::string::npos);

    // --disable drops a policy; an unknown id is a warning with a suggestion.
    Diagnostics d2;
    auto less = policy::load_policies({.disabled = {"borrowing-within-nominal", "gpu-flavours-tainted"}}, d2);
    const auto ids = less.ids();
    CHECK(std::find(ids.begin(), ids.end(), "borrowing-within-nominal") == ids.end());
    CHECK(ids.size() == kShipped.size() - 1);
    REQUIRE(with_rule(d2, "policy.unknown-id").size() == 1);
    CHECK(with_rule(d2, "policy.unknown-id")[0].message.find("did you mean \"gpu-flavors-tainted\"") != std::string::npos);
    // A disabled policy still replaces the compiler's findings it restates.
    CHECK(policy::load_policies({.disabled = {"cluster-queue-namespace-selector"}}, d2).replaced_rules().size() == 3);

    // A user policy with a built-in's id replaces the built-in; two user ones clash.
    qf_test::write_text(tmp.path / "mine/p.yaml",
                        policy_doc("priority-class-range", "  severity: error\n  validations: [{expression: 'false', message: mine}]\n"));
    Diagnostics d3;
    auto over = policy::load_policies({.paths = {(tmp.path / "mine").string()}}, d3);
    CHECK(d3.empty());
    for (const auto& p : over.data().policies)
        if (p.id == "priority-class-range") CHECK_FALSE(p.builtin);
    qf_test::write_text(tmp.path / "mine/q.yaml",
                        policy_doc("priority-class-range", "  severity: error\n  validations: [{expression: 'true'}]\n"));
    Diagnostics d4;
    policy::load_policies({.paths = {(tmp.path / "mine").string()}}, d4);
    REQUIRE(d4.has_errors());
    CHECK(d4.all()[0].message.find("is defined twice") != std::string::npos);
}

TEST_CASE("policy: check_policies compiles sites and replaces the compiler's restated findings", "[policy]") {
    // Two teams on OpenShift AI 2.10: the compiler warns (target.support);
    // with the built-in policies the policy's findings stand instead.
    const std::string site = yaml(R"Y(
apiVersion: queueforge.io/v1alpha1
kind: Site
metadata: {name: s}
spec:
  target: rhoai-2.10
  pools:
  - name: gpu
    nodes: 2
    nodeLabels: {nvidia.com/gpu.present: "true"}
    allocatable: {cpu: 8, nvidia.com/gpu: 4}
  teams:
  - name: a
    namespaces: [a]
    quota: [{pool: gpu, nominal: {cpu: 8, nvidia.com/gpu: 8}}]
  - name: b
    namespaces: [b]
    quota: [{pool: gpu, nominal: {cpu: 8, nvidia.com/gpu: 2}}]
)Y");
    LoadedResources in;
    Diagnostics d;
    load_resources_from_text("site.yaml", site, in, d);
    d.warning("site.yaml", {9, 5}, "restated by a policy", "target.support");
    d.warning("site.yaml", {9, 5}, "restated by a policy", "xref.overcommit");
    d.warning("site.yaml", {9, 5}, "kept", "xref.other");
    policy::check_policies(in, {}, std::nullopt, d);
    INFO(dump(d));
    CHECK(with_rule(d, "target.support").empty());
    CHECK(with_rule(d, "xref.overcommit").empty());
    CHECK(with_rule(d, "xref.other").size() == 1);
    auto single = with_rule(d, "rhoai-single-cluster-queue");
    REQUIRE(single.size() == 1);
    CHECK(single[0].file == "site.yaml");
    CHECK(single[0].mark.line == 15);  // team b
    CHECK(with_rule(d, "rhoai-empty-flavors").size() == 1);
    // The pools are Nodes: 2 nodes x 4 GPUs < 8 + 2, and 2 x 8 cpu = 16 >= 8 + 8.
    auto cap = with_rule(d, "quota-within-capacity");
    REQUIRE(cap.size() == 1);
    CHECK(cap[0].message.find("nominalQuota of nvidia.com/gpu in flavor gpu") == 0);
    CHECK(cap[0].message.find("gpu.pool 8") != std::string::npos);

    // --target overrides the site's target; --no-builtin-policies keeps the compiler's findings.
    Diagnostics d2;
    policy::check_policies(in, {}, find_target("rhoai-2.16").target, d2);
    CHECK(with_rule(d2, "rhoai-single-cluster-queue").empty());
    Diagnostics d3;
    d3.warning("site.yaml", {9, 5}, "kept", "target.support");
    policy::check_policies(in, {.no_builtin = true}, std::nullopt, d3);
    CHECK(d3.all().size() == 1);

    // A replacing policy that cannot be evaluated leaves the compiler's check in place.
    qf_test::TempDir tmp;
    qf_test::write_text(tmp.path / "p.yaml",
                        policy_doc("broken-restatement", "  severity: error\n  replaces: [xref.other, xref.gone]\n"
                                                         "  validations: [{expression: 'object.nope'}]\n") +
                            "---\n" + policy_doc("fine-restatement", "  severity: error\n  replaces: [xref.gone]\n"
                                                                      "  validations: [{expression: 'true'}]\n"));
    Diagnostics d4;
    d4.warning("site.yaml", {9, 5}, "kept", "xref.other");
    d4.warning("site.yaml", {9, 5}, "kept too: a failed policy replaces it as well", "xref.gone");
    policy::check_policies(in, {.paths = {(tmp.path / "p.yaml").string()}, .no_builtin = true}, std::nullopt, d4);
    INFO(dump(d4));
    CHECK(with_rule(d4, "xref.other").size() == 1);
    CHECK(with_rule(d4, "xref.gone").size() == 1);
    CHECK_FALSE(with_rule(d4, "broken-restatement").empty());
}

TEST_CASE("policy: validate and check run the built-in and --policy policies", "[policy]") {
    qf_test::TempDir tmp;
    qf_test::write_text(tmp.path / "cq.yaml", yaml(R"Y(
apiVersion: kueue.x-k8s.io/v1beta2
kind: ClusterQueue
metadata: {name: team-a}
spec:
  queueingStrategy: BestEffortFIFO
)Y"));
    const std::string cq = shell_quote((tmp.path / "cq.yaml").string());
    // The built-in policy restates xref.no-namespace-selector: one finding, the policy's.
    auto r = run_cli("validate -o json " + cq);
    INFO(r.out << r.err);
    CHECK(r.exit == 1);
    auto j = nlohmann::json::parse(r.out);
    REQUIRE(j["findings"].size() == 1);
    CHECK(j["findings"][0]["rule"] == "cluster-queue-namespace-selector");
    CHECK(j["findings"][0]["severity"] == "error");
    CHECK(j["findings"][0]["line"] == 5);
    CHECK(j["findings"][0]["object"]["name"] == "team-a");
    CHECK(j["findings"][0]["path"] == "spec");
    // --disable turns the check off; --no-builtin-policies gives the compiler's own.
    auto off = run_cli("validate --disable cluster-queue-namespace-selector " + cq);
    CHECK(off.exit == 0);
    auto native = run_cli("validate -o json --no-builtin-policies " + cq);
    CHECK(nlohmann::json::parse(native.out)["findings"][0]["rule"] == "xref.no-namespace-selector");

    // A folder of user policies; findings in every output format carry the policy id.
    qf_test::write_text(tmp.path / "policies/naming.yaml", policy_doc("team-prefix", yaml(R"Y(
  severity: warning
  description: ClusterQueue names start with queue-
  match: {kinds: [{group: kueue.x-k8s.io, kinds: [ClusterQueue]}]}
  validations:
  - expression: object.metadata.name.startsWith('queue-')
    fieldPath: metadata.name
)Y")));
    const std::string pol = shell_quote((tmp.path / "policies").string());
    auto u = run_cli("validate --disable cluster-queue-namespace-selector --policy " + pol + " " + cq);
    INFO(u.out << u.err);
    CHECK(u.exit == 0);  // a warning
    CHECK(u.out.find("cq.yaml:3:18: warning: ClusterQueue names start with queue- [team-prefix]") != std::string::npos);
    for (const std::string fmt : {"sarif", "junit", "github"}) {
        auto o = run_cli("validate -o " + fmt + " --disable cluster-queue-namespace-selector --policy " + pol + " " + cq);
        INFO(fmt << o.out);
        CHECK(o.out.find("team-prefix") != std::string::npos);
    }
    auto strict = run_cli("validate --strict --disable cluster-queue-namespace-selector --policy " + pol + " " + cq);
    CHECK(strict.exit == 1);

    // A broken policy file: a positioned error, never a crash.
    qf_test::write_text(tmp.path / "broken/p.yaml", policy_doc("broken", "  severity: error\n  validations:\n  - expression: a +\n"));
    auto b = run_cli("validate --policy " + shell_quote((tmp.path / "broken").string()) + " " + cq);
    INFO(b.out);
    CHECK(b.exit == 1);
    CHECK(b.out.find("p.yaml:7:20: error: spec.validations[0].expression: Syntax error") != std::string::npos);
    auto missing = run_cli("validate --policy " + shell_quote((tmp.path / "nope").string()) + " " + cq);
    CHECK(missing.exit == 2);

    // check: the site's rendered objects are judged by the policies.
    auto c = run_cli("check --no-simulate --policy " + pol + " " +
                     shell_quote((qf_test::source_dir() / "examples/multi-team").string()));
    INFO(c.out << c.err);
    CHECK(c.exit == 0);
    CHECK(c.out.find("[team-prefix]") != std::string::npos);
    CHECK(c.out.find("[rhoai-no-shared-cohorts]") != std::string::npos);
    CHECK(c.out.find("[target.support]") == std::string::npos);
    auto c2 = run_cli("check --no-simulate --disable rhoai-no-shared-cohorts " +
                      shell_quote((qf_test::source_dir() / "examples/multi-team").string()));
    CHECK(c2.out.find("shared") == std::string::npos);
}

TEST_CASE("policy: truncated and corrupted policy files never crash", "[policy][slow]") {
    // Every shipped policy cut short at many points, and with one character
    // replaced: loading reports errors (or not), evaluating never crashes.
    const std::string objects = qf_test::read_text(qf_test::source_dir() / "tests/fixtures/policies/quota-within-capacity/fail.yaml") +
                                "---\n" + kQueue;
    LoadedResources in;
    Diagnostics ld;
    load_resources_from_text("objects.yaml", objects, in, ld);
    REQUIRE(ld.empty());
    std::size_t loaded = 0, rejected = 0;
    for (const auto& id : kShipped) {
        const std::string text = qf_test::read_text(qf_test::source_dir() / "policies" / (id + ".yaml"));
        for (std::size_t cut = 0; cut < text.size(); cut += 11) {
            for (const std::string& variant : {text.substr(0, cut), text.substr(0, cut) + ")" + text.substr(cut + 1),
                                               text.substr(0, cut) + "'" + text.substr(cut)}) {
                Diagnostics d;
                auto set = policy::load_policies_from_text("p.yaml", variant, {.no_builtin = true}, d);
                policy::evaluate(set, in.resources, target("rhoai-2.19"), {}, d);
                (set.ids().empty() ? rejected : loaded) += 1;
                for (const auto& x : d.all())
                    if (x.rule == "policy.invalid") CHECK(x.mark.known());
            }
        }
    }
    CHECK(loaded > 0);
    CHECK(rejected > 0);
}

TEST_CASE("policy: each site is its own cluster, manifests beside one site join it", "[policy]") {
    auto site = [](const std::string& name, const std::string& team) {
        return "apiVersion: queueforge.io/v1alpha1\nkind: Site\nmetadata: {name: " + name + "}\nspec:\n  target: rhoai-2.10\n"
               "  pools: [{name: cpu, nodes: 2, allocatable: {cpu: 8}}]\n  teams:\n  - name: " + team +
               "\n    namespaces: [" + team + "]\n    quota: [{pool: cpu, nominal: {cpu: 8}}]\n";
    };
    const std::string extra = "apiVersion: kueue.x-k8s.io/v1beta1\nkind: ClusterQueue\nmetadata: {name: hand-written}\n"
                              "spec: {namespaceSelector: {}}\n";
    auto count = [](const std::vector<std::pair<std::string, std::string>>& files) {
        LoadedResources in;
        Diagnostics d;
        for (const auto& [name, text] : files) load_resources_from_text(name, text, in, d);
        policy::check_policies(in, {}, std::nullopt, d);
        INFO(dump(d));
        return with_rule(d, "rhoai-single-cluster-queue").size();
    };
    CHECK(count({{"a.yaml", site("a", "alpha")}}) == 0);
    CHECK(count({{"a.yaml", site("a", "alpha")}, {"b.yaml", site("b", "beta")}}) == 0);  // two clusters
    CHECK(count({{"a.yaml", site("a", "alpha")}, {"cq.yaml", extra}}) == 1);             // one cluster, two queues
}
