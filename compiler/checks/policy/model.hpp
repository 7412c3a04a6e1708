#pragma once
// The compiled form of policy documents: what the parsers produce and the
// evaluators read. Nothing here is mutated after loading.
#include <queueforge/checks/cel.hpp>
#include <queueforge/base/diagnostics.hpp>
#include <queueforge/checks/policy.hpp>
#include <queueforge/frontend/manifests.hpp>

#include "checks/policy/target_range.hpp"

#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace queueforge::policy {

// A compiled CEL expression and where it was written.
struct Expression {
    std::string source;
    cel::Program program;
    Mark mark;
};

struct NamedExpression {
    std::string name;
    Expression expr;
    std::string key;  // "variables.<name>", the activation entry of a variable
};

struct Validation {
    Expression expr;
    std::string message;
    std::optional<Expression> message_expr;
    std::string field_path;
    std::string reason;  // VAP only
};

// ---- queueforge Policy -------------------------------------------------------

struct KindMatch {
    std::string group;               // "" core, "*" any
    std::vector<std::string> kinds;  // empty or "*": any kind of the group
    std::string api_version;         // exact apiVersion instead of group (version pinned)
};

enum class Scope { Object, Set };

struct Policy {
    std::string id;
    std::string file;
    Mark mark;
    bool builtin = false;
    Severity severity = Severity::Error;
    std::string description;
    std::vector<KindMatch> kinds;  // empty: every object
    std::optional<TargetRange> targets;
    std::vector<NamedExpression> conditions;  // matchConditions
    std::optional<Node> params_node;          // spec.params as written (PolicyConfig merges into it)
    cel::Value params;                        // params_node as CEL (null when absent)
    std::vector<NamedExpression> variables;
    std::vector<Validation> validations;
    Scope scope = Scope::Object;
    std::vector<std::string> replaces;
};

// A PolicyConfig document: a user's override of a policy's params/severity.
struct PolicyConfig {
    std::string policy;
    std::string file;
    Mark mark;
    std::optional<Severity> severity;
    std::optional<Node> params;  // merged key by key over the defaults
};

// ---- ValidatingAdmissionPolicy ---------------------------------------------

struct Requirement {
    std::string key;
    std::string op;  // In, NotIn, Exists, DoesNotExist
    std::vector<std::string> values;
};

struct LabelSelector {
    std::map<std::string, std::string> match_labels;
    std::vector<Requirement> expressions;
};

struct ResourceRule {
    std::vector<std::string> api_groups;
    std::vector<std::string> api_versions;
    std::vector<std::string> resources;
    std::vector<std::string> operations;
    std::vector<std::string> resource_names;
    std::string scope = "*";  // Cluster, Namespaced, *
};

struct MatchResources {
    std::vector<ResourceRule> rules;
    std::vector<ResourceRule> exclude;
    std::optional<LabelSelector> namespace_selector;
    std::optional<LabelSelector> object_selector;
};

struct AdmissionPolicy {
    std::string name;
    std::string file;
    Mark mark;
    std::optional<MatchResources> constraints;
    std::string param_api_version, param_kind;  // empty: no paramKind
    std::vector<NamedExpression> conditions;
    std::vector<NamedExpression> variables;
    std::vector<Validation> validations;
    bool fail_closed = true;  // failurePolicy Fail (default) vs Ignore
    // Expressions naming `authorizer`, which offline evaluation cannot serve.
    std::vector<Mark> authorizer_uses;
};

enum class Action { Deny, Warn, Audit };

struct ParamRef {
    std::string name;
    std::string namespace_;
    std::optional<LabelSelector> selector;
    bool deny_when_missing = true;  // parameterNotFoundAction
};

struct AdmissionBinding {
    std::string name;
    std::string file;
    Mark mark;
    std::string policy_name;
    Mark policy_name_mark;
    std::optional<ParamRef> param_ref;
    std::optional<MatchResources> match;
    std::vector<Action> actions;
};

// ---- the set ---------------------------------------------------------------

struct Data {
    std::vector<Policy> policies;            // enabled, sorted by id
    std::vector<AdmissionPolicy> admission;  // enabled, sorted by name
    std::vector<AdmissionBinding> bindings;  // in input order
    std::vector<Resource> params;            // other objects given with --policy
    std::set<std::string> replaced;          // native rule ids
};

}  // namespace queueforge::policy
