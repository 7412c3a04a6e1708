#pragma once
// `queueforge report`: one self-contained HTML file about a site -- the
// capacity view as charts (quota against capacity per pool, guaranteed
// against burst per team), the cohort tree, the simulation of the site's
// sample workloads and, with a scenario, queue usage over time and time to
// admission per workload class.
//
// The file has inline CSS and inline SVG only: no scripts, no external
// assets, nothing fetched. Its bytes depend on the input alone (no
// timestamps, stable order, fixed number formatting), and every string that
// comes from the input is HTML-escaped.
#include <queueforge/engines/capacity.hpp>
#include <queueforge/base/diagnostics.hpp>
#include <queueforge/engines/scenarios.hpp>
#include <queueforge/engines/timeline.hpp>

#include <optional>
#include <string>
#include <vector>

namespace queueforge::html_report {

struct Input {
    capacity::Report capacity;
    std::optional<scenarios::Report> simulation;  // the site's sample workloads
    std::optional<timeline::Report> timeline;     // --scenario
    std::string scenario_name;                    // the scenario file's name, shown in the report
    // Further <section> elements rendered by their producers (input text
    // escaped there), appended in order: import --from runai's migration.
    struct Extra {
        std::string id, title, html;
    };
    std::vector<Extra> extra_sections;
};

struct Options {
    std::string site;      // site file or folder
    std::string scenario;  // "" = no timeline
    std::string target;    // --target
    int series_points = 50;
};

// Compiles the site (once), measures its capacity, simulates its sample
// workloads and runs the scenario. nullopt when any input is invalid (errors
// in `diags`, texts read in `sources` for carets).
std::optional<Input> collect(const Options& opts, Diagnostics& diags, std::vector<SourceText>& sources);

// The document.
std::string render(const Input& in);

// Escapes text for HTML element content and quoted attribute values.
std::string escape(std::string_view text);

}  // namespace queueforge::html_report
