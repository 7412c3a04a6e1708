// DataScienceCluster against the --target OpenShift AI release
// (openshift-ai.md sections 1-4): the DSC API version, the component keys it
// serves, the managementState values it accepts, and the version-bound kueue
// fields. The site compiler applies the same facts when it emits a DSC
// (compiler/lower/dsc.cpp); here they judge one written by hand.
#include "checks/rules/inventory.hpp"

#include <algorithm>

namespace queueforge::rules::detail {

namespace {

std::string component_hint(const Target& t, const std::string& name) {
    const bool v2 = t.dsc_api_version.ends_with("/v2");
    if (v2 && name == "datasciencepipelines") return "; in DataScienceCluster v2 it is called \"aipipelines\"";
    if (v2 && (name == "codeflare" || name == "modelmeshserving"))
        return "; it was removed in DataScienceCluster v2 (OpenShift AI 3.0)";
    if (!v2 && name == "aipipelines") return "; before DataScienceCluster v2 it is called \"datasciencepipelines\"";
    // A key of a newer release of the same DSC version says which one.
    for (const auto& spec : supported_targets()) {
        if (!spec.starts_with("rhoai-")) continue;
        auto later = find_target(spec).target;
        if (!later || later->release <= t.release || later->dsc_api_version != t.dsc_api_version) continue;
        if (later->component(name)) return "; it needs OpenShift AI " + later->release.to_string() + " or newer";
    }
    std::vector<std::string> names;
    for (const auto& c : t.components) names.push_back(c.name);
    return suggestion(name, names);
}

// The target's facts for the DSC version the object is written in: DSC v1 is
// still served on 3.x, with the 2.25 component keys.
std::optional<Target> facts_for(const Resource& dsc, const Target& t, const Reporter& rep) {
    const std::string version = api_version_of(dsc.ref.api_version);
    const Node* at = present(&dsc.doc, "apiVersion");
    if (t.dsc_api_version.empty()) {
        rep.error("target.unserved", at, "apiVersion",
                  "target " + t.name + " has no DataScienceCluster (it is an OpenShift AI / Open Data Hub API)");
        return std::nullopt;
    }
    if (dsc.ref.api_version == t.dsc_api_version) return t;
    if (version != "v1" && version != "v2") {
        rep.error("target.unserved", at, "apiVersion",
                  dsc.ref.api_version + " is not a DataScienceCluster version of target " + t.name + " (it serves " +
                      t.dsc_api_version + ")");
        return std::nullopt;
    }
    if (version == "v2") {
        // openshift-ai.md section 1: DSC v2 first appears in 3.0.
        rep.error("target.unserved", at, "apiVersion",
                  dsc.ref.api_version + " DataScienceCluster is not served by target " + t.name +
                      " (DataScienceCluster v2 needs OpenShift AI 3.0 or newer; the target serves " + t.dsc_api_version + ")");
        return std::nullopt;
    }
    auto o = apply_overrides(t, {.dsc_api_version = version});
    if (!o.target) {
        rep.error("target.unserved", at, "apiVersion",
                  dsc.ref.api_version + " DataScienceCluster is not served by target " + t.name + ": " + o.error);
        return std::nullopt;
    }
    return o.target;
}

void check_dsc(const Resource& dsc, const Target& target, Diagnostics& diags) {
    const Reporter rep{dsc, diags};
    auto t = facts_for(dsc, target, rep);
    if (!t) return;
    const Node* components = present(present(&dsc.doc, "spec"), "components");
    if (!components || !components->is_map()) return;
    for (const auto& e : components->entries()) {
        const std::string path = "spec.components." + e.key;
        const Component* c = t->component(e.key);
        if (!c) {
            rep.error_at("target.component", e.key_mark(), path,
                         "component " + go_quote(e.key) + " is not served by " + t->name + " (" + t->dsc_api_version + ")" +
                             component_hint(*t, e.key));
            continue;
        }
        const Node* state = present(&e.value, "managementState");
        if (is_text(state) && std::find(c->states.begin(), c->states.end(), state->text()) == c->states.end()) {
            std::string hint;
            if (e.key == "kueue" && state->text() == "Managed" && !t->embedded_kueue)
                hint = "; Kueue managementState Managed is not supported on " + t->name +
                       ", use Unmanaged (Kueue from the Red Hat build of Kueue operator) or Removed";
            rep.error("target.component-state", state, path + ".managementState",
                      "managementState " + state->text() + " of component " + e.key + " is not accepted on " + t->name +
                          " (allowed: " + join(c->states, ", ") + ")" + hint);
        }
        if (e.key != "kueue") continue;
        for (const char* f : {"defaultLocalQueueName", "defaultClusterQueueName"})
            if (const Node* n = present(&e.value, f); n && !t->dsc_default_queue_fields)
                rep.error("target.unserved", n, path + "." + f,
                          path + "." + f + " is not served by " + t->name + " (needs OpenShift AI 2.23 or newer)");
        if (const Node* n = present(&e.value, "autoCreateQueues"); n && !t->dsc_auto_create_queues)
            rep.error("target.unserved", n, path + ".autoCreateQueues",
                      path + ".autoCreateQueues is not served by " + t->name + " (needs OpenShift AI 3.5 or newer)");
    }
}

}  // namespace

void check_target_dsc(const CrossContext& ctx, Diagnostics& diags) {
    if (!ctx.target) return;  // without a target there is nothing to compare with
    for (const Resource* dsc : ctx.inv.dscs) check_dsc(*dsc, *ctx.target, diags);
}

}  // namespace queueforge::rules::detail
