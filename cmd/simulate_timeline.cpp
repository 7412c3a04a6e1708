#include "simulate_timeline.hpp"

#include "cli.hpp"

#include <queueforge/backends/findings.hpp>
#include <queueforge/engines/scenarios.hpp>
#include <queueforge/engines/timeline.hpp>
#include <queueforge/base/yaml_load.hpp>

#include <sys/resource.h>
#include <unistd.h>

#include <chrono>
#include <iostream>

namespace queueforge::cli {

namespace {

struct ProcessFigures {
    std::int64_t wall_ms = 0, rss_kib = 0, mcpu = 0;
};

ProcessFigures figures(std::chrono::steady_clock::time_point start) {
    ProcessFigures f;
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
    Diagnostics diags;
    std::vector<SourceText> sources;
    auto read = [&](const std::string& path) -> std::optional<std::string> {
        std::string text;
        if (!read_file_limited(path, text, diags)) return std::nullopt;
        sources.push_back({path, text});
        return text;
    };
    std::optional<timeline::Scenario> scenario;
    std::optional<timeline::Thresholds> thresholds;
    if (auto text = read(f.scenario)) scenario = timeline::parse_scenario(f.scenario, *text, diags);
    if (!f.thresholds.empty())
        if (auto text = read(f.thresholds)) thresholds = timeline::parse_thresholds(f.thresholds, *text, diags);
    std::vector<Resource> cluster;
    if (!f.paths.empty() && !diags.has_errors()) {
        auto in = scenarios::load_inputs({f.paths, f.target, 0}, diags);
        if (in) {
            cluster = std::move(in->config);
            sources.insert(sources.end(), in->sources.begin(), in->sources.end());
            if (!in->samples.empty())
                diags.note(f.scenario, {}, "the " + std::to_string(in->samples.size()) +
                                               " sample workload(s) of the site and job manifests are not part of the timeline; "
                                               "add arrivals to the scenario's localQueues instead",
                           "timeline.samples-ignored");
        }
    }
    if (diags.has_errors() || !scenario || (!f.thresholds.empty() && !thresholds)) {
        const int rc = report(diags, sources, gate);
        return rc == kOk ? kInvalid : rc;
    }
    scenarios::add_missing_namespaces(cluster);
    timeline::Options topts{f.series_points, {}};
    const bool tty = isatty(STDERR_FILENO);
    if (tty)
        topts.progress = [](std::int64_t created, std::int64_t total) {
            std::cerr << "\rqueueforge: simulating, " << created * 100 / total << "% of " << total << " workloads created" << std::flush;
        };
    timeline::Report report = timeline::run(*scenario, cluster, topts, diags);
    if (tty) std::cerr << "\r\033[K" << std::flush;
    if (thresholds) {
        ProcessFigures p = figures(start);
        timeline::check_thresholds(*thresholds, report, p.wall_ms, p.rss_kib, p.mcpu, diags);
    }
    if (int rc = apply_gate(diags, sources, gate); rc != kOk) return rc;
    if (f.output == "junit" || f.output == "sarif") {
        ReportContext ctx;
        ctx.tool_version = QF_VERSION;
        ctx.sources = sources;
        for (const auto& c : report.workload_classes)
            ctx.objects.push_back({f.scenario, {"queueforge.io/v1alpha1", "WorkloadClass", "", c.name}});
        for (const auto& c : report.checks)
            ctx.objects.push_back({thresholds ? thresholds->file : f.scenario, {"queueforge.io/v1alpha1", "Threshold", "", c.name}});
        ctx.objects_checked = ctx.objects.size();
        ctx.inputs.push_back(f.scenario);
        if (thresholds) ctx.inputs.push_back(thresholds->file);
        std::cout << format_report(*find_report_format(f.output), diags, ctx);
    } else {
        std::cerr << render_text(diags, sources);
        std::cout << (f.output == "json" ? timeline::render_json(report) : timeline::render_text(report));
    }
    std::cout.flush();
    // report.passed() is false only with a finding behind it (unsettled,
    // never admitted, a threshold): the gate's verdict on those decides.
    return std::cout.good() ? exit_code(diags, Severity::Error) : kInvalid;
}

}  // namespace queueforge::cli
