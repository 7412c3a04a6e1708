// Pools from ResourceFlavors, cohorts from Cohort objects and the cohorts
// queues name, priority classes from WorkloadPriorityClasses.
#include "integrations/import/model_parts.hpp"
#include "integrations/import/tree.hpp"

#include <algorithm>
#include <map>

namespace queueforge::importer {

namespace {

void sort_by_name(const Assembly& a, std::vector<std::size_t>& v) {
    std::stable_sort(v.begin(), v.end(), [&](std::size_t x, std::size_t y) { return a.item(x).name < a.item(y).name; });
}

Node pool_of(const Item& it) {
    Node pool = Node::mapping();
    pool.set("name", Node::string(it.name));
    if (const Node* labels = at(it.doc, {"spec", "nodeLabels"}); labels && labels->is_map() && labels->size()) {
        Node m = Node::mapping();
        for (const auto& e : labels->entries()) m.set(e.key, e.value.is_scalar() ? Node::string(e.value.text()) : e.value);
        pool.set("nodeLabels", std::move(m));
    }
    if (const Node* taints = at(it.doc, {"spec", "nodeTaints"}); taints && taints->size()) {
        Node list = Node::sequence();
        if (taints->is_seq()) {
            for (const auto& t : taints->items()) {
                if (!t.is_map()) {
                    list.push(t);
                    continue;
                }
                // key, value, effect: the fields a pool's taint has. Anything
                // else (timeAdded) shows up as a difference and keeps the flavor whole.
                Node n = Node::mapping();
                if (const Node* k = t.find("key")) n.set("key", Node::string(k->text()));
                if (std::string v = text(t.find("value")); !v.empty()) n.set("value", Node::string(v));
                if (const Node* e = t.find("effect")) n.set("effect", Node::string(e->text()));
                list.push(std::move(n));
            }
        }
        pool.set("taints", std::move(list));
    }
    if (const Node* tol = at(it.doc, {"spec", "tolerations"}); tol && tol->size()) pool.set("tolerations", *tol);
    return pool;
}

}  // namespace

void add_pools_cohorts_classes(Assembly& a) {
    a.pools = Node::sequence();
    a.cohort_list = Node::sequence();
    a.priority_classes = Node::sequence();

    sort_by_name(a, a.flavors);
    for (std::size_t i : a.flavors) {
        Node pool = pool_of(a.item(i));
        stamp(pool, a.model.element({i}));
        a.pools.push(std::move(pool));
        a.produce(i, "ResourceFlavor", "", a.item(i).name);
    }

    // Cohorts with objects, then the ones only queues and parents name.
    const bool objects = !a.in.target.target.cohort_api_version.empty();
    std::map<std::string, std::vector<std::size_t>> named;  // cohort -> items naming it
    for (std::size_t i : a.queues)
        if (std::string c = cohort_of(a.item(i).doc); !c.empty()) named[c].push_back(i);
    for (std::size_t i : a.cohorts)
        if (std::string p = parent_of(a.item(i).doc); !p.empty()) named[p].push_back(i);
    sort_by_name(a, a.cohorts);
    std::set<std::string> declared;
    for (std::size_t i : a.cohorts) {
        const Item& it = a.item(i);
        Node c = Node::mapping();
        c.set("name", Node::string(it.name));
        if (std::string p = parent_of(it.doc); !p.empty()) c.set("parent", Node::string(p));
        if (Node w = fair_sharing_weight(at(it.doc, {"spec", "fairSharing"})); !w.is_null())
            c.set("fairSharingWeight", std::move(w));
        if (Node q = quota_from_groups(at(it.doc, {"spec", "resourceGroups"})); q.size()) c.set("quota", std::move(q));
        stamp(c, a.model.element({i}));
        a.cohort_list.push(std::move(c));
        declared.insert(it.name);
        // Without Cohort objects on the target the cohort is only a name the
        // queues share; the object stays in passthrough.
        if (objects) a.produce(i, "Cohort", "", it.name);
        else a.unused[i] = "target " + a.in.target.target.name + " serves no Cohort objects";
    }
    for (const auto& [name, users] : named) {
        if (declared.count(name)) continue;
        Node c = Node::mapping();
        c.set("name", Node::string(name));
        stamp(c, a.model.element(users));
        a.cohort_list.push(std::move(c));
    }

    sort_by_name(a, a.classes);
    for (std::size_t i : a.classes) {
        const Item& it = a.item(i);
        Node p = Node::mapping();
        p.set("name", Node::string(it.name));
        if (const Node* v = it.doc.find("value")) p.set("value", *v);
        if (const Node* d = it.doc.find("description"); d && !d->is_null())
            p.set("description", d->is_scalar() ? Node::string(d->text()) : *d);
        stamp(p, a.model.element({i}));
        a.priority_classes.push(std::move(p));
        a.produce(i, "WorkloadPriorityClass", "", it.name);
    }
}

}  // namespace queueforge::importer
