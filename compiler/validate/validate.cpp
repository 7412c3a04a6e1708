#include <queueforge/lower.hpp>
#include <queueforge/openapi.hpp>
#include <queueforge/rules.hpp>
#include <queueforge/site_parse.hpp>
#include <queueforge/validate.hpp>

#include "openapi/cel_validation.hpp"
#include "validate/builtin_schemas.hpp"

#include <algorithm>
#include <map>
#include <set>
#include <tuple>

namespace queueforge {

namespace {

bool is_site(const Resource& r) { return r.ref.kind == "Site" && r.ref.api_version.starts_with("queueforge.io/"); }

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
    for (auto& o : lowered->objects) generated.push_back(resource_of(std::move(o), r.file));
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
    std::set<std::pair<std::string, std::string>> cel_compiled;  // kinds whose rule problems were reported
    std::set<std::tuple<std::string, int, int>> cel_noted;       // rules reported (versions may share a file)
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
        const std::size_t structural_from = diags.all().size();
        openapi::validate(*schema, r.doc, r.file, r.ref, diags);
        // The CRD's CEL rules (x-kubernetes-validations) run as on the API
        // server. Only with --crd: the built-in schemas' rules are Kueue's,
        // which layer 2 (rules::check_object) implements natively.
        Diagnostics cel;
        if (custom && schema->cel_below) {
            if (cel_compiled.insert({r.ref.api_version, r.ref.kind}).second) {
                for (const auto& p : openapi::cel_problems(*schema)) {
                    if (!cel_noted.insert({p.entry->file, p.entry->mark.line, p.entry->mark.col}).second) continue;
                    diags.add({Severity::Note, p.entry->file, p.entry->mark,
                               "the x-kubernetes-validations rule " + std::string(p.path.empty() ? "at the root" : "at " + p.path) +
                                   " of the " + r.ref.kind + " CRD " + p.message +
                                   (p.message.starts_with("has ") ? "" : "; it is not evaluated"),
                               "schema.cel-not-evaluated", {}, p.path});
                }
            }
            const auto& all = diags.all();
            const bool blocked = std::any_of(all.begin() + static_cast<std::ptrdiff_t>(structural_from), all.end(),
                                             [](const Diagnostic& d) { return openapi::blocks_cel(d); });
            if (blocked)
                diags.add({Severity::Note, r.file, r.doc.mark(),
                           "the CEL rules (x-kubernetes-validations) of the " + r.ref.kind +
                               " CRD were not evaluated because the object is invalid; correct the errors above "
                               "to complete validation (the API server skips them too)",
                           "schema.cel-not-evaluated", r.ref, ""});
            else
                openapi::validate_cel(*schema, r.doc, r.file, r.ref, cel);
        }
        const std::size_t native_from = diags.all().size();
        if (kueue_kind(r)) rules::check_object(r, diags);
        // Kueue's CEL rules are also implemented natively (with finer
        // positions and rule ids): a CEL finding with the very same message
        // is the same finding.
        for (const auto& d : cel.all()) {
            const auto& all = diags.all();
            const bool duplicate = std::any_of(all.begin() + static_cast<std::ptrdiff_t>(native_from), all.end(),
                                               [&](const Diagnostic& n) { return n.message == d.message; });
            if (!duplicate) diags.add(d);
        }
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
