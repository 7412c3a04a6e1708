#include "engines/scheduler/matching.hpp"

#include <algorithm>

namespace queueforge::scheduler::detail {

namespace {

// One requirement against a label set; an operator Kueue would not accept
// matches nothing.
bool requirement_matches(const SelectorReq& r, const Labels& labels) {
    return model::requirement_matches(r.key, r.op, r.values, labels, model::Operators::NodeSelector).value_or(false);
}

using model::tolerates;

}  // namespace

bool selector_matches(const LabelSelector& s, const Labels& labels) {
    if (s.nothing) return false;
    for (const auto& [k, v] : s.match_labels)
        if (!model::label_matches(k, v, labels)) return false;
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

}  // namespace queueforge::scheduler::detail
