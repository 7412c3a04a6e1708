// Model construction: sorts the input into kinds, then delegates to the
// per-topic builders. Also the Model's interning helpers.
#include "engines/scheduler/cluster_state.hpp"

#include "engines/scheduler/afs_build.hpp"

#include <algorithm>
#include <set>
#include <tuple>

namespace queueforge::scheduler::detail {

int Model::resource_id(const std::string& name) {
    auto [it, inserted] = resource_ids.emplace(name, static_cast<int>(resource_names.size()));
    if (inserted) resource_names.push_back(name);
    return it->second;
}

int Model::flavor_id(const std::string& name) {
    auto [it, inserted] = flavor_ids.emplace(name, static_cast<int>(flavors.size()));
    if (inserted) {
        Flavor f;
        f.name = name;
        flavors.push_back(std::move(f));
    }
    return it->second;
}

int Model::fr_id(int flavor, int resource) {
    std::int64_t key = (static_cast<std::int64_t>(flavor) << 32) | static_cast<std::uint32_t>(resource);
    auto [it, inserted] = fr_ids.emplace(key, static_cast<int>(frs.size()));
    if (inserted) frs.emplace_back(flavor, resource);
    return it->second;
}

int Model::find_fr(int flavor, int resource) const {
    std::int64_t key = (static_cast<std::int64_t>(flavor) << 32) | static_cast<std::uint32_t>(resource);
    auto it = fr_ids.find(key);
    return it == fr_ids.end() ? -1 : it->second;
}

void Model::sort_requests(Requests& r) const {
    std::sort(r.begin(), r.end(),
              [&](const auto& a, const auto& b) { return resource_names[a.first] < resource_names[b.first]; });
}

void check_object_name(const Reader& rd, const std::string& what, const std::string& name) {
    bool ok = !name.empty() && name.size() <= 253;
    for (std::size_t i = 0; ok && i < name.size(); ++i) {
        char c = name[i];
        bool alnum = (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9');
        if (!alnum && c != '-' && c != '.') ok = false;
        if ((i == 0 || i + 1 == name.size()) && !alnum) ok = false;
    }
    if (!ok)
        rd.warning(nullptr,
                   what + " name \"" + name +
                       "\" is not a valid DNS-1123 subdomain; an API server would reject it (simulated as given)",
                   "sim.name");
}

namespace {

bool is_kueue(const Resource& r) { return r.ref.api_version.rfind("kueue.x-k8s.io/", 0) == 0; }
bool is_core(const Resource& r) { return r.ref.api_version == "v1"; }

}  // namespace

void add_namespaces(const std::vector<const Resource*>& namespaces, Model& m, Diagnostics& diags) {
    // Their labels as the model reads them; the objects only for findings.
    const model::Cluster c = model::build_cluster(namespaces);
    for (const auto& ns : c.namespaces) {
        Reader rd{*namespaces[static_cast<std::size_t>(ns.source)], diags};
        rd.map_at(rd.map_at(&rd.r.doc, "metadata"), "labels");
        m.namespaces[ns.name].labels = ns.labels;
    }
}

Model build_model(const std::vector<Resource>& objects, Diagnostics& diags, WorkloadContext* keep) {
    // Canonical order: kind, namespace, name, then where it came from.
    std::vector<const Resource*> sorted;
    sorted.reserve(objects.size());
    for (const auto& r : objects) sorted.push_back(&r);
    std::stable_sort(sorted.begin(), sorted.end(), [](const Resource* a, const Resource* b) {
        return std::tie(a->ref.kind, a->ref.namespace_, a->ref.name, a->file, a->doc_index) <
               std::tie(b->ref.kind, b->ref.namespace_, b->ref.name, b->file, b->doc_index);
    });
    Inputs in;
    std::set<std::tuple<std::string, std::string, std::string>> seen;
    for (const Resource* r : sorted) {
        const std::string& kind = r->ref.kind;
        std::vector<const Resource*>* list = nullptr;
        if (is_kueue(*r)) {
            if (kind == "ResourceFlavor") list = &in.flavors;
            else if (kind == "Cohort") list = &in.cohorts;
            else if (kind == "ClusterQueue") list = &in.cluster_queues;
            else if (kind == "LocalQueue") list = &in.local_queues;
            else if (kind == "Workload") list = &in.workloads;
            else if (kind == "WorkloadPriorityClass") list = &in.priority_classes;
            else if (kind == "AdmissionCheck") list = &in.admission_checks;
            else if (kind == "Topology") list = &in.topologies;
        } else if (r->ref.api_version.rfind("config.kueue.x-k8s.io/", 0) == 0 && kind == "Configuration") {
            list = &in.configs;
        } else if (r->ref.api_version == "kueue.openshift.io/v1" && kind == "Kueue") {
            list = &in.configs;  // gangScheduling only (build_config.cpp)
        } else if (is_core(*r)) {
            if (kind == "Namespace") list = &in.namespaces;
            else if (kind == "LimitRange") list = &in.limit_ranges;
            else if (kind == "Node") list = &in.nodes;
            else if (kind == "Pod") list = &in.pods;
            else if (kind == "ConfigMap" && r->ref.name == "kueue-manager-config") list = &in.configs;
        }
        if (!list) continue;
        std::string ns = r->ref.namespace_;
        if (kind == "Workload" || kind == "LocalQueue" || kind == "LimitRange" || kind == "Pod")
            if (ns.empty()) ns = "default";
        if (kind != "Configuration" && kind != "ConfigMap" && kind != "Kueue" && !seen.emplace(kind, ns, r->ref.name).second) {
            Reader rd{*r, diags};
            rd.warning(nullptr, "duplicate " + kind + " \"" + r->ref.name + "\"; the first one (by file order) is used",
                       "sim.duplicate");
            continue;
        }
        list->push_back(r);
    }

    for (const auto* list : {&in.flavors, &in.cohorts, &in.cluster_queues, &in.local_queues, &in.priority_classes})
        in.cluster_objects.insert(in.cluster_objects.end(), list->begin(), list->end());
    in.cluster = model::build_cluster(in.cluster_objects);

    Model m;
    build_config(in, m.config, diags);

    add_namespaces(in.namespaces, m, diags);

    WorkloadContext ctx;
    auto& limit_ranges = ctx.limit_ranges;
    for (const Resource* r : in.limit_ranges) {
        Reader rd{*r, diags};
        std::string ns = r->ref.namespace_.empty() ? "default" : r->ref.namespace_;
        if (const Node* spec = rd.map_at(&r->doc, "spec")) add_limit_range(rd, *spec, limit_ranges[ns]);
        else limit_ranges[ns].any = true;
    }

    auto& priority_classes = ctx.priority_classes;
    for (const auto& pc : in.cluster.priority_classes) {
        Reader rd{*in.cluster_objects[static_cast<std::size_t>(pc.source)], diags};
        auto v = rd.int_at(&rd.r.doc, "value");
        if (!v || !pc.has_value) {
            rd.error(nullptr, "WorkloadPriorityClass has no integer value; ignored");
            continue;
        }
        priority_classes[pc.name] = static_cast<std::int32_t>(pc.value);
    }

    build_queues(in, m, diags);
    check_afs_weights(m, diags);
    build_topologies(in, m, diags);
    add_workloads(in.workloads, m, ctx, diags);
    index_workloads(m);
    if (keep) *keep = std::move(ctx);
    return m;
}

}  // namespace queueforge::scheduler::detail
