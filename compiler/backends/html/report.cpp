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

// Scenario files are small; the bound keeps a mistaken path (a device, a
// huge dump) from being read whole.
constexpr std::uintmax_t kMaxScenarioBytes = 64u << 20;

bool read_scenario(const std::string& path, std::string& text, Diagnostics& diags) {
    std::string why;
    if (!confine_input(path, &why)) {  // the confinement rule (source_root.hpp)
        diags.error(path, {}, why, "io.outside-root");
        return false;
    }
    std::error_code ec;
    if (!std::filesystem::is_regular_file(path, ec)) {
        diags.error(path, {}, "cannot read the scenario: not a file", "io");
        return false;
    }
    if (std::filesystem::file_size(path, ec) > kMaxScenarioBytes || ec) {
        diags.error(path, {}, "cannot read the scenario: larger than 64 MiB", "io");
        return false;
    }
    std::ifstream in(path, std::ios::binary);
    std::stringstream ss;
    ss << in.rdbuf();
    if (!in && !in.eof()) {
        diags.error(path, {}, "cannot read the scenario", "io");
        return false;
    }
    text = ss.str();
    return true;
}

}  // namespace

std::optional<Input> collect(const Options& opts, Diagnostics& diags, std::vector<SourceText>& sources) {
    Input in;
    // The site is compiled once; capacity, the simulation and the timeline
    // read that one compilation.
    std::string file = opts.site;
    std::error_code ec;
    if (std::filesystem::is_directory(file, ec)) file = (std::filesystem::path(file) / "queueforge-site.yaml").string();
    const Compilation c = compile({.path = file, .target = opts.target});
    diags.append(c.diagnostics);
    add_sources(sources, c.sources.texts());
    if (!c.ok()) return std::nullopt;
    in.capacity = capacity::compute(*c.site, *c.lowered);

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
        std::string text;
        if (!read_scenario(opts.scenario, text, diags)) return std::nullopt;
        sources.push_back({opts.scenario, text});
        auto scenario = timeline::parse_scenario(opts.scenario, text, diags);
        if (!scenario) return std::nullopt;
        scenarios::add_missing_namespaces(config);
        Diagnostics tl_diags;
        timeline::Report report = timeline::run(*scenario, config, {opts.series_points}, tl_diags);
        diags.append(tl_diags);
        if (tl_diags.has_errors()) return std::nullopt;
        in.timeline = std::move(report);
        in.scenario_name = std::filesystem::path(opts.scenario).filename().string();
    }
    return in;
}

}  // namespace queueforge::html_report
