// Reading a timeline scenario (Kueue's generator.yaml shape plus
// `localQueues:`), strictly as Kueue's runner does (UnmarshalStrict): unknown
// fields are errors, with a suggestion.
#include <queueforge/engines/timeline.hpp>
#include <queueforge/base/yaml_load.hpp>

#include <queueforge/base/names.hpp>

#include "frontend/site/reader.hpp"

#include <algorithm>

namespace queueforge::timeline {

namespace {

constexpr std::int64_t kMaxWorkloads = 1000000;
constexpr std::int64_t kMaxQueues = 100000;
constexpr std::int64_t kMaxIntervalMs = 7LL * 24 * 3600 * 1000;  // a week between arrivals
constexpr std::int64_t kMaxRuntimeMs = 365LL * 24 * 3600 * 1000;

using site::Reader;

// A kueue.PreemptionPolicy value.
void read_policy(const Reader& r, const Node* n, const std::string& what, std::string& out) {
    site::Text t;
    if (r.read_enum(n, what, t, {"Never", "LowerPriority", "LowerOrNewerEqualPriority", "Any"})) out = t.value;
}

// Kueue's DRA knobs: parsed by Kueue's runner, not modelled here.
bool refuse_unmodelled(const Reader& r, const Node& n, const std::string& what,
                       std::initializer_list<std::string_view> keys) {
    bool bad = false;
    for (auto k : keys)
        if (const Node* v = n.find(std::string(k))) {
            r.error(v->mark(), what + "." + std::string(k) + ": DRA devices are not simulated; remove the field",
                    r.rule("unsupported"));
            bad = true;
        }
    return bad;
}

std::string read_class(const Reader& r, const Node& n, const std::string& what) {
    site::Text t;
    if (!n.find("className")) r.error(n.mark(), what + ".className: required", r.rule("required"));
    r.read_name(n.find("className"), what + ".className", t);
    return t.value;
}

std::int64_t read_count(const Reader& r, const Node& n, const std::string& what, std::int64_t max) {
    std::optional<site::Located<std::int64_t>> v;
    if (!n.find("count")) r.error(n.mark(), what + ".count: required", r.rule("required"));
    r.read_int(n.find("count"), what + ".count", v, 0, max);
    return v ? v->value : 0;
}

std::optional<std::string> read_quota(const Reader& r, const Node* n, const std::string& what) {
    std::optional<site::Located<Quantity>> q;
    if (!r.read_quantity(n, what, q)) return std::nullopt;
    return q->value.to_string();
}

void read_request(const Reader& r, const Node* n, const std::string& what, WorkloadTemplate& w) {
    if (!n) {
        r.error(w.mark, what + ": required", r.rule("required"));
        return;
    }
    if (n->is_map()) {  // queueforge: any resources
        for (const auto& e : n->entries()) {
            if (auto q = read_quota(r, &e.value, what + "." + e.key)) w.request.emplace_back(e.key, *q);
        }
        if (n->entries().empty()) r.error(n->mark(), what + ": requests nothing", r.rule("invalid"));
        return;
    }
    if (auto q = read_quota(r, n, what)) w.request.emplace_back("cpu", *q);  // Kueue's runner: cpu
}


// ---- Topology-aware scheduling (Kueue's runner/generator/topology_generator.go) ----

// What the workload templates check their TAS fields against: the levels of
// the scenario's topology when its flavor uses it; null in localQueues mode
// (the site's Topologies are checked when the objects are generated).
struct TasContext {
    bool unknown = false;           // the topology itself is in error: no checks against it
    bool flavor_tas = false;        // resourceFlavor.topologyName names the topology
    std::vector<std::string> levels;  // node labels
};

std::optional<TopologyConfig> read_topology(const Reader& r, const Node& n) {
    if (!r.expect_map(n, "topology", {"name", "levels"})) return std::nullopt;
    TopologyConfig t;
    t.mark = n.mark();
    site::Text name;
    if (!n.find("name")) r.error(n.mark(), "topology.name: required", r.rule("required"));
    if (r.read_name(n.find("name"), "topology.name", name)) t.name = name.value;
    const Node* ls = n.find("levels");
    if (!ls) {
        r.error(n.mark(), "topology.levels: required", r.rule("required"));
        return std::nullopt;
    }
    if (!r.expect_seq(*ls, "topology.levels")) return std::nullopt;
    const auto& items = ls->items();
    // generateTopologyNodes: "topology must have at least 2 levels"; the
    // Topology CRD: at most 16.
    if (items.size() < 2 || items.size() > 16) {
        r.error(ls->mark(), "topology.levels: Kueue's generator needs 2 to 16 levels, got " + std::to_string(items.size()),
                r.rule("invalid"));
        return std::nullopt;
    }
    std::int64_t nodes = 1;
    bool ok = true;
    std::vector<std::string> labels;
    for (std::size_t i = 0; i < items.size(); ++i) {
        const Node& ln = items[i];
        const std::string lw = "topology.levels[" + std::to_string(i) + "]";
        if (!r.expect_map(ln, lw, {"name", "count", "nodeLabel", "capacity"})) {
            ok = false;
            continue;
        }
        TopologyLevel l;
        l.mark = ln.mark();
        site::Text lname;
        if (!ln.find("name")) r.error(ln.mark(), lw + ".name: required", r.rule("required"));
        if (r.read_name(ln.find("name"), lw + ".name", lname)) {
            // buildNodeName keeps the level's first letter and the text
            // between the first two '-' of "<name>-<i>": a name with '-'
            // loses the index, and the nodes' names collide.
            if (lname.value.find('-') != std::string::npos)
                r.error(lname.mark, lw + ".name: \"" + lname.value +
                                        "\" has a '-': Kueue's generator names nodes from the text between the first "
                                        "two '-' of \"<name>-<i>\", so its nodes' names would collide",
                        r.rule("invalid"));
            else
                l.name = lname.value;
        }
        std::optional<site::Located<std::int64_t>> c;
        if (!ln.find("count")) r.error(ln.mark(), lw + ".count: required", r.rule("required"));
        if (r.read_int(ln.find("count"), lw + ".count", c, 1, static_cast<std::int64_t>(kMaxTopologyNodes)))
            l.count = c->value;
        site::Text label;
        if (!ln.find("nodeLabel")) r.error(ln.mark(), lw + ".nodeLabel: required", r.rule("required"));
        if (r.read_text(ln.find("nodeLabel"), lw + ".nodeLabel", label)) {
            if (std::string why = check_qualified_name(label.value); !why.empty())
                r.error(label.mark, lw + ".nodeLabel: \"" + label.value + "\" is not a label key: " + why, r.rule("invalid"));
            else if (std::find(labels.begin(), labels.end(), label.value) != labels.end())
                r.error(label.mark, lw + ".nodeLabel: \"" + label.value + "\" is another level's too; a Topology's levels must be unique",
                        r.rule("invalid"));
            else if (label.value == kHostnameLabel && i + 1 != items.size())
                r.error(label.mark, lw + ".nodeLabel: the kubernetes.io/hostname label can only be used at the lowest level of topology",
                        r.rule("invalid"));
            else
                l.node_label = label.value;
            labels.push_back(label.value);
        }
        if (const Node* cap = ln.find("capacity")) {
            if (i + 1 != items.size()) {
                r.error(cap->mark(), lw + ".capacity: Kueue's generator reads the capacity of the last level (the nodes) only",
                        r.rule("invalid"));
            } else if (r.expect_map(*cap, lw + ".capacity", {"cpu", "memory"})) {
                if (auto q = read_quota(r, cap->find("cpu"), lw + ".capacity.cpu")) t.cpu = *q;
                if (auto q = read_quota(r, cap->find("memory"), lw + ".capacity.memory")) t.memory = *q;
            }
        }
        if (l.name.empty() || l.count == 0 || l.node_label.empty()) ok = false;
        nodes = l.count > 0 ? std::min<std::int64_t>(nodes * l.count, static_cast<std::int64_t>(kMaxTopologyNodes) + 1) : nodes;
        t.levels.push_back(std::move(l));
    }
    if (nodes > static_cast<std::int64_t>(kMaxTopologyNodes)) {
        r.error(ls->mark(), "topology.levels: the counts make more than " + std::to_string(kMaxTopologyNodes) + " nodes",
                r.rule("too-large"));
        return std::nullopt;
    }
    t.nodes = nodes;
    if (!ok) return std::nullopt;
    return t;
}

// tasConstraint / tasLevel / sliceSize of one workload template, as
// generateWlSet turns them into a topologyRequest. What Kueue's generator
// silently drops (a constraint without a level, a level without a known
// constraint, sliceSize outside balanced) is an error here.
void read_tas(const Reader& r, const Node& tn, const std::string& tw, const TasContext* tas, WorkloadTemplate& t) {
    site::Text c, level;
    const Node* cn = tn.find("tasConstraint");
    const Node* ln = tn.find("tasLevel");
    const Node* sn = tn.find("sliceSize");
    if (!cn && !ln && !sn) return;
    if (cn && r.read_enum(cn, tw + ".tasConstraint", c, {"required", "preferred", "balanced"})) t.tas_constraint = c.value;
    if (ln && r.read_text(ln, tw + ".tasLevel", level)) {
        t.tas_level = level.value;
        t.tas_level_mark = level.mark;
    }
    std::optional<site::Located<std::int64_t>> size;
    if (sn && r.read_int(sn, tw + ".sliceSize", size, 1, INT32_MAX)) t.slice_size = static_cast<std::int32_t>(size->value);
    if (cn && !ln)
        r.error(cn->mark(), tw + ".tasConstraint: needs tasLevel (Kueue's generator ignores a constraint without a level)",
                r.rule("required"));
    if (ln && !cn)
        r.error(ln->mark(), tw + ".tasLevel: needs tasConstraint (required, preferred or balanced)", r.rule("required"));
    if (sn && cn && !t.tas_constraint.empty() && t.tas_constraint != "balanced")
        r.error(sn->mark(), tw + ".sliceSize: only with tasConstraint balanced (Kueue's generator ignores it otherwise)",
                r.rule("invalid"));
    if (sn && !cn)
        r.error(sn->mark(), tw + ".sliceSize: needs tasConstraint balanced and a tasLevel", r.rule("required"));
    // Kueue's Workload webhook (TASValidateWorkloadSliceSize, on by default):
    // podSetSliceSize must be set when podSetSliceRequiredTopology is.
    if (t.tas_constraint == "balanced" && !sn)
        r.error(cn->mark(), tw + ".tasConstraint: balanced needs sliceSize (Kueue's Workload webhook: podSetSliceSize must "
                                 "be set when podSetSliceRequiredTopology is specified)",
                r.rule("required"));
    if (!tas || tas->unknown || t.tas_level.empty()) return;
    if (!tas->flavor_tas) {
        r.error(level.mark, tw + ".tasLevel: the scenario's flavor has no topology; give topology and resourceFlavor.topologyName",
                r.rule("invalid"));
    } else if (std::find(tas->levels.begin(), tas->levels.end(), t.tas_level) == tas->levels.end()) {
        std::string msg = tw + ".tasLevel: \"" + t.tas_level + "\" is not a level of the topology (its levels' nodeLabel)";
        if (std::string hint = site::did_you_mean(t.tas_level, tas->levels); !hint.empty())
            msg += "; did you mean \"" + hint + "\"?";
        r.error(level.mark, msg, r.rule("invalid"));
    }
}

std::vector<WorkloadsSet> read_sets(const Reader& r, const Node* n, const std::string& what, std::int64_t& total,
                                    const TasContext* tas) {
    std::vector<WorkloadsSet> out;
    if (!n || !r.expect_seq(*n, what)) return out;
    for (std::size_t i = 0; i < n->items().size(); ++i) {
        const Node& sn = n->items()[i];
        std::string sw = what + "[" + std::to_string(i) + "]";
        if (!r.expect_map(sn, sw, {"count", "creationIntervalMs", "workloads"})) continue;
        WorkloadsSet s;
        s.mark = sn.mark();
        s.count = read_count(r, sn, sw, kMaxWorkloads);
        std::optional<site::Located<std::int64_t>> iv;
        r.read_int(sn.find("creationIntervalMs"), sw + ".creationIntervalMs", iv, 0, kMaxIntervalMs);
        if (iv) s.interval_ms = iv->value;
        const Node* wn = sn.find("workloads");
        if (!wn) r.error(sn.mark(), sw + ".workloads: required", r.rule("required"));
        else if (r.expect_seq(*wn, sw + ".workloads"))
            for (std::size_t j = 0; j < wn->items().size(); ++j) {
                const Node& tn = wn->items()[j];
                std::string tw = sw + ".workloads[" + std::to_string(j) + "]";
                if (!r.expect_map(tn, tw, {"className", "runtimeMs", "priority", "request", "podCount", "tolerations",
                                           "nodeSelector", "tasConstraint", "tasLevel", "sliceSize", "devices", "podsReadyMs"}))
                    continue;
                refuse_unmodelled(r, tn, tw, {"devices"});
                WorkloadTemplate t;
                t.mark = tn.mark();
                read_tas(r, tn, tw, tas, t);
                t.class_name = read_class(r, tn, tw);
                std::optional<site::Located<std::int64_t>> v;
                if (r.read_int(tn.find("runtimeMs"), tw + ".runtimeMs", v, 0, kMaxRuntimeMs)) t.runtime_ms = v->value;
                v.reset();
                // queueforge: pods ready this long after admission, or never.
                if (const Node* pr = tn.find("podsReadyMs"); pr && pr->is_scalar() && pr->text() == "never")
                    t.never_ready = true;
                else if (r.read_int(pr, tw + ".podsReadyMs", v, 0, kMaxRuntimeMs))
                    t.pods_ready_ms = v->value;
                v.reset();
                if (r.read_int(tn.find("priority"), tw + ".priority", v, INT32_MIN, INT32_MAX))
                    t.priority = static_cast<std::int32_t>(v->value);
                v.reset();
                if (r.read_int(tn.find("podCount"), tw + ".podCount", v, 1, INT32_MAX))
                    t.pod_count = static_cast<std::int32_t>(v->value);
                read_request(r, tn.find("request"), tw + ".request", t);
                if (const Node* tol = tn.find("tolerations"); tol && r.expect_seq(*tol, tw + ".tolerations")) {
                    for (std::size_t k = 0; k < tol->items().size(); ++k)
                        r.expect_map(tol->items()[k], tw + ".tolerations[" + std::to_string(k) + "]",
                                     {"key", "operator", "value", "effect", "tolerationSeconds"});
                    t.tolerations = *tol;
                }
                if (const Node* ns = tn.find("nodeSelector"); ns) {
                    std::vector<std::pair<site::Text, site::Text>> pairs;
                    r.read_string_map(ns, tw + ".nodeSelector", pairs);
                    t.node_selector = *ns;
                }
                s.workloads.push_back(std::move(t));
            }
        total += s.count * static_cast<std::int64_t>(s.workloads.size());
        if (total > kMaxWorkloads) {
            r.error(sn.mark(), sw + ": the scenario creates more than " + std::to_string(kMaxWorkloads) + " workloads",
                    r.rule("too-large"));
            total = kMaxWorkloads + 1;
        }
        out.push_back(std::move(s));
    }
    return out;
}

QueuesSet read_queues_set(const Reader& r, const Node& n, const std::string& what, std::int64_t& total_wl,
                          const TasContext& tas) {
    QueuesSet q;
    q.mark = n.mark();
    refuse_unmodelled(r, n, what, {"deviceNominalQuota", "deviceBorrowingLimit"});
    q.class_name = read_class(r, n, what);
    q.count = read_count(r, n, what, kMaxQueues);
    if (!n.find("nominalQuota")) r.error(n.mark(), what + ".nominalQuota: required", r.rule("required"));
    q.nominal_quota = read_quota(r, n.find("nominalQuota"), what + ".nominalQuota").value_or("0");
    q.borrowing_limit = read_quota(r, n.find("borrowingLimit"), what + ".borrowingLimit");
    q.lending_limit = read_quota(r, n.find("lendingLimit"), what + ".lendingLimit");
    read_policy(r, n.find("reclaimWithinCohort"), what + ".reclaimWithinCohort", q.reclaim_within_cohort);
    read_policy(r, n.find("withinClusterQueue"), what + ".withinClusterQueue", q.within_cluster_queue);
    q.sets = read_sets(r, n.find("workloadsSets"), what + ".workloadsSets", total_wl, &tas);
    return q;
}

}  // namespace

std::optional<Scenario> parse_scenario(const std::string& file, const std::string& text, Diagnostics& diags) {
    const std::size_t errors_before = diags.count(Severity::Error);
    auto docs = load_yaml(file, text, diags);
    if (diags.count(Severity::Error) > errors_before) return std::nullopt;
    Reader r{file, diags, "timeline"};
    if (docs.size() != 1) {
        r.error(docs.empty() ? Mark{} : docs[1].start, "a scenario is one YAML document", r.rule("invalid"));
        return std::nullopt;
    }
    const Node& root = docs[0].root;
    if (!r.expect_map(root, "scenario", {"cohorts", "localQueues", "resourceFlavor", "topology", "dra"})) return std::nullopt;
    refuse_unmodelled(r, root, "scenario", {"dra"});
    Scenario s;
    s.file = file;
    const Node* cohorts = root.find("cohorts");
    if (const Node* tn = root.find("topology")) {
        if (!cohorts)
            r.error(tn->mark(), "topology: only with cohorts (Kueue's generator shape); localQueues use the Topology and "
                                "Nodes of the site or manifests given",
                    r.rule("invalid"));
        else
            s.topology = read_topology(r, *tn);
        if (s.topology && s.topology->levels.back().node_label == kHostnameLabel &&
            s.topology->nodes > s.topology->levels.back().count) {
            const TopologyLevel& last = s.topology->levels.back();
            const std::int64_t parents = s.topology->nodes / last.count;
            diags.note(file, last.mark,
                       "topology.levels[" + std::to_string(s.topology->levels.size() - 1) +
                           "]: Kueue's generator labels kubernetes.io/hostname \"" + last.name + "-<i>\" within each of the " +
                           std::to_string(parents) +
                           " parent domains, and Kueue keys hostname domains by the value alone: the nodes with the same "
                           "value merge, leaving " + std::to_string(last.count) + " domains of " + std::to_string(parents) +
                           " nodes' capacity under the first parent (as in Kueue's own runs)",
                       "timeline.merged-hostnames");
        }
    }
    if (const Node* rf = root.find("resourceFlavor");
        rf && r.expect_map(*rf, "resourceFlavor", {"name", "nodeLabel", "topologyName"})) {
        site::Text t;
        if (r.read_name(rf->find("name"), "resourceFlavor.name", t)) s.flavor = t.value;
        // generateResourceFlavor: with topologyName the flavor selects
        // nodeLabel=tas; nodeLabel alone is ignored.
        site::Text topo, label;
        const Node* tn = rf->find("topologyName");
        const Node* ln = rf->find("nodeLabel");
        if (tn && r.read_name(tn, "resourceFlavor.topologyName", topo)) {
            if (!root.find("topology"))
                r.error(topo.mark, "resourceFlavor.topologyName: the scenario has no topology", r.rule("invalid"));
            else if (s.topology && s.topology->name != topo.value)
                r.error(topo.mark, "resourceFlavor.topologyName: \"" + topo.value + "\" is not the topology's name \"" +
                                       s.topology->name + "\"",
                        r.rule("invalid"));
            else
                s.flavor_topology = topo.value;
            if (!ln)
                r.error(rf->mark(), "resourceFlavor.nodeLabel: required when topologyName is set (Kueue's generator: "
                                    "\"resourceFlavor.nodeLabel is required when TAS is enabled\")",
                        r.rule("required"));
        }
        if (ln && r.read_text(ln, "resourceFlavor.nodeLabel", label)) {
            if (!tn)
                r.error(label.mark, "resourceFlavor.nodeLabel: only with topologyName (Kueue's generator ignores it otherwise)",
                        r.rule("invalid"));
            else if (label.value != "tas-node-group")
                r.error(label.mark, "resourceFlavor.nodeLabel: the nodes Kueue's generator makes carry tas-node-group: tas "
                                    "only; a flavor selecting \"" + label.value + ": tas\" matches none of them",
                        r.rule("invalid"));
            else
                s.flavor_node_label = label.value;
        }
    }
    TasContext tas;
    tas.unknown = root.find("topology") && (!s.topology || (root.find("resourceFlavor") &&
                                                            root.find("resourceFlavor")->find("topologyName") &&
                                                            s.flavor_topology.empty()));
    tas.flavor_tas = s.topology && !s.flavor_topology.empty();
    if (s.topology)
        for (const auto& l : s.topology->levels) tas.levels.push_back(l.node_label);
    std::int64_t total_wl = 0, total_cq = 0;
    if (const Node* cs = cohorts; cs && r.expect_seq(*cs, "cohorts")) {
        for (std::size_t i = 0; i < cs->items().size(); ++i) {
            const Node& cn = cs->items()[i];
            std::string cw = "cohorts[" + std::to_string(i) + "]";
            if (!r.expect_map(cn, cw, {"className", "count", "queuesSets"})) continue;
            CohortSet c;
            c.mark = cn.mark();
            c.class_name = read_class(r, cn, cw);
            c.count = read_count(r, cn, cw, kMaxQueues);
            if (const Node* qs = cn.find("queuesSets"); qs && r.expect_seq(*qs, cw + ".queuesSets")) {
                for (std::size_t j = 0; j < qs->items().size(); ++j) {
                    const Node& qn = qs->items()[j];
                    std::string qw = cw + ".queuesSets[" + std::to_string(j) + "]";
                    if (!r.expect_map(qn, qw, {"className", "count", "nominalQuota", "borrowingLimit", "lendingLimit",
                                               "reclaimWithinCohort", "withinClusterQueue", "workloadsSets",
                                               "deviceNominalQuota", "deviceBorrowingLimit"}))
                        continue;
                    std::int64_t per_queue = 0;
                    QueuesSet q = read_queues_set(r, qn, qw, per_queue, tas);
                    // Every ClusterQueue of every cohort gets the set's workloads.
                    std::int64_t queues = c.count * q.count;
                    total_cq += queues;
                    if (total_cq > kMaxQueues) {
                        r.error(qn.mark(), qw + ": the scenario creates more than " + std::to_string(kMaxQueues) +
                                               " ClusterQueues", r.rule("too-large"));
                        total_cq = kMaxQueues + 1;
                    } else if (per_queue > 0 && queues > 0 && (total_wl += per_queue * queues) > kMaxWorkloads) {
                        r.error(qn.mark(), qw + ": the scenario creates more than " + std::to_string(kMaxWorkloads) +
                                               " workloads", r.rule("too-large"));
                        total_wl = kMaxWorkloads + 1;
                    }
                    c.queues_sets.push_back(std::move(q));
                }
            }
            s.cohorts.push_back(std::move(c));
        }
    }
    if (const Node* ls = root.find("localQueues"); ls && r.expect_seq(*ls, "localQueues")) {
        for (std::size_t i = 0; i < ls->items().size(); ++i) {
            const Node& ln = ls->items()[i];
            std::string lw = "localQueues[" + std::to_string(i) + "]";
            if (!r.expect_map(ln, lw, {"localQueue", "workloadsSets"})) continue;
            QueueArrivals a;
            a.mark = ln.mark();
            site::Text t;
            if (!ln.find("localQueue")) r.error(ln.mark(), lw + ".localQueue: required (namespace/name)", r.rule("required"));
            if (r.read_text(ln.find("localQueue"), lw + ".localQueue", t)) {
                auto slash = t.value.find('/');
                if (slash == std::string::npos || slash == 0 || slash + 1 == t.value.size() ||
                    t.value.find('/', slash + 1) != std::string::npos)
                    r.error(t.mark, lw + ".localQueue: expected namespace/name, got \"" + t.value + "\"", r.rule("invalid"));
                else {
                    a.namespace_ = t.value.substr(0, slash);
                    a.name = t.value.substr(slash + 1);
                }
            }
            a.sets = read_sets(r, ln.find("workloadsSets"), lw + ".workloadsSets", total_wl, nullptr);
            s.local_queues.push_back(std::move(a));
        }
    }
    if (s.cohorts.empty() && s.local_queues.empty() && diags.count(Severity::Error) == errors_before)
        r.error(root.mark(), "scenario: give cohorts (Kueue's generator shape) or localQueues", r.rule("required"));
    if (diags.count(Severity::Error) > errors_before) return std::nullopt;
    return s;
}

}  // namespace queueforge::timeline
