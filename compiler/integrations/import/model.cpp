#include "integrations/import/model_parts.hpp"
#include "integrations/import/tree.hpp"

#include <queueforge/model/cluster.hpp>
#include <queueforge/base/names.hpp>
#include <queueforge/base/quantity.hpp>
#include <queueforge/frontend/site_parse.hpp>

#include <algorithm>
#include <charconv>

namespace queueforge::importer {

std::string object_key(const std::string& kind, const std::string& ns, const std::string& name) {
    std::string k = kind;
    k += '\0';
    k += ns;
    k += '\0';
    k += name;
    return k;
}

void stamp(Node& n, Mark m) {
    n.set_mark(m);
    if (n.is_map()) {
        for (auto& e : n.entries()) {
            e.set_key_mark(m);
            stamp(e.value, m);
        }
    } else if (n.is_seq()) {
        for (auto& i : n.items()) stamp(i, m);
    }
}

std::vector<std::string> flavors_of(const Node* groups) {
    std::vector<std::string> out;
    if (!groups || !groups->is_seq()) return out;
    for (const auto& g : groups->items())
        if (const Node* fl = at(g, {"flavors"}); fl && fl->is_seq())
            for (const auto& f : fl->items()) out.push_back(text_at(f, {"name"}));
    return out;
}

// The API versions' spellings of these fields are the model's to know.
std::string cohort_of(const Node& cq) { return text(model::cluster_queue_cohort_field(at(cq, {"spec"}))); }

std::string parent_of(const Node& cohort) { return text(model::cohort_parent_field(at(cohort, {"spec"}))); }

Node quantity_node(const Node& q) {
    auto parsed = Quantity::parse(q.text());
    if (!parsed) return Node::string(q.text());
    std::string s = parsed->to_string();
    std::int64_t v = 0;
    auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (ec == std::errc() && end == s.data() + s.size() && v >= 0) return Node::integer(v);
    return Node::string(s);
}

Node fair_sharing_weight(const Node* fs) {
    if (!fs || !fs->is_map()) return Node();
    const Node* w = fs->find("weight");
    return w && !w->is_null() ? quantity_node(*w) : Node::integer(1);
}

Node quota_from_groups(const Node* groups) {
    Node quota = Node::sequence();
    if (!groups || !groups->is_seq()) return quota;
    for (const auto& g : groups->items()) {
        const Node* flavors = at(g, {"flavors"});
        if (!flavors || !flavors->is_seq()) continue;
        for (const auto& f : flavors->items()) {
            Node entry = Node::mapping();
            entry.set("pool", Node::string(text_at(f, {"name"})));
            Node nominal = Node::mapping(), borrowing = Node::mapping(), lending = Node::mapping();
            if (const Node* res = at(f, {"resources"}); res && res->is_seq()) {
                for (const auto& r : res->items()) {
                    std::string name = text_at(r, {"name"});
                    if (const Node* v = at(r, {"nominalQuota"}); v && v->is_scalar()) nominal.set(name, quantity_node(*v));
                    if (const Node* v = at(r, {"borrowingLimit"}); v && v->is_scalar()) borrowing.set(name, quantity_node(*v));
                    if (const Node* v = at(r, {"lendingLimit"}); v && v->is_scalar()) lending.set(name, quantity_node(*v));
                }
            }
            entry.set("nominal", std::move(nominal));
            if (borrowing.size()) entry.set("borrowingLimit", std::move(borrowing));
            if (lending.size()) entry.set("lendingLimit", std::move(lending));
            quota.push(std::move(entry));
        }
    }
    return quota;
}

namespace {

bool valid_label(const std::string& s) { return check_dns1123_label(s).empty(); }

// Exclusions that follow from others, to a fixpoint: an object that stays
// passthrough cannot be named by a site element any more.
void cascade(ModelInput& in) {
    const auto& items = in.items;
    auto& ex = in.excluded;
    const bool cohort_objects = !in.target.target.cohort_api_version.empty();
    std::set<std::string> all_flavors;
    for (const auto& it : items)
        if (it.kind == Kind::ResourceFlavor) all_flavors.insert(it.name);
    auto missing_flavor = [&](const std::vector<std::string>& used, const std::set<std::string>& pools) -> std::string {
        for (const auto& f : used)
            if (!pools.count(f))
                return "it uses ResourceFlavor \"" + f + "\", which " +
                       (all_flavors.count(f) ? "is kept as passthrough" : "is not in the input") +
                       " (a site's quotas name its pools)";
        return {};
    };
    std::size_t dscs = 0;
    for (std::size_t i = 0; i < items.size(); ++i) {
        const Item& it = items[i];
        if (!ex[i].empty()) continue;
        switch (it.kind) {
        case Kind::ResourceFlavor:
        case Kind::Cohort:
        case Kind::WorkloadPriorityClass:
        case Kind::ClusterQueue:
            if (!valid_label(it.name))
                ex[i] = "its name is not a DNS-1123 label, which the site's names must be";
            break;
        case Kind::DataScienceCluster:
            if (it.api_version != in.target.target.dsc_api_version)
                ex[i] = in.target.target.dsc_api_version.empty()
                            ? "target " + in.target.target.name + " has no DataScienceCluster"
                            : "target " + in.target.target.name + " writes " + in.target.target.dsc_api_version;
            else if (dscs++ > 0)
                ex[i] = "a site has one DataScienceCluster";
            break;
        default:
            break;
        }
        if (it.kind == Kind::ClusterQueue && ex[i].empty()) {
            const Node* sel = at(it.doc, {"spec", "namespaceSelector"});
            if (!sel || sel->is_null())
                ex[i] = "it has no namespaceSelector (it admits no namespace), and the site always writes one";
            else if (std::string c = cohort_of(it.doc); !c.empty() && !valid_label(c))
                ex[i] = "its cohort \"" + c + "\" is not a DNS-1123 label, which the site's cohort names must be";
        }
        if (it.kind == Kind::Cohort && ex[i].empty())
            if (std::string p = parent_of(it.doc); !p.empty() && !valid_label(p))
                ex[i] = "its parent \"" + p + "\" is not a DNS-1123 label, which the site's cohort names must be";
    }
    for (bool changed = true; changed;) {
        changed = false;
        std::set<std::string> pools, gone_cohorts;
        for (std::size_t i = 0; i < items.size(); ++i) {
            if (items[i].kind == Kind::ResourceFlavor && ex[i].empty()) pools.insert(items[i].name);
            if (items[i].kind == Kind::Cohort && !ex[i].empty() && cohort_objects) gone_cohorts.insert(items[i].name);
        }
        for (std::size_t i = 0; i < items.size(); ++i) {
            const Item& it = items[i];
            if (!ex[i].empty() || (it.kind != Kind::ClusterQueue && it.kind != Kind::Cohort)) continue;
            std::string why = missing_flavor(flavors_of(at(it.doc, {"spec", "resourceGroups"})), pools);
            // The site would declare the cohort again and emit a second object of that name.
            std::string c = it.kind == Kind::ClusterQueue ? cohort_of(it.doc) : parent_of(it.doc);
            if (why.empty() && gone_cohorts.count(c))
                why = std::string("its ") + (it.kind == Kind::ClusterQueue ? "cohort" : "parent") + " Cohort \"" + c +
                      "\" is kept as passthrough";
            if (!why.empty()) {
                ex[i] = why;
                changed = true;
            }
        }
    }
}

int kind_order(Kind k) { return static_cast<int>(k); }

}  // namespace

Model build_model(ModelInput in) {
    cascade(in);
    Model model;
    model.owners.emplace_back();  // id 0: unknown
    model.owners.emplace_back();  // id 1: the site as a whole (target, defaults)
    Assembly a(in, model);
    for (std::size_t i = 0; i < in.items.size(); ++i) {
        if (!in.excluded[i].empty()) continue;
        switch (in.items[i].kind) {
        case Kind::ResourceFlavor: a.flavors.push_back(i); break;
        case Kind::Cohort: a.cohorts.push_back(i); break;
        case Kind::WorkloadPriorityClass: a.classes.push_back(i); break;
        case Kind::ClusterQueue: a.queues.push_back(i); break;
        case Kind::LocalQueue: a.local_queues.push_back(i); break;
        case Kind::Namespace: a.namespaces.push_back(i); break;
        case Kind::DataScienceCluster: a.dscs.push_back(i); break;
        case Kind::Other: a.unused[i] = "the site format has no " + in.items[i].kind_name; break;
        }
    }
    add_pools_cohorts_classes(a);
    add_teams(a);
    add_platform(a);

    Node spec = Node::mapping(Mark{1, 1});
    Node target = in.target.node;
    stamp(target, Mark{1, 1});
    spec.set("target", std::move(target));
    if (!a.dsc.is_null()) spec.set("dataScienceCluster", std::move(a.dsc));
    if (a.manage_namespaces) spec.set("manageNamespaces", Node::boolean(true, Mark{1, 1}));
    if (a.pools.size()) spec.set("pools", std::move(a.pools));
    if (a.cohort_list.size()) spec.set("cohorts", std::move(a.cohort_list));
    if (a.priority_classes.size()) spec.set("priorityClasses", std::move(a.priority_classes));
    if (a.team_defaults.size()) spec.set("teamDefaults", std::move(a.team_defaults));
    if (a.teams.size()) spec.set("teams", std::move(a.teams));
    if (!a.hardware_profiles.is_null()) spec.set("hardwareProfiles", std::move(a.hardware_profiles));
    if (!a.kueue_operator.is_null()) spec.set("kueueOperator", std::move(a.kueue_operator));
    if (!a.kueue_config.is_null()) spec.set("kueueConfig", std::move(a.kueue_config));

    // Patches for modelled objects, in kind order then by namespace and name.
    std::vector<std::size_t> patched;
    for (const auto& [i, p] : in.patches)
        if (model.produced[i] && p.merge.size()) patched.push_back(i);
    auto by_identity = [&](std::size_t x, std::size_t y) {
        const Item& l = in.items[x];
        const Item& r = in.items[y];
        return std::make_tuple(kind_order(l.kind), l.kind_name, l.ns, l.name) <
               std::make_tuple(kind_order(r.kind), r.kind_name, r.ns, r.name);
    };
    std::sort(patched.begin(), patched.end(), by_identity);
    if (!patched.empty()) {
        Node list = Node::sequence();
        for (std::size_t i : patched) {
            const Item& it = in.items[i];
            Node p = Node::mapping();
            p.set("kind", Node::string(it.kind_name));
            p.set("name", Node::string(it.name));
            if (!it.ns.empty()) p.set("namespace", Node::string(it.ns));
            p.set("merge", in.patches.at(i).merge);
            stamp(p, model.element({i}));
            list.push(std::move(p));
            ++model.patched;
        }
        spec.set("patches", std::move(list));
    }

    // Everything no element produces, whole.
    std::vector<std::size_t> rest;
    for (std::size_t i = 0; i < in.items.size(); ++i)
        if (!model.produced[i]) rest.push_back(i);
    std::sort(rest.begin(), rest.end(), [&](std::size_t x, std::size_t y) {
        const Item& l = in.items[x];
        const Item& r = in.items[y];
        return std::tie(l.kind_name, l.ns, l.name, l.api_version) < std::tie(r.kind_name, r.ns, r.name, r.api_version);
    });
    if (!rest.empty()) {
        Node list = Node::sequence();
        for (std::size_t i : rest) {
            Node doc = in.items[i].doc;
            stamp(doc, model.element({i}));
            list.push(std::move(doc));
            std::string why = !in.excluded[i].empty() ? in.excluded[i] : a.unused[i];
            model.passthrough.emplace_back(i, why.empty() ? "no site element produces it" : why);
        }
        spec.set("passthrough", std::move(list));
    }

    Node site = Node::mapping(Mark{1, 1});
    site.set("apiVersion", Node::string(kSiteApiVersion, Mark{1, 1}));
    site.set("kind", Node::string("Site", Mark{1, 1}));
    Node meta = Node::mapping(Mark{1, 1});
    meta.set("name", Node::string(in.site_name, Mark{1, 1}));
    site.set("metadata", std::move(meta));
    site.set("spec", std::move(spec));
    model.site = std::move(site);
    return model;
}

}  // namespace queueforge::importer
