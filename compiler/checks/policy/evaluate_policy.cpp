// queueforge Policies: once per matching object (scope: object) or once over
// all objects (scope: set). A validation returns true (fine), false (one
// finding), or a list of violations (nested lists are flattened), each
//   * a string: the message,
//   * an object from `objects`: the finding is about that object,
//   * a map {message?, fieldPath?, object?}.
// An expression that fails to evaluate is a finding too, never a crash.
#include "checks/policy/evaluate.hpp"

#include "checks/policy/findings.hpp"
#include "checks/policy/match.hpp"

#include <set>
#include <tuple>

namespace queueforge::policy {

namespace {

using K = cel::Value::Kind;

struct Violation {
    std::optional<std::size_t> object;
    std::string message;  // empty: from the validation
    std::string field_path;
    cel::Value element;
};

bool looks_like_object(const cel::Value& v) { return v.map_find("kind") && v.map_find("metadata"); }

// Flattens nested lists of violations; returns an error text for elements of
// the wrong shape.
void collect(const cel::Value& v, const Cluster& c, std::vector<Violation>& out, std::string& error, int depth = 0) {
    if (!error.empty()) return;
    if (v.kind() == K::List) {
        if (depth > 16) {
            error = "violation lists nest deeper than 16 levels";
            return;
        }
        for (const auto& item : v.as_list()) collect(item, c, out, error, depth + 1);
        return;
    }
    if (depth == 0) {
        error = "a validation must return bool or a list of violations, got " + v.type_name();
        return;
    }
    Violation x;
    x.element = v;
    if (v.kind() == K::String) {
        x.message = v.as_string();
    } else if (v.kind() == K::Map && looks_like_object(v)) {
        x.object = c.find(v);
        if (!x.object) {
            error = "a violation names an object that is not among the inputs";
            return;
        }
    } else if (v.kind() == K::Map) {
        for (const auto& [k, val] : v.map_entries()) {
            const std::string key = k.kind() == K::String ? k.as_string().str() : k.debug_string();
            if (key == "message" && val.kind() == K::String) {
                x.message = val.as_string();
            } else if (key == "fieldPath" && val.kind() == K::String) {
                x.field_path = val.as_string();
            } else if (key == "object" && val.kind() == K::Map) {
                x.object = c.find(val);
                if (!x.object) {
                    error = "a violation's object is not among the inputs";
                    return;
                }
            } else {
                error = "a violation map has keys message (string), fieldPath (string) and object (one of "
                        "`objects`); got " + key + ": " + val.type_name();
                return;
            }
        }
    } else {
        error = "a violation is a string, an object or a map, got " + v.type_name();
    }
    out.push_back(std::move(x));
}

class Run {
public:
    Run(const Policy& p, const Cluster& c, Diagnostics& out, std::set<std::string>& failed)
        : p_(p), c_(c), out_(out), failed_(failed) {
        act_["objects"] = c.all;
        act_["params"] = p.params;
        act_["target"] = c.target_value;
        eo_.kind_index = &c.kinds;
    }

    void object_scope(const std::vector<std::size_t>& matched) {
        eo_.cost_limit = c_.cost_limit;
        for (std::size_t i : matched) {
            // A copy of its own: what the policy converts of the object is
            // freed after it, not kept for the rest of the run.
            act_["object"] = cel::unconverted(c_.value(i));
            once(i);
        }
    }

    void set_scope(const std::vector<std::size_t>& matched) {
        eo_.cost_limit = c_.set_cost_limit;
        once(matched.front());
    }

private:
    void fail(std::size_t at, const std::string& what, const cel::Value& err) {
        failed_.insert(p_.id);
        report(c_, {p_.severity, p_.id, "policy " + p_.id + ": " + what + " could not be evaluated: " + describe(err), at, {}},
               out_);
    }

    // One evaluation: `at` is the object findings default to.
    void once(std::size_t at) {
        unbind_variables(p_.variables, act_);
        for (const auto& cond : p_.conditions) {
            cel::Value v = cond.expr.program.eval(act_, eo_);
            if (v.kind() == K::Bool) {
                if (!v.as_bool()) return;
                continue;
            }
            fail(at, "matchCondition " + cond.name, v.is_error() ? v : cel::Value::error("expected bool, got " + v.type_name()));
            return;
        }
        bind_variables(p_.variables, act_, eo_);
        for (const auto& val : p_.validations) validate(val, at);
    }

    void validate(const Validation& val, std::size_t at) {
        cel::Value v = val.expr.program.eval(act_, eo_);
        if (v.is_error()) return fail(at, "validation `" + excerpt(val.expr.source) + "`", v);
        if (v.kind() == K::Bool) {
            std::set<std::tuple<std::size_t, std::string, std::string>> seen;
            if (!v.as_bool()) emit(val, at, Violation{}, seen);
            return;
        }
        std::vector<Violation> vs;
        std::string error;
        collect(v, c_, vs, error);
        if (!error.empty()) return fail(at, "validation `" + excerpt(val.expr.source) + "`", cel::Value::error(error));
        // The same object, message and field from several elements is one finding.
        std::set<std::tuple<std::size_t, std::string, std::string>> seen;
        for (const auto& x : vs) emit(val, at, x, seen);
    }

    std::string message(const Validation& val, const Violation& x, std::size_t at) {
        if (!x.message.empty()) return x.message;
        if (val.message_expr) {
            // messageExpression sees the object the finding is about and the violation itself.
            cel::Activation act = act_;
            act["object"] = c_.value(x.object.value_or(at));
            act["violation"] = x.element;
            cel::Value m = val.message_expr->program.eval(act, eo_);
            if (m.kind() == K::String && !m.as_string().empty()) return m.as_string();
        }
        if (!val.message.empty()) return val.message;
        if (!p_.description.empty()) return p_.description;
        return "failed expression: " + excerpt(val.expr.source);
    }

    void emit(const Validation& val, std::size_t at, const Violation& x,
              std::set<std::tuple<std::size_t, std::string, std::string>>& seen) {
        Finding f;
        f.severity = p_.severity;
        f.rule = p_.id;
        f.message = message(val, x, at);
        f.object = x.object.value_or(at);
        f.field_path = x.field_path.empty() ? val.field_path : x.field_path;
        if (seen.insert({f.object, f.message, f.field_path}).second) report(c_, f, out_);
    }

    const Policy& p_;
    const Cluster& c_;
    Diagnostics& out_;
    std::set<std::string>& failed_;
    cel::Activation act_;
    cel::EvalOptions eo_;
};

}  // namespace

void bind_variables(const std::vector<NamedExpression>& vars, cel::Activation& act, const cel::EvalOptions& eo) {
    for (const auto& v : vars) act[v.key] = v.expr.program.eval(act, eo);
}

void unbind_variables(const std::vector<NamedExpression>& vars, cel::Activation& act) {
    for (const auto& v : vars)
        if (auto it = act.find(v.key); it != act.end()) act.erase(it);
}

bool reads_objects(const Policy& p) {
    auto in = [](const Expression& e) { return e.source.find("objects") != std::string::npos; };
    for (const auto& c : p.conditions)
        if (in(c.expr)) return true;
    for (const auto& v : p.variables)
        if (in(v.expr)) return true;
    for (const auto& v : p.validations)
        if (in(v.expr) || (v.message_expr && in(*v.message_expr))) return true;
    return false;
}

void evaluate_policy(const Policy& p, const Cluster& c, Diagnostics& out, std::set<std::string>& failed) {
    if (p.targets && (!c.target || !p.targets->matches(*c.target))) return;
    std::vector<std::size_t> matched;
    for (std::size_t i = 0; i < c.objects.size(); ++i)
        if (kinds_match(p.kinds, c.objects[i])) matched.push_back(i);
    if (matched.empty()) return;
    Run run(p, c, out, failed);
    if (p.scope == Scope::Object) run.object_scope(matched);
    else run.set_scope(matched);
}

}  // namespace queueforge::policy
