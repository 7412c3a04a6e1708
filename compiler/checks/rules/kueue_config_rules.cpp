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

#include <algorithm>
#include <cctype>
#include <set>

namespace queueforge::rules::detail {

namespace {

constexpr std::string_view kQueueNameLabel = "kueue.x-k8s.io/queue-name";

bool is_operator_cr(const Resource& r) {
    return r.ref.api_version == platform::kKueueOperatorApiVersion && r.ref.kind == "Kueue";
}
bool is_configuration(const Resource& r) {
    return api_group(r.ref.api_version) == "config.kueue.x-k8s.io" && r.ref.kind == "Configuration";
}

// Kueue's integration name of a job kind ("batch/job", "kubeflow.org/pytorchjob",
// "pod", "deployment", ...: apis/config/v1beta2 Integrations.Frameworks).
std::string kueue_framework_of(const std::string& api_version, const std::string& kind) {
    if (platform::framework_of(api_version, kind).empty()) return {};
    std::string group = api_group(api_version);
    std::string k = kind;
    std::transform(k.begin(), k.end(), k.begin(), [](unsigned char c) { return char(std::tolower(c)); });
    if (group.empty() || (group == "apps")) return k;
    return group + "/" + k;
}

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
        out.push_back({&r, f, kueue_framework_of(r.ref.api_version, r.ref.kind), label != nullptr});
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

// The settings the checks share, read from either kind of object.
struct Settings {
    std::set<std::string> frameworks;  // names as the object spells them
    bool label_policy_none = false;
    bool fair_sharing = false;
    bool admission_fair_sharing = false;
    std::string fair_sharing_where;     // how to turn it on, for messages
    std::string afs_where;
};

void check_against_queues(const Inventory& inv, const std::vector<Job>& jobs, const Resource& cfg, const Settings& s,
                          bool operator_cr, Diagnostics& diags) {
    const Reporter rep{cfg, diags};
    const std::string what = operator_cr ? "the Kueue CR" : "Kueue's Configuration";
    // Frameworks vs the jobs in the input.
    std::map<std::string, const Job*> missing;
    for (const auto& j : jobs) {
        if (!j.labelled && !s.label_policy_none) continue;
        const std::string& name = operator_cr ? j.framework : j.kueue_name;
        if (!s.frameworks.count(name)) missing.try_emplace(name, &j);
    }
    const Node* fw_node = operator_cr ? present(present(present(present(&cfg.doc, "spec"), "config"), "integrations"), "frameworks")
                                      : present(present(&cfg.doc, "integrations"), "frameworks");
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
            const std::string name = operator_cr ? std::string(k) : kueue_framework_of("apps/v1", k);
            if (!s.frameworks.count(name))
                rep.warning("kueue-config.profile-frameworks", fw_node ? fw_node : &cfg.doc, fw_path,
                            "the input has HardwareProfiles of type Queue, but " + what + " does not enable " +
                                go_quote(name) + ": the dashboard's " +
                                (std::string(k) == "StatefulSet" ? "workbenches" : "model servers") +
                                " that use them are not queued");
        }
    // Fair-sharing weights.
    if (!s.fair_sharing)
        for (const auto& [r, w] : weights_of(inv))
            Reporter{*r, diags}.error("kueue-config.fair-sharing-weights", w, "spec.fairSharing.weight",
                                      r->ref.kind + " " + r->ref.name + " sets fairSharing.weight, which does nothing: " +
                                          what + " (" + where(cfg) + ") does not turn fair sharing on (" +
                                          s.fair_sharing_where + ")");
    // admissionScope.
    if (!s.admission_fair_sharing)
        for (const Resource* cq : admission_scoped(inv))
            Reporter{*cq, diags}.error(
                "kueue-config.admission-scope", present(present(&cq->doc, "spec"), "admissionScope"), "spec.admissionScope",
                "ClusterQueue " + cq->ref.name + " orders admission by usage (UsageBasedAdmissionFairSharing), but " + what +
                    " (" + where(cfg) + ") configures no admissionFairSharing, so Kueue ignores it (" + s.afs_where + ")");
}

void check_operator_cr(const Inventory& inv, const std::vector<Job>& jobs, const Resource& cr, const Target* target,
                       Diagnostics& diags) {
    const Reporter rep{cr, diags};
    if (cr.ref.name != platform::kKueueOperatorName)
        rep.error("kueue-config.name", present(present(&cr.doc, "metadata"), "name"), "metadata.name",
                  cel("<nil>", "object", "Kueue is a singleton, .metadata.name must be 'cluster'"));
    const Node* config = present(present(&cr.doc, "spec"), "config");
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
    const auto& fws = items(present(present(config, "integrations"), "frameworks"));
    std::set<std::string> seen;
    for (std::size_t i = 0; i < fws.size(); ++i) {
        const std::string f = text(&fws[i]);
        const std::string path = index("spec.config.integrations.frameworks", i);
        if (!seen.insert(f).second)
            rep.error("kueue-config.framework", &fws[i], path,
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
            rep.error("kueue-config.framework", &fws[i], path, msg);
            continue;
        }
        s.frameworks.insert(f);
    }
    const std::size_t max = rel ? rel->max_frameworks : newest.max_frameworks;
    if (fws.size() > max)
        rep.error("kueue-config.framework", present(present(config, "integrations"), "frameworks"),
                  "spec.config.integrations.frameworks",
                  "spec.config.integrations.frameworks: Too many: " + std::to_string(fws.size()) + ": must have at most " +
                      std::to_string(max) + " items (" + rtext + ")");
    if (rel) {
        auto unserved = [&](const char* field, bool served, const char* first) {
            const Node* n = present(config, field);
            if (n && !served)
                rep.error("kueue-config.unserved", n, std::string("spec.config.") + field,
                          std::string("spec.config.") + field + " is not a field of " + rtext + "'s Kueue CR; it is first in " + first);
        };
        unserved("multiKueue", rel->multi_kueue, "Red Hat build of Kueue 1.3");
        unserved("resources", rel->resources, "Red Hat build of Kueue 1.4 (OpenShift AI 3.5)");
        unserved("admissionFairSharing", rel->admission_fair_sharing, "Red Hat build of Kueue 1.4 (OpenShift AI 3.5)");
    }
    // The CRD's union rules.
    const Node* gang = present(config, "gangScheduling");
    if (gang && (text(present(gang, "policy")) == "ByWorkload") != (present(gang, "byWorkload") != nullptr))
        rep.error("kueue-config.union", gang, "spec.config.gangScheduling",
                  cel("spec.config.gangScheduling", "object", "byWorkload is required when policy is byWorkload, and forbidden otherwise"));
    const Node* afs = present(config, "admissionFairSharing");
    if (afs && (text(present(afs, "configuration")) == "Custom") != (present(afs, "custom") != nullptr))
        rep.error("kueue-config.union", afs, "spec.config.admissionFairSharing",
                  cel("spec.config.admissionFairSharing", "object", "custom is required when configuration is Custom, and forbidden otherwise"));

    s.label_policy_none = text(present(present(config, "workloadManagement"), "labelPolicy")) == "None";
    s.fair_sharing = text(present(present(config, "preemption"), "preemptionPolicy")) == "FairSharing";
    s.admission_fair_sharing = afs && !text(present(afs, "configuration")).empty();
    s.fair_sharing_where = "set spec.config.preemption.preemptionPolicy: FairSharing";
    s.afs_where = rel && !rel->admission_fair_sharing
                      ? rtext + " cannot configure it; admissionFairSharing is first in Red Hat build of Kueue 1.4"
                      : "set spec.config.admissionFairSharing.configuration";
    check_against_queues(inv, jobs, cr, s, true, diags);
}

void check_configuration(const Inventory& inv, const std::vector<Job>& jobs, const Resource& cfg, const Target* target,
                         Diagnostics& diags) {
    const Reporter rep{cfg, diags};
    const bool v1beta1 = cfg.ref.api_version.ends_with("/v1beta1");
    Settings s;
    const Node* integrations = present(&cfg.doc, "integrations");
    if (!integrations) s.frameworks.insert("batch/job");  // Kueue's default (SetDefaults_Configuration)
    for (const auto& f : items(present(integrations, "frameworks"))) s.frameworks.insert(text(&f));
    s.label_policy_none = text(present(&cfg.doc, "manageJobsWithoutQueueName")) == "true";
    const Node* fs = present(&cfg.doc, "fairSharing");
    // v1beta1: fairSharing.enable; v1beta2: the section itself turns it on.
    s.fair_sharing = fs && (v1beta1 ? text(present(fs, "enable")) == "true" : true);
    s.fair_sharing_where = v1beta1 ? "set fairSharing.enable: true" : "add a fairSharing section";
    const Node* gates = present(&cfg.doc, "featureGates");
    const Node* afs_gate = present(gates, "AdmissionFairSharing");
    s.admission_fair_sharing = present(&cfg.doc, "admissionFairSharing") && text(afs_gate) != "false";
    s.afs_where = "add an admissionFairSharing section";
    // The AFS gate pairing (Kueue 0.20).
    const Node* anchor = present(gates, "AdmissionFairSharingAnchorAtQuotaReservation");
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
    check_against_queues(inv, jobs, cfg, s, false, diags);
}

}  // namespace

void check_kueue_config(const CrossContext& ctx, Diagnostics& diags) {
    const Inventory& inv = ctx.inv;
    const std::vector<Resource>& resources = ctx.resources;
    const std::vector<Resource>* samples = ctx.samples;
    const Target* target = ctx.target;
    std::vector<Job> jobs;
    bool any = false;
    for (const auto& r : resources)
        if (is_operator_cr(r) || is_configuration(r)) any = true;
    if (!any) return;
    jobs = jobs_of(resources, samples);
    for (const auto& r : resources) {
        if (is_operator_cr(r)) check_operator_cr(inv, jobs, r, target, diags);
        else if (is_configuration(r)) check_configuration(inv, jobs, r, target, diags);
    }
}

}  // namespace queueforge::rules::detail
