// Reading Admission Fair Sharing from the input (admission_fair_sharing.hpp):
// Configuration.admissionFairSharing with Kueue's defaults and validation
// (apis/config/v1beta2 defaults.go: usageSamplingInterval 0 -> 5m;
// pkg/config/validation.go validateAdmissionFairSharing: usageHalfLifeTime
// must not be negative, usageSamplingInterval must be > 0, resourceWeights
// must not be negative), the ClusterQueue's admissionScope, the LocalQueue's
// fairSharing.weight and its persisted admissionFairSharingStatus.
#include "engines/scheduler/afs_build.hpp"

#include <cmath>
#include <set>

namespace queueforge::scheduler::detail {

void read_afs_config(const Reader& rd, const Node* afs, const Node* feature_gates, Config& cfg) {
    if (feature_gates && feature_gates->is_map())
        if (const Node* g = feature_gates->find("AdmissionFairSharing"); g && g->is_scalar())
            cfg.afs_gate = g->text() != "false";
    if (!afs || afs->is_null()) return;
    if (!afs->is_map()) {
        rd.error(afs, "admissionFairSharing must be a map; admission fair sharing is off");
        return;
    }
    AfsConfig c;
    bool ok = true;
    auto duration = [&](const char* field, std::int64_t& out, bool zero_ok) {
        const Node* n = afs->find(field);
        if (!n || n->is_null()) return;
        const std::string t = scalar_text(n);
        auto d = parse_go_duration(t);
        if (!d) {
            rd.error(n, std::string("admissionFairSharing.") + field + ": invalid duration \"" + t +
                            "\" (Go duration such as 5m, 168h)");
            ok = false;
        } else if (*d < 0) {
            rd.error(n, std::string("admissionFairSharing.") + field + ": Invalid value: \"" + t + "\": " +
                            (zero_ok ? "must be greater than or equal to 0" : "must be greater than 0"));
            ok = false;
        } else if (*d > 0 || zero_ok) {
            out = *d;
        }  // usageSamplingInterval 0 is unset: Kueue defaults it to 5m
    };
    duration("usageHalfLifeTime", c.half_life_ns, true);
    // calculateAlphaRate is 0 for a half-life of 0: the sampled usage keeps
    // its old value (usually 0) and every entry penalty is 0, so the
    // LocalQueues never differ by usage. Kueue accepts it; it is reported.
    if (const Node* h = afs->find("usageHalfLifeTime"); !h || (ok && c.half_life_ns == 0))
        rd.warning(h ? h : afs,
                   std::string(h ? "admissionFairSharing.usageHalfLifeTime is 0" : "admissionFairSharing without usageHalfLifeTime (Kueue reads 0)") +
                       ": Kueue's decay rate is then 0, so LocalQueue usage never grows past its initial value and entry "
                       "penalties are 0: admission fair sharing orders nothing; give a positive half-life (e.g. 168h)",
                   "sim.invalid");
    duration("usageSamplingInterval", c.sampling_ns, false);
    if (const Node* w = rd.map_at(afs, "resourceWeights")) {
        for (const auto& e : w->entries()) {
            const std::string t = scalar_text(&e.value);
            char* end = nullptr;
            const double v = std::strtod(t.c_str(), &end);
            if (t.empty() || !end || *end != '\0' || !std::isfinite(v)) {
                rd.error(&e.value, "admissionFairSharing.resourceWeights[" + e.key + "]: \"" + t + "\" is not a number");
                ok = false;
            } else if (v < 0) {
                rd.error(&e.value, "admissionFairSharing.resourceWeights[" + e.key + "]: Invalid value: " + t +
                                       ": must be greater than or equal to 0");
                ok = false;
            } else {
                c.resource_weights[e.key] = v;
                Diagnostic d;
                d.severity = Severity::Warning;
                d.file = rd.r.file;
                d.mark = e.value.mark();
                d.object = rd.r.ref;
                d.rule = "sim.invalid";
                d.message = rd.r.ref.display() + ": admissionFairSharing.resourceWeights[" + e.key +
                            "]: no ClusterQueue covers resource \"" + e.key + "\", so the weight changes nothing";
                c.weight_sites[e.key] = std::move(d);
            }
        }
    }
    if (ok) cfg.afs = std::move(c);
}

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
