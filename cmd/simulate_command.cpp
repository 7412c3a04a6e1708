#include "cli.hpp"
#include "simulate_timeline.hpp"

#include <queueforge/frontend/discover.hpp>
#include <queueforge/backends/findings.hpp>
#include <queueforge/engines/scenarios.hpp>

#include <nlohmann/json.hpp>

#include <algorithm>
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
    bool events = false;
    std::int64_t max_events = 10000;
    GateFlags gate;
    bool as_one_cluster = false;
};

// The findings the report shows in its own table (text, JSON): stderr does
// not repeat them.
bool in_report_table(const Diagnostic& d) {
    return d.rule == "sim.expectation" || d.rule == "sim.never-admitted" || d.rule == "sim.node-shape";
}

// Simulates one cluster (`paths` read together); findings name `site` when
// the command covers several.
int simulate_cluster(const SimulateFlags& f, const std::vector<std::string>& paths, const std::string& site) {
    Diagnostics diags;
    scenarios::Options opts{paths, f.target, f.cycles};
    auto report = scenarios::run(opts, diags);
    std::vector<SourceText> sources = report ? report->sources : std::vector<SourceText>{};
    // One verdict over every finding: invalid input, failed expectations,
    // never-admitted samples and pods that fit no node, as the gate levels them.
    if (report) diags.append(scenarios::findings(*report));
    if (int rc = apply_gate(diags, sources, f.gate); rc != kOk) return rc;
    Diagnostics on_stderr, findings;
    for (auto d : diags.all()) {
        d.site = site;
        (in_report_table(d) ? findings : on_stderr).add(d);
    }
    std::cerr << render_text(on_stderr, sources);
    const int rc = exit_code(diags, Severity::Error);
    if (!report) return rc == kOk ? kInvalid : rc;
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
        write_report(*find_report_format(f.output), findings, ctx, std::cout);
    } else {
        std::string out = f.output == "json" ? scenarios::format_json(*report) : scenarios::format_text(*report);
        // Inside the {"sites": [...]} wrapper the report is one value among others.
        if (!site.empty() && f.output == "json" && !out.empty() && out.back() == '\n') out.pop_back();
        std::cout << out;
    }
    std::cout.flush();
    // An error-level finding fails the run, as in every command (the gate's verdict).
    return std::cout.good() ? rc : kInvalid;
}

int run_simulate(const SimulateFlags& f) {
    if (!f.scenario.empty()) {
        if (f.cycles != 0) {
            std::cerr << "queueforge simulate: --cycles does not apply to --scenario (the timeline runs to its end)\n";
            return kUsage;
        }
        return run_timeline({f.scenario, f.thresholds, f.paths, f.target, f.output, f.series_points, f.events, f.max_events},
                            f.gate);
    }
    if (f.events) {
        std::cerr << "queueforge simulate: --events needs --scenario (the event log is the timeline's)\n";
        return kUsage;
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
    // Each site beneath the paths is simulated on its own (discover.hpp).
    Diagnostics found;
    auto clusters = discover::find_clusters(f.paths, {.as_one_cluster = f.as_one_cluster}, found);
    if (clusters.empty()) return report(found, {}, f.gate);
    if (clusters.size() == 1) return simulate_cluster(f, clusters.front().inputs, "");
    if (f.output == "junit" || f.output == "sarif") {
        std::cerr << "queueforge simulate: the paths hold " << clusters.size() << " sites; -o " << f.output
                  << " reports one site at a time (or use queueforge check -o " << f.output << ", which covers them all)\n";
        return kUsage;
    }
    // Several: each cluster's report under its label; JSON wraps them in
    // {"sites": [{"site": ..., "report": ...}]}.
    int worst = exit_code(found, Severity::Error);
    if (!found.empty()) report(found, {}, f.gate);
    if (f.output == "json") std::cout << "{\"sites\": [";
    for (std::size_t i = 0; i < clusters.size(); ++i) {
        const auto& c = clusters[i];
        if (f.output == "json") std::cout << (i ? ", " : "") << "{\"site\": " << nlohmann::json(c.label).dump() << ", \"report\": ";
        else if (f.output == "text") std::cout << (i ? "\n" : "") << "# site: " << c.label << "\n";
        worst = std::max(worst, simulate_cluster(f, c.inputs, c.label));
        if (f.output == "json") std::cout << "}";
    }
    if (f.output == "json") std::cout << "]}\n";
    std::cout.flush();
    return std::cout.good() ? worst : kInvalid;
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
    sub->add_flag("--events", flags->events,
                  "With --scenario: print the event log (admissions, preemptions, evictions, requeues, finishes) instead of the summary");
    sub->add_option("--max-events", flags->max_events,
                    "With --scenario: events kept in the log (default 10000; the rest are counted as dropped)");
    add_gate_flags(*sub, flags->gate);
    sub->add_flag("--as-one-cluster", flags->as_one_cluster,
                  "Read every path as one cluster even when they hold several sites");
    sub->footer(R"(Each site beneath the paths is simulated on its own ("# site: clusters/prod" before each
text report; -o json: {"sites": [{"site", "report"}]}); -o junit and -o sarif take one site (check
covers several).

Examples:
  queueforge simulate examples/multi-team
  queueforge simulate examples/multi-team running-workloads.yaml -o json
  queueforge simulate queues/ jobs/ --cycles 1
  queueforge simulate --scenario generator.yaml --thresholds rangespec.yaml
  queueforge simulate examples/multi-team --scenario examples/timeline/multi-team-day.yaml

Exit codes: 0 every expectation holds, 1 an expectation fails, a sample can never be admitted,
an admitted pod fits no node of its flavor (site pools or Node objects), or invalid input (each
a finding at error level: .queueforge.yaml, --disable and --strict apply); 2 usage error or an
unreadable path; 70 internal error.)");
    return {sub, [flags] { return run_simulate(*flags); }};
}

}  // namespace queueforge::cli
