// Admission changes: the same sample workloads (and running workloads, when
// a cluster snapshot is given) simulated on both sides.
#include "integrations/diff/compare.hpp"

#include <queueforge/engines/scenarios.hpp>

#include <algorithm>
#include <map>
#include <set>

namespace queueforge::diff::detail {

namespace {

std::string describe(const scheduler::WorkloadOutcome& w) {
    if (w.admitted) {
        std::set<std::string> flavors;
        for (const auto& a : w.assignments)
            for (const auto& [res, f] : a.flavors) flavors.insert(f);
        std::string on;
        for (const auto& f : flavors) on += (on.empty() ? "" : ", ") + f;
        return "Admitted on " + on + (w.borrowing ? " (borrowing)" : "");
    }
    if (w.preempted) return "Preempted" + (w.preemption_reason.empty() ? "" : " (" + w.preemption_reason + ")");
    return "Pending" + (w.reason.empty() ? "" : ": " + w.reason);
}

std::set<std::string> flavors_of(const scheduler::WorkloadOutcome& w) {
    std::set<std::string> out;
    for (const auto& a : w.assignments)
        for (const auto& [res, f] : a.flavors) out.insert(f);
    return out;
}

// diff --fail-on regression: admitted before; after, not admitted (pending,
// preempted, or a running workload that loses its quota) or admitted without
// one of the flavors it had. A sample that is new, or gone, is not one.
bool is_regression(const scheduler::WorkloadOutcome* before, const scheduler::WorkloadOutcome* after, const std::string& impact) {
    if (!impact.empty()) return true;
    if (!before || !after || !before->admitted) return false;
    if (!after->admitted) return true;
    const auto had = flavors_of(*before), has = flavors_of(*after);
    return !std::includes(has.begin(), has.end(), had.begin(), had.end());
}

std::map<std::string, const scenarios::SampleReport*> by_key(const scenarios::Report& r) {
    std::map<std::string, const scenarios::SampleReport*> out;
    for (const auto& s : r.workloads) out[s.together.namespace_ + "/" + s.together.name] = &s;
    return out;
}

}  // namespace

void diff_admissions(const std::vector<std::string>& base_paths, const std::vector<std::string>& head_paths,
                     const Options& opts, Review& r, Diagnostics& diags) {
    Diagnostics quiet;  // both builds already reported their findings
    auto base = scenarios::run({base_paths, opts.target, 0}, quiet);
    auto head = scenarios::run({head_paths, opts.target, 0}, quiet);
    if (!base || !head) {
        diags.warning("", {}, "the sample workloads could not be simulated on both sides; admission changes are not shown",
                      "review.no-simulation");
        return;
    }
    r.simulated = true;
    auto a = by_key(*base), b = by_key(*head);
    std::set<std::string> keys;
    for (const auto& [k, s] : a) keys.insert(k);
    for (const auto& [k, s] : b) keys.insert(k);
    for (const auto& k : keys) {
        auto ia = a.find(k), ib = b.find(k);
        const scheduler::WorkloadOutcome* wa = ia == a.end() ? nullptr : &ia->second->together;
        const scheduler::WorkloadOutcome* wb = ib == b.end() ? nullptr : &ib->second->together;
        const scheduler::WorkloadOutcome* any = wa ? wa : wb;
        if (!any) continue;  // cannot happen: every key came from one side
        AdmissionChange c;
        c.namespace_ = any->namespace_;
        c.name = any->name;
        c.running = any->held_before;
        c.before = wa ? describe(*wa) : "(not in the base)";
        c.after = wb ? describe(*wb) : "(not in the head)";
        if (c.running && wb) {
            if (wb->preempted && !(wa && wa->preempted)) c.impact = "preempted";
            else if (!wb->admitted && (!wa || wa->admitted)) c.impact = "loses its quota";
        }
        c.regression = is_regression(wa, wb, c.impact);
        if (c.before != c.after || !c.impact.empty()) r.admissions.push_back(std::move(c));
    }
}

void find_blocked_deletions(const std::vector<Resource>& running, Review& r) {
    for (const auto& change : r.objects) {
        if (change.change != "Removed" || (change.kind != "ClusterQueue" && change.kind != "ResourceFlavor")) continue;
        BlockedDeletion b{change.kind, change.name, {}};
        for (const auto& w : running) {
            if (w.ref.kind != "Workload") continue;
            const Node* status = w.doc.find("status");
            const Node* adm = status ? status->find("admission") : nullptr;
            if (!adm || !adm->is_map()) continue;
            bool uses = false;
            if (change.kind == "ClusterQueue") {
                const Node* cq = adm->find("clusterQueue");
                uses = cq && cq->is_scalar() && cq->text() == change.name;
            } else if (const Node* psa = adm->find("podSetAssignments"); psa && psa->is_seq()) {
                for (const auto& p : psa->items())
                    if (const Node* fl = p.is_map() ? p.find("flavors") : nullptr; fl && fl->is_map())
                        for (const auto& e : fl->entries())
                            if (e.value.is_scalar() && e.value.text() == change.name) uses = true;
            }
            if (uses) b.used_by.push_back((w.ref.namespace_.empty() ? "default" : w.ref.namespace_) + "/" + w.ref.name);
        }
        if (!b.used_by.empty()) r.blocked.push_back(std::move(b));
    }
}

}  // namespace queueforge::diff::detail
