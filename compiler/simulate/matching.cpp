#include "simulate/matching.hpp"

#include <algorithm>
#include <charconv>

namespace queueforge::sim::detail {

namespace {

bool has_value(const std::vector<std::string>& vals, const std::string& v) {
    return std::find(vals.begin(), vals.end(), v) != vals.end();
}

std::optional<std::int64_t> to_int64(const std::string& s) {
    std::int64_t v = 0;
    auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (ec != std::errc() || p != s.data() + s.size()) return std::nullopt;
    return v;
}

// One requirement against a label set (labels.Requirement.Matches and the
// node-affinity operators Gt/Lt).
bool requirement_matches(const SelectorReq& r, const Labels& labels) {
    auto it = labels.find(r.key);
    bool has = it != labels.end();
    if (r.op == "In") return has && has_value(r.values, it->second);
    if (r.op == "NotIn") return !has || !has_value(r.values, it->second);
    if (r.op == "Exists") return has;
    if (r.op == "DoesNotExist") return !has;
    if (r.op == "Gt" || r.op == "Lt") {
        if (!has || r.values.size() != 1) return false;
        auto lv = to_int64(it->second), rv = to_int64(r.values[0]);
        if (!lv || !rv) return false;
        return r.op == "Gt" ? *lv > *rv : *lv < *rv;
    }
    return false;
}

bool tolerates(const Toleration& t, const Taint& taint) {
    if (!t.effect.empty() && t.effect != taint.effect) return false;
    if (!t.key.empty() && t.key != taint.key) return false;
    if (t.op == "Exists") return true;
    if (t.op.empty() || t.op == "Equal") return t.value == taint.value;
    return false;
}

}  // namespace

bool selector_matches(const LabelSelector& s, const Labels& labels) {
    if (s.nothing) return false;
    for (const auto& [k, v] : s.match_labels) {
        auto it = labels.find(k);
        if (it == labels.end() || it->second != v) return false;
    }
    for (const auto& r : s.exprs)
        if (!requirement_matches(r, labels)) return false;
    return true;
}

std::optional<Taint> untolerated_taint(const Flavor& f, const PodSetSpec& ps) {
    for (const auto& taint : f.taints) {
        if (taint.effect != "NoSchedule" && taint.effect != "NoExecute") continue;
        bool ok = false;
        for (const auto& t : ps.tolerations) ok = ok || tolerates(t, taint);
        for (const auto& t : f.tolerations) ok = ok || tolerates(t, taint);
        if (!ok) return taint;
    }
    return std::nullopt;
}

std::string taint_string(const Taint& t) {
    return "{" + t.key + " " + t.value + " " + t.effect + " " + (t.time_added.empty() ? "<nil>" : t.time_added) + "}";
}

bool flavor_matches_affinity(const Flavor& f, const PodSetSpec& ps) {
    // nodeSelector entries with keys the flavor does not label are dropped.
    for (const auto& [k, v] : ps.node_selector) {
        if (!f.labels.count(k)) continue;
        if (f.labels.at(k) != v) return false;
    }
    if (!ps.has_required_affinity) return true;
    // Keep only expressions on this flavor's keys; a term left empty makes
    // the whole required affinity match anything (the terms are ORed).
    std::vector<std::vector<SelectorReq>> terms;
    for (const auto& term : ps.affinity_terms) {
        std::vector<SelectorReq> kept;
        for (const auto& e : term.exprs)
            if (f.labels.count(e.key)) kept.push_back(e);
        if (kept.empty()) return true;
        terms.push_back(std::move(kept));
    }
    if (terms.empty()) return true;
    for (const auto& term : terms) {
        bool all = true;
        for (const auto& e : term) all = all && requirement_matches(e, f.labels);
        if (all) return true;
    }
    return false;
}

}  // namespace queueforge::sim::detail
