// The timeline mode as `simulate --scenario` and the HTML report run it:
// the files read, the cluster loaded, the run, the thresholds.
#include <queueforge/engines/timeline.hpp>

#include <queueforge/base/yaml_load.hpp>
#include <queueforge/engines/scenarios.hpp>

namespace queueforge::timeline {

std::optional<Scenario> read_scenario(const std::string& path, std::vector<SourceText>& sources, Diagnostics& diags) {
    std::string text;
    if (!read_file_limited(path, text, diags)) return std::nullopt;
    auto scenario = parse_scenario(path, text, diags);
    sources.push_back({path, std::move(text)});
    return scenario;
}

Report run_on(const Scenario& scenario, std::vector<Resource> cluster, const Options& opts, Diagnostics& diags) {
    scenarios::add_missing_namespaces(cluster);
    return run(scenario, cluster, opts, diags);
}

Outcome simulate(const Request& request, Diagnostics& diags) {
    Outcome out;
    auto scenario = read_scenario(request.scenario, out.sources, diags);
    if (!request.thresholds.empty()) {
        std::string text;
        if (read_file_limited(request.thresholds, text, diags)) {
            out.thresholds = parse_thresholds(request.thresholds, text, diags);
            out.sources.push_back({request.thresholds, std::move(text)});
        }
    }
    std::vector<Resource> cluster;
    if (!request.paths.empty() && !diags.has_errors()) {
        if (auto in = scenarios::load_inputs({request.paths, request.target, 0}, diags)) {
            cluster = std::move(in->config);
            out.sources.insert(out.sources.end(), in->sources.begin(), in->sources.end());
            if (!in->samples.empty())
                diags.note(request.scenario, {},
                           "the " + std::to_string(in->samples.size()) +
                               " sample workload(s) of the site and job manifests are not part of the timeline; add "
                               "arrivals to the scenario's localQueues instead",
                           "timeline.samples-ignored");
        }
    }
    if (diags.has_errors() || !scenario || (!request.thresholds.empty() && !out.thresholds)) return out;
    out.report = run_on(*scenario, std::move(cluster), request.options, diags);
    if (out.thresholds) {
        const ProcessFigures p = request.figures ? request.figures() : ProcessFigures{};
        check_thresholds(*out.thresholds, *out.report, p.wall_ms, p.rss_kib, p.mcpu, diags);
    }
    return out;
}

}  // namespace queueforge::timeline
