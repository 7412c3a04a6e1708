#include "cli.hpp"

#include <queueforge/capacity.hpp>

#include <iostream>

namespace queueforge::cli {

namespace {

struct CapacityFlags {
    std::string site = ".";
    std::string output = "text";
    std::string target;
    GateFlags gate;
};

int run_capacity(const CapacityFlags& f) {
    if (f.output != "text" && f.output != "json") {
        std::cerr << "queueforge capacity: unknown output format \"" << f.output << "\" (text, json)\n";
        return kUsage;
    }
    Diagnostics diags;
    std::vector<SourceText> sources;
    auto r = capacity::load(f.site, {.target = f.target}, diags, sources);
    if (int rc = report(diags, sources, f.gate); rc != kOk) return rc;
    if (!r) return kInvalid;
    std::cout << (f.output == "json" ? capacity::render_json(*r) : capacity::render_text(*r));
    std::cout.flush();
    return std::cout.good() ? kOk : kInvalid;
}

}  // namespace

Command add_capacity(CLI::App& app) {
    auto flags = std::make_shared<CapacityFlags>();
    CLI::App* sub = app.add_subcommand(
        "capacity", "Physical capacity, quotas, guaranteed and burst amounts per pool, team and cohort");
    sub->add_option("site", flags->site, "Site file, or a folder holding queueforge-site.yaml (default: .)");
    sub->add_option("-o,--output", flags->output, "Output format: text (aligned tables) or json");
    sub->add_option("--target", flags->target, "Override the site's target (e.g. rhoai-3.5, kueue-0.13)");
    add_gate_flags(*sub, flags->gate);
    sub->footer(R"(Per pool: nodes x allocatable against the sum of nominal quotas (commit ratio) and the
largest pod one node holds. Per team: nominal, limits, guaranteed (never lent: nominal -
lendingLimit), max burst (nominal + borrowingLimit, capped by what the cohort tree lends).
Per cohort: the tree and its totals. Computed from the compiled ClusterQueues and Cohorts.

Examples:
  queueforge capacity examples/multi-team
  queueforge capacity queueforge-site.yaml -o json | jq '.pools[] | {name, resources}'
  queueforge capacity site.yaml --target rhoai-3.5

Exit codes: 0 ok, 1 invalid input or a finding at error level, 2 usage error or an unreadable path, 70 internal
error.)");
    return {sub, [flags] { return run_capacity(*flags); }};
}

}  // namespace queueforge::cli
