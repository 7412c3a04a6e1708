// ObjectValidator: layers 1 and 2 for one object, shared by validate,
// simulate and check.
#include <queueforge/checks/rules.hpp>
#include <queueforge/checks/validate.hpp>

#include "checks/openapi/cel_validation.hpp"
#include "checks/validate/builtin_schemas.hpp"
#include "checks/validate/workload_inputs.hpp"

#include <algorithm>

namespace queueforge {

namespace {

bool kueue_kind(const Resource& r) { return r.ref.api_version.starts_with("kueue.x-k8s.io/"); }

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

}  // namespace queueforge
