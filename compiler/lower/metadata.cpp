#include "lower/metadata.hpp"

#include <algorithm>

namespace queueforge::lower {

Node sorted_string_map(std::vector<std::pair<std::string, std::string>> kv) {
    std::sort(kv.begin(), kv.end());
    Node m = Node::mapping();
    for (auto& [k, v] : kv) m.set(std::move(k), Node::string(std::move(v)));
    return m;
}

Node& add_object(Context& ctx, ObjectSpec spec) {
    Node doc = Node::mapping();
    doc.set("apiVersion", Node::string(spec.api_version));
    doc.set("kind", Node::string(spec.kind));
    Node meta = Node::mapping();
    meta.set("name", Node::string(spec.name));
    if (!spec.namespace_.empty()) meta.set("namespace", Node::string(spec.namespace_));

    auto labels = std::move(spec.labels);
    labels.emplace_back("app.kubernetes.io/managed-by", "queueforge");
    labels.emplace_back("app.kubernetes.io/part-of", ctx.site.name.value);
    if (!spec.component.empty()) labels.emplace_back("app.kubernetes.io/component", spec.component);
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
    }
    annotations.emplace_back("argocd.argoproj.io/sync-wave", std::to_string(spec.wave));
    meta.set("annotations", sorted_string_map(std::move(annotations)));
    doc.set("metadata", std::move(meta));

    Object obj;
    obj.api_version = spec.api_version;
    obj.kind = spec.kind;
    obj.name = spec.name;
    obj.namespace_ = spec.namespace_;
    obj.doc = std::move(doc);
    obj.origin = spec.origin;
    obj.wave = spec.wave;
    obj.kind_rank = spec.kind_rank;
    ctx.objects.push_back(std::move(obj));
    return ctx.objects.back().doc;
}

}  // namespace queueforge::lower
