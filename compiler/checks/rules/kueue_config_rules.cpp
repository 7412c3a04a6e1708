// How Kueue is configured, against the queues and jobs of the input: the
// Red Hat build of Kueue operator's `Kueue` CR (kueue.openshift.io/v1, name
// cluster) and Kueue's own `Configuration` (config.kueue.x-k8s.io, the
// kueue-manager-config ConfigMap's controller_manager_config.yaml).
//
//  * Kueue manages only the job kinds whose integration is enabled: a job
//    with a queue-name label of any other kind runs without quota.
//  * ClusterQueue and Cohort fairSharing.weight mean something only with fair
//    sharing on (CR preemption.preemptionPolicy FairSharing, which the
//    operator renders as Kueue's fairSharing; Configuration fairSharing).
//  * A ClusterQueue's admissionScope (UsageBasedAdmissionFairSharing) is
//    ignored unless admissionFairSharing is configured
//    (kubernetes-sigs/kueue pkg/util/admissionfairsharing: Enabled needs the
//    configuration and the gate).
//  * From Kueue 0.20, AdmissionFairSharing disabled while
//    AdmissionFairSharingAnchorAtQuotaReservation stays on (its default) stops
//    Kueue from starting (kueue #15000; pkg/features
//    TestAnchorAtQuotaReservationRequiresAdmissionFairSharing).
//  * Per operator release (openshift/kueue-operator release-1.x types.go):
//    the frameworks enum and its maxItems, multiKueue from 1.3,
//    resources and admissionFairSharing from 1.4, and the CRD's CEL rules.
#include "checks/rules/inventory.hpp"

#include <queueforge/frontend/kueue_operator.hpp>
#include <queueforge/model/kueue_config.hpp>

#include <algorithm>
#include <cctype>
#include <set>

namespace queueforge::rules::detail {

namespace {

constexpr std::string_view kQueueNameLabel = "kueue.x-k8s.io/queue-name";

struct Job {
    const Resource* r;
    std::string framework;  // the CR's name for it
    std::string kueue_name; // the Configuration's
    bool labelled;
};

std::vector<Job> jobs_of(const std::vector<Resource>& resources, const std::vector<Resource>* samples) {
    std::vector<Job> out;
    auto add = [&](const Resource& r) {
        std::string f = platform::framework_of(r.ref.api_version, r.ref.kind);
        if (f.empty()) return;
        const Node* label = present(present(present(&r.doc, "metadata"), "labels"), kQueueNameLabel);
        out.push_back({&r, f, platform::kueue_integration_of(r.ref.api_version, r.ref.kind), label != nullptr});
    };
    for (const auto& r : resources) add(r);
    if (samples)
        for (const auto& r : *samples) add(r);
    return out;
}

// Every fairSharing.weight a ClusterQueue or Cohort sets.
std::vector<std::pair<const Resource*, const Node*>> weights_of(const Inventory& inv) {
    std::vector<std::pair<const Resource*, const Node*>> out;
    for (const auto* list : {&inv.cluster_queues, &inv.cohorts})
        for (const Resource* r : *list)
            if (const Node* w = present(present(present(&r->doc, "spec"), "fairSharing"), "weight")) out.push_back({r, w});
    return out;
}

std::vector<const Resource*> admission_scoped(const Inventory& inv) {
    std::vector<const Resource*> out;
    for (const Resource* cq : inv.cluster_queues)
        if (text(present(present(present(&cq->doc, "spec"), "admissionScope"), "admissionMode")) == "UsageBasedAdmissionFairSharing")
            out.push_back(cq);
    return out;
}

// What the checks against the queues need, from either kind of object.
struct Settings {
    std::set<std::string> frameworks;  // enabled, named as the object names them
    std::string fair_sharing_where;    // how to turn it on, for messages
    std::string afs_where;
};

void check_against_queues(const Inventory& inv, const std::vector<Job>& jobs, const model::KueueConfigObject& o,
                          const Settings& s, Diagnostics& diags) {
    const Resource& cfg = *o.object;
    const bool operator_cr = o.form == model::KueueConfigForm::OperatorCR;
    const Reporter rep{cfg, diags};
    const std::string what = operator_cr ? "the Kueue CR" : "Kueue's Configuration";
    // Frameworks vs the jobs in the input.
    std::map<std::string, const Job*> missing;
    for (const auto& j : jobs) {
        if (!j.labelled && !o.manage_jobs_without_queue_name) continue;
        const std::string& name = operator_cr ? j.framework : j.kueue_name;
        if (!s.frameworks.count(name)) missing.try_emplace(name, &j);
    }
    const Node* fw_node = o.frameworks_node;
    const std::string fw_path = operator_cr ? "spec.config.integrations.frameworks" : "integrations.frameworks";
    for (const auto& [name, j] : missing)
        rep.error("kueue-config.missing-framework", fw_node ? fw_node : &cfg.doc, fw_path,
                  j->r->ref.display() + " (" + where(*j->r) + ") is a " + j->r->ref.kind + " for Kueue, but " + what +
                      " does not enable the " + go_quote(name) +
                      " integration: Kueue ignores such jobs, which then run without queueing or quota");
    // HardwareProfiles of type Queue serve workbenches (StatefulSet) and model
    // servers (Deployment).
    bool queue_profiles = false;
    for (const auto* r : inv.hardware_profiles)
        if (text(present(present(present(&r->doc, "spec"), "scheduling"), "type")) == "Queue") queue_profiles = true;
    if (queue_profiles)
        for (const char* k : {"StatefulSet", "Deployment"}) {
            const std::string name = operator_cr ? std::string(k) : platform::kueue_integration_of("apps/v1", k);
            if (!s.frameworks.count(name))
                rep.warning("kueue-config.profile-frameworks", fw_node ? fw_node : &cfg.doc, fw_path,
                            "the input has HardwareProfiles of type Queue, but " + what + " does not enable " +
                                go_quote(name) + ": the dashboard's " +
                                (std::string(k) == "StatefulSet" ? "workbenches" : "model servers") +
                                " that use them are not queued");
        }
    // Fair-sharing weights.
    if (!o.fair_sharing)
        for (const auto& [r, w] : weights_of(inv))
            Reporter{*r, diags}.error("kueue-config.fair-sharing-weights", w, "spec.fairSharing.weight",
                                      r->ref.kind + " " + r->ref.name + " sets fairSharing.weight, which does nothing: " +
                                          what + " (" + where(cfg) + ") does not turn fair sharing on (" +
                                          s.fair_sharing_where + ")");
    // admissionScope.
    if (!o.admission_fair_sharing_on)
        for (const Resource* cq : admission_scoped(inv))
            Reporter{*cq, diags}.error(
                "kueue-config.admission-scope", present(present(&cq->doc, "spec"), "admissionScope"), "spec.admissionScope",
                "ClusterQueue " + cq->ref.name + " orders admission by usage (UsageBasedAdmissionFairSharing), but " + what +
                    " (" + where(cfg) + ") configures no admissionFairSharing, so Kueue ignores it (" + s.afs_where + ")");
}

void check_operator_cr(const Inventory& inv, const std::vector<Job>& jobs, const model::KueueConfigObject& o,
                       const Target* target, Diagnostics& diags) {
    const Resource& cr = *o.object;
    const Reporter rep{cr, diags};
    if (cr.ref.name != platform::kKueueOperatorName)
        rep.error("kueue-config.name", present(present(&cr.doc, "metadata"), "name"), "metadata.name",
                  cel("<nil>", "object", "Kueue is a singleton, .metadata.name must be 'cluster'"));
    // The operator release the target runs, when the target says.
    std::optional<platform::KueueOperatorRelease> rel;
    if (target) {
        if (target->platform != Platform::OpenShiftAI || target->release < Version{2, 23, 0})
            rep.error("kueue-config.unserved", present(&cr.doc, "apiVersion"), "apiVersion",
                      "target " + target->name + " runs no Red Hat build of Kueue operator (it needs OpenShift AI 2.23 "
                      "or newer with kueue Unmanaged, or 3.x)");
        else
            rel = platform::kueue_operator_for_kueue(target->kueue);
    }
    const auto newest = platform::kueue_operator_releases().back();
    const auto& allowed = rel ? rel->frameworks : newest.frameworks;
    const std::string rtext = rel ? "Red Hat build of Kueue " + rel->release.to_string() + " (target " + target->name + ")"
                                  : std::string("the Red Hat build of Kueue");

    Settings s;
    std::set<std::string> seen;
    for (std::size_t i = 0; i < o.frameworks.size(); ++i) {
        const std::string& f = o.frameworks[i].name;
        const Node* at = o.frameworks[i].at;
        const std::string path = index("spec.config.integrations.frameworks", i);
        if (!seen.insert(f).second)
            rep.error("kueue-config.framework", at, path,
                      cel("spec.config.integrations.frameworks", "array", "each item in frameworks must be unique"));
        if (std::find(allowed.begin(), allowed.end(), f) == allowed.end()) {
            std::string msg = unsupported(path, go_quote(f), allowed);
            if (std::find(newest.frameworks.begin(), newest.frameworks.end(), f) != newest.frameworks.end()) {
                for (const auto& r : platform::kueue_operator_releases())
                    if (std::find(r.frameworks.begin(), r.frameworks.end(), f) != r.frameworks.end()) {
                        msg += " (" + rtext + " does not offer it; it is first in Red Hat build of Kueue " + r.release.to_string() + ")";
                        break;
                    }
            } else {
                msg += suggestion(f, newest.frameworks);
            }
            rep.error("kueue-config.framework", at, path, msg);
            continue;
        }
        s.frameworks.insert(f);
    }
    const std::size_t max = rel ? rel->max_frameworks : newest.max_frameworks;
    if (o.frameworks.size() > max)
        rep.error("kueue-config.framework", o.frameworks_node, "spec.config.integrations.frameworks",
                  "spec.config.integrations.frameworks: Too many: " + std::to_string(o.frameworks.size()) +
                      ": must have at most " + std::to_string(max) + " items (" + rtext + ")");
    if (rel) {
        auto unserved = [&](const Node* n, const char* field, bool served, const char* first) {
            if (n && !served)
                rep.error("kueue-config.unserved", n, std::string("spec.config.") + field,
                          std::string("spec.config.") + field + " is not a field of " + rtext + "'s Kueue CR; it is first in " + first);
        };
        unserved(o.cr.multi_kueue, "multiKueue", rel->multi_kueue, "Red Hat build of Kueue 1.3");
        unserved(o.cr.resources, "resources", rel->resources, "Red Hat build of Kueue 1.4 (OpenShift AI 3.5)");
        unserved(o.admission_fair_sharing_node, "admissionFairSharing", rel->admission_fair_sharing,
                 "Red Hat build of Kueue 1.4 (OpenShift AI 3.5)");
    }
    // The CRD's union rules.
    if (const Node* gang = o.cr.gang_scheduling; gang && (o.cr.gang_policy == "ByWorkload") != (o.cr.gang_by_workload != nullptr))
        rep.error("kueue-config.union", gang, "spec.config.gangScheduling",
                  cel("spec.config.gangScheduling", "object", "byWorkload is required when policy is byWorkload, and forbidden otherwise"));
    if (const Node* afs = o.admission_fair_sharing_node; afs && (o.cr.afs_configuration == "Custom") != (o.cr.afs_custom != nullptr))
        rep.error("kueue-config.union", afs, "spec.config.admissionFairSharing",
                  cel("spec.config.admissionFairSharing", "object", "custom is required when configuration is Custom, and forbidden otherwise"));

    s.fair_sharing_where = "set spec.config.preemption.preemptionPolicy: FairSharing";
    s.afs_where = rel && !rel->admission_fair_sharing
                      ? rtext + " cannot configure it; admissionFairSharing is first in Red Hat build of Kueue 1.4"
                      : "set spec.config.admissionFairSharing.configuration";
    check_against_queues(inv, jobs, o, s, diags);
}

void check_configuration(const Inventory& inv, const std::vector<Job>& jobs, const model::KueueConfigObject& o,
                         const Target* target, Diagnostics& diags) {
    const Reporter rep{*o.object, diags};
    Settings s;
    s.frameworks.insert(o.enabled_frameworks.begin(), o.enabled_frameworks.end());
    s.fair_sharing_where = o.v1beta1 ? "set fairSharing.enable: true" : "add a fairSharing section";
    s.afs_where = "add an admissionFairSharing section";
    // The AFS gate pairing (Kueue 0.20).
    const Node* afs_gate = o.afs_gate;
    const Node* anchor = o.anchor_gate;
    if (text(afs_gate) == "false" && text(anchor) != "false") {
        const bool v020 = !target || target->kueue >= Version{0, 20, 0};
        const std::string msg =
            "featureGates: AdmissionFairSharing is false while AdmissionFairSharingAnchorAtQuotaReservation is " +
            std::string(anchor ? "true" : "left on (its default from Kueue 0.20)") +
            ": from Kueue 0.20 Kueue refuses to start with this pair (kubernetes-sigs/kueue#15000); set "
            "AdmissionFairSharingAnchorAtQuotaReservation: false too";
        if (anchor || (target && v020))
            rep.error("kueue-config.afs-gates", anchor ? anchor : afs_gate, "featureGates", msg);
        else if (!target)
            rep.warning("kueue-config.afs-gates", afs_gate, "featureGates.AdmissionFairSharing",
                        msg + " (no --target: the Kueue version is unknown)");
    }
    check_against_queues(inv, jobs, o, s, diags);
}

}  // namespace

void check_kueue_config(const CrossContext& ctx, Diagnostics& diags) {
    // kueue-manager-config ConfigMaps are not read here: validate passes the
    // Configuration each carries as an object of its own (validate.cpp).
    const model::KueueConfig kc = model::build_kueue_config(ctx.resources, {.config_maps = false});
    if (kc.empty()) return;
    const std::vector<Job> jobs = jobs_of(ctx.resources, ctx.samples);
    for (const auto& o : kc.objects) {
        if (o.form == model::KueueConfigForm::OperatorCR) check_operator_cr(ctx.inv, jobs, o, ctx.target, diags);
        else check_configuration(ctx.inv, jobs, o, ctx.target, diags);
    }
}

}  // namespace queueforge::rules::detail
