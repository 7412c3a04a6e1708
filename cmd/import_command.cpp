#include "cli.hpp"
#include "import_runai.hpp"

#include <queueforge/integrations/import.hpp>
#include <queueforge/frontend/manifests.hpp>

#include <filesystem>
#include <iostream>

#include <unistd.h>

namespace queueforge::cli {

namespace {

struct ImportFlags {
    std::vector<std::string> paths;
    std::string output;
    std::string into;
    std::string extends;
    std::string target;
    std::string name;
    GateFlags gate;
    std::string from = "kueue";
    RunaiImportFlags runai;
};

int run_import(const ImportFlags& f) {
    if (f.from == "runai") {
        if (!f.into.empty()) {
            std::cerr << "queueforge import: --into is for Kueue manifests; with --from runai use -o\n";
            return kUsage;
        }
        RunaiImportFlags r = f.runai;
        r.paths = f.paths;
        r.output = f.output;
        r.target = f.target;
        r.name = f.name;
        return run_import_runai(r, f.gate);
    }
    std::error_code ec;
    if (!f.into.empty() && !std::filesystem::is_directory(f.into, ec)) {
        std::cerr << "queueforge import: --into " << f.into << " is not a folder\n";
        return kUsage;
    }
    // Progress on a terminal only: one line, rewritten, erased at the end.
    const bool tty = isatty(STDERR_FILENO);
    auto show = [tty](const std::string& what) {
        if (tty) std::cerr << "\r\033[Kqueueforge import: " << what << "..." << std::flush;
    };
    show("reading manifests");
    Diagnostics diags;
    LoadedResources loaded = load_resources(f.paths, diags);
    show("read " + std::to_string(loaded.resources.size()) + " documents");
    for (const auto& d : diags.all())
        if (d.severity == Severity::Error && (d.rule == "io" || d.rule == "yaml.read")) {
            if (tty) std::cerr << "\r\033[K" << std::flush;
            report(diags, loaded.sources, f.gate);
            return kUsage;
        }
    std::optional<ImportResult> result;
    if (!diags.has_errors())
        result = import_site(std::move(loaded.resources), diags,
                             {.target = f.target, .site_name = f.name, .progress = show});
    if (tty) std::cerr << "\r\033[K" << std::flush;
    if (int rc = report(diags, loaded.sources, f.gate); rc != kOk) return rc;
    if (!result) return kInvalid;

    const auto& s = result->stats;
    std::cerr << "queueforge import: " << s.objects << (s.objects == 1 ? " object" : " objects") << " for target "
              << result->target << ": " << s.modelled << " built by the site (" << s.patched << " with patches), "
              << s.passthrough << " kept whole in spec.passthrough\n";
    std::string text = render_imported_site(*result);
    if (!f.into.empty()) {
        const Node* meta = result->site.find("metadata");
        const Node* name = meta ? meta->find("name") : nullptr;
        Diagnostics clash;
        auto file = import_destination(f.into, name ? name->text() : "imported", clash);
        if (!file) {
            report(clash, {}, f.gate);
            return kInvalid;
        }
        if (!f.extends.empty()) {
            Diagnostics based;
            auto overlay = overlay_on_base(result->site, f.extends, *file, based);
            if (int rc = report(based, {}, f.gate); rc != kOk) return rc;
            if (overlay) {
                ImportResult as_overlay = *result;
                as_overlay.site = std::move(*overlay);
                text = render_imported_site(as_overlay);
            }
        }
        std::filesystem::create_directories(std::filesystem::path(*file).parent_path(), ec);
        Diagnostics io;
        if (!write_file_atomically(*file, text, io)) {
            report(io, {});
            return kInvalid;
        }
        std::cerr << "queueforge import: wrote " << *file << "\n";
        return kOk;
    }
    if (f.output.empty() || f.output == "-") {
        std::cout << text;
        std::cout.flush();
        return std::cout.good() ? kOk : kInvalid;
    }
    Diagnostics io;
    if (!write_file_atomically(f.output, text, io)) {
        report(io, {});
        return kInvalid;
    }
    return kOk;
}

}  // namespace

Command add_import(CLI::App& app) {
    auto flags = std::make_shared<ImportFlags>();
    CLI::App* sub = app.add_subcommand("import", "Turn existing Kueue and DataScienceCluster manifests into a site description");
    sub->add_option("paths", flags->paths, "Manifest files, folders (recursive) or - for stdin; kubectl dumps and Lists too")
        ->required();
    auto* output = sub->add_option("-o,--output", flags->output, "Write the site to this file (atomically) instead of stdout");
    sub->add_option("--into", flags->into,
                    "Add the cluster to this repository folder: a new site folder <into>/<name>/, refused when a site "
                    "of that name is already beneath it")
        ->excludes(output);
    sub->add_option("--extends", flags->extends,
                    "With --into: write the cluster as an overlay of this base (file or folder), keeping only what "
                    "differs from it")
        ->needs("--into");
    sub->add_option("--target", flags->target, "Build for this target instead of inferring it (e.g. rhoai-2.16, kueue-0.13)");
    sub->add_option("--name", flags->name, "metadata.name of the site (default: the part-of label queueforge wrote, else imported)");
    sub->add_option("--from", flags->from, "What the input is: kueue (manifests, the default) or runai (a Run:ai export)")
        ->check(CLI::IsMember({"kueue", "runai"}));
    sub->add_option("--runai-weights", flags->runai.weights,
                    "With --from runai: per-node-pool over-quota weights as one averaged fairSharingWeight (average, "
                    "the default) or one ClusterQueue per node pool (split)")
        ->check(CLI::IsMember({"average", "split"}));
    sub->add_option("--report", flags->runai.report,
                    "With --from runai: write the migration report (fidelity, before/after GPUs) to this file "
                    "or - for stderr");
    sub->add_option("--report-format", flags->runai.report_format,
                    "text, json, markdown or html (default: from the --report file's extension .json, .md, .html; "
                    "else text)")
        ->check(CLI::IsMember({"text", "json", "markdown", "html"}));
    sub->add_option("--demands", flags->runai.demands,
                    "With --from runai --report: scenario files of demands (demands: [{project, pool, gpus}]) to "
                    "compare besides everyone asking for everything");
    add_gate_flags(*sub, flags->gate);
    sub->footer(R"(Examples:
  queueforge import manifests/ -o queueforge-site.yaml
  kubectl get resourceflavors,clusterqueues,localqueues,cohorts,workloadpriorityclasses -A -o yaml | queueforge import -
  queueforge import dump.yaml --target rhoai-3.5 --name gpu-cluster
  queueforge import dump.yaml --name east --into clusters/   # writes clusters/east/queueforge-site.yaml
  queueforge import dump.yaml --name east --into clusters/ --extends base/   # only what differs from base/
  queueforge build examples/multi-team -o rendered/ && queueforge import rendered/ -o site.yaml   # round trip
  queueforge import --from runai examples/runai/export.yaml -o site.yaml --report -   # a Run:ai organisation

The site it writes builds the input's objects again: what the site format cannot
express is kept under spec.patches (fields) and spec.passthrough (whole objects),
and each one is reported as a warning at the input's file:line:col.

Exit codes: 0 ok, 1 invalid input (conflicting duplicates, YAML errors, warnings
with --strict; nothing written), 2 usage error or unreadable input.)");
    return {sub, [flags] { return run_import(*flags); }};
}

}  // namespace queueforge::cli
