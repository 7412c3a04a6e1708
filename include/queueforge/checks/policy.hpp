#pragma once
// Policies as code: CEL rules over the objects queueforge reads or renders.
//
// Two kinds of policy are understood:
//   * queueforge's own `queueforge.io/v1alpha1 Policy` (policies/README.md):
//     an id, a severity, a match on kinds and target range, variables and
//     validations, evaluated once per matching object (scope: object) or once
//     over every object (scope: set) for cross-object rules;
//   * Kubernetes `admissionregistration.k8s.io/v1` ValidatingAdmissionPolicy
//     with its bindings and param objects, evaluated offline as the API server
//     would on CREATE (as `kyverno apply` does for them).
// The built-in policies (policies/*.yaml) are compiled into the binary.
//
// Every problem is a positioned Diagnostic: a broken policy points at the
// policy file (line:col of the CEL error), a violation at the object (and the
// field the policy names), with the policy id as its rule.
#include <queueforge/base/diagnostics.hpp>
#include <queueforge/frontend/manifests.hpp>
#include <queueforge/frontend/platform.hpp>

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace queueforge::policy {

struct Options {
    std::vector<std::string> paths;     // --policy: files or folders (policies, VAPs, bindings, params)
    std::vector<std::string> disabled;  // --disable: policy ids (queueforge policies and VAP names)
    bool no_builtin = false;            // --no-builtin-policies
    // Warn about `disabled` ids that name no loaded policy. Off in the CLI,
    // where --disable takes any rule id and the gate reports unknown ones.
    bool report_unknown_disabled = true;
    // Per evaluated expression, as cel::EvalOptions. A set-scope expression
    // (one evaluation over every object) gets this budget per 1,000 objects.
    std::uint64_t cost_limit = 1'000'000;
    // Threads the policies of one large input are shared out to: 0 lets
    // the input decide (two from 2,000 objects on a machine with two
    // cores), 1 keeps one. The findings are the same either way.
    unsigned threads = 0;
};

struct Data;  // compiled policies (compiler/checks/policy/model.hpp)

// Compiled policies, immutable once loaded; cheap to copy.
class PolicySet {
public:
    PolicySet();
    explicit PolicySet(std::shared_ptr<const Data> data) : data_(std::move(data)) {}
    // Ids of the enabled queueforge policies and ValidatingAdmissionPolicies, sorted.
    std::vector<std::string> ids() const;
    // Rule ids of the compiler's own findings that loaded policies restate
    // (`spec.replaces`); the policies' findings stand in for them.
    std::vector<std::string> replaced_rules() const;
    const Data& data() const { return *data_; }

private:
    std::shared_ptr<const Data> data_;
};

// Loads the built-in policies (unless opts.no_builtin) and opts.paths.
// Problems go to `diags` (rule "policy.invalid", "policy.unknown-id", ...;
// unreadable paths "io"); the texts of the files read are appended to
// `sources` when given, for carets in text output.
PolicySet load_policies(const Options& opts, Diagnostics& diags, std::vector<SourceText>* sources = nullptr);

// Same for policy documents held in memory (tests, benchmarks); no built-ins.
PolicySet load_policies_from_text(const std::string& file, const std::string& text, const Options& opts,
                                  Diagnostics& diags);

// What an evaluation reports beside its findings.
struct Outcome {
    // Ids of the policies with an expression that could not be evaluated
    // (a runtime error, the cost limit), sorted.
    std::vector<std::string> failed;
};

// Evaluates every policy over the objects of one cluster. `target` is what
// the cluster runs (policies with `match.targets` are skipped without one).
// Findings are appended to `diags` in a deterministic order.
Outcome evaluate(const PolicySet& set, const std::vector<Resource>& objects, const std::optional<Target>& target,
                 const Options& opts, Diagnostics& diags);

// What `validate` and `check` call after validate_all: loads the policies,
// compiles the sites among `input` (policies see their rendered objects and
// their pools as Node objects), evaluates, and drops the compiler's findings
// whose rules the loaded policies replace -- unless a replacing policy could
// not be evaluated, so a check is never lost. `target` is --target.
// Returns the ids of the policies loaded (the gate knows them as rule ids).
std::vector<std::string> check_policies(LoadedResources& input, const Options& opts, const std::optional<Target>& target,
                    Diagnostics& diags);

}  // namespace queueforge::policy
