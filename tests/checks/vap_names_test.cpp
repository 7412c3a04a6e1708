// Names in ValidatingAdmissionPolicies and bindings, checked as the API
// server checks them (compiler/checks/policy/vap_names.hpp), and the other field
// rules of validation.go that queueforge applies before evaluating.
#include "policy_util.hpp"
#include "test_util.hpp"

#include <queueforge/checks/policy.hpp>
#include <queueforge/frontend/manifests.hpp>

#include <catch2/catch.hpp>

#include <algorithm>
#include <string>
#include <vector>

using namespace queueforge;

namespace {

Diagnostics load(const std::string& text, const std::string& objects = {}) {
    return qf_test::run_policies("vap.yaml", text, objects);
}

using qf_test::with_rule;

// A policy over ClusterQueues with the given spec lines after matchConstraints.
std::string vap(const std::string& name, const std::string& rest) {
    return "apiVersion: admissionregistration.k8s.io/v1\n"    // 1
           "kind: ValidatingAdmissionPolicy\n"                // 2
           "metadata:\n"                                      // 3
           "  name: " + name + "\n"                           // 4
           "spec:\n"                                          // 5
           "  matchConstraints:\n"                            // 6
           "    resourceRules: [{apiGroups: ['*'], apiVersions: ['*'], operations: [CREATE], resources: [clusterqueues]}]\n"  // 7
           + rest;
}

const std::string kQueue = "apiVersion: kueue.x-k8s.io/v1beta2\nkind: ClusterQueue\nmetadata: {name: cq}\nspec: {}\n";

}  // namespace

TEST_CASE("vap names: matchConditions[].name is a qualified name", "[vap]") {
    const std::string conditions =
        "  matchConditions:\n"                                       // 8
        "  - name: exclude-jobset-owned\n"                           // 9
        "    expression: 'true'\n"                                   // 10
        "  - name: example.com/Has.Dots_and-dashes\n"                // 11
        "    expression: 'true'\n"                                   // 12
        "  - name: Bad Name!\n"                                      // 13
        "    expression: 'true'\n"                                   // 14
        "  validations: [{expression: 'false'}]\n";
    auto d = load(vap("p", conditions), kQueue);
    INFO(qf_test::messages(d));
    auto bad = with_rule(d, "vap.invalid-name");
    REQUIRE(bad.size() == 1);
    CHECK(bad[0].severity == Severity::Error);
    CHECK(bad[0].file == "vap.yaml");
    CHECK(bad[0].mark.line == 13);
    CHECK(bad[0].mark.col == 11);
    CHECK(bad[0].message.find("spec.matchConditions[2].name: Invalid value: \"Bad Name!\": name part must consist of "
                              "alphanumeric characters") == 0);
    CHECK(with_rule(d, "p").empty());  // a policy the API server refuses is never evaluated

    // Without the bad one, the hyphenated and prefixed names load and the policy runs.
    std::string good = conditions;
    good.erase(good.find("  - name: Bad Name!"), std::string("  - name: Bad Name!\n    expression: 'true'\n").size());
    auto ok = load(vap("p", good), kQueue);
    INFO(qf_test::messages(ok));
    CHECK(with_rule(ok, "policy.invalid").empty());
    CHECK(with_rule(ok, "vap.invalid-name").empty());
    CHECK(with_rule(ok, "p").size() == 1);

    // Longer than 63 characters in the name part; a bad prefix; repeated; empty.
    const std::vector<std::pair<std::string, std::string>> cases = {
        {std::string(64, 'a'), "name part must be no more than 63 characters"},
        {"Example.COM/x", "prefix part a lowercase RFC 1123 subdomain"},
        {"'-starts-with-dash'", "must start and end with an alphanumeric character"},
        {"''", "spec.matchConditions[0].name: Required value"},
    };
    for (const auto& [name, why] : cases) {
        auto b = load(vap("p", "  matchConditions: [{name: " + name + ", expression: 'true'}]\n"
                                  "  validations: [{expression: 'false'}]\n"));
        INFO(name << "\n" << qf_test::messages(b));
        auto e = with_rule(b, "vap.invalid-name");
        REQUIRE(e.size() == 1);
        CHECK(e[0].message.find(why) != std::string::npos);
        CHECK(e[0].mark.line == 8);
    }
    auto dup = load(vap("p", "  matchConditions:\n  - {name: same, expression: 'true'}\n  - {name: same, expression: 'true'}\n"
                                "  validations: [{expression: 'false'}]\n"));
    auto e = with_rule(dup, "vap.invalid-name");
    REQUIRE(e.size() == 1);
    CHECK(e[0].message == "spec.matchConditions[1].name: Duplicate value: \"same\"");
    CHECK(e[0].mark.line == 10);
}

TEST_CASE("vap names: more than 64 matchConditions are refused", "[vap]") {
    std::string conditions = "  matchConditions:\n";
    for (int i = 0; i < 65; ++i) conditions += "  - {name: c" + std::to_string(i) + ", expression: 'true'}\n";
    auto d = load(vap("p", conditions + "  validations: [{expression: 'false'}]\n"));
    auto e = with_rule(d, "vap.invalid-name");
    REQUIRE(e.size() == 1);
    CHECK(e[0].message == "spec.matchConditions: Too many: must have at most 64 items");
    CHECK(e[0].mark.line == 8 + 65);
}

TEST_CASE("vap names: variables[].name is a CEL identifier, a repeat is allowed, the last wins", "[vap]") {
    auto bad = load(vap("p", "  variables:\n"                                  // 8
                                "  - name: ok_name1\n"                            // 9
                                "    expression: '1'\n"                           // 10
                                "  - name: my-var\n"                              // 11
                                "    expression: '2'\n"                           // 12
                                "  validations: [{expression: 'true'}]\n"));
    INFO(qf_test::messages(bad));
    auto e = with_rule(bad, "vap.invalid-name");
    REQUIRE(e.size() == 1);
    CHECK(e[0].severity == Severity::Error);
    CHECK(e[0].mark.line == 11);
    CHECK(e[0].mark.col == 11);
    CHECK(e[0].message == "spec.variables[1].name: Invalid value: \"my-var\": name is not a valid CEL identifier");

    for (const std::string name : {"1abc", "namespace", "in", "'has space'", "é"}) {
        auto b = load(vap("p", "  variables: [{name: " + name + ", expression: '1'}]\n  validations: [{expression: 'true'}]\n"));
        INFO(name << "\n" << qf_test::messages(b));
        CHECK(with_rule(b, "vap.invalid-name").size() == 1);
    }
    for (const std::string name : {"_x", "Camel", "a1_b2", "object_count"}) {
        auto b = load(vap("p", "  variables: [{name: " + name + ", expression: '1'}]\n  validations: [{expression: 'true'}]\n"));
        INFO(name << "\n" << qf_test::messages(b));
        CHECK_FALSE(b.has_errors());
    }

    // The API server accepts a repeated variable name (its compiler keeps the
    // variables in a map by name): a warning here, and the last definition is
    // the one the validations see.
    auto dup = load(vap("p", "  variables:\n"                         // 8
                                "  - {name: limit, expression: '1'}\n"   // 9
                                "  - {name: limit, expression: '5'}\n"   // 10
                                "  validations: [{expression: 'variables.limit == 5', message: saw the first}]\n"),
                    kQueue);
    INFO(qf_test::messages(dup));
    auto w = with_rule(dup, "vap.duplicate-variable");
    REQUIRE(w.size() == 1);
    CHECK(w[0].severity == Severity::Warning);
    CHECK(w[0].mark.line == 10);
    CHECK(w[0].message.find("spec.variables[1].name: variable \"limit\" is already defined at spec.variables[0].name") == 0);
    CHECK(with_rule(dup, "p").empty());
    CHECK_FALSE(dup.has_errors());
}

TEST_CASE("vap names: metadata.name and spec.policyName are DNS subdomains", "[vap]") {
    auto d = load(vap("Not_A_Subdomain", "  validations: [{expression: 'true'}]\n"));
    auto e = with_rule(d, "vap.invalid-name");
    REQUIRE(e.size() == 1);
    CHECK(e[0].mark.line == 4);
    CHECK(e[0].message.find("metadata.name: Invalid value: \"Not_A_Subdomain\": a lowercase RFC 1123 subdomain") == 0);

    auto b = load("apiVersion: admissionregistration.k8s.io/v1\nkind: ValidatingAdmissionPolicyBinding\n"
                  "metadata: {name: b}\nspec:\n  policyName: Bad/Name\n  validationActions: [Deny]\n");
    auto be = with_rule(b, "vap.invalid-name");
    REQUIRE(be.size() == 1);
    CHECK(be[0].mark.line == 5);
    CHECK(be[0].message.find("spec.policyName: Invalid value: \"Bad/Name\"") == 0);
}

TEST_CASE("vap fields: messages, reasons and validationActions as validation.go checks them", "[vap]") {
    const std::vector<std::pair<std::string, std::string>> bad = {
        {"  validations: [{expression: 'true', reason: Unauthorized}]\n",
         "spec.validations[0].reason: Unsupported value: \"Unauthorized\": supported values: \"Forbidden\", \"Invalid\", "
         "\"RequestEntityTooLarge\""},
        {"  validations: [{expression: 'true', message: \"two\\nlines\"}]\n",
         "spec.validations[0].message: Invalid value: message must not contain line breaks"},
        {"  validations: [{expression: 'true', message: '   '}]\n",
         "spec.validations[0].message: Invalid value: message must be non-empty if specified"},
        {"  validations: [{expression: 'true', messageExpression: '  '}]\n",
         "spec.validations[0].messageExpression: Invalid value: must be non-empty if specified"},
    };
    for (const auto& [rest, message] : bad) {
        auto d = load(vap("p", rest), kQueue);
        INFO(rest << qf_test::messages(d));
        // (A blank messageExpression is also reported as a CEL syntax error.)
        auto e = with_rule(d, "policy.invalid");
        REQUIRE_FALSE(e.empty());
        auto it = std::find_if(e.begin(), e.end(), [&, m = message](const Diagnostic& x) { return x.message == m; });
        REQUIRE(it != e.end());
        CHECK(it->mark.line == 8);
        CHECK(with_rule(d, "p").empty());
    }
    for (const std::string reason : {"Forbidden", "Invalid", "RequestEntityTooLarge"})
        CHECK_FALSE(load(vap("p", "  validations: [{expression: 'true', reason: " + reason + "}]\n")).has_errors());

    auto binding = [](const std::string& actions) {
        return load("apiVersion: admissionregistration.k8s.io/v1\nkind: ValidatingAdmissionPolicyBinding\n"
                    "metadata: {name: b}\nspec:\n  policyName: p\n  validationActions: " + actions + "\n");
    };
    auto both = with_rule(binding("[Deny, Warn]"), "policy.invalid");
    REQUIRE(both.size() == 1);
    CHECK(both[0].message.find("spec.validationActions: Invalid value: must not contain both Deny and Warn") == 0);
    auto twice = with_rule(binding("[Audit, Audit]"), "policy.invalid");
    REQUIRE(twice.size() == 1);
    CHECK(twice[0].message == "spec.validationActions: Duplicate value: \"Audit\"");
    CHECK(with_rule(binding("[Warn, Audit]"), "policy.invalid").empty());
    CHECK(with_rule(binding("[Deny, Audit]"), "policy.invalid").empty());
}

TEST_CASE("vap fields: a policy of auditAnnotations only is valid and never denies", "[vap]") {
    const std::string audit = "  auditAnnotations: [{key: queue, valueExpression: \"'q'\"}]\n";
    auto d = load(vap("p", audit), kQueue);
    INFO(qf_test::messages(d));
    CHECK_FALSE(d.has_errors());
    CHECK(with_rule(d, "p").empty());
    // Neither: the API server requires one of them.
    auto none = load(vap("p", ""));
    auto e = with_rule(none, "policy.invalid");
    REQUIRE(e.size() == 1);
    CHECK(e[0].message.find("at least one validation is required") != std::string::npos);
}
