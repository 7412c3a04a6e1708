// Quota cuts below what is in use: a ClusterQueue's nominalQuota for a
// (flavor, resource) that the change lowers under the sum of the
// resourceUsage of the running workloads admitted there (their
// status.admission.podSetAssignments). Kueue does not evict them for it, but
// the queue then sits above its quota: nothing new is admitted there until
// usage drops, and what is above nominal counts as borrowed from the cohort.
#include "integrations/diff/compare.hpp"

#include <queueforge/base/quantity.hpp>

#include <map>

namespace queueforge::diff::detail {

namespace {

struct Usage {
    Quantity total;
    std::vector<std::string> workloads;
};

// (ClusterQueue, flavor, resource) -> what the running workloads admitted there use.
std::map<std::tuple<std::string, std::string, std::string>, Usage> usage_of(const std::vector<Resource>& running) {
    std::map<std::tuple<std::string, std::string, std::string>, Usage> out;
    for (const auto& w : running) {
        if (w.ref.kind != "Workload") continue;
        const Node* status = w.doc.find("status");
        const Node* adm = status && status->is_map() ? status->find("admission") : nullptr;
        const Node* cq = adm && adm->is_map() ? adm->find("clusterQueue") : nullptr;
        const Node* psa = adm && adm->is_map() ? adm->find("podSetAssignments") : nullptr;
        if (!cq || !cq->is_scalar() || !psa || !psa->is_seq()) continue;
        const std::string who = (w.ref.namespace_.empty() ? "default" : w.ref.namespace_) + "/" + w.ref.name;
        for (const auto& p : psa->items()) {
            const Node* flavors = p.is_map() ? p.find("flavors") : nullptr;
            const Node* used = p.is_map() ? p.find("resourceUsage") : nullptr;
            if (!flavors || !flavors->is_map() || !used || !used->is_map()) continue;
            for (const auto& e : used->entries()) {
                const Node* flavor = flavors->find(e.key);
                if (!flavor || !flavor->is_scalar() || !e.value.is_scalar()) continue;
                auto q = Quantity::parse(e.value.text());
                if (!q) continue;  // the running snapshot's own loader reports bad quantities
                auto& u = out[{cq->text(), flavor->text(), e.key}];
                if (auto sum = u.total.add(*q)) u.total = *sum;
                if (u.workloads.empty() || u.workloads.back() != who) u.workloads.push_back(who);
            }
        }
    }
    return out;
}

}  // namespace

void find_quota_below_usage(const std::vector<Resource>& running, Review& r) {
    if (running.empty()) return;
    const auto usage = usage_of(running);
    for (const auto& q : r.quotas) {
        if (q.field != "nominalQuota") continue;
        auto it = usage.find({q.cluster_queue, q.flavor, q.resource});
        if (it == usage.end() || it->second.total.is_zero()) continue;
        const auto after = q.after.empty() ? std::optional<Quantity>(Quantity{}) : Quantity::parse(q.after);
        if (!after || !(*after < it->second.total)) continue;
        if (!q.before.empty())
            if (auto before = Quantity::parse(q.before); before && *before < it->second.total) continue;  // already below
        r.below_usage.push_back({q.cluster_queue, q.flavor, q.resource, q.after.empty() ? "0" : q.after,
                                 it->second.total.to_string(), it->second.workloads});
    }
}

}  // namespace queueforge::diff::detail
