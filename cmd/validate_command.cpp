#include "cli.hpp"

#include <queueforge/policy.hpp>
#include <queueforge/report.hpp>
#include <queueforge/validate.hpp>

#include <iostream>

namespace queueforge::cli {

namespace {

struct ValidateFlags {
    std::vector<std::string> paths;
    std::vector<std::string> crds;
    std::string output = "text";
    std::string target;
    GateFlags gate;
    bool ignore_missing = false;
    bool summary = false;
    policy::Options policies;
};

int run_validate(ValidateFlags f) {
    auto format = parse_report_format(f.output);
    if (!format) {
        std::cerr << "queueforge validate: unknown output format \"" << f.output << "\" (text, json, sarif, junit, github)\n";
        return kUsage;
    }
    ValidationOptions opts;
    opts.crd_paths = f.crds;
    opts.ignore_missing_schemas = f.ignore_missing;
    if (!f.target.empty()) {
        auto t = find_target(f.target);
        if (!t.target) {
            std::cerr << "queueforge validate: " << t.error << "\n";
            return kUsage;
        }
        opts.target = t.target;
    }
    Diagnostics diags;
    LoadedResources input = load_resources(f.paths, diags);
    ValidationSummary summary = validate_all(input, opts, diags);
    f.policies.disabled = f.gate.options.disable;
    f.policies.report_unknown_disabled = false;  // the gate knows every rule id
    f.gate.extra_ids = policy::check_policies(input, f.policies, opts.target, diags);

    ReportContext ctx;
    ctx.sources = input.sources;
    ctx.inputs = f.paths;
    ctx.summary = f.summary;
    return finish_report(*format, diags, ctx, f.gate, summary);
}

}  // namespace

Command add_validate(CLI::App& app) {
    auto flags = std::make_shared<ValidateFlags>();
    CLI::App* sub = app.add_subcommand(
        "validate", "Check Kueue, job and DataScienceCluster manifests (and site files) as the API server and Kueue would");
    sub->add_option("paths", flags->paths, "Files, folders or - for stdin (YAML, JSON, List, kubectl dumps)")->required();
    sub->add_option("-o,--output", flags->output, "text, json, sarif, junit or github");
    sub->add_option("--crd", flags->crds, "Add the CRDs in this file or folder; each replaces the built-in schema of its kind (repeatable)")
        ->allow_extra_args(false);  // one value per --crd: the paths after it stay positional
    sub->add_option("--target", flags->target, "Also report what this target does not serve (e.g. rhoai-2.16, kueue-0.13)");
    add_gate_flags(*sub, flags->gate, true);
    sub->add_flag("--ignore-missing-schemas", flags->ignore_missing, "Skip kinds without a schema instead of failing");
    sub->add_flag("--summary", flags->summary, "Print the number of objects checked per kind");
    add_policy_flags(*sub, flags->policies);
    sub->footer(R"(Examples:
  queueforge validate manifests/
  kubectl get clusterqueues,localqueues,resourceflavors -A -o yaml | queueforge validate -
  queueforge validate --crd crds/ --target rhoai-2.19 -o sarif manifests/ > results.sarif
  queueforge validate --policy policies/ --disable default-local-queue manifests/
  queueforge validate --disable xref.missing-clusterqueue tenant/queues/   # any rule id: queueforge rules

Exit codes: 0 no finding at or above the fail level, 1 a finding at or above it (invalid input included),
2 usage error or an unreadable path, 70 internal error.)");
    return {sub, [flags] { return run_validate(*flags); }};
}

}  // namespace queueforge::cli
