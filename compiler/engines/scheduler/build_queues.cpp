// ResourceFlavors, Cohorts, ClusterQueues and LocalQueues, and the quota tree
// (pkg/cache/scheduler clusterqueue.go/cohort.go/resource_node.go and
// pkg/cache/hierarchy), read from the typed cluster (model::Cluster) and its
// quota tree (model::QuotaTree). ClusterQueue status follows clusterqueue.go
// updateQueueStatus: stopPolicy != None, missing flavors and missing
// admission checks make it inactive; a cohort cycle keeps it out of the
// scheduler's snapshot (snapshot.go skipInactiveCQReason, reason HasCycle).
//
// The objects themselves are visited only to report what the model reads as
// absent (a field of the wrong shape, a quantity that does not parse), with
// its position: the simulator's input findings (rule sim.invalid).
#include "engines/scheduler/afs_build.hpp"
#include "engines/scheduler/cluster_state.hpp"

#include <queueforge/model/cluster.hpp>
#include <queueforge/model/quota_tree.hpp>

#include <algorithm>
#include <map>
#include <set>

namespace queueforge::scheduler::detail {

namespace {

Policy to_policy(const std::string& v) {
    if (v == "LowerPriority") return Policy::LowerPriority;
    if (v == "LowerOrNewerEqualPriority") return Policy::LowerOrNewerEqualPriority;
    if (v == "Any") return Policy::Any;
    return Policy::Never;
}

void check_policy(const Reader& rd, const Node* n, const char* key, const std::string& v) {
    if (v.empty() || v == "Never" || v == "LowerPriority" || v == "LowerOrNewerEqualPriority" || v == "Any") return;
    rd.error(n ? n->find(key) : nullptr, std::string("unknown preemption policy ") + key + ": \"" + v + "\"; Never is used");
}

// What the model reads as absent in resourceGroups, reported.
void check_resource_groups(const Reader& rd, const Node* spec) {
    const Node* groups = rd.seq_at(spec, "resourceGroups");
    if (!groups) return;
    for (const auto& g : groups->items()) {
        if (!g.is_map()) {
            rd.error(&g, "resource group must be a map; ignored");
            continue;
        }
        rd.seq_at(&g, "coveredResources");
        const Node* flavors = rd.seq_at(&g, "flavors");
        if (!flavors) continue;
        for (const auto& f : flavors->items()) {
            if (!f.is_map()) continue;
            std::string fname = rd.str_at(&f, "name");
            if (fname.empty()) {
                rd.error(&f, "flavor entry without name; ignored");
                continue;
            }
            const Node* res = rd.seq_at(&f, "resources");
            if (!res) continue;
            for (const auto& q : res->items()) {
                if (!q.is_map()) continue;
                std::string rname = rd.str_at(&q, "name");
                if (rname.empty()) {
                    rd.error(&q, "resource quota without name; ignored");
                    continue;
                }
                const Node* nominal = q.find("nominalQuota");
                if (!nominal || nominal->is_null())
                    rd.error(&q, "resource " + rname + " in flavor " + fname + " has no nominalQuota; 0 is used");
                rd.quantity(nominal, "nominalQuota of " + rname);
                rd.quantity(q.find("borrowingLimit"), "borrowingLimit of " + rname);
                rd.quantity(q.find("lendingLimit"), "lendingLimit of " + rname);
            }
        }
    }
}

void check_weight(const Reader& rd, const Node* spec) {
    if (const Node* fs = rd.map_at(spec, "fairSharing")) rd.quantity(fs->find("weight"), "fairSharing.weight");
}

// The spellings of one field, tried in order until one is set.
template <std::size_t N>
void report_first_set(const Reader& rd, const Node* spec, const char* const (&fields)[N]) {
    std::string v;
    for (const char* field : fields)
        if (v.empty()) v = rd.str_at(spec, field);
}

double weight_of(const std::optional<Quantity>& w) { return w ? quantity_to_double(*w) : 1.0; }

// The scheduler's selector: LabelSelectorAsSelector fails on a requirement
// the API would refuse, and Kueue then selects nothing.
LabelSelector selector_of(const Reader& rd, const Node* spec, const model::LabelSelector& s) {
    LabelSelector out;
    const Node* n = spec ? spec->find("namespaceSelector") : nullptr;
    if (n && !n->is_null() && !n->is_map()) rd.error(n, "label selector must be a map; it selects nothing");
    if (!s.present) {
        out.nothing = true;
        return out;
    }
    rd.map_at(n, "matchLabels");
    if (const Node* exprs = rd.seq_at(n, "matchExpressions"))
        for (const auto& e : exprs->items())
            if (e.is_map()) {
                rd.str_at(&e, "key");
                rd.str_at(&e, "operator");
                rd.seq_at(&e, "values");
            }
    out.match_labels = s.match_labels;
    for (const auto& e : s.expressions) {
        out.exprs.push_back({e.key, e.op, e.values});
        bool ok = (e.op == "In" || e.op == "NotIn") ? !e.values.empty()
                  : (e.op == "Exists" || e.op == "DoesNotExist") ? e.values.empty()
                                                                  : false;
        if (!ok) {
            // LabelSelectorAsSelector fails; Kueue cannot build the CQ.
            rd.error(n, "invalid label selector requirement on key \"" + e.key + "\" (operator \"" + e.op +
                            "\"); the selector selects nothing");
            out.nothing = true;
        }
    }
    return out;
}

// The simulator's numbering of resources, flavors and flavor/resource pairs
// (Model's interning) as the quota tree's.
class ModelIds : public model::QuotaIds {
public:
    explicit ModelIds(Model& m) : m_(m) {}
    int resource(const std::string& name) override { return m_.resource_id(name); }
    int flavor(const std::string& name) override { return m_.flavor_id(name); }
    int flavor_resource(int flavor, int resource) override { return m_.fr_id(flavor, resource); }

private:
    Model& m_;
};

// The ClusterQueue's resource groups as the flavor assigner walks them
// (covered resources, flavors in preference order).
std::vector<ResourceGroup> groups_of(const model::ClusterQueue& q, Model& m) {
    std::vector<ResourceGroup> out;
    for (const auto& g : q.resource_groups) {
        ResourceGroup rg;
        for (const auto& c : g.covered_resources) rg.covered.push_back(m.resource_id(c));
        for (const auto& f : g.flavors) {
            if (f.name.empty()) continue;
            int fid = m.flavor_id(f.name);
            rg.flavors.push_back(fid);
            for (const auto& r : f.resources)
                if (!r.name.empty()) m.fr_id(fid, m.resource_id(r.name));
        }
        out.push_back(std::move(rg));
    }
    return out;
}

// The ids a Cohort's quotas use, in reading order.
void intern_cohort(const model::Cohort& co, Model& m) {
    for (const auto& g : co.resource_groups) {
        for (const auto& c : g.covered_resources) m.resource_id(c);
        for (const auto& f : g.flavors) {
            if (f.name.empty()) continue;
            int fid = m.flavor_id(f.name);
            for (const auto& r : f.resources)
                if (!r.name.empty()) m.fr_id(fid, m.resource_id(r.name));
        }
    }
}

ClusterQueue read_cluster_queue(const Reader& rd, const model::ClusterQueue& q, Model& m,
                                const std::map<std::string, std::string>& checks) {
    const Resource& r = rd.r;
    ClusterQueue cq;
    cq.name = q.name;
    cq.mark = mark_of(nullptr, r);
    cq.file = r.file;
    check_object_name(rd, "ClusterQueue", cq.name);
    const Node* spec = rd.map_at(&r.doc, "spec");
    check_resource_groups(rd, spec);
    cq.rgs = groups_of(q, m);
    for (std::size_t i = 0; i < cq.rgs.size(); ++i)
        for (int res : cq.rgs[i].covered)
            if (!cq.rg_of_resource.has(res)) cq.rg_of_resource.set(res, static_cast<int>(i));
    cq.covers_pods = cq.rg_of_resource.has(m.resource_id("pods"));
    check_weight(rd, spec);
    read_cq_afs(rd, spec, cq);

    cq.ns_selector = selector_of(rd, spec, q.namespace_selector);
    rd.str_at(spec, "queueingStrategy");
    const std::string& strategy = q.queueing_strategy;
    cq.strict_fifo = strategy == "StrictFIFO";
    if (!strategy.empty() && strategy != "StrictFIFO" && strategy != "BestEffortFIFO")
        rd.error(spec->find("queueingStrategy"), "unknown queueingStrategy \"" + strategy + "\"; BestEffortFIFO is used");

    if (const Node* ff = rd.map_at(spec, "flavorFungibility")) {
        for (const char* key : {"whenCanBorrow", "whenCanPreempt", "preference"}) rd.str_at(ff, key);
        // v1beta1's deprecated Borrow/Preempt mean MayStopSearch.
        const model::FlavorFungibility& f = q.flavor_fungibility;
        cq.borrow_try_next = f.when_can_borrow == "TryNextFlavor";
        cq.preempt_try_next = f.when_can_preempt.empty() || f.when_can_preempt == "TryNextFlavor";
        if (f.preference == "BorrowingOverPreemption") cq.preference = Preference::BorrowingOverPreemption;
        else if (f.preference == "PreemptionOverBorrowing") cq.preference = Preference::PreemptionOverBorrowing;
    }
    if (const Node* pre = rd.map_at(spec, "preemption")) {
        const model::Preemption& p = q.preemption;
        rd.str_at(pre, "withinClusterQueue");
        check_policy(rd, pre, "withinClusterQueue", p.within_cluster_queue);
        rd.str_at(pre, "reclaimWithinCohort");
        check_policy(rd, pre, "reclaimWithinCohort", p.reclaim_within_cohort);
        cq.within = to_policy(p.within_cluster_queue);
        cq.reclaim = to_policy(p.reclaim_within_cohort);
        if (const Node* bwc = rd.map_at(pre, "borrowWithinCohort")) {
            rd.str_at(bwc, "policy");
            cq.bwc = p.borrow_within_cohort != "Never";
            if (rd.int_at(bwc, "maxPriorityThreshold") && p.max_priority_threshold)
                cq.bwc_threshold = static_cast<std::int32_t>(*p.max_priority_threshold);
        }
    }
    rd.str_at(spec, "stopPolicy");
    std::vector<std::string> reasons;
    if (!q.stop_policy.empty() && q.stop_policy != "None") reasons.push_back("Stopped");
    for (const auto& rg : cq.rgs)
        for (int f : rg.flavors)
            if (!m.flavors[f].exists && std::find(reasons.begin(), reasons.end(), "FlavorNotFound") == reasons.end()) {
                reasons.push_back("FlavorNotFound");
                rd.warning(nullptr, "references missing ResourceFlavor \"" + m.flavors[f].name +
                                        "\"; the ClusterQueue is inactive and admits nothing",
                           "sim.inactive-cluster-queue");
            }
    // The flavors each check applies to (admissioncheck.NewAdmissionChecks:
    // v1beta1 spec.admissionChecks and admissionChecksStrategy entries
    // without onFlavors cover every flavor of the resource groups).
    std::vector<std::pair<std::string, std::vector<int>>> on_flavors;
    std::vector<int> all_flavors;
    for (const auto& rg : cq.rgs)
        for (int f : rg.flavors)
            if (std::find(all_flavors.begin(), all_flavors.end(), f) == all_flavors.end()) all_flavors.push_back(f);
    if (const Node* a = rd.seq_at(spec, "admissionChecks"))
        for (const auto& x : a->items())
            if (x.is_scalar() && !x.is_null()) on_flavors.emplace_back(x.text(), all_flavors);
    if (const Node* s = rd.map_at(spec, "admissionChecksStrategy"))
        if (const Node* a = rd.seq_at(s, "admissionChecks"))
            for (const auto& x : a->items()) {
                std::vector<int> fl;
                if (const Node* on = rd.seq_at(&x, "onFlavors"))
                    for (const auto& f : on->items())
                        if (f.is_scalar() && !f.is_null()) fl.push_back(m.flavor_id(f.text()));
                on_flavors.emplace_back(rd.str_at(&x, "name"), fl.empty() ? all_flavors : fl);
            }
    bool missing_check = false;
    for (const auto& a : q.admission_checks)
        if (!checks.count(a)) missing_check = true;
    for (const auto& [name, fl] : on_flavors) {
        auto it = checks.find(name);
        if (it == checks.end()) continue;
        if (it->second == "kueue.x-k8s.io/multikueue") cq.multikueue = true;
        if (it->second != "kueue.x-k8s.io/provisioning-request") continue;
        for (int f : fl)
            if (std::find(cq.prov_req_flavors.begin(), cq.prov_req_flavors.end(), f) == cq.prov_req_flavors.end())
                cq.prov_req_flavors.push_back(f);
    }
    cq.has_checks = !q.admission_checks.empty();
    if (missing_check) reasons.push_back("AdmissionCheckNotFound");
    else if (!q.admission_checks.empty())
        rd.warning(nullptr,
                   "admission checks are not simulated: quota reservation is reported as admission (a Workload's "
                   "status.admissionChecks are read only for the second pass of delayed topology assignment)",
                   "sim.not-simulated");
    if (!reasons.empty()) {
        cq.active = false;
        cq.inactive_reason = reasons[0];
    }
    report_first_set(rd, spec, model::kClusterQueueCohortFields);
    return cq;
}

}  // namespace

void build_queues(const Inputs& in, Model& m, Diagnostics& diags) {
    const model::Cluster& c = in.cluster;
    auto source = [&in](int i) -> const Resource& { return *in.cluster_objects[static_cast<std::size_t>(i)]; };

    for (const auto& rf : c.flavors) {
        Reader rd{source(rf.source), diags};
        check_object_name(rd, "ResourceFlavor", rf.name);
        Flavor& f = m.flavors[m.flavor_id(rf.name)];
        f.exists = true;
        const Node* spec = rd.map_at(&rd.r.doc, "spec");
        rd.string_map(spec, "nodeLabels");
        rd.taints(rd.seq_at(spec, "nodeTaints"));
        rd.tolerations(rd.seq_at(spec, "tolerations"));
        f.labels = rf.node_labels;
        f.taints = rf.node_taints;
        f.tolerations = rf.tolerations;
        rd.str_at(spec, "topologyName");
        f.topology_name = rf.topology_name;
    }

    std::map<std::string, std::string> checks;  // AdmissionCheck name -> spec.controllerName
    for (const Resource* r : in.admission_checks) {
        const Node* spec = r->doc.find("spec");
        const Node* ctl = spec && spec->is_map() ? spec->find("controllerName") : nullptr;
        checks[r->ref.name] = ctl && ctl->is_scalar() && !ctl->is_null() ? ctl->text().str() : std::string();
    }

    // Cohort objects, then ClusterQueues (which may name implicit cohorts):
    // the ids their quotas use, in the order the reader meets them.
    for (const auto& co : c.cohorts) {
        if (!co.has_object) continue;
        Reader rd{source(co.source), diags};
        check_object_name(rd, "Cohort", co.name);
        const Node* spec = rd.map_at(&rd.r.doc, "spec");
        check_resource_groups(rd, spec);
        intern_cohort(co, m);
        check_weight(rd, spec);
        report_first_set(rd, spec, model::kCohortParentFields);
    }
    for (const auto& q : c.cluster_queues) {
        Reader rd{source(q.source), diags};
        m.cq_ids[q.name] = static_cast<int>(m.cqs.size());
        m.cqs.push_back(read_cluster_queue(rd, q, m, checks));
    }

    // The quota tree (model/quota_tree.cpp): parents, cycles detached,
    // SubtreeQuota, localQuota, potentialAvailable.
    ModelIds ids(m);
    model::QuotaTree tree = model::build_quota_tree(c, ids);
    m.nodes.resize(tree.nodes.size());
    for (std::size_t i = 0; i < tree.nodes.size(); ++i) {
        QNode& n = m.nodes[i];
        static_cast<model::QuotaNode&>(n) = std::move(tree.nodes[i]);
        if (n.is_cq) {
            n.cq = n.index;
            m.cqs[n.cq].node = static_cast<int>(i);
            m.cqs[n.cq].fr_order = n.fr_order;
            n.weight = weight_of(c.cluster_queues[n.index].fair_sharing_weight);
        } else {
            const model::Cohort& co = c.cohorts[n.index];
            n.explicit_cohort = co.has_object;
            n.weight = co.has_object ? weight_of(co.fair_sharing_weight) : 1.0;
            m.cohort_nodes[n.name] = static_cast<int>(i);
        }
    }
    for (const auto& n : m.nodes)
        if (!n.is_cq && n.has_cycle && !n.too_deep && n.explicit_cohort) {
            Reader rd{source(c.cohorts[n.index].source), diags};
            rd.warning(nullptr, "Cohort \"" + n.name +
                                    "\" is in a parent cycle; the ClusterQueues under it never admit (HasCycle)",
                       "sim.cohort-cycle");
        }
    if (tree.too_deep && !in.cohorts.empty()) {
        Reader rd{*in.cohorts.front(), diags};
        rd.warning(nullptr, "cohort hierarchy deeper than " + std::to_string(model::kMaxCohortDepth) +
                                " levels; ClusterQueues below that depth are not simulated",
                   "sim.cohort-depth");
    }
    for (auto& cq : m.cqs)
        if (m.nodes[cq.node].has_cycle) {
            cq.in_cycle = true;
            if (cq.inactive_reason.empty()) cq.inactive_reason = "HasCycle";
        }

    // The snapshot's children (active queues, acyclic cohorts; by name, as
    // the tree keeps them) and heights (getNodeHeight), children first.
    for (auto& n : m.nodes)
        for (int ch : n.children) {
            const QNode& k = m.nodes[ch];
            if (!k.is_cq) n.child_cohorts.push_back(ch);
            else if (m.cqs[k.cq].active && !m.cqs[k.cq].in_cycle) n.child_cqs.push_back(ch);
        }
    for (int id : tree.bottom_up) {
        QNode& n = m.nodes[id];
        if (n.is_cq) continue;
        int h = std::min<int>(static_cast<int>(n.child_cqs.size() + n.child_cohorts.size()), 1);
        for (int ch : n.child_cohorts) h = std::max(h, m.nodes[ch].height + 1);
        n.height = h;
    }

    for (const auto& l : c.local_queues) {
        Reader rd{source(l.source), diags};
        LocalQueue lq;
        lq.ns = l.namespace_;
        lq.name = l.name;
        check_object_name(rd, "LocalQueue", lq.name);
        const Node* spec = rd.map_at(&rd.r.doc, "spec");
        rd.str_at(spec, "clusterQueue");
        rd.str_at(spec, "stopPolicy");
        lq.cq_name = l.cluster_queue;
        lq.stopped = !l.stop_policy.empty() && l.stop_policy != "None";
        read_lq_afs(rd, &rd.r.doc, lq);
        auto it = m.cq_ids.find(lq.cq_name);
        if (it != m.cq_ids.end()) lq.cq = it->second;
        else
            rd.warning(spec ? spec->find("clusterQueue") : nullptr,
                       "LocalQueue points to ClusterQueue \"" + lq.cq_name + "\", which does not exist; its workloads are never admitted" +
                           suggestion(lq.cq_name, cluster_queue_names(m)),
                       "sim.unknown-queue");
        m.lq_ids[lq.ns + "/" + lq.name] = static_cast<int>(m.lqs.size());
        m.lqs.push_back(std::move(lq));
    }
}

}  // namespace queueforge::scheduler::detail
