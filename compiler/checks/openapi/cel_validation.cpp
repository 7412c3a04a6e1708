// Evaluation of x-kubernetes-validations (apiextensions-apiserver
// pkg/apiserver/schema/cel/validation.go, validateExpressions): results,
// messages, reasons, fieldPath and the cost budget as the API server has
// them. Messages keep the server's older wording with the schema type as the
// "value" (`spec: Invalid value: "object": ...`), which Kueue's own rules in
// compiler/checks/rules print too.
#include "checks/openapi/cel_validation.hpp"
#include "checks/openapi/values.hpp"

namespace queueforge::openapi {

std::string trim_rule_text(std::string_view s) {
    const auto b = s.find_first_not_of(" \t\r\n");
    if (b == std::string_view::npos) return {};
    const auto e = s.find_last_not_of(" \t\r\n");
    return std::string(s.substr(b, e - b + 1));
}

namespace {

// celconfig.MaxEvaluatedMessageExpressionSizeBytes.
constexpr std::size_t kMaxMessageBytes = 5 * 1024;

// ruleErrorString: how a rule is named in evaluation errors.
std::string rule_name(const CelEntry& c) {
    std::string m = trim_rule_text(c.message);
    return m.empty() ? trim_rule_text(c.rule) : m;
}

// ruleMessageOrDefault.
std::string rule_message(const CelEntry& c) {
    std::string m = trim_rule_text(c.message);
    return m.empty() ? "failed rule: " + trim_rule_text(c.rule) : m;
}

bool is_cost_error(const cel::Value& v) { return v.is_error() && v.error_message().starts_with("cost limit exceeded"); }

class Evaluator {
public:
    Evaluator(const std::string& file, const ObjectRef& ref, const CelOptions& opts, Diagnostics& out)
        : file_(file), ref_(ref), opts_(opts), out_(out), remaining_(opts.object_cost_budget) {}

    void run(const std::vector<CelSite>& sites) {
        for (const auto& site : sites)
            if (!owner(*site.schema, site)) return;
    }

private:
    const std::string& file_;
    const ObjectRef& ref_;
    const CelOptions& opts_;
    Diagnostics& out_;
    std::uint64_t remaining_;
    std::size_t recorded_ = 0;

    // The rules of `s` and of its allOf branches on one value; false once
    // evaluation has to stop (budget, error limit).
    bool owner(const Schema& s, const CelSite& site) {
        if (s.cel_compiled) {
            for (std::size_t i = 0; i < s.cel.size(); ++i)
                if (!rule(s.cel[i], s.cel_compiled->rules[i], *site.schema, site)) return false;
        }
        for (const auto& a : s.all_of)
            if (!owner(*a, site)) return false;
        return true;
    }

    static std::string shown(const std::string& path) { return path.empty() ? "<nil>" : path; }
    // sts.Type, the "value" of the server's CEL field errors.
    static std::string type_value(const Schema& s) { return go_quote(s.int_or_string ? "" : s.type_name); }

    bool add(Mark mark, const std::string& path, std::string message) {
        out_.add(Diagnostic{.severity = Severity::Error,
                            .file = file_,
                            .mark = mark,
                            .message = std::move(message),
                            .rule = "schema.cel",
                            .object = ref_,
                            .path = path});
        return ++recorded_ < opts_.max_errors;
    }

    bool invalid(const CelSite& site, const Schema& node, const std::string& detail) {
        return add(site.node->mark(), site.path,
                   shown(site.path) + ": Invalid value: " + type_value(node) + ": " + detail);
    }

    // Runs `p` and charges its cost to the object's budget; nullopt when the
    // budget is exhausted.
    std::optional<cel::Value> eval(const cel::Program& p, const cel::Activation& a) {
        cel::EvalStats stats;
        cel::Value v = p.eval(a, cel::EvalOptions{.cost_limit = opts_.rule_cost_limit}, &stats);
        if (stats.cost > remaining_) return std::nullopt;
        remaining_ -= stats.cost;
        return v;
    }

    bool rule(const CelEntry& c, const CompiledRule& r, const Schema& node, const CelSite& site) {
        if (!r.program) return true;  // noted once per CRD by the caller (cel_problems)
        // No old object exists on create: transition rules wait for an
        // update, unless they accept an absent oldSelf.
        if (r.uses_old_self && !c.optional_old_self) {
            if (opts_.stats) ++opts_.stats->skipped;
            return true;
        }
        if (opts_.stats) ++opts_.stats->evaluated;
        cel::Activation act{{"self", site.self}};
        if (c.optional_old_self) act.emplace("oldSelf", cel::Value::optional_none());

        auto result = eval(*r.program, act);
        if (opts_.stats && (!result || result->kind() != cel::Value::Kind::Bool)) ++opts_.stats->errors;
        if (!result) {
            invalid(site, node, "validation failed due to running out of cost budget, no further validation rules will be run");
            return false;
        }
        if (result->is_error()) {
            const std::string& err = result->error_message();
            if (is_cost_error(*result)) {
                invalid(site, node, "'" + err + "': no further validation rules will be run due to call cost exceeds limit for rule: " +
                                        rule_name(c));
                return false;
            }
            if (err.starts_with("no such overload"))
                return invalid(site, node, "'" + err + "': call arguments did not match a supported operator, function or macro signature for rule: " +
                                               rule_name(c));
            return invalid(site, node, err + " evaluating rule: " + rule_name(c));
        }
        if (result->kind() != cel::Value::Kind::Bool)
            // The server's type checker refuses such a rule with the CRD.
            return invalid(site, node, "rule evaluated to " + result->type_name() + ", not bool: " + rule_name(c));
        if (result->as_bool()) return true;
        if (opts_.stats) ++opts_.stats->failed;
        return failure(c, r, node, site, act);
    }

    bool failure(const CelEntry& c, const CompiledRule& r, const Schema& node, const CelSite& site,
                 const cel::Activation& act) {
        std::string detail;
        if (r.message) {
            auto m = eval(*r.message, act);
            if (!m) {
                invalid(site, node, "messageExpression evaluation failed due to running out of cost budget, no further validation rules will be run");
                return false;
            }
            if (is_cost_error(*m)) {
                invalid(site, node, "no further validation rules will be run due to call cost exceeds limit for messageExpression: " +
                                        go_quote(c.message_expression));
                return false;
            }
            // A messageExpression that fails, or yields no usable single-line
            // string, falls back to the message, as on the server.
            if (m->kind() == cel::Value::Kind::String) {
                std::string t = trim_rule_text(m->as_string());
                if (!t.empty() && t.size() <= kMaxMessageBytes && t.find('\n') == std::string::npos) detail = std::move(t);
            }
        }
        if (detail.empty()) detail = rule_message(c);

        std::string path = site.path;
        const Node* at = site.node;
        for (const auto& step : r.field_path) {
            if (step.map_key)
                path += "[" + step.name + "]";
            else
                path += (path.empty() ? "" : ".") + step.name;
            // The finding points at the named field when the object has it.
            const Node* child = at && at->is_map() ? at->find(step.name) : nullptr;
            at = child;
        }
        const Mark mark = at ? at->mark() : site.node->mark();
        const std::string p = shown(path);
        switch (c.reason) {
            case CelReason::Forbidden: return add(mark, path, p + ": Forbidden: " + detail);
            case CelReason::Required: return add(mark, path, p + ": Required value: " + detail);
            // field.Duplicate carries no detail; the rule's message is kept
            // after the value so that it is not lost.
            case CelReason::Duplicate: return add(mark, path, p + ": Duplicate value: " + type_value(node) + ": " + detail);
            case CelReason::Invalid: break;
        }
        return add(mark, path, p + ": Invalid value: " + type_value(node) + ": " + detail);
    }
};

}  // namespace

bool blocks_cel(const Diagnostic& d) {
    if (d.severity != Severity::Error || !d.rule.starts_with("schema.")) return false;
    if (d.rule == "schema.type" || d.rule == "schema.nullable" || d.rule == "schema.required") return true;
    // NotSupported, Required, TooLong and TooMany as their messages print them.
    for (const char* body : {": Unsupported value: ", ": Required value", ": Too long: ", ": Too many: "})
        if (d.message.find(body) != std::string::npos) return true;
    return false;
}

void validate_cel(const Schema& root, const Node& doc, const std::string& file, const ObjectRef& ref,
                  Diagnostics& diags, const CelOptions& opts) {
    if (!root.cel_below) return;
    compile_cel(root);
    // Rules see the object as stored: defaulted, nulls of non-nullable
    // fields dropped.
    Node defaulted = doc;
    apply_defaults(root, defaulted);
    Evaluator(file, ref, opts, diags).run(cel_sites(root, defaulted));
}

}  // namespace queueforge::openapi
