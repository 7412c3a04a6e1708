// Flavor assignment, mirroring pkg/scheduler/flavorassigner/flavorassigner.go
// (assignFlavors, findFlavorForPodSets, fitsResourceQuota, isPreferred,
// shouldTryNextFlavor, resolveNoFitReason) with the v0.20 gates
// FlavorFungibility, UnadmittedWorkloadsObservability and
// RecomputeAssignmentUponPreemptionTargetsOverlap on. kueue-semantics 5.5-5.6.
#include "engines/scheduler/flavor_assigner.hpp"

#include "engines/scheduler/format.hpp"
#include "engines/scheduler/matching.hpp"
#include "engines/scheduler/preemption.hpp"
#include "engines/scheduler/tas.hpp"

#include <algorithm>
#include <climits>
#include <map>

namespace queueforge::scheduler::detail {

namespace {

const std::string kNoMatchingFlavor = "NoMatchingFlavor";
const std::string kExceedsMaxQuota = "ExceedsMaxQuota";
const std::string kWaitingForQuota = "WaitingForQuota";

int severity(const std::string& r) {
    if (r == kNoMatchingFlavor) return 4;
    if (r == kExceedsMaxQuota) return 3;
    if (r == kWaitingForQuota) return 2;
    if (r == "TopologyPlacementFailed") return 1;
    return 0;
}

const std::string& most_severe(const std::string& a, const std::string& b) { return severity(a) >= severity(b) ? a : b; }

struct Granular {
    PMode pm = PMode::NoFit;
    int borrow = INT_MAX;
};

// isPreferred: a strictly better than b under the CQ's preference.
bool is_preferred(const Granular& a, const Granular& b, Preference pref) {
    if (a.pm == PMode::NoFit) return false;
    if (b.pm == PMode::NoFit) return true;
    bool a_nc = a.pm == PMode::NoCandidates, b_nc = b.pm == PMode::NoCandidates;
    if (a_nc != b_nc) return !a_nc;
    if (pref == Preference::PreemptionOverBorrowing) {
        if (a.borrow != b.borrow) return a.borrow < b.borrow;
        return a.pm > b.pm;
    }
    if (a.pm != b.pm) return a.pm > b.pm;
    return a.borrow < b.borrow;
}

bool should_try_next(const Granular& g, const ClusterQueue& cq) {
    if (g.pm == PMode::NoFit || g.pm == PMode::NoCandidates) return true;
    bool preempt = g.pm == PMode::Preempt || g.pm == PMode::Reclaim;
    if (preempt && cq.preempt_try_next) return true;
    if (g.borrow != 0 && cq.borrow_try_next) return true;
    return false;
}

struct FitResult {
    PMode pm = PMode::Fit;
    int borrow = 0;
    bool has_status = false;
    std::string reason;
    std::string no_fit_reason;
};

FitResult fits_resource_quota(SchedCtx& ctx, int wl, const ClusterQueue& cq, int fr, Amount assumed, std::int64_t request) {
    const Model& m = ctx.m;
    QuotaView v = ctx.view();
    const std::string& res = m.res_name(m.fr_resource(fr));
    const std::string& flv = m.flavor_name(m.fr_flavor(fr));
    FitResult out;
    Amount available = v.available(cq.node, fr);
    Amount max_capacity = v.potential_available(cq.node, fr);
    Amount val = amt_add_int(assumed, request);
    if (val > max_capacity) {
        out.pm = PMode::NoFit;
        out.has_status = true;
        out.no_fit_reason = kExceedsMaxQuota;
        out.reason = "insufficient quota for " + res + " in flavor " + flv + ", previously considered podsets requests (" +
                     format_amount(res, assumed) + ") + current podset request (" + format_quantity(res, request) +
                     ") > maximum capacity (" + format_amount(res, max_capacity) + ")";
        return out;
    }
    auto [borrow, may_reclaim] = v.find_height(cq.node, fr, val);
    if (val <= available) {
        out.borrow = borrow;
        return out;
    }
    out.has_status = true;
    out.no_fit_reason = kWaitingForQuota;
    out.reason = "insufficient unused quota for " + res + " in flavor " + flv + ", " +
                 format_amount(res, amt_sub(val, available)) + " more needed";
    bool can_preempt_while_borrowing = cq.bwc || (m.config.fair_sharing && cq.reclaim != Policy::Never);
    if (m.nodes[cq.node].quotas.get(fr).nominal >= val || may_reclaim || can_preempt_while_borrowing) {
        auto [pm, borrow_after] = simulate_preemption(ctx, wl, fr, val);
        out.pm = pm;
        out.borrow = borrow_after;
        out.no_fit_reason.clear();  // never NoFit from the oracle
        return out;
    }
    out.pm = PMode::NoFit;
    out.borrow = borrow;
    return out;
}

struct FindResult {
    FlatMap<FlavorAssignment> flavors;
    Status status;
    bool has_status = false;
    std::vector<Attempt> considered;
};

// checkFlavorForPodSets: existence, taints, node affinity.
std::string check_flavor(const Model& m, int f, const PodSetSpec& ps) {
    const Flavor& flavor = m.flavors[f];
    if (!flavor.exists) return "flavor " + flavor.name + " not found";
    if (auto t = untolerated_taint(flavor, ps)) return "untolerated taint " + taint_string(*t) + " in flavor " + flavor.name;
    if (!flavor_matches_affinity(flavor, ps)) return "flavor " + flavor.name + " doesn't match node affinity";
    return {};
}

FindResult find_flavor(SchedCtx& ctx, int wl, const ClusterQueue& cq, std::size_t ps_idx, const Requests& requests,
                       int res_name, const FlatMap<Amount>& assigned, const NominationMap* nomination) {
    Model& m = ctx.m;
    const Workload& w = m.wls[wl];
    FindResult out;
    const int* rg_idx = cq.rg_of_resource.find(res_name);
    if (!rg_idx) {
        out.status.reasons.push_back("resource " + m.res_name(res_name) + " unavailable in ClusterQueue");
        out.has_status = true;
        return out;
    }
    const ResourceGroup& rg = cq.rgs[*rg_idx];
    Requests reqs;
    for (const auto& [r, q] : requests)
        if (std::find(rg.covered.begin(), rg.covered.end(), r) != rg.covered.end()) reqs.emplace_back(r, q);

    FlatMap<FlavorAssignment> best;
    Granular best_mode;
    int attempted = -1;
    int idx = w.last ? w.last->next(ps_idx, res_name) : 0;
    for (; idx < static_cast<int>(rg.flavors.size()); ++idx) {
        attempted = idx;
        int f = rg.flavors[idx];
        if (nomination && !nomination->empty()) {
            const int* nominated = ps_idx < nomination->size() ? (*nomination)[ps_idx].find(res_name) : nullptr;
            if (!nominated || *nominated != f) {
                out.status.reasons.push_back("skipping flavor " + m.flavor_name(f) +
                                             " as it is not found in the nomination mapping for resource " +
                                             m.res_name(res_name));
                continue;
            }
        }
        std::string why = m.flavors[f].exists && cq.has_tas ? tas_flavor_mismatch(m, cq, w.podsets[ps_idx], f, rg) : "";
        if (why.empty()) why = check_flavor(m, f, w.podsets[ps_idx]);
        if (!why.empty()) {
            out.status.reasons.push_back(why);
            out.considered.push_back({f, Mode::NoFit, kNoMatchingFlavor});
            continue;
        }
        FlatMap<FlavorAssignment> assigns;
        Granular rep{PMode::Fit, 0};
        int max_borrow = 0;
        std::string no_fit;
        for (const auto& [r, val] : reqs) {
            int fr = m.fr_id(f, r);
            FitResult fit = fits_resource_quota(ctx, wl, cq, fr, assigned.get(fr), val);
            if (fit.has_status) {
                out.status.reasons.push_back(fit.reason);
                no_fit = most_severe(no_fit, fit.no_fit_reason);
            }
            max_borrow = std::max(max_borrow, fit.borrow);
            Granular mode{fit.pm, fit.borrow};
            if (is_preferred(rep, mode, cq.preference)) rep = mode;
            if (rep.pm == PMode::NoFit) continue;
            assigns.set(r, {f, to_mode(fit.pm), 0, fit.borrow});
        }
        out.considered.push_back({f, to_mode(rep.pm), no_fit});
        if (!should_try_next(rep, cq)) {
            best = std::move(assigns);
            best_mode = rep;
            break;
        }
        if (is_preferred(rep, best_mode, cq.preference)) {
            best = std::move(assigns);
            best_mode = rep;
        }
    }
    int last = static_cast<int>(rg.flavors.size()) - 1;
    for (auto& [r, fa] : best) fa.tried_idx = attempted == last ? -1 : attempted;
    out.flavors = std::move(best);
    if (best_mode.pm == PMode::Fit) {
        out.status = {};
        out.has_status = false;
    } else {
        out.has_status = true;
    }
    return out;
}

// mergeFlavorAttemptsForResource + mergeFlavorAttempts (modes and reasons).
void merge_attempts(std::map<int, Attempt>& dst, const std::vector<Attempt>& src, int res, const ClusterQueue& cq) {
    for (const auto& at : src) {
        auto it = dst.find(at.flavor);
        if (it == dst.end()) {
            dst[at.flavor] = at;
            continue;
        }
        it->second.mode = std::min(it->second.mode, at.mode);
        it->second.no_fit_reason = most_severe(it->second.no_fit_reason, at.no_fit_reason);
    }
    if (src.empty()) return;
    const int* rg_idx = cq.rg_of_resource.find(res);
    if (!rg_idx) return;
    const auto& flavors = cq.rgs[*rg_idx].flavors;
    for (auto& [f, at] : dst) {
        if (std::find(flavors.begin(), flavors.end(), f) == flavors.end()) continue;
        bool present = false;
        for (const auto& s : src) present = present || s.flavor == f;
        if (!present) {
            at.mode = Mode::NoFit;
            at.no_fit_reason = kNoMatchingFlavor;
        }
    }
}

void resolve_no_fit_reason(const Model& m, Assignment& a, const ClusterQueue& cq) {
    if (a.rep_mode() != Mode::NoFit) return;
    std::string overall;
    for (const auto& ps : a.podsets) {
        if (ps.rep_mode() != Mode::NoFit) continue;
        if (ps.attempts.empty()) {
            overall = most_severe(overall, kNoMatchingFlavor);
            continue;
        }
        std::map<int, std::string> rg_min;
        for (std::size_t i = 0; i < ps.attempts.size(); ++i) {
            const Attempt& att = ps.attempts[i];
            if (att.mode != Mode::NoFit) continue;
            std::vector<int> rgs;
            for (std::size_t g = 0; g < cq.rgs.size(); ++g)
                if (std::find(cq.rgs[g].flavors.begin(), cq.rgs[g].flavors.end(), att.flavor) != cq.rgs[g].flavors.end())
                    rgs.push_back(static_cast<int>(g));
            if (rgs.empty()) rgs.push_back(-1 - static_cast<int>(i));
            for (int g : rgs) {
                auto it = rg_min.find(g);
                if (it == rg_min.end() || severity(att.no_fit_reason) < severity(it->second)) rg_min[g] = att.no_fit_reason;
            }
        }
        std::string ps_reason;
        for (const auto& [g, r] : rg_min) ps_reason = most_severe(ps_reason, r);
        overall = most_severe(overall, ps_reason);
    }
    (void)m;
    a.no_fit_reason = overall;
}

void append_podset(const Model& m, Assignment& a, const Requests& requests, PodSetAssignment psa) {
    FlatMap<int> tried;
    for (const auto& [res, fa] : psa.flavors) {
        a.borrowing = std::max(a.borrowing, fa.borrow);
        int fr = m.find_fr(fa.flavor, res);
        Amount& u = a.usage.at(fr);
        u = amt_add_int(u, request_of(requests, res));
        tried.set(res, fa.tried_idx);
    }
    a.last.tried.push_back(std::move(tried));
    a.podsets.push_back(std::move(psa));
}

// PodSetResources.ScaledTo.
PodSetTotal scaled_to(const PodSetTotal& p, std::int32_t count) {
    PodSetTotal out = p;
    if (p.count != 0 && p.count != count) {
        for (auto& [r, v] : out.requests) v = sat_mul(v / p.count, count);
        out.count = count;
    }
    return out;
}

}  // namespace

Assignment assign_flavors(SchedCtx& ctx, int wl, int cq_idx, const std::vector<std::int32_t>* counts,
                          const NominationMap* nomination) {
    Model& m = ctx.m;
    const Workload& w = m.wls[wl];
    const ClusterQueue& cq = m.cqs[cq_idx];
    Assignment a;
    a.last.generation = cq.generation;
    a.last.cycle = ctx.cycle;
    a.last.hash = w.hash;
    const int pods = m.resource_id("pods");
    // Second pass (a workload holding quota: delayed topology, failed node):
    // the totals come from status.admission (workload.NewInfo) and their
    // flavors are kept (Fit), as are the placements already made.
    const std::vector<PodSetTotal>& totals = w.holds ? w.admission : w.pending_totals;
    for (std::size_t i = 0; i < totals.size(); ++i) {
        PodSetTotal ps = counts ? scaled_to(totals[i], (*counts)[i]) : totals[i];
        if (cq.covers_pods) {
            bool set = false;
            for (auto& [r, v] : ps.requests)
                if (r == pods) {
                    v = ps.count;
                    set = true;
                }
            if (!set) {
                ps.requests.emplace_back(pods, ps.count);
                m.sort_requests(ps.requests);
            }
        }
        PodSetAssignment psa;
        psa.name = ps.name;
        psa.requests = ps.requests;
        psa.count = ps.count;
        FlatMap<FlavorAssignment> group;
        if (w.holds) {
            for (const auto& [res, f] : ps.flavors) group.set(res, FlavorAssignment{f, Mode::Fit, 0, 0});
            psa.delayed = ps.delayed;
            for (const auto& p : w.placements)
                if (p.podset == ps.name) {
                    psa.topology = p.assignment;
                    psa.tas = p.tas;
                }
        }
        Status group_status;
        bool failed = false;
        std::map<int, Attempt> considered;
        for (const auto& [res, q] : ps.requests) {
            if (!cq.rg_of_resource.has(res) && (q == 0 || m.config.ignore_undeclared)) continue;
            if (group.has(res)) continue;
            FindResult fr = find_flavor(ctx, wl, cq, i, ps.requests, res, a.usage, nomination);
            merge_attempts(considered, fr.considered, res, cq);
            if (!fr.status.err.empty() || (fr.flavors.empty() && !ps.requests.empty())) {
                failed = true;
                group_status = fr.status;
                break;
            }
            for (const auto& [r, fa] : fr.flavors) group.set(r, fa);
            if (fr.has_status)
                group_status.reasons.insert(group_status.reasons.end(), fr.status.reasons.begin(), fr.status.reasons.end());
        }
        if (failed) group.clear();
        for (const auto& [res, fa] : group) {
            const auto& resource = res;  // a lambda may not capture a structured binding in clang 14
            if (std::any_of(ps.requests.begin(), ps.requests.end(), [&](const auto& e) { return e.first == resource; }))
                psa.flavors.set(res, fa);
        }
        psa.status = group_status;
        for (const auto& [f, at] : considered) psa.attempts.push_back(at);
        std::sort(psa.attempts.begin(), psa.attempts.end(),
                  [&](const Attempt& x, const Attempt& y) { return m.flavor_name(x.flavor) < m.flavor_name(y.flavor); });
        bool ps_failed = !psa.status.err.empty() || (!ps.requests.empty() && psa.flavors.empty());
        append_podset(m, a, ps.requests, std::move(psa));
        if (ps_failed) {
            resolve_no_fit_reason(m, a, cq);
            return a;
        }
    }
    place_after_assignment(m, wl, cq, a);
    resolve_no_fit_reason(m, a, cq);
    return a;
}

}  // namespace queueforge::scheduler::detail
