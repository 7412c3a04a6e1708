// `queueforge check`: the one command CI jobs and pre-commit hooks call --
// compile the site, validate everything, run the sample workloads'
// expectations and, with --rendered, compare committed manifests -- with
// every finding in one report.
#include "cli.hpp"

#include <queueforge/emit.hpp>
#include <queueforge/lower.hpp>
#include <queueforge/report.hpp>
#include <queueforge/sim_scenarios.hpp>
#include <queueforge/site_parse.hpp>
#include <queueforge/validate.hpp>

#include <filesystem>
#include <iostream>

namespace queueforge::cli {

namespace {

struct CheckFlags {
    std::vector<std::string> paths;
    std::string output = "text";
    std::string rendered;
    std::string target;
    std::string fail_level = "error";
    bool strict = false;
    bool no_simulate = false;
};

int run_check(const CheckFlags& f) {
    auto format = parse_report_format(f.output);
    if (!format) {
        std::cerr << "queueforge check: unknown output format \"" << f.output << "\" (text, json, sarif, junit, github)\n";
        return kUsage;
    }
    std::vector<std::string> paths = f.paths.empty() ? std::vector<std::string>{"."} : f.paths;
    Diagnostics diags;
    ValidationOptions vo;
    vo.ignore_missing_schemas = true;  // job manifests and core kinds sit beside the site
    if (!f.target.empty()) {
        auto t = find_target(f.target);
        if (!t.target) {
            std::cerr << "queueforge check: " << t.error << "\n";
            return kUsage;
        }
        vo.target = t.target;
    }
    // Folders holding a site are read as the site; validate compiles it.
    std::vector<std::string> inputs;
    for (const auto& p : paths) inputs.push_back(site_path(p));
    LoadedResources input = load_resources(inputs, diags);
    ValidationSummary summary = validate_all(input, vo, diags);

    if (!f.no_simulate && !diags.has_errors()) {
        Diagnostics sim_diags;
        auto report = scenarios::run({paths, f.target, 0}, sim_diags);
        if (report) diags.append(scenarios::findings(*report));
        for (const auto& d : sim_diags.all())
            if (d.severity == Severity::Error) diags.add(d);
    }
    if (!f.rendered.empty() && !diags.has_errors()) {
        for (const auto& p : paths) {
            std::string file = site_path(p);
            Diagnostics site_diags;
            auto site = load_site_file(file, site_diags);
            if (!site) continue;
            auto lowered = lower_site(*site, site_diags, {.target_override = f.target});
            if (lowered) check_objects(f.rendered, lowered->objects, std::filesystem::path(file).filename().string(), diags);
        }
    }
    if (f.strict) diags.promote_warnings();
    diags.sort();
    ReportContext ctx;
    ctx.sources = input.sources;
    ctx.inputs = inputs;
    return finish_report(*format, diags, ctx, f.fail_level, summary);
}

}  // namespace

Command add_check(CLI::App& app) {
    auto flags = std::make_shared<CheckFlags>();
    CLI::App* sub = app.add_subcommand("check", "Build, validate and simulate a site in one go (what CI and hooks run)");
    sub->add_option("paths", flags->paths, "Sites (folders with queueforge-site.yaml or site files) and manifests (default: .)");
    sub->add_option("-o,--output", flags->output, "text, json, sarif, junit or github");
    sub->add_option("--rendered", flags->rendered, "Also fail when the rendered manifests in this folder drifted from the site");
    sub->add_option("--target", flags->target, "Override the site's target");
    sub->add_option("--fail-level", flags->fail_level, "Lowest severity that fails the run")
        ->check(CLI::IsMember({"error", "warning", "note"}));
    sub->add_flag("--strict", flags->strict, "Treat warnings as errors");
    sub->add_flag("--no-simulate", flags->no_simulate, "Skip the sample workloads' admission simulation");
    sub->footer(R"(Examples:
  queueforge check                                  # the site in the current folder
  queueforge check clusters/prod --rendered clusters/prod/rendered -o sarif > results.sarif

Exit codes: 0 nothing at or above the fail level, 1 findings, 2 usage or I/O error.)");
    return {sub, [flags] { return run_check(*flags); }};
}

}  // namespace queueforge::cli
