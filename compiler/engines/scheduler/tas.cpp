// Topology-aware scheduling in the cycle (tas.hpp). Kueue ff69552e.
#include "engines/scheduler/tas.hpp"

#include "engines/scheduler/parse_util.hpp"

#include <algorithm>

namespace queueforge::scheduler::detail {

namespace {

bool has_level(const topology::Topology& t, const std::string& level) {
    const auto& l = t.levels();
    return std::find(l.begin(), l.end(), level) != l.end();
}

// TASPodSetRequests for podset `i` with `count` pods.
topology::PodSetRequest request_of(const PodSetSpec& ps, std::int32_t count, bool implied) {
    topology::PodSetRequest r;
    r.name = ps.name;
    r.count = count;
    r.requests = ps.per_pod;
    if (implied) {
        r.mode = topology::Mode::Implied;
    } else if (ps.topology) {
        r.mode = ps.topology->mode;
        r.level = ps.topology->level;
        r.slices = ps.topology->slices;
    }
    if (ps.topology) r.group = ps.topology->group;
    r.tolerations.insert(r.tolerations.end(), ps.tolerations.begin(), ps.tolerations.end());
    r.node_selector = ps.node_selector;
    if (ps.has_required_affinity) {
        topology::NodeSelectorTerms terms;
        for (const auto& term : ps.affinity_terms) {
            std::vector<topology::LabelRequirement> reqs;
            for (const auto& e : term.exprs) reqs.push_back({e.key, e.op, e.values});
            terms.push_back(std::move(reqs));
        }
        r.required_affinity = std::move(terms);
    }
    return r;
}

struct Request {
    std::size_t podset = 0;
    topology::PodSetRequest request;
};

// WorkloadTASRequests: per TAS flavor (Model::tas index), in flavor-name
// order as FindTopologyAssignmentsForWorkload walks them.
using TasRequests = std::vector<std::pair<int, std::vector<Request>>>;

// WorkloadsTopologyRequests. Podsets whose request cannot be built get
// Kueue's error, which makes the assignment NoFit.
TasRequests workload_requests(const Model& m, const Workload& w, const ClusterQueue& cq, Assignment& a) {
    std::map<std::string, std::pair<int, std::vector<Request>>> by_name;
    for (std::size_t i = 0; i < w.podsets.size() && i < a.podsets.size(); ++i) {
        const PodSetSpec& ps = w.podsets[i];
        if (!tas_requested(cq, ps)) continue;
        PodSetAssignment& psa = a.podsets[i];
        if (!psa.status.err.empty() || psa.count == 0) continue;
        // Already placed, unless the placement has a failed node (second pass).
        if (psa.topology && !on_unhealthy_node(w, *psa.topology)) continue;
        const bool implied = !(ps.topology && ps.topology->explicit_request) && cq.tas_only;
        if (m.tas.empty()) {
            psa.status.err = "workload requires Topology, but there is no TAS cache information";
            a.rep_override.reset();
            continue;
        }
        std::vector<int> flavors;
        for (const auto& [res, fa] : psa.flavors)
            if (m.flavors[fa.flavor].tas >= 0 &&
                std::find(flavors.begin(), flavors.end(), fa.flavor) == flavors.end())
                flavors.push_back(fa.flavor);
        if (flavors.size() != 1) {
            if (flavors.empty()) {
                psa.status.err = "no TAS flavor assigned";
            } else {
                std::vector<std::string> names;
                for (int f : flavors) names.push_back(m.flavor_name(f));
                std::sort(names.begin(), names.end());
                std::string joined;
                for (const auto& n : names) joined += (joined.empty() ? "" : ", ") + n;
                psa.status.err = "more than one TAS flavor assigned: " + joined;
            }
            a.rep_override.reset();
            continue;
        }
        // Delayed TAS: always behind MultiKueue; behind a ProvisioningRequest
        // check on the first pass only (the topology is assigned once the
        // check is Ready, in the second pass).
        if (cq.multikueue || (!w.holds && std::find(cq.prov_req_flavors.begin(), cq.prov_req_flavors.end(),
                                                    flavors[0]) != cq.prov_req_flavors.end())) {
            psa.delayed = "Pending";
            continue;
        }
        const int tas = m.flavors[flavors[0]].tas;
        psa.tas = tas;
        auto& slot = by_name[m.flavor_name(flavors[0])];
        slot.first = tas;
        slot.second.push_back({i, request_of(ps, psa.count, implied)});
        if (psa.topology) slot.second.back().request.current_assignment = *psa.topology;
    }
    TasRequests out;
    for (auto& [name, v] : by_name) out.push_back(std::move(v));
    return out;
}

struct Failure {
    std::size_t podset = 0;
    int flavor = -1;
    std::string reason;
};

struct Found {
    std::vector<std::pair<std::size_t, topology::Assignment>> placed;
    std::optional<Failure> failure;
};

bool hostname_level(const topology::Topology& t) { return !t.levels().empty() && t.levels().back() == kHostnameLabel; }

// FindTopologyAssignmentsForWorkload: the flavors in name order; with
// TASHandleOverlappingFlavors the pods placed on one hostname-level flavor
// count on the same nodes of the next ones (aggregatedDomainUsages).
// With status.unhealthyNodes (WithWorkload, HasUnhealthyNodes) the podsets
// are not placed but repaired: the pods of the first unhealthy node move
// (findReplacementAssignment, engines/topology replace_node); podsets
// without an admitted placement get no result.
Found find_assignments(Model& m, const TasRequests& reqs, bool simulate_empty, const Workload& w) {
    Found out;
    topology::Options opts;
    opts.simulate_empty = simulate_empty;
    std::vector<std::pair<std::size_t, TasPlacement>> lent;  // (topology, placement) added for the later flavors
    for (const auto& [tas, list] : reqs) {
        const auto ti = static_cast<std::size_t>(tas);
        std::vector<topology::PodSetRequest> podsets;
        for (const auto& r : list) podsets.push_back(r.request);
        topology::Outcome o;
        if (w.unhealthy_nodes.empty()) {
            o = m.tas[ti].topology.assign(podsets, opts);
        } else {
            topology::NodeReplacement nr;
            nr.unhealthy_node = w.unhealthy_nodes.front();
            nr.owned_by_single_pod = w.owned_by_single_pod;
            o = m.tas[ti].topology.replace_node(podsets, nr, opts);
        }
        for (const auto& r : list) {
            for (const auto& p : o.podsets) {
                if (p.name != r.request.name) continue;
                if (p.assignment) out.placed.emplace_back(r.podset, *p.assignment);
                else if (!out.failure) out.failure = Failure{r.podset, m.tas[ti].flavor, p.reason};
            }
        }
        if (!out.failure && !o.error.empty()) out.failure = Failure{list.front().podset, m.tas[ti].flavor, o.error};
        if (!hostname_level(m.tas[ti].topology)) continue;
        for (const auto& [tas2, list2] : reqs) {
            const auto t2 = static_cast<std::size_t>(tas2);
            if (t2 == ti || !hostname_level(m.tas[t2].topology)) continue;
            for (const auto& r : list)
                for (const auto& p : o.podsets)
                    if (p.name == r.request.name && p.assignment) {
                        TasPlacement pl{p.name, tas2, *p.assignment, r.request.requests};
                        for (const auto& d : pl.assignment.domains) m.tas[t2].topology.add_usage(d.values, pl.per_pod, d.count);
                        lent.emplace_back(t2, std::move(pl));
                    }
        }
    }
    for (const auto& [t, pl] : lent)
        for (const auto& d : pl.assignment.domains) m.tas[t].topology.remove_usage(d.values, pl.per_pod, d.count);
    return out;
}

void update_for_result(Assignment& a, const Found& f) {
    for (const auto& [i, asg] : f.placed)
        if (i < a.podsets.size()) {
            a.podsets[i].topology = asg;
            if (!a.podsets[i].delayed.empty()) a.podsets[i].delayed = "Ready";
        }
}

}  // namespace

bool on_unhealthy_node(const Workload& w, const topology::Assignment& a) {
    for (const auto& d : a.domains)
        if (!d.values.empty() &&
            std::find(w.unhealthy_nodes.begin(), w.unhealthy_nodes.end(), d.values.back()) != w.unhealthy_nodes.end())
            return true;
    return false;
}

bool assignment_on_unhealthy_node(const Workload& w) {
    if (w.unhealthy_nodes.empty() || !w.holds || !w.admitted_cond) return false;
    for (const auto& p : w.placements)
        if (on_unhealthy_node(w, p.assignment)) return true;
    return false;
}

bool tas_requested(const ClusterQueue& cq, const PodSetSpec& ps) {
    return (ps.topology && ps.topology->explicit_request) || cq.tas_only;
}

std::string tas_flavor_mismatch(const Model& m, const ClusterQueue& cq, const PodSetSpec& ps, int f,
                                const ResourceGroup& rg) {
    const Flavor& flavor = m.flavors[f];
    if (tas_requested(cq, ps)) {
        if (!(ps.topology && ps.topology->explicit_request)) return {};  // implied: every flavor is TAS
        if (flavor.topology_name.empty()) {
            // Quota-only resources of a flavor without topology are fine.
            for (int r : rg.covered)
                if (ps.per_pod.count(m.res_name(r))) return "Flavor \"" + flavor.name + "\" does not support TopologyAwareScheduling";
            return {};
        }
        if (flavor.tas < 0) return "Flavor \"" + flavor.name + "\" information missing in TAS cache";
        const topology::Topology& t = m.tas[static_cast<std::size_t>(flavor.tas)].topology;
        const TopologyRequest& tr = *ps.topology;
        // HasLevel: the main level (required, preferred; the highest for a
        // slice-only request, the lowest for unconstrained) and the slice
        // levels (the lowest when none is given).
        std::string main;
        if (tr.mode == topology::Mode::Required || tr.mode == topology::Mode::Preferred) main = tr.level;
        else if (!tr.slices.empty() && tr.mode == topology::Mode::Unconstrained && tr.level.empty())
            main = t.levels().empty() ? "" : t.levels().front();
        else main = t.levels().empty() ? "" : t.levels().back();
        bool ok = !main.empty() && has_level(t, main);
        for (const auto& s : tr.slices)
            if (!s.level.empty() && !has_level(t, s.level)) ok = false;
        if (!ok) return "Flavor \"" + flavor.name + "\" does not contain the requested level";
        return {};
    }
    if (!flavor.topology_name.empty()) return "Flavor \"" + flavor.name + "\" supports only TopologyAwareScheduling";
    return {};
}

void place_after_assignment(Model& m, int wl, const ClusterQueue& cq, Assignment& a) {
    if (a.rep_mode() == Mode::NoFit) return;
    const Workload& w = m.wls[wl];
    if (m.tas.empty() && !cq.has_tas) {
        // Placement is not simulated without nodes, but a delayed topology
        // request does not need them: the admission still says Pending.
        bool tas_only = !cq.rgs.empty();
        for (const auto& rg : cq.rgs)
            for (int f : rg.flavors) tas_only = tas_only && m.flavors[f].unsimulated_topology;
        for (std::size_t i = 0; i < w.podsets.size() && i < a.podsets.size(); ++i) {
            PodSetAssignment& psa = a.podsets[i];
            const auto& tr = w.podsets[i].topology;
            if (!((tr && tr->explicit_request) || tas_only) || !psa.status.err.empty() || psa.count == 0 ||
                psa.topology)
                continue;
            std::vector<int> flavors;
            for (const auto& [res, fa] : psa.flavors)
                if (m.flavors[fa.flavor].unsimulated_topology &&
                    std::find(flavors.begin(), flavors.end(), fa.flavor) == flavors.end())
                    flavors.push_back(fa.flavor);
            if (flavors.size() == 1 &&
                (cq.multikueue || (!w.holds && std::find(cq.prov_req_flavors.begin(), cq.prov_req_flavors.end(),
                                                         flavors[0]) != cq.prov_req_flavors.end())))
                psa.delayed = "Pending";
        }
        return;
    }
    if (!cq.has_tas || m.tas.empty()) return;
    TasRequests reqs = workload_requests(m, w, cq, a);
    if (a.rep_mode() == Mode::Fit) {
        Found f = find_assignments(m, reqs, false, w);
        if (f.failure) {
            a.podsets[f.failure->podset].status.reasons.push_back(f.failure->reason);
            a.update_mode(f.failure->podset, Mode::Preempt);
        } else {
            update_for_result(a, f);
        }
    }
    // Not when looking for a failed node's replacement: that never preempts.
    if (a.rep_mode() == Mode::Preempt && w.unhealthy_nodes.empty()) {
        Found f = find_assignments(m, reqs, true, w);
        if (f.failure) {
            PodSetAssignment& psa = a.podsets[f.failure->podset];
            for (auto& at : psa.attempts)
                if (at.flavor == f.failure->flavor) {
                    at.mode = Mode::NoFit;
                    at.no_fit_reason = "TopologyPlacementFailed";
                    break;
                }
            a.update_mode(f.failure->podset, Mode::NoFit);
        } else {
            for (const auto& [tas, list] : reqs)
                for (const auto& r : list) a.update_mode(r.podset, Mode::Preempt);
        }
    }
}

void place_for_preemption(SchedCtx& ctx, int wl, const ClusterQueue& cq, Assignment& a,
                          const std::vector<Target>& targets) {
    Model& m = ctx.m;
    const Workload& w = m.wls[wl];
    if (!cq.has_tas || m.tas.empty() || a.rep_mode() != Mode::Preempt) return;
    bool explicit_tas = false;
    for (const auto& ps : w.podsets) explicit_tas = explicit_tas || (ps.topology && ps.topology->explicit_request);
    if (!explicit_tas && !cq.tas_only) return;
    if (assignment_on_unhealthy_node(w)) return;
    TasRequests reqs = workload_requests(m, w, cq, a);
    Found f;
    if (!targets.empty()) {
        for (const auto& t : targets) ctx.remove_usage(t.wl);
        f = find_assignments(m, reqs, false, w);
        for (const auto& t : targets) ctx.add_usage(t.wl);
    } else {
        f = find_assignments(m, reqs, true, w);
    }
    update_for_result(a, f);
}

bool tas_fits_with(Model& m, const Workload& w, const ClusterQueue& cq, const Assignment& a) {
    Assignment copy = a;
    TasRequests reqs = workload_requests(m, w, cq, copy);
    return !find_assignments(m, reqs, false, w).failure;
}

std::vector<TasPlacement> tas_usage(const Model& m, const Workload& w, const Assignment& a) {
    std::vector<TasPlacement> out;
    for (std::size_t i = 0; i < a.podsets.size() && i < w.podsets.size(); ++i) {
        const PodSetAssignment& psa = a.podsets[i];
        if (!psa.topology || psa.tas < 0) continue;
        out.push_back({psa.name, psa.tas, *psa.topology, w.podsets[i].per_pod});
    }
    (void)m;
    return out;
}

bool placements_fit(const Model& m, const std::vector<TasPlacement>& p) {
    for (const auto& pl : p)
        for (const auto& d : pl.assignment.domains)
            if (!m.tas[static_cast<std::size_t>(pl.tas)].topology.fits(d.values, pl.per_pod, d.count)) return false;
    return true;
}

namespace {

void change(topology::Topology& t, const TasPlacement& pl, int sign) {
    for (const auto& d : pl.assignment.domains) {
        if (sign > 0) t.add_usage(d.values, pl.per_pod, d.count);
        else t.remove_usage(d.values, pl.per_pod, d.count);
    }
}

// The other hostname-level flavors' topologies, for a placement on `own`.
void change_siblings(Model& m, const TasPlacement& pl, int sign) {
    const auto own = static_cast<std::size_t>(pl.tas);
    if (!hostname_level(m.tas[own].topology)) return;
    for (std::size_t t = 0; t < m.tas.size(); ++t)
        if (t != own && hostname_level(m.tas[t].topology)) change(m.tas[t].topology, pl, sign);
}

}  // namespace

void apply_placements(Model& m, const std::vector<TasPlacement>& p, int sign, Scope scope) {
    for (const auto& pl : p) {
        change(m.tas[static_cast<std::size_t>(pl.tas)].topology, pl, sign);
        if (scope == Scope::Cache) change_siblings(m, pl, sign);
    }
}

void share_with_siblings(Model& m, const std::vector<TasPlacement>& p) {
    for (const auto& pl : p) change_siblings(m, pl, 1);
}

std::optional<topology::Assignment> topology_assignment_of(const Node* n) {
    if (!n || !n->is_map()) return std::nullopt;
    topology::Assignment a;
    auto text = [](const Node* x) { return x && x->is_scalar() && !x->is_null() ? x->text().str() : std::string(); };
    auto int_of = [&](const Node* x) -> std::int32_t {
        const std::string t = text(x);
        if (t.empty() || t.size() > 9 || !std::all_of(t.begin(), t.end(), [](char c) { return c >= '0' && c <= '9'; }))
            return 0;
        return static_cast<std::int32_t>(std::stol(t));
    };
    if (const Node* levels = n->find("levels"); levels && levels->is_seq())
        for (const auto& l : levels->items()) a.levels.push_back(text(&l));
    if (const Node* domains = n->find("domains"); domains && domains->is_seq()) {
        for (const auto& d : domains->items()) {
            if (!d.is_map()) continue;
            topology::DomainAssignment da;
            if (const Node* v = d.find("values"); v && v->is_seq())
                for (const auto& x : v->items()) da.values.push_back(text(&x));
            da.count = int_of(d.find("count"));
            a.domains.push_back(std::move(da));
        }
        return a;
    }
    const Node* slices = n->find("slices");
    if (!slices || !slices->is_seq()) return a;
    // At most one domain per node a topology may have, over all slices.
    std::size_t budget = topology::kMaxNodes;
    for (const auto& s : slices->items()) {
        if (!s.is_map()) continue;
        const std::int32_t count = static_cast<std::int32_t>(
            std::min<std::size_t>(static_cast<std::size_t>(int_of(s.find("domainCount"))), budget));
        budget -= static_cast<std::size_t>(count);
        const Node* per_level = s.find("valuesPerLevel");
        const Node* pods = s.find("podCounts");
        for (std::int32_t i = 0; i < count; ++i) {
            topology::DomainAssignment da;
            if (per_level && per_level->is_seq())
                for (std::size_t k = 0; k < per_level->items().size() && k < topology::kMaxLevels; ++k) {
                    const Node& lv = per_level->items()[k];
                    if (!lv.is_map()) continue;
                    if (const Node* u = lv.find("universal"); u && !u->is_null()) {
                        da.values.push_back(text(u));
                    } else if (const Node* ind = lv.find("individual"); ind && ind->is_map()) {
                        const Node* roots = ind->find("roots");
                        std::string root;
                        if (roots && roots->is_seq() && static_cast<std::size_t>(i) < roots->items().size())
                            root = text(&roots->items()[static_cast<std::size_t>(i)]);
                        da.values.push_back(text(ind->find("prefix")) + root + text(ind->find("suffix")));
                    }
                }
            if (pods && pods->is_map()) {
                if (const Node* u = pods->find("universal"); u && !u->is_null()) da.count = int_of(u);
                else if (const Node* ind = pods->find("individual");
                         ind && ind->is_seq() && static_cast<std::size_t>(i) < ind->items().size())
                    da.count = int_of(&ind->items()[static_cast<std::size_t>(i)]);
            }
            a.domains.push_back(std::move(da));
        }
    }
    return a;
}

}  // namespace queueforge::scheduler::detail
