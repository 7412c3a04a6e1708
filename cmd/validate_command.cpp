#include "cli.hpp"

#include <queueforge/frontend/discover.hpp>
#include <queueforge/checks/policy.hpp>
#include <queueforge/backends/findings.hpp>
#include <queueforge/checks/validate.hpp>

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
    bool as_one_cluster = false;
    policy::Options policies;
};

int run_validate(ValidateFlags f) {
    const ReportFormat* format = find_report_format(f.output);
    if (!format) {
        std::cerr << "queueforge validate: unknown output format \"" << f.output << "\" (" << report_format_names() << ")\n";
        return kUsage;
    }
    ValidationOptions opts;
    opts.crd_paths = f.crds;
    opts.ignore_missing_schemas = f.ignore_missing;
    opts.list_objects = format->lists_objects;
    if (!f.target.empty()) {
        auto t = find_target(f.target);
        if (!t.target) {
            std::cerr << "queueforge validate: " << t.error << "\n";
            return kUsage;
        }
        opts.target = t.target;
    }
    // Several sites beneath the paths are validated each on its own
    // (discover.hpp); otherwise the paths are read together, as given.
    Diagnostics diags;
    auto clusters = discover::find_clusters(f.paths, {.as_one_cluster = f.as_one_cluster}, diags);
    if (clusters.empty()) return report(diags, {}, f.gate);
    if (clusters.size() == 1) clusters.front().inputs = f.paths;
    f.policies.disabled = f.gate.options.disable;
    f.policies.report_unknown_disabled = false;  // the gate knows every rule id
    ReportContext ctx;
    ValidationSummary summary;
    for (const auto& cluster : clusters) {
        Diagnostics found;
        LoadedResources input = load_resources(cluster.inputs, found);
        if (format->reads_sources) set_sources_aside(input);
        else release_unread_sources(input);
        merge_summary(summary, validate_all(input, opts, found));
        for (auto& id : policy::check_policies(input, f.policies, opts.target, found)) f.gate.extra_ids.push_back(id);
        const std::string site = clusters.size() > 1 ? cluster.label : std::string();
        if (site.empty()) {
            diags.append(std::move(found));
        } else {
            for (auto& d : std::move(found).release()) {
                d.site = site;
                diags.add(std::move(d));
            }
        }
        for (auto& src : input.sources) ctx.sources.push_back(std::move(src));
        ctx.inputs.insert(ctx.inputs.end(), cluster.inputs.begin(), cluster.inputs.end());
        if (!site.empty()) ctx.sites.push_back(site);
    }
    ctx.summary = f.summary;
    restore_sources(ctx.sources);
    return exit_without_teardown(finish_report(*format, diags, ctx, f.gate, std::move(summary)));
}

}  // namespace

Command add_validate(CLI::App& app) {
    auto flags = std::make_shared<ValidateFlags>();
    CLI::App* sub = app.add_subcommand(
        "validate", "Check Kueue, job and DataScienceCluster manifests (and site files) as the API server and Kueue would");
    sub->add_option("paths", flags->paths, "Files, folders or - for stdin (YAML, JSON, List, kubectl dumps)")->required();
    sub->add_option("-o,--output", flags->output, "Findings format: " + report_format_names());
    sub->add_option("--crd", flags->crds, "Add the CRDs in this file or folder; each replaces the built-in schema of its kind (repeatable)")
        ->allow_extra_args(false);  // one value per --crd: the paths after it stay positional
    sub->add_option("--target", flags->target, "Also report what this target does not serve (e.g. rhoai-2.16, kueue-0.13)");
    add_gate_flags(*sub, flags->gate, true);
    sub->add_flag("--ignore-missing-schemas", flags->ignore_missing, "Skip kinds without a schema instead of failing");
    sub->add_flag("--summary", flags->summary, "Print the number of objects checked per kind");
    sub->add_flag("--as-one-cluster", flags->as_one_cluster,
                  "Read every path as one cluster even when they hold several sites");
    add_policy_flags(*sub, flags->policies);
    sub->footer(R"(When the paths hold several sites (queueforge-site.yaml or files of kind Site), each site is
validated on its own and every finding names its site.

Examples:
  queueforge validate manifests/
  kubectl get clusterqueues,localqueues,resourceflavors -A -o yaml | queueforge validate -
  queueforge validate --crd crds/ --target rhoai-2.19 -o sarif manifests/ > results.sarif
  queueforge validate --policy policies/ --disable default-local-queue manifests/
  queueforge validate --disable xref.missing-clusterqueue tenant/queues/   # any rule id: queueforge rules

Exit codes: 0 no finding at or above the fail level, 1 a finding at or above it (invalid input included),
2 usage error or an unreadable path, 70 internal error.)");
    return {sub, [flags] { return run_validate(*flags); }, /*huge_pages=*/true};
}

}  // namespace queueforge::cli
