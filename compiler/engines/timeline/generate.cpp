// The objects of Kueue's scheduler performance generator (generator.go):
// one ResourceFlavor; per cohort set `count` cohorts "<class>-<i>"; per queue
// set and cohort `count` ClusterQueues "<class>-<set>-<i>-<cohort>" (cpu in
// the flavor, nominalQuota / borrowingLimit, the preemption policies, every
// namespace), each with a Namespace and a LocalQueue of the same name; per
// workload set, Workloads "<class>-<set>-<n>-<i>" created one every
// creationIntervalMs (the first after one interval), all sets at once.
#include "engines/timeline/generate.hpp"

#include "frontend/site/reader.hpp"

#include <algorithm>
#include <cstdio>
#include <set>

namespace queueforge::timeline::detail {

namespace {

constexpr const char* kClassLabel = "kueue.x-k8s.io/performance-scheduler-class";
constexpr const char* kKueue = "kueue.x-k8s.io/v1beta2";
constexpr const char* kTasNodeGroupLabel = "tas-node-group";  // topology_generator.go

Node str(const std::string& s, Mark m) { return Node::string(s, m); }

Node metadata(const std::string& name, const std::string& ns, Mark m) {
    Node md = Node::mapping(m);
    md.set("name", str(name, m));
    if (!ns.empty()) md.set("namespace", str(ns, m));
    return md;
}

Resource object(const std::string& file, std::string api, std::string kind, const std::string& name,
                const std::string& ns, Node doc) {
    Resource r;
    r.file = file;
    r.doc = std::move(doc);
    r.ref = {std::move(api), std::move(kind), ns, name};
    return r;
}

Node header(const char* api, const char* kind, Mark m) {
    Node d = Node::mapping(m);
    d.set("apiVersion", str(api, m));
    d.set("kind", str(kind, m));
    return d;
}

Resource cluster_queue(const std::string& file, const std::string& name, const std::string& cohort,
                       const std::string& flavor, const QueuesSet& q) {
    Mark m = q.mark;
    Node d = header(kKueue, "ClusterQueue", m);
    Node md = metadata(name, "", m);
    Node labels = Node::mapping(m);
    labels.set(kClassLabel, str(q.class_name, m));
    md.set("labels", std::move(labels));
    d.set("metadata", std::move(md));
    Node spec = Node::mapping(m);
    spec.set("cohortName", str(cohort, m));
    spec.set("namespaceSelector", Node::mapping(m));  // MakeClusterQueue: every namespace
    Node res = Node::mapping(m);
    res.set("name", str("cpu", m));
    res.set("nominalQuota", str(q.nominal_quota, m));
    if (q.borrowing_limit) res.set("borrowingLimit", str(*q.borrowing_limit, m));
    if (q.lending_limit) res.set("lendingLimit", str(*q.lending_limit, m));
    Node resources = Node::sequence(m);
    resources.push(std::move(res));
    Node fl = Node::mapping(m);
    fl.set("name", str(flavor, m));
    fl.set("resources", std::move(resources));
    Node flavors = Node::sequence(m);
    flavors.push(std::move(fl));
    Node covered = Node::sequence(m);
    covered.push(str("cpu", m));
    Node rg = Node::mapping(m);
    rg.set("coveredResources", std::move(covered));
    rg.set("flavors", std::move(flavors));
    Node rgs = Node::sequence(m);
    rgs.push(std::move(rg));
    spec.set("resourceGroups", std::move(rgs));
    Node pre = Node::mapping(m);
    pre.set("reclaimWithinCohort", str(q.reclaim_within_cohort, m));
    pre.set("withinClusterQueue", str(q.within_cluster_queue, m));
    spec.set("preemption", std::move(pre));
    d.set("spec", std::move(spec));
    return object(file, kKueue, "ClusterQueue", name, "", std::move(d));
}

Node workload_doc(const std::string& name, const std::string& ns, const std::string& queue,
                  const WorkloadTemplate& t, std::int64_t at_ms, std::int64_t seq) {
    Mark m = t.mark;
    Node d = header(kKueue, "Workload", m);
    Node md = metadata(name, ns, m);
    char uid[48];
    std::snprintf(uid, sizeof uid, "00000000-0000-0000-0000-%012lld", static_cast<long long>(seq));
    md.set("uid", str(uid, m));
    md.set("creationTimestamp", str(timestamp_ms(at_ms), m));
    Node labels = Node::mapping(m);
    labels.set(kClassLabel, str(t.class_name, m));
    md.set("labels", std::move(labels));
    d.set("metadata", std::move(md));
    Node spec = Node::mapping(m);
    spec.set("queueName", str(queue, m));
    spec.set("priority", Node::integer(t.priority, m));
    Node requests = Node::mapping(m);
    for (const auto& [res, q] : t.request) requests.set(res, str(q, m));
    Node resources = Node::mapping(m);
    resources.set("requests", std::move(requests));
    Node c = Node::mapping(m);
    c.set("name", str("c", m));
    c.set("resources", std::move(resources));
    Node containers = Node::sequence(m);
    containers.push(std::move(c));
    Node pod = Node::mapping(m);
    pod.set("restartPolicy", str("Never", m));
    pod.set("containers", std::move(containers));
    if (t.tolerations) pod.set("tolerations", *t.tolerations);
    if (t.node_selector) pod.set("nodeSelector", *t.node_selector);
    Node tmpl = Node::mapping(m);
    tmpl.set("spec", std::move(pod));
    Node ps = Node::mapping(m);
    ps.set("name", str("main", m));
    ps.set("count", Node::integer(t.pod_count, m));
    ps.set("template", std::move(tmpl));
    if (!t.tas_level.empty()) {
        // generateWlSet: RequiredTopologyRequest / PreferredTopologyRequest,
        // or for balanced SliceRequiredTopologyRequest + SliceSizeTopologyRequest
        // (no required or preferred level: Kueue places such a podset as
        // unconstrained, isSliceTopologyOnlyRequest; its TASBalancedPlacement
        // gate, alpha and off, would not apply to it either).
        Mark lm = t.tas_level_mark;
        Node tr = Node::mapping(lm);
        if (t.tas_constraint == "required") tr.set("required", str(t.tas_level, lm));
        else if (t.tas_constraint == "preferred") tr.set("preferred", str(t.tas_level, lm));
        else if (t.tas_constraint == "balanced") {
            tr.set("podSetSliceRequiredTopology", str(t.tas_level, lm));
            if (t.slice_size > 0) tr.set("podSetSliceSize", Node::integer(t.slice_size, lm));
        }
        ps.set("topologyRequest", std::move(tr));
    }
    Node podsets = Node::sequence(m);
    podsets.push(std::move(ps));
    spec.set("podSets", std::move(podsets));
    d.set("spec", std::move(spec));
    return d;
}

// generateTopologyResource: a Topology with the levels' node labels.
Resource topology_object(const std::string& file, const TopologyConfig& t) {
    Mark m = t.mark;
    Node d = header(kKueue, "Topology", m);
    d.set("metadata", metadata(t.name, "", m));
    Node levels = Node::sequence(m);
    for (const auto& l : t.levels) {
        Node ln = Node::mapping(l.mark);
        ln.set("nodeLabel", str(l.node_label, l.mark));
        levels.push(std::move(ln));
    }
    Node spec = Node::mapping(m);
    spec.set("levels", std::move(levels));
    d.set("spec", std::move(spec));
    return object(file, kKueue, "Topology", t.name, "", std::move(d));
}

// generateNodesRecursive + buildNodeName: the level indices in order, the
// last varying fastest; label "<level>-<i>" at each level's nodeLabel (the
// hostname level too), tas-node-group: tas, Ready, the last level's
// capacity and 110 pods.
void topology_nodes(const std::string& file, const TopologyConfig& t, std::vector<Resource>& out) {
    const Mark m = t.mark;
    const std::size_t levels = t.levels.size();
    std::vector<std::int64_t> idx(levels, 0);
    Node cond = Node::mapping(m);
    cond.set("type", str("Ready", m));
    cond.set("status", str("True", m));
    Node conditions = Node::sequence(m);
    conditions.push(std::move(cond));
    Node alloc = Node::mapping(m);
    alloc.set("cpu", str(t.cpu, m));
    alloc.set("memory", str(t.memory, m));
    alloc.set("pods", str("110", m));
    Node status = Node::mapping(m);
    status.set("allocatable", std::move(alloc));
    status.set("conditions", std::move(conditions));
    out.reserve(out.size() + static_cast<std::size_t>(t.nodes));
    for (std::int64_t n = 0; n < t.nodes; ++n) {
        std::string name = "node";
        Node labels = Node::mapping(m);
        labels.set(kTasNodeGroupLabel, str("tas", m));
        for (std::size_t i = 0; i < levels; ++i) {
            const TopologyLevel& l = t.levels[i];
            const std::string num = std::to_string(idx[i]);
            labels.set(l.node_label, str(l.name + "-" + num, l.mark));
            name += "-";
            name += l.name.front();
            name += num;
        }
        Node d = header("v1", "Node", m);
        Node md = metadata(name, "", m);
        md.set("labels", std::move(labels));
        d.set("metadata", std::move(md));
        d.set("status", status);
        out.push_back(object(file, "v1", "Node", name, "", std::move(d)));
        for (std::size_t i = levels; i-- > 0;) {
            if (++idx[i] < t.levels[i].count) break;
            idx[i] = 0;
        }
    }
}

struct Pending {
    Arrival a;
    std::string queue;
    const WorkloadTemplate* t = nullptr;
};

// generateWlSet: per set, `count` rounds over its templates, one creation
// per interval.
void expand_sets(const std::vector<WorkloadsSet>& sets, const std::string& ns, const std::string& queue,
                 const std::string& name_prefix, std::vector<Pending>& out) {
    for (std::size_t si = 0; si < sets.size(); ++si) {
        const WorkloadsSet& s = sets[si];
        std::int64_t k = 0;
        for (std::int64_t n = 0; n < s.count; ++n)
            for (std::size_t i = 0; i < s.workloads.size(); ++i) {
                const WorkloadTemplate& t = s.workloads[i];
                Pending p;
                p.a.namespace_ = ns;
                p.a.name = t.class_name + "-" + name_prefix + std::to_string(si) + "-" + std::to_string(n) + "-" +
                           std::to_string(i);
                p.a.class_name = t.class_name;
                p.a.at_ms = ++k * s.interval_ms;
                p.a.runtime_ms = t.runtime_ms;
                p.a.mark = t.mark;
                p.queue = queue;
                p.t = &t;
                out.push_back(std::move(p));
            }
    }
}

// localQueues arrivals with a tasLevel: the level must be one of a Topology
// of the site or manifests given (a level no Topology has never fits).
void check_site_levels(const Scenario& s, const std::vector<Resource>& cluster, Diagnostics& diags) {
    std::vector<std::string> levels;
    for (const auto& r : cluster) {
        if (r.ref.kind != "Topology" || r.ref.api_version.rfind("kueue.x-k8s.io/", 0) != 0 || !r.doc.is_map()) continue;
        const Node* spec = r.doc.find("spec");
        const Node* ls = spec && spec->is_map() ? spec->find("levels") : nullptr;
        if (!ls || ls->is_map() || ls->is_scalar()) continue;
        for (const auto& l : ls->items())
            if (const Node* nl = l.is_map() ? l.find("nodeLabel") : nullptr; nl && nl->is_scalar())
                levels.push_back(nl->text());
    }
    std::sort(levels.begin(), levels.end());
    levels.erase(std::unique(levels.begin(), levels.end()), levels.end());
    for (const auto& a : s.local_queues)
        for (const auto& set : a.sets)
            for (const auto& t : set.workloads) {
                if (t.tas_level.empty() || std::binary_search(levels.begin(), levels.end(), t.tas_level)) continue;
                std::string msg = "tasLevel: \"" + t.tas_level + "\" is not a level of any Topology in the site or manifests given";
                if (levels.empty()) msg = "tasLevel: \"" + t.tas_level + "\" needs a Topology in the site or manifests given; there is none";
                else if (std::string hint = site::did_you_mean(t.tas_level, levels); !hint.empty())
                    msg += "; did you mean \"" + hint + "\"?";
                diags.error(s.file, t.tas_level_mark, msg, "timeline.invalid");
            }
}

}  // namespace

std::string timestamp_ms(std::int64_t ms) {
    std::int64_t total = kEpochSeconds + ms / 1000;
    std::int64_t days = total / 86400, secs = total % 86400;
    // civil_from_days (H. Hinnant), days since 1970-01-01.
    std::int64_t z = days + 719468;
    std::int64_t era = (z >= 0 ? z : z - 146096) / 146097;
    std::int64_t doe = z - era * 146097;
    std::int64_t yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
    std::int64_t y = yoe + era * 400;
    std::int64_t doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    std::int64_t mp = (5 * doy + 2) / 153;
    std::int64_t d = doy - (153 * mp + 2) / 5 + 1;
    std::int64_t mo = mp < 10 ? mp + 3 : mp - 9;
    if (mo <= 2) ++y;
    char buf[96];
    std::snprintf(buf, sizeof buf, "%04lld-%02lld-%02lldT%02lld:%02lld:%02lld.%03lldZ", static_cast<long long>(y),
                  static_cast<long long>(mo), static_cast<long long>(d), static_cast<long long>(secs / 3600),
                  static_cast<long long>(secs / 60 % 60), static_cast<long long>(secs % 60),
                  static_cast<long long>(ms % 1000));
    return buf;
}

Generated generate(const Scenario& s, const std::vector<Resource>& cluster, Diagnostics& diags) {
    Generated g;
    std::vector<Pending> pending;
    if (!s.cohorts.empty()) {
        if (s.topology) {
            topology_nodes(s.file, *s.topology, g.objects);
            g.objects.push_back(topology_object(s.file, *s.topology));
        }
        Mark m = s.cohorts.front().mark;
        Node rf = header(kKueue, "ResourceFlavor", m);
        rf.set("metadata", metadata(s.flavor, "", m));
        if (!s.flavor_topology.empty()) {
            Node spec = Node::mapping(m);
            Node sel = Node::mapping(m);
            sel.set(s.flavor_node_label, str("tas", m));
            spec.set("nodeLabels", std::move(sel));
            spec.set("topologyName", str(s.flavor_topology, m));
            rf.set("spec", std::move(spec));
        }
        g.objects.push_back(object(s.file, kKueue, "ResourceFlavor", s.flavor, "", std::move(rf)));
    }
    for (const auto& c : s.cohorts)
        for (std::int64_t ci = 0; ci < c.count; ++ci) {
            std::string cohort = c.class_name + "-" + std::to_string(ci);
            for (std::size_t qsi = 0; qsi < c.queues_sets.size(); ++qsi) {
                const QueuesSet& q = c.queues_sets[qsi];
                for (std::int64_t qi = 0; qi < q.count; ++qi) {
                    std::string name = q.class_name + "-" + std::to_string(qsi) + "-" + std::to_string(qi) + "-" + cohort;
                    g.objects.push_back(cluster_queue(s.file, name, cohort, s.flavor, q));
                    Node ns = header("v1", "Namespace", q.mark);
                    ns.set("metadata", metadata(name, "", q.mark));
                    g.objects.push_back(object(s.file, "v1", "Namespace", name, "", std::move(ns)));
                    Node lq = header(kKueue, "LocalQueue", q.mark);
                    lq.set("metadata", metadata(name, name, q.mark));
                    Node spec = Node::mapping(q.mark);
                    spec.set("clusterQueue", str(name, q.mark));
                    lq.set("spec", std::move(spec));
                    g.objects.push_back(object(s.file, kKueue, "LocalQueue", name, name, std::move(lq)));
                    g.queue_class[name] = q.class_name;
                    expand_sets(q.sets, name, name, "", pending);
                }
            }
        }

    std::vector<std::string> known;
    for (const auto& r : cluster)
        if (r.ref.kind == "LocalQueue" && r.ref.api_version.rfind("kueue.x-k8s.io/", 0) == 0)
            known.push_back((r.ref.namespace_.empty() ? "default" : r.ref.namespace_) + "/" + r.ref.name);
    std::sort(known.begin(), known.end());
    for (std::size_t i = 0; i < s.local_queues.size(); ++i) {
        const QueueArrivals& a = s.local_queues[i];
        std::string key = a.namespace_ + "/" + a.name;
        if (!std::binary_search(known.begin(), known.end(), key)) {
            std::string msg = "localQueues[" + std::to_string(i) + "].localQueue: LocalQueue " + key +
                              " is not in the site or manifests given";
            std::string hint = site::did_you_mean(key, known);
            if (!hint.empty()) msg += "; did you mean \"" + hint + "\"?";
            diags.error(s.file, a.mark, msg, "timeline.unknown-queue");
            continue;
        }
        expand_sets(a.sets, a.namespace_, a.name, "q" + std::to_string(i) + "-", pending);
    }
    if (!s.local_queues.empty()) check_site_levels(s, cluster, diags);

    std::stable_sort(pending.begin(), pending.end(), [](const Pending& x, const Pending& y) { return x.a.at_ms < y.a.at_ms; });
    std::set<std::pair<std::string, std::string>> names;
    for (std::size_t i = 0; i < pending.size(); ++i) {
        Pending& p = pending[i];
        if (!names.emplace(p.a.namespace_, p.a.name).second) {
            diags.error(s.file, p.t->mark,
                        "workload " + p.a.namespace_ + "/" + p.a.name +
                            " is generated twice (two cohort sets share a className); rename one",
                        "timeline.duplicate");
            continue;
        }
        g.specs.push_back({p.queue, p.t, static_cast<std::int64_t>(i)});
        g.arrivals.push_back(std::move(p.a));
    }
    return g;
}

Resource make_workload(const std::string& file, const Arrival& a, const WorkloadSpec& spec) {
    return object(file, kKueue, "Workload", a.name, a.namespace_,
                  workload_doc(a.name, a.namespace_, spec.queue, *spec.tmpl, a.at_ms, spec.seq));
}

}  // namespace queueforge::timeline::detail
