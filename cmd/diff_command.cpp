// `queueforge diff --base REF [--head REF | --staged] [PATH...]`: what a
// change does to the queues, read from git without touching the work tree.
#include "cli.hpp"
#include "git_input.hpp"

#include <queueforge/review.hpp>
#include <queueforge/source_root.hpp>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>

namespace queueforge::cli {

namespace {

struct DiffFlags {
    std::vector<std::string> paths;
    std::string base, head;
    bool staged = false;
    std::vector<std::string> running;
    std::string output = "text";
    std::string target;
    bool no_simulate = false;
    GateFlags gate;
};

// A file or folder named on the command line that can be read ("-" is stdin).
bool readable_path(const std::string& path, std::string& why) {
    if (path == "-") return true;
    std::error_code ec;
    auto st = std::filesystem::status(path, ec);
    if (ec || !std::filesystem::exists(st)) {
        why = ec ? ec.message() : "no such file or directory";
        return false;
    }
    if (std::filesystem::is_directory(st)) return true;
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        why = std::strerror(errno);
        return false;
    }
    return true;
}

int run_diff(const DiffFlags& f) {
    if (f.output != "text" && f.output != "json" && f.output != "markdown") {
        std::cerr << "queueforge diff: unknown output format \"" << f.output << "\" (text, json, markdown)\n";
        return kUsage;
    }
    if (f.base.empty()) {
        std::cerr << "queueforge diff: --base REF is required\n";
        return kUsage;
    }
    if (f.staged && !f.head.empty()) {
        std::cerr << "queueforge diff: --head and --staged exclude each other\n";
        return kUsage;
    }
    std::string why;
    // A --running file that cannot be read would silently disable the
    // running-workload gate: it is a command-line path error (exit 2).
    for (const auto& file : f.running) {
        if (!confine_input(file, &why)) {  // the source root rule: not even opened
            std::cerr << "queueforge diff: --running " << why << " [io.outside-root]\n";
            return kInvalid;
        }
        if (!readable_path(file, why)) {
            std::cerr << "queueforge diff: --running " << file << ": " << why << "\n";
            return kUsage;
        }
    }
    std::string error;
    auto repo = open_repository(error);
    if (!repo) {
        std::cerr << "queueforge diff: " << error << "\n";
        return kUsage;
    }
    auto paths = repository_paths(*repo, f.paths, error);
    if (!paths) {
        std::cerr << "queueforge diff: " << error << "\n";
        return kUsage;
    }
    auto base = read_input(*repo, Source::Revision, f.base, *paths, error);
    if (!base) {
        std::cerr << "queueforge diff: " << error << "\n";
        return kInvalid;
    }
    Source head_source = f.staged ? Source::Staged : f.head.empty() ? Source::WorkTree : Source::Revision;
    auto head = read_input(*repo, head_source, f.head, *paths, error);
    if (!head) {
        std::cerr << "queueforge diff: " << error << "\n";
        return kInvalid;
    }
    Diagnostics diags;
    auto a = review::build_side(base->name, base->label, base->root, *paths, f.target, diags);
    auto b = review::build_side(head->name, head->label, head->root, *paths, f.target, diags);
    std::vector<SourceText> sources;
    if (a) sources.insert(sources.end(), a->sources.begin(), a->sources.end());
    if (b) sources.insert(sources.end(), b->sources.begin(), b->sources.end());
    if (!a || !b) {
        const int rc = report(diags, sources, f.gate);
        return rc == kOk ? kInvalid : rc;
    }
    review::Options opts{f.running, f.target, !f.no_simulate};
    review::Review r = review::compare(*a, base->root, *b, head->root, *paths, opts, diags);
    const int rc = report(diags, sources, f.gate);
    if (rc == kUsage) return rc;
    std::cout << (f.output == "json" ? review::render_json(r) : f.output == "markdown" ? review::render_markdown(r)
                                                                                     : review::render_text(r));
    std::cout.flush();
    return rc == kOk && r.blocked.empty() && std::cout.good() ? kOk : kInvalid;
}

}  // namespace

Command add_diff(CLI::App& app) {
    auto flags = std::make_shared<DiffFlags>();
    CLI::App* sub = app.add_subcommand("diff", "What a change does to the queues: objects, quotas, admissions (from git)");
    sub->add_option("paths", flags->paths, "Site folders or files (default: the current directory)");
    sub->add_option("--base", flags->base, "The revision to compare from (HEAD, main, HEAD~3, a commit)")->required();
    sub->add_option("--head", flags->head, "The revision to compare to (default: the work tree)");
    sub->add_flag("--staged", flags->staged, "Compare to the staged content (the index)");
    sub->add_option("--running", flags->running,
                    "Running Workloads (kubectl get workloads -A -o yaml): the change's impact on them (repeatable)")
        ->allow_extra_args(false);
    sub->add_option("-o,--output", flags->output, "text, json or markdown (a merge-request comment)");
    sub->add_option("--target", flags->target, "Override the sites' target");
    sub->add_flag("--no-simulate", flags->no_simulate, "Object and quota changes only");
    add_gate_flags(*sub, flags->gate);
    sub->footer(R"(Examples:
  queueforge diff --base main clusters/prod
  queueforge diff --base HEAD --staged clusters/prod -o markdown
  queueforge diff --base origin/main --head HEAD clusters/prod --running workloads.yaml

Exit codes: 0 compared, 1 a site is missing or invalid in a revision, or a removed
ClusterQueue/ResourceFlavor is still used by running workloads, 2 usage error
(not a repository, a path outside it, a --running file that cannot be read).)");
    return {sub, [flags] { return run_diff(*flags); }};
}

}  // namespace queueforge::cli
