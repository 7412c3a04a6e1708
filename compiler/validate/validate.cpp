#include <queueforge/lower.hpp>
#include <queueforge/openapi.hpp>
#include <queueforge/rules.hpp>
#include <queueforge/site_parse.hpp>
#include <queueforge/validate.hpp>

#include "validate/builtin_schemas.hpp"

#include <map>
#include <set>

namespace queueforge {

namespace {

bool is_site(const Resource& r) { return r.ref.kind == "Site" && r.ref.api_version.starts_with("queueforge.io/"); }

// The pools of a site as Node objects (one per pool, allocatable = nodes x
// per-node allocatable), so the capacity check sees a site like a cluster dump.
void add_pool_nodes(const site::Site& s, const std::string& file, std::vector<Resource>& out) {
    for (const auto& p : s.pools) {
        if (!p.nodes || p.allocatable.empty()) continue;
        Node doc = Node::mapping(p.mark);
        doc.set("apiVersion", Node::string("v1"));
        doc.set("kind", Node::string("Node"));
        Node meta = Node::mapping(p.mark);
        meta.set("name", Node::string(p.name.value + ".pool"));
        Node labels = Node::mapping();
        for (const auto& [k, v] : p.node_labels) labels.set(k.value, Node::string(v.value));
        meta.set("labels", std::move(labels));
        doc.set("metadata", std::move(meta));
        Node alloc = Node::mapping();
        for (const auto& a : p.allocatable)
            if (auto total = a.absolute->mul(p.nodes->value)) alloc.set(a.resource, Node::string(total->to_string()));
        Node status = Node::mapping();
        status.set("allocatable", std::move(alloc));
        doc.set("status", std::move(status));
        Resource r;
        r.file = file;
        r.doc = std::move(doc);
        r.ref = {"v1", "Node", "", p.name.value + ".pool"};
        out.push_back(std::move(r));
    }
}

// Compiles a site found among the inputs; its objects join the checks with
// their origin in the site file as position.
void compile_site_resource(const Resource& r, const ValidationOptions& opts, std::vector<Resource>& generated,
                           std::vector<Resource>& pool_nodes, Diagnostics& diags) {
    auto s = parse_site(r.doc, r.file, diags);
    if (!s) return;
    LowerOptions lo;
    if (opts.target) lo.target_override = opts.target->name;
    auto lowered = lower_site(*s, diags, lo);
    add_pool_nodes(*s, r.file, pool_nodes);
    if (!lowered) return;
    for (auto& o : lowered->objects) {
        Resource g;
        g.file = r.file;
        g.doc = std::move(o.doc);
        g.doc.set_mark(o.origin);
        g.ref = {o.api_version, o.kind, o.namespace_, o.name};
        generated.push_back(std::move(g));
    }
}

bool kueue_kind(const Resource& r) { return r.ref.api_version.starts_with("kueue.x-k8s.io/"); }

}  // namespace

ValidationSummary validate_all(LoadedResources& input, const ValidationOptions& opts, Diagnostics& diags) {
    openapi::SchemaSet schemas;
    const bool custom = !opts.crd_paths.empty();
    if (custom) openapi::load_crds(opts.crd_paths, schemas, diags);
    else validate::load_builtin_schemas(schemas, diags);

    std::vector<Resource> checked, generated, pool_nodes;
    for (auto& r : input.resources) {
        if (is_site(r)) compile_site_resource(r, opts, generated, pool_nodes, diags);
        else checked.push_back(r);
    }

    ValidationSummary summary;
    std::map<std::string, std::size_t> per_kind;
    std::set<std::pair<std::string, std::string>> cel_reported;
    auto check_one = [&](const Resource& r) {
        ++summary.objects;
        ++per_kind[r.ref.kind];
        summary.checked.push_back({r.file, r.ref});
        const openapi::Schema* schema = schemas.find(r.ref.api_version, r.ref.kind);
        if (!schema) {
            if (!opts.ignore_missing_schemas)
                diags.add({Severity::Error, r.file, r.doc.mark(),
                           "no schema for " + r.ref.api_version + " " + r.ref.kind +
                               (custom ? " in the CRDs given with --crd" : " among queueforge's built-in schemas") +
                               "; add its CRD with --crd, or skip such objects with --ignore-missing-schemas",
                           "schema.missing", r.ref, ""});
            return;
        }
        openapi::validate(*schema, r.doc, r.file, r.ref, diags);
        if (custom && cel_reported.insert({r.ref.api_version, r.ref.kind}).second) {
            auto cel = openapi::cel_rules(*schema);
            if (!cel.empty())
                diags.add({Severity::Note, r.file, r.doc.mark(),
                           std::to_string(cel.size()) + " CEL rule(s) (x-kubernetes-validations) of the " + r.ref.kind +
                               " CRD were not evaluated" +
                               (kueue_kind(r) ? "; Kueue's own rules are checked natively" : ""),
                           "schema.cel-not-evaluated", r.ref, ""});
        }
        if (kueue_kind(r)) rules::check_object(r, diags);
    };
    for (const auto& r : checked) check_one(r);
    for (const auto& r : generated) check_one(r);

    std::vector<Resource> all = checked;
    all.insert(all.end(), generated.begin(), generated.end());
    all.insert(all.end(), pool_nodes.begin(), pool_nodes.end());
    rules::CrossOptions xo;
    xo.target = opts.target;
    rules::check_cross_objects(all, xo, diags);

    summary.per_kind.assign(per_kind.begin(), per_kind.end());
    return summary;
}

}  // namespace queueforge
