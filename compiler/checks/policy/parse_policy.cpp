// queueforge's own Policy and PolicyConfig documents (policies/README.md).
#include "checks/policy/parse.hpp"

#include <queueforge/checks/cel.hpp>

namespace queueforge::policy {

namespace {

bool valid_id(std::string_view s) {
    if (s.empty() || s.size() > 253) return false;
    for (char c : s)
        if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '.')) return false;
    return s.front() != '-' && s.front() != '.' && s.back() != '-' && s.back() != '.';
}

std::optional<Severity> severity_of(std::string_view s) {
    if (s == "error") return Severity::Error;
    if (s == "warning") return Severity::Warning;
    if (s == "note") return Severity::Note;
    return std::nullopt;
}

// metadata.name as the policy id.
std::optional<std::string> read_id(const Resource& r, DocReader& rd) {
    const Node* meta = r.doc.find("metadata");
    if (!meta) {
        rd.error(r.doc.mark(), r.ref.kind + ": metadata.name is required (the policy id)");
        return std::nullopt;
    }
    if (!rd.expect_map(meta, "metadata", {"name", "labels", "annotations"})) return std::nullopt;
    auto name = rd.text(meta, "name", "metadata", true);
    if (!name) return std::nullopt;
    if (!valid_id(*name)) {
        rd.error(meta->find("name")->mark(),
                 "metadata.name: \"" + *name + "\" is not a policy id (lowercase letters, digits, '-' and '.')");
        return std::nullopt;
    }
    return name;
}

std::vector<KindMatch> read_kinds(const Node* match, DocReader& rd) {
    std::vector<KindMatch> out;
    const Node* kinds = match ? match->find("kinds") : nullptr;
    if (!kinds || kinds->is_null() || !rd.expect_seq(kinds, "spec.match.kinds")) return out;
    for (std::size_t i = 0; i < kinds->items().size(); ++i) {
        const Node& k = kinds->items()[i];
        const std::string path = "spec.match.kinds[" + std::to_string(i) + "]";
        if (!rd.expect_map(&k, path, {"group", "kinds", "apiVersion", "kind"})) continue;
        KindMatch m;
        const bool by_group = k.find("group") || k.find("kinds");
        const bool by_version = k.find("apiVersion") || k.find("kind");
        if (by_group && by_version) {
            rd.error(k.mark(), path + ": give group/kinds or apiVersion/kind, not both");
            continue;
        }
        if (by_version) {
            auto api = rd.text(&k, "apiVersion", path, true);
            auto kind = rd.text(&k, "kind", path, true);
            if (!api || !kind) continue;
            m.api_version = *api;
            m.kinds = {*kind};
        } else {
            m.group = rd.text(&k, "group", path, false).value_or("");
            m.kinds = rd.strings(&k, "kinds", path);
        }
        out.push_back(std::move(m));
    }
    return out;
}

}  // namespace

bool is_policy_document(const Resource& r) { return r.ref.api_version == kPolicyApiVersion && r.ref.kind == "Policy"; }
bool is_policy_config_document(const Resource& r) {
    return r.ref.api_version == kPolicyApiVersion && r.ref.kind == "PolicyConfig";
}

std::vector<Validation> parse_validations(const Node* spec, DocReader& rd, std::string_view what,
                                          std::initializer_list<std::string_view> fields) {
    std::vector<Validation> out;
    const Node* list = spec ? spec->find("validations") : nullptr;
    const std::string base = std::string(what) + ".validations";
    if (!list || list->is_null() || (list->is_seq() && list->items().empty())) {
        rd.error(spec ? spec->mark() : Mark{}, base + ": at least one validation is required");
        return out;
    }
    if (!rd.expect_seq(list, base)) return out;
    for (std::size_t i = 0; i < list->items().size(); ++i) {
        const Node& v = list->items()[i];
        const std::string path = base + "[" + std::to_string(i) + "]";
        if (!rd.expect_map(&v, path, fields)) continue;
        auto expr = rd.expression(&v, "expression", path, true);
        auto message_expr = rd.expression(&v, "messageExpression", path, false);
        auto message = rd.text(&v, "message", path, false);
        auto field_path = rd.text(&v, "fieldPath", path, false);
        auto reason = rd.text(&v, "reason", path, false);
        if (!expr) continue;
        out.push_back({std::move(*expr), message.value_or(""), std::move(message_expr), field_path.value_or(""),
                       reason.value_or("")});
    }
    return out;
}

std::optional<Policy> parse_policy(const Resource& r, DocReader& rd) {
    const int before = rd.errors;
    rd.expect_map(&r.doc, "Policy", {"apiVersion", "kind", "metadata", "spec"});
    Policy p;
    p.file = r.file;
    p.mark = r.doc.mark();
    p.id = read_id(r, rd).value_or("");
    const Node* spec = r.doc.find("spec");
    if (!spec) {
        rd.error(r.doc.mark(), "Policy: spec is required");
        return std::nullopt;
    }
    if (!rd.expect_map(spec, "spec",
                       {"severity", "description", "match", "matchConditions", "params", "variables", "validations",
                        "scope", "replaces"}))
        return std::nullopt;

    if (auto s = rd.text(spec, "severity", "spec", true)) {
        if (auto sev = severity_of(*s)) p.severity = *sev;
        else rd.error(spec->find("severity")->mark(), "spec.severity: \"" + *s + "\" is not error, warning or note");
    }
    p.description = rd.text(spec, "description", "spec", false).value_or("");
    if (auto s = rd.text(spec, "scope", "spec", false)) {
        if (*s == "set") p.scope = Scope::Set;
        else if (*s != "object") rd.error(spec->find("scope")->mark(), "spec.scope: \"" + *s + "\" is not object or set");
    }
    if (const Node* match = spec->find("match"); match && !match->is_null()) {
        if (rd.expect_map(match, "spec.match", {"kinds", "targets"})) {
            p.kinds = read_kinds(match, rd);
            if (auto t = rd.text(match, "targets", "spec.match", false)) {
                std::string error;
                p.targets = parse_target_range(*t, error);
                if (!p.targets) rd.error(match->find("targets")->mark(), "spec.match.targets: " + error);
            }
        }
    }
    p.conditions = rd.named_expressions(spec, "matchConditions", "spec", unique_cel_identifiers(rd));
    if (const Node* params = spec->find("params"); params && !params->is_null()) {
        if (params->is_map()) p.params_node = *params;
        else rd.error(params->mark(), "spec.params: expected a map");
    }
    p.variables = rd.named_expressions(spec, "variables", "spec", unique_cel_identifiers(rd));
    p.validations = parse_validations(spec, rd, "spec", {"expression", "message", "messageExpression", "fieldPath"});
    p.replaces = rd.strings(spec, "replaces", "spec");
    if (rd.errors != before || p.id.empty()) return std::nullopt;
    return p;
}

std::optional<PolicyConfig> parse_policy_config(const Resource& r, DocReader& rd) {
    const int before = rd.errors;
    rd.expect_map(&r.doc, "PolicyConfig", {"apiVersion", "kind", "metadata", "spec"});
    const Node* spec = r.doc.find("spec");
    if (!spec) {
        rd.error(r.doc.mark(), "PolicyConfig: spec is required");
        return std::nullopt;
    }
    if (!rd.expect_map(spec, "spec", {"policy", "severity", "params"})) return std::nullopt;
    PolicyConfig c;
    c.file = r.file;
    c.mark = r.doc.mark();
    c.policy = rd.text(spec, "policy", "spec", true).value_or("");
    if (auto s = rd.text(spec, "severity", "spec", false)) {
        c.severity = severity_of(*s);
        if (!c.severity) rd.error(spec->find("severity")->mark(), "spec.severity: \"" + *s + "\" is not error, warning or note");
    }
    if (const Node* params = spec->find("params"); params && !params->is_null()) {
        if (params->is_map()) c.params = *params;
        else rd.error(params->mark(), "spec.params: expected a map");
    }
    if (rd.errors != before) return std::nullopt;
    return c;
}

}  // namespace queueforge::policy
