// `queueforge check`: the one command CI jobs and pre-commit hooks call --
// compile the site, validate everything, run the sample workloads'
// expectations and, with --rendered, compare committed manifests -- with
// every finding in one report.
#include "cli.hpp"
#include "git_input.hpp"

#include <queueforge/frontend/discover.hpp>
#include <queueforge/frontend/site_inputs.hpp>
#include <queueforge/backends/emit.hpp>
#include <queueforge/compile.hpp>
#include <queueforge/checks/policy.hpp>
#include <queueforge/backends/findings.hpp>
#include <queueforge/engines/scenarios.hpp>
#include <queueforge/checks/validate.hpp>

#include <filesystem>
#include <iostream>

namespace queueforge::cli {

namespace {

struct CheckFlags {
    std::vector<std::string> paths;
    std::string output = "text";
    std::string rendered;
    std::string target;
    GateFlags gate;
    bool no_simulate = false;
    bool staged = false;
    bool as_one_cluster = false;
    policy::Options policies;
};

// --staged: the paths (and the rendered folder) as they are in the index,
// written out to a private folder; a partially staged change is judged as it
// will be committed, and the index is never modified.
int stage_inputs(CheckFlags& f, std::optional<GitInput>& input) {
    std::string error;
    auto repo = open_repository(error);
    std::optional<std::vector<std::string>> paths;
    if (repo) paths = repository_paths(*repo, f.paths, error);
    if (!repo || !paths) {
        std::cerr << "queueforge check --staged: " << error << "\n";
        return kUsage;
    }
    input = read_input(*repo, Source::Staged, "", *paths, error);
    if (!input) {
        std::cerr << "queueforge check --staged: " << error << "\n";
        return kInvalid;
    }
    f.paths.clear();
    for (const auto& p : *paths) f.paths.push_back((std::filesystem::path(input->root) / p).string());
    if (!f.rendered.empty()) {
        auto rendered = repository_paths(*repo, {f.rendered}, error);
        if (!rendered) {
            std::cerr << "queueforge check --staged: " << error << "\n";
            return kUsage;
        }
        // Not staged at all yet: an empty folder, so every manifest reads as missing.
        std::string ignored;
        auto snap = repo->staged(error);
        if (snap) git::materialise(*snap, *rendered, input->root, ignored);
        f.rendered = (std::filesystem::path(input->root) / rendered->front()).string();
        std::filesystem::create_directories(f.rendered);
    }
    return kOk;
}

// A site that reads files outside its own folder (a base, a shared job
// manifest) is named in its findings and summary line even when checked
// alone: its findings may point at those shared files, and the summary says
// which cluster they are about (what the pre-commit hook prints when one
// site's change breaks an expectation written in the base).
bool reads_shared_files(const discover::Cluster& c) {
    if (c.site_file.empty()) return false;
    std::filesystem::path folder = std::filesystem::path(c.site_file).lexically_normal().parent_path();
    if (folder.empty()) folder = ".";
    for (const auto& input : site_inputs(c.site_file)) {
        const auto rel = std::filesystem::path(input).lexically_normal().lexically_relative(folder);
        if (rel.empty() || *rel.begin() == "..") return true;
    }
    return false;
}

// One cluster's findings: its site compiled and validated, policies applied,
// its samples simulated and, with --rendered, its manifests compared.
struct ClusterResult {
    Diagnostics diags;
    std::vector<SourceText> sources;
    ValidationSummary summary;
    int rc = kOk;  // not kOk: the configuration itself could not be used
};

ClusterResult check_cluster(const discover::Cluster& cluster, CheckFlags& f, const ValidationOptions& vo) {
    ClusterResult r;
    Diagnostics& diags = r.diags;
    LoadedResources input = load_resources(cluster.inputs, diags);
    r.summary = validate_all(input, vo, diags);
    f.policies.disabled = f.gate.options.disable;
    f.policies.report_unknown_disabled = false;  // the gate knows every rule id
    for (auto& id : policy::check_policies(input, f.policies, vo.target, diags)) f.gate.extra_ids.push_back(id);

    // Invalid input is not simulated; what counts as an error is the gate's call.
    Diagnostics gated = diags;
    std::vector<SourceText> gated_sources = input.sources;
    if (r.rc = apply_gate(gated, gated_sources, f.gate); r.rc != kOk) return r;
    if (!f.no_simulate && !gated.has_errors()) {
        Diagnostics sim_diags;
        auto report = scenarios::run({cluster.inputs, f.target, 0}, sim_diags);
        if (report) diags.append(scenarios::findings(*report));
        for (const auto& d : sim_diags.all())
            if (d.severity == Severity::Error) diags.add(d);
    }
    // Drift is reported whatever else failed: a stale rendered folder is a
    // finding of its own.
    if (!f.rendered.empty() && !cluster.site_file.empty()) {
        // The site's own findings are validate's above.
        Compilation c = compile({.path = cluster.site_file, .target = f.target});
        if (c.lowered)
            check_objects(f.rendered, c.lowered->objects, std::filesystem::path(cluster.site_file).filename().string(),
                          diags);
    }
    r.sources = std::move(input.sources);
    return r;
}

int run_check(CheckFlags f) {
    std::optional<GitInput> staged;
    if (f.staged)
        if (int rc = stage_inputs(f, staged); rc != kOk) return rc;
    const ReportFormat* format = find_report_format(f.output);
    if (!format) {
        std::cerr << "queueforge check: unknown output format \"" << f.output << "\" (" << report_format_names() << ")\n";
        return kUsage;
    }
    ValidationOptions vo;
    vo.ignore_missing_schemas = true;  // job manifests and core kinds sit beside the site
    vo.list_objects = format->lists_objects;
    if (!f.target.empty()) {
        auto t = find_target(f.target);
        if (!t.target) {
            std::cerr << "queueforge check: " << t.error << "\n";
            return kUsage;
        }
        vo.target = t.target;
    }
    // Each site beneath the paths is checked on its own (discover.hpp).
    Diagnostics diags;
    const auto clusters = discover::find_clusters(f.paths, {.as_one_cluster = f.as_one_cluster}, diags);
    if (clusters.empty()) return report(diags, {}, f.gate);
    if (!f.rendered.empty() && clusters.size() > 1) {
        std::cerr << "queueforge check: --rendered compares one site's manifests, but the paths hold " << clusters.size()
                  << " clusters; check each site with its own rendered folder\n";
        return kUsage;
    }
    ReportContext ctx;
    ValidationSummary summary;
    const std::string staged_prefix = staged ? (std::filesystem::path(staged->root) / "").string() : std::string();
    for (const auto& cluster : clusters) {
        ClusterResult r = check_cluster(cluster, f, vo);
        if (r.rc != kOk) return r.rc;
        std::string site = clusters.size() > 1 || reads_shared_files(cluster) ? cluster.label : std::string();
        if (staged && site.compare(0, staged_prefix.size(), staged_prefix) == 0)
            site = staged->label + site.substr(staged_prefix.size());
        for (auto d : r.diags.all()) {
            d.site = site;
            diags.add(std::move(d));
        }
        for (auto& s : r.sources) ctx.sources.push_back(std::move(s));
        for (const auto& i : cluster.inputs) ctx.inputs.push_back(i);
        merge_summary(summary, std::move(r.summary));
        if (!site.empty()) ctx.sites.push_back(site);
    }
    if (staged) {
        relabel(*staged, diags, ctx.sources);
        for (auto& i : ctx.inputs)
            if (i.compare(0, staged_prefix.size(), staged_prefix) == 0)
                i = staged->label + i.substr(staged_prefix.size());
    }
    return finish_report(*format, diags, ctx, f.gate, std::move(summary));
}

}  // namespace

Command add_check(CLI::App& app) {
    auto flags = std::make_shared<CheckFlags>();
    CLI::App* sub = app.add_subcommand("check", "Build, validate and simulate a site in one go (what CI and hooks run)");
    sub->add_option("paths", flags->paths, "Sites (folders with queueforge-site.yaml or site files) and manifests (default: .)");
    sub->add_option("-o,--output", flags->output, "Findings format: " + report_format_names());
    sub->add_option("--rendered", flags->rendered, "Also fail when the rendered manifests in this folder drifted from the site");
    sub->add_option("--target", flags->target, "Override the site's target");
    add_gate_flags(*sub, flags->gate, true);
    sub->add_flag("--no-simulate", flags->no_simulate, "Skip the sample workloads' admission simulation");
    sub->add_flag("--staged", flags->staged,
                  "Check the staged content (git index) of the paths, not the work tree (the pre-commit hook)");
    sub->add_flag("--as-one-cluster", flags->as_one_cluster,
                  "Read every path as one cluster (a folder means its queueforge-site.yaml), not one cluster per site");
    add_policy_flags(*sub, flags->policies);
    sub->footer(R"(Each site (queueforge-site.yaml, or a file of kind Site) beneath the paths is one cluster,
checked on its own; .git, rendered folders and git-ignored paths are skipped.

Examples:
  queueforge check                                  # every site beneath the current folder
  queueforge check clusters/prod --rendered clusters/prod/rendered -o sarif > results.sarif
  queueforge check --staged clusters/prod            # what is about to be committed

Exit codes: 0 nothing at or above the fail level, 1 a finding at or above it (invalid input included),
2 usage error or an unreadable path, 70 internal error.)");
    return {sub, [flags] { return run_check(*flags); }};
}

}  // namespace queueforge::cli
