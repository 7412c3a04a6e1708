#pragma once
// `validate`: schema (layer 1), Kueue's own rules (layer 2) and cross-object
// checks (layer 3) over any set of manifests, site descriptions included.
#include <queueforge/base/diagnostics.hpp>
#include <queueforge/frontend/manifests.hpp>
#include <queueforge/frontend/platform.hpp>

#include <queueforge/checks/openapi.hpp>

#include <memory>
#include <optional>
#include <set>
#include <string>
#include <tuple>
#include <vector>

namespace queueforge {

namespace validate {
class BuiltinSchemas;  // compiler/checks/validate/builtin_schemas.hpp
}

// Layers 1 and 2 for single objects, as `validate`, `simulate` and `check`
// all run them: the schemas are queueforge's built-ins (Kueue, Kubernetes,
// job operators, OpenShift AI), with the CRDs given with --crd adding kinds
// and replacing built-ins per group/version/kind. CRDs are compiled when the
// validator is made, each built-in schema when its kind is first checked;
// every schema once.
class ObjectValidator {
public:
    explicit ObjectValidator(const std::vector<std::string>& crd_paths, Diagnostics& diags);
    ~ObjectValidator();
    ObjectValidator(ObjectValidator&&) noexcept;
    ObjectValidator& operator=(ObjectValidator&&) noexcept;

    // What to do with a kind no schema covers.
    enum class Missing { Error, Skip };
    // Schema checks of `r` (and, where its schema came from a CRD, the CRD's
    // CEL rules), then Kueue's own rules for kueue.x-k8s.io kinds. False when
    // it reported an error. Without `status`, findings about the status are
    // left out: the API server drops the status of a created object, and a
    // running Workload's status comes from the cluster (simulate reads it).
    bool check(const Resource& r, Diagnostics& diags, Missing missing = Missing::Skip, bool status = true);
    bool has_schema(const std::string& api_version, const std::string& kind) const;
    // Whether CRDs were given (--crd): then the validator notes each CRD's
    // rule problems once, so one validator must check all objects.
    bool uses_crds() const { return custom_; }

private:
    std::unique_ptr<validate::BuiltinSchemas> builtins_;
    openapi::SchemaSet crds_;
    bool custom_ = false;
    std::set<std::pair<std::string, std::string>> cel_compiled_;  // kinds whose rule problems were reported
    std::set<std::tuple<std::string, int, int>> cel_noted_;       // rules reported (versions may share a file)
};

struct ValidationOptions {
    std::vector<std::string> crd_paths;  // --crd: CRDs that add to (and per kind override) the built-in schemas
    bool ignore_missing_schemas = false;
    std::optional<Target> target;        // --target
    // Keep every checked object in ValidationSummary::checked (what JUnit
    // lists); without it only the files they are in are kept.
    bool list_objects = true;
    // 0: from 2,000 plain objects (no site, no Kueue manager ConfigMap) on a
    // machine with two cores, each object's checks run on a second thread
    // beside the cross-object checks; 1: one thread; 2: two whatever the
    // size. The findings are the same either way.
    unsigned threads = 0;
};

struct ValidationSummary {
    std::size_t objects = 0;
    std::vector<std::pair<std::string, std::size_t>> per_kind;  // sorted by kind
    std::vector<CheckedObject> checked;                          // in input order (ValidationOptions::list_objects)
    std::vector<std::string> files;                              // the files of the checked objects, each once
};

// Validates everything in `input`. Site documents (queueforge.io Site) are
// compiled, and the objects they lower to join the cross-object checks; the
// job manifests their `workloads[].file` entries name are validated too.
ValidationSummary validate_all(LoadedResources& input, const ValidationOptions& opts, Diagnostics& diags);
// The same with a validator the caller keeps (its compiled schemas are
// reused from call to call); opts.crd_paths is not read, the validator's
// CRDs are used.
ValidationSummary validate_all(LoadedResources& input, const ValidationOptions& opts, ObjectValidator& validator,
                               Diagnostics& diags);

// Frees the text of every input source that nothing but a report's source
// lines would read: for report formats without them (ReportFormat::
// reads_sources), called before validate_all. Kept: the files that may hold
// the gate's suppressions (gate::may_hold_suppressions) and those with a Kueue
// manager ConfigMap, whose embedded configuration is read from the text.
// The paths stay. 29 MiB of 100,000 objects' YAML not held through the checks.
void release_unread_sources(LoadedResources& input);
// The same for report formats with source lines: the texts read from regular
// files are let go through the checks and read again for the report by
// restore_sources, when the trees are gone (as compilers read a source file
// again to print a diagnostic's line). A file whose text is no longer the
// one checked (its size or hash differ) keeps no text: its findings print
// without source lines rather than with another file's. Stdin and pipes
// keep their texts.
void set_sources_aside(LoadedResources& input);
void restore_sources(std::vector<SourceText>& sources);
// One text set aside like that (compile.hpp, CompileInputs::keep_site), when
// it was read from a regular file and may hold no suppression.
void set_source_aside(SourceText& src);

}  // namespace queueforge
