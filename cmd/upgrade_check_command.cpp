#include "cli.hpp"

#include <queueforge/integrations/upgrade.hpp>

#include <iostream>

namespace queueforge::cli {

namespace {

struct UpgradeFlags {
    std::vector<std::string> paths;
    std::string from, to;
    std::string output = "text";
    GateFlags gate;
};

// -o: the upgrade report (text, json) or any findings format but those two.
std::string output_names() {
    std::string out = "text, json";
    for (const auto& fmt : report_formats())
        if (fmt.name != "text" && fmt.name != "json") out += ", " + std::string(fmt.name);
    return out;
}

// The rule configuration (.queueforge.yaml, --disable, ...) applies to the
// findings as it does for validate, so a finding the repository switched off
// does not break its upgrade either.
int gate_findings(std::vector<Diagnostic>& found, std::vector<SourceText> sources, const GateFlags& g) {
    Diagnostics d;
    for (auto& x : found) d.add(std::move(x));
    int rc = apply_gate(d, sources, g);
    found = d.all();
    return rc;
}

int run_upgrade_check(const UpgradeFlags& f) {
    const bool own = f.output == "text" || f.output == "json";
    const ReportFormat* format = own ? nullptr : find_report_format(f.output);
    if (!own && (!format || f.output == "text" || f.output == "json")) {
        std::cerr << "queueforge upgrade-check: unknown output format \"" << f.output << "\" (" << output_names() << ")\n";
        return kUsage;
    }
    for (const auto* t : {&f.from, &f.to}) {
        auto lookup = find_target(*t);
        if (!lookup.target) {
            std::cerr << "queueforge upgrade-check: " << (t == &f.from ? "--from: " : "--to: ") << lookup.error << "\n";
            return kUsage;
        }
    }
    Diagnostics diags;
    auto r = upgrade::check({.paths = f.paths, .from = f.from, .to = f.to}, diags);
    if (!r) {
        const int rc = report(diags, {}, f.gate);
        return rc == kOk ? kInvalid : rc;
    }
    for (auto* found : {&r->started, &r->stopped, &r->unchanged})
        if (int rc = gate_findings(*found, r->sources, f.gate); rc != kOk) return rc;
    if (format) {
        Diagnostics findings = upgrade::as_findings(*r);
        ReportContext ctx;
        ctx.sources = r->sources;
        ctx.inputs = f.paths;
        ctx.sites = r->sites;
        return finish_report(*format, findings, ctx, f.gate, {});
    }
    std::cout << (f.output == "json" ? upgrade::render_json(*r) : upgrade::render_text(*r));
    std::cout.flush();
    if (!std::cout.good()) return kInvalid;
    return r->breaks() ? kInvalid : kOk;
}

}  // namespace

Command add_upgrade_check(CLI::App& app) {
    auto flags = std::make_shared<UpgradeFlags>();
    CLI::App* sub = app.add_subcommand(
        "upgrade-check", "What changes for this repository between two targets, and whether it breaks on the new one");
    sub->add_option("paths", flags->paths, "Sites (files or folders) and manifests (default: .)");
    sub->add_option("--from", flags->from, "The target the cluster runs now (e.g. rhoai-3.4, kueue-0.19)")->required();
    sub->add_option("--to", flags->to, "The target it moves to (e.g. rhoai-3.5, kueue-0.20)")->required();
    sub->add_option("-o,--output", flags->output, "Output format: " + output_names() + " (the last ones: findings formats)");
    add_gate_flags(*sub, flags->gate);
    sub->footer(R"(For each cluster beneath the paths: the platform changes between the two targets (API versions
and fields served, defaults, limits, DataScienceCluster components and states, the operator's
queue creation, support statements), each with its release note and the objects of the
repository it concerns; the findings that start, stop and stay when the repository is validated
under each target; and the objects each site emits differently. Works both ways (a downgrade
lists what the older release lacks).

Examples:
  queueforge upgrade-check --from rhoai-3.4 --to rhoai-3.5 examples/rhoai-3
  queueforge upgrade-check --from kueue-0.19 --to kueue-0.20 manifests/ -o json
  queueforge upgrade-check --from rhoai-3.4 --to rhoai-3.5 clusters/ -o sarif > upgrade.sarif

Exit codes: 0 the repository works on the new target, 1 it breaks there (a finding at error level
on the new target or a breaking change that concerns it; or invalid input), 2 usage error or an
unreadable path, 70 internal error.)");
    return {sub, [flags] { return run_upgrade_check(*flags); }};
}

}  // namespace queueforge::cli
