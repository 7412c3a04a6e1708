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
    std::string fail_level = "error";
    bool strict = false;
    bool ignore_missing = false;
    bool summary = false;
    policy::Options policies;
};

int run_validate(const ValidateFlags& f) {
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
    policy::check_policies(input, f.policies, opts.target, diags);
    if (f.strict) diags.promote_warnings();
    diags.sort();

    ReportContext ctx;
    ctx.sources = input.sources;
    ctx.inputs = f.paths;
    ctx.summary = f.summary;
    return finish_report(*format, diags, ctx, f.fail_level, summary);
}

}  // namespace

Command add_validate(CLI::App& app) {
    auto flags = std::make_shared<ValidateFlags>();
    CLI::App* sub = app.add_subcommand(
        "validate", "Check Kueue, job and DataScienceCluster manifests (and site files) as the API server and Kueue would");
    sub->add_option("paths", flags->paths, "Files, folders or - for stdin (YAML, JSON, List, kubectl dumps)")->required();
    sub->add_option("-o,--output", flags->output, "text, json, sarif, junit or github");
    sub->add_option("--crd", flags->crds, "Add the CRDs in this file or folder; each replaces the built-in schema of its kind (repeatable)");
    sub->add_option("--target", flags->target, "Also report what this target does not serve (e.g. rhoai-2.16, kueue-0.13)");
    sub->add_option("--fail-level", flags->fail_level, "Lowest severity that fails the run")
        ->check(CLI::IsMember({"error", "warning", "note"}));
    sub->add_flag("--strict", flags->strict, "Treat warnings as errors");
    sub->add_flag("--ignore-missing-schemas", flags->ignore_missing, "Skip kinds without a schema instead of failing");
    sub->add_flag("--summary", flags->summary, "Print the number of objects checked per kind");
    add_policy_flags(*sub, flags->policies);
    sub->footer(R"(Examples:
  queueforge validate manifests/
  kubectl get clusterqueues,localqueues,resourceflavors -A -o yaml | queueforge validate -
  queueforge validate --crd crds/ --target rhoai-2.19 -o sarif manifests/ > results.sarif
  queueforge validate --policy policies/ --disable default-local-queue manifests/

Exit codes: 0 no finding at or above the fail level, 1 findings, 2 usage or I/O error.)");
    return {sub, [flags] { return run_validate(*flags); }};
}

}  // namespace queueforge::cli
