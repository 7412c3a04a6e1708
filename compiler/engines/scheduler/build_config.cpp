// Kueue's controller Configuration: fair sharing, resource exclusion and
// transformations, quotaCheckStrategy, admission fair sharing (afs_build.cpp). Features that change admission but are
// not simulated are reported as warnings (rule sim.not-simulated).
#include "engines/scheduler/afs_build.hpp"
#include "engines/scheduler/cluster_state.hpp"

#include <queueforge/base/yaml_load.hpp>

#include <climits>
#include <string>

namespace queueforge::scheduler::detail {

namespace {

// A non-negative Go duration in milliseconds (sub-ms parts are truncated).
std::optional<std::int64_t> go_duration_ms(const std::string& text) {
    const auto ns = parse_go_duration(text);
    if (!ns || *ns < 0) return std::nullopt;
    return *ns / 1000000;
}

std::optional<std::int64_t> duration_at(const Reader& rd, const Node* parent, const char* key, const std::string& what) {
    const Node* v = parent ? parent->find(key) : nullptr;
    if (!v || v->is_null()) return std::nullopt;
    auto ms = v->is_scalar() ? go_duration_ms(v->text()) : std::nullopt;
    if (!ms) rd.error(v, what + "." + key + ": \"" + scalar_text(v) + "\" is not a non-negative duration (e.g. 5m, 300s, 1h30m)");
    return ms;
}

std::optional<std::int64_t> non_negative_at(const Reader& rd, const Node* parent, const char* key, const std::string& what,
                                            std::int64_t max) {
    const Node* v = parent ? parent->find(key) : nullptr;
    if (!v || v->is_null()) return std::nullopt;
    auto n = rd.int_at(parent, key);
    if (!n || *n < 0 || *n > max) {
        rd.error(v, what + "." + key + ": \"" + scalar_text(v) + "\" is not an integer between 0 and " + std::to_string(max));
        return std::nullopt;
    }
    return n;
}

// requeuingStrategy (apis/config/v1beta2/configuration_types.go RequeuingStrategy).
void read_requeuing(const Reader& rd, const Node* rs, const std::string& what, PodsReadyConfig& p) {
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

std::string position(const Reader& rd, const Node* n) {
    return rd.r.file + ":" + std::to_string(n->mark().line);
}

// Configuration.waitForPodsReady with Kueue's defaults (defaults.go of the
// API version: v1beta1 SetDefaults_Configuration needs enable and defaults
// blockAdmission to it, timeout 5m; v1beta2 defaults an absent struct, timeout
// 30m, blockAdmission false). recoveryTimeout defaults to timeout.
void read_pods_ready(const Reader& rd, const Node* w, bool v1beta1, Config& cfg) {
    PodsReadyConfig p;
    p.configured = true;
    p.source = rd.r.file;
    if (v1beta1) {
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
        if (p.enabled) {
            Diagnostics scratch;
            Reader quiet{rd.r, scratch};
            quiet.warning(w, "waitForPodsReady depends on pod runtime and is not simulated here (admission is decided on "
                             "quota only); the timeline mode (--scenario) simulates it",
                          "sim.not-simulated");
            cfg.pods_ready_note = scratch.all().front();
        }
    }
    if (!p.recovery_timeout_ms) p.recovery_timeout_ms = p.timeout_ms;
    cfg.pods_ready = p;
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
void read_gang_scheduling(const Reader& rd, const Resource& r, Config& cfg) {
    const Node* spec = rd.map_at(&r.doc, "spec");
    const Node* config = spec ? rd.map_at(spec, "config") : nullptr;
    const Node* g = config ? rd.map_at(config, "gangScheduling") : nullptr;
    if (!g) return;
    PodsReadyConfig p;
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
                std::string ts = rd.str_at(rs, "timeReference");
                if (ts == "Creation") p.creation_timestamp = true;
            }
        }
    } else {
        return;  // Kueue's defaults
    }
    if (!p.recovery_timeout_ms) p.recovery_timeout_ms = p.timeout_ms;
    cfg.pods_ready = p;
}

void read_configuration(const Reader& rd, const Node& doc, bool v1beta1, Config& cfg) {
    if (const Node* fs = doc.find("fairSharing"); fs && !fs->is_null()) {
        if (!fs->is_map()) {
            rd.error(fs, "fairSharing must be a map; ignored");
        } else {
            // v1beta1 enables with `enable: true`; v1beta2 by the field's presence.
            bool enabled = v1beta1 ? rd.bool_at(fs, "enable").value_or(false) : true;
            if (v1beta1 && !fs->find("enable")) enabled = false;
            cfg.fair_sharing = enabled;
            if (const Node* st = rd.seq_at(fs, "preemptionStrategies"); st && !st->items().empty()) {
                cfg.strategies.clear();
                for (const auto& s : st->items()) {
                    std::string t = scalar_text(&s);
                    if (t == "LessThanOrEqualToFinalShare") cfg.strategies.push_back(0);
                    else if (t == "LessThanInitialShare") cfg.strategies.push_back(1);
                    else rd.error(&s, "unknown fair sharing preemption strategy \"" + t + "\"; ignored");
                }
                if (cfg.strategies.empty()) cfg.strategies = {0, 1};
            }
        }
    }
    if (const Node* res = rd.map_at(&doc, "resources")) {
        if (const Node* ex = rd.seq_at(res, "excludeResourcePrefixes"))
            for (const auto& p : ex->items()) cfg.exclude_prefixes.push_back(scalar_text(&p));
        if (const Node* tr = rd.seq_at(res, "transformations")) {
            for (const auto& t : tr->items()) {
                if (!t.is_map()) continue;
                Transformation x;
                x.input = rd.str_at(&t, "input");
                x.replace = rd.str_at(&t, "strategy") == "Replace";
                x.multiply_by = rd.str_at(&t, "multiplyBy");
                if (const Node* outs = rd.map_at(&t, "outputs"))
                    for (const auto& e : outs->entries())
                        if (auto q = rd.quantity(&e.value, "transformation output " + e.key))
                            x.outputs.emplace_back(e.key, *q);
                if (x.input.empty()) rd.error(&t, "transformation without input; ignored");
                else cfg.transformations.push_back(std::move(x));
            }
        }
        std::string qcs = rd.str_at(res, "quotaCheckStrategy");
        cfg.ignore_undeclared = qcs == "IgnoreUndeclared";
    }
    read_afs_config(rd, doc.find("admissionFairSharing"), doc.find("featureGates"), cfg);
    read_pods_ready(rd, doc.find("waitForPodsReady"), v1beta1, cfg);
}

// Positions inside an embedded YAML text are not positions in the file: point
// every node of it at the ConfigMap field that holds the text.
void set_marks(Node& n, Mark m) {
    n.set_mark(m);
    if (n.is_map())
        for (auto& e : n.entries()) {
            e.key_mark = m;
            set_marks(e.value, m);
        }
    else if (n.is_seq())
        for (auto& i : n.items()) set_marks(i, m);
}

}  // namespace

void build_config(const Inputs& in, Config& cfg, Diagnostics& diags) {
    bool used = false;
    for (const Resource* r : in.configs) {
        Reader rd{*r, diags};
        if (r->ref.kind == "Kueue") {
            if (!used) read_gang_scheduling(rd, *r, cfg);
            continue;
        }
        if (used) {
            rd.warning(nullptr, "more than one Kueue Configuration; only the first is used", "sim.duplicate");
            continue;
        }
        if (r->ref.kind == "Configuration") {
            read_configuration(rd, r->doc, r->ref.api_version.ends_with("/v1beta1"), cfg);
            used = true;
            continue;
        }
        // ConfigMap kueue-manager-config: data.controller_manager_config.yaml.
        const Node* data = rd.map_at(&r->doc, "data");
        const Node* text = data ? data->find("controller_manager_config.yaml") : nullptr;
        if (!text || !text->is_scalar()) continue;
        Diagnostics inner;
        auto docs = load_yaml(r->file + " (controller_manager_config.yaml)", text->text(), inner);
        if (docs.empty() || !docs[0].root.is_map()) {
            rd.error(text, "controller_manager_config.yaml is not a YAML map; Kueue defaults are used");
            continue;
        }
        Node doc = docs[0].root;
        set_marks(doc, text->mark());
        std::string api = scalar_text(doc.find("apiVersion"));
        Resource wrapper = *r;
        wrapper.doc = doc;
        Reader inner_rd{wrapper, diags};
        read_configuration(inner_rd, doc, api.ends_with("/v1beta1"), cfg);
        used = true;
    }
}

}  // namespace queueforge::scheduler::detail
