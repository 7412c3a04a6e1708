// Admission Fair Sharing: see admission_fair_sharing.hpp for the Kueue
// sources each part follows.
#include "engines/scheduler/admission_fair_sharing.hpp"

#include "engines/scheduler/model.hpp"

#include <charconv>
#include <cmath>
#include <limits>

namespace queueforge::scheduler::detail {

namespace afs {

double seconds(std::int64_t ns) {
    const std::int64_t sec = ns / 1000000000LL, nsec = ns % 1000000000LL;
    return static_cast<double>(sec) + static_cast<double>(nsec) / 1e9;
}

double alpha_rate(double sampling_s, double half_life_s) {
    if (half_life_s == 0) return 0.0;
    return 1.0 - std::pow(0.5, sampling_s / half_life_s);
}

int128 mul_by_float(int128 nano, double f) {
    if (nano == 0 || f == 0) return 0;
    char buf[400];
    auto [end, ec] = std::to_chars(buf, buf + sizeof buf, f, std::chars_format::fixed);
    if (ec != std::errc()) return 0;
    bool neg = false;
    int128 digits = 0;
    int scale = 0;
    bool frac = false;
    int significant = 0;
    for (const char* p = buf; p != end; ++p) {
        if (*p == '-') neg = true;
        else if (*p == '.') frac = true;
        else {
            if (significant > 0 || *p != '0') ++significant;
            if (significant > 30) {  // beyond any double's digits: cannot happen for shortest output
                if (!frac) return 0;
                continue;
            }
            digits = digits * 10 + (*p - '0');
            if (frac) ++scale;
        }
    }
    // nano * digits / 10^scale, truncated toward zero (inf.RoundDown).
    const int128 kMax = std::numeric_limits<int128>::max();
    const int128 mag = nano < 0 ? -nano : nano;
    int128 result;
    if (digits != 0 && mag > kMax / digits) {
        long double v = static_cast<long double>(mag) * static_cast<long double>(f < 0 ? -f : f);
        result = static_cast<int128>(v);
    } else {
        int128 prod = mag * digits;
        int s = scale;
        while (s > 0 && prod != 0) {
            prod /= 10;
            --s;
        }
        result = prod;
    }
    if (neg) result = -result;
    return nano < 0 ? -result : result;
}

NanoList mul_by_float(const NanoList& l, double f) {
    NanoList out;
    for (const auto& [k, v] : l) out[k] = mul_by_float(v, f);
    return out;
}

NanoList merge_keep_sum(const NanoList& a, const NanoList& b) {
    NanoList out = a;
    for (const auto& [k, v] : b) out[k] += v;
    return out;
}

double approximate_float(int128 nano) {
    if (nano == 0) return 0;
    // The decimal (unscaled, scale) with the fewest digits, then
    // float64(unscaled) * 10^-scale as Go's AsApproximateFloat64 does.
    int scale = 9;
    while (scale > 0 && nano % 10 == 0) {
        nano /= 10;
        --scale;
    }
    const double base = static_cast<double>(nano);
    if (scale == 0) return base;
    static const double kPow10[] = {1e0, 1e-1, 1e-2, 1e-3, 1e-4, 1e-5, 1e-6, 1e-7, 1e-8, 1e-9};
    return base * kPow10[scale];
}

double usage(const NanoList& consumed, const NanoList& penalty, double lq_weight,
             const std::map<std::string, double>& weights) {
    const NanoList all = merge_keep_sum(consumed, penalty);
    double u = 0;
    for (const auto& [name, v] : all) {  // sorted names, as Kueue iterates
        auto it = weights.find(name);
        const double w = it == weights.end() ? 1.0 : it->second;
        u += w * approximate_float(v);
    }
    if (lq_weight <= 0) return std::numeric_limits<double>::infinity();
    return u / lq_weight;
}

NanoList entry_penalty(const NanoList& total_requests, const AfsConfig& cfg) {
    return mul_by_float(total_requests, alpha_rate(seconds(cfg.sampling_ns), seconds(cfg.half_life_ns)));
}

NanoList decayed_consumed(const NanoList& old_usage, const NanoList& new_usage, double elapsed_s, double half_life_s) {
    const double a = alpha_rate(elapsed_s, half_life_s);
    return merge_keep_sum(mul_by_float(old_usage, 1 - a), mul_by_float(new_usage, a));
}

}  // namespace afs

namespace {

void subtract(NanoList& from, const NanoList& what) {
    for (const auto& [k, v] : what) {
        auto it = from.find(k);
        if (it == from.end()) continue;
        it->second -= v;
        if (it->second == 0) from.erase(it);  // WithoutPenalty drops explicit zeros
    }
}

}  // namespace

bool AfsLedger::enabled_for_cq(const Model& m, int cq) const {
    return cq >= 0 && m.config.afs && m.config.afs_gate && m.cqs[cq].usage_based_afs;
}

void AfsLedger::init(const Model& m) {
    entries_.assign(m.lqs.size(), std::nullopt);
    if (!m.config.afs || !m.config.afs_gate) return;
    for (std::size_t i = 0; i < m.lqs.size(); ++i) {
        if (!enabled_for_cq(m, m.lqs[i].cq)) continue;
        AfsEntry e;
        e.resources = m.lqs[i].afs_consumed;
        e.last_update = clock_;
        entries_[i] = std::move(e);
    }
}

const AfsEntry* AfsLedger::entry(int lq) const {
    if (lq < 0 || lq >= static_cast<int>(entries_.size()) || !entries_[lq]) return nullptr;
    return &*entries_[lq];
}

double AfsLedger::usage(const Model& m, int lq) const {
    const AfsEntry* e = entry(lq);
    if (!e) return afs::usage({}, {}, lq >= 0 ? m.lqs[lq].afs_weight : 1.0, m.config.afs ? m.config.afs->resource_weights
                                                                                          : std::map<std::string, double>{});
    if (!e->usage_cache)
        e->usage_cache = afs::usage(e->resources, e->pending, m.lqs[lq].afs_weight, m.config.afs->resource_weights);
    return *e->usage_cache;
}

NanoList AfsLedger::usage_of(const Model& m, const Workload& w) const {
    // The admitted usage per resource name, over flavors (FlattenFlavors).
    NanoList out;
    for (const auto& [fr, v] : w.usage) {
        const int res = m.fr_resource(fr);
        const int128 nano = m.is_cpu(res) ? static_cast<int128>(v) * 1000000 : static_cast<int128>(v) * 1000000000;
        out[m.res_name(res)] += nano;
    }
    return out;
}

void AfsLedger::push_penalty(int lq, int wl, const NanoList& penalty, std::int64_t now_ns) {
    if (lq < 0 || lq >= static_cast<int>(entries_.size())) return;
    if (!entries_[lq]) {
        entries_[lq].emplace();
        entries_[lq]->last_update = now_ns;
    }
    AfsEntry& e = *entries_[lq];
    if (auto it = e.records.find(wl); it != e.records.end()) {
        subtract(e.pending, it->second);
        e.records.erase(it);
    }
    e.records[wl] = penalty;
    e.pending = afs::merge_keep_sum(e.pending, penalty);
    e.usage_cache.reset();
}

std::optional<NanoList> AfsLedger::sub_penalty(int lq, int wl) {
    if (lq < 0 || lq >= static_cast<int>(entries_.size()) || !entries_[lq]) return std::nullopt;
    AfsEntry& e = *entries_[lq];
    auto it = e.records.find(wl);
    if (it == e.records.end()) return std::nullopt;
    NanoList removed = std::move(it->second);
    e.records.erase(it);
    subtract(e.pending, removed);
    e.usage_cache.reset();
    return removed;
}

const NanoList& AfsLedger::pending(int lq) const {
    static const NanoList kNone;
    const AfsEntry* e = entry(lq);
    return e ? e->pending : kNone;
}

bool AfsLedger::has_pending(int lq) const {
    for (const auto& [k, v] : pending(lq))
        if (v != 0) return true;
    return false;
}

void AfsLedger::settle(const Model& m, int lq, int wl) {
    if (lq < 0 || lq >= static_cast<int>(entries_.size()) || !entries_[lq]) return;
    AfsEntry& e = *entries_[lq];
    const double elapsed = afs::seconds(std::max<std::int64_t>(0, clock_ - e.last_update));
    NanoList decayed = afs::decayed_consumed(e.resources, e.live, elapsed, afs::seconds(m.config.afs->half_life_ns));
    const std::optional<NanoList> penalty = sub_penalty(lq, wl);
    e.resources = penalty ? afs::merge_keep_sum(decayed, *penalty) : std::move(decayed);
    e.last_update = std::max(e.last_update, clock_);
    e.usage_cache.reset();
}

void AfsLedger::admitted(const Model& m, int wl) {
    const Workload& w = m.wls[wl];
    // shouldApplyEntryPenalty: AFS configured and gated on, a usage-based
    // ClusterQueue, a workload not already reserving quota (the simulator
    // reports admissions of pending workloads only).
    if (w.lq < 0 || w.lq >= static_cast<int>(entries_.size()) || !entries_[w.lq] || !enabled_for_cq(m, w.adm_cq)) return;
    const NanoList used = usage_of(m, w);
    AfsEntry& e = *entries_[w.lq];
    e.live = afs::merge_keep_sum(e.live, used);
    push_penalty(w.lq, wl, afs::entry_penalty(used, *m.config.afs), clock_);
    // The transition into Admitted (no admission checks: the same instant).
    settle(m, w.lq, wl);
}

void AfsLedger::released(const Model& m, int wl) {
    const Workload& w = m.wls[wl];
    if (w.lq < 0 || w.lq >= static_cast<int>(entries_.size()) || !entries_[w.lq] || !enabled_for_cq(m, w.adm_cq)) return;
    AfsEntry& e = *entries_[w.lq];
    subtract(e.live, usage_of(m, w));
    for (auto it = e.live.begin(); it != e.live.end();) it = it->second == 0 ? e.live.erase(it) : std::next(it);
    sub_penalty(w.lq, wl);  // a penalty that can no longer settle
}

void AfsLedger::advance(const Model& m, std::int64_t now_ns) {
    if (!m.config.afs || !m.config.afs_gate) return;
    if (!started_) {
        // The LocalQueue controller's first reconcile: LastUpdate = now.
        started_ = true;
        clock_ = now_ns;
        for (auto& e : entries_)
            if (e) e->last_update = now_ns;
        return;
    }
    if (now_ns <= clock_) return;
    clock_ = now_ns;
    const std::int64_t interval = m.config.afs->sampling_ns;
    const double half_life = afs::seconds(m.config.afs->half_life_ns);
    for (auto& slot : entries_) {
        if (!slot) continue;
        AfsEntry& e = *slot;
        if (interval <= 0 || e.last_update + interval > now_ns) continue;
        // Nothing to decay and nothing to fold: the samples change nothing.
        const std::int64_t due = (now_ns - e.last_update) / interval;
        if (e.resources.empty() && e.live.empty()) {
            e.last_update += due * interval;
            continue;
        }
        for (std::int64_t k = 0; k < due; ++k) {
            if (half_life == 0) {
                e.resources.clear();  // reconcileConsumedUsage: half-life 0 resets the history
            } else {
                e.resources = afs::decayed_consumed(e.resources, e.live, afs::seconds(interval), half_life);
            }
            e.last_update += interval;
        }
        e.usage_cache.reset();
    }
}

}  // namespace queueforge::scheduler::detail
