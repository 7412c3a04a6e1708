// Site document → site::Site. Shape and types only; meaning (references,
// target rules, quota arithmetic) is checked when lowering.
#include <queueforge/frontend/site_parse.hpp>

#include "frontend/site/extends.hpp"
#include "frontend/site/parse_parts.hpp"
#include "frontend/site/reader.hpp"

#include <algorithm>
#include <filesystem>

namespace queueforge {

using namespace site;

bool is_site_document(const Node& root) {
    const Node* kind = root.is_map() ? root.find("kind") : nullptr;
    return kind && kind->text() == "Site";
}

namespace {

void read_target(const Reader& r, const Node& n, TargetSpec& t) {
    t.mark = n.mark();
    if (n.kind() == Node::Kind::String) {
        r.read_text(&n, "spec.target", t.name);
        return;
    }
    if (!r.expect_map(n, "spec.target",
                      {"openshiftAI", "kueue", "kueueAPIVersion", "dscAPIVersion", "cohortAPIVersion"}))
        return;
    // Versions are often written unquoted (2.10 is a float to YAML): take the spelling.
    auto version_text = [&](const char* key, Text& out) {
        const Node* v = n.find(key);
        if (!v) return;
        if (v->is_scalar() && !v->is_null() && v->kind() != Node::Kind::Bool)
            out = {v->text(), v->mark()};
        else
            r.error(v->mark(), std::string("spec.target.") + key + ": expected a version such as \"2.16\"",
                    "site.type");
    };
    version_text("openshiftAI", t.openshift_ai);
    version_text("kueue", t.kueue);
    if (!t.openshift_ai.value.empty() && !t.kueue.value.empty())
        r.error(n.find("kueue")->mark(),
                "spec.target: give either openshiftAI or kueue, not both (OpenShift AI fixes its Kueue version)",
                "site.target");
    if (t.openshift_ai.value.empty() && t.kueue.value.empty())
        r.error(n.mark(), "spec.target: one of openshiftAI or kueue is required", "site.target");
    r.read_enum(n.find("kueueAPIVersion"), "spec.target.kueueAPIVersion", t.kueue_api_version, {"v1beta1", "v1beta2"});
    r.read_enum(n.find("dscAPIVersion"), "spec.target.dscAPIVersion", t.dsc_api_version, {"v1", "v2"});
    r.read_enum(n.find("cohortAPIVersion"), "spec.target.cohortAPIVersion", t.cohort_api_version,
                {"none", "v1alpha1", "v1beta1", "v1beta2"});
}

void read_dsc(const Reader& r, const Node& n, DataScienceCluster& d) {
    d.mark = n.mark();
    if (!r.expect_map(n, "spec.dataScienceCluster",
                      {"emit", "name", "components", "autoCreateQueues", "defaultLocalQueueName",
                       "defaultClusterQueueName"}))
        return;
    std::optional<Located<bool>> emit;
    if (r.read_bool(n.find("emit"), "spec.dataScienceCluster.emit", emit)) d.emit = emit->value;
    r.read_name(n.find("name"), "spec.dataScienceCluster.name", d.name);
    if (const Node* c = n.find("components")) {
        if (c->is_map()) {
            for (const auto& e : c->entries()) {
                Text state;
                std::string what = "spec.dataScienceCluster.components." + e.key;
                if (r.read_enum(&e.value, what, state, {"Managed", "Unmanaged", "Removed"}))
                    d.components.emplace_back(Text{e.key, e.key_mark()}, state);
            }
        } else {
            r.error(c->mark(), "spec.dataScienceCluster.components: expected a map of component to managementState",
                    "site.type");
        }
    }
    r.read_bool(n.find("autoCreateQueues"), "spec.dataScienceCluster.autoCreateQueues", d.auto_create_queues);
    r.read_name(n.find("defaultLocalQueueName"), "spec.dataScienceCluster.defaultLocalQueueName",
                d.default_local_queue_name);
    r.read_name(n.find("defaultClusterQueueName"), "spec.dataScienceCluster.defaultClusterQueueName",
                d.default_cluster_queue_name);
}

// `release`, when not null, is `n` itself, which the caller owns and needs no
// more: each item's tree is freed once it is read, so that a large list's
// tree and the model read from it are not held at once.
template <class T, class F>
void read_list(const Reader& r, const Node* n, const char* what, std::vector<T>& out, F read_one, Node* release = nullptr) {
    if (!n || !r.expect_seq(*n, what)) return;
    // Sized once: a site of 10,000 teams keeps its model while it is lowered.
    out.reserve(out.size() + n->items().size());
    for (std::size_t i = 0; i < n->items().size(); ++i) {
        T item;
        std::string label = std::string(what) + "[" + std::to_string(i) + "]";
        if (read_one(r, n->items()[i], label, item)) out.push_back(std::move(item));
        if (release) release->items()[i] = Node();
    }
}

// parse_site; `owned`, when not null, is `root` itself, owned by the caller
// and needed no more once read: the teams' trees are freed as they are read.
std::optional<Site> read_site_model(const Node& root, Node* owned, const std::string& file, Diagnostics& diags) {
    Reader r{file, diags};
    std::size_t errors_before = diags.count(Severity::Error);
    Site s;
    s.file = file;
    s.mark = root.mark();
    if (!r.expect_map(root, "site", {"apiVersion", "kind", "metadata", "spec"})) return std::nullopt;

    Text api, kind;
    if (!r.read_text(root.find("apiVersion"), "apiVersion", api))
        r.error(root.mark(), "apiVersion: required (\"" + std::string(kSiteApiVersion) + "\")", "site.required");
    else if (api.value != kSiteApiVersion)
        r.error(api.mark, "apiVersion: \"" + api.value + "\" is not supported; expected \"" + kSiteApiVersion + "\"",
                "site.api-version");
    if (r.read_text(root.find("kind"), "kind", kind) && kind.value != "Site")
        r.error(kind.mark, "kind: expected \"Site\", got \"" + kind.value + "\"", "site.kind");

    const Node* meta = root.find("metadata");
    if (!meta) {
        r.error(root.mark(), "metadata.name: required", "site.required");
    } else if (r.expect_map(*meta, "metadata", {"name", "annotations", "labels"})) {
        if (!meta->find("name")) r.error(meta->mark(), "metadata.name: required", "site.required");
        r.read_name(meta->find("name"), "metadata.name", s.name);
    }

    const Node* spec = root.find("spec");
    if (!spec) {
        r.error(root.mark(), "spec: required", "site.required");
        return std::nullopt;
    }
    if (!r.expect_map(*spec, "spec",
                      {"target", "dataScienceCluster", "manageNamespaces", "topologies", "pools", "cohorts", "priorityClasses",
                       "teamDefaults", "teams", "workloads", "patches", "passthrough", "hardwareProfiles",
                       "kueueOperator", "kueueConfig"}))
        return std::nullopt;

    if (const Node* t = spec->find("target"))
        read_target(r, *t, s.target);
    else
        r.error(spec->mark(), "spec.target: required (e.g. rhoai-2.16, rhoai-3.5 or kueue-0.13)", "site.required");
    if (const Node* d = spec->find("dataScienceCluster")) read_dsc(r, *d, s.dsc);
    r.read_bool(spec->find("manageNamespaces"), "spec.manageNamespaces", s.manage_namespaces);
    if (const Node* td = spec->find("teamDefaults")) read_team_defaults(r, *td, s.team_defaults);

    read_list(r, spec->find("topologies"), "spec.topologies", s.topologies, read_topology);
    read_list(r, spec->find("pools"), "spec.pools", s.pools, read_pool);
    read_list(r, spec->find("cohorts"), "spec.cohorts", s.cohorts, read_cohort);
    read_list(r, spec->find("priorityClasses"), "spec.priorityClasses", s.priority_classes, read_priority_class);
    Node* owned_teams = owned && owned->find("spec") ? owned->find("spec")->find("teams") : nullptr;
    read_list(r, spec->find("teams"), "spec.teams", s.teams, read_team, owned_teams);
    read_list(r, spec->find("workloads"), "spec.workloads", s.workloads, read_workload);
    read_list(r, spec->find("patches"), "spec.patches", s.patches, read_patch);
    read_list(r, spec->find("passthrough"), "spec.passthrough", s.passthrough, read_passthrough);
    if (const Node* h = spec->find("hardwareProfiles")) read_hardware_profiles(r, *h, s.hardware_profiles.emplace());
    for (const auto& e : spec->entries())
        if (e.key == "kueueOperator") read_kueue_operator(r, e.value, e.key_mark(), s.kueue_operator.emplace());
        else if (e.key == "kueueConfig") read_kueue_config(r, e.value, e.key_mark(), s.kueue_config.emplace());

    if (diags.count(Severity::Error) > errors_before) return std::nullopt;
    return s;
}

// The one document of a site file's text, or nullopt with an error.
std::optional<Node> one_document(const std::string& path, const std::string& text, Diagnostics& diags) {
    auto docs = load_yaml(path, text, diags);
    if (diags.has_errors()) return std::nullopt;
    if (docs.size() != 1) {
        diags.error(path, docs.empty() ? Mark{1, 1} : docs[1].start,
                    docs.empty() ? "the file holds no document; expected one Site"
                                 : "the file holds " + std::to_string(docs.size()) +
                                       " documents; a site file holds exactly one Site",
                    "site.documents");
        return std::nullopt;
    }
    return std::move(docs[0].root);
}

// load_site_document; `owned` as for read_site_model.
std::optional<Site> load_document(const Node& root, Node* owned, const std::string& path, Diagnostics& diags,
                                  std::vector<SourceText>* base_sources);

}  // namespace

std::optional<Site> parse_site(const Node& root, const std::string& file, Diagnostics& diags) {
    return read_site_model(root, nullptr, file, diags);
}

std::optional<Site> parse_site_text(const std::string& path, const std::string& text, Diagnostics& diags) {
    auto root = one_document(path, text, diags);
    if (!root) return std::nullopt;
    return parse_site(*root, path, diags);
}

std::optional<Site> load_site_document(const Node& root, const std::string& path, Diagnostics& diags,
                                       std::vector<SourceText>* base_sources) {
    return load_document(root, nullptr, path, diags, base_sources);
}

namespace {

std::optional<Site> load_document(const Node& root, Node* owned, const std::string& path, Diagnostics& diags,
                                  std::vector<SourceText>* base_sources) {
    if (const Node* kind = root.is_map() ? root.find("kind") : nullptr;
        kind && kind->is_scalar() && kind->text() == site::kBaseKind) {
        diags.error(path, kind->mark(),
                    path + " is a " + site::kBaseKind +
                        ": a base that sites extend (spec.extends), not a cluster, so it is never built, checked or "
                        "simulated alone; give the command a site that extends it",
                    "extends.base-alone");
        return std::nullopt;
    }
    std::vector<SourceText> bases;
    const Node* spec = root.is_map() ? root.find("spec") : nullptr;
    std::optional<Node> merged;
    if (spec && spec->is_map() && spec->find("extends")) {
        merged = site::resolve_extends(path, root, diags, bases);
        if (base_sources) base_sources->insert(base_sources->end(), bases.begin(), bases.end());
        if (!merged) return std::nullopt;
    }
    auto s = merged ? read_site_model(*merged, &*merged, path, diags) : read_site_model(root, owned, path, diags);
    if (!s) return std::nullopt;
    s->inputs.push_back(path);
    for (const auto& b : bases)
        if (std::find(s->inputs.begin(), s->inputs.end(), b.path) == s->inputs.end()) s->inputs.push_back(b.path);
    namespace fs = std::filesystem;
    for (const auto& w : s->workloads) {
        if (w.file.value.empty()) continue;
        // A job file is relative to the file that names it (site or base).
        const std::string from = w.file.mark.file ? *w.file.mark.file : path;
        const std::string job = (fs::path(from).parent_path() / w.file.value).lexically_normal().generic_string();
        if (std::find(s->inputs.begin(), s->inputs.end(), job) == s->inputs.end()) s->inputs.push_back(job);
    }
    return s;
}

}  // namespace

std::optional<Site> load_site_file(const std::string& path, Diagnostics& diags, std::string* text_out,
                                   std::vector<SourceText>* base_sources,
                                   const std::function<void(std::string&)>& parsed) {
    // The caller's string when it keeps the text: a large site is not held twice.
    std::string own;
    std::string& text = text_out ? *text_out : own;
    if (!read_file_limited(path, text, diags)) return std::nullopt;
    auto root = one_document(path, text, diags);
    if (!root) return std::nullopt;
    if (parsed) parsed(text);
    return load_document(*root, &*root, path, diags, base_sources);
}

std::optional<Site> load_site_text(const std::string& path, const std::string& text, Diagnostics& diags,
                                   std::vector<SourceText>* base_sources) {
    auto root = one_document(path, text, diags);
    if (!root) return std::nullopt;
    return load_document(*root, &*root, path, diags, base_sources);
}

std::vector<SourceText> site_sources(const std::string& path, std::string text, std::vector<SourceText> bases) {
    std::vector<SourceText> out{{path, std::move(text)}};
    for (auto& b : bases) out.push_back(std::move(b));
    return out;
}

}  // namespace queueforge
