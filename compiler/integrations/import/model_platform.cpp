// The DataScienceCluster (component states that differ from the target's
// template, the Kueue settings) and the team Namespaces.
#include "integrations/import/model_parts.hpp"
#include "integrations/import/tree.hpp"

#include <map>

namespace queueforge::importer {

namespace {

void add_dsc(Assembly& a) {
    const Target& t = a.in.target.target;
    if (a.dscs.empty()) {
        // The target writes a DataScienceCluster; the input has none to reproduce.
        if (!t.dsc_api_version.empty()) {
            a.dsc = Node::mapping();
            a.dsc.set("emit", Node::boolean(false));
            stamp(a.dsc, Mark{1, 1});
        }
        return;
    }
    std::size_t i = a.dscs.front();
    const Item& it = a.item(i);
    Node d = Node::mapping();
    if (it.name != "default-dsc") d.set("name", Node::string(it.name));
    const Node* comps = at(it.doc, {"spec", "components"});
    Node states = Node::mapping();
    std::map<std::string, std::string> tmpl;
    for (const auto& [name, state] : template_components(t)) tmpl[name] = state;
    if (comps && comps->is_map()) {
        for (const auto& e : comps->entries()) {
            std::string state = text_at(e.value, {"managementState"});
            // Components the target does not serve are left to the comparison
            // (they become patches); states it refuses make the build fail and
            // keep the DataScienceCluster whole.
            if (state.empty() || !t.component(e.key)) continue;
            auto in_template = tmpl.find(e.key);
            if (in_template == tmpl.end() || in_template->second != state) states.set(e.key, Node::string(state));
        }
    }
    // A component the input leaves out is not installed: Removed.
    for (const auto& [name, state] : tmpl)
        if (state != "Removed" && !(comps && comps->is_map() && comps->find(name))) states.set(name, Node::string("Removed"));
    if (states.size()) d.set("components", std::move(states));
    if (comps && comps->is_map()) {
        if (const Node* kueue = comps->find("kueue"); kueue && kueue->is_map()) {
            if (const Node* v = kueue->find("autoCreateQueues"); v && v->kind() == Node::Kind::Bool && v->as_bool())
                d.set("autoCreateQueues", Node::boolean(true));
            for (const char* key : {"defaultLocalQueueName", "defaultClusterQueueName"})
                if (const Node* v = kueue->find(key); v && v->is_scalar() && !v->is_null())
                    d.set(key, Node::string(v->text()));
        }
    }
    // Nothing to say: the target's DataScienceCluster as it is.
    if (d.size()) {
        stamp(d, a.model.element({i}));
        a.dsc = std::move(d);
    }
    a.produce(i, "DataScienceCluster", "", it.name);
}

void add_namespaces(Assembly& a) {
    std::map<std::string, std::size_t> objects;
    for (std::size_t i : a.namespaces) objects.emplace(a.item(i).name, i);
    std::map<std::string, std::size_t> wanted;
    for (const auto& [ns, lq] : a.team_namespaces) wanted.emplace(ns, lq);
    bool all = !wanted.empty();
    for (const auto& [ns, _] : wanted) all = all && objects.count(ns);
    a.manage_namespaces = all;
    for (const auto& [name, i] : objects) {
        if (all && wanted.count(name)) {
            a.produce(i, "Namespace", "", name);
            continue;
        }
        a.unused[i] = !wanted.count(name) ? "no team uses the namespace"
                                          : "the site writes team Namespaces only when the input has every team "
                                            "namespace (spec.manageNamespaces)";
    }
}

}  // namespace

void add_platform(Assembly& a) {
    add_dsc(a);
    add_namespaces(a);
}

}  // namespace queueforge::importer
