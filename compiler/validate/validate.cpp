#include <queueforge/lower.hpp>
#include <queueforge/openapi.hpp>
#include <queueforge/rules.hpp>
#include <queueforge/site_parse.hpp>
#include <queueforge/validate.hpp>

#include "openapi/cel_validation.hpp"
#include "validate/builtin_schemas.hpp"
#include "validate/workload_inputs.hpp"

#include <queueforge/sim_workloads.hpp>

#include <algorithm>
#include <filesystem>
#include <map>
#include <set>
#include <tuple>

namespace queueforge {

namespace {

bool is_site(const Resource& r) { return r.ref.kind == "Site" && r.ref.api_version.starts_with("queueforge.io/"); }

// Compiles a site found among the inputs; its objects join the checks with
// their origin in the site file as position.
void compile_site_resource(const Resource& r, const ValidationOptions& opts, std::vector<Resource>& generated,
                           std::vector<Resource>& pool_nodes, std::vector<Resource>& samples,
                           std::vector<SourceText>& sources, Diagnostics& diags) {
    auto s = parse_site(r.doc, r.file, diags);
    if (!s) return;
    if (r.file != "-" && r.file != "<stdin>") {
        auto files = jobs::read_sample_files(*s, std::filesystem::path(r.file).parent_path().string(), diags);
        samples.insert(samples.end(), std::make_move_iterator(files.resources.begin()),
                       std::make_move_iterator(files.resources.end()));
        sources.insert(sources.end(), files.sources.begin(), files.sources.end());
    }
    LowerOptions lo;
    if (opts.target) lo.target_override = opts.target->name;
    auto lowered = lower_site(*s, diags, lo);
    add_pool_nodes(*s, r.file, pool_nodes);
    if (!lowered) return;
    for (auto& o : lowered->objects) generated.push_back(resource_of(std::move(o), r.file));
}

bool kueue_kind(const Resource& r) { return r.ref.api_version.starts_with("kueue.x-k8s.io/"); }

std::string canonical(const std::string& file) {
    std::error_code ec;
    auto p = std::filesystem::weakly_canonical(file, ec);
    return ec ? file : p.string();
}

}  // namespace

ObjectValidator::ObjectValidator(const std::vector<std::string>& crd_paths, Diagnostics& diags)
    : builtins_(std::make_unique<validate::BuiltinSchemas>()), custom_(!crd_paths.empty()) {
    if (custom_) openapi::load_crds(crd_paths, crds_, diags);
}

ObjectValidator::~ObjectValidator() = default;
ObjectValidator::ObjectValidator(ObjectValidator&&) noexcept = default;
ObjectValidator& ObjectValidator::operator=(ObjectValidator&&) noexcept = default;

bool ObjectValidator::has_schema(const std::string& api_version, const std::string& kind) const {
    return crds_.find(api_version, kind) || validate::BuiltinSchemas::has(api_version, kind);
}

bool ObjectValidator::check(const Resource& r, Diagnostics& diags, Missing missing, bool status) {
    if (!status) {
        Diagnostics all;
        check(r, all, missing, true);
        bool ok = true;
        for (const auto& d : all.all()) {
            if (d.path == "status" || d.path.starts_with("status.") || d.path.starts_with("status[")) continue;
            ok = ok && d.severity != Severity::Error;
            diags.add(d);
        }
        return ok;
    }
    const std::size_t errors_before = diags.count(Severity::Error);
    // A CRD given with --crd wins over the built-in schema of its kind.
    const openapi::Schema* schema = crds_.find(r.ref.api_version, r.ref.kind);
    const bool from_crd = schema != nullptr;
    if (!schema) schema = builtins_->find(r.ref.api_version, r.ref.kind, diags);
    if (!schema) {
        if (missing == Missing::Error)
            diags.add({Severity::Error, r.file, r.doc.mark(),
                       "no schema for " + r.ref.api_version + " " + r.ref.kind + " among queueforge's built-in schemas" +
                           (custom_ ? " or the CRDs given with --crd" : "") +
                           "; add its CRD with --crd, or skip such objects with --ignore-missing-schemas",
                       "schema.missing", r.ref, ""});
        return diags.count(Severity::Error) == errors_before;
    }
    const std::size_t structural_from = diags.all().size();
    // Kueue's manager Configuration is a file, not an API object: no
    // metadata to check.
    if (r.ref.api_version.starts_with("config.kueue.x-k8s.io/"))
        openapi::validate_value(*schema, r.doc, r.file, "", r.ref, diags);
    else
        openapi::validate(*schema, r.doc, r.file, r.ref, diags);
    // The CRD's CEL rules (x-kubernetes-validations) run as on the API
    // server. Only for CRDs given with --crd: the built-in schemas' rules are
    // Kueue's, which layer 2 (rules::check_object) implements natively.
    Diagnostics cel;
    if (from_crd && schema->cel_below) {
        if (cel_compiled_.insert({r.ref.api_version, r.ref.kind}).second) {
            for (const auto& p : openapi::cel_problems(*schema)) {
                if (!cel_noted_.insert({p.entry->file, p.entry->mark.line, p.entry->mark.col}).second) continue;
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
    validate::check_workload_input(r, diags);
    // Kueue's CEL rules are also implemented natively (with finer
    // positions and rule ids): a CEL finding with the very same message
    // is the same finding.
    for (const auto& d : cel.all()) {
        const auto& all = diags.all();
        const bool duplicate = std::any_of(all.begin() + static_cast<std::ptrdiff_t>(native_from), all.end(),
                                           [&](const Diagnostic& n) { return n.message == d.message; });
        if (!duplicate) diags.add(d);
    }
    return diags.count(Severity::Error) == errors_before;
}

ValidationSummary validate_all(LoadedResources& input, const ValidationOptions& opts, Diagnostics& diags) {
    ObjectValidator validator(opts.crd_paths, diags);

    std::vector<Resource> checked, generated, pool_nodes, samples;
    std::vector<SourceText> sample_sources;
    for (auto& r : input.resources) {
        if (is_site(r)) compile_site_resource(r, opts, generated, pool_nodes, samples, sample_sources, diags);
        else checked.push_back(r);
    }
    // A site's sample manifests are usually inputs too (the site's folder
    // was given): each file is checked once.
    std::set<std::string> given;
    for (const auto& src : input.sources) given.insert(canonical(src.path));
    std::set<std::string> added;
    for (auto& src : sample_sources)
        if (!given.count(canonical(src.path)) && added.insert(canonical(src.path)).second) input.sources.push_back(src);

    ValidationSummary summary;
    std::map<std::string, std::size_t> per_kind;
    const auto missing = opts.ignore_missing_schemas ? ObjectValidator::Missing::Skip : ObjectValidator::Missing::Error;
    auto check_one = [&](const Resource& r) {
        ++summary.objects;
        ++per_kind[r.ref.kind];
        summary.checked.push_back({r.file, r.ref});
        validator.check(r, diags, missing);
    };
    for (const auto& r : checked) check_one(r);
    for (const auto& r : generated) check_one(r);
    for (const auto& r : samples)
        if (!given.count(canonical(r.file))) check_one(r);

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
