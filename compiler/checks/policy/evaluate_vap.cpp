// ValidatingAdmissionPolicies evaluated offline, for each input object as if
// it were being created: matchConstraints and the binding's matchResources,
// matchConditions, variables and validations with `object`, `oldObject`
// (null), `request`, `params` and `namespaceObject` bound, each with the API
// server's defaults applied (admitted.hpp); failures reported
// at the severity of the binding's validationActions. `authorizer` is not
// available offline: expressions using it are skipped with a warning.
#include "checks/policy/evaluate.hpp"

#include "checks/policy/admitted.hpp"
#include "checks/policy/findings.hpp"
#include "checks/policy/match.hpp"
#include "checks/policy/params.hpp"
#include "checks/policy/parse.hpp"

#include <algorithm>

namespace queueforge::policy {

namespace {

using K = cel::Value::Kind;

cel::Value map(cel::Value::MapEntries e) { return cel::Value::map(std::move(e)); }

// admission.Request of a CREATE by an anonymous GitOps user.
cel::Value request_of(const Resource& r) {
    const std::string group = group_of(r.ref.api_version), version = version_of(r.ref.api_version);
    cel::Value kind = map({{str("group"), str(group)}, {str("version"), str(version)}, {str("kind"), str(r.ref.kind)}});
    cel::Value resource =
        map({{str("group"), str(group)}, {str("version"), str(version)}, {str("resource"), str(resource_of(r.ref.kind))}});
    cel::Value user = map({{str("username"), str("queueforge")},
                           {str("uid"), str("")},
                           {str("groups"), cel::Value::list({str("system:authenticated")})}});
    return map({{str("operation"), str("CREATE")},
                {str("name"), str(r.ref.name)},
                {str("namespace"), str(r.ref.namespace_)},
                {str("kind"), kind},
                {str("resource"), resource},
                {str("requestKind"), kind},
                {str("requestResource"), resource},
                {str("subResource"), str("")},
                {str("uid"), str("")},
                {str("dryRun"), cel::Value::boolean(false)},
                {str("userInfo"), user}});
}

Severity severity_of(const std::vector<Action>& actions) {
    if (std::find(actions.begin(), actions.end(), Action::Deny) != actions.end()) return Severity::Error;
    if (std::find(actions.begin(), actions.end(), Action::Warn) != actions.end()) return Severity::Warning;
    return Severity::Note;
}

class VapRun {
public:
    VapRun(const Data& d, const AdmissionPolicy& p, const AdmissionBinding& b, const Cluster& c, AdmittedObjects& admitted,
        Diagnostics& out, std::set<std::string>& failed)
        : d_(d), p_(p), b_(b), c_(c), admitted_(admitted), out_(out), failed_(failed), severity_(severity_of(b.actions)) {
        eo_.cost_limit = c.cost_limit;
        act_["oldObject"] = cel::Value::null();
    }

    void run() {
        for (std::size_t i = 0; i < c_.objects.size(); ++i) {
            const Resource& r = c_.objects[i];
            if (!p_.constraints || !rules_match(*p_.constraints, r) || (b_.match && !rules_match(*b_.match, r)))
                continue;
            const AdmittedObject& object = admitted_.at(i);  // defaulted only when a policy's rules match it
            const Labels ns_labels = namespaced(r) ? admitted_.namespace_labels(r.ref.namespace_) : Labels{};
            if (!resources_match(*p_.constraints, r, object.labels, ns_labels)) continue;
            if (b_.match && !resources_match(*b_.match, r, object.labels, ns_labels)) continue;
            std::size_t ns_index = 0;
            const Resource* ns = namespaced(r) ? c_.namespace_object(r.ref.namespace_, &ns_index) : nullptr;
            act_["object"] = object.value;
            act_["request"] = request_of(r);
            act_["namespaceObject"] = ns ? admitted_.at(ns_index).value : cel::Value::null();
            with_params(i);
        }
    }

private:
    void with_params(std::size_t i) {
        if (p_.param_kind.empty()) {
            act_["params"] = cel::Value::null();
            return evaluate(i);
        }
        if (!b_.param_ref)
            return failure(i, "policy " + p_.name + " has paramKind " + p_.param_kind + " but binding " + b_.name +
                                  " has no paramRef");
        auto params = find_params(d_, p_, *b_.param_ref, c_.objects[i]);
        if (params.empty()) {
            if (b_.param_ref->deny_when_missing)
                failure(i, "no params found for binding " + b_.name + " (" + p_.param_kind + " " +
                               (b_.param_ref->name.empty() ? std::string("by selector") : b_.param_ref->name) +
                               ") among the --policy inputs; parameterNotFoundAction is Deny");
            return;
        }
        for (const Resource* param : params) {
            act_["params"] = admitted_value(param->doc);
            evaluate(i);
        }
    }

    void evaluate(std::size_t i) {
        unbind_variables(p_.variables, act_);
        for (const auto& cond : p_.conditions) {
            if (names_authorizer(cond.expr.source)) return;  // reported once per policy
            cel::Value v = cond.expr.program.eval(act_, eo_);
            if (v.kind() == K::Bool) {
                if (!v.as_bool()) return;
                continue;
            }
            const std::string err = v.is_error() ? v.error_message().str() : "expected bool, got " + v.type_name();
            failed_.insert(p_.name);
            if (p_.fail_closed) failure(i, "matchCondition " + cond.name + " resulted in error: " + err);
            return;
        }
        bind_variables(p_.variables, act_, eo_);
        for (const auto& val : p_.validations) {
            if (names_authorizer(val.expr.source)) continue;
            cel::Value v = val.expr.program.eval(act_, eo_);
            if (v.kind() == K::Bool) {
                if (!v.as_bool()) deny(i, message(val), val.reason);
                continue;
            }
            const std::string err = v.is_error() ? v.error_message().str() : "expected bool, got " + v.type_name();
            failed_.insert(p_.name);
            if (p_.fail_closed) failure(i, "expression '" + excerpt(val.expr.source) + "' resulted in error: " + err);
        }
    }

    std::string message(const Validation& val) {
        if (val.message_expr && !names_authorizer(val.message_expr->source)) {
            cel::Value m = val.message_expr->program.eval(act_, eo_);
            // The API server keeps the static message when messageExpression
            // fails or gives an empty or multi-line string.
            if (m.kind() == K::String && !m.as_string().empty() && m.as_string().find('\n') == std::string::npos)
                return m.as_string();
        }
        if (!val.message.empty()) return val.message;
        return "failed expression: " + excerpt(val.expr.source);
    }

    // The wording of the API server's admission responses.
    void deny(std::size_t i, const std::string& msg, const std::string& reason) {
        std::string text = severity_ == Severity::Error
                               ? "ValidatingAdmissionPolicy '" + p_.name + "' with binding '" + b_.name + "' denied request: " + msg
                               : "Validation failed for ValidatingAdmissionPolicy '" + p_.name + "' with binding '" +
                                     b_.name + "': " + msg;
        if (!reason.empty()) text += " (reason: " + reason + ")";
        report(c_, {severity_, p_.name, text, i, {}}, out_);
    }

    void failure(std::size_t i, const std::string& why) { deny(i, why, {}); }

    const Data& d_;
    const AdmissionPolicy& p_;
    const AdmissionBinding& b_;
    const Cluster& c_;
    AdmittedObjects& admitted_;
    Diagnostics& out_;
    std::set<std::string>& failed_;
    Severity severity_;
    cel::Activation act_;
    cel::EvalOptions eo_;
};

}  // namespace

void evaluate_admission(const Data& d, const Cluster& c, Diagnostics& out, std::set<std::string>& failed) {
    AdmittedObjects admitted(c);
    for (const auto& p : d.admission) {
        std::vector<const AdmissionBinding*> bindings;
        for (const auto& b : d.bindings)
            if (b.policy_name == p.name) bindings.push_back(&b);
        // Unbound policies are inert in a cluster; offline they are checked
        // as if bound with Deny (as kyverno apply does), and said so.
        AdmissionBinding implicit{.name = "(none)", .file = p.file, .mark = p.mark, .policy_name = p.name,
                                  .actions = {Action::Deny}};
        if (bindings.empty() && !p.param_kind.empty()) continue;  // no paramRef to find params by
        if (bindings.empty()) bindings.push_back(&implicit);
        for (const AdmissionBinding* b : bindings) VapRun(d, p, *b, c, admitted, out, failed).run();
    }
}

}  // namespace queueforge::policy
