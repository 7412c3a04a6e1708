// Reading policy inputs: the built-in files and --policy paths are loaded as
// Kubernetes-style documents, sorted into queueforge Policies, PolicyConfigs,
// ValidatingAdmissionPolicies, bindings and (everything else) param objects,
// then configs and --disable are applied.
#include <queueforge/checks/policy.hpp>

#include "checks/policy/builtin.hpp"
#include "checks/policy/model.hpp"
#include "checks/policy/parse.hpp"
#include "frontend/site/reader.hpp"

#include <algorithm>
#include <map>

namespace queueforge::policy {

namespace {

struct Inputs {
    LoadedResources docs;
    std::set<std::string> builtin_files;
};

std::string_view source_of(const LoadedResources& docs, const std::string& file) {
    for (const auto& s : docs.sources)
        if (s.path == file) return s.text;
    return {};
}

// Merges a PolicyConfig's params over the defaults, key by key.
void apply_config(Policy& p, const PolicyConfig& c, Diagnostics& diags) {
    if (c.severity) p.severity = *c.severity;
    if (!c.params) return;
    if (!p.params_node) p.params_node = Node::mapping();
    std::vector<std::string> known;
    for (const auto& e : p.params_node->entries()) known.push_back(e.key);
    for (const auto& e : c.params->entries()) {
        if (!p.params_node->find(e.key)) {
            std::string msg = "PolicyConfig for " + p.id + ": policy " + p.id + " has no param \"" + e.key + "\"";
            std::string hint = site::did_you_mean(e.key, known);
            if (!hint.empty()) msg += "; did you mean \"" + hint + "\"?";
            diags.warning(c.file, e.key_mark(), msg + " (it is passed on anyway)", "policy.unknown-param");
        }
        p.params_node->set(e.key, e.value);
    }
}

std::vector<std::string> all_ids(const std::vector<Policy>& ps, const std::vector<AdmissionPolicy>& vaps) {
    std::vector<std::string> ids;
    for (const auto& p : ps) ids.push_back(p.id);
    for (const auto& v : vaps) ids.push_back(v.name);
    return ids;
}

PolicySet build(Inputs in, const Options& opts, Diagnostics& diags) {
    auto data = std::make_shared<Data>();
    std::vector<Policy> policies;
    std::vector<AdmissionPolicy> vaps;
    std::vector<PolicyConfig> configs;
    std::map<std::string, std::size_t> by_id;  // id -> index in policies
    std::map<std::string, std::size_t> vap_by_name;

    for (const auto& r : in.docs.resources) {
        DocReader rd{r.file, source_of(in.docs, r.file), diags};
        const bool builtin = in.builtin_files.count(r.file) > 0;
        if (is_policy_document(r)) {
            auto p = parse_policy(r, rd);
            if (!p) continue;
            p->builtin = builtin;
            auto it = by_id.find(p->id);
            if (it == by_id.end()) {
                by_id[p->id] = policies.size();
                policies.push_back(std::move(*p));
            } else if (policies[it->second].builtin && !builtin) {
                // A user policy with a built-in's id replaces it: the override path.
                policies[it->second] = std::move(*p);
            } else {
                const auto& first = policies[it->second];
                diags.error(r.file, r.doc.mark(),
                            "policy " + p->id + " is defined twice (first in " + first.file + ":" +
                                std::to_string(first.mark.line) + ")",
                            "policy.invalid");
            }
        } else if (is_policy_config_document(r)) {
            if (auto c = parse_policy_config(r, rd)) configs.push_back(std::move(*c));
        } else if (is_admission_policy(r)) {
            auto v = parse_admission_policy(r, rd);
            if (!v) continue;
            if (vap_by_name.count(v->name)) {
                diags.error(r.file, r.doc.mark(), "ValidatingAdmissionPolicy " + v->name + " is given twice", "policy.invalid");
                continue;
            }
            vap_by_name[v->name] = vaps.size();
            vaps.push_back(std::move(*v));
        } else if (is_admission_binding(r)) {
            if (auto b = parse_admission_binding(r, rd)) data->bindings.push_back(std::move(*b));
        } else if (r.ref.api_version == kPolicyApiVersion) {
            diags.error(r.file, r.doc.mark(),
                        "unknown queueforge policy kind \"" + r.ref.kind + "\" (expected Policy or PolicyConfig)",
                        "policy.invalid");
        } else {
            data->params.push_back(r);  // ValidatingAdmissionPolicy params
        }
    }

    for (const auto& c : configs) {
        auto it = by_id.find(c.policy);
        if (it == by_id.end()) {
            std::string msg = "PolicyConfig names no loaded policy \"" + c.policy + "\"";
            std::string hint = site::did_you_mean(c.policy, all_ids(policies, vaps));
            if (!hint.empty()) msg += "; did you mean \"" + hint + "\"?";
            diags.warning(c.file, c.mark, msg, "policy.unknown-id");
            continue;
        }
        apply_config(policies[it->second], c, diags);
    }

    const std::set<std::string> disabled(opts.disabled.begin(), opts.disabled.end());
    const auto ids = all_ids(policies, vaps);
    for (const auto& d : disabled)
        if (opts.report_unknown_disabled && std::find(ids.begin(), ids.end(), d) == ids.end()) {
            std::string msg = "--disable " + d + ": no loaded policy has this id";
            std::string hint = site::did_you_mean(d, ids);
            if (!hint.empty()) msg += "; did you mean \"" + hint + "\"?";
            diags.warning("", {}, msg, "policy.unknown-id");
        }

    for (auto& p : policies) {
        // A disabled policy still replaces the compiler's findings it restates:
        // disabling it is how a user turns that check off.
        data->replaced.insert(p.replaces.begin(), p.replaces.end());
        if (disabled.count(p.id)) continue;
        if (p.params_node) p.params = cel::from_node(*p.params_node);
        data->policies.push_back(std::move(p));
    }
    for (auto& v : vaps)
        if (!disabled.count(v.name)) data->admission.push_back(std::move(v));
    std::sort(data->policies.begin(), data->policies.end(), [](const Policy& a, const Policy& b) { return a.id < b.id; });
    std::sort(data->admission.begin(), data->admission.end(),
              [](const AdmissionPolicy& a, const AdmissionPolicy& b) { return a.name < b.name; });

    for (const auto& b : data->bindings) {
        if (vap_by_name.count(b.policy_name)) continue;
        std::string msg = "ValidatingAdmissionPolicyBinding " + b.name + " binds policy \"" + b.policy_name +
                          "\", which is not among the --policy inputs; the binding is ignored";
        std::vector<std::string> names;
        for (const auto& [n, _] : vap_by_name) names.push_back(n);
        std::string hint = site::did_you_mean(b.policy_name, names);
        if (!hint.empty()) msg += "; did you mean \"" + hint + "\"?";
        diags.warning(b.file, b.policy_name_mark.known() ? b.policy_name_mark : b.mark, msg, "policy.binding");
    }
    for (const auto& v : data->admission) {
        if (!v.authorizer_uses.empty())
            diags.warning(v.file, v.authorizer_uses.front(),
                          "ValidatingAdmissionPolicy " + v.name +
                              ": `authorizer` is not available offline (there is no API server to ask); the "
                              "expressions that use it are skipped",
                          "policy.unsupported");
        const bool bound = std::any_of(data->bindings.begin(), data->bindings.end(),
                                       [&](const AdmissionBinding& b) { return b.policy_name == v.name; });
        if (!bound)
            diags.note(v.file, v.mark,
                       "no ValidatingAdmissionPolicyBinding among the --policy inputs binds " + v.name +
                           (v.param_kind.empty() ? "; it is checked as if bound with validationActions [Deny]"
                                                 : "; it needs params (paramKind " + v.param_kind +
                                                       ") that only a binding names, so it is not evaluated"),
                       "policy.binding");
    }
    return PolicySet(std::move(data));
}

}  // namespace

PolicySet::PolicySet() : data_(std::make_shared<Data>()) {}

std::vector<std::string> PolicySet::ids() const {
    std::vector<std::string> out;
    for (const auto& p : data_->policies) out.push_back(p.id);
    for (const auto& v : data_->admission) out.push_back(v.name);
    std::sort(out.begin(), out.end());
    return out;
}

std::vector<std::string> PolicySet::replaced_rules() const {
    return {data_->replaced.begin(), data_->replaced.end()};
}

PolicySet load_policies(const Options& opts, Diagnostics& diags, std::vector<SourceText>* sources) {
    Inputs in;
    if (!opts.no_builtin)
        for (const auto& f : builtin_policy_files()) {
            const std::string label = builtin_label(f.path);
            in.builtin_files.insert(label);
            load_resources_from_text(label, std::string(f.text), in.docs, diags);
        }
    if (!opts.paths.empty()) {
        LoadedResources user = load_resources(opts.paths, diags);
        for (auto& r : user.resources) in.docs.resources.push_back(std::move(r));
        for (auto& s : user.sources) in.docs.sources.push_back(std::move(s));
    }
    if (sources)
        for (const auto& s : in.docs.sources)
            sources->push_back(s);
    return build(std::move(in), opts, diags);
}

PolicySet load_policies_from_text(const std::string& file, const std::string& text, const Options& opts,
                                  Diagnostics& diags) {
    Inputs in;
    load_resources_from_text(file, text, in.docs, diags);
    return build(std::move(in), opts, diags);
}

}  // namespace queueforge::policy
