// Reading Admission Fair Sharing from the input (admission_fair_sharing.hpp):
// the ClusterQueue's admissionScope, the LocalQueue's fairSharing.weight and
// its persisted admissionFairSharingStatus. The Configuration's
// admissionFairSharing is read with the rest of it (model/kueue_config.hpp).
#include "engines/scheduler/afs_build.hpp"

#include <cmath>
#include <set>

namespace queueforge::scheduler::detail {

void read_cq_afs(const Reader& rd, const Node* spec, ClusterQueue& cq) {
    const Node* scope = rd.map_at(spec, "admissionScope");
    if (!scope) return;
    const Node* mode = scope->find("admissionMode");
    const std::string t = scalar_text(mode);
    if (t == "UsageBasedAdmissionFairSharing") cq.usage_based_afs = true;
    else if (!t.empty() && t != "NoAdmissionFairSharing")
        rd.error(mode, "spec.admissionScope.admissionMode: Unsupported value: \"" + t +
                           "\": supported values: \"UsageBasedAdmissionFairSharing\", \"NoAdmissionFairSharing\"");
}

void read_lq_afs(const Reader& rd, const Node* doc, LocalQueue& lq) {
    const Node* spec = doc ? doc->find("spec") : nullptr;
    if (const Node* fs = spec && spec->is_map() ? rd.map_at(spec, "fairSharing") : nullptr) {
        if (const Node* w = fs->find("weight"); w && !w->is_null()) {
            if (auto q = rd.quantity(w, "fairSharing.weight")) {
                lq.afs_weight = quantity_to_double(*q);
                if (q->sign() < 0)
                    rd.warning(w, "LocalQueue fairSharing.weight is negative: Kueue's admission fair sharing gives it an infinite usage, so its workloads go after every other LocalQueue's",
                               "sim.invalid");
            }
        }
    }
    const Node* status = doc ? doc->find("status") : nullptr;
    const Node* fs = status && status->is_map() ? rd.map_at(status, "fairSharing") : nullptr;
    const Node* afs = fs ? rd.map_at(fs, "admissionFairSharingStatus") : nullptr;
    if (!afs) return;
    for (const auto& [name, q] : rd.resource_list(afs, "consumedResources", "admissionFairSharingStatus.consumedResources"))
        lq.afs_consumed[name] = q.nanos();
    // lastUpdate is read for its format only: Kueue's LocalQueue controller
    // restarts the decay clock at its first reconcile (LastUpdate = now,
    // localqueue_controller.go initializeAfsIfNeeded).
    if (const Node* lu = afs->find("lastUpdate"); lu && !lu->is_null() && !parse_time(scalar_text(lu)))
        rd.error(lu, "admissionFairSharingStatus.lastUpdate: \"" + scalar_text(lu) + "\" is not an RFC 3339 time");
}

}  // namespace queueforge::scheduler::detail

namespace queueforge::scheduler::detail {

void check_afs_weights(const Model& m, Diagnostics& diags) {
    if (!m.config.afs) return;
    std::set<std::string> covered;
    for (const auto& cq : m.cqs)
        for (const auto& rg : cq.rgs)
            for (int res : rg.covered) covered.insert(m.res_name(res));
    for (const auto& [name, d] : m.config.afs->weight_sites)
        if (!covered.count(name)) diags.add(d);
}

}  // namespace queueforge::scheduler::detail
