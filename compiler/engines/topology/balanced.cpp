// TASBalancedPlacement (alpha): preferred podsets spread evenly over the
// fewest domains that hold them (Kueue ff69552e tas_balanced_placement.go).
#include "engines/topology/placer.hpp"

#include <cmath>

namespace queueforge::topology::detail {

int Placer::clone(int d, int parent) {
    Domain c;
    c.values = dom(d).values;
    c.level = dom(d).level;
    c.rank = dom(d).rank;
    c.parent = parent;
    const std::vector<int> kids = dom(d).children;
    const int idx = static_cast<int>(s_.domains.size() + extra_.size());
    extra_.push_back(std::move(c));
    st_.push_back(st_[d]);
    std::vector<int> cloned;
    for (int k : kids) cloned.push_back(clone(k, idx));
    extra_[idx - static_cast<int>(s_.domains.size())].children = std::move(cloned);
    return idx;
}

// evaluateGreedyAssignment: does the request fit these domains taken in
// BestFit order, how many domains it takes, and the last ones used.
Placer::Greedy Placer::greedy(const std::vector<int>& d, i32 slice_count, i32 leader_count) const {
    Greedy g;
    i32 rem_slices = slice_count, rem_leader = leader_count;
    std::vector<int> rest;
    if (leader_count > 0) {
        std::vector<int> wl = sorted_with_leader_bf(d);
        std::size_t i = 0;
        for (; rem_leader > 0 && i < wl.size() && st_[wl[i]].leader > 0; ++i) {
            ++g.count;
            g.last_wl = wl[i];
            rem_leader -= st_[wl[i]].leader;
            rem_slices -= st_[wl[i]].slice_wl;
        }
        rest = sorted_bf(std::vector<int>(wl.begin() + static_cast<long>(i), wl.end()));
    } else {
        rest = sorted_bf(d);
    }
    if (rem_leader > 0) return Greedy{};
    for (std::size_t i = 0; rem_slices > 0 && i < rest.size() && st_[rest[i]].slice > 0; ++i) {
        ++g.count;
        g.last = rest[i];
        rem_slices -= st_[rest[i]].slice;
    }
    if (rem_slices > 0) return Greedy{};
    g.fits = true;
    return g;
}

double Placer::entropy(int d) const {
    i64 total = 0;
    for (int c : dom(d).children) total += st_[c].pod;
    if (total == 0) return 0.0;
    double e = 0.0;
    for (int c : dom(d).children)
        if (st_[c].pod > 0) {
            double p = static_cast<double>(st_[c].pod) / static_cast<double>(total);
            e += -p * std::log2(p);
        }
    return e;
}

// selectOptimalDomainSetToFit: among the sets of the greedy size that hold
// the request, the one leaving the least spare pods; the first found wins.
std::vector<int> Placer::optimal_set(const std::vector<int>& d, i32 slice_count, i32 leader_count,
                                     bool by_entropy) const {
    Greedy g = greedy(d, slice_count, leader_count);
    if (!g.fits) return {};
    std::vector<int> order = d;
    if (by_entropy) {
        std::map<int, double> e;
        for (int x : order) e[x] = entropy(x);
        std::sort(order.begin(), order.end(), [&](int a, int b) {
            const State &x = st_[a], &y = st_[b];
            if (x.leader != y.leader) return x.leader > y.leader;
            if (x.slice_wl != y.slice_wl) return x.slice_wl > y.slice_wl;
            if (e[a] != e[b]) return e[a] > e[b];
            return less_values(a, b);
        });
    } else {
        std::sort(order.begin(), order.end(), [&](int a, int b) { return less_values(a, b); });
    }
    const int n = g.count;
    // placements[i][leaders left][pods left] = domains, for i domains used
    std::vector<std::map<i32, std::map<i32, std::vector<int>>>> pl(static_cast<std::size_t>(n) + 1);
    pl[0][leader_count][slice_count * p_.slice_size] = {};
    for (int x : order) {
        const State& st = st_[x];
        for (int i = n; i > 0; --i) {
            for (const auto& [before_leader, by_pods] : pl[static_cast<std::size_t>(i) - 1]) {
                for (const auto& [before_pods, placement] : by_pods) {
                    if (before_leader <= 0 && before_pods <= 0) continue;
                    std::vector<int> next = placement;
                    next.push_back(x);
                    if (before_leader > 0 && st.leader > 0)
                        pl[static_cast<std::size_t>(i)][before_leader - st.leader].try_emplace(before_pods - st.pod_wl,
                                                                                                next);
                    if (st.slice > 0)
                        pl[static_cast<std::size_t>(i)][before_leader].try_emplace(before_pods - st.pod, next);
                }
            }
        }
    }
    auto it = pl[static_cast<std::size_t>(n)].find(0);
    if (it == pl[static_cast<std::size_t>(n)].end()) return {};
    const std::vector<int>* best = nullptr;
    for (const auto& [left, placement] : it->second)
        if (left <= 0) best = &placement;  // ascending keys: the last one <= 0 is the closest to 0
    return best ? *best : std::vector<int>{};
}

void Placer::clear_state(int d) {
    i64 a = st_[d].affinity;
    st_[d] = State{};
    st_[d].affinity = a;
    for (int c : dom(d).children) clear_state(c);
}

void Placer::clear_leader(int d) {
    st_[d].pod_wl = 0;
    st_[d].slice_wl = 0;
    st_[d].leader = 0;
    for (int c : dom(d).children) clear_leader(c);
}

void Placer::prune_node(int d, i32 threshold) {
    if (st_[d].slice < threshold) {
        clear_state(d);
        return;
    }
    if (p_.leader_count > 0 && st_[d].leader > 0 && st_[d].slice_wl < threshold) clear_leader(d);
}

void Placer::prune(const std::vector<int>& d, i32 threshold) {
    for (int x : d)
        for (int c : dom(x).children) prune_node(c, threshold);
    ignore_inner_ = true;
    for (int x : d) {
        fill_up(x, p_.requested_level);
        prune_node(x, threshold);
    }
    ignore_inner_ = false;
}

// findBestDomainsForBalancedPlacement
std::pair<std::vector<int>, i32> Placer::balanced_candidates() {
    const i32 slice_count = p_.count / p_.slice_size;
    std::vector<std::vector<int>> groups;
    if (p_.requested_level == 0) {
        groups.push_back(s_.per_level[0]);
    } else {
        std::vector<int> higher = s_.per_level[static_cast<std::size_t>(p_.requested_level) - 1];
        std::sort(higher.begin(), higher.end(), [&](int a, int b) { return less_values(a, b); });
        for (int h : higher) groups.push_back(dom(h).children);
    }
    i32 best = 0, best_count = 0;
    std::vector<int> best_set;
    for (const auto& group : groups) {
        std::vector<int> cand = clone_all(group);
        std::vector<int> low = p_.requested_level < p_.slice_level ? lower(cand) : cand;
        Greedy g = greedy(low, slice_count, p_.leader_count);
        if (!g.fits || g.count == 0) continue;
        i32 threshold = slice_count / g.count;
        if (g.last_wl >= 0) threshold = std::min(threshold, st_[g.last_wl].slice_wl);
        if (g.last >= 0) threshold = std::min(threshold, st_[g.last].slice);
        i32 with_reservation = threshold;
        if (p_.leader_count > 0 && g.last >= 0) with_reservation = std::min(threshold, st_[g.last].slice_wl);
        if (threshold < best) continue;
        prune(cand, threshold);
        Greedy after = greedy(cand, slice_count, p_.leader_count);
        if (!after.fits && with_reservation < threshold) {
            if (with_reservation <= 0 || with_reservation < best) continue;
            threshold = with_reservation;
            cand = clone_all(group);
            prune(cand, threshold);
            after = greedy(cand, slice_count, p_.leader_count);
        }
        if (!after.fits) continue;
        if (threshold > best || (threshold == best && after.count < best_count)) {
            best = threshold;
            best_count = after.count;
            best_set = cand;
        }
    }
    return {best_set, best};
}

// applyBalancedPlacementAlgorithm + placeSlicesOnDomainsBalanced
std::string Placer::balanced_apply(i32 threshold, std::vector<int>& cur, int& fit_level) {
    const i32 slice_count = p_.count / p_.slice_size;
    if (p_.requested_level < p_.slice_level) {
        std::vector<int> result = optimal_set(cur, slice_count, p_.leader_count, true);
        if (result.empty()) return "TAS Balanced Placement: Cannot find optimal domain set to fit the request";
        cur = lower(result);
        fit_level = p_.requested_level + 1;
    } else {
        fit_level = p_.requested_level;
    }
    std::vector<int> result = optimal_set(cur, slice_count, p_.leader_count, false);
    if (result.empty()) return "TAS Balanced Placement: Cannot find optimal domain set to fit the request";
    if (slice_count < static_cast<i32>(result.size()) * threshold)
        return "TAS Balanced Placement: Not enough slices to meet the threshold";
    result = sorted_with_leader_bf(result);
    i32 extra = slice_count - static_cast<i32>(result.size()) * threshold;
    i32 leaders_left = p_.leader_count;
    for (int d : result) {
        State& x = st_[d];
        i32 take = 0;
        if (leaders_left > 0) {
            take = std::min(x.slice_wl - threshold, extra);
            x.leader = 1;
            --leaders_left;
        } else if (extra > 0) {
            take = std::min(x.slice - threshold, extra);
            x.leader = 0;
        } else {
            x.leader = 0;
        }
        x.pod = (threshold + take) * p_.slice_size;
        x.slice = threshold + take;
        x.slice_wl = x.slice;
        x.pod_wl = x.pod - x.leader;
        extra -= take;
    }
    if (extra > 0 || leaders_left > 0) return "TAS Balanced Placement: Not all slices or leaders could be placed";
    cur = std::move(result);
    return "";
}

}  // namespace queueforge::topology::detail
