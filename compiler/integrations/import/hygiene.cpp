// Input hygiene: what a live cluster adds to an object (status, managed
// fields, resource versions, Kueue's own finalizer, kubectl's last-applied
// copy) is not part of the desired state and is removed before anything is
// inferred. Objects are then classified and de-duplicated.
#include "integrations/import/items.hpp"
#include "integrations/import/tree.hpp"

#include <queueforge/base/yaml_load.hpp>
#include <queueforge/frontend/kueue_operator.hpp>

#include <unordered_map>

namespace queueforge::importer {

namespace {

constexpr std::string_view kServerMetadata[] = {"managedFields", "resourceVersion", "uid", "creationTimestamp",
                                                "generation", "selfLink", "deletionTimestamp",
                                                "deletionGracePeriodSeconds"};

// Removes `key` when its value is empty; returns whether it was there.
void drop_if_empty(Node& map, std::string_view key) {
    if (const Node* v = map.find(key); v && is_unset(v)) map.erase(key);
}

bool strip(Node& doc, const std::string& kind, const std::string& name) {
    bool changed = doc.erase("status");
    Node* meta = doc.find("metadata");
    if (!meta || !meta->is_map()) return changed;
    // `namespace: null` is no namespace.
    if (const Node* ns = meta->find("namespace"); ns && ns->is_null()) meta->erase("namespace");
    for (auto key : kServerMetadata) changed = meta->erase(key) || changed;
    if (Node* ann = meta->find("annotations"); ann && ann->is_map()) {
        changed = ann->erase("kubectl.kubernetes.io/last-applied-configuration") || changed;
        drop_if_empty(*meta, "annotations");
    }
    // Kueue's webhook adds this finalizer to ResourceFlavors and ClusterQueues.
    if (Node* fin = meta->find("finalizers"); fin && fin->is_seq()) {
        auto& items = fin->items();
        auto before = items.size();
        items.erase(std::remove_if(items.begin(), items.end(), [](const Node& f) { return f.text() == "kueue.x-k8s.io/resource-in-use"; }), items.end());
        changed = changed || items.size() != before;
        drop_if_empty(*meta, "finalizers");
    }
    if (kind == "Namespace") {
        // The API server labels every namespace with its name and gives it the
        // kubernetes finalizer.
        if (Node* labels = meta->find("labels"); labels && labels->is_map()) {
            if (const Node* l = labels->find("kubernetes.io/metadata.name"); l && l->text() == name)
                changed = labels->erase("kubernetes.io/metadata.name") || changed;
            drop_if_empty(*meta, "labels");
        }
        if (Node* spec = doc.find("spec"); spec && spec->is_map()) {
            if (const Node* f = spec->find("finalizers");
                f && f->is_seq() && f->size() == 1 && f->items()[0].text() == "kubernetes")
                changed = spec->erase("finalizers") || changed;
            drop_if_empty(doc, "spec");
        }
    }
    return changed;
}

std::string group_of(const std::string& api_version) {
    auto slash = api_version.find('/');
    return slash == std::string::npos ? std::string() : api_version.substr(0, slash);
}

Kind classify(const std::string& api_version, const std::string& kind) {
    const std::string group = group_of(api_version);
    const std::string version = api_version.substr(api_version.find('/') + 1);
    if (group == "kueue.x-k8s.io") {
        const bool queues_api = version == "v1beta1" || version == "v1beta2";
        if (kind == "ResourceFlavor" && queues_api) return Kind::ResourceFlavor;
        if (kind == "ClusterQueue" && queues_api) return Kind::ClusterQueue;
        if (kind == "LocalQueue" && queues_api) return Kind::LocalQueue;
        if (kind == "WorkloadPriorityClass" && queues_api) return Kind::WorkloadPriorityClass;
        if (kind == "Cohort" && (queues_api || version == "v1alpha1")) return Kind::Cohort;
        return Kind::Other;
    }
    if (group == "datasciencecluster.opendatahub.io" && kind == "DataScienceCluster" && (version == "v1" || version == "v2"))
        return Kind::DataScienceCluster;
    if (api_version == "v1" && kind == "Namespace") return Kind::Namespace;
    return Kind::Other;
}

}  // namespace

std::string position(const Item& it, Mark m) {
    if (!m.known()) m = it.mark();
    return it.file + ":" + std::to_string(m.line) + ":" + std::to_string(m.col);
}

std::vector<Item> read_items(std::vector<Resource> resources, Diagnostics& diags) {
    std::vector<Item> items;
    items.reserve(resources.size());
    // group/kind/namespace/name -> item: the identity of an object on a cluster
    // (its API version is only a view of it).
    std::unordered_map<std::string, std::size_t> seen, identities;
    seen.reserve(resources.size());
    identities.reserve(resources.size());
    std::size_t stripped = 0;
    std::string first_stripped_file;
    Mark first_stripped_mark;
    for (auto& r : resources) {
        Item it;
        it.file = std::move(r.file);
        it.doc = std::move(r.doc);
        it.api_version = std::move(r.ref.api_version);
        it.kind_name = std::move(r.ref.kind);
        it.ns = std::move(r.ref.namespace_);
        it.name = std::move(r.ref.name);
        if (it.api_version.starts_with("queueforge.io/") && it.kind_name == "Site") {
            diags.warning(it.file, it.mark(),
                          "a queueforge Site is not a Kubernetes object and is not imported (import reads the "
                          "manifests a site builds)",
                          "import.site-file");
            continue;
        }
        const Node* meta = it.doc.find("metadata");
        const Node* name_node = meta && meta->is_map() ? meta->find("name") : nullptr;
        const Node* ns_node = meta && meta->is_map() ? meta->find("namespace") : nullptr;
        if ((name_node && name_node->kind() != Node::Kind::String) ||
            (ns_node && ns_node->kind() != Node::Kind::String && !ns_node->is_null())) {
            diags.warning(it.file, it.mark(), it.kind_name + ": metadata.name and metadata.namespace must be strings; not imported",
                          "import.unnamed");
            continue;
        }
        if (it.name.empty()) {
            const bool generated = meta && meta->is_map() && meta->find("generateName");
            diags.warning(it.file, it.mark(),
                          it.kind_name + " without metadata.name cannot be imported" +
                              (generated ? " (objects named by generateName are created by controllers, not declared)"
                                         : " (not a Kubernetes object a cluster holds; a tool's configuration file?)"),
                          "import.unnamed");
            continue;
        }
        if (strip(it.doc, it.kind_name, it.name) && stripped++ == 0) {
            first_stripped_file = it.file;
            first_stripped_mark = it.mark();
        }
        it.kind = classify(it.api_version, it.kind_name);
        std::string key = group_of(it.api_version);
        key += '\0';
        key += it.kind_name;
        key += '\0';
        key += it.ns;
        key += '\0';
        key += it.name;
        // queueforge names the objects it writes by kind, namespace and name
        // (file names, duplicate checks): two API groups cannot share one.
        std::string short_key = it.kind_name + '\0' + it.ns + '\0' + it.name;
        if (auto other = identities.find(short_key);
            other != identities.end() && group_of(items[other->second].api_version) != group_of(it.api_version)) {
            const Item& first = items[other->second];
            diags.warning(it.file, it.mark(),
                          it.display() + " (" + it.api_version + ") has the kind and name of " + first.display() + " (" +
                              first.api_version + ") at " + position(first, first.mark()) +
                              "; queueforge writes objects by kind and name and cannot keep both, so it is not imported",
                          "import.unkept");
            continue;
        }
        auto [pos, inserted] = seen.try_emplace(std::move(key), items.size());
        if (!inserted) {
            const Item& first = items[pos->second];
            if (first.api_version == it.api_version && equivalent(first.doc, it.doc)) {
                diags.note(it.file, it.mark(),
                           it.display() + " is also defined at " + position(first, first.mark()) +
                               " with the same content; imported once",
                           "import.duplicate");
            } else {
                diags.error(it.file, it.mark(),
                            it.display() + " is defined twice with different content: at " +
                                position(first, first.mark()) + " and at " + position(it, it.mark()) +
                                "; keep one of them",
                            "import.conflict");
            }
            continue;
        }
        identities.emplace(std::move(short_key), items.size());
        items.push_back(std::move(it));
    }
    if (stripped > 0)
        diags.note(first_stripped_file, first_stripped_mark,
                   "removed what the cluster sets (status, managedFields, resourceVersion, uid, creationTimestamp, "
                   "generation, last-applied-configuration, Kueue's finalizer) from " +
                       std::to_string(stripped) + (stripped == 1 ? " object" : " objects"),
                   "import.hygiene");
    return items;
}

std::optional<Node> kueue_manager_configuration(const Item& it) {
    if (it.kind_name != "ConfigMap" || it.api_version != "v1" || it.name != platform::kKueueManagerConfigMap) return std::nullopt;
    const Node* text = at(it.doc, {"data", platform::kKueueManagerConfigKey});
    if (!text || !text->is_scalar()) return std::nullopt;
    Diagnostics ignored;
    auto docs = load_yaml(it.file, text->text(), ignored);
    if (ignored.has_errors() || docs.size() != 1 || !docs[0].root.is_map()) return std::nullopt;
    if (text_at(docs[0].root, {"kind"}) != "Configuration" ||
        !text_at(docs[0].root, {"apiVersion"}).starts_with("config.kueue.x-k8s.io/"))
        return std::nullopt;
    return std::move(docs[0].root);
}

}  // namespace queueforge::importer
