#include "cli.hpp"

#include <queueforge/sim_scenarios.hpp>

#include <iostream>

namespace queueforge::cli {

namespace {

struct SimulateFlags {
    std::vector<std::string> paths;
    std::string output = "text";
    std::string target;
    int cycles = 0;
};

int run_simulate(const SimulateFlags& f) {
    if (f.output != "text" && f.output != "json") {
        std::cerr << "queueforge simulate: unknown output format \"" << f.output << "\" (text, json)\n";
        return kUsage;
    }
    if (f.cycles < 0) {
        std::cerr << "queueforge simulate: --cycles must be 0 (until nothing changes) or more\n";
        return kUsage;
    }
    Diagnostics diags;
    scenarios::Options opts{f.paths.empty() ? std::vector<std::string>{"."} : f.paths, f.target, f.cycles};
    auto report = scenarios::run(opts, diags);
    std::vector<SourceText> sources = report ? report->sources : std::vector<SourceText>{};
    diags.sort();
    std::cerr << render_text(diags, sources);
    if (!report) return kInvalid;
    std::cout << (f.output == "json" ? scenarios::format_json(*report) : scenarios::format_text(*report));
    std::cout.flush();
    return report->all_expectations_met && !report->some_never_admitted && !report->node_shape_problems ? kOk : kInvalid;
}

}  // namespace

Command add_simulate(CLI::App& app) {
    auto flags = std::make_shared<SimulateFlags>();
    CLI::App* sub = app.add_subcommand("simulate", "Simulate Kueue's admission of sample workloads, offline");
    sub->add_option("paths", flags->paths,
                    "Sites (folders with queueforge-site.yaml), Kueue manifests, Workloads (kubectl get workloads -A -o yaml) and job manifests");
    sub->add_option("-o,--output", flags->output, "text or json");
    sub->add_option("--target", flags->target, "Override the sites' target");
    sub->add_option("--cycles", flags->cycles, "Stop after N scheduling cycles (0: until nothing changes)");
    sub->footer(R"(Examples:
  queueforge simulate examples/multi-team
  queueforge simulate examples/multi-team running-workloads.yaml -o json
  queueforge simulate queues/ jobs/ --cycles 1

Exit codes: 0 every expectation holds, 1 an expectation fails, a sample can never be admitted,
an admitted pod fits no node of its flavor (site pools or Node objects), or invalid input;
2 usage error.)");
    return {sub, [flags] { return run_simulate(*flags); }};
}

}  // namespace queueforge::cli
