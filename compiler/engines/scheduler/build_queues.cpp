// ResourceFlavors, Cohorts, ClusterQueues and LocalQueues, and the quota tree
// (pkg/cache/scheduler clusterqueue.go/cohort.go/resource_node.go and
// pkg/cache/hierarchy). ClusterQueue status follows clusterqueue.go
// updateQueueStatus: stopPolicy != None, missing flavors and missing
// admission checks make it inactive; a cohort cycle keeps it out of the
// scheduler's snapshot (snapshot.go skipInactiveCQReason, reason HasCycle).
#include "engines/scheduler/cluster_state.hpp"

#include <queueforge/model/cluster.hpp>

#include <algorithm>
#include <set>

namespace queueforge::scheduler::detail {

namespace {

Policy parse_policy(const Reader& rd, const Node* n, const char* key) {
    std::string v = rd.str_at(n, key);
    if (v.empty() || v == "Never") return Policy::Never;
    if (v == "LowerPriority") return Policy::LowerPriority;
    if (v == "LowerOrNewerEqualPriority") return Policy::LowerOrNewerEqualPriority;
    if (v == "Any") return Policy::Any;
    rd.error(n ? n->find(key) : nullptr, std::string("unknown preemption policy ") + key + ": \"" + v + "\"; Never is used");
    return Policy::Never;
}

// resourceGroups of a ClusterQueue or Cohort (createResourceQuotas: quotas
// keyed by each flavor's listed resources).
void read_resource_groups(const Reader& rd, const Node* spec, Model& m, std::vector<ResourceGroup>* rgs,
                          FlatMap<Quota>& quotas, std::vector<int>* fr_order) {
    const Node* groups = rd.seq_at(spec, "resourceGroups");
    if (!groups) return;
    for (const auto& g : groups->items()) {
        if (!g.is_map()) {
            rd.error(&g, "resource group must be a map; ignored");
            continue;
        }
        ResourceGroup rg;
        if (const Node* cov = rd.seq_at(&g, "coveredResources"))
            for (const auto& c : cov->items()) rg.covered.push_back(m.resource_id(scalar_text(&c)));
        const Node* flavors = rd.seq_at(&g, "flavors");
        if (flavors) {
            for (const auto& f : flavors->items()) {
                if (!f.is_map()) continue;
                std::string fname = rd.str_at(&f, "name");
                if (fname.empty()) {
                    rd.error(&f, "flavor entry without name; ignored");
                    continue;
                }
                int fid = m.flavor_id(fname);
                rg.flavors.push_back(fid);
                const Node* res = rd.seq_at(&f, "resources");
                if (!res) continue;
                for (const auto& q : res->items()) {
                    if (!q.is_map()) continue;
                    std::string rname = rd.str_at(&q, "name");
                    if (rname.empty()) {
                        rd.error(&q, "resource quota without name; ignored");
                        continue;
                    }
                    Quota quota;
                    const Node* nominal = q.find("nominalQuota");
                    if (!nominal || nominal->is_null()) rd.error(&q, "resource " + rname + " in flavor " + fname + " has no nominalQuota; 0 is used");
                    if (auto v = rd.quantity(nominal, "nominalQuota of " + rname)) quota.nominal = quota_amount(rname, *v);
                    if (auto v = rd.quantity(q.find("borrowingLimit"), "borrowingLimit of " + rname))
                        quota.borrowing_limit = quota_amount(rname, *v);
                    if (auto v = rd.quantity(q.find("lendingLimit"), "lendingLimit of " + rname))
                        quota.lending_limit = quota_amount(rname, *v);
                    int fr = m.fr_id(fid, m.resource_id(rname));
                    if (fr_order && std::find(fr_order->begin(), fr_order->end(), fr) == fr_order->end())
                        fr_order->push_back(fr);
                    quotas.set(fr, quota);
                }
            }
        }
        if (rgs) rgs->push_back(std::move(rg));
    }
}

double read_weight(const Reader& rd, const Node* spec) {
    const Node* fs = rd.map_at(spec, "fairSharing");
    if (!fs) return 1.0;
    auto q = rd.quantity(fs->find("weight"), "fairSharing.weight");
    return q ? quantity_to_double(*q) : 1.0;
}

int new_node(Model& m, const std::string& name, bool is_cq) {
    QNode n;
    n.name = name;
    n.is_cq = is_cq;
    m.nodes.push_back(std::move(n));
    return static_cast<int>(m.nodes.size()) - 1;
}

int cohort_node(Model& m, const std::string& name) {
    auto it = m.cohort_nodes.find(name);
    if (it != m.cohort_nodes.end()) return it->second;
    int id = new_node(m, name, false);
    m.cohort_nodes[name] = id;
    return id;
}

void read_cluster_queue(const Reader& rd, const Resource& r, Model& m, const std::set<std::string>& checks,
                        std::vector<std::pair<int, std::string>>& cq_cohort) {
    ClusterQueue cq;
    cq.name = r.ref.name;
    cq.mark = mark_of(nullptr, r);
    cq.file = r.file;
    check_object_name(rd, "ClusterQueue", cq.name);
    const Node* spec = rd.map_at(&r.doc, "spec");
    cq.node = new_node(m, cq.name, true);
    m.nodes[cq.node].cq = static_cast<int>(m.cqs.size());
    read_resource_groups(rd, spec, m, &cq.rgs, m.nodes[cq.node].quotas, &cq.fr_order);
    for (std::size_t i = 0; i < cq.rgs.size(); ++i)
        for (int res : cq.rgs[i].covered)
            if (!cq.rg_of_resource.has(res)) cq.rg_of_resource.set(res, static_cast<int>(i));
    cq.covers_pods = cq.rg_of_resource.has(m.resource_id("pods"));
    m.nodes[cq.node].weight = read_weight(rd, spec);

    cq.ns_selector = rd.selector(spec ? spec->find("namespaceSelector") : nullptr);
    std::string strategy = rd.str_at(spec, "queueingStrategy");
    cq.strict_fifo = strategy == "StrictFIFO";
    if (!strategy.empty() && strategy != "StrictFIFO" && strategy != "BestEffortFIFO")
        rd.error(spec->find("queueingStrategy"), "unknown queueingStrategy \"" + strategy + "\"; BestEffortFIFO is used");

    if (const Node* ff = rd.map_at(spec, "flavorFungibility")) {
        // v1beta1's deprecated Borrow/Preempt mean MayStopSearch.
        cq.borrow_try_next = rd.str_at(ff, "whenCanBorrow") == "TryNextFlavor";
        std::string wcp = rd.str_at(ff, "whenCanPreempt");
        cq.preempt_try_next = wcp.empty() || wcp == "TryNextFlavor";
        std::string pref = rd.str_at(ff, "preference");
        if (pref == "BorrowingOverPreemption") cq.preference = Preference::BorrowingOverPreemption;
        else if (pref == "PreemptionOverBorrowing") cq.preference = Preference::PreemptionOverBorrowing;
    }
    if (const Node* pre = rd.map_at(spec, "preemption")) {
        cq.within = parse_policy(rd, pre, "withinClusterQueue");
        cq.reclaim = parse_policy(rd, pre, "reclaimWithinCohort");
        if (const Node* bwc = rd.map_at(pre, "borrowWithinCohort")) {
            std::string p = rd.str_at(bwc, "policy");
            cq.bwc = !p.empty() && p != "Never";
            if (auto t = rd.int_at(bwc, "maxPriorityThreshold")) cq.bwc_threshold = static_cast<std::int32_t>(*t);
        }
    }
    std::string stop = rd.str_at(spec, "stopPolicy");
    std::vector<std::string> reasons;
    if (!stop.empty() && stop != "None") reasons.push_back("Stopped");
    for (const auto& rg : cq.rgs)
        for (int f : rg.flavors)
            if (!m.flavors[f].exists && std::find(reasons.begin(), reasons.end(), "FlavorNotFound") == reasons.end()) {
                reasons.push_back("FlavorNotFound");
                rd.warning(nullptr, "references missing ResourceFlavor \"" + m.flavors[f].name +
                                        "\"; the ClusterQueue is inactive and admits nothing",
                           "sim.inactive-cluster-queue");
            }
    std::vector<std::string> acs;
    if (const Node* a = rd.seq_at(spec, "admissionChecks"))
        for (const auto& x : a->items()) acs.push_back(scalar_text(&x));
    if (const Node* s = rd.map_at(spec, "admissionChecksStrategy"))
        if (const Node* a = rd.seq_at(s, "admissionChecks"))
            for (const auto& x : a->items()) acs.push_back(rd.str_at(&x, "name"));
    bool missing_check = false;
    for (const auto& a : acs)
        if (!checks.count(a)) missing_check = true;
    if (missing_check) reasons.push_back("AdmissionCheckNotFound");
    else if (!acs.empty())
        rd.warning(nullptr, "admission checks are not simulated: quota reservation is reported as admission",
                   "sim.not-simulated");
    if (!reasons.empty()) {
        cq.active = false;
        cq.inactive_reason = reasons[0];
    }
    std::string cohort;
    for (const char* field : model::kClusterQueueCohortFields)
        if (cohort.empty()) cohort = rd.str_at(spec, field);
    cq_cohort.emplace_back(static_cast<int>(m.cqs.size()), cohort);
    m.cq_ids[cq.name] = static_cast<int>(m.cqs.size());
    m.cqs.push_back(std::move(cq));
}

// Local quota of a child before any usage: what it keeps from its parent.
Amount local_quota_static(const QNode& n, int fr) {
    const Quota* q = n.quotas.find(fr);
    if (q && q->lending_limit) return std::max<Amount>(0, amt_sub(n.subtree.get(fr), *q->lending_limit));
    return 0;
}

}  // namespace

void build_queues(const Inputs& in, Model& m, Diagnostics& diags) {
    for (const Resource* r : in.flavors) {
        Reader rd{*r, diags};
        check_object_name(rd, "ResourceFlavor", r->ref.name);
        Flavor& f = m.flavors[m.flavor_id(r->ref.name)];
        f.exists = true;
        const Node* spec = rd.map_at(&r->doc, "spec");
        f.labels = rd.string_map(spec, "nodeLabels");
        f.taints = rd.taints(rd.seq_at(spec, "nodeTaints"));
        f.tolerations = rd.tolerations(rd.seq_at(spec, "tolerations"));
        if (!rd.str_at(spec, "topologyName").empty())
            rd.warning(spec->find("topologyName"),
                       "topology-aware scheduling is not simulated: quota is checked, topology placement is not",
                       "sim.not-simulated");
    }

    std::set<std::string> checks;
    for (const Resource* r : in.admission_checks) checks.insert(r->ref.name);

    // Cohort objects, then ClusterQueues (which may name implicit cohorts).
    std::vector<std::pair<int, std::string>> cohort_parent;  // node, parent name
    std::map<int, const Resource*> cohort_objects;
    for (const Resource* r : in.cohorts) {
        Reader rd{*r, diags};
        check_object_name(rd, "Cohort", r->ref.name);
        int node = cohort_node(m, r->ref.name);
        QNode& n = m.nodes[node];
        n.explicit_cohort = true;
        const Node* spec = rd.map_at(&r->doc, "spec");
        read_resource_groups(rd, spec, m, nullptr, m.nodes[node].quotas, nullptr);
        m.nodes[node].weight = read_weight(rd, spec);
        std::string parent;
        for (const char* field : model::kCohortParentFields)
            if (parent.empty()) parent = rd.str_at(spec, field);
        cohort_parent.emplace_back(node, parent);
        cohort_objects[node] = r;
    }
    std::vector<std::pair<int, std::string>> cq_cohort;
    for (const Resource* r : in.cluster_queues) {
        Reader rd{*r, diags};
        read_cluster_queue(rd, *r, m, checks, cq_cohort);
    }
    for (auto& [node, parent] : cohort_parent)
        if (!parent.empty()) {
            int p = cohort_node(m, parent);
            m.nodes[node].parent = p;
        }
    for (auto& [cq, cohort] : cq_cohort)
        if (!cohort.empty()) m.nodes[m.cqs[cq].node].parent = cohort_node(m, cohort);

    // hierarchy.HasCycle for every cohort: its parent chain runs into a
    // cycle (model::find_cohort_cycles, linear in the number of nodes).
    {
        std::vector<int> parent(m.nodes.size());
        for (std::size_t i = 0; i < m.nodes.size(); ++i) parent[i] = m.nodes[i].is_cq ? -1 : m.nodes[i].parent;
        const model::CohortCycles cycles = model::find_cohort_cycles(parent);
        for (std::size_t i = 0; i < m.nodes.size(); ++i)
            if (!m.nodes[i].is_cq) m.nodes[i].has_cycle = cycles.has_cycle(static_cast<int>(i));
    }
    for (std::size_t i = 0; i < m.nodes.size(); ++i) {
        QNode& n = m.nodes[i];
        if (!n.is_cq && n.has_cycle && cohort_objects.count(static_cast<int>(i))) {
            Reader rd{*cohort_objects[static_cast<int>(i)], diags};
            rd.warning(nullptr, "Cohort \"" + n.name +
                                    "\" is in a parent cycle; the ClusterQueues under it never admit (HasCycle)",
                       "sim.cohort-cycle");
        }
    }
    for (auto& n : m.nodes)
        if (!n.is_cq && n.has_cycle) n.parent = -1;
    // Depth of each node (memoised walk; parent links are acyclic now).
    std::vector<int> depth(m.nodes.size(), -1);
    for (std::size_t i = 0; i < m.nodes.size(); ++i) {
        std::vector<int> path;
        int cur = static_cast<int>(i);
        while (cur >= 0 && depth[cur] < 0) {
            path.push_back(cur);
            cur = m.nodes[cur].parent;
        }
        int d = cur >= 0 ? depth[cur] : -1;
        for (auto it = path.rbegin(); it != path.rend(); ++it) depth[*it] = ++d;
    }
    // Kueue has no depth limit, but a hierarchy thousands of cohorts deep is
    // not a configuration anyone runs; detach it like a cycle rather than
    // walk it recursively.
    constexpr int kMaxCohortDepth = 1000;
    bool too_deep = false;
    for (std::size_t i = 0; i < m.nodes.size(); ++i)
        if (!m.nodes[i].is_cq && depth[i] > kMaxCohortDepth) {
            m.nodes[i].has_cycle = true;
            m.nodes[i].parent = -1;
            too_deep = true;
        }
    if (too_deep && !in.cohorts.empty()) {
        Reader rd{*in.cohorts.front(), diags};
        rd.warning(nullptr, "cohort hierarchy deeper than " + std::to_string(kMaxCohortDepth) +
                                " levels; ClusterQueues below that depth are not simulated",
                   "sim.cohort-depth");
    }
    for (auto& cq : m.cqs) {
        QNode& n = m.nodes[cq.node];
        if (n.parent >= 0 && m.nodes[n.parent].has_cycle) {
            cq.in_cycle = true;
            n.parent = -1;
            if (cq.inactive_reason.empty()) cq.inactive_reason = "HasCycle";
        }
    }

    // Children (name order) and the bottom-up quota accumulation.
    for (std::size_t i = 0; i < m.nodes.size(); ++i) {
        QNode& n = m.nodes[i];
        if (n.parent < 0 || n.has_cycle) continue;
        QNode& p = m.nodes[n.parent];
        p.cache_children.push_back(static_cast<int>(i));
        if (!n.is_cq) p.child_cohorts.push_back(static_cast<int>(i));
        else if (m.cqs[n.cq].active && !m.cqs[n.cq].in_cycle) p.child_cqs.push_back(static_cast<int>(i));
    }
    auto by_name = [&](int a, int b) { return m.nodes[a].name < m.nodes[b].name; };
    for (auto& n : m.nodes) {
        std::sort(n.child_cqs.begin(), n.child_cqs.end(), by_name);
        std::sort(n.child_cohorts.begin(), n.child_cohorts.end(), by_name);
        std::sort(n.cache_children.begin(), n.cache_children.end(), by_name);
    }
    std::vector<int> order(m.nodes.size());
    for (std::size_t i = 0; i < order.size(); ++i) order[i] = static_cast<int>(i);
    std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return depth[a] > depth[b]; });
    for (int id : order) {
        QNode& n = m.nodes[id];
        n.subtree.clear();
        for (const auto& [fr, q] : n.quotas) n.subtree.set(fr, q.nominal);
        if (n.is_cq) continue;
        int h = std::min<int>(static_cast<int>(n.child_cqs.size() + n.child_cohorts.size()), 1);
        for (int c : n.child_cohorts) h = std::max(h, m.nodes[c].height + 1);
        n.height = h;
        for (int c : n.cache_children) {
            const QNode& child = m.nodes[c];
            for (const auto& [fr, q] : child.subtree) {
                Amount& s = n.subtree.at(fr);
                s = amt_add(s, amt_sub(q, local_quota_static(child, fr)));
            }
        }
    }

    for (const Resource* r : in.local_queues) {
        Reader rd{*r, diags};
        LocalQueue lq;
        lq.ns = r->ref.namespace_.empty() ? "default" : r->ref.namespace_;
        lq.name = r->ref.name;
        check_object_name(rd, "LocalQueue", lq.name);
        const Node* spec = rd.map_at(&r->doc, "spec");
        lq.cq_name = rd.str_at(spec, "clusterQueue");
        std::string stop = rd.str_at(spec, "stopPolicy");
        lq.stopped = !stop.empty() && stop != "None";
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
