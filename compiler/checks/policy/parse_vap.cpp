// admissionregistration.k8s.io ValidatingAdmissionPolicy and
// ValidatingAdmissionPolicyBinding, read as strictly as the API server's
// schema would (unknown fields are errors), v1 and the beta/alpha versions of
// the same shape.
#include "checks/policy/parse.hpp"
#include "checks/policy/vap_names.hpp"

#include <algorithm>
#include <cctype>

namespace queueforge::policy {

namespace {

bool admission_group(const Resource& r) {
    return r.ref.api_version == "admissionregistration.k8s.io/v1" ||
           r.ref.api_version == "admissionregistration.k8s.io/v1beta1" ||
           r.ref.api_version == "admissionregistration.k8s.io/v1alpha1";
}

}  // namespace

// Expressions that use `authorizer` cannot be evaluated offline: there is no
// API server to ask. Identifier scan outside string literals.
bool names_authorizer(std::string_view src) {
    constexpr std::string_view word = "authorizer";
    char quote = 0;
    for (std::size_t i = 0; i < src.size(); ++i) {
        const char c = src[i];
        if (quote) {
            if (c == '\\') ++i;
            else if (c == quote) quote = 0;
            continue;
        }
        if (c == '"' || c == '\'') {
            quote = c;
            continue;
        }
        if (src.compare(i, word.size(), word) != 0) continue;
        auto ident = [](char ch) { return std::isalnum(static_cast<unsigned char>(ch)) || ch == '_'; };
        const bool start = i == 0 || (!ident(src[i - 1]) && src[i - 1] != '.');
        const bool end = i + word.size() >= src.size() || !ident(src[i + word.size()]);
        if (start && end) return true;
    }
    return false;
}

namespace {

std::vector<ResourceRule> read_rules(const Node* spec, std::string_view key, std::string_view what, DocReader& rd) {
    std::vector<ResourceRule> out;
    const Node* list = spec->find(key);
    const std::string base = std::string(what) + "." + std::string(key);
    if (!list || list->is_null() || !rd.expect_seq(list, base)) return out;
    for (std::size_t i = 0; i < list->items().size(); ++i) {
        const Node& n = list->items()[i];
        const std::string path = base + "[" + std::to_string(i) + "]";
        if (!rd.expect_map(&n, path, {"apiGroups", "apiVersions", "resources", "operations", "scope", "resourceNames"}))
            continue;
        ResourceRule r;
        r.api_groups = rd.strings(&n, "apiGroups", path);
        r.api_versions = rd.strings(&n, "apiVersions", path);
        r.resources = rd.strings(&n, "resources", path);
        r.operations = rd.strings(&n, "operations", path);
        r.resource_names = rd.strings(&n, "resourceNames", path);
        r.scope = rd.text(&n, "scope", path, false).value_or("*");
        if (r.scope != "*" && r.scope != "Cluster" && r.scope != "Namespaced")
            rd.error(n.find("scope")->mark(), path + ".scope: \"" + r.scope + "\" is not Cluster, Namespaced or *");
        for (const auto& op : r.operations)
            if (op != "*" && op != "CREATE" && op != "UPDATE" && op != "DELETE" && op != "CONNECT")
                rd.error(n.find("operations")->mark(), path + ".operations: \"" + op + "\" is not CREATE, UPDATE, DELETE, CONNECT or *");
        out.push_back(std::move(r));
    }
    return out;
}

std::optional<MatchResources> read_match(const Node* n, std::string_view what, DocReader& rd) {
    if (!n || n->is_null()) return std::nullopt;
    if (!rd.expect_map(n, what,
                       {"resourceRules", "excludeResourceRules", "namespaceSelector", "objectSelector", "matchPolicy"}))
        return std::nullopt;
    MatchResources m;
    m.rules = read_rules(n, "resourceRules", what, rd);
    m.exclude = read_rules(n, "excludeResourceRules", what, rd);
    m.namespace_selector = rd.selector(n->find("namespaceSelector"), std::string(what) + ".namespaceSelector");
    m.object_selector = rd.selector(n->find("objectSelector"), std::string(what) + ".objectSelector");
    if (auto mp = rd.text(n, "matchPolicy", what, false); mp && *mp != "Exact" && *mp != "Equivalent")
        rd.error(n->find("matchPolicy")->mark(), std::string(what) + ".matchPolicy: \"" + *mp + "\" is not Exact or Equivalent");
    return m;
}

std::string object_name(const Resource& r, DocReader& rd) {
    const Node* meta = r.doc.find("metadata");
    auto name = meta ? rd.text(meta, "name", "metadata", true) : std::nullopt;
    if (!meta) rd.error(r.doc.mark(), r.ref.kind + ": metadata.name is required");
    if (name && !check_object_name(rd, *name, "metadata.name", meta->find("name")->mark())) return "";
    return name.value_or("");
}

bool blank(const std::string& s) { return s.find_first_not_of(" \t\n\r") == std::string::npos; }

// What validation.go's validateValidation checks beyond the expression:
// message non-blank when given and on one line, messageExpression non-blank
// when given, reason one of the supported ones (Forbidden, Invalid,
// RequestEntityTooLarge: supportedValidationPolicyReason; "Unauthorized" is
// named in the API documentation but refused by the validation).
void check_validation_fields(const Node* spec, DocReader& rd) {
    const Node* list = spec->find("validations");
    if (!list || !list->is_seq()) return;
    for (std::size_t i = 0; i < list->items().size(); ++i) {
        const Node& v = list->items()[i];
        if (!v.is_map()) continue;
        const std::string path = "spec.validations[" + std::to_string(i) + "]";
        if (const Node* m = v.find("message"); m && m->is_scalar() && !m->is_null()) {
            std::string trimmed = m->text();
            trimmed.erase(0, trimmed.find_first_not_of(" \t\n\r"));
            trimmed.erase(trimmed.find_last_not_of(" \t\n\r") + 1);
            if (trimmed.empty() && !m->text().empty())
                rd.error(m->mark(), path + ".message: Invalid value: message must be non-empty if specified");
            else if (trimmed.find_first_of("\n\r") != std::string::npos)
                rd.error(m->mark(), path + ".message: Invalid value: message must not contain line breaks");
        }
        if (const Node* m = v.find("messageExpression"); m && m->is_scalar() && !m->is_null() && !m->text().empty() &&
                                                          blank(m->text()))
            rd.error(m->mark(), path + ".messageExpression: Invalid value: must be non-empty if specified");
        if (const Node* r = v.find("reason"); r && r->is_scalar() && !r->is_null()) {
            const std::string& reason = r->text();
            if (reason != "Forbidden" && reason != "Invalid" && reason != "RequestEntityTooLarge")
                rd.error(r->mark(), path + ".reason: Unsupported value: \"" + reason +
                                        "\": supported values: \"Forbidden\", \"Invalid\", \"RequestEntityTooLarge\"");
        }
    }
}

}  // namespace

bool is_admission_policy(const Resource& r) { return admission_group(r) && r.ref.kind == "ValidatingAdmissionPolicy"; }
bool is_admission_binding(const Resource& r) {
    return admission_group(r) && r.ref.kind == "ValidatingAdmissionPolicyBinding";
}

std::optional<AdmissionPolicy> parse_admission_policy(const Resource& r, DocReader& rd) {
    const int before = rd.errors;
    AdmissionPolicy p;
    p.file = r.file;
    p.mark = r.doc.mark();
    p.name = object_name(r, rd);
    const Node* spec = r.doc.find("spec");
    if (!spec || !rd.expect_map(spec, "spec",
                                {"failurePolicy", "paramKind", "matchConstraints", "matchConditions", "variables",
                                 "validations", "auditAnnotations"})) {
        if (!spec) rd.error(r.doc.mark(), "ValidatingAdmissionPolicy: spec is required");
        return std::nullopt;
    }
    if (auto fp = rd.text(spec, "failurePolicy", "spec", false)) {
        if (*fp == "Ignore") p.fail_closed = false;
        else if (*fp != "Fail") rd.error(spec->find("failurePolicy")->mark(), "spec.failurePolicy: \"" + *fp + "\" is not Fail or Ignore");
    }
    if (const Node* pk = spec->find("paramKind"); pk && !pk->is_null() && rd.expect_map(pk, "spec.paramKind", {"apiVersion", "kind"})) {
        p.param_api_version = rd.text(pk, "apiVersion", "spec.paramKind", true).value_or("");
        p.param_kind = rd.text(pk, "kind", "spec.paramKind", true).value_or("");
    }
    p.constraints = read_match(spec->find("matchConstraints"), "spec.matchConstraints", rd);
    if (!p.constraints || p.constraints->rules.empty())
        rd.error(spec->find("matchConstraints") ? spec->find("matchConstraints")->mark() : spec->mark(),
                 "spec.matchConstraints.resourceRules: required (which resources the policy applies to)");
    p.conditions = rd.named_expressions(spec, "matchConditions", "spec", match_condition_names(rd));
    p.variables = rd.named_expressions(spec, "variables", "spec", variable_names(rd));
    // validation.go: validations or auditAnnotations must have an item. Audit
    // annotations are not evaluated offline, but a policy made only of them
    // is valid (and never denies).
    const Node* audit = spec->find("auditAnnotations");
    const Node* validations = spec->find("validations");
    const bool audit_only = audit && audit->is_seq() && !audit->items().empty() &&
                            (!validations || validations->is_null() || (validations->is_seq() && validations->items().empty()));
    if (!audit_only)
        p.validations = parse_validations(spec, rd, "spec", {"expression", "message", "messageExpression", "reason"});
    check_validation_fields(spec, rd);
    for (const auto& v : p.validations) {
        if (names_authorizer(v.expr.source)) p.authorizer_uses.push_back(v.expr.mark);
        if (v.message_expr && names_authorizer(v.message_expr->source)) p.authorizer_uses.push_back(v.message_expr->mark);
    }
    for (const auto* list : {&p.conditions, &p.variables})
        for (const auto& c : *list)
            if (names_authorizer(c.expr.source)) p.authorizer_uses.push_back(c.expr.mark);
    if (rd.errors != before || p.name.empty()) return std::nullopt;
    return p;
}

std::optional<AdmissionBinding> parse_admission_binding(const Resource& r, DocReader& rd) {
    const int before = rd.errors;
    AdmissionBinding b;
    b.file = r.file;
    b.mark = r.doc.mark();
    b.name = object_name(r, rd);
    const Node* spec = r.doc.find("spec");
    if (!spec || !rd.expect_map(spec, "spec", {"policyName", "paramRef", "matchResources", "validationActions"})) {
        if (!spec) rd.error(r.doc.mark(), "ValidatingAdmissionPolicyBinding: spec is required");
        return std::nullopt;
    }
    b.policy_name = rd.text(spec, "policyName", "spec", true).value_or("");
    if (const Node* pn = spec->find("policyName")) {
        b.policy_name_mark = pn->mark();
        if (!b.policy_name.empty()) check_object_name(rd, b.policy_name, "spec.policyName", pn->mark());
    }
    if (const Node* pr = spec->find("paramRef"); pr && !pr->is_null() &&
                                                 rd.expect_map(pr, "spec.paramRef",
                                                               {"name", "namespace", "selector", "parameterNotFoundAction"})) {
        ParamRef ref;
        ref.name = rd.text(pr, "name", "spec.paramRef", false).value_or("");
        ref.namespace_ = rd.text(pr, "namespace", "spec.paramRef", false).value_or("");
        ref.selector = rd.selector(pr->find("selector"), "spec.paramRef.selector");
        if (!ref.name.empty() == ref.selector.has_value())
            rd.error(pr->mark(), "spec.paramRef: exactly one of name or selector must be set");
        if (auto a = rd.text(pr, "parameterNotFoundAction", "spec.paramRef", false)) {
            if (*a == "Allow") ref.deny_when_missing = false;
            else if (*a != "Deny")
                rd.error(pr->find("parameterNotFoundAction")->mark(),
                         "spec.paramRef.parameterNotFoundAction: \"" + *a + "\" is not Allow or Deny");
        }
        b.param_ref = std::move(ref);
    }
    b.match = read_match(spec->find("matchResources"), "spec.matchResources", rd);
    for (const auto& a : rd.strings(spec, "validationActions", "spec")) {
        const Mark at = spec->find("validationActions")->mark();
        std::optional<Action> action;
        if (a == "Deny") action = Action::Deny;
        else if (a == "Warn") action = Action::Warn;
        else if (a == "Audit") action = Action::Audit;
        else rd.error(at, "spec.validationActions: \"" + a + "\" is not Deny, Warn or Audit");
        if (!action) continue;
        // validation.go validateValidationActions: no repeats, not Deny and Warn together.
        if (std::find(b.actions.begin(), b.actions.end(), *action) != b.actions.end())
            rd.error(at, "spec.validationActions: Duplicate value: \"" + a + "\"");
        b.actions.push_back(*action);
    }
    if (std::find(b.actions.begin(), b.actions.end(), Action::Deny) != b.actions.end() &&
        std::find(b.actions.begin(), b.actions.end(), Action::Warn) != b.actions.end())
        rd.error(spec->find("validationActions")->mark(),
                 "spec.validationActions: Invalid value: must not contain both Deny and Warn (repeating the same "
                 "validation failure information in the API response and headers serves no purpose)");
    if (b.actions.empty() && rd.errors == before)
        rd.error(spec->mark(), "spec.validationActions: at least one of Deny, Warn, Audit is required");
    if (rd.errors != before || b.name.empty()) return std::nullopt;
    return b;
}

}  // namespace queueforge::policy
