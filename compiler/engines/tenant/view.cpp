// The tenant view of one namespace: its LocalQueues and the HardwareProfiles
// the dashboard offers there, with the quota figures of the capacity engine
// and the largest pod the flavor's nodes hold.
#include <queueforge/engines/tenant.hpp>
#include <queueforge/base/node_read.hpp>

#include <queueforge/engines/capacity.hpp>
#include <queueforge/model/cluster.hpp>
#include <queueforge/model/selector.hpp>

#include <algorithm>
#include <map>
#include <set>

namespace queueforge::tenant {

namespace {

// Where the OpenShift AI dashboard reads cluster-wide HardwareProfiles: the
// applications namespace of Red Hat OpenShift AI and of Open Data Hub
// (DSCInitialization spec.applicationsNamespace defaults; RHOAI 3 hardware
// profile documentation: "applied to the redhat-ods-applications namespace
// to be visible in the dashboard").
constexpr const char* kDashboardNamespaces[] = {"redhat-ods-applications", "opendatahub"};

bool selector_matches(const model::LabelSelector& s, const model::Labels& labels) {
    if (!s.present) return false;  // a null namespaceSelector selects no namespace
    for (const auto& [k, v] : s.match_labels)
        if (!model::label_matches(k, v, labels)) return false;
    for (const auto& e : s.expressions)
        if (model::requirement_matches(e.key, e.op, e.values, labels) != true) return false;
    return true;
}

bool stopped(const std::string& policy) { return policy == "Hold" || policy == "HoldAndDrain"; }

bool basic_resource(const std::string& r) {
    return r == "cpu" || r == "memory" || r == "ephemeral-storage" || r == "pods";
}

// Accelerators and other extended resources first (by name), then cpu,
// memory, ephemeral-storage, pods: the order in which two node shapes are
// compared for "largest".
bool size_rank_less(const std::string& a, const std::string& b) {
    const bool ea = !basic_resource(a), eb = !basic_resource(b);
    if (ea != eb) return ea;
    return capacity::resource_less(a, b);
}

struct Context {
    const Inputs& in;
    const std::string& ns;
    model::Cluster cluster;
    std::map<std::string, capacity::Team> teams;  // by ClusterQueue
    std::vector<NodeShape> shapes;
    model::Labels ns_labels;
};

std::vector<NodeShape> shapes_of(const Inputs& in, const model::Cluster& c) {
    std::vector<NodeShape> out = in.nodes;
    std::vector<const model::ClusterNode*> nodes;
    for (const auto& n : c.nodes) nodes.push_back(&n);
    std::sort(nodes.begin(), nodes.end(), [](auto* a, auto* b) { return a->name < b->name; });
    for (const auto& f : c.flavors)
        for (const auto* n : nodes) {
            bool match = true;
            for (const auto& [k, v] : f.node_labels)
                if (!model::label_matches(k, v, n->labels)) match = false;
            if (!match || n->allocatable.empty()) continue;
            out.push_back({f.name, n->name, 1, {n->allocatable.begin(), n->allocatable.end()}});
        }
    return out;
}

std::string taint_text(const model::Taint& t) {
    return t.key + (t.value.empty() ? "" : "=" + t.value) + ":" + t.effect;
}

FlavorFit flavor_fit(const Context& ctx, const std::string& flavor, const std::vector<std::string>& covered,
                     const capacity::Team* team) {
    FlavorFit fit;
    fit.flavor = flavor;
    struct Row {
        std::string resource;
        const capacity::QuotaRow* quota = nullptr;
        std::optional<Quantity> burst;
    };
    std::vector<Row> rows;
    for (const auto& r : covered) {
        Row row{r};
        if (team)
            for (const auto& q : team->quota)
                if (q.pool == flavor && q.resource == r) row.quota = &q;
        if (row.quota) row.burst = Quantity::parse(row.quota->max_burst.str());
        rows.push_back(std::move(row));
    }
    // The node whose pod (capped by the quota) is largest.
    std::vector<std::string> ranked = covered;
    std::stable_sort(ranked.begin(), ranked.end(), size_rank_less);
    auto capped = [&](const NodeShape& n) {
        std::vector<Quantity> v;
        for (const auto& r : ranked) {
            auto it = n.allocatable.find(r);
            Quantity q = it == n.allocatable.end() ? Quantity{} : it->second;
            for (const auto& row : rows)
                if (row.resource == r && row.burst && *row.burst < q) q = *row.burst;
            v.push_back(q);
        }
        return v;
    };
    const NodeShape* best = nullptr;
    std::vector<Quantity> best_v;
    for (const auto& n : ctx.shapes) {
        if (n.flavor != flavor) continue;
        fit.nodes += n.count;
        auto v = capped(n);
        if (!best || std::lexicographical_compare(best_v.begin(), best_v.end(), v.begin(), v.end())) {
            best = &n;
            best_v = std::move(v);
        }
    }
    if (best) fit.node = best->name;
    for (const auto& row : rows) {
        ResourceFit rf;
        rf.resource = row.resource;
        if (row.quota) {
            rf.nominal = row.quota->nominal.str();
            rf.guaranteed = row.quota->guaranteed.str();
            rf.max_burst = row.quota->max_burst.str();
        } else {
            rf.nominal = rf.guaranteed = rf.max_burst = "0";
        }
        if (best) {
            auto it = best->allocatable.find(row.resource);
            Quantity node = it == best->allocatable.end() ? Quantity{} : it->second;
            rf.node = node.to_string();
            Quantity pod = row.burst && *row.burst < node ? *row.burst : node;
            if (!row.quota) pod = Quantity{};
            rf.largest_pod = pod.to_string();
        }
        fit.resources.push_back(std::move(rf));
    }
    auto fi = ctx.cluster.flavor_index.find(flavor);
    if (fi != ctx.cluster.flavor_index.end()) {
        const model::ResourceFlavor& f = ctx.cluster.flavors[fi->second];
        for (const auto& t : f.node_taints) {
            if (t.effect != "NoSchedule" && t.effect != "NoExecute") continue;
            bool tolerated = false;
            for (const auto& tol : f.tolerations)
                if (model::tolerates(tol, t)) tolerated = true;
            if (!tolerated) fit.taints.push_back(taint_text(t));
        }
    }
    return fit;
}

void add_problem(Queue& q, const std::string& p) {
    q.usable = false;
    q.problem += (q.problem.empty() ? "" : "; ") + p;
}

// The dashboard lets a user ask for at most an identifier's maxCount: a
// profile's largest pod is capped by it, resource by resource.
void cap_by_identifiers(Queue& q) {
    for (auto& f : q.flavors)
        for (auto& r : f.resources)
            for (const auto& id : q.identifiers) {
                if (id.identifier != r.resource || id.max.empty() || !r.largest_pod) continue;
                auto cap = Quantity::parse(id.max);
                auto pod = Quantity::parse(*r.largest_pod);
                if (cap && pod && *cap < *pod) r.largest_pod = cap->to_string();
            }
}

// The ClusterQueue behind a LocalQueue: whether it admits workloads from the
// namespace, and its flavors.
void fill_cluster_queue(const Context& ctx, Queue& q, const model::LocalQueue& lq) {
    q.cluster_queue = lq.cluster_queue;
    if (stopped(lq.stop_policy)) add_problem(q, "LocalQueue " + lq.name + " is stopped (stopPolicy " + lq.stop_policy + ")");
    const int idx = ctx.cluster.find_cluster_queue(lq.cluster_queue);
    if (idx < 0) {
        add_problem(q, "ClusterQueue " + lq.cluster_queue + " does not exist");
        return;
    }
    const model::ClusterQueue& cq = ctx.cluster.cluster_queues[idx];
    q.cohort = cq.cohort;
    if (stopped(cq.stop_policy)) add_problem(q, "ClusterQueue " + cq.name + " is stopped (stopPolicy " + cq.stop_policy + ")");
    if (!selector_matches(cq.namespace_selector, ctx.ns_labels))
        add_problem(q, "the namespaceSelector of ClusterQueue " + cq.name + " does not select namespace " + ctx.ns +
                           ": Kueue keeps its workloads inadmissible");
    if (ctx.cluster.cluster_queue_in_cycle(idx))
        add_problem(q, "the cohort chain of ClusterQueue " + cq.name + " has a cycle: Kueue makes the queue inactive");
    auto team = ctx.teams.find(cq.name);
    const capacity::Team* t = team == ctx.teams.end() ? nullptr : &team->second;
    std::set<std::string> missing;
    for (const auto& g : cq.resource_groups)
        for (const auto& f : g.flavors) {
            if (!ctx.cluster.flavor_index.count(f.name)) missing.insert(f.name);
            q.flavors.push_back(flavor_fit(ctx, f.name, g.covered_resources, t));
        }
    for (const auto& f : missing)
        add_problem(q, "ResourceFlavor " + f + " does not exist (Kueue marks ClusterQueue " + cq.name +
                           " inactive: FlavorNotFound)");
}

const model::LocalQueue* local_queue(const Context& ctx, const std::string& name) {
    for (const auto& lq : ctx.cluster.local_queues)
        if (lq.namespace_ == ctx.ns && lq.name == name) return &lq;
    return nullptr;
}

void add_profiles(const Context& ctx, Report& r) {
    std::vector<const Resource*> profiles;
    for (const auto& o : ctx.in.objects)
        if (o.ref.kind == "HardwareProfile" && o.ref.api_version.starts_with("infrastructure.opendatahub.io/"))
            profiles.push_back(&o);
    std::sort(profiles.begin(), profiles.end(), [](auto* a, auto* b) {
        return std::tie(a->ref.namespace_, a->ref.name) < std::tie(b->ref.namespace_, b->ref.name);
    });
    std::set<std::pair<std::string, std::string>> seen;
    for (const Resource* p : profiles) {
        const bool own = p->ref.namespace_ == ctx.ns;
        const bool global = std::find(std::begin(kDashboardNamespaces), std::end(kDashboardNamespaces),
                                      p->ref.namespace_) != std::end(kDashboardNamespaces);
        if (!own && !global) continue;
        if (!seen.insert({p->ref.namespace_, p->ref.name}).second) continue;
        const Node* spec = p->doc.find("spec");
        if (text(at_path(spec, {"scheduling", "type"})) != "Queue") continue;
        Queue q;
        q.kind = "HardwareProfile";
        q.namespace_ = p->ref.namespace_;
        q.name = p->ref.name;
        q.display_name = text(at_path(&p->doc, {"metadata", "annotations", "opendatahub.io/display-name"}));
        q.local_queue = text(at_path(spec, {"scheduling", "kueue", "localQueueName"}));
        q.priority_class = text(at_path(spec, {"scheduling", "kueue", "priorityClass"}));
        const Node* ids = at_path(spec, {"identifiers"});
        if (ids)
            for (const auto& id : ids->items())
                q.identifiers.push_back({text(at_path(&id, {"identifier"})), text(at_path(&id, {"displayName"})),
                                         text(at_path(&id, {"resourceType"})), text(at_path(&id, {"minCount"})),
                                         text(at_path(&id, {"defaultCount"})), text(at_path(&id, {"maxCount"}))});
        const model::LocalQueue* lq = q.local_queue.empty() ? nullptr : local_queue(ctx, q.local_queue);
        // The dashboard offers a Queue profile in a project only when its
        // LocalQueue exists there (odh-dashboard #8404): another project's
        // profile is not this namespace's business.
        if (!lq && !own) continue;
        if (text(at_path(&p->doc, {"metadata", "annotations", "opendatahub.io/disabled"})) == "true")
            add_problem(q, "the profile is disabled (annotation opendatahub.io/disabled)");
        if (!q.priority_class.empty()) {
            bool found = false;
            for (const auto& pc : ctx.cluster.priority_classes)
                if (pc.name == q.priority_class) found = true;
            if (!found) add_problem(q, "WorkloadPriorityClass " + q.priority_class + " does not exist");
        }
        if (!lq) {
            add_problem(q, q.local_queue.empty()
                               ? std::string("spec.scheduling.kueue.localQueueName is not set")
                               : "LocalQueue " + q.local_queue + " does not exist in namespace " + ctx.ns +
                                     ": the dashboard hides the profile");
        } else {
            fill_cluster_queue(ctx, q, *lq);
            cap_by_identifiers(q);
        }
        r.queues.push_back(std::move(q));
    }
}

}  // namespace

bool Report::any_usable() const {
    return std::any_of(queues.begin(), queues.end(), [](const Queue& q) { return q.usable; });
}

Report view(const Inputs& in, const std::string& ns) {
    Context ctx{in, ns, model::build_cluster(in.objects), {}, {}, {}};
    for (auto& t : capacity::teams_of(ctx.cluster)) ctx.teams.emplace(t.cluster_queue, std::move(t));
    ctx.shapes = shapes_of(in, ctx.cluster);
    for (const auto& n : ctx.cluster.namespaces)
        if (n.name == ns) ctx.ns_labels = n.labels;
    // The API server labels every namespace with its name.
    ctx.ns_labels["kubernetes.io/metadata.name"] = ns;

    Report r;
    r.namespace_ = ns;
    r.target = in.target;
    std::vector<const model::LocalQueue*> lqs;
    for (const auto& lq : ctx.cluster.local_queues)
        if (lq.namespace_ == ns) lqs.push_back(&lq);
    std::sort(lqs.begin(), lqs.end(), [](auto* a, auto* b) { return a->name < b->name; });
    for (const auto* lq : lqs) {
        Queue q;
        q.kind = "LocalQueue";
        q.namespace_ = ns;
        q.name = lq->name;
        q.local_queue = lq->name;
        fill_cluster_queue(ctx, q, *lq);
        r.queues.push_back(std::move(q));
    }
    add_profiles(ctx, r);
    return r;
}

}  // namespace queueforge::tenant
