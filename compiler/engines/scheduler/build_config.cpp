// Kueue's controller Configuration: fair sharing, resource exclusion and
// transformations, quotaCheckStrategy, admission fair sharing (afs_build.cpp). Features that change admission but are
// not simulated are reported as warnings (rule sim.not-simulated).
#include "engines/scheduler/afs_build.hpp"
#include "engines/scheduler/cluster_state.hpp"

#include <queueforge/base/yaml_load.hpp>

namespace queueforge::scheduler::detail {

namespace {

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
    if (const Node* w = doc.find("waitForPodsReady"); w && !w->is_null()) {
        bool enabled = v1beta1 ? rd.bool_at(w, "enable").value_or(false) : true;
        if (enabled)
            rd.warning(w, "waitForPodsReady depends on pod runtime and is not simulated (admission is decided on quota only)",
                       "sim.not-simulated");
    }
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
