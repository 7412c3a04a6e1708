#include "import_runai.hpp"

#include <queueforge/integrations/import.hpp>
#include <queueforge/integrations/runai.hpp>

#include <iostream>

namespace queueforge::cli {

std::optional<std::string> runai_report_section(const RunaiImportFlags& f, Diagnostics& diags,
                                                std::vector<SourceText>& sources) {
    namespace ra = importer::runai;
    auto org = ra::read_organization(f.paths, diags, &sources);
    if (!org) return std::nullopt;
    ra::MigrationOptions opts;
    if (!f.target.empty()) opts.target = f.target;
    if (!f.name.empty()) opts.site_name = f.name;
    opts.weights = f.weights == "split" ? ra::WeightMode::Split : ra::WeightMode::Average;
    auto m = ra::migrate(*org, opts, diags);
    if (!m) return std::nullopt;
    std::vector<ra::Comparison> comparisons;
    auto c = ra::compare(*org, *m, opts, ra::demand_everything(*org), "everyone asks for everything", diags);
    if (!c) return std::nullopt;
    comparisons.push_back(std::move(*c));
    for (const auto& file : f.demands) {
        auto d = ra::read_demands(file, *org, diags);
        if (!d) return std::nullopt;
        auto dc = ra::compare(*org, *m, opts, *d, file, diags);
        if (!dc) return std::nullopt;
        comparisons.push_back(std::move(*dc));
    }
    return ra::render_report_section(*m, comparisons);
}

int run_import_runai(const RunaiImportFlags& f, const GateFlags& gate) {
    namespace ra = importer::runai;
    Diagnostics diags;
    std::vector<SourceText> sources;
    auto org = ra::read_organization(f.paths, diags, &sources);
    if (!org) {
        // Unreadable input is a usage error, as for the Kueue import.
        bool unreadable = false;
        for (const auto& d : diags.all()) unreadable = unreadable || (d.severity == Severity::Error && (d.rule == "io" || d.rule == "yaml.read"));
        report(diags, sources, gate);
        return unreadable ? kUsage : kInvalid;
    }
    ra::MigrationOptions opts;
    if (!f.target.empty()) opts.target = f.target;
    if (!f.name.empty()) opts.site_name = f.name;
    opts.weights = f.weights == "split" ? ra::WeightMode::Split : ra::WeightMode::Average;
    auto m = ra::migrate(*org, opts, diags);
    if (!m) {
        report(diags, sources, gate);
        return kInvalid;
    }
    // The site must build for its target before anything is written; its
    // errors are positioned in the site text as written with -o.
    if (!ra::check_site(*m, f.output.empty() || f.output == "-" ? "<stdout>" : f.output, diags)) {
        report(diags, sources, gate);
        return kInvalid;
    }
    std::vector<ra::Comparison> comparisons;
    if (!f.report.empty()) {
        if (auto c = ra::compare(*org, *m, opts, ra::demand_everything(*org), "everyone asks for everything", diags))
            comparisons.push_back(std::move(*c));
        for (const auto& file : f.demands) {
            auto d = ra::read_demands(file, *org, diags);
            if (!d) continue;
            if (auto c = ra::compare(*org, *m, opts, *d, file, diags)) comparisons.push_back(std::move(*c));
        }
    }
    if (int rc = report(diags, sources, gate); rc != kOk) return rc;

    const std::string site = ra::render_site(*m);
    if (f.output.empty() || f.output == "-") {
        std::cout << site;
        std::cout.flush();
        if (!std::cout.good()) return kInvalid;
    } else {
        Diagnostics io;
        if (!write_file_atomically(f.output, site, io)) {
            report(io, {});
            return kInvalid;
        }
    }
    if (!f.report.empty()) {
        auto ends = [&](const std::string& ext) {
            return f.report.size() > ext.size() && f.report.compare(f.report.size() - ext.size(), ext.size(), ext) == 0;
        };
        std::string format = f.report_format;
        if (format.empty()) format = ends(".json") ? "json" : ends(".html") ? "html" : ends(".md") ? "markdown" : "text";
        const std::string text = format == "json"       ? ra::render_report_json(*m, comparisons).dump(2) + "\n"
                                 : format == "markdown" ? ra::render_report_markdown(*m, comparisons)
                                 : format == "html"     ? ra::render_report_html(*m, comparisons)
                                                        : ra::render_report_text(*m, comparisons);
        if (f.report == "-") {
            std::cerr << text;
        } else {
            Diagnostics io;
            if (!write_file_atomically(f.report, text, io)) {
                report(io, {});
                return kInvalid;
            }
        }
    }
    std::size_t teams = 0;
    if (const Node* spec = m->site.find("spec"))
        if (const Node* t = spec->find("teams")) teams = t->items().size();
    std::cerr << "queueforge import: Run:ai organisation with " << org->pools.size() << " node pools, "
              << org->departments.size() << " departments, " << org->projects.size() << " projects -> " << teams
              << " teams for target " << opts.target << "\n";
    std::size_t exact = 0, approximated = 0, lost = 0;
    for (const auto& it : m->fidelity) {
        if (it.status == "exact") ++exact;
        else if (it.status == "approximated") ++approximated;
        else ++lost;
    }
    std::cerr << "queueforge import: Run:ai settings: " << exact << " exact, " << approximated << " approximated, "
              << lost << " not expressible" << (f.report.empty() ? " (--report FILE for each one)" : "") << "\n";
    return kOk;
}

}  // namespace queueforge::cli
