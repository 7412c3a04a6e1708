// ClusterQueue: the CRD's CEL rules and Kueue's validating webhook
// (kueue-semantics.md 2.3, pkg/webhooks/clusterqueue_webhook.go). Both API
// versions: the webhook validates the converted v1beta2 object, so only the
// cohort field name differs here (v1beta1 cohort, v1beta2 cohortName).
#include "checks/rules/kinds.hpp"
#include "checks/rules/selector.hpp"

#include <algorithm>

namespace queueforge::rules::detail {

namespace {

// V33: CEL on flavorFungibility, evaluated after the CRD defaults
// (whenCanBorrow MayStopSearch, whenCanPreempt TryNextFlavor). v1beta1's
// deprecated Borrow/Preempt fail it too, as they are not TryNextFlavor.
void check_fungibility(const Reporter& rep, const Node* spec) {
    const Node* ff = present(spec, "flavorFungibility");
    const Node* pref = present(ff, "preference");
    if (!pref) return;
    const Node* borrow = present(ff, "whenCanBorrow");
    const Node* preempt = present(ff, "whenCanPreempt");
    const std::string b = borrow ? text(borrow) : "MayStopSearch";
    const std::string p = preempt ? text(preempt) : "TryNextFlavor";
    if (b == "TryNextFlavor" && p == "TryNextFlavor") return;
    rep.error("V33", pref, "spec.flavorFungibility.preference",
              cel("spec.flavorFungibility", "object",
                  "preference can only be set when both whenCanBorrow and whenCanPreempt are TryNextFlavor"));
}

// V34: CEL on preemption, after defaulting (reclaimWithinCohort Never,
// borrowWithinCohort.policy Never).
void check_preemption(const Reporter& rep, const Node* spec) {
    const Node* pre = present(spec, "preemption");
    if (!pre) return;
    const Node* reclaim = present(pre, "reclaimWithinCohort");
    const Node* bwc = present(pre, "borrowWithinCohort");
    if (!bwc) return;
    const Node* policy = present(bwc, "policy");
    if ((reclaim ? text(reclaim) : "Never") != "Never" || (policy ? text(policy) : "Never") == "Never") return;
    rep.error("V34", policy, "spec.preemption.borrowWithinCohort.policy",
              cel("spec.preemption", "object", "reclaimWithinCohort=Never and borrowWithinCohort.Policy!=Never"));
}

// V36: onFlavors entries must be flavors of this ClusterQueue (create; the
// update-time tolerance of gate RejectUpdatesToCQWithInvalidOnFlavors needs
// the old object, which an offline check does not have).
void check_admission_checks(const Reporter& rep, const Node* spec, const std::vector<std::string>& flavors) {
    std::vector<std::string> supported = flavors;
    std::sort(supported.begin(), supported.end());  // Go's set order is random; sorted reads better
    const auto& checks = items(present(present(spec, "admissionChecksStrategy"), "admissionChecks"));
    for (std::size_t i = 0; i < checks.size(); ++i) {
        const auto& on = items(present(&checks[i], "onFlavors"));
        for (std::size_t j = 0; j < on.size(); ++j) {
            if (!is_text(&on[j]) || std::find(flavors.begin(), flavors.end(), on[j].text()) != flavors.end()) continue;
            const std::string p = index(index("spec.admissionChecksStrategy.admissionChecks", i) + ".onFlavors", j);
            rep.error("V36", &on[j], p, unsupported(p, go_quote(on[j].text()), supported));
        }
    }
}

// V38: concurrentAdmissionPolicy (v1beta2, Kueue >= 0.18). The webhook checks
// it only with gate ConcurrentAdmission (alpha, off by default); a manifest
// that sets the field relies on the gate, so the checks apply whenever the
// field is there. Immutability needs the old object and is not checked.
void check_concurrent_admission(const Reporter& rep, const Node* spec, const std::vector<std::string>& flavors) {
    const Node* cap = present(spec, "concurrentAdmissionPolicy");
    if (!cap) return;
    const Node* rgs = present(spec, "resourceGroups");
    const auto& groups = items(rgs);
    if (groups.size() != 1)
        rep.error("V38", rgs ? rgs : cap, "spec.resourceGroups",
                  invalid("spec.resourceGroups", std::to_string(groups.size()),
                          "must have exactly one ResourceGroup when ConcurrentAdmissionPolicy is defined"));
    if (groups.size() == 1) {
        const Node* fl = present(&groups[0], "flavors");
        // 32 from Kueue 0.20 (#15949); target_rules.cpp applies 16 to older targets.
        if (items(fl).size() > 32)
            rep.error("V38", fl, "spec.resourceGroups[0].flavors",
                      invalid("spec.resourceGroups[0].flavors", std::to_string(items(fl).size()),
                              "cannot have more than 32 resource flavors in the ResourceGroup when ConcurrentAdmissionPolicy is defined"));
    }
    const Node* migration = present(cap, "migration");
    if (const Node* constraints = present(migration, "constraints")) {
        const std::string mode = text(present(migration, "mode"));
        const std::string cp = "spec.concurrentAdmissionPolicy.migration.constraints";
        if (!mode.empty() && mode != "TryPreferredFlavors") {
            rep.error("V38", constraints, cp,
                      forbidden(cp, "may only be set when migration.mode is \"TryPreferredFlavors\" (got " + go_quote(mode) + ")"));
        } else if (const Node* last = present(constraints, "lastAcceptableFlavorName");
                   is_text(last) && std::find(flavors.begin(), flavors.end(), last->text()) == flavors.end()) {
            std::vector<std::string> sorted = flavors;
            std::sort(sorted.begin(), sorted.end());
            rep.error("V38", last, cp + ".lastAcceptableFlavorName",
                      invalid(cp + ".lastAcceptableFlavorName", go_quote(last->text()),
                              "must be one of the flavors defined in the ClusterQueue: [" + join(sorted, " ") + "]"));
        }
    }
    if (const Node* qs = present(spec, "queueingStrategy"); text(qs) == "StrictFIFO")
        rep.error("V38", qs, "spec.queueingStrategy",
                  invalid("spec.queueingStrategy", go_quote("StrictFIFO"),
                          "StrictFIFO queueing strategy cannot be used when ConcurrentAdmissionPolicy is defined"));
}

}  // namespace

void check_cluster_queue(const Reporter& rep) {
    const Node* spec = present(&rep.r.doc, "spec");
    if (!spec) return;
    check_resource_groups(rep, spec, {.has_parent = cluster_queue_cohort(rep.r) != nullptr, .is_cohort = false});
    if (const Node* sel = present(spec, "namespaceSelector")) validate_label_selector(rep, *sel, "spec.namespaceSelector");
    check_preemption(rep, spec);
    check_fungibility(rep, spec);
    check_fair_sharing(rep, spec, "V35");
    const auto flavors = flavor_names(spec);
    check_concurrent_admission(rep, spec, flavors);
    check_admission_checks(rep, spec, flavors);
}

}  // namespace queueforge::rules::detail
