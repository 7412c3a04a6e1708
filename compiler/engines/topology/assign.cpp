// TAS placement (Kueue: pkg/cache/scheduler/tas_flavor_snapshot.go and
// scheduling_simulator_default.go at ff69552e, read for the facts).
//
// Phase 1 computes, for every domain, how many pods (and slices) fit, from the
// free capacity of the leaves up. Phase 2 picks the level and the domains that
// hold the whole podset (BestFit: the fullest-first order, then the tightest
// domain that still fits; LeastFreeCapacity for unconstrained podsets under
// TASProfileMixed), then descends level by level keeping the number of domains
// minimal, and reports the lowest level (hostname only when it is a level).
#include "engines/topology/snapshot.hpp"

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cmath>
#include <cstdlib>
#include <set>

namespace queueforge::topology {

namespace {

using i32 = std::int32_t;
using i64 = std::int64_t;

struct State {
    i32 pod = 0;
    i32 slice = 0;
    i32 pod_wl = 0;    // podCountWithLeader
    i32 slice_wl = 0;  // sliceCountWithLeader
    i32 leader = 0;
    i64 affinity = 0;  // preferred-affinity score (sum over the leaves below)
};

struct Stats {
    int total_nodes = 0;
    int node_selector = 0;
    int affinity = 0;
    int topology_domain = 0;
    std::map<std::string, int> taints;
    std::map<std::string, int> resources;
    bool any() const {
        return node_selector > 0 || affinity > 0 || !taints.empty() || topology_domain > 0 || !resources.empty();
    }
    std::string format() const {
        std::vector<std::string> r;
        if (node_selector > 0) r.push_back("nodeSelector: " + std::to_string(node_selector));
        if (affinity > 0) r.push_back("affinity: " + std::to_string(affinity));
        if (topology_domain > 0) r.push_back("topologyDomain: " + std::to_string(topology_domain));
        for (const auto& [t, n] : taints) r.push_back("taint \"" + t + "\": " + std::to_string(n));
        for (const auto& [res, n] : resources) r.push_back("resource \"" + res + "\": " + std::to_string(n));
        std::sort(r.begin(), r.end());
        std::string out;
        for (const auto& x : r) {
            if (!out.empty()) out += ", ";
            out += x;
        }
        return out;
    }
};

// A per-pod request resolved against the snapshot's resource table, sorted
// by resource name (Kueue breaks ties on the limiting resource by name).
struct Req {
    std::string name;
    int idx;  // -1: no node has it
    i64 value;
};
using Reqs = std::vector<Req>;

Reqs resolve(const Snapshot& s, const Amounts& a, bool add_pod) {
    Amounts m = a;
    if (add_pod) m["pods"] += 1;
    Reqs out;
    for (const auto& [n, v] : m) out.push_back({n, s.resource_index(n), v});
    return out;
}

// resources.CountInWithLimitingResource: how many times the request fits,
// and the position in `r` of the resource giving the minimum (ties by name,
// -1 for an empty request).
// Sums of pod counts over many domains stay within int32 as Kueue's do; a
// topology so large that they would not is clamped instead of wrapping.
i32 clamp32(i64 v) { return static_cast<i32>(std::max<i64>(INT32_MIN, std::min<i64>(v, INT32_MAX))); }

i64 sat_mul(i64 a, i64 b) {
    i64 r;
    if (__builtin_mul_overflow(a, b, &r)) return (a < 0) != (b < 0) ? INT64_MIN : INT64_MAX;
    return r;
}

i64 sat_add(i64 a, i64 b) {
    i64 r;
    if (__builtin_add_overflow(a, b, &r)) return b < 0 ? INT64_MIN : INT64_MAX;
    return r;
}

std::string domain_id(const std::vector<std::string>& values) {
    std::string id;
    for (std::size_t k = 0; k < values.size(); ++k) {
        if (k) id += ',';
        id += values[k];
    }
    return id;
}

std::pair<i32, int> count_in(const Reqs& r, const i64* cap) {
    i32 best = 0;
    int limiting = -1;
    for (std::size_t k = 0; k < r.size(); ++k) {
        const Req& q = r[k];
        i32 c;
        if (q.value == 0) {
            c = INT32_MAX;
        } else {
            i64 capv = q.idx >= 0 ? cap[q.idx] : 0;
            i64 n = capv / q.value;
            c = static_cast<i32>(std::max<i64>(0, std::min<i64>(n, INT32_MAX)));
        }
        if (limiting < 0 || c < best) {  // r is sorted by name: the first minimum wins ties
            best = c;
            limiting = static_cast<int>(k);
        }
    }
    return {best, limiting};
}

bool tolerates(const Toleration& t, const Taint& taint) {
    if (!t.effect.empty() && t.effect != taint.effect) return false;
    if (!t.key.empty() && t.key != taint.key) return false;
    if (t.op == "Exists") return true;
    if (t.op == "Equal" || t.op.empty()) return t.value == taint.value;
    return false;
}

std::string taint_text(const Taint& t) {
    // corev1.Taint.ToString
    if (t.effect.empty()) return t.value.empty() ? t.key : t.key + "=" + t.value + ":";
    return t.value.empty() ? t.key + ":" + t.effect : t.key + "=" + t.value + ":" + t.effect;
}

bool parse_int(const std::string& s, i64& out) {
    if (s.empty()) return false;
    char* end = nullptr;
    errno = 0;
    long long v = std::strtoll(s.c_str(), &end, 10);
    if (errno != 0 || *end != '\0') return false;
    out = v;
    return true;
}

bool requirement_matches(const LabelRequirement& r, const std::map<std::string, std::string>& labels) {
    auto it = labels.find(r.key);
    bool has = it != labels.end();
    if (r.op == "In") return has && std::find(r.values.begin(), r.values.end(), it->second) != r.values.end();
    if (r.op == "NotIn") return !has || std::find(r.values.begin(), r.values.end(), it->second) == r.values.end();
    if (r.op == "Exists") return has;
    if (r.op == "DoesNotExist") return !has;
    if (r.op == "Gt" || r.op == "Lt") {
        i64 lv, rv;
        if (!has || r.values.size() != 1 || !parse_int(it->second, lv) || !parse_int(r.values[0], rv)) return false;
        return r.op == "Gt" ? lv > rv : lv < rv;
    }
    return false;
}

bool affinity_matches(const NodeSelectorTerms& terms, const std::map<std::string, std::string>& labels) {
    for (const auto& term : terms) {
        if (term.empty()) continue;  // an empty term selects nothing
        bool all = true;
        for (const auto& r : term)
            if (!requirement_matches(r, labels)) {
                all = false;
                break;
            }
        if (all) return true;
    }
    return false;
}

struct Params {
    i32 count = 0;
    i32 slice_size = 1;
    i32 leader_count = 0;
    int requested_level = 0;
    int slice_level = 0;
    bool required = false;
    bool unconstrained = false;
    std::map<int, i32> slice_size_at_level;
    std::vector<SliceLayer> multi_layer;
};

class Placer {
public:
    Placer(const Snapshot& s, const Options& o) : s_(s), o_(o), st_(s.domains.size()) {}

    // assumed usage of earlier podsets of the same call, per leaf
    std::map<int, std::vector<i64>> assumed;
    // Node replacement: only leaves in this domain (Kueue's domain ID) count.
    std::string required_domain;
    int level_of_key(const std::string& key) const { return level_of(key); }
    std::string domain_id_of(int d) const {
        const Domain& dm = dom(d);
        return dm.leaf >= 0 ? s_.leaves[dm.leaf].id : domain_id(dm.values);
    }

    // findTopologyAssignment: the assignment of the workers (and leader), or
    // Kueue's reason.
    std::string place(const PodSetRequest& workers, const PodSetRequest* leader, std::optional<Assignment>& wa,
                      std::optional<Assignment>& la);

private:
    const Snapshot& s_;
    const Options& o_;
    std::vector<State> st_;
    Stats stats_;
    Params p_;

    bool best_fit() const { return !least_free(); }
    bool least_free() const { return p_.unconstrained && o_.profile_mixed; }

    int level_of(const std::string& key) const {
        for (std::size_t i = 0; i < s_.levels.size(); ++i)
            if (s_.levels[i] == key) return static_cast<int>(i);
        return -1;
    }

    // Domains compared are always of one level, where rank is the order of
    // their values.
    bool less_values(int a, int b) const { return dom(a).rank < dom(b).rank; }

    // Domains of the snapshot, then the copies balanced placement works on
    // (cloneDomains: same values, own state, own children).
    std::vector<Domain> extra_;
    const Domain& dom(int d) const {
        const int n = static_cast<int>(s_.domains.size());
        return d < n ? s_.domains[d] : extra_[d - n];
    }
    int clone(int d, int parent);
    std::vector<int> clone_all(const std::vector<int>& d) {
        std::vector<int> out;
        for (int x : d) out.push_back(clone(x, -1));
        return out;
    }
    std::vector<int> lower(const std::vector<int>& d) const {
        std::vector<int> out;
        for (int x : d)
            for (int c : dom(x).children) out.push_back(c);
        return out;
    }
    // Balanced placement (TASBalancedPlacement, tas_balanced_placement.go).
    struct Greedy {
        bool fits = false;
        i32 count = 0;
        int last_wl = -1;
        int last = -1;
    };
    Greedy greedy(const std::vector<int>& d, i32 slice_count, i32 leader_count) const;
    std::vector<int> optimal_set(const std::vector<int>& d, i32 slice_count, i32 leader_count, bool entropy) const;
    double entropy(int d) const;
    void clear_state(int d);
    void clear_leader(int d);
    void prune_node(int d, i32 threshold);
    void prune(const std::vector<int>& d, i32 threshold);
    std::pair<std::vector<int>, i32> balanced_candidates();
    std::string balanced_apply(i32 threshold, std::vector<int>& cur, int& fit_level);
    bool ignore_inner_ = false;  // fillInCountsHelper called without the inner slice layers

    std::vector<int> sorted(std::vector<int> d) const { return sorted_by(std::move(d), least_free()); }
    std::vector<int> sorted_bf(std::vector<int> d) const { return sorted_by(std::move(d), false); }
    std::vector<int> sorted_by(std::vector<int> d, bool lfc) const {
        const bool aff = o_.respect_preferred_affinity;
        std::sort(d.begin(), d.end(), [&](int a, int b) {
            const State &x = st_[a], &y = st_[b];
            if (aff && x.affinity != y.affinity) return x.affinity > y.affinity;
            if (x.slice != y.slice) return lfc ? x.slice < y.slice : x.slice > y.slice;
            if (x.pod != y.pod) return x.pod < y.pod;
            return less_values(a, b);
        });
        return d;
    }

    std::vector<int> sorted_with_leader(std::vector<int> d) const {
        return sorted_with_leader_by(std::move(d), least_free());
    }
    std::vector<int> sorted_with_leader_bf(std::vector<int> d) const { return sorted_with_leader_by(std::move(d), false); }
    std::vector<int> sorted_with_leader_by(std::vector<int> d, bool lfc) const {
        const bool aff = o_.respect_preferred_affinity;
        std::sort(d.begin(), d.end(), [&](int a, int b) {
            const State &x = st_[a], &y = st_[b];
            if (x.leader != y.leader) return x.leader > y.leader;
            if (aff && x.affinity != y.affinity) return x.affinity > y.affinity;
            if (x.slice_wl != y.slice_wl) return lfc ? x.slice_wl < y.slice_wl : x.slice_wl > y.slice_wl;
            if (x.pod_wl != y.pod_wl) return x.pod_wl < y.pod_wl;
            return less_values(a, b);
        });
        return d;
    }

    // findBestFitDomainBy: the first domain with the smallest count >= needed
    // (and enough leader room), else the first domain.
    template <typename F>
    int best_fit_by(const std::vector<int>& d, std::size_t from, i32 needed, i32 leader, F count) const {
        int best = d[from];
        i32 best_count = INT32_MAX;
        bool found = false;
        // topAffinityTierDomains: only the domains sharing the first one's score.
        std::size_t end = d.size();
        if (o_.respect_preferred_affinity)
            for (std::size_t i = from; i < d.size(); ++i)
                if (st_[d[i]].affinity != st_[d[from]].affinity) {
                    end = i;
                    break;
                }
        for (std::size_t i = from; i < end; ++i) {
            const int x = d[i];
            if (st_[x].leader < leader) continue;
            i32 c = count(st_[x]);
            if (c >= needed && c < best_count) {
                best = x;
                best_count = c;
                found = true;
            }
        }
        return found ? best : d[from];
    }
    int best_fit_pods(const std::vector<int>& d, std::size_t from, i32 needed, i32 leader) const {
        if (leader > 0) return best_fit_by(d, from, needed, leader, [](const State& x) { return x.pod_wl; });
        return best_fit_by(d, from, needed, leader, [](const State& x) { return x.pod; });
    }
    int best_fit_slices(const std::vector<int>& d, std::size_t from, i32 needed, i32 leader) const {
        if (leader > 0) return best_fit_by(d, from, needed, leader, [](const State& x) { return x.slice_wl; });
        return best_fit_by(d, from, needed, leader, [](const State& x) { return x.slice; });
    }

    void fill_leaves(const PodSetRequest& w, const PodSetRequest* leader);
    void fill_up(int d, int level);
    std::string not_fit(i32 fit, i32 total) const;
    std::string multi_layer_not_fit(int level) const;
    std::string find_level(int level, int& fit_level, std::vector<int>& out);
    std::vector<int> prioritize_leader(const std::vector<int>& d, i32 count, i32 leader, i32 slice_size,
                                       bool slices) const;
    std::vector<int> update_counts(std::vector<int> d, i32 count, i32 leader, i32 slice_size, bool slices);
    Assignment build(std::vector<std::pair<int, i32>> d) const;
};

void Placer::fill_leaves(const PodSetRequest& w, const PodSetRequest* leader) {
    const Reqs req = resolve(s_, w.requests, true);
    Reqs lreq;
    if (leader) lreq = resolve(s_, leader->requests, true);
    std::vector<Toleration> tols = w.tolerations;
    tols.insert(tols.end(), s_.flavor_tolerations.begin(), s_.flavor_tolerations.end());
    std::vector<i64> rem(s_.resources.size());
    std::vector<int> limited(req.size(), 0);  // leaves where request k limits to zero pods
    for (const auto& leaf : s_.leaves) {
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
                    if (tolerates(tol, t)) {
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
                    bool all = true;
                    for (const auto& r : term.preference)
                        if (!requirement_matches(r, n.labels)) {
                            all = false;
                            break;
                        }
                    if (all) st_[leaf.domain].affinity += term.weight;
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
            rem[r] = o_.simulate_empty ? leaf.free[r] : sat_add(leaf.free[r], -leaf.tas_usage[r]);
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

// ---- balanced placement (tas_balanced_placement.go) ----

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

void add_assumed(const Snapshot& s, Placer& placer, const Assignment& a, const Amounts& per_pod) {
    const Reqs req = resolve(s, per_pod, false);
    for (const auto& d : a.domains) {
        auto leaf = s.leaf_by_id.find(domain_id(d.values));
        if (leaf == s.leaf_by_id.end()) continue;
        auto& u = placer.assumed[leaf->second];
        if (u.empty()) u.assign(s.resources.size(), 0);
        for (const auto& q : req)
            if (q.idx >= 0) u[q.idx] = sat_add(u[q.idx], sat_mul(q.value, d.count));
        u[s.resource_index("pods")] += d.count;
    }
}

bool stale(const Snapshot& s, const Assignment& a) {
    for (const auto& d : a.domains)
        if (!s.leaf_by_id.count(domain_id(d.values))) return true;
    return false;
}

// mergeTopologyAssignments: both lists in the order of their leaves' domain
// IDs (full values joined by ','), equal neighbours summed.
Assignment merge(const Snapshot& s, const Assignment& a, const Assignment& b) {
    std::vector<std::pair<std::string, DomainAssignment>> all;
    for (const auto* x : {&a, &b})
        for (const auto& d : x->domains) {
            const Domain& leaf = s.domains[s.leaves[s.leaf_by_id.at(domain_id(d.values))].domain];
            all.emplace_back(domain_id(leaf.values), d);
        }
    std::stable_sort(all.begin(), all.end(), [](const auto& x, const auto& y) { return x.first < y.first; });
    Assignment out;
    out.levels = a.levels;
    for (auto& [_, d] : all) {
        if (!out.domains.empty() && domain_id(out.domains.back().values) == domain_id(d.values))
            out.domains.back().count += d.count;
        else
            out.domains.push_back(d);
    }
    return out;
}

// handleElasticWorkload (tas_elastic_workloads.go): a replacement workload
// slice keeps its previous placement; a scale-up places only the new pods,
// a scale-down drops pods from the end. nullopt: not applicable (no or stale
// previous assignment), the normal placement runs; otherwise whether it
// succeeded (results appended to `out`).
std::optional<bool> elastic(const Snapshot& s, Placer& placer, const PodSetRequest& workers,
                            const PodSetRequest* leader, Outcome& out) {
    if (!workers.previous_assignment || stale(s, *workers.previous_assignment)) return std::nullopt;
    if (leader && leader->previous_assignment && stale(s, *leader->previous_assignment)) return std::nullopt;
    const Assignment& prev = *workers.previous_assignment;
    i32 previous = 0;
    for (const auto& d : prev.domains) previous += d.count;
    auto finalize = [&](const Assignment& wa) {
        out.podsets.push_back({workers.name, wa, ""});
        add_assumed(s, placer, wa, workers.requests);
        if (leader) {
            Assignment la = leader->previous_assignment ? *leader->previous_assignment : Assignment{};
            out.podsets.push_back({leader->name, la, ""});
            add_assumed(s, placer, la, leader->requests);
        }
        return true;
    };
    if (workers.count < previous) {
        // TruncateAssignment: keep the first domains up to the new count.
        Assignment t;
        t.levels = prev.levels;
        i32 remaining = workers.count;
        for (const auto& d : prev.domains) {
            if (remaining <= 0) break;
            t.domains.push_back({d.values, std::min(d.count, remaining)});
            remaining -= t.domains.back().count;
        }
        return finalize(t);
    }
    if (workers.count == previous) return finalize(prev);
    PodSetRequest delta = workers;
    delta.count = workers.count - previous;
    delta.previous_assignment.reset();
    add_assumed(s, placer, prev, workers.requests);
    const PodSetRequest* placement_leader = leader;
    if (leader && leader->previous_assignment) {
        add_assumed(s, placer, *leader->previous_assignment, leader->requests);
        placement_leader = nullptr;
    }
    std::optional<Assignment> wa, la;
    std::string reason = placer.place(delta, placement_leader, wa, la);
    if (!reason.empty()) {
        out.podsets.push_back({workers.name, std::nullopt, reason});
        return false;
    }
    Assignment merged = merge(s, *wa, prev);
    out.podsets.push_back({workers.name, merged, ""});
    if (leader) {
        if (leader->previous_assignment) {
            out.podsets.push_back({leader->name, *leader->previous_assignment, ""});
        } else {
            out.podsets.push_back({leader->name, la, ""});
            add_assumed(s, placer, *la, leader->requests);
        }
    }
    add_assumed(s, placer, *wa, workers.requests);
    return true;
}

// ---- failed-node replacement (findReplacementAssignment) ----

// requiredReplacementDomain: the domain the replacement pods must stay in.
std::string replacement_domain(const Snapshot& s, const Placer& placer, const PodSetRequest& r, i32 count,
                               const Assignment& ta) {
    std::string key;
    if (r.mode == Mode::Required || r.mode == Mode::Preferred) key = r.level;
    else if (r.mode == Mode::Unconstrained && !r.slices.empty() && r.level.empty()) key = s.levels.front();
    else key = s.levels.back();
    int level = placer.level_of_key(key);
    if (level < 0 || ta.domains.empty()) return "";
    if (!r.slices.empty() && r.slices.front().size <= 0) return "";
    const int node_level = static_cast<int>(s.levels.size()) - 1;
    auto ancestor_at = [&](const std::vector<std::string>& values, int lvl) -> int {
        auto leaf = s.leaf_by_id.find(domain_id(values));
        if (leaf == s.leaf_by_id.end()) return -1;
        int d = s.leaves[leaf->second].domain;
        for (int l = node_level; l > lvl; --l) d = s.domains[d].parent;
        return d;
    };
    // findIncompleteSliceDomain: the slice-level domain whose pods plus the
    // missing ones make whole slices (first by domain ID).
    auto incomplete = [&](i32 size, const std::string& topology) -> std::string {
        int lvl = placer.level_of_key(topology);
        if (lvl < 0) return "";
        std::map<std::string, i32> usage;
        for (const auto& d : ta.domains) {
            int a = ancestor_at(d.values, lvl);
            if (a >= 0) usage[placer.domain_id_of(a)] += d.count;
        }
        for (const auto& [id, n] : usage)
            if ((n + count) % size == 0) return id;
        return "";
    };
    if (!r.slices.empty() && count % r.slices.front().size != 0) {
        if (r.slices.size() > 1)
            for (auto it = r.slices.rbegin(); it != r.slices.rend(); ++it)
                if (count % it->size != 0) return incomplete(it->size, it->level);
        return incomplete(r.slices.front().size, r.slices.front().level);
    }
    if (r.mode != Mode::Required) return "";
    int d = ancestor_at(ta.domains.front().values, level);
    return d < 0 ? "" : placer.domain_id_of(d);
}

Outcome replace(const Snapshot& s, Placer& placer, const std::vector<PodSetRequest>& podsets,
                const std::vector<std::vector<std::size_t>>& groups, const NodeReplacement& nr) {
    Outcome out;
    for (const auto& g : groups)
        for (std::size_t i : g) {
            const PodSetRequest& r = podsets[i];
            if (!r.current_assignment) continue;  // nothing admitted for this podset
            if (nr.skip_pod_owned && nr.owned_by_single_pod) {
                // SkipReassignmentForPodOwnedWorkloads: the pod cannot move.
                out.podsets.push_back({r.name, *r.current_assignment, ""});
                continue;
            }
            Assignment existing = *r.current_assignment;
            i32 affected = 0;
            std::vector<DomainAssignment> kept;
            for (const auto& d : existing.domains) {
                if (!d.values.empty() && d.values.back() == nr.unhealthy_node) affected = d.count;
                else kept.push_back(d);
            }
            existing.domains = kept;
            auto fail = [&](std::string reason) {
                out.podsets.push_back({r.name, std::nullopt, std::move(reason)});
                return out;
            };
            for (const auto& d : existing.domains)
                if (!s.leaf_by_id.count(domain_id(d.values)))
                    return fail("Cannot replace the node, because the existing topologyAssignment is invalid, as it "
                                "contains the stale domain " + d.values.front());
            PodSetRequest copy = r;
            copy.count = affected;
            copy.previous_assignment.reset();
            const std::string domain = replacement_domain(s, placer, r, affected, existing);
            if (!r.slices.empty() && !domain.empty() && r.slices.front().size > 0 &&
                affected % r.slices.front().size != 0) {
                // The innermost layer whose size divides the replaced pods.
                copy.slices.clear();
                for (auto it = r.slices.rbegin(); it != r.slices.rend(); ++it)
                    if (affected % it->size == 0) {
                        copy.slices = {*it};
                        break;
                    }
                if (copy.slices.empty() && copy.mode == Mode::Unconstrained && copy.level.empty())
                    copy.mode = Mode::Implied;  // no slice left: Kueue finds no level either
            }
            placer.required_domain = domain;
            std::optional<Assignment> wa, la;
            std::string reason = placer.place(copy, nullptr, wa, la);
            placer.required_domain.clear();
            if (!reason.empty()) return fail(reason);
            if (!wa || wa->domains.empty())
                return fail("cannot find replacement assignment for unhealthy node: " + nr.unhealthy_node);
            out.podsets.push_back({r.name, merge(s, *wa, existing), ""});
            add_assumed(s, placer, *wa, r.requests);
        }
    return out;
}

std::string check_request(const PodSetRequest& p, const Options& o) {
    if (p.count < 0) return "podset \"" + p.name + "\": count " + std::to_string(p.count) + " is negative";
    for (const auto& [r, v] : p.requests)
        if (v < 0) return "podset \"" + p.name + "\": negative request for \"" + r + "\"";
    if ((p.mode == Mode::Required || p.mode == Mode::Preferred) && p.level.empty())
        return "podset \"" + p.name + "\": a required or preferred topology needs a level";
    if (o.require_slice_divides_count && !p.slices.empty() && p.slices.front().size > 0 &&
        p.count % p.slices.front().size != 0)
        return "podset \"" + p.name + "\": count " + std::to_string(p.count) + " is not a multiple of podset-slice-size " +
               std::to_string(p.slices.front().size);
    return "";
}

}  // namespace

bool Outcome::placed() const { return error.empty() && reason().empty(); }

std::string Outcome::reason() const {
    for (const auto& p : podsets)
        if (!p.reason.empty()) return p.reason;
    return "";
}

Outcome Topology::assign(const std::vector<PodSetRequest>& podsets, const Options& options) const {
    return assign_impl(podsets, options, nullptr);
}

Outcome Topology::replace_node(const std::vector<PodSetRequest>& podsets, const NodeReplacement& replacement,
                               const Options& options) const {
    return assign_impl(podsets, options, &replacement);
}

Outcome Topology::assign_impl(const std::vector<PodSetRequest>& podsets, const Options& options,
                              const NodeReplacement* replacement) const {
    Outcome out;
    const Snapshot& s = *impl_;
    // Groups in order of first appearance: podset-group-name, else alone.
    std::vector<std::vector<std::size_t>> groups;
    std::map<std::string, std::size_t> by_name;
    std::set<std::string> names;
    for (std::size_t i = 0; i < podsets.size(); ++i) {
        if (std::string e = check_request(podsets[i], options); !e.empty()) {
            out.error = e;
            return out;
        }
        if (!names.insert(podsets[i].name).second) {
            out.error = "podset \"" + podsets[i].name + "\" is given twice";
            return out;
        }
        if (podsets[i].group) {
            auto [it, inserted] = by_name.try_emplace(*podsets[i].group, groups.size());
            if (inserted) groups.emplace_back();
            groups[it->second].push_back(i);
        } else {
            groups.push_back({i});
        }
    }
    for (const auto& g : groups) {
        if (g.size() > 2) {
            out.error = "podset group \"" + *podsets[g[0]].group + "\" has " + std::to_string(g.size()) +
                        " podsets; a group is one leader and one worker podset";
            return out;
        }
        if (g.size() == 2 && std::min(podsets[g[0]].count, podsets[g[1]].count) != 1) {
            out.error = "podset group \"" + *podsets[g[0]].group + "\": the leader podset must have count 1";
            return out;
        }
    }

    Placer placer(s, options);
    if (replacement) return replace(s, placer, podsets, groups, *replacement);
    for (const auto& g : groups) {
        // findLeaderAndWorkers: the second podset leads unless its count is
        // larger than the first's.
        std::size_t wi = g[0];
        std::optional<std::size_t> li;
        if (g.size() > 1) {
            li = g[1];
            if (podsets[g[1]].count > podsets[g[0]].count) {
                li = g[0];
                wi = g[1];
            }
        }
        if (options.elastic_workload_slices) {
            if (auto handled = elastic(s, placer, podsets[wi], li ? &podsets[*li] : nullptr, out)) {
                if (!*handled) return out;
                continue;
            }
        }
        std::optional<Assignment> wa, la;
        std::string reason = placer.place(podsets[wi], li ? &podsets[*li] : nullptr, wa, la);
        for (std::size_t i : g) {
            PodSetResult r;
            r.name = podsets[i].name;
            r.reason = reason;
            if (reason.empty()) r.assignment = i == wi ? wa : la;
            out.podsets.push_back(std::move(r));
        }
        if (!reason.empty()) return out;
        // The usage of this group is seen by the next ones (assumedUsage).
        for (std::size_t i : g) add_assumed(s, placer, i == wi ? *wa : *la, podsets[i].requests);
    }
    return out;
}

namespace {

// The usage of the pods of `outcome`'s placements, added (sign 1) or taken
// away (sign -1) on the leaves they name.
void change_placed_usage(Topology& t, const std::vector<PodSetRequest>& podsets, const Outcome& outcome, int sign) {
    for (const auto& r : outcome.podsets) {
        if (!r.assignment) continue;
        const PodSetRequest* p = nullptr;
        for (const auto& q : podsets)
            if (q.name == r.name) p = &q;
        if (!p) continue;
        for (const auto& d : r.assignment->domains) {
            if (sign > 0) t.add_usage(d.values, p->requests, d.count);
            else t.remove_usage(d.values, p->requests, d.count);
        }
    }
}

}  // namespace

void Topology::commit(const std::vector<PodSetRequest>& podsets, const Outcome& outcome) {
    change_placed_usage(*this, podsets, outcome, 1);
}

void Topology::release(const std::vector<PodSetRequest>& podsets, const Outcome& outcome) {
    change_placed_usage(*this, podsets, outcome, -1);
}

bool Topology::change_usage(const std::vector<std::string>& values, const Amounts& per_pod, std::int32_t count, int sign) {
    Snapshot& s = *impl_;
    std::string id;
    for (std::size_t k = 0; k < values.size(); ++k) id += (k ? "," : "") + values[k];
    auto leaf = s.leaf_by_id.find(id);
    if (leaf == s.leaf_by_id.end()) return false;
    // A resource no node has gets no column: nothing can be placed against it.
    const Reqs req = resolve(s, per_pod, false);
    auto& u = s.leaves[leaf->second].tas_usage;
    auto apply = [&](std::size_t idx, std::int64_t amount) {
        // Taking away never goes below zero: usage that was not recorded
        // (a node that went away, a double release) is not invented.
        u[idx] = sign > 0 ? sat_add(u[idx], amount) : std::max<std::int64_t>(0, u[idx] - amount);
    };
    for (const auto& q : req)
        if (q.idx >= 0) apply(static_cast<std::size_t>(q.idx), sat_mul(q.value, count));
    apply(static_cast<std::size_t>(s.resource_index("pods")), count);
    return true;
}

bool Topology::fits(const std::vector<std::string>& values, const Amounts& per_pod, std::int32_t count) const {
    const Snapshot& s = *impl_;
    std::string id;
    for (std::size_t k = 0; k < values.size(); ++k) id += (k ? "," : "") + values[k];
    auto leaf = s.leaf_by_id.find(id);
    if (leaf == s.leaf_by_id.end()) return false;
    const Leaf& l = s.leaves[leaf->second];
    std::vector<i64> rem(s.resources.size());
    for (std::size_t r = 0; r < rem.size(); ++r) rem[r] = sat_add(l.free[r], -l.tas_usage[r]);
    return count_in(resolve(s, per_pod, true), rem.data()).first >= count;
}

void Topology::clear_usage() {
    for (auto& l : impl_->leaves) std::fill(l.tas_usage.begin(), l.tas_usage.end(), 0);
}

bool Topology::add_usage(const std::vector<std::string>& values, const Amounts& per_pod, std::int32_t count) {
    return change_usage(values, per_pod, count, 1);
}

bool Topology::remove_usage(const std::vector<std::string>& values, const Amounts& per_pod, std::int32_t count) {
    return change_usage(values, per_pod, count, -1);
}

}  // namespace queueforge::topology
