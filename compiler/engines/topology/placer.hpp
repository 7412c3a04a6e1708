#pragma once
// The placement algorithm's internals, shared by the files of this folder:
// per-domain counts (State), exclusion statistics (Stats), resolved requests
// and their arithmetic, node matching, and the Placer, which places one
// podset on a Snapshot (placer.cpp: fill counts, pick the level and the
// domains; balanced.cpp: TASBalancedPlacement; elastic.cpp: workload slices;
// replacement.cpp: failed-node replacement; assign.cpp: Topology::assign).
// Kueue ff69552e: pkg/cache/scheduler/tas_flavor_snapshot.go and
// scheduling_simulator_default.go, read for the facts.
#include "engines/topology/snapshot.hpp"

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cstdlib>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace queueforge::topology::detail {


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

inline Reqs resolve(const Snapshot& s, const Amounts& a, bool add_pod) {
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
inline i32 clamp32(i64 v) { return static_cast<i32>(std::max<i64>(INT32_MIN, std::min<i64>(v, INT32_MAX))); }

inline i64 sat_mul(i64 a, i64 b) {
    i64 r;
    if (__builtin_mul_overflow(a, b, &r)) return (a < 0) != (b < 0) ? INT64_MIN : INT64_MAX;
    return r;
}

inline i64 sat_add(i64 a, i64 b) {
    i64 r;
    if (__builtin_add_overflow(a, b, &r)) return b < 0 ? INT64_MIN : INT64_MAX;
    return r;
}

inline std::string domain_id(const std::vector<std::string>& values) {
    std::string id;
    for (std::size_t k = 0; k < values.size(); ++k) {
        if (k) id += ',';
        id += values[k];
    }
    return id;
}

inline std::pair<i32, int> count_in(const Reqs& r, const i64* cap) {
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

inline std::string taint_text(const Taint& t) {
    // corev1.Taint.ToString
    if (t.effect.empty()) return t.value.empty() ? t.key : t.key + "=" + t.value + ":";
    return t.value.empty() ? t.key + ":" + t.effect : t.key + "=" + t.value + ":" + t.effect;
}

// Every requirement of a node selector term holds (corev1 nodeaffinity).
inline bool term_matches(const std::vector<LabelRequirement>& term, const std::map<std::string, std::string>& labels) {
    for (const auto& r : term)
        if (!model::requirement_matches(r.key, r.op, r.values, labels, model::Operators::NodeSelector).value_or(false))
            return false;
    return true;
}

inline bool affinity_matches(const NodeSelectorTerms& terms, const std::map<std::string, std::string>& labels) {
    for (const auto& term : terms)
        if (!term.empty() && term_matches(term, labels)) return true;  // an empty term selects nothing
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
    // `usage`: the topology's recorded placements, leaf * resources + resource.
    Placer(const Snapshot& s, const std::int64_t* usage, const Options& o)
        : s_(s), usage_(usage), o_(o), st_(s.domains.size()) {}

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
    const std::int64_t* usage_;
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

// The usage of a placed podset, seen by the podsets placed after it in the
// same call (assumedUsage).
void add_assumed(const Snapshot& s, Placer& placer, const Assignment& a, const Amounts& per_pod);
// A previous assignment naming a leaf the snapshot no longer has.
bool stale(const Snapshot& s, const Assignment& a);
Assignment merge(const Snapshot& s, const Assignment& a, const Assignment& b);
std::optional<bool> elastic(const Snapshot& s, Placer& placer, const PodSetRequest& workers,
                            const PodSetRequest* leader, Outcome& out);
Outcome replace(const Snapshot& s, Placer& placer, const std::vector<PodSetRequest>& podsets,
                const std::vector<std::vector<std::size_t>>& groups, const NodeReplacement& nr);

}  // namespace queueforge::topology::detail
