#pragma once
// x-kubernetes-validations evaluated as the API server evaluates them when an
// object is created (apiextensions-apiserver pkg/apiserver/schema/cel):
// every rule runs with `self` bound to each value its schema node describes,
// seen the way the server shows values to CEL (defaults applied, unknown
// fields pruned, property names escaped, metadata reduced to name and
// generateName at resource roots). Transition rules (those that use oldSelf)
// have no old object on create and are skipped unless optionalOldSelf is
// set. Internal to compiler/checks/openapi and its callers.
#include "checks/openapi/schema.hpp"

#include <queueforge/checks/cel.hpp>
#include <queueforge/base/diagnostics.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace queueforge::openapi {

// One step of a rule's fieldPath, resolved against the schema: a property
// (printed ".name") or a key of an additionalProperties map (printed "[key]").
struct FieldStep {
    std::string name;
    bool map_key = false;
};

struct CompiledRule {
    std::optional<cel::Program> program;  // empty when the rule does not compile
    std::optional<cel::Program> message;  // messageExpression, when given and it compiles
    std::vector<FieldStep> field_path;    // resolved fieldPath (empty: the node itself)
    bool uses_old_self = false;           // a transition rule
    // Why the rule, its messageExpression or fieldPath cannot be used, as a
    // sentence; empty when all is well.
    std::string problem;
};

// Parallel to Schema::cel.
struct CelCompiled {
    std::vector<CompiledRule> rules;
};

// What an evaluation did, for tests and statistics.
struct CelStats {
    std::size_t evaluated = 0;   // rule evaluations (one rule on one value)
    std::size_t skipped = 0;     // transition rules skipped (no oldSelf on create)
    std::size_t failed = 0;      // evaluations that gave false
    std::size_t errors = 0;      // evaluations that gave an error or ran out of budget
};

struct CelOptions {
    // Per evaluation of one rule (the API server's PerCallLimit).
    std::uint64_t rule_cost_limit = cel::EvalOptions{}.cost_limit;
    // All rules on one object together (RuntimeCELCostBudget).
    std::uint64_t object_cost_budget = 10'000'000;
    std::size_t max_errors = 100;  // findings per object
    CelStats* stats = nullptr;     // added to when given
};

// Compiles the rules of the whole tree under `root`, once: later calls (also
// from other threads) return at once.
void compile_cel(const Schema& root);

// A rule that cannot be evaluated as written (or whose messageExpression or
// fieldPath cannot be used), with the reason.
struct CelProblem {
    const CelEntry* entry = nullptr;
    std::string path;     // schema path of the rule, "spec.resourceGroups[*]"
    std::string message;  // "does not compile: 1:5: Syntax error: ..."
};
std::vector<CelProblem> cel_problems(const Schema& root);

// The structural findings after which the API server does not run CEL rules
// (strategy.go hasBlockingErr): wrong types, missing required fields,
// unsupported enum values, too long or too many.
bool blocks_cel(const Diagnostic& d);

// Evaluates the rules of `root` (a CRD version's schema) against `doc`, a
// whole object as read from `file`. Findings: severity error, rule id
// "schema.cel", the Mark of the value the rule is about, messages as the API
// server words them, e.g.
//   spec.resourceGroups[0]: Invalid value: "object": flavors must have ...
// Defaults are applied to a copy of `doc` first, as on the server.
void validate_cel(const Schema& root, const Node& doc, const std::string& file, const ObjectRef& ref,
                  Diagnostics& diags, const CelOptions& opts = {});

// ---- cel_values.cpp ----

// Kubernetes' escaping of property names for CEL field access: "__" ->
// "__underscores__", "." -> "__dot__", "-" -> "__dash__", "/" -> "__slash__",
// CEL reserved words -> "__{word}__". nullopt when the name cannot be a CEL
// identifier at all (empty, a leading digit, other characters).
std::optional<std::string> cel_escape(std::string_view name);

// A rule's or message's text without the whitespace around it (how the API
// server tells an empty one).
std::string trim_rule_text(std::string_view s);

// A value with rules on its schema, in the order the server evaluates them:
// a node before the values inside it.
struct CelSite {
    const Schema* schema = nullptr;
    const Node* node = nullptr;
    std::string path;  // "spec.resourceGroups[0]", "" at the root
    cel::Value self;
};

// Finds the values of `doc` (a whole object) that rules apply to and
// converts each as the server shows it to CEL.
std::vector<CelSite> cel_sites(const Schema& root, const Node& doc);

// `v` as CEL sees a value of schema `s` (resource_root: the object root, or
// an embedded resource, whose metadata shows only name and generateName).
cel::Value cel_value(const Schema& s, const Node& v, bool resource_root);

}  // namespace queueforge::openapi
