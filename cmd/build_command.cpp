#include "cli.hpp"
#include "git_input.hpp"

#include <queueforge/frontend/discover.hpp>
#include <queueforge/backends/emit.hpp>
#include <queueforge/checks/validate.hpp>
#include <queueforge/compile.hpp>

#include <algorithm>
#include <filesystem>
#include <iostream>

namespace queueforge::cli {

namespace {

struct BuildFlags {
    std::string site = ".";
    std::string out_dir;
    std::string target;
    std::string check_dir;
    GateFlags gate;
    bool no_header = false;
    bool prune = false;
    bool staged = false;
    bool fail_on_change = false;
    bool annotate = false;
    std::string output_per_site;
};

// Builds the site file `path` (into `out_dir` when not empty).
int build_site(const BuildFlags& f, std::string path, const std::string& out_dir) {
    std::optional<GitInput> staged;
    if (f.staged) {
        // The site as staged; the output folder stays the real one.
        std::string error;
        auto repo = open_repository(error);
        std::optional<std::vector<std::string>> rel;
        if (repo) rel = repository_paths(*repo, {f.site}, error);
        if (repo && rel) staged = read_input(*repo, Source::Staged, "", *rel, error);
        if (!staged) {
            std::cerr << "queueforge build --staged: " << error << "\n";
            return repo && rel ? kInvalid : kUsage;
        }
        path = site_path((std::filesystem::path(staged->root) / rel->front()).string());
    }
    // Provenance only for --annotate's comments: a large site's objects
    // without it are a fraction of the memory. Only the findings and the
    // objects are used from here on: the site model is let go as it is
    // lowered, and its text set aside until the report.
    Compilation c = compile({.path = path, .target = f.target, .provenance = f.annotate, .keep_site = false});
    Diagnostics& diags = c.diagnostics;
    // Nothing below needs the texts again: they are handed to report, not
    // copied (a large site's text would be held twice beside its objects).
    std::vector<SourceText> sources = c.sources.release();
    if (!diags.empty()) restore_sources(sources);
    if (staged) relabel(*staged, diags, sources);  // --staged: paths as the user knows them
    if (int rc = report(diags, std::move(sources), f.gate); rc != kOk) return rc;
    if (!c.lowered) return kInvalid;
    const auto& lowered = c.lowered;

    std::string header = f.no_header ? "" : std::filesystem::path(path).filename().string();
    // Comments name the site file as the header does: by its file name.
    const std::string annotate_as = f.annotate ? std::filesystem::path(path).filename().string() : "";
    if (f.fail_on_change) {
        // pre-commit's contract: a hook that changes files fails, and the
        // user reviews and stages the result.
        Diagnostics drift;
        if (check_objects(out_dir, lowered->objects, header, drift, annotate_as)) return kOk;
        Diagnostics io;
        if (!write_objects(out_dir, lowered->objects, header, io, f.prune, annotate_as)) {
            report(io, {});
            return kInvalid;
        }
        std::cerr << "queueforge: updated the rendered manifests in " << out_dir << "; review and stage them\n";
        return kInvalid;
    }
    if (!f.check_dir.empty()) {
        Diagnostics drift;
        bool clean = check_objects(f.check_dir, lowered->objects, header, drift, annotate_as);
        report(drift, {}, f.gate);
        if (!clean) std::cerr << "rendered manifests in " << f.check_dir << " are out of date; run queueforge build -o " << f.check_dir << " --prune\n";
        return clean ? kOk : kInvalid;
    }
    if (out_dir.empty()) {
        write_stream(std::cout, lowered->objects, header, annotate_as);
        std::cout.flush();
        return std::cout.good() ? kOk : kInvalid;
    }
    Diagnostics io;
    if (!write_objects(out_dir, lowered->objects, header, io, f.prune, annotate_as)) {
        report(io, {});
        return kInvalid;
    }
    return kOk;
}

int run_build(const BuildFlags& f) {
    if ((f.prune || f.fail_on_change) && f.out_dir.empty() && f.output_per_site.empty()) {
        std::cerr << "queueforge build: " << (f.prune ? "--prune" : "--fail-on-change")
                  << " needs -o or --output-per-site\n";
        return kUsage;
    }
    if (f.staged) return build_site(f, site_path(f.site), f.out_dir);
    // Every site beneath the path (discover.hpp); one site builds as always.
    Diagnostics diags;
    const auto clusters = discover::find_clusters({f.site}, {}, diags);
    if (int rc = report(diags, {}, f.gate); rc != kOk || clusters.empty()) return rc == kOk ? kInvalid : rc;
    std::vector<std::string> sites;
    for (const auto& c : clusters)
        if (!c.site_file.empty()) sites.push_back(c.site_file);
    if (sites.size() <= 1) {
        const std::string path = sites.empty() ? site_path(f.site) : sites.front();
        const std::string out = f.output_per_site.empty() || sites.empty()
                                    ? f.out_dir
                                    : discover::rendered_folder(path, f.output_per_site);
        return build_site(f, path, out);
    }
    if (f.output_per_site.empty()) {
        std::cerr << "queueforge build: " << f.site << " holds " << sites.size() << " sites (";
        for (std::size_t i = 0; i < sites.size(); ++i) std::cerr << (i ? ", " : "") << sites[i];
        std::cerr << "); build one of them, or write each into a folder of its own with --output-per-site rendered\n";
        return kUsage;
    }
    int worst = kOk;
    for (const auto& site : sites) {
        const auto out = discover::rendered_folder(site, f.output_per_site);
        worst = std::max(worst, build_site(f, site, out));
    }
    return worst;
}

}  // namespace

Command add_build(CLI::App& app) {
    auto flags = std::make_shared<BuildFlags>();
    CLI::App* sub = app.add_subcommand("build", "Compile a site description into Kueue and DataScienceCluster manifests");
    sub->add_option("site", flags->site, "Site file, or a folder holding queueforge-site.yaml (default: .)");
    CLI::Option* out = sub->add_option("-o,--output-dir", flags->out_dir, "Write one file per object into this folder instead of stdout");
    CLI::Option* per_site =
        sub->add_option("--output-per-site", flags->output_per_site,
                        "Write each site beneath the path into this folder inside the site's own folder "
                        "(e.g. rendered: clusters/prod/rendered)")
            ->excludes(out);
    sub->add_option("--target", flags->target, "Override the site's target (e.g. rhoai-3.5, kueue-0.13)");
    sub->add_flag("--prune", flags->prune, "With -o: remove files queueforge wrote earlier that the site no longer produces");
    sub->add_option("--check", flags->check_dir, "Compare the rendered manifests in this folder with the site; write nothing")
        ->excludes(out)
        ->excludes(per_site);
    sub->add_flag("--staged", flags->staged, "Build the site as staged in git (the index), not the work tree");
    sub->add_flag("--fail-on-change", flags->fail_on_change,
                  "With -o: exit 1 when the folder had to be updated (the pre-commit render hook)");
    add_gate_flags(*sub, flags->gate);
    sub->add_flag("--no-header", flags->no_header, "Omit the '# Generated by queueforge' comment");
    sub->add_flag("--annotate", flags->annotate,
                  "Write where each object and value came from (site file:line:col and rule) as YAML comments");
    sub->footer(R"(Examples:
  queueforge build examples/multi-team
  queueforge build queueforge-site.yaml -o rendered/
  queueforge build site.yaml --target rhoai-3.5 --strict
  queueforge build -o rendered/ --prune      # owns rendered/: stale files it wrote are removed
  queueforge build --check rendered/         # CI: fail when committed manifests drifted
  queueforge build examples/multi-team --annotate   # provenance as comments (see queueforge explain)
  queueforge build clusters/ --output-per-site rendered --prune   # each site into clusters/<site>/rendered

A path holding several sites needs --output-per-site: one -o folder or stdout cannot hold several clusters.
--staged builds the one site at the path.

Exit codes: 0 ok, 1 invalid input or a finding at error level (nothing written), 2 usage error or an unreadable
path, 70 internal error.)");
    return {sub, [flags] { return run_build(*flags); }};
}

}  // namespace queueforge::cli
