#include "lower/metadata.hpp"

#include <algorithm>

namespace queueforge::lower {

namespace {

// The sync-wave annotation explains itself in `explain` and --annotate.
std::string wave_reason(int wave) {
    switch (wave) {
    case kWaveNamespace: return "Namespaces first (-20)";
    case kWaveEmbeddedKueueDsc: return "a DataScienceCluster that installs Kueue goes before the queues (-10)";
    case kWaveFlavor: return "flavors, cohorts and priority classes before the queues that name them (0)";
    case kWaveClusterQueue: return "ClusterQueues after the flavors and cohorts they name (1)";
    case kWaveLocalQueue: return "LocalQueues after their ClusterQueues (2)";
    case kWavePlatformDsc: return "the DataScienceCluster after the queues (10)";
    default: return "wave " + std::to_string(wave);
    }
}

// Gives every sequence and map of a finished tree the capacity of its size
// (a vector already at its size is left alone). Objects are kept until every
// one is lowered, checked and written: a site of 10,000 teams holds hundreds
// of thousands of small maps built entry by entry, whose growth slack would
// otherwise be a tenth of the memory.
void shrink_to_fit(Node& n) {
    if (n.is_seq()) {
        auto& items = n.items();
        items.shrink_to_fit();
        for (auto& i : items) shrink_to_fit(i);
    } else if (n.is_map()) {
        auto& entries = n.entries();
        entries.shrink_to_fit();
        for (auto& e : entries) shrink_to_fit(e.value);
    }
}

}  // namespace

Node sorted_string_map(std::vector<std::pair<std::string, std::string>> kv) {
    std::sort(kv.begin(), kv.end());
    Node m = Node::mapping();
    for (auto& [k, v] : kv) m.set(std::move(k), Node::string(std::move(v)));
    return m;
}

Node& add_object(Context& ctx, ObjectSpec spec) {
    std::vector<PendingRecord> records;
    records.reserve(spec.provenance.size() + 9);
    Trace tr(records);
    tr.set(spec.origin, Derivation::Object, std::move(spec.rule));
    if (spec.custom_resource)
        tr.set("apiVersion", target_origin(ctx, spec.api_version + " is the API version it serves for " + spec.kind));
    else
        tr.set("apiVersion", spec.origin, Derivation::Generated, "core Kubernetes API");
    Trace meta_tr = tr.field("metadata");
    meta_tr.set("name", spec.name_from.mark.known() ? std::move(spec.name_from) : Origin{spec.origin, Derivation::Written, {}});
    Trace labels_tr = meta_tr.field("labels");
    Trace annotations_tr = meta_tr.field("annotations");

    Node doc = Node::mapping();
    doc.set("apiVersion", Node::string(spec.api_version));
    doc.set("kind", Node::string(spec.kind));
    Node meta = Node::mapping();
    meta.set("name", Node::string(spec.name));
    if (!spec.namespace_.empty()) meta.set("namespace", Node::string(spec.namespace_));

    auto labels = std::move(spec.labels);
    labels.emplace_back("app.kubernetes.io/managed-by", "queueforge");
    labels_tr.set("app.kubernetes.io/managed-by", spec.origin, Derivation::Generated, "generated label: queueforge manages the object");
    labels.emplace_back("app.kubernetes.io/part-of", ctx.site.name.value);
    labels_tr.set("app.kubernetes.io/part-of", ctx.site.name.mark, Derivation::Generated, "generated label: the site's metadata.name");
    if (!spec.component.empty()) {
        labels.emplace_back("app.kubernetes.io/component", spec.component);
        labels_tr.set("app.kubernetes.io/component", spec.origin, Derivation::Generated,
                      "generated label: " + spec.component + " for " + spec.kind);
    }
    meta.set("labels", sorted_string_map(std::move(labels)));

    auto annotations = std::move(spec.annotations);
    std::vector<std::string> options;
    // Kueue and OpenShift AI CRDs are installed by operators, usually from
    // another Application: without this the first sync's dry run fails.
    if (spec.custom_resource) options.push_back("SkipDryRunOnMissingResource=true");
    options.insert(options.end(), spec.sync_options.begin(), spec.sync_options.end());
    if (!options.empty()) {
        std::string joined;
        for (const auto& o : options) joined += (joined.empty() ? "" : ",") + o;
        annotations.emplace_back("argocd.argoproj.io/sync-options", joined);
        annotations_tr.set("argocd.argoproj.io/sync-options", spec.origin, Derivation::Generated,
                           std::string("generated annotation: ") +
                               (spec.custom_resource ? "the operator installs the CRD, so the first dry run must not fail" : "") +
                               (spec.custom_resource && !spec.sync_options.empty() ? "; " : "") +
                               (spec.sync_options.empty() ? "" : "never pruned or deleted by Argo CD"));
    }
    annotations.emplace_back("argocd.argoproj.io/sync-wave", std::to_string(spec.wave));
    annotations_tr.set("argocd.argoproj.io/sync-wave", spec.origin, Derivation::Generated,
                       "generated annotation: Argo CD sync wave: " + wave_reason(spec.wave));
    meta.set("annotations", sorted_string_map(std::move(annotations)));
    doc.set("metadata", std::move(meta));
    for (auto& [key, value] : spec.fields) doc.set(std::move(key), std::move(value));
    for (auto& r : spec.provenance) records.push_back(std::move(r));

    Object obj;
    obj.api_version = spec.api_version;
    obj.kind = spec.kind;
    obj.name = spec.name;
    obj.namespace_ = spec.namespace_;
    obj.doc = std::move(doc);
    shrink_to_fit(obj.doc);
    obj.origin = spec.origin;
    obj.wave = spec.wave;
    obj.kind_rank = spec.kind_rank;
    if (ctx.provenance) attach(obj, records);
    ctx.objects.push_back(std::move(obj));
    return ctx.objects.back().doc;
}

}  // namespace queueforge::lower
