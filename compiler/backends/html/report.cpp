// `report`: gather everything the document shows, and write it atomically.
#include <queueforge/backends/html_report.hpp>
#include <queueforge/base/safe_write.hpp>
#include <queueforge/base/source_root.hpp>

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <tuple>

namespace queueforge::html_report {

namespace {

// Each stage compiles the site again and would repeat its warnings and notes.
void merge_unique(Diagnostics& into, const Diagnostics& from) {
    auto key = [](const Diagnostic& d) {
        return std::make_tuple(d.file, d.mark.line, d.mark.col, d.message, d.rule, static_cast<int>(d.severity));
    };
    std::set<decltype(key(Diagnostic{}))> seen;
    for (const auto& d : into.all()) seen.insert(key(d));
    for (const auto& d : from.all())
        if (seen.insert(key(d)).second) into.add(d);
}

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
    auto cap = capacity::load(opts.site, {.target = opts.target}, diags, sources);
    if (!cap) return std::nullopt;
    in.capacity = std::move(*cap);

    Diagnostics sim_diags;
    auto sim = scenarios::run({.paths = {opts.site}, .target = opts.target}, sim_diags);
    merge_unique(diags, sim_diags);
    if (sim) add_sources(sources, sim->sources);
    if (!sim || sim_diags.has_errors()) return std::nullopt;
    in.simulation = std::move(*sim);

    if (!opts.scenario.empty()) {
        std::string text;
        if (!read_scenario(opts.scenario, text, diags)) return std::nullopt;
        sources.push_back({opts.scenario, text});
        auto scenario = timeline::parse_scenario(opts.scenario, text, diags);
        if (!scenario) return std::nullopt;
        Diagnostics tl_diags;
        auto inputs = scenarios::load_inputs({.paths = {opts.site}, .target = opts.target}, tl_diags);
        if (!inputs || tl_diags.has_errors()) {
            merge_unique(diags, tl_diags);
            return std::nullopt;
        }
        scenarios::add_missing_namespaces(inputs->config);
        timeline::Report report = timeline::run(*scenario, inputs->config, {opts.series_points}, tl_diags);
        merge_unique(diags, tl_diags);
        if (tl_diags.has_errors()) return std::nullopt;
        in.timeline = std::move(report);
        in.scenario_name = std::filesystem::path(opts.scenario).filename().string();
    }
    return in;
}

}  // namespace queueforge::html_report
