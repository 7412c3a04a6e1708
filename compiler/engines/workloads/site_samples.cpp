// A site's `workloads:` section -> Workloads. Inline podSets are written
// directly (one container `main` per pod with the given requests); `file`
// entries are read from the site's folder and converted like any job, with
// the entry's name, namespace, queue and priorityClass laid over the
// manifest. Every sample gets creationTimestamp kSampleEpoch + its index in
// seconds, so the section order is the queue order.
#include "engines/workloads/jobs.hpp"

#include <queueforge/base/tas_annotations.hpp>
#include <queueforge/frontend/site_parse.hpp>
#include <queueforge/base/yaml_load.hpp>

#include <algorithm>
#include <filesystem>

namespace queueforge::workloads {

namespace {

namespace fs = std::filesystem;
using namespace detail;

Node& ensure_map(Node& parent, const std::string& key, Mark m) {
    Node* n = parent.find(key);
    if (!n || !n->is_map()) n = &parent.set(key, Node::mapping(m));
    return *n;
}

// The entry as a Resource, so findings about it point at the site file.
Resource entry_resource(const site::Site& s, const site::Workload& w, const std::string& ns) {
    Resource r;
    r.file = s.file;
    r.doc = Node::mapping(w.mark);
    Node& meta = r.doc.set("metadata", Node::mapping(w.mark));
    meta.set("name", Node::string(w.name.value, w.name.mark));
    meta.set("namespace", Node::string(ns, w.namespace_.mark.known() ? w.namespace_.mark : w.mark));
    r.ref = {"queueforge.io/v1alpha1", "Workload", ns, w.name.value};
    return r;
}

// One container `main` requesting the per-pod amounts, plus the podSet's
// nodeSelector and tolerations.
std::optional<PodSet> inline_pod_set(const Reporter& rep, const site::PodSet& p, std::size_t i) {
    const std::string path = "podSets[" + std::to_string(i) + "]";
    Node name_at = Node::string(p.name.value, p.name.mark.known() ? p.name.mark : p.mark);
    PodSet ps{.name = pod_set_name(rep, p.name.value.empty() ? "main" : p.name.value, &name_at, path + ".name"),
              .count = p.count ? p.count->value : 1,
              .mark = p.mark};
    if (ps.name.empty()) return std::nullopt;
    if (p.min_count) ps.min_count = p.min_count->value;
    // The topology annotations below are checked as Kueue's webhooks check a
    // job's (topology_request.cpp), at the sample's own positions.
    ps.tas.path = path + ".template.metadata";
    Node requests = Node::mapping(p.mark);
    for (const auto& a : p.requests) {
        Node at = Node::string(a.written, a.mark);
        if (!a.absolute) {
            rep.invalid(&at, path + ".requests." + a.resource, "a per-pod request must be a quantity, not a share of a pool");
            return std::nullopt;
        }
        requests.set(a.resource, Node::string(a.absolute->to_string(), a.mark));
    }
    Node resources = Node::mapping(p.mark);
    resources.set("requests", std::move(requests));
    Node c = Node::mapping(p.mark);
    c.set("name", Node::string("main", p.mark));
    c.set("resources", std::move(resources));
    Node spec = Node::mapping(p.mark);
    spec.set("containers", Node::sequence(p.mark)).push(std::move(c));
    if (!p.node_selector.empty()) {
        Node sel = Node::mapping(p.mark);
        for (const auto& [k, v] : p.node_selector) sel.set(k.value, Node::string(v.value, v.mark));
        spec.set("nodeSelector", std::move(sel));
    }
    if (!p.tolerations.empty()) {
        Node tol = Node::sequence(p.mark);
        for (const auto& t : p.tolerations) tol.push(t);
        spec.set("tolerations", std::move(tol));
    }
    ps.tmpl = Node::mapping(p.mark);
    if (p.topology) {
        // As a job would carry them: Kueue's podset annotations.
        const auto& t = *p.topology;
        Node ann = Node::mapping(t.mark);
        namespace a = tas_annotations;
        auto add = [&](std::string_view key, const std::string& value, Mark at) {
            ann.set(std::string(key), Node::string(value, at.known() ? at : t.mark));
        };
        if (!t.required.value.empty()) add(a::kRequired, t.required.value, t.required.mark);
        if (!t.preferred.value.empty()) add(a::kPreferred, t.preferred.value, t.preferred.mark);
        if (t.unconstrained) add(a::kUnconstrained, t.unconstrained->value ? "true" : "false", t.unconstrained->mark);
        if (!t.slice_required.value.empty()) add(a::kSliceRequired, t.slice_required.value, t.slice_required.mark);
        if (t.slice_size) add(a::kSliceSize, std::to_string(t.slice_size->value), t.slice_size->mark);
        if (!t.group_name.value.empty()) add(a::kGroupName, t.group_name.value, t.group_name.mark);
        Node meta = Node::mapping(t.mark);
        meta.set("annotations", std::move(ann));
        ps.tmpl.set("metadata", std::move(meta));
    }
    ps.tmpl.set("spec", std::move(spec));
    return ps;
}

// The queue of a sample without an explicit one: LocalQueue `default` (Kueue's
// defaulting) or the namespace's annotated default queue (queueforge's
// teams, read by the CodeFlare SDK).
std::string default_queue(const ClusterContext& ctx, const std::string& ns) {
    if (find_local_queue(ctx, ns, std::string(kDefaultName))) return std::string(kDefaultName);
    if (const Resource* lq = annotated_default_queue(ctx, ns)) return lq->ref.name;
    return {};
}

std::optional<Resource> inline_sample(const site::Site& s, const site::Workload& w, const std::string& timestamp,
                                      const ClusterContext& ctx, Diagnostics& diags) {
    const std::string ns = w.namespace_.value.empty() ? std::string(kDefaultName) : w.namespace_.value;
    const Resource entry = entry_resource(s, w, ns);
    const Reporter rep(entry, diags);
    WorkloadHead head{.name = w.name.value, .namespace_ = ns, .queue = w.queue.value, .queue_mark = w.queue.mark,
                      .creation_timestamp = timestamp, .creation_mark = w.mark};
    if (head.queue.empty()) {
        head.queue = default_queue(ctx, ns);
        head.queue_mark = w.mark;
    }
    if (head.queue.empty()) {
        rep.report(Severity::Warning, "jobs.no-queue", &entry.doc, "queue",
                   "no queue given and namespace \"" + ns + "\" has no default LocalQueue: the sample is skipped");
        return std::nullopt;
    }
    Built built;
    for (std::size_t i = 0; i < w.pod_sets.size(); ++i) {
        auto ps = inline_pod_set(rep, w.pod_sets[i], i);
        if (!ps) return std::nullopt;
        built.pod_sets.push_back(std::move(*ps));
    }
    if (!check_pod_sets(rep, built, &entry.doc, "podSets")) return std::nullopt;
    built.tas.groups = true;
    if (!apply_topology_requests(rep, built)) return std::nullopt;
    const Node wpc_at = Node::string(w.priority_class.value, w.priority_class.mark.known() ? w.priority_class.mark : w.mark);
    auto priority = resolve_priority(ctx, rep, w.priority_class.value, &wpc_at, built);
    if (!priority) return std::nullopt;
    head.priority = *priority;
    return make_workload(entry, head, std::move(built));
}

// Replaces (or adds) `key` in `map`, keeping the replaced node's position:
// the Workload's file is the manifest, so its marks must point into it.
void override(Node& map, const std::string& key, const std::string& value) {
    const Node* old = map.find(key);
    const Mark m = old && old->mark().known() ? old->mark() : map.mark();
    map.set(key, Node::string(value, m));
}

// Lays the entry's settings (and the sample's creation time) over the job
// manifest(s) read from the file.
void apply_overrides(const site::Workload& w, const std::string& timestamp, const ClusterContext& ctx,
                     std::vector<Resource>& docs, Diagnostics& diags) {
    const auto jobs = std::count_if(docs.begin(), docs.end(), [](const Resource& r) { return is_job(r); });
    for (auto& r : docs) {
        if (!is_job(r)) continue;
        Node& meta = ensure_map(r.doc, "metadata", r.doc.mark());
        override(meta, "creationTimestamp", timestamp);
        if (jobs == 1 && !w.name.value.empty()) {
            override(meta, "name", w.name.value);
            r.ref.name = w.name.value;
        }
        if (!w.namespace_.value.empty()) {
            override(meta, "namespace", w.namespace_.value);
            r.ref.namespace_ = w.namespace_.value;
        }
        Node& labels = ensure_map(meta, "labels", meta.mark());
        if (!w.priority_class.value.empty()) override(labels, std::string(kPriorityLabel), w.priority_class.value);
        if (!w.queue.value.empty()) {
            override(labels, std::string(kQueueLabel), w.queue.value);
            continue;
        }
        const std::string ns = namespace_of(r);
        if (!text(label(r.doc, kQueueLabel)).empty() || find_local_queue(ctx, ns, std::string(kDefaultName))) continue;
        if (const Resource* lq = annotated_default_queue(ctx, ns)) {
            override(labels, std::string(kQueueLabel), lq->ref.name);
            Reporter(r, diags).report(Severity::Note, "jobs.annotated-default-queue", present(&r.doc, "metadata"), "metadata.labels",
                                      "queued to LocalQueue \"" + lq->ref.name + "\" (annotated " + std::string(kDefaultQueueAnnotation) +
                                          "); Kueue itself reads no such annotation and would ignore this job without a " +
                                          std::string(kQueueLabel) + " label");
        }
    }
}

std::optional<Resource> file_sample(const site::Site& s, const site::Workload& w, const std::string& timestamp,
                                    const std::string& site_dir, const ClusterContext& ctx, Diagnostics& diags,
                                    std::vector<SourceText>& sources, const ManifestCheck& check) {
    const std::size_t errors_before = diags.count(Severity::Error);
    auto file = read_sample_file(s, w, site_dir, diags);
    if (!file) return std::nullopt;
    LoadedResources& loaded = *file;
    for (auto& src : loaded.sources) sources.push_back(std::move(src));
    if (diags.count(Severity::Error) > errors_before) return std::nullopt;
    // The manifest as written is what the API server would get: checked
    // before the entry's settings are laid over it.
    if (check) {
        bool ok = true;
        for (const auto& r : loaded.resources) ok = check(r, diags) && ok;
        if (!ok) return std::nullopt;
    }

    apply_overrides(w, timestamp, ctx, loaded.resources, diags);
    const std::size_t findings_before = diags.all().size();
    // A TrainJob's (Cluster)TrainingRuntime may come in the same file.
    ClusterContext with_file = ctx;
    for (const Resource* r : cluster_context(loaded.resources).training_runtimes) with_file.training_runtimes.push_back(r);
    auto wls = workloads_from_jobs(loaded.resources, with_file, diags);
    if (wls.size() == 1) return std::move(wls.front());
    if (!wls.empty())
        diags.error(s.file, w.file.mark,
                    "workload \"" + w.name.value + "\": \"" + w.file.value + "\" yields " + std::to_string(wls.size()) +
                        " Workloads; a sample needs exactly one (one job per file, a LeaderWorkerSet with one group, a "
                        "Deployment with one replica)",
                    "site.workload");
    else if (diags.all().size() == findings_before)
        diags.error(s.file, w.file.mark, "workload \"" + w.name.value + "\": \"" + w.file.value + "\" holds no job queueforge converts",
                    "site.workload");
    return std::nullopt;
}

}  // namespace

std::vector<SampleWorkload> workloads_from_site(const site::Site& s, const std::string& site_dir,
                                                const ClusterContext& ctx, Diagnostics& diags) {
    std::vector<SourceText> ignored;
    return workloads_from_site(s, site_dir, ctx, diags, ignored);
}

std::vector<SampleWorkload> workloads_from_site(const site::Site& s, const std::string& site_dir,
                                                const ClusterContext& ctx, Diagnostics& diags,
                                                std::vector<SourceText>& sources, const ManifestCheck& check) {
    std::vector<SampleWorkload> out;
    for (std::size_t i = 0; i < s.workloads.size(); ++i) {
        const site::Workload& w = s.workloads[i];
        const std::string ts = timestamp_plus(kSampleEpoch, static_cast<std::int64_t>(i)).value_or(kSampleEpoch);
        auto wl = w.file.value.empty() ? inline_sample(s, w, ts, ctx, diags)
                                       : file_sample(s, w, ts, site_dir, ctx, diags, sources, check);
        if (wl) out.push_back({std::move(*wl), &w});
    }
    return out;
}

}  // namespace queueforge::workloads
