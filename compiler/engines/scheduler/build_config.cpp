// Kueue's controller Configuration as the simulator runs with it, taken from
// the one reading of it (model/kueue_config.hpp): fair sharing, resource
// exclusion and transformations, quotaCheckStrategy, admission fair sharing,
// waitForPodsReady. Kueue runs with the first Configuration (or
// kueue-manager-config ConfigMap) in canonical order; without one, with the
// Kueue CR's fair sharing, admissionFairSharing and gangScheduling as its
// operator renders them. Features that change admission but are not
// simulated are reported as warnings (rule sim.not-simulated).
#include "engines/scheduler/cluster_state.hpp"

namespace queueforge::scheduler::detail {

void build_config(const Inputs& in, Config& cfg, Diagnostics& diags) {
    const model::KueueConfig kc = model::build_kueue_config(in.configs);
    auto report = [&](const model::KueueConfigObject& o) {
        for (const auto& d : o.reading) diags.add(d);
    };
    bool used = false;
    for (const auto& o : kc.objects) {
        if (o.form == model::KueueConfigForm::OperatorCR) {
            if (used) continue;
            report(o);
            // The operator renders preemptionPolicy FairSharing as Kueue's
            // fairSharing with both preemption strategies, anything else as
            // none (openshift/kueue-operator dc3b6577,
            // pkg/configmap/configmap.go buildFairSharing).
            cfg.fair_sharing = o.fair_sharing;
            cfg.strategies = {0, 1};
            cfg.afs = o.admission_fair_sharing;
            cfg.afs_gate = o.afs_gate_on;
            if (o.pods_ready) cfg.pods_ready = *o.pods_ready;
            continue;
        }
        if (used) {
            Reader{*(o.config_map ? o.config_map : o.object), diags}.warning(
                nullptr, "more than one Kueue Configuration; only the first is used", "sim.duplicate");
            continue;
        }
        report(o);
        if (!o.object) continue;  // a ConfigMap whose text Kueue would not load
        used = true;
        cfg.fair_sharing = o.fair_sharing;
        cfg.strategies = o.preemption_strategies;
        cfg.exclude_prefixes = o.exclude_resource_prefixes;
        cfg.transformations = o.transformations;
        cfg.ignore_undeclared = o.ignore_undeclared;
        cfg.afs = o.admission_fair_sharing;
        cfg.afs_gate = o.afs_gate_on;
        if (o.pods_ready) cfg.pods_ready = *o.pods_ready;
        cfg.pods_ready_note = o.pods_ready_note;
    }
}

}  // namespace queueforge::scheduler::detail
