#include "integrations/import/target_infer.hpp"

#include "integrations/import/tree.hpp"

#include <queueforge/model/cluster.hpp>
#include <queueforge/base/templates.hpp>
#include <queueforge/base/yaml_load.hpp>
#include <queueforge/frontend/kueue_operator.hpp>

#include <algorithm>
#include <map>
#include <tuple>

namespace queueforge::importer {

namespace {

// What the input says about the cluster it came from.
struct Evidence {
    const Item* dsc = nullptr;
    std::map<std::string, int> queue_api;   // apiVersion -> objects
    std::map<std::string, int> cohort_api;
    bool cohort_refs = false;               // a ClusterQueue or Cohort names a cohort
    bool legacy_fungibility = false;        // Borrow / Preempt: spelled so before Kueue 0.15
    bool modern_fungibility_v1beta1 = false;
    bool borrow_within_cohort = false;      // defaulted from Kueue 0.10 on
    bool lq_stop_policy = false;            // served from Kueue 0.8 on
    // A ClusterQueue with every defaulted field written (a live object, or
    // queueforge's output) tells by what it lacks too: no borrowWithinCohort
    // means Kueue before 0.10, LocalQueues without stopPolicy before 0.8.
    bool complete_cq = false;
    bool complete_cq_without_borrow = false;
    bool lq_without_stop_policy = false;
    bool cq_fair_sharing = false;           // needs Kueue 0.7
    bool cq_preference = false;             // needs Kueue 0.15
    bool ns_new_label = false;              // kueue.openshift.io/managed (OpenShift AI 2.23+)
    bool ns_legacy_label = false;           // kueue-managed
    // Kueue's Configuration (the kueue-manager-config ConfigMap): the version
    // the release's manifests ship (v1beta2 from 0.15), the metrics port they
    // set (:8443 from 0.11), and the first release with every integration and
    // setting it uses.
    std::string config_api;
    std::string config_metrics;
    Version config_min{0, 0, 0};
};

Evidence gather(const std::vector<Item>& items) {
    Evidence e;
    for (const auto& it : items) {
        switch (it.kind) {
        case Kind::DataScienceCluster:
            if (!e.dsc) e.dsc = &it;
            break;
        case Kind::Cohort:
            ++e.cohort_api[it.api_version];
            if (!text_at(it.doc, {"spec", "parent"}).empty() || !text_at(it.doc, {"spec", "parentName"}).empty())
                e.cohort_refs = true;
            break;
        case Kind::ResourceFlavor:
        case Kind::WorkloadPriorityClass:
            ++e.queue_api[it.api_version];
            break;
        case Kind::LocalQueue:
            ++e.queue_api[it.api_version];
            if (at(it.doc, {"spec", "stopPolicy"})) e.lq_stop_policy = true;
            else e.lq_without_stop_policy = true;
            break;
        case Kind::ClusterQueue: {
            ++e.queue_api[it.api_version];
            if (model::cluster_queue_cohort_field(at(it.doc, {"spec"}))) e.cohort_refs = true;
            for (const char* k : {"whenCanBorrow", "whenCanPreempt"}) {
                std::string v = text_at(it.doc, {"spec", "flavorFungibility", k});
                if (v == "Borrow" || v == "Preempt") e.legacy_fungibility = true;
                if (v == "MayStopSearch" && it.api_version.ends_with("/v1beta1")) e.modern_fungibility_v1beta1 = true;
            }
            if (at(it.doc, {"spec", "flavorFungibility", "preference"})) e.cq_preference = true;
            if (at(it.doc, {"spec", "preemption", "borrowWithinCohort"})) e.borrow_within_cohort = true;
            if (at(it.doc, {"spec", "fairSharing"})) e.cq_fair_sharing = true;
            if (at(it.doc, {"spec", "queueingStrategy"}) && at(it.doc, {"spec", "stopPolicy"}) &&
                at(it.doc, {"spec", "preemption", "reclaimWithinCohort"}) &&
                at(it.doc, {"spec", "flavorFungibility", "whenCanBorrow"})) {
                e.complete_cq = true;
                if (!at(it.doc, {"spec", "preemption", "borrowWithinCohort"})) e.complete_cq_without_borrow = true;
            }
            break;
        }
        case Kind::Namespace:
            if (const Node* l = at(it.doc, {"metadata", "labels"}); l && l->is_map()) {
                if (l->find("kueue.openshift.io/managed")) e.ns_new_label = true;
                if (l->find("kueue-managed")) e.ns_legacy_label = true;
            }
            break;
        case Kind::Other:
            if (auto cfg = kueue_manager_configuration(it)) {
                const std::string api = text_at(*cfg, {"apiVersion"});
                e.config_api = api.substr(api.find('/') + 1);
                e.config_metrics = text_at(*cfg, {"metrics", "bindAddress"});
                auto need = [&](Version v) { e.config_min = std::max(e.config_min, v); };
                if (const Node* fw = at(*cfg, {"integrations", "frameworks"}); fw && fw->is_seq())
                    for (const auto& f : fw->items())
                        if (auto first = platform::first_kueue_with_integration(text(&f))) need(*first);
                if (at(*cfg, {"resources", "deviceClassMappings"})) need({0, 14, 0});
                if (at(*cfg, {"fairSharing"})) need({0, 7, 0});
            }
            break;
        }
    }
    return e;
}

std::string majority(const std::map<std::string, int>& counts) {
    std::string best;
    int n = 0;
    // Ties go to the later (newer) version: the map is ordered by name.
    for (const auto& [v, c] : counts)
        if (c >= n) best = v, n = c;
    return best;
}

std::string version_part(const std::string& api) { return api.substr(api.find('/') + 1); }

bool has_label(const Target& t, std::string_view l) {
    return std::find(t.namespace_labels.begin(), t.namespace_labels.end(), l) != t.namespace_labels.end();
}

struct Candidate {
    Target target;
    TargetOverrides overrides;
    bool cohorts_as_objects = true;
    int hard = 0, overridden = 0, dsc = 0, soft = 0, order = 0;
    auto rank() const { return std::make_tuple(hard, overridden, dsc, soft, -order); }
};

// Builds a candidate from a documented target; false when it cannot serve the input at all.
bool evaluate(const std::string& name, const Evidence& e, bool forced, int order, Candidate& c) {
    auto found = find_target(name);
    if (!found.target) return false;
    c.target = *found.target;
    c.order = order;
    TargetOverrides& o = c.overrides;
    const Target& base = c.target;
    if (e.dsc && !forced) {
        if (base.dsc_api_version.empty()) return false;
        if (e.dsc->api_version != base.dsc_api_version) {
            // DataScienceCluster v1 is still served on 3.x (a v1 override); v2 never before 3.0.
            if (!e.dsc->api_version.ends_with("/v1") || base.release < Version{3, 0, 0}) return false;
            o.dsc_api_version = "v1";
            ++c.overridden;
        }
    } else if (!e.dsc && !forced && base.platform == Platform::OpenShiftAI) {
        // Without a DataScienceCluster nothing says OpenShift AI: a plain Kueue target.
        return false;
    }
    if (!forced) {
        std::string q = majority(e.queue_api);
        if (!q.empty() && q != base.kueue_api_version) {
            o.kueue_api_version = version_part(q);
            ++c.overridden;
        }
        std::string co = majority(e.cohort_api);
        if (!co.empty() && co != base.cohort_api_version) {
            o.cohort_api_version = version_part(co);
            ++c.overridden;
        }
    }
    // Cohorts named by queues but without objects: Kueue makes them implicit.
    // The site would write an empty Cohort object for each; `none` keeps the
    // object set exactly as it was.
    if (e.cohort_api.empty() && e.cohort_refs && !base.cohort_api_version.empty()) {
        o.cohort_api_version = "none";
        c.cohorts_as_objects = false;
    }
    if (!o.kueue_api_version.empty() || !o.dsc_api_version.empty() || !o.cohort_api_version.empty()) {
        auto over = apply_overrides(c.target, o);
        if (!over.target) return false;
        c.target = *over.target;
    }
    const Target& t = c.target;

    if (e.dsc) {
        const Node* comps = at(e.dsc->doc, {"spec", "components"});
        auto tmpl = template_components(t);
        if (comps && comps->is_map()) {
            for (const auto& en : comps->entries()) {
                const Component* comp = t.component(en.key);
                std::string state = text_at(en.value, {"managementState"});
                if (!comp) ++c.hard;
                else if (!state.empty() && std::find(comp->states.begin(), comp->states.end(), state) == comp->states.end())
                    ++c.hard;
            }
        }
        for (const auto& [name, state] : tmpl) {
            const Node* in = comps && comps->is_map() ? comps->find(name) : nullptr;
            if (!in) ++c.dsc;
            else if (text_at(*in, {"managementState"}) != state) ++c.dsc;
        }
        if (comps && comps->is_map()) {
            const Node* kueue = comps->find("kueue");
            if (kueue && (at(*kueue, {"defaultLocalQueueName"}) || at(*kueue, {"defaultClusterQueueName"})) &&
                !t.dsc_default_queue_fields)
                ++c.hard;
            if (kueue && at(*kueue, {"autoCreateQueues"}) && !t.dsc_auto_create_queues) ++c.hard;
        }
    }
    if (e.cq_fair_sharing && t.kueue < Version{0, 7, 0}) ++c.hard;
    if (e.cq_preference && t.kueue < Version{0, 15, 0}) ++c.hard;
    if (e.legacy_fungibility && t.kueue >= Version{0, 15, 0}) ++c.soft;
    if (e.modern_fungibility_v1beta1 && t.kueue < Version{0, 15, 0}) ++c.soft;
    if (e.borrow_within_cohort && t.kueue < Version{0, 10, 0}) ++c.soft;
    if (e.lq_stop_policy && t.kueue < Version{0, 8, 0}) ++c.soft;
    if (e.complete_cq_without_borrow && t.kueue >= Version{0, 10, 0}) ++c.soft;
    if (e.complete_cq && e.lq_without_stop_policy && t.kueue >= Version{0, 8, 0}) ++c.soft;
    if (e.ns_new_label && !has_label(t, "kueue.openshift.io/managed=true")) ++c.soft;
    if (e.ns_legacy_label && !has_label(t, "kueue-managed=true")) ++c.soft;
    if (t.kueue < e.config_min) ++c.hard;
    if (e.config_api == "v1beta2" && t.kueue < Version{0, 15, 0}) ++c.hard;
    if (e.config_api == "v1beta1" && t.kueue >= Version{0, 15, 0}) ++c.soft;
    if (e.config_metrics == ":8080" && t.kueue >= Version{0, 11, 0}) ++c.soft;
    if (e.config_metrics == ":8443" && t.kueue < Version{0, 11, 0}) ++c.soft;
    return true;
}

Node target_node(const Candidate& c) {
    const TargetOverrides& o = c.overrides;
    if (o.kueue_api_version.empty() && o.dsc_api_version.empty() && o.cohort_api_version.empty())
        return Node::string(c.target.name);
    Node n = Node::mapping();
    if (c.target.platform == Platform::OpenShiftAI)
        n.set("openshiftAI", Node::string(c.target.release.to_string()));
    else
        n.set("kueue", Node::string(Version{c.target.kueue.major, c.target.kueue.minor, 0}.to_string()));
    if (!o.kueue_api_version.empty()) n.set("kueueAPIVersion", Node::string(o.kueue_api_version));
    if (!o.dsc_api_version.empty()) n.set("dscAPIVersion", Node::string(o.dsc_api_version));
    if (!o.cohort_api_version.empty()) n.set("cohortAPIVersion", Node::string(o.cohort_api_version));
    return n;
}

std::string describe(const Candidate& c, const Evidence& e, bool forced) {
    if (forced) return "target " + c.target.name + " as given";
    std::string why = "target " + c.target.name + " inferred from ";
    why += e.dsc ? "the DataScienceCluster " + e.dsc->api_version + " components and the Kueue API versions"
                 : "the Kueue API versions and defaults (no DataScienceCluster in the input)";
    if (!c.cohorts_as_objects) why += "; cohortAPIVersion none because the input has no Cohort objects";
    if (c.hard > 0) why += "; no documented target serves everything in the input";
    return why;
}

}  // namespace

std::vector<std::pair<std::string, std::string>> template_components(const Target& t) {
    std::vector<std::pair<std::string, std::string>> out;
    if (t.dsc_template.empty()) return out;
    auto text = find_template(t.dsc_template);
    if (!text) return out;
    Diagnostics ignored;
    auto docs = load_yaml("templates/" + t.dsc_template, std::string(*text), ignored);
    if (docs.size() != 1) return out;
    if (const Node* comps = at(docs[0].root, {"spec", "components"}); comps && comps->is_map())
        for (const auto& e : comps->entries()) out.emplace_back(e.key, text_at(e.value, {"managementState"}));
    return out;
}

std::optional<TargetChoice> choose_target(const std::vector<Item>& items, const std::string& forced,
                                          Diagnostics& diags) {
    Evidence e = gather(items);
    const std::string file = items.empty() ? std::string("<input>") : items.front().file;
    std::optional<Candidate> best;
    if (!forced.empty()) {
        auto found = find_target(forced);
        if (!found.target) {
            diags.error(file, {}, "--target: " + found.error, "import.target");
            return std::nullopt;
        }
        if (!found.warning.empty()) diags.warning(file, {}, "--target: " + found.warning, "import.target");
        Candidate c;
        if (!evaluate(forced, e, true, 0, c)) {
            diags.error(file, {}, "--target " + forced + " cannot be used", "import.target");
            return std::nullopt;
        }
        best = std::move(c);
    } else {
        auto names = supported_targets();
        for (std::size_t i = 0; i < names.size(); ++i) {
            Candidate c;
            if (!evaluate(names[i], e, false, static_cast<int>(i), c)) continue;
            if (!best || c.rank() < best->rank()) best = std::move(c);
        }
        if (!best) {
            // Nothing fits (e.g. a v2 DataScienceCluster with v1beta1 queues on
            // an old Kueue): build for the newest Kueue and let the comparison
            // keep whatever differs as passthrough.
            Candidate c;
            evaluate("kubernetes", e, true, 0, c);
            best = std::move(c);
        }
    }
    TargetChoice choice;
    choice.target = best->target;
    choice.node = target_node(*best);
    choice.reason = describe(*best, e, !forced.empty());
    choice.cohorts_as_objects = best->cohorts_as_objects;
    return choice;
}

}  // namespace queueforge::importer
