#include "cli.hpp"
#include "import_runai.hpp"

#include <queueforge/frontend/discover.hpp>
#include <queueforge/backends/html_report.hpp>
#include <queueforge/base/safe_write.hpp>

#include <iostream>

namespace queueforge::cli {

namespace {

struct ReportFlags {
    std::string site;
    std::string scenario;
    std::string output;
    std::string target;
    int series_points = 50;
    GateFlags gate;
    RunaiImportFlags runai;  // --runai EXPORT...: the Run:ai migration section
};

int run_report(const ReportFlags& f) {
    if (f.series_points < 2 || f.series_points > 2000) {
        std::cerr << "queueforge report: --series-points must be between 2 and 2000\n";
        return kUsage;
    }
    // A repository or folder: the one site beneath it (discover.hpp).
    Diagnostics diags;
    std::string site = f.site;
    const auto clusters = discover::find_clusters({f.site}, {}, diags);
    if (int rc = report(diags, {}, f.gate); rc != kOk || clusters.empty()) return rc == kOk ? kInvalid : rc;
    std::vector<std::string> sites;
    for (const auto& c : clusters)
        if (!c.site_file.empty()) sites.push_back(c.site_file);
    if (sites.size() > 1) {
        std::cerr << "queueforge report: " << f.site << " holds " << sites.size() << " sites (";
        for (std::size_t i = 0; i < sites.size(); ++i) std::cerr << (i ? ", " : "") << sites[i];
        std::cerr << "); one HTML report covers one site: name it\n";
        return kUsage;
    }
    if (sites.size() == 1) site = sites.front();
    diags = {};
    std::vector<SourceText> sources;
    auto in = html_report::collect({.site = site, .scenario = f.scenario, .target = f.target,
                                    .series_points = f.series_points},
                                   diags, sources);
    // Invalid input: the diagnostics, exit 1, and the output file untouched.
    if (int rc = report(diags, sources, f.gate); rc != kOk) return rc;
    if (!in) return kInvalid;
    if (!f.runai.paths.empty()) {
        RunaiImportFlags runai = f.runai;
        runai.target = f.target;  // the import's default target (rhoai-3.5) unless --target says otherwise
        auto section = runai_report_section(runai, diags, sources);
        if (int rc = report(diags, sources, f.gate); rc != kOk) return rc;
        if (!section) return kInvalid;
        in->extra_sections.push_back({"runai-migration", "Run:ai migration", std::move(*section)});
    }
    std::string html = html_report::render(*in);
    if (f.output == "-") {
        std::cout << html;
        std::cout.flush();
        return std::cout.good() ? kOk : kInvalid;
    }
    std::string error;
    if (!replace_file_atomically(f.output, html, error)) {
        std::cerr << "queueforge report: " << error << "\n";
        return kInvalid;
    }
    return kOk;
}

}  // namespace

Command add_report(CLI::App& app) {
    auto flags = std::make_shared<ReportFlags>();
    CLI::App* sub = app.add_subcommand("report", "Write one self-contained HTML report: capacity charts, cohort tree, simulation, timeline");
    sub->add_option("site", flags->site, "Site file, or a folder with one site beneath it")->required();
    sub->add_option("-o,--output", flags->output, "The HTML file to write (- for stdout)")->required();
    sub->add_option("--scenario", flags->scenario, "A timeline scenario: adds queue usage over time and time to admission per class");
    sub->add_option("--target", flags->target, "Override the site's target (e.g. rhoai-3.5, kueue-0.13)");
    sub->add_option("--series-points", flags->series_points, "Points per usage curve with --scenario (default 50)");
    sub->add_option("--runai", flags->runai.paths,
                    "A Run:ai export (import --from runai): adds the migration section, fidelity and each project's "
                    "GPUs under Run:ai and Kueue");
    sub->add_option("--runai-weights", flags->runai.weights, "With --runai: average (default) or split")
        ->check(CLI::IsMember({"average", "split"}));
    sub->add_option("--demands", flags->runai.demands, "With --runai: scenario files of demands to compare too");
    add_gate_flags(*sub, flags->gate);
    sub->footer(R"(The file has inline CSS and SVG only (no scripts, nothing fetched), the same bytes for the
same input, and is written to a temporary file and renamed into place.

Examples:
  queueforge report examples/multi-team -o report.html
  queueforge report examples/multi-team --scenario examples/timeline/multi-team-day.yaml -o day.html
  queueforge import --from runai export.yaml -o site.yaml && queueforge report site.yaml --runai export.yaml -o migration.html
  queueforge report site.yaml --target rhoai-3.5 -o - > report.html

Exit codes: 0 ok (failed sample expectations are shown in the report), 1 invalid input or
the file could not be written (nothing written), 2 usage error.)");
    return {sub, [flags] { return run_report(*flags); }};
}

}  // namespace queueforge::cli
