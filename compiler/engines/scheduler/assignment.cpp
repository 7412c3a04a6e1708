// flavorassigner.Assignment / PodSetAssignment / Status: representative
// modes and the inadmissible message (kueue-semantics.md 5.5.3, 5.10).
#include "engines/scheduler/sched.hpp"

#include <algorithm>

namespace queueforge::scheduler::detail {

std::string Status::message() const {
    if (!err.empty()) return err;
    std::vector<std::string> r = reasons;
    std::sort(r.begin(), r.end());
    std::string out;
    for (std::size_t i = 0; i < r.size(); ++i) out += (i ? ", " : "") + r[i];
    return out;
}

Mode PodSetAssignment::rep_mode() const {
    if (status.fit()) return Mode::Fit;
    if (!status.err.empty()) return Mode::NoFit;
    if (flavors.empty()) return Mode::NoFit;
    Mode m = Mode::Fit;
    for (const auto& [res, fa] : flavors) m = std::min(m, fa.mode);
    return m;
}

Mode Assignment::rep_mode() const {
    if (podsets.empty()) return Mode::NoFit;
    if (rep_override) return *rep_override;
    Mode m = Mode::Fit;
    for (const auto& ps : podsets) m = std::min(m, ps.rep_mode());
    return m;
}

void Assignment::set_rep_mode(Mode m) {
    rep_override = m;
    for (auto& ps : podsets)
        for (auto& [res, fa] : ps.flavors) fa.mode = m;
}

void Assignment::update_mode(std::size_t podset, Mode m) {
    if (podset >= podsets.size()) return;
    for (auto& [res, fa] : podsets[podset].flavors) fa.mode = m;
    rep_override = m;
}

std::string Assignment::message(const Model&) const {
    std::string out;
    for (const auto& ps : podsets) {
        if (ps.status.fit()) continue;
        if (!ps.status.err.empty()) return "failed to assign flavors to pod set " + ps.name + ": " + ps.status.err;
        if (!out.empty()) out += "; ";
        out += "couldn't assign flavors to pod set " + ps.name + ": " + ps.status.message();
    }
    return out;
}

}  // namespace queueforge::scheduler::detail
