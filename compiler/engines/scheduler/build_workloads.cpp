// Workloads: identity, priority, podSets (requests per kueue-semantics 4),
// queue routing, and the quota held by admitted ones (status.admission with
// QuotaReserved=True, scaled down for reclaimable pods as
// workload.go totalRequestsFromAdmission does).
#include "engines/scheduler/cluster_state.hpp"
#include "engines/scheduler/tas.hpp"

#include <algorithm>

namespace queueforge::scheduler::detail {

namespace {

struct Condition {
    std::string status, reason;
    std::int64_t time = 0;
    bool present = false;
};

Condition find_condition(const Reader& rd, const Node* status, const char* type) {
    Condition c;
    const Node* conds = rd.seq_at(status, "conditions");
    if (!conds) return c;
    for (const auto& item : conds->items()) {
        if (!item.is_map() || rd.str_at(&item, "type") != type) continue;
        c.present = true;
        c.status = rd.str_at(&item, "status");
        c.reason = rd.str_at(&item, "reason");
        c.time = parse_time(rd.str_at(&item, "lastTransitionTime")).value_or(0);
    }
    return c;
}

// Canonical text of a subtree, for the scheduling-equivalence shape.
void dump(const Node* n, std::string& out) {
    if (!n || n->is_null()) {
        out += "~";
        return;
    }
    if (n->is_map()) {
        std::vector<const Node::Entry*> es;
        for (const auto& e : n->entries()) es.push_back(&e);
        std::sort(es.begin(), es.end(), [](auto* a, auto* b) { return a->key < b->key; });
        out += "{";
        for (auto* e : es) {
            out += e->key + ":";
            dump(&e->value, out);
            out += ",";
        }
        out += "}";
    } else if (n->is_seq()) {
        out += "[";
        for (const auto& i : n->items()) {
            dump(&i, out);
            out += ",";
        }
        out += "]";
    } else {
        out += "'" + n->text() + "'";
    }
}

// pod.SpecShape: what decides whether two podSets schedule alike.
void spec_shape(const Node* spec, std::string& out) {
    if (!spec || !spec->is_map()) return;
    for (const char* key : {"nodeSelector", "affinity", "tolerations", "runtimeClassName", "priority",
                            "topologySpreadConstraints", "overhead", "resourceClaims", "resources"}) {
        out += key;
        out += "=";
        dump(spec->find(key), out);
        out += ";";
    }
    for (const char* key : {"initContainers", "containers"}) {
        out += key;
        out += "=[";
        if (const Node* cs = spec->find(key); cs && cs->is_seq())
            for (const auto& c : cs->items()) {
                const Node* res = c.is_map() ? c.find("resources") : nullptr;
                dump(res && res->is_map() ? res->find("requests") : nullptr, out);
                dump(c.is_map() ? c.find("ports") : nullptr, out);
                out += ",";
            }
        out += "];";
    }
}

// spec.podSets[].topologyRequest (Kueue v1beta2 PodSetTopologyRequest).
std::optional<TopologyRequest> read_topology_request(const Reader& rd, const Node& ps) {
    const Node* tr = rd.map_at(&ps, "topologyRequest");
    if (!tr) return std::nullopt;
    TopologyRequest t;
    t.mark = tr->mark();
    const std::string required = rd.str_at(tr, "required"), preferred = rd.str_at(tr, "preferred");
    if (!required.empty()) {
        t.mode = topology::Mode::Required;
        t.level = required;
        t.explicit_request = true;
    } else if (!preferred.empty()) {
        t.mode = topology::Mode::Preferred;
        t.level = preferred;
        t.explicit_request = true;
    } else if (rd.bool_at(tr, "unconstrained").value_or(false)) {
        t.mode = topology::Mode::Unconstrained;
        t.explicit_request = true;
    }
    if (const Node* layers = rd.seq_at(tr, "podsetSliceRequiredTopologyConstraints")) {
        for (const auto& l : layers->items())
            t.slices.push_back({rd.str_at(&l, "topology"), static_cast<std::int32_t>(rd.int_at(&l, "size").value_or(0))});
    } else {
        const std::string level = rd.str_at(tr, "podSetSliceRequiredTopology");
        const auto size = rd.int_at(tr, "podSetSliceSize");
        if (!level.empty() || size) t.slices.push_back({level, static_cast<std::int32_t>(size.value_or(0))});
    }
    if (!t.slices.empty()) t.explicit_request = true;
    if (const std::string g = rd.str_at(tr, "podSetGroupName"); !g.empty()) t.group = g;
    return t;
}

void read_podset(const Reader& rd, const Node& ps, PodSetSpec& out) {
    out.topology = read_topology_request(rd, ps);
    out.name = rd.str_at(&ps, "name");
    if (out.name.empty()) out.name = "main";
    out.count = static_cast<std::int32_t>(rd.int_at(&ps, "count").value_or(1));
    if (out.count < 0) {
        rd.error(ps.find("count"), "podSet " + out.name + " has a negative count; 0 is used", "sim.invalid-count");
        out.count = 0;
    } else if (out.count == 0) {
        rd.warning(ps.find("count"), "podSet " + out.name + " has count 0 and requests nothing", "sim.zero-count");
    }
    if (auto mc = rd.int_at(&ps, "minCount")) out.min_count = static_cast<std::int32_t>(*mc);
    const Node* tmpl = rd.map_at(&ps, "template");
    const Node* spec = rd.map_at(tmpl, "spec");
    out.node_selector = rd.string_map(spec, "nodeSelector");
    out.has_node_selector = !out.node_selector.empty();
    out.tolerations = rd.tolerations(rd.seq_at(spec, "tolerations"));
    const Node* aff = rd.map_at(spec, "affinity");
    const Node* na = rd.map_at(aff, "nodeAffinity");
    const Node* req = rd.map_at(na, "requiredDuringSchedulingIgnoredDuringExecution");
    if (req) {
        out.has_required_affinity = true;
        if (const Node* terms = rd.seq_at(req, "nodeSelectorTerms"))
            for (const auto& t : terms->items()) {
                NodeAffinityTerm term;
                term.exprs = rd.requirements(rd.seq_at(&t, "matchExpressions"));
                out.affinity_terms.push_back(std::move(term));
            }
    }
}

}  // namespace

void add_workloads(const std::vector<const Resource*>& workloads, Model& m, const WorkloadContext& ctx,
                   Diagnostics& diags) {
    const auto& limit_ranges = ctx.limit_ranges;
    const auto& priority_classes = ctx.priority_classes;
    for (const Resource* r : workloads) {
        Reader rd{*r, diags};
        Workload w;
        w.ns = r->ref.namespace_.empty() ? "default" : r->ref.namespace_;
        w.name = r->ref.name;
        w.key = w.ns + "/" + w.name;
        w.mark = mark_of(nullptr, *r);
        w.file = r->file;
        check_object_name(rd, "Workload", w.name);
        const Node* meta = rd.map_at(&r->doc, "metadata");
        w.uid = rd.str_at(meta, "uid");
        w.job_uid = rd.string_map(meta, "labels")["kueue.x-k8s.io/job-uid"];
        std::string created = rd.str_at(meta, "creationTimestamp");
        if (!created.empty()) {
            auto t = parse_time(created);
            if (!t) rd.error(meta->find("creationTimestamp"), "creationTimestamp \"" + created + "\" is not RFC 3339; the zero time is used");
            w.created = t.value_or(0);
        }
        w.order_ts = w.created;

        const Node* spec = rd.map_at(&r->doc, "spec");
        if (!spec) {
            rd.error(nullptr, "Workload has no spec; ignored");
            continue;
        }
        w.queue_name = rd.str_at(spec, "queueName");
        w.active = rd.bool_at(spec, "active").value_or(true);
        if (auto p = rd.int_at(spec, "priority")) {
            w.priority = static_cast<std::int32_t>(*p);
        } else {
            // The webhook copies the WorkloadPriorityClass value into spec.priority;
            // do it here when a manifest was written without it.
            std::string pc = rd.str_at(spec, "priorityClassName");
            if (const Node* ref = rd.map_at(spec, "priorityClassRef"); ref && rd.str_at(ref, "kind") != "PriorityClass")
                pc = rd.str_at(ref, "name");
            if (!pc.empty()) {
                auto it = priority_classes.find(pc);
                if (it != priority_classes.end()) w.priority = it->second;
                else
                    rd.warning(spec, "WorkloadPriorityClass \"" + pc + "\" not found and spec.priority unset; priority 0 is used",
                               "sim.unknown-priority-class");
            }
        }

        const Node* status = rd.map_at(&r->doc, "status");
        std::map<std::string, std::int32_t> reclaim;
        if (const Node* rp = rd.seq_at(status, "reclaimablePods"))
            for (const auto& x : rp->items())
                if (x.is_map()) reclaim[rd.str_at(&x, "name")] = static_cast<std::int32_t>(rd.int_at(&x, "count").value_or(0));

        const Node* podsets = rd.seq_at(spec, "podSets");
        if (!podsets || podsets->items().empty()) {
            rd.error(spec, "Workload has no podSets; ignored", "sim.invalid");
            continue;
        }
        const std::size_t errors_before = rd.diags.count(Severity::Error);
        auto lr_it = limit_ranges.find(w.ns);
        const LimitRangeSummary* lr = lr_it == limit_ranges.end() ? nullptr : &lr_it->second;
        std::vector<std::string> invalid, limit_errs;
        std::string shape = "priority=" + std::to_string(w.priority) + ";";
        int index = 0;
        for (const auto& ps : podsets->items()) {
            if (!ps.is_map()) {
                rd.error(&ps, "podSet must be a map; ignored");
                continue;
            }
            PodSetSpec pss;
            read_podset(rd, ps, pss);
            std::int32_t after = pss.count - std::min(std::max<std::int32_t>(reclaim[pss.name], 0), pss.count);
            const Node* spec_node = rd.map_at(rd.map_at(&ps, "template"), "spec");
            auto reqs = podset_requests(rd, spec_node, index, after, lr, m.config, m, invalid, limit_errs);
            for (const auto& [res, q] : reqs.pod) pss.per_pod[res] = resource_value(res, q);
            PodSetTotal total{pss.name, after, reqs.total, {}};
            if (pss.count > pss.min_count.value_or(pss.count)) w.can_partial = true;
            shape += "ps=" + pss.name + ";count=" + std::to_string(after) + ";min=" +
                     (pss.min_count ? std::to_string(*pss.min_count) : "-") + ";req=";
            for (const auto& [res, v] : reqs.total) shape += m.res_name(res) + ":" + std::to_string(v) + ",";
            spec_shape(spec_node, shape);
            shape += "topology=";
            dump(ps.find("topologyRequest"), shape);
            w.podsets.push_back(std::move(pss));
            w.pending_totals.push_back(std::move(total));
            ++index;
        }
        if (w.podsets.empty()) continue;
        // A request reported above as unusable (not a quantity, or one past
        // what Kueue's int64 accounting holds, such as cpu: 1e30, which the
        // API server accepts but Kueue's MilliValue overflows) would be left
        // out of the totals: simulating the rest would show a false Admitted.
        if (rd.diags.count(Severity::Error) > errors_before) continue;
        w.hash = m.shape_id(shape);
        if (!invalid.empty()) w.invalid_message = "resources validation failed: " + aggregate_errors(invalid);
        else if (!limit_errs.empty())
            w.invalid_message = "resources didn't satisfy LimitRange constraints: " + aggregate_errors(limit_errs);

        // Conditions: quota held, eviction, finished.
        Condition qr = find_condition(rd, status, "QuotaReserved");
        Condition ev = find_condition(rd, status, "Evicted");
        Condition fin = find_condition(rd, status, "Finished");
        w.finished = fin.status == "True";
        w.evicted = ev.status == "True";
        // GetQueueOrderTimestamp: evictions by PodsReady timeout or admission
        // check order by the eviction time.
        if (w.evicted && (ev.reason == "PodsReadyTimeout" || ev.reason == "AdmissionCheck")) w.order_ts = ev.time;
        w.admitted_cond = find_condition(rd, status, "Admitted").status == "True";
        // Second pass inputs (pkg/workload NeedsSecondPass): the failed nodes
        // and the admission checks' states.
        if (const Node* un = rd.seq_at(status, "unhealthyNodes"))
            for (const auto& x : un->items())
                if (x.is_map()) w.unhealthy_nodes.push_back(rd.str_at(&x, "name"));
        w.checks_ready = true;
        if (const Node* acs = rd.seq_at(status, "admissionChecks"))
            for (const auto& x : acs->items()) {
                if (!x.is_map()) continue;
                const std::string state = rd.str_at(&x, "state");
                ++w.checks;
                if (state != "Ready") w.checks_ready = false;
                if (state == "Retry" || state == "Rejected") w.checks_failed = true;
            }
        if (const Node* owners = meta ? meta->find("ownerReferences") : nullptr; owners && owners->is_seq()) {
            const auto& items = owners->items();
            const Node* group = nullptr;
            if (const Node* ann = meta->find("annotations"); ann && ann->is_map()) group = ann->find("kueue.x-k8s.io/is-group-workload");
            const bool is_group = group && group->is_scalar() && !group->is_null() && group->text() == "true";
            if (items.size() == 1 && items[0].is_map() && !is_group) {
                const Node* k = items[0].find("kind");
                const Node* v = items[0].find("apiVersion");
                w.owned_by_single_pod = k && k->is_scalar() && !k->is_null() && k->text() == "Pod" && v &&
                                        v->is_scalar() && !v->is_null() && v->text() == "v1";
            }
        }
        const Node* adm = rd.map_at(status, "admission");
        bool reserved = qr.status == "True";
        if (reserved && !adm)
            rd.warning(status, "QuotaReserved=True without status.admission; treated as pending", "sim.invalid-admission");
        if (adm && !reserved)
            rd.warning(adm, "status.admission without QuotaReserved=True holds no quota; treated as pending",
                       "sim.invalid-admission");
        if (adm && reserved && !w.finished && w.active) {
            std::string cq_name = rd.str_at(adm, "clusterQueue");
            auto it = m.cq_ids.find(cq_name);
            if (it == m.cq_ids.end()) {
                rd.warning(adm, "admitted to ClusterQueue \"" + cq_name + "\", which does not exist; its usage is ignored" +
                                    suggestion(cq_name, cluster_queue_names(m)),
                           "sim.unknown-queue");
            } else {
                w.holds = true;
                w.held_before = true;
                w.adm_cq = it->second;
                w.reserved_at = qr.time;
                if (const Node* psas = rd.seq_at(adm, "podSetAssignments"))
                    for (const auto& psa : psas->items()) {
                        if (!psa.is_map()) continue;
                        PodSetTotal t;
                        t.name = rd.str_at(&psa, "name");
                        std::int32_t spec_count = 0;
                        for (const auto& ps : w.podsets)
                            if (ps.name == t.name) spec_count = ps.count;
                        t.count = static_cast<std::int32_t>(rd.int_at(&psa, "count").value_or(spec_count));
                        for (const auto& [res, q] : rd.resource_list(&psa, "resourceUsage", "resourceUsage"))
                            t.requests.emplace_back(m.resource_id(res), resource_value(res, q));
                        m.sort_requests(t.requests);
                        for (const auto& [res, f] : rd.string_map(&psa, "flavors"))
                            t.flavors.set(m.resource_id(res), m.flavor_id(f));
                        std::int32_t after = spec_count - std::min(std::max<std::int32_t>(reclaim[t.name], 0), spec_count);
                        if (after < t.count) {
                            for (auto& [res, v] : t.requests)
                                v = t.count > 0 ? sat_mul(v / t.count, after) : v;
                            t.count = after;
                        }
                        for (const auto& [res, v] : t.requests)
                            if (const int* f = t.flavors.find(res)) {
                                Amount& u = w.usage.at(m.fr_id(*f, res));
                                u = amt_add_int(u, v);
                            }
                        // Its pods on a TAS flavor's nodes (the TAS cache's usage).
                        t.delayed = rd.str_at(&psa, "delayedTopologyRequest");
                        if (auto ta = topology_assignment_of(rd.map_at(&psa, "topologyAssignment")))
                            for (const auto& [res, f] : t.flavors)
                                if (m.flavors[f].tas >= 0) {
                                    topology::Amounts per_pod;
                                    for (const auto& ps : w.podsets)
                                        if (ps.name == t.name) per_pod = ps.per_pod;
                                    w.placements.push_back({t.name, m.flavors[f].tas, *ta, per_pod});
                                    break;
                                }
                        w.admission.push_back(std::move(t));
                    }
            }
        }

        // Routing: LocalQueue in the same namespace -> ClusterQueue.
        if (!w.queue_name.empty()) {
            auto it = m.lq_ids.find(w.ns + "/" + w.queue_name);
            if (it != m.lq_ids.end()) {
                w.lq = it->second;
                w.queue_cq = m.lqs[w.lq].cq;
            } else if (!w.holds) {
                rd.warning(spec->find("queueName"),
                           "LocalQueue \"" + w.ns + "/" + w.queue_name + "\" does not exist; the workload is never admitted" +
                               suggestion(w.queue_name, local_queue_names(m, w.ns)),
                           "sim.unknown-queue");
            }
        } else if (!w.holds) {
            rd.warning(spec, "Workload has no spec.queueName; Kueue never queues it", "sim.unknown-queue");
        }
        // Namespace labels feed namespaceSelectors; an undeclared namespace is
        // taken as existing without labels (Kueue would report it missing).
        if (!m.namespaces.count(w.ns)) {
            m.namespaces[w.ns] = {};
            rd.warning(meta, "Namespace \"" + w.ns + "\" is not among the inputs; simulated as existing without labels",
                       "sim.namespace-assumed");
        }
        m.wls.push_back(std::move(w));
    }
}

void index_workloads(Model& m) {
    // Workloads in a stable order: namespace/name.
    std::sort(m.wls.begin(), m.wls.end(), [](const Workload& a, const Workload& b) { return a.key < b.key; });
    for (auto& cq : m.cqs) cq.workloads.clear();
    for (auto& w : m.wls) {
        auto it = m.namespaces.find(w.ns);
        w.ns_labels = it == m.namespaces.end() ? nullptr : &it->second.labels;
    }
    for (std::size_t i = 0; i < m.wls.size(); ++i) {
        Workload& w = m.wls[i];
        if (!w.holds) continue;
        ClusterQueue& cq = m.cqs[w.adm_cq];
        w.cq_pos = static_cast<int>(cq.workloads.size());
        cq.workloads.push_back(static_cast<int>(i));
    }
}

}  // namespace queueforge::scheduler::detail
