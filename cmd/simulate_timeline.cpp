#include "simulate_timeline.hpp"

#include "cli.hpp"

#include <queueforge/backends/findings.hpp>
#include <queueforge/engines/timeline.hpp>

#include <sys/resource.h>
#include <unistd.h>

#include <chrono>
#include <iostream>

namespace queueforge::cli {

namespace {

// This process's wall time since `start`, peak memory and CPU use, for the
// thresholds that bound them.
timeline::ProcessFigures figures(std::chrono::steady_clock::time_point start) {
    timeline::ProcessFigures f;
    f.wall_ms = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - start).count();
    rusage ru{};
    if (getrusage(RUSAGE_SELF, &ru) == 0) {
        f.rss_kib = ru.ru_maxrss;
        std::int64_t cpu_ms = (ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1000 + (ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1000;
        f.mcpu = f.wall_ms > 0 ? cpu_ms * 1000 / f.wall_ms : 0;
    }
    return f;
}

}  // namespace

int run_timeline(const TimelineFlags& f, const GateFlags& gate) {
    const auto start = std::chrono::steady_clock::now();
    if (f.output != "text" && f.output != "json" && f.output != "junit" && f.output != "sarif") {
        std::cerr << "queueforge simulate: unknown output format \"" << f.output << "\" (text, json, junit, sarif)\n";
        return kUsage;
    }
    if (f.series_points < 1 || f.series_points > 10000) {
        std::cerr << "queueforge simulate: --series-points must be between 1 and 10000\n";
        return kUsage;
    }
    if (f.max_events < 0 || f.max_events > 10000000) {
        std::cerr << "queueforge simulate: --max-events must be between 0 and 10000000\n";
        return kUsage;
    }
    if (f.events && f.output != "text") {
        std::cerr << "queueforge simulate: --events is a text listing; -o json carries the events in \"events\"\n";
        return kUsage;
    }
    timeline::Request request{.scenario = f.scenario,
                              .thresholds = f.thresholds,
                              .paths = f.paths,
                              .target = f.target,
                              .options = {f.series_points, f.max_events, {}},
                              .figures = [start] { return figures(start); }};
    const bool tty = isatty(STDERR_FILENO);
    if (tty)
        request.options.progress = [](std::int64_t created, std::int64_t total) {
            std::cerr << "\rqueueforge: simulating, " << created * 100 / total << "% of " << total << " workloads created" << std::flush;
        };
    Diagnostics diags;
    timeline::Outcome outcome = timeline::simulate(request, diags);
    if (tty && outcome.report) std::cerr << "\r\033[K" << std::flush;
    std::vector<SourceText>& sources = outcome.sources;
    if (!outcome.report) {
        const int rc = report(diags, sources, gate);
        return rc == kOk ? kInvalid : rc;
    }
    const timeline::Report& result = *outcome.report;
    const auto& thresholds = outcome.thresholds;
    if (int rc = apply_gate(diags, sources, gate); rc != kOk) return rc;
    if (f.output == "junit" || f.output == "sarif") {
        ReportContext ctx;
        ctx.tool_version = QF_VERSION;
        ctx.sources = sources;
        for (const auto& c : result.workload_classes)
            ctx.objects.push_back({f.scenario, {"queueforge.io/v1alpha1", "WorkloadClass", "", c.name}});
        for (const auto& c : result.checks)
            ctx.objects.push_back({thresholds ? thresholds->file : f.scenario, {"queueforge.io/v1alpha1", "Threshold", "", c.name}});
        ctx.objects_checked = ctx.objects.size();
        ctx.inputs.push_back(f.scenario);
        if (thresholds) ctx.inputs.push_back(thresholds->file);
        write_report(*find_report_format(f.output), diags, ctx, std::cout);
    } else {
        std::cerr << render_text(diags, sources);
        std::cout << (f.output == "json" ? timeline::render_json(result)
                      : f.events            ? timeline::render_events(result)
                                            : timeline::render_text(result));
    }
    std::cout.flush();
    // result.passed() is false only with a finding behind it (unsettled,
    // never admitted, a threshold): the gate's verdict on those decides.
    return std::cout.good() ? exit_code(diags, Severity::Error) : kInvalid;
}

}  // namespace queueforge::cli
