// The DataScienceCluster (component states that differ from the target's
// template, the Kueue settings), the team Namespaces and their display
// names, and the teams' members (their RoleBindings).
#include "integrations/import/model_parts.hpp"
#include "integrations/import/tree.hpp"

#include <queueforge/frontend/kueue_operator.hpp>

#include <algorithm>
#include <map>
#include <optional>
#include <set>

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

// A team's Namespaces all carrying one display name other than the team's
// name: the team's displayName (compiler/lower/namespaces.cpp writes it, or
// the team's name, as openshift.io/display-name).
void add_display_names(Assembly& a) {
    if (!a.manage_namespaces) return;
    std::map<std::string, std::size_t> objects;
    for (std::size_t i : a.namespaces) objects.emplace(a.item(i).name, i);
    for (auto& team : a.teams.items()) {
        const std::string name = text_at(team, {"name"});
        const Node* list = team.find("namespaces");
        if (!list || !list->is_seq() || list->items().empty()) continue;
        std::string display;
        bool same = true;
        for (const auto& ns : list->items()) {
            auto it = objects.find(ns.text());
            const std::string d =
                it == objects.end() ? std::string() : text_at(a.item(it->second).doc, {"metadata", "annotations", "openshift.io/display-name"});
            if (d.empty() || (!display.empty() && d != display)) same = false;
            display = d;
        }
        if (!same || display == name) continue;
        Node value = Node::string(display, team.mark());
        auto& entries = team.entries();
        entries.insert(entries.begin() + 1, Node::Entry{"displayName", team.mark(), std::move(value)});
    }
}

// The members of a team: the RoleBindings compiler/lower/tenant_rbac.cpp
// writes in each of its namespaces, <team>-kueue-batch-user-role to Kueue's
// kueue-batch-user-role and, with a projectRole, <team>-<role> to that
// ClusterRole, all with the same subjects.
constexpr std::string_view kRbacGroup = "rbac.authorization.k8s.io";
constexpr std::string_view kBatchUserRole = "kueue-batch-user-role";

struct Binding {
    std::size_t item;
    std::string role;  // the ClusterRole it binds
    Node members;      // groups, users, serviceAccounts as a site writes them
};

std::optional<Binding> binding_of(const Assembly& a, std::size_t i) {
    const Item& it = a.item(i);
    if (it.kind_name != "RoleBinding" || it.api_version != std::string(kRbacGroup) + "/v1") return std::nullopt;
    const Node* ref = at(it.doc, {"roleRef"});
    if (!ref || text_at(*ref, {"apiGroup"}) != kRbacGroup || text_at(*ref, {"kind"}) != "ClusterRole") return std::nullopt;
    Binding b{i, text_at(*ref, {"name"}), Node::mapping()};
    Node groups = Node::sequence(), users = Node::sequence(), accounts = Node::sequence();
    const Node* subjects = at(it.doc, {"subjects"});
    if (!subjects || !subjects->is_seq() || subjects->items().empty()) return std::nullopt;
    for (const auto& s : subjects->items()) {
        const std::string kind = text_at(s, {"kind"}), name = text_at(s, {"name"});
        if (name.empty()) return std::nullopt;
        if (kind == "Group" || kind == "User") {
            if (text_at(s, {"apiGroup"}) != kRbacGroup) return std::nullopt;
            (kind == "Group" ? groups : users).push(Node::string(name));
        } else if (kind == "ServiceAccount") {
            const std::string ns = text_at(s, {"namespace"});
            accounts.push(Node::string(ns.empty() || ns == it.ns ? name : ns + "/" + name));
        } else {
            return std::nullopt;
        }
    }
    if (groups.size()) b.members.set("groups", std::move(groups));
    if (users.size()) b.members.set("users", std::move(users));
    if (accounts.size()) b.members.set("serviceAccounts", std::move(accounts));
    return b;
}

void add_members(Assembly& a) {
    // RoleBindings by namespace and name.
    std::map<std::pair<std::string, std::string>, std::size_t> bindings;
    for (std::size_t i = 0; i < a.in.items.size(); ++i)
        if (a.in.excluded[i].empty() && a.item(i).kind_name == "RoleBinding") bindings.emplace(std::pair{a.item(i).ns, a.item(i).name}, i);
    if (bindings.empty()) return;
    for (auto& team : a.teams.items()) {
        const std::string name = text_at(team, {"name"});
        const Node* list = team.find("namespaces");
        if (!list || !list->is_seq() || list->items().empty()) continue;
        std::vector<Binding> user;
        for (const auto& ns : list->items()) {
            auto it = bindings.find({ns.text(), name + "-" + std::string(kBatchUserRole)});
            if (it == bindings.end()) break;
            auto b = binding_of(a, it->second);
            if (!b || b->role != kBatchUserRole || (!user.empty() && !b->members.same_as(user.front().members))) break;
            user.push_back(std::move(*b));
        }
        if (user.size() != list->items().size()) continue;
        // A project role: <team>-<role> to ClusterRole <role> with the same
        // subjects in every namespace.
        std::map<std::string, std::vector<std::size_t>> roles;
        for (const auto& ns : list->items())
            for (auto it = bindings.lower_bound({ns.text(), name + "-"});
                 it != bindings.end() && it->first.first == ns.text() && it->first.second.starts_with(name + "-"); ++it) {
                auto b = binding_of(a, it->second);
                if (!b || b->role == kBatchUserRole || b->role == "kueue-batch-admin-role" ||
                    it->first.second != name + "-" + b->role || !b->members.same_as(user.front().members))
                    continue;
                roles[b->role].push_back(it->second);
            }
        std::string project_role;
        std::vector<std::size_t> role_items;
        for (auto& [role, items] : roles)
            if (items.size() == list->items().size()) {
                project_role = role;
                role_items = items;
                break;  // one project role per team; others stay passthrough
            }
        Node members = user.front().members;
        if (!project_role.empty()) members.set("projectRole", Node::string(project_role));
        std::vector<std::size_t> owners;
        for (const auto& b : user) owners.push_back(b.item);
        owners.insert(owners.end(), role_items.begin(), role_items.end());
        stamp(members, a.model.element(owners));
        // After fairSharingWeight, before quota: the order the site's reference shows.
        auto& entries = team.entries();
        auto quota = std::find_if(entries.begin(), entries.end(), [](const Node::Entry& e) { return e.key == "quota"; });
        entries.insert(quota, Node::Entry{"members", members.mark(), std::move(members)});
        for (std::size_t i : owners) a.produce(i, "RoleBinding", a.item(i).ns, a.item(i).name);
    }
}

// HardwareProfiles of type Queue as spec.hardwareProfiles.profiles, the way
// compiler/lower/hardware_profiles.cpp writes a profile written out: one
// team's (its queueforge.io/team label), cpu and memory identifiers, the
// LocalQueue and priority class named. A profile with an accelerator
// identifier stays whole: the site names the pool whose accelerator it
// counts, and a build's output does not say which pool that was (nor the
// pools' node allocatable). All or none: a site emits its profiles before
// passthrough objects of the same wave, so modelling some would reorder the
// stream.
void add_hardware_profiles(Assembly& a) {
    const std::string api = platform::hardware_profile_api_version(a.in.target.target);
    if (api.empty()) return;
    const Node teams_before = a.teams;
    std::vector<std::size_t> modelled;
    std::size_t all = 0;
    std::map<std::string, Node*> teams;
    for (auto& t : a.teams.items()) teams.emplace(text_at(t, {"name"}), &t);
    // The profile lists the namespaces it is meant for in the team's order,
    // which the queues' selectors (sorted) do not keep: the team takes the
    // profile's order.
    auto same_namespaces = [](Node& team, const std::string& list) {
        std::vector<std::string> want;
        for (std::size_t b = 0; b <= list.size();) {
            std::size_t e = list.find(',', b);
            if (e == std::string::npos) e = list.size();
            want.push_back(list.substr(b, e - b));
            b = e + 1;
        }
        Node* have = team.find("namespaces");
        if (!have || !have->is_seq() || have->items().size() != want.size()) return false;
        std::vector<Node> ordered;
        for (const auto& w : want) {
            auto it = std::find_if(have->items().begin(), have->items().end(), [&](const Node& n) { return n.text() == w; });
            if (it == have->items().end()) return false;
            ordered.push_back(*it);
        }
        have->items() = Node::Items(std::move(ordered));
        return true;
    };
    std::string ns;
    Node profiles = Node::sequence();
    for (std::size_t i = 0; i < a.in.items.size(); ++i) {
        const Item& it = a.item(i);
        if (!a.in.excluded[i].empty() || it.kind_name != "HardwareProfile") continue;
        ++all;
        if (it.api_version != api) continue;
        const Node& doc = it.doc;
        const std::string team = text_at(doc, {"metadata", "labels", "queueforge.io/team"});
        const std::string queue = text_at(doc, {"spec", "scheduling", "kueue", "localQueueName"});
        if (text_at(doc, {"spec", "scheduling", "type"}) != "Queue" || queue.empty() || !teams.count(team)) continue;
        if (!ns.empty() && it.ns != ns) continue;
        if (!same_namespaces(*teams.at(team), text_at(doc, {"metadata", "annotations", "queueforge.io/namespaces"}))) continue;
        Node p = Node::mapping();
        p.set("name", Node::string(it.name));
        p.set("team", Node::string(team));
        const std::string display = text_at(doc, {"metadata", "annotations", "opendatahub.io/display-name"});
        if (!display.empty() && display != it.name) p.set("displayName", Node::string(display));
        if (std::string d = text_at(doc, {"metadata", "annotations", "opendatahub.io/description"}); !d.empty())
            p.set("description", Node::string(d));
        p.set("localQueue", Node::string(queue));
        if (std::string pc = text_at(doc, {"spec", "scheduling", "kueue", "priorityClass"}); !pc.empty())
            p.set("priorityClass", Node::string(pc));
        // cpu, then memory, each at most once.
        bool ok = true;
        std::size_t next = 0;
        const Node* ids = at(doc, {"spec", "identifiers"});
        for (const auto& id : ids && ids->is_seq() ? ids->items() : Node::Items{}) {
            static const char* const kOrder[][3] = {{"cpu", "CPU", "CPU"}, {"memory", "Memory", "Memory"}};
            const std::string identifier = text_at(id, {"identifier"});
            while (next < 2 && identifier != kOrder[next][0]) ++next;
            if (next == 2 || text_at(id, {"displayName"}) != kOrder[next][1] || text_at(id, {"resourceType"}) != kOrder[next][2]) {
                ok = false;
                break;
            }
            Node range = Node::mapping();
            for (const auto& [from, to] : {std::pair{"minCount", "min"}, std::pair{"defaultCount", "default"}, std::pair{"maxCount", "max"}})
                if (const Node* v = id.find(from); v && v->is_scalar() && !v->is_null()) range.set(to, *v);
            p.set(identifier, std::move(range));
            ++next;
        }
        if (!ok) continue;
        stamp(p, a.model.element({i}));
        profiles.push(std::move(p));
        ns = it.ns;
        modelled.push_back(i);
    }
    if (profiles.items().empty() || modelled.size() != all) {
        a.teams = teams_before;  // the namespaces' order as it was
        return;
    }
    for (std::size_t i : modelled) a.produce(i, "HardwareProfile", a.item(i).ns, a.item(i).name);
    Node hp = Node::mapping();
    if (ns != platform::kDashboardNamespace) hp.set("namespace", Node::string(ns));
    hp.set("profiles", std::move(profiles));
    a.hardware_profiles = std::move(hp);
}

// deviceClassMappings [{name, deviceClassNames}] as the site writes them
// (the CR's and the Configuration's have one shape); counter sources, which
// the site cannot say, are left to the comparison.
Node device_class_mappings(const Node* list) {
    Node out = Node::sequence();
    if (!list || !list->is_seq()) return out;
    for (const auto& m : list->items()) {
        Node entry = Node::mapping();
        entry.set("name", Node::string(text_at(m, {"name"})));
        Node names = Node::sequence();
        if (const Node* n = at(m, {"deviceClassNames"}); n && n->is_seq())
            for (const auto& c : n->items()) names.push(Node::string(text(&c)));
        entry.set("deviceClassNames", std::move(names));
        out.push(std::move(entry));
    }
    return out;
}

// The Red Hat build of Kueue operator's CR (kueue.openshift.io/v1, cluster)
// as spec.kueueOperator, the fields compiler/lower/kueue_operator.cpp
// writes: every framework listed (the build adds what the site's job files
// and HardwareProfiles need, which an import does not see, and sorts them),
// labelPolicy, gangScheduling, preemptionPolicy (left to the teams'
// fair-sharing weights when it is FairSharing and one sets a weight) and
// admissionFairSharing. What the site cannot say (another managementState,
// other config fields) is left to the comparison: patches, or the CR whole.
void add_kueue_operator(Assembly& a) {
    std::optional<std::size_t> cr;
    for (std::size_t i = 0; i < a.in.items.size(); ++i) {
        const Item& it = a.item(i);
        if (a.in.excluded[i].empty() && it.kind_name == "Kueue" && it.api_version == "kueue.openshift.io/v1" &&
            it.name == "cluster")
            cr = i;
    }
    if (!cr) return;
    const Node* config = at(a.item(*cr).doc, {"spec", "config"});
    if (!config || !config->is_map()) return;
    Node k = Node::mapping();
    const Node* frameworks = at(*config, {"integrations", "frameworks"});
    if (!frameworks || !frameworks->is_seq() || frameworks->items().empty()) return;
    Node list = Node::sequence();
    for (const auto& f : frameworks->items())
        if (f.is_scalar()) list.push(Node::string(f.text()));
    k.set("frameworks", std::move(list));
    if (std::string lp = text_at(*config, {"workloadManagement", "labelPolicy"}); !lp.empty() && lp != "QueueName")
        k.set("labelPolicy", Node::string(lp));
    if (std::string policy = text_at(*config, {"gangScheduling", "policy"}); !policy.empty()) {
        Node g = Node::mapping();
        g.set("policy", Node::string(policy));
        if (std::string adm = text_at(*config, {"gangScheduling", "byWorkload", "admission"}); !adm.empty() && adm != "Parallel")
            g.set("admission", Node::string(adm));
        k.set("gangScheduling", std::move(g));
    }
    if (std::string policy = text_at(*config, {"preemption", "preemptionPolicy"}); !policy.empty()) {
        bool weights = a.team_defaults.find("fairSharingWeight") != nullptr;
        for (const auto& t : a.teams.items()) weights = weights || t.find("fairSharingWeight");
        for (const auto& c : a.cohort_list.items()) weights = weights || (c.is_map() && c.find("fairSharingWeight"));
        if (policy != "FairSharing" || !weights) k.set("preemptionPolicy", Node::string(policy));
    }
    if (const Node* afs = at(*config, {"admissionFairSharing"}); afs && afs->is_map()) {
        Node s = Node::mapping();
        if (const Node* custom = at(*afs, {"custom"}); custom && custom->is_map()) {
            for (const char* key : {"usageHalfLifeTimeSeconds", "usageSamplingIntervalSeconds"})
                if (const Node* v = custom->find(key); v && v->is_scalar()) s.set(key, *v);
            if (const Node* ws = custom->find("resourceWeights"); ws && ws->is_seq()) {
                Node m = Node::mapping();
                for (const auto& w : ws->items()) m.set(text_at(w, {"name"}), Node::string(text_at(w, {"weight"})));
                s.set("resourceWeights", std::move(m));
            }
        }
        k.set("admissionFairSharing", std::move(s));
    }
    if (Node m = device_class_mappings(at(*config, {"resources", "deviceClassMappings"})); m.size())
        k.set("deviceClassMappings", std::move(m));
    stamp(k, a.model.element({*cr}));
    a.kueue_operator = std::move(k);
    a.produce(*cr, "Kueue", "", "cluster");
}

// Plain Kueue's kueue-manager-config ConfigMap as spec.kueueConfig, the
// fields compiler/lower/kueue_config.cpp writes: every integration listed
// (the build adds what the site's job files need and sorts them),
// manageJobsWithoutQueueName, fairSharing (left to the teams' weights when it
// is on and one sets a weight), deviceClassMappings and the namespace. The
// rest of the Configuration is the target release's as its manifests ship
// it; a ConfigMap that says more is left to the comparison (kept whole).
void add_kueue_config(Assembly& a) {
    std::optional<std::size_t> found;
    std::optional<Node> cfg;
    for (std::size_t i = 0; i < a.in.items.size() && !found; ++i)
        if (a.in.excluded[i].empty())
            if ((cfg = kueue_manager_configuration(a.item(i)))) found = i;
    if (!found) return;
    const Item& it = a.item(*found);
    Node k = Node::mapping();
    if (it.ns != "kueue-system") k.set("namespace", Node::string(it.ns));
    const Node* frameworks = at(*cfg, {"integrations", "frameworks"});
    if (!frameworks || !frameworks->is_seq() || frameworks->items().empty()) return;
    Node list = Node::sequence();
    for (const auto& f : frameworks->items()) list.push(Node::string(text(&f)));
    k.set("frameworks", std::move(list));
    if (const Node* m = cfg->find("manageJobsWithoutQueueName"); m && m->is_scalar())
        k.set("manageJobsWithoutQueueName", Node::boolean(m->text() == "true"));
    const Node* fs = cfg->find("fairSharing");
    const bool v1beta1 = text_at(*cfg, {"apiVersion"}).ends_with("/v1beta1");
    const bool fair = fs && fs->is_map() && (!v1beta1 || text_at(*fs, {"enable"}) == "true");
    bool weights = a.team_defaults.find("fairSharingWeight") != nullptr;
    for (const auto& t : a.teams.items()) weights = weights || t.find("fairSharingWeight");
    for (const auto& c : a.cohort_list.items()) weights = weights || (c.is_map() && c.find("fairSharingWeight"));
    // Weights with fair sharing off would not build (site.fair-sharing-weights):
    // the ConfigMap is kept whole, and validate reports the weights it ignores.
    if (weights && !fair) return;
    if (fair && !weights) k.set("fairSharing", Node::boolean(true));
    if (Node m = device_class_mappings(at(*cfg, {"resources", "deviceClassMappings"})); m.size())
        k.set("deviceClassMappings", std::move(m));
    stamp(k, a.model.element({*found}));
    a.kueue_config = std::move(k);
    a.produce(*found, "ConfigMap", it.ns, it.name);
}

}  // namespace

void add_platform(Assembly& a) {
    add_dsc(a);
    add_namespaces(a);
    add_display_names(a);
    add_members(a);
    add_hardware_profiles(a);
    add_kueue_operator(a);
    add_kueue_config(a);
}

}  // namespace queueforge::importer
