#include "cli.hpp"
#include "simulate_timeline.hpp"

#include <queueforge/report.hpp>
#include <queueforge/sim_scenarios.hpp>

#include <iostream>

namespace queueforge::cli {

namespace {

struct SimulateFlags {
    std::vector<std::string> paths;
    std::string output = "text";
    std::string target;
    int cycles = 0;
    std::string scenario, thresholds;
    int series_points = 50;
};

int run_simulate(const SimulateFlags& f) {
    if (!f.scenario.empty()) {
        if (f.cycles != 0) {
            std::cerr << "queueforge simulate: --cycles does not apply to --scenario (the timeline runs to its end)\n";
            return kUsage;
        }
        return run_timeline({f.scenario, f.thresholds, f.paths, f.target, f.output, f.series_points});
    }
    if (!f.thresholds.empty()) {
        std::cerr << "queueforge simulate: --thresholds needs --scenario\n";
        return kUsage;
    }
    if (f.output != "text" && f.output != "json" && f.output != "junit" && f.output != "sarif") {
        std::cerr << "queueforge simulate: unknown output format \"" << f.output << "\" (text, json, junit, sarif)\n";
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
    if (f.output == "junit" || f.output == "sarif") {
        // Failed expectations as findings; every sample is a JUnit test case.
        ReportContext ctx;
        ctx.tool_version = QF_VERSION;
        ctx.sources = report->sources;
        for (const auto& s : report->workloads)
            if (s.alone || s.expect) {
                ctx.objects.push_back({s.together.file, {"kueue.x-k8s.io/v1beta2", "Workload", s.together.namespace_, s.together.name}});
                ++ctx.objects_checked;
            }
        for (const auto& src : report->sources) ctx.inputs.push_back(src.path);
        std::cout << format_report(f.output == "junit" ? ReportFormat::Junit : ReportFormat::Sarif,
                                   scenarios::findings(*report), ctx);
    } else {
        std::cout << (f.output == "json" ? scenarios::format_json(*report) : scenarios::format_text(*report));
    }
    std::cout.flush();
    // An error-level finding fails the run, as in every command.
    return !diags.has_errors() && report->all_expectations_met && !report->some_never_admitted &&
                   !report->node_shape_problems
               ? kOk
               : kInvalid;
}

}  // namespace

Command add_simulate(CLI::App& app) {
    auto flags = std::make_shared<SimulateFlags>();
    CLI::App* sub = app.add_subcommand("simulate", "Simulate Kueue's admission of sample workloads, offline");
    sub->add_option("paths", flags->paths,
                    "Sites (folders with queueforge-site.yaml), Kueue manifests, Workloads (kubectl get workloads -A -o yaml) and job manifests");
    sub->add_option("-o,--output", flags->output, "text, json, junit or sarif (junit/sarif list failed expectations)");
    sub->add_option("--target", flags->target, "Override the sites' target");
    sub->add_option("--cycles", flags->cycles, "Stop after N scheduling cycles (0: until nothing changes)");
    sub->add_option("--scenario", flags->scenario,
                    "Timeline mode: run a workload arrival scenario (Kueue's scheduler-perf generator.yaml shape) in virtual time");
    sub->add_option("--thresholds", flags->thresholds,
                    "With --scenario: limits in Kueue's rangespec.yaml shape; the run fails when one is exceeded");
    sub->add_option("--series-points", flags->series_points, "With --scenario: intervals in each usage-over-time series (default 50)");
    sub->footer(R"(Examples:
  queueforge simulate examples/multi-team
  queueforge simulate examples/multi-team running-workloads.yaml -o json
  queueforge simulate queues/ jobs/ --cycles 1
  queueforge simulate --scenario generator.yaml --thresholds rangespec.yaml
  queueforge simulate examples/multi-team --scenario examples/timeline/multi-team-day.yaml

Exit codes: 0 every expectation holds, 1 an expectation fails, a sample can never be admitted,
an admitted pod fits no node of its flavor (site pools or Node objects), or invalid input;
2 usage error.)");
    return {sub, [flags] { return run_simulate(*flags); }};
}

}  // namespace queueforge::cli
