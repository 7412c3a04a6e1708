// `report`: gather everything the document shows, and write it atomically.
#include <queueforge/backends/html_report.hpp>
#include <queueforge/compile.hpp>
#include <queueforge/base/safe_write.hpp>
#include <queueforge/base/source_root.hpp>

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace queueforge::html_report {

namespace {

void add_sources(std::vector<SourceText>& into, const std::vector<SourceText>& from) {
    for (const auto& s : from) {
        bool known = false;
        for (const auto& x : into) known = known || x.path == s.path;
        if (!known) into.push_back(s);
    }
}

}  // namespace

std::optional<Input> collect(const Options& opts, Diagnostics& diags, std::vector<SourceText>& sources) {
    Input in;
    // The site is compiled once; capacity, the simulation and the timeline
    // read that one compilation.
    std::string file = opts.site;
    std::error_code ec;
    if (std::filesystem::is_directory(file, ec)) file = (std::filesystem::path(file) / "queueforge-site.yaml").string();
    Compilation c = compile({.path = file, .target = opts.target, .build_model = true});
    diags.append(c.diagnostics);
    add_sources(sources, c.sources.texts());
    if (!c.ok()) return std::nullopt;
    in.capacity = capacity::compute(*c.site, *c.lowered, std::move(c.model));

    auto inputs = scenarios::inputs_of(c, diags);
    if (!inputs) return std::nullopt;
    add_sources(sources, inputs->sources);
    std::vector<Resource> config;  // the timeline's cluster
    if (!opts.scenario.empty()) config = inputs->config;
    Diagnostics sim_diags;
    in.simulation = scenarios::run(std::move(*inputs), {.target = opts.target}, sim_diags);
    diags.append(sim_diags);
    if (sim_diags.has_errors()) return std::nullopt;

    if (!opts.scenario.empty()) {
        auto scenario = timeline::read_scenario(opts.scenario, sources, diags);
        if (!scenario) return std::nullopt;
        Diagnostics tl_diags;
        timeline::Report report = timeline::run_on(*scenario, std::move(config), {opts.series_points}, tl_diags);
        diags.append(tl_diags);
        if (tl_diags.has_errors()) return std::nullopt;
        in.timeline = std::move(report);
        in.scenario_name = std::filesystem::path(opts.scenario).filename().string();
    }
    return in;
}

}  // namespace queueforge::html_report
