// Reading Kueue's controller configuration (model/kueue_config.hpp) from a
// Configuration, a kueue-manager-config ConfigMap or the Red Hat build's
// Kueue CR.
#include <queueforge/model/kueue_config.hpp>

#include <queueforge/base/node_read.hpp>
#include <queueforge/frontend/kueue_operator.hpp>
#include <queueforge/model/field_reader.hpp>

#include <climits>
#include <cmath>
#include <cstdlib>

namespace queueforge::model {

namespace {

using Entry = KueueConfigObject;

// A non-negative Go duration in milliseconds (sub-ms parts are truncated).
std::optional<std::int64_t> go_duration_ms(const std::string& text) {
    const auto ns = parse_go_duration(text);
    if (!ns || *ns < 0) return std::nullopt;
    return *ns / 1000000;
}

std::optional<std::int64_t> duration_at(const FieldReader& rd, const Node* parent, const char* key, const std::string& what) {
    const Node* v = parent ? parent->find(key) : nullptr;
    if (!v || v->is_null()) return std::nullopt;
    auto ms = v->is_scalar() ? go_duration_ms(v->text()) : std::nullopt;
    if (!ms) rd.error(v, what + "." + key + ": \"" + scalar_text(v) + "\" is not a non-negative duration (e.g. 5m, 300s, 1h30m)");
    return ms;
}

std::optional<std::int64_t> non_negative_at(const FieldReader& rd, const Node* parent, const char* key,
                                            const std::string& what, std::int64_t max) {
    const Node* v = parent ? parent->find(key) : nullptr;
    if (!v || v->is_null()) return std::nullopt;
    auto n = rd.int_at(parent, key);
    if (!n || *n < 0 || *n > max) {
        rd.error(v, what + "." + key + ": \"" + scalar_text(v) + "\" is not an integer between 0 and " + std::to_string(max));
        return std::nullopt;
    }
    return n;
}

std::string position(const FieldReader& rd, const Node* n) { return rd.r.file + ":" + std::to_string(n->mark().line); }

// requeuingStrategy (apis/config/v1beta2/configuration_types.go RequeuingStrategy).
void read_requeuing(const FieldReader& rd, const Node* rs, const std::string& what, PodsReady& p) {
    if (!rs || rs->is_null() || !rs->is_map()) return;
    std::string ts = rd.str_at(rs, "timestamp");
    if (ts == "Creation") p.creation_timestamp = true;
    else if (!ts.empty() && ts != "Eviction")
        rd.error(rs->find("timestamp"), what + ".timestamp: \"" + ts + "\" is not Eviction or Creation");
    if (auto n = non_negative_at(rd, rs, "backoffLimitCount", what, INT32_MAX)) p.backoff_limit_count = static_cast<std::int32_t>(*n);
    // 0 is Go's zero value: cmp.Or in the defaulting keeps the defaults then.
    if (auto n = non_negative_at(rd, rs, "backoffBaseSeconds", what, INT32_MAX); n && *n > 0) p.backoff_base_seconds = *n;
    if (auto n = non_negative_at(rd, rs, "backoffMaxSeconds", what, INT32_MAX); n && *n > 0) p.backoff_max_seconds = *n;
}

// Configuration.waitForPodsReady with Kueue's defaults (defaults.go of the
// API version: v1beta1 SetDefaults_Configuration needs enable and defaults
// blockAdmission to it, timeout 5m; v1beta2 defaults an absent struct, timeout
// 30m, blockAdmission false). recoveryTimeout defaults to timeout.
void read_pods_ready(const FieldReader& rd, const Node* w, Entry& o) {
    PodsReady p;
    p.configured = true;
    p.source = rd.r.file;
    if (o.v1beta1) {
        p.enabled = w && !w->is_null() && rd.bool_at(w, "enable").value_or(false);
        p.timeout_ms = 5LL * 60 * 1000;
        p.block_admission = p.enabled;
    }
    if (w && !w->is_null() && w->is_map()) {
        const std::string what = "waitForPodsReady";
        p.source = position(rd, w);
        if (auto t = duration_at(rd, w, "timeout", what); t && *t > 0) p.timeout_ms = *t;
        if (auto b = rd.bool_at(w, "blockAdmission")) p.block_admission = *b;
        if (auto r = duration_at(rd, w, "recoveryTimeout", what)) p.recovery_timeout_ms = *r;
        read_requeuing(rd, rd.map_at(w, "requeuingStrategy"), what + ".requeuingStrategy", p);
        if (p.enabled)
            o.pods_ready_note = rd.finding(Severity::Warning, w,
                                           "waitForPodsReady depends on pod runtime and is not simulated here (admission "
                                           "is decided on quota only); the timeline mode (--scenario) simulates it",
                                           "sim.not-simulated");
    }
    if (!p.recovery_timeout_ms) p.recovery_timeout_ms = p.timeout_ms;
    o.pods_ready = p;
}

// Configuration.admissionFairSharing with Kueue's defaults and validation
// (apis/config/v1beta2 defaults.go: usageSamplingInterval 0 -> 5m;
// pkg/config/validation.go validateAdmissionFairSharing: usageHalfLifeTime
// must not be negative, usageSamplingInterval must be > 0, resourceWeights
// must not be negative).
std::optional<AdmissionFairSharing> read_admission_fair_sharing(const FieldReader& rd, const Node* afs) {
    if (!afs || afs->is_null()) return std::nullopt;
    if (!afs->is_map()) {
        rd.error(afs, "admissionFairSharing must be a map; admission fair sharing is off");
        return std::nullopt;
    }
    AdmissionFairSharing c;
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
                Diagnostic d = rd.finding(Severity::Warning, &e.value,
                                          "admissionFairSharing.resourceWeights[" + e.key +
                                              "]: no ClusterQueue covers resource \"" + e.key +
                                              "\", so the weight changes nothing");
                d.mark = e.value.mark();
                c.weight_sites[e.key] = std::move(d);
            }
        }
    }
    if (!ok) return std::nullopt;
    return c;
}

// fairSharing and resources, as the simulator acts on them.
void read_fair_sharing_and_resources(const FieldReader& rd, const Node& doc, Entry& o) {
    if (const Node* fs = doc.find("fairSharing"); fs && !fs->is_null()) {
        if (!fs->is_map()) {
            rd.error(fs, "fairSharing must be a map; ignored");
        } else {
            // v1beta1 enables with `enable: true`; v1beta2 by the field's presence.
            o.fair_sharing = o.v1beta1 ? rd.bool_at(fs, "enable").value_or(false) : true;
            if (const Node* st = rd.seq_at(fs, "preemptionStrategies"); st && !st->items().empty()) {
                o.preemption_strategies.clear();
                for (const auto& s : st->items()) {
                    std::string t = scalar_text(&s);
                    if (t == "LessThanOrEqualToFinalShare") o.preemption_strategies.push_back(0);
                    else if (t == "LessThanInitialShare") o.preemption_strategies.push_back(1);
                    else rd.error(&s, "unknown fair sharing preemption strategy \"" + t + "\"; ignored");
                }
                if (o.preemption_strategies.empty()) o.preemption_strategies = {0, 1};
            }
        }
    }
    if (const Node* res = rd.map_at(&doc, "resources")) {
        if (const Node* ex = rd.seq_at(res, "excludeResourcePrefixes"))
            for (const auto& p : ex->items()) o.exclude_resource_prefixes.push_back(scalar_text(&p));
        if (const Node* tr = rd.seq_at(res, "transformations")) {
            for (const auto& t : tr->items()) {
                if (!t.is_map()) continue;
                ResourceTransformation x;
                x.input = rd.str_at(&t, "input");
                x.replace = rd.str_at(&t, "strategy") == "Replace";
                x.multiply_by = rd.str_at(&t, "multiplyBy");
                if (const Node* outs = rd.map_at(&t, "outputs"))
                    for (const auto& e : outs->entries())
                        if (auto q = rd.quantity(&e.value, "transformation output " + e.key)) x.outputs.emplace_back(e.key, *q);
                if (x.input.empty()) rd.error(&t, "transformation without input; ignored");
                else o.transformations.push_back(std::move(x));
            }
        }
        o.ignore_undeclared = rd.str_at(res, "quotaCheckStrategy") == "IgnoreUndeclared";
    }
}

// A config.kueue.x-k8s.io Configuration (`rd` names the object findings
// belong to: the Configuration, or the ConfigMap that carries it).
void read_configuration(const FieldReader& rd, const Resource& cfg, Entry& o) {
    const Node& doc = cfg.doc;
    o.object = &cfg;
    o.v1beta1 = cfg.ref.api_version.ends_with("/v1beta1");
    const Node* integrations = present(&doc, "integrations");
    o.frameworks_node = present(integrations, "frameworks");
    for (const auto& f : items(o.frameworks_node)) o.frameworks.push_back({text(&f), &f});
    if (!integrations) o.enabled_frameworks.push_back("batch/job");  // Kueue's default (SetDefaults_Configuration)
    for (const auto& f : o.frameworks) o.enabled_frameworks.push_back(f.name);
    o.manage_jobs_without_queue_name = text(present(&doc, "manageJobsWithoutQueueName")) == "true";

    const Node* gates = present(&doc, "featureGates");
    o.afs_gate = present(gates, "AdmissionFairSharing");
    o.anchor_gate = present(gates, "AdmissionFairSharingAnchorAtQuotaReservation");
    o.afs_gate_on = text(o.afs_gate) != "false";
    o.admission_fair_sharing_node = present(&doc, "admissionFairSharing");
    o.admission_fair_sharing_on = o.admission_fair_sharing_node && o.afs_gate_on;

    read_fair_sharing_and_resources(rd, doc, o);
    o.admission_fair_sharing = read_admission_fair_sharing(rd, doc.find("admissionFairSharing"));
    read_pods_ready(rd, doc.find("waitForPodsReady"), o);
}

// The Red Hat build of Kueue's `Kueue` CR (kueue.openshift.io/v1):
// spec.config.gangScheduling rendered as the operator does
// (openshift/kueue-operator dc3b6577 pkg/configmap/configmap.go
// buildWaitForPodsReady / blockAdmission / buildRequeuingStrategy):
// ByWorkload -> waitForPodsReady{blockAdmission: admission == Sequential,
// timeout: timeoutSeconds, recoveryTimeout: recoveryTimeoutSeconds,
// requeuingStrategy{backoffLimitCount: retryLimit, backoffBaseSeconds,
// backoffMaxSeconds, timestamp: timeReference}}; None -> a one-year timeout
// without blockAdmission; "" / ByWorkloadDefaults -> nil (Kueue's v1beta2
// defaults).
void read_gang_scheduling(const FieldReader& rd, const Resource& r, Entry& o) {
    const Node* spec = rd.map_at(&r.doc, "spec");
    const Node* config = spec ? rd.map_at(spec, "config") : nullptr;
    const Node* g = config ? rd.map_at(config, "gangScheduling") : nullptr;
    if (!g) return;
    PodsReady p;
    p.configured = true;
    p.source = position(rd, g);
    std::string policy = rd.str_at(g, "policy");
    if (policy == "None") {
        p.timeout_ms = 365LL * 24 * 3600 * 1000;
        p.block_admission = false;
    } else if (policy == "ByWorkload") {
        const std::string what = "spec.config.gangScheduling.byWorkload";
        p.block_admission = false;
        if (const Node* bw = rd.map_at(g, "byWorkload")) {
            p.block_admission = rd.str_at(bw, "admission") == "Sequential";
            if (auto t = non_negative_at(rd, bw, "timeoutSeconds", what, INT32_MAX); t && *t > 0) p.timeout_ms = *t * 1000;
            if (auto t = non_negative_at(rd, bw, "recoveryTimeoutSeconds", what, INT32_MAX)) p.recovery_timeout_ms = *t * 1000;
            if (const Node* rs = rd.map_at(bw, "requeuingStrategy")) {
                const std::string rw = what + ".requeuingStrategy";
                if (auto n = non_negative_at(rd, rs, "retryLimit", rw, INT32_MAX); n && *n > 0)
                    p.backoff_limit_count = static_cast<std::int32_t>(*n);
                if (auto n = non_negative_at(rd, rs, "backoffBaseSeconds", rw, INT32_MAX); n && *n > 0) p.backoff_base_seconds = *n;
                if (auto n = non_negative_at(rd, rs, "backoffMaxSeconds", rw, INT32_MAX); n && *n > 0) p.backoff_max_seconds = *n;
                if (rd.str_at(rs, "timeReference") == "Creation") p.creation_timestamp = true;
            }
        }
    } else {
        return;  // Kueue's defaults
    }
    if (!p.recovery_timeout_ms) p.recovery_timeout_ms = p.timeout_ms;
    o.pods_ready = p;
}

// The Kueue CR's spec.config.admissionFairSharing rendered as the operator
// does (openshift/kueue-operator dc3b6577 pkg/configmap/configmap.go
// buildAdmissionFairSharing): no configuration -> none; Default -> a 30m
// usage half-life; Custom -> usageHalfLifeTimeSeconds and
// usageSamplingIntervalSeconds when positive (else Kueue's: half-life 0,
// sampling 5m) and resourceWeights [{name, weight}] parsed as numbers. The
// CRD bounds the values (release-1.4 types.go); the operator refuses a weight
// that is not a number, so it is an error here.
std::optional<AdmissionFairSharing> read_operator_afs(const FieldReader& rd, const Node* afs) {
    if (!afs) return std::nullopt;
    const std::string configuration = rd.str_at(afs, "configuration");
    if (configuration.empty()) return std::nullopt;
    AdmissionFairSharing c;
    const std::string what = "spec.config.admissionFairSharing";
    if (configuration != "Custom") {
        c.half_life_ns = 30LL * 60 * 1000000000LL;
        return c;
    }
    const Node* custom = rd.map_at(afs, "custom");
    if (!custom) return c;
    if (auto h = non_negative_at(rd, custom, "usageHalfLifeTimeSeconds", what + ".custom", INT32_MAX); h && *h > 0)
        c.half_life_ns = *h * 1000000000LL;
    if (auto v = non_negative_at(rd, custom, "usageSamplingIntervalSeconds", what + ".custom", INT32_MAX); v && *v > 0)
        c.sampling_ns = *v * 1000000000LL;
    for (const auto& w : items(rd.seq_at(custom, "resourceWeights"))) {
        const std::string name = rd.str_at(&w, "name");
        const Node* weight = present(&w, "weight");
        const std::string t = scalar_text(weight);
        char* end = nullptr;
        const double v = std::strtod(t.c_str(), &end);
        if (t.empty() || !end || *end != '\0' || !std::isfinite(v) || v < 0) {
            rd.error(weight ? weight : &w, what + ".custom.resourceWeights[" + name + "]: \"" + t +
                                               "\" is not a non-negative number (the operator does not render it)");
            return std::nullopt;
        }
        c.resource_weights[name] = v;
        Diagnostic d = rd.finding(Severity::Warning, weight,
                                  what + ".custom.resourceWeights[" + name + "]: no ClusterQueue covers resource \"" +
                                      name + "\", so the weight changes nothing");
        d.mark = weight->mark();
        c.weight_sites[name] = std::move(d);
    }
    return c;
}

void read_operator_cr(const FieldReader& rd, const Resource& r, Entry& o) {
    o.form = KueueConfigForm::OperatorCR;
    o.object = &r;
    const Node* config = present(present(&r.doc, "spec"), "config");
    o.cr.config = config;
    o.frameworks_node = present(present(config, "integrations"), "frameworks");
    for (const auto& f : items(o.frameworks_node)) {
        o.frameworks.push_back({text(&f), &f});
        o.enabled_frameworks.push_back(text(&f));
    }
    o.manage_jobs_without_queue_name = text(present(present(config, "workloadManagement"), "labelPolicy")) == "None";
    o.fair_sharing = text(present(present(config, "preemption"), "preemptionPolicy")) == "FairSharing";
    const Node* afs = present(config, "admissionFairSharing");
    o.admission_fair_sharing_node = afs;
    o.cr.afs_configuration = text(present(afs, "configuration"));
    o.cr.afs_custom = present(afs, "custom");
    o.admission_fair_sharing_on = afs && !o.cr.afs_configuration.empty();
    o.admission_fair_sharing = read_operator_afs(rd, afs);
    o.cr.multi_kueue = present(config, "multiKueue");
    o.cr.resources = present(config, "resources");
    o.cr.gang_scheduling = present(config, "gangScheduling");
    o.cr.gang_policy = text(present(o.cr.gang_scheduling, "policy"));
    o.cr.gang_by_workload = present(o.cr.gang_scheduling, "byWorkload");
    read_gang_scheduling(rd, r, o);
}

bool is_configuration(const Resource& r) {
    return r.ref.api_version.starts_with("config.kueue.x-k8s.io/") && r.ref.kind == "Configuration";
}
bool is_operator_cr(const Resource& r) {
    return r.ref.api_version == platform::kKueueOperatorApiVersion && r.ref.kind == "Kueue";
}

}  // namespace

bool is_kueue_config_object(const Resource& r) {
    return is_configuration(r) || is_operator_cr(r) || platform::is_kueue_manager_config_map(r);
}

namespace {

void read_objects(KueueConfig& out, const std::vector<const Resource*>& objects, const KueueConfigOptions& opts) {
    for (const Resource* r : objects) {
        const bool cr = is_operator_cr(*r), configuration = is_configuration(*r);
        const bool config_map = !cr && !configuration && opts.config_maps && platform::is_kueue_manager_config_map(*r);
        if (!cr && !configuration && !config_map) continue;
        Entry o;
        Diagnostics reading;
        const FieldReader rd{*r, reading};
        if (cr) {
            read_operator_cr(rd, *r, o);
        } else if (configuration) {
            read_configuration(rd, *r, o);
        } else {
            o.config_map = r;
            const std::string* text = opts.text_of ? opts.text_of(r->file) : nullptr;
            if (auto cfg = platform::embedded_kueue_configuration(*r, text, reading)) {
                out.embedded.push_back(std::move(*cfg));
                read_configuration(rd, out.embedded.back(), o);
            }
        }
        o.reading = reading.all();
        out.objects.push_back(std::move(o));
    }
}

}  // namespace

KueueConfig build_kueue_config(const std::vector<const Resource*>& objects, const KueueConfigOptions& opts) {
    KueueConfig out;
    read_objects(out, objects, opts);
    return out;
}

KueueConfig build_kueue_config(const std::vector<Resource>& objects, const KueueConfigOptions& opts) {
    std::vector<const Resource*> ptrs;
    for (const auto& r : objects)
        if (is_kueue_config_object(r)) ptrs.push_back(&r);
    return build_kueue_config(ptrs, opts);
}

KueueConfig build_kueue_config(const std::vector<Object>& objects, const std::string& file) {
    KueueConfig out;
    std::vector<const Resource*> ptrs;
    for (const auto& o : objects) {
        // Cheap test first: most compiled objects are queues and namespaces.
        if (o.kind != "Configuration" && o.kind != "Kueue" && o.kind != "ConfigMap") continue;
        Resource r = resource_of(o, file);
        if (!is_kueue_config_object(r)) continue;
        // Deque elements keep their addresses when the deque grows or moves.
        out.embedded.push_back(std::move(r));
        ptrs.push_back(&out.embedded.back());
    }
    read_objects(out, ptrs, {});
    return out;
}

}  // namespace queueforge::model
