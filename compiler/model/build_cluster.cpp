// Reading the typed cluster from objects: the only place that knows the API
// versions' field spellings (kueue-semantics.md 1.9: v1beta1 ClusterQueue
// `cohort`, v1beta2 `cohortName`; v1alpha1 Cohort `parent`, v1beta1/v1beta2
// `parentName`). Lenient: a field of the wrong shape reads as absent, since
// validate reports it with its position.
#include <queueforge/base/node_read.hpp>
#include <queueforge/model/amount.hpp>
#include <queueforge/model/cluster.hpp>

#include <limits>
#include <string_view>

namespace queueforge::model {

namespace {

// What the builder needs of an object, whichever container it came in.
struct View {
    std::string_view api_version, kind, name, namespace_;
    const Node* doc;
};

// Field reads are base/node_read.hpp's (child, text, items).
std::string text_at(const Node* map, std::string_view key) { return text(child(map, key)); }

std::optional<Quantity> quantity_at(const Node* map, std::string_view key) {
    std::string t = text_at(map, key);
    if (t.empty()) return std::nullopt;
    return Quantity::parse(t);
}

Labels labels_at(const Node* map, std::string_view key) {
    Labels out;
    const Node* m = child(map, key);
    if (m && m->is_map())
        for (const auto& e : m->entries()) out[e.key] = text(&e.value);
    return out;
}

std::vector<Taint> taints_at(const Node* map, std::string_view key) {
    std::vector<Taint> out;
    for (const Node& t : items(child(map, key)))
        if (t.is_map()) out.push_back({text_at(&t, "key"), text_at(&t, "value"), text_at(&t, "effect"), text_at(&t, "timeAdded")});
    return out;
}

std::vector<Toleration> tolerations_at(const Node* map, std::string_view key) {
    std::vector<Toleration> out;
    for (const Node& t : items(child(map, key)))
        if (t.is_map()) out.push_back({text_at(&t, "key"), text_at(&t, "operator"), text_at(&t, "value"), text_at(&t, "effect")});
    return out;
}

LabelSelector selector_at(const Node* map, std::string_view key) {
    LabelSelector s;
    const Node* n = child(map, key);
    if (!n || !n->is_map()) return s;
    s.present = true;
    s.match_labels = labels_at(n, "matchLabels");
    for (const Node& e : items(child(n, "matchExpressions"))) {
        if (!e.is_map()) continue;
        SelectorRequirement r{text_at(&e, "key"), text_at(&e, "operator"), {}};
        for (const Node& v : items(child(&e, "values"))) r.values.push_back(text(&v));
        s.expressions.push_back(std::move(r));
    }
    return s;
}

std::vector<ResourceGroup> resource_groups_at(const Node* spec) {
    std::vector<ResourceGroup> out;
    for (const Node& g : items(child(spec, "resourceGroups"))) {
        if (!g.is_map()) continue;
        ResourceGroup rg;
        for (const Node& c : items(child(&g, "coveredResources"))) rg.covered_resources.push_back(text(&c));
        for (const Node& f : items(child(&g, "flavors"))) {
            if (!f.is_map()) continue;
            FlavorQuotas fq{text_at(&f, "name"), {}};
            for (const Node& r : items(child(&f, "resources")))
                if (r.is_map())
                    fq.resources.push_back({text_at(&r, "name"), quantity_at(&r, "nominalQuota"),
                                        quantity_at(&r, "borrowingLimit"), quantity_at(&r, "lendingLimit")});
            rg.flavors.push_back(std::move(fq));
        }
        out.push_back(std::move(rg));
    }
    return out;
}

// An integer field: a YAML integer or a quoted one ("3", as some generators
// write); anything else reads as absent.
std::optional<std::int64_t> int_at(const Node* map, std::string_view key) {
    const Node* v = child(map, key);
    if (!v || !v->is_scalar() || v->is_null()) return std::nullopt;
    if (auto i = v->as_int()) return i;
    const std::string& t = v->text();
    std::size_t start = (t.size() > 1 && (t[0] == '-' || t[0] == '+')) ? 1 : 0;
    if (t.empty() || t.size() >= 19) return std::nullopt;
    for (std::size_t k = start; k < t.size(); ++k)
        if (t[k] < '0' || t[k] > '9') return std::nullopt;
    return std::stoll(t);
}

std::optional<Quantity> weight_at(const Node* spec) { return quantity_at(child(spec, "fairSharing"), "weight"); }

// Adds `item` under `name` unless the name is taken (the first one stays).
template <class T>
void add_unique(std::vector<T>& list, std::map<std::string, int>& index, T item) {
    auto [it, added] = index.try_emplace(item.name, static_cast<int>(list.size()));
    if (added) list.push_back(std::move(item));
}

int cohort_named(Cluster& c, const std::string& name) {
    auto [it, added] = c.cohort_index.try_emplace(name, static_cast<int>(c.cohorts.size()));
    if (added) {
        Cohort co;
        co.name = name;
        co.has_object = false;
        c.cohorts.push_back(std::move(co));
    }
    return it->second;
}

void read(Cluster& c, const View& o, int source) {
    const Node* doc = o.doc;
    const Node* spec = child(doc, "spec");
    const Node* meta = child(doc, "metadata");
    std::string name(o.name);
    if (name.empty()) return;
    if (o.kind == "ResourceFlavor") {
        add_unique(c.flavors, c.flavor_index,
                   ResourceFlavor{name, labels_at(spec, "nodeLabels"), taints_at(spec, "nodeTaints"),
                                  tolerations_at(spec, "tolerations"), text_at(spec, "topologyName"), source});
    } else if (o.kind == "ClusterQueue") {
        ClusterQueue q;
        q.name = name;
        q.labels = labels_at(meta, "labels");
        q.cohort = text(cluster_queue_cohort_field(spec));
        q.resource_groups = resource_groups_at(spec);
        const Node* pre = child(spec, "preemption");
        if (auto v = text_at(pre, "withinClusterQueue"); !v.empty()) q.preemption.within_cluster_queue = v;
        if (auto v = text_at(pre, "reclaimWithinCohort"); !v.empty()) q.preemption.reclaim_within_cohort = v;
        const Node* bwc = child(pre, "borrowWithinCohort");
        if (auto v = text_at(bwc, "policy"); !v.empty()) q.preemption.borrow_within_cohort = v;
        q.preemption.max_priority_threshold = int_at(bwc, "maxPriorityThreshold");
        const Node* ff = child(spec, "flavorFungibility");
        q.flavor_fungibility = {text_at(ff, "whenCanBorrow"), text_at(ff, "whenCanPreempt"), text_at(ff, "preference")};
        q.fair_sharing_weight = weight_at(spec);
        q.namespace_selector = selector_at(spec, "namespaceSelector");
        q.queueing_strategy = text_at(spec, "queueingStrategy");
        q.stop_policy = text_at(spec, "stopPolicy");
        for (const Node& a : items(child(spec, "admissionChecks"))) q.admission_checks.push_back(text(&a));
        for (const Node& a : items(child(child(spec, "admissionChecksStrategy"), "admissionChecks")))
            q.admission_checks.push_back(text_at(&a, "name"));
        q.source = source;
        add_unique(c.cluster_queues, c.cluster_queue_index, std::move(q));
    } else if (o.kind == "Cohort") {
        int i = cohort_named(c, name);
        Cohort& co = c.cohorts[i];
        if (co.has_object && co.source >= 0) return;
        co.has_object = true;
        co.source = source;
        co.parent = text(cohort_parent_field(spec));
        co.resource_groups = resource_groups_at(spec);
        co.fair_sharing_weight = weight_at(spec);
    } else if (o.kind == "LocalQueue") {
        c.local_queues.push_back({o.namespace_.empty() ? "default" : std::string(o.namespace_), name,
                                  text_at(spec, "clusterQueue"), text_at(spec, "stopPolicy"), source});
    } else if (o.kind == "WorkloadPriorityClass") {
        auto v = int_at(doc, "value");
        c.priority_classes.push_back({name, v.value_or(0), v.has_value(), source});
    } else if (o.kind == "Namespace" && o.api_version == "v1") {
        c.namespaces.push_back({name, labels_at(meta, "labels"), source});
    } else if (o.kind == "Node" && o.api_version == "v1") {
        ClusterNode n{name, labels_at(meta, "labels"), taints_at(spec, "taints"), {}, source};
        if (const Node* alloc = child(child(doc, "status"), "allocatable"); alloc && alloc->is_map())
            for (const auto& e : alloc->entries())
                if (auto q = Quantity::parse(text(&e.value))) n.allocatable.emplace(e.key, *q);
        c.nodes.push_back(std::move(n));
    }
}

// The cohort tree: implicit cohorts for names only mentioned, parent links,
// and the cycles (once, for every consumer).
void link(Cluster& c) {
    // Cohort objects were added in input order; parents and ClusterQueues'
    // cohorts may add implicit ones after them.
    for (std::size_t i = 0; i < c.cohorts.size(); ++i)
        if (!c.cohorts[i].parent.empty()) cohort_named(c, std::string(c.cohorts[i].parent));
    for (const auto& q : c.cluster_queues)
        if (!q.cohort.empty()) cohort_named(c, q.cohort);
    c.cohort_parent.assign(c.cohorts.size(), -1);
    for (std::size_t i = 0; i < c.cohorts.size(); ++i)
        if (!c.cohorts[i].parent.empty()) c.cohort_parent[i] = c.cohort_index.at(c.cohorts[i].parent);
    c.cycles = find_cohort_cycles(c.cohort_parent);
}

template <class Container, class ToView>
Cluster build(const Container& objects, ToView to_view) {
    Cluster c;
    for (std::size_t i = 0; i < objects.size(); ++i) read(c, to_view(objects[i]), static_cast<int>(i));
    link(c);
    return c;
}

}  // namespace

int Cluster::find_cohort(const std::string& name) const {
    auto it = cohort_index.find(name);
    return it == cohort_index.end() ? -1 : it->second;
}

int Cluster::find_cluster_queue(const std::string& name) const {
    auto it = cluster_queue_index.find(name);
    return it == cluster_queue_index.end() ? -1 : it->second;
}

bool Cluster::cluster_queue_in_cycle(int cq) const {
    int co = find_cohort(cluster_queues[cq].cohort);
    return co >= 0 && cycles.has_cycle(co);
}

Cluster build_cluster(const std::vector<Object>& objects) {
    return build(objects, [](const Object& o) { return View{o.api_version, o.kind, o.name, o.namespace_, &o.doc}; });
}

Cluster build_cluster(const std::vector<Resource>& objects) {
    return build(objects, [](const Resource& r) {
        return View{r.ref.api_version, r.ref.kind, r.ref.name, r.ref.namespace_, &r.doc};
    });
}

Cluster build_cluster(const std::vector<const Resource*>& objects) {
    return build(objects, [](const Resource* r) {
        return View{r->ref.api_version, r->ref.kind, r->ref.name, r->ref.namespace_, &r->doc};
    });
}

namespace {

template <std::size_t N>
const Node* first_set(const Node* spec, const char* const (&fields)[N]) {
    for (const char* f : fields)
        if (const Node* n = child(spec, f); !text(n).empty()) return n;
    return nullptr;
}

}  // namespace

const Node* cluster_queue_cohort_field(const Node* spec) { return first_set(spec, kClusterQueueCohortFields); }

const Node* cohort_parent_field(const Node* spec) { return first_set(spec, kCohortParentFields); }

std::int64_t kueue_amount(const std::string& resource, const Quantity& q) {
    constexpr std::int64_t kMax = std::numeric_limits<std::int64_t>::max();
    if (resource == "cpu") {
        if (q.compare(Quantity::from_int(kMax / 1000)) >= 0) return kUnlimited;
        return q.milli_value();
    }
    if (q.compare(Quantity::from_int(kMax)) >= 0) return kUnlimited;
    return q.value();
}

}  // namespace queueforge::model
