// The Placer: phase 1 computes, for every domain, how many pods (and slices)
// fit, from the free capacity of the leaves up; phase 2 picks the level and
// the domains that hold the whole podset (BestFit: the fullest-first order,
// then the tightest domain that still fits; LeastFreeCapacity for
// unconstrained podsets under TASProfileMixed), then descends level by level
// keeping the number of domains minimal, and reports the lowest level
// (hostname only when it is a level). Kueue ff69552e tas_flavor_snapshot.go.
#include "engines/topology/placer.hpp"

namespace queueforge::topology::detail {

void Placer::fill_leaves(const PodSetRequest& w, const PodSetRequest* leader) {
    const Reqs req = resolve(s_, w.requests, true);
    Reqs lreq;
    if (leader) lreq = resolve(s_, leader->requests, true);
    std::vector<Toleration> tols = w.tolerations;
    tols.insert(tols.end(), s_.flavor_tolerations.begin(), s_.flavor_tolerations.end());
    std::vector<i64> rem(s_.resources.size());
    std::vector<int> limited(req.size(), 0);  // leaves where request k limits to zero pods
    for (const auto& leaf : s_.leaves) {
        const std::size_t leaf_base = static_cast<std::size_t>(&leaf - s_.leaves.data()) * s_.resources.size();
        ++stats_.total_nodes;
        // Per-node feasibility runs only when the lowest level is the node
        // (isLowestLevelNode): untolerated NoSchedule/NoExecute taint first,
        // then nodeSelector, then required node affinity.
        if (s_.lowest_is_hostname && leaf.node >= 0) {
            const NodeInfo& n = s_.nodes[leaf.node];
            const Taint* untolerated = nullptr;
            for (const auto& t : n.taints) {
                if (t.effect != "NoSchedule" && t.effect != "NoExecute") continue;
                bool ok = false;
                for (const auto& tol : tols)
                    if (model::tolerates(tol, t)) {
                        ok = true;
                        break;
                    }
                if (!ok) {
                    untolerated = &t;
                    break;
                }
            }
            if (untolerated) {
                ++stats_.taints[taint_text(*untolerated)];
                continue;
            }
            bool sel = true;
            for (const auto& [k, v] : w.node_selector) {
                auto it = n.labels.find(k);
                if (it == n.labels.end() || it->second != v) sel = false;
            }
            if (!sel) {
                ++stats_.node_selector;
                continue;
            }
            if (w.required_affinity && !affinity_matches(*w.required_affinity, n.labels)) {
                ++stats_.affinity;
                continue;
            }
            if (o_.respect_preferred_affinity)
                for (const auto& term : w.preferred_affinity) {
                    if (term.weight == 0 || term.preference.empty()) continue;  // skipped by Kubernetes
                    if (term_matches(term.preference, n.labels)) st_[leaf.domain].affinity += term.weight;
                }
        }
        if (!required_domain.empty()) {
            // BelongsTo on the leaf's full values: a replacement stays in the
            // domain of the pods it joins.
            const std::string full = domain_id(s_.domains[leaf.domain].values);
            if (full != required_domain && full.rfind(required_domain + ",", 0) != 0) {
                ++stats_.topology_domain;
                continue;
            }
        }
        // WithSimulateEmpty: the capacity as if no TAS workload ran (the
        // pods of this workload's earlier podsets still count).
        for (std::size_t r = 0; r < rem.size(); ++r)
            rem[r] = o_.simulate_empty ? leaf.free[r] : sat_add(leaf.free[r], -usage_[leaf_base + r]);
        if (!assumed.empty()) {
            auto a = assumed.find(static_cast<int>(&leaf - s_.leaves.data()));
            if (a != assumed.end())
                for (std::size_t r = 0; r < rem.size(); ++r) rem[r] = sat_add(rem[r], -a->second[r]);
        }
        State& x = st_[leaf.domain];
        auto [n, limiting] = count_in(req, rem.data());
        x.pod = n;
        if (n == 0 && limiting >= 0) ++limited[limiting];
        x.leader = 0;
        if (leader) {
            if (count_in(lreq, rem.data()).first > 0) {
                x.leader = 1;
                for (const auto& q : lreq)
                    if (q.idx >= 0) rem[q.idx] -= q.value;
            }
            x.pod_wl = count_in(req, rem.data()).first;
        } else {
            x.pod_wl = n;  // nothing taken for a leader: the same count
        }
    }
    for (std::size_t k = 0; k < req.size(); ++k)
        if (limited[k] > 0) stats_.resources[req[k].name] += limited[k];
}

// fillInCountsHelper
void Placer::fill_up(int d, int level) {
    State& x = st_[d];
    const Domain& dm = dom(d);
    if (dm.children.empty()) {
        if (level == p_.slice_level) {
            x.slice = x.pod / p_.slice_size;
            x.slice_wl = x.pod_wl / p_.slice_size;
        }
        return;
    }
    i64 pods = 0, slices = 0;
    i32 leader = 0;
    i64 affinity = 0;
    bool contributor = false;
    i32 min_pod_diff = INT32_MAX, min_slice_diff = INT32_MAX;
    const int child_level = level + 1;
    auto inner = ignore_inner_ ? p_.slice_size_at_level.end() : p_.slice_size_at_level.find(child_level);
    for (int c : dm.children) {
        fill_up(c, child_level);
        const State& y = st_[c];
        i32 cp = y.pod, cpw = y.pod_wl;
        if (inner != p_.slice_size_at_level.end()) {
            cp = (y.pod / inner->second) * inner->second;
            cpw = (y.pod_wl / inner->second) * inner->second;
        }
        pods += cp;
        slices += y.slice;
        if (p_.leader_count == 0 || y.leader > 0) {
            contributor = true;
            min_pod_diff = std::min(cp - cpw, min_pod_diff);
            min_slice_diff = std::min(y.slice - y.slice_wl, min_slice_diff);
        }
        leader = std::max(y.leader, leader);
        affinity += y.affinity;
    }
    State& z = st_[d];
    z.pod = clamp32(pods);
    i32 slice_wl = 0;
    if (contributor) {
        z.pod_wl = clamp32(pods - min_pod_diff);
        slice_wl = clamp32(slices - min_slice_diff);
    } else {
        z.pod_wl = 0;
    }
    z.leader = leader;
    z.affinity = affinity;
    if (level == p_.slice_level) {
        slices = z.pod / p_.slice_size;  // from the clamped count
        slice_wl = z.pod_wl / p_.slice_size;
    }
    z.slice = clamp32(slices);
    z.slice_wl = slice_wl;
}

std::string Placer::not_fit(i32 fit, i32 total) const {
    std::string unit = p_.slice_size == 1 ? "pod" : "slice";
    std::string out;
    if (fit == 0)
        out = "topology \"" + s_.name + "\" doesn't allow to fit any of " + std::to_string(total) + " " + unit + "(s)";
    else
        out = "topology \"" + s_.name + "\" allows to fit only " + std::to_string(fit) + " out of " +
              std::to_string(total) + " " + unit + "(s)";
    if (stats_.any()) out += ". Total nodes: " + std::to_string(stats_.total_nodes) + "; excluded: " + stats_.format();
    return out;
}

std::string Placer::multi_layer_not_fit(int level) const {
    std::string out = "topology \"" + s_.name + "\" doesn't allow to fit";
    // The domain with the most slices (ties: the smallest domain ID).
    int best = -1;
    auto id_of = [&](int d) {
        const Domain& dm = dom(d);
        if (dm.leaf >= 0) return s_.leaves[dm.leaf].id;
        std::string id;
        for (std::size_t i = 0; i < dm.values.size(); ++i) id += (i ? "," : "") + dm.values[i];
        return id;
    };
    for (int d : s_.per_level[level])
        if (best < 0 || st_[d].slice > st_[best].slice || (st_[d].slice == st_[best].slice && id_of(d) < id_of(best)))
            best = d;
    if (best < 0) return out;
    for (const auto& c : p_.multi_layer) {
        int target = level_of(c.level);
        if (target < 0) continue;
        // slices of size c.size in the subtree of `best` at the target level
        i64 fit = 0;
        std::vector<int> frontier{best};
        for (int l = level; l < target; ++l) {
            std::vector<int> next;
            for (int d : frontier)
                for (int ch : dom(d).children) next.push_back(ch);
            frontier.swap(next);
        }
        for (int d : frontier) fit += st_[d].pod / c.size;
        out += "; " + std::to_string(fit) + "/" + std::to_string(p_.count / c.size) + " slice(s) fit on level " +
               c.level;
    }
    if (stats_.any()) out += ". Total nodes: " + std::to_string(stats_.total_nodes) + "; excluded: " + stats_.format();
    return out;
}

// prioritizeLeaderDomain: the first leader-capable domain whose leader
// penalty the others' capacity can absorb moves to the front.
std::vector<int> Placer::prioritize_leader(const std::vector<int>& d, i32 count, i32 leader, i32 slice_size,
                                           bool slices) const {
    if (leader == 0 || d.size() < 2) return d;
    i64 required = count;
    i64 available = 0;
    if (slices) {
        required /= slice_size;
        for (int x : d) available += st_[x].slice;
    } else {
        for (int x : d) available += st_[x].pod;
    }
    for (std::size_t i = 0; i < d.size(); ++i) {
        const State& x = st_[d[i]];
        if (x.leader < leader) continue;
        i64 penalty = slices ? x.slice - x.slice_wl : x.pod - x.pod_wl;
        if (available - penalty < required) continue;
        if (i == 0) return d;
        std::vector<int> out;
        out.reserve(d.size());
        out.push_back(d[i]);
        for (std::size_t j = 0; j < d.size(); ++j)
            if (j != i) out.push_back(d[j]);
        return out;
    }
    return d;
}

// updateCountsToMinimumGeneric: take domains in order until `count` pods (or
// slices) are covered, the last one chosen as the tightest fit (BestFit).
std::vector<int> Placer::update_counts(std::vector<int> d, i32 count, i32 leader, i32 slice_size, bool slices) {
    d = prioritize_leader(d, count, leader, slice_size, slices);
    std::vector<int> result;
    i32 remaining = slices ? count / slice_size : count;
    i32 rem_leader = leader;
    auto with_leader = [&](int x) -> i32& { return slices ? st_[x].slice_wl : st_[x].pod_wl; };
    auto primary = [&](int x) -> i32& { return slices ? st_[x].slice : st_[x].pod; };
    for (std::size_t i = 0; i < d.size(); ++i) {
        int dom = d[i];
        if (rem_leader > 0) {
            // consumeWithLeadersGeneric
            if (best_fit() && with_leader(dom) >= remaining && st_[dom].leader >= rem_leader)
                dom = slices ? best_fit_slices(d, i, remaining, rem_leader) : best_fit_pods(d, i, remaining, rem_leader);
            State& x = st_[dom];
            if (with_leader(dom) >= remaining && x.leader >= rem_leader) {
                primary(dom) = remaining;
                x.leader = rem_leader;
                x.pod = remaining * (slices ? slice_size : 1);
                result.push_back(dom);
                return result;
            }
            if (with_leader(dom) > remaining) with_leader(dom) = remaining;
            if (x.leader > rem_leader) x.leader = rem_leader;
            primary(dom) = with_leader(dom);
            x.pod = with_leader(dom) * (slices ? slice_size : 1);
            rem_leader -= x.leader;
            remaining -= with_leader(dom);
            result.push_back(dom);
            continue;
        }
        if (slices) {
            if (best_fit() && st_[dom].slice >= remaining) dom = best_fit_slices(d, i, remaining, 0);
            State& x = st_[dom];
            x.leader = 0;
            if (x.slice >= remaining) {
                x.pod = remaining * slice_size;
                x.slice = remaining;
                result.push_back(dom);
                return result;
            }
            x.pod = x.slice * slice_size;
            remaining -= x.slice;
            result.push_back(dom);
            continue;
        }
        if (best_fit() && st_[dom].pod >= remaining) dom = best_fit_pods(d, i, remaining, 0);
        State& x = st_[dom];
        x.leader = 0;
        if (x.pod >= remaining) {
            x.pod = remaining;
            result.push_back(dom);
            return result;
        }
        remaining -= x.pod;
        result.push_back(dom);
    }
    // Kueue logs "code assumptions violated" and continues with no domains.
    return {};
}

// findLevelWithFitDomains
std::string Placer::find_level(int level, int& fit_level, std::vector<int>& out) {
    const auto& at = s_.per_level[level];
    if (at.empty()) return "no topology domains at level: " + s_.levels[level];
    std::vector<int> order = sorted_with_leader(at);
    int top = order[0];
    const i32 slice_count = p_.count / p_.slice_size;
    if (best_fit() && st_[top].slice_wl >= slice_count && st_[top].leader >= p_.leader_count)
        top = best_fit_slices(order, 0, slice_count, p_.leader_count);
    auto reason = [&](i32 fit, i32 total) {
        if (!p_.multi_layer.empty()) return multi_layer_not_fit(level);
        return not_fit(fit, total);
    };
    if (least_free()) {
        for (int c : order) {
            const State& x = st_[c];
            i32 cap = x.slice;
            if (p_.leader_count > 0) {
                if (x.leader < p_.leader_count) continue;
                cap = x.slice_wl;
            }
            if (cap >= slice_count) {
                fit_level = level;
                out = {c};
                return "";
            }
        }
        if (p_.required) return reason(st_[order.back()].pod, slice_count);
    }
    if (st_[top].slice_wl < slice_count || st_[top].leader < p_.leader_count) {
        if (p_.required) {
            // With preferred affinity the fullest domain may be a preferred
            // one too small: look further before failing.
            if (o_.respect_preferred_affinity)
                for (std::size_t i = 1; i < order.size(); ++i) {
                    const State& x = st_[order[i]];
                    if (x.slice_wl >= slice_count && x.leader >= p_.leader_count) {
                        fit_level = level;
                        out = {best_fit_slices(order, i, slice_count, p_.leader_count)};
                        return "";
                    }
                }
            return reason(st_[top].slice, slice_count);
        }
        if (level > 0 && !p_.unconstrained) return find_level(level - 1, fit_level, out);
        // Several domains at this level.
        std::vector<int> results;
        i32 rem_slices = slice_count;
        i32 rem_leader = p_.leader_count;
        order = prioritize_leader(order, p_.count, p_.leader_count, p_.slice_size, true);
        std::size_t idx = 0;
        for (; rem_leader > 0 && idx < order.size() && st_[order[idx]].leader > 0; ++idx) {
            int d = order[idx];
            if (best_fit() && st_[d].slice_wl >= rem_slices) d = best_fit_slices(order, idx, rem_slices, rem_leader);
            results.push_back(d);
            rem_leader -= st_[d].leader;
            rem_slices -= st_[d].slice_wl;
        }
        if (rem_leader > 0) return reason(p_.leader_count - rem_leader, slice_count);
        std::vector<int> rest = sorted(std::vector<int>(order.begin() + static_cast<long>(idx), order.end()));
        for (std::size_t i = 0; rem_slices > 0 && i < rest.size(); ++i) {
            int d = rest[i];
            if (best_fit() && st_[d].slice >= rem_slices) d = best_fit_slices(rest, i, rem_slices, 0);
            results.push_back(d);
            rem_slices -= st_[d].slice;
        }
        if (rem_slices > 0) return reason(slice_count - rem_slices, slice_count);
        fit_level = level;
        out = std::move(results);
        return "";
    }
    fit_level = level;
    out = {top};
    return "";
}

Assignment Placer::build(std::vector<std::pair<int, i32>> d) const {
    std::sort(d.begin(), d.end(), [&](const auto& a, const auto& b) { return less_values(a.first, b.first); });
    Assignment a;
    std::size_t from = s_.lowest_is_hostname ? s_.levels.size() - 1 : 0;
    a.levels.assign(s_.levels.begin() + static_cast<long>(from), s_.levels.end());
    for (const auto& [dom, count] : d) {
        if (count == 0) continue;
        const auto& v = this->dom(dom).values;
        a.domains.push_back({std::vector<std::string>(v.begin() + static_cast<long>(from), v.end()), count});
    }
    return a;
}

std::string Placer::place(const PodSetRequest& w, const PodSetRequest* leader, std::optional<Assignment>& wa,
                          std::optional<Assignment>& la) {
    extra_.clear();
    st_.assign(s_.domains.size(), State{});
    stats_ = Stats{};
    p_ = Params{};
    p_.count = w.count;
    if (leader) p_.leader_count = 1;

    // getSliceSizeWithSinglePodAsDefault
    if (!w.slices.empty()) {
        if (w.slices.front().size <= 0) return "slice topology requested, but slice size not provided";
        p_.slice_size = w.slices.front().size;
    }
    const bool slice_only = w.mode == Mode::Unconstrained && !w.slices.empty() && w.level.empty();
    p_.required = w.mode == Mode::Required;
    p_.unconstrained = w.mode == Mode::Unconstrained || w.mode == Mode::Implied || slice_only;

    std::string key;
    if (w.mode == Mode::Required || w.mode == Mode::Preferred) key = w.level;
    else if (slice_only) key = s_.levels.front();
    else key = s_.levels.back();
    if ((w.mode == Mode::Required || w.mode == Mode::Preferred) && key.empty()) return "topology level not specified";
    p_.requested_level = level_of(key);
    if (p_.requested_level < 0) return "no requested topology level: " + key;
    std::string slice_key = w.slices.empty() ? s_.levels.back() : w.slices.front().level;
    p_.slice_level = level_of(slice_key);
    if (p_.slice_level < 0) return "no requested topology level for slices: " + slice_key;
    if (p_.requested_level > p_.slice_level)
        return "podset slice topology " + slice_key + " is above the podset topology " + key;

    // buildSliceSizeAtLevel: the inner layers of a multi-layer request.
    {
        i32 prev_size = p_.slice_size;
        int prev_level = p_.slice_level;
        for (std::size_t i = 1; i < w.slices.size(); ++i) {
            const auto& layer = w.slices[i];
            int lvl = level_of(layer.level);
            if (lvl < 0) return "no requested topology level for additional slice layer: " + layer.level;
            if (lvl <= prev_level)
                return "additional slice layer topology " + layer.level + " must be at a lower level than " +
                       s_.levels[prev_level];
            if (layer.size <= 0 || prev_size % layer.size != 0)
                return "additional slice layer size " + std::to_string(layer.size) +
                       " must evenly divide parent layer size " + std::to_string(prev_size);
            for (int l = prev_level + 1; l <= lvl; ++l) p_.slice_size_at_level[l] = layer.size;
            prev_size = layer.size;
            prev_level = lvl;
        }
        if (!p_.slice_size_at_level.empty()) p_.multi_layer = w.slices;
    }

    // Phase 1
    fill_leaves(w, leader);
    for (int root : s_.per_level[0]) fill_up(root, 0);

    // Phase 2a
    int fit_level = 0;
    std::vector<int> cur;
    bool balanced = false;
    if (o_.balanced_placement && !p_.required && !p_.unconstrained) {
        auto [candidates, threshold] = balanced_candidates();
        if (threshold > 0) {
            cur = std::move(candidates);
            // A failure falls back to BestFit (Kueue logs it at V(3)).
            balanced = balanced_apply(threshold, cur, fit_level).empty();
        }
    }
    if (!balanced) {
        cur.clear();
        if (std::string r = find_level(p_.requested_level, fit_level, cur); !r.empty()) return r;
    }

    // Phase 2b: descend.
    cur = update_counts(cur, p_.count, p_.leader_count, p_.slice_size, true);
    const int last = static_cast<int>(s_.levels.size()) - 1;
    int lvl = fit_level;
    for (; lvl < std::min(last, p_.slice_level) && !balanced; ++lvl) {
        std::vector<int> lower;
        for (int d : cur)
            for (int c : dom(d).children) lower.push_back(c);
        cur = update_counts(sorted(std::move(lower)), p_.count, p_.leader_count, p_.slice_size, true);
    }
    for (; lvl < last; ++lvl) {
        i32 size_here = p_.slice_size;
        if (lvl >= p_.slice_level) {
            size_here = 1;
            if (auto it = p_.slice_size_at_level.find(lvl + 1); it != p_.slice_size_at_level.end()) size_here = it->second;
        }
        std::vector<int> next;
        for (int d : cur) {
            std::vector<int> kids = sorted(dom(d).children);
            if (size_here > 1)
                for (int k : kids) {
                    st_[k].slice = st_[k].pod / size_here;
                    st_[k].slice_wl = st_[k].pod_wl / size_here;
                }
            auto add = update_counts(kids, st_[d].pod, st_[d].leader, size_here, size_here > 1);
            next.insert(next.end(), add.begin(), add.end());
        }
        cur = std::move(next);
    }

    std::vector<std::pair<int, i32>> workers;
    if (leader) {
        std::vector<std::pair<int, i32>> leaders;
        for (int d : cur) {
            if (st_[d].leader > 0) leaders.emplace_back(d, st_[d].leader);
            if (st_[d].pod > 0) workers.emplace_back(d, st_[d].pod);
        }
        la = build(std::move(leaders));
    } else {
        for (int d : cur) workers.emplace_back(d, st_[d].pod);
    }
    wa = build(std::move(workers));
    return "";
}

}  // namespace queueforge::topology::detail
