// `queueforge diff --base REF [--head REF | --staged] [PATH...]`: what a
// change does to the queues, read from git without touching the work tree.
#include "cli.hpp"
#include "git_input.hpp"

#include <queueforge/base/names.hpp>
#include <queueforge/integrations/diff.hpp>
#include <queueforge/base/source_root.hpp>

#include <algorithm>
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
    bool exit_code = false;
    std::vector<std::string> fail_on;
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
    for (const auto& kind : f.fail_on) {
        const auto& kinds = diff::fail_on_kinds();
        if (std::find(kinds.begin(), kinds.end(), kind) != kinds.end()) continue;
        std::cerr << "queueforge diff: unknown --fail-on kind \"" << kind << "\"";
        if (auto near = did_you_mean(kind, kinds); !near.empty()) std::cerr << "; did you mean \"" << near << "\"?";
        std::cerr << " (";
        for (std::size_t i = 0; i < kinds.size(); ++i) std::cerr << (i ? ", " : "") << kinds[i];
        std::cerr << ")\n";
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
    // A site may exist on one side only (added or removed): missing paths are
    // left out of a side, and are an error only when neither side has them.
    auto base = read_input(*repo, Source::Revision, f.base, *paths, error, true);
    if (!base) {
        std::cerr << "queueforge diff: " << error << "\n";
        return kInvalid;
    }
    Source head_source = f.staged ? Source::Staged : f.head.empty() ? Source::WorkTree : Source::Revision;
    auto head = read_input(*repo, head_source, f.head, *paths, error, true);
    if (!head) {
        std::cerr << "queueforge diff: " << error << "\n";
        return kInvalid;
    }
    for (const auto& p : *paths) {
        std::error_code ec;
        if (!std::filesystem::exists(std::filesystem::path(base->root) / p, ec) &&
            !std::filesystem::exists(std::filesystem::path(head->root) / p, ec)) {
            std::cerr << "queueforge diff: \"" << (p.empty() ? "." : p) << "\" exists neither in " << base->name << " nor in "
                      << head->name << "\n";
            return kUsage;
        }
    }
    Diagnostics diags;
    std::vector<SourceText> sources;
    diff::Options opts{f.running, f.target, !f.no_simulate};
    auto r = diff::compare_sites({base->root, base->label, base->name}, {head->root, head->label, head->name}, *paths,
                                   opts, diags, sources);
    if (!r) {
        const int rc = report(diags, sources, f.gate);
        return rc == kOk ? kInvalid : rc;
    }
    const int rc = report(diags, sources, f.gate);
    if (rc == kUsage) return rc;
    std::cout << (f.output == "json" ? diff::render_json(*r) : f.output == "markdown" ? diff::render_markdown(*r)
                                                                                      : diff::render_text(*r));
    std::cout.flush();
    if (!std::cout.good()) return kInvalid;
    // Like git diff: 0 whatever changed, unless asked to gate on it.
    bool fail = rc != kOk;
    if (f.exit_code && diff::has(*r, "any")) fail = true;
    for (const auto& kind : f.fail_on)
        if (diff::has(*r, kind)) fail = true;
    return fail ? kInvalid : kOk;
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
    sub->add_flag("--exit-code", flags->exit_code, "Exit 1 when anything changed (like git diff --exit-code)");
    sub->add_option("--fail-on", flags->fail_on,
                    "Exit 1 when the change has this (repeatable): regression, deletion-blocked, quota-below-usage, any")
        ->allow_extra_args(false);
    add_gate_flags(*sub, flags->gate);
    sub->footer(R"(Each site (queueforge-site.yaml, or a file of kind Site) beneath the paths is compared with
the same site on the other side: sites are matched by path; a site that exists on one side
only is added or removed, unless the other side has one of the same metadata.name at another
path (then it moved: "renamed", and its objects are compared). A change to a file several
sites read (a job manifest) shows under each of them.

Examples:
  queueforge diff --base main                        # every site of the repository
  queueforge diff --base main clusters/prod
  queueforge diff --base HEAD --staged -o markdown
  queueforge diff --base origin/main --head HEAD --fail-on regression -o markdown > comment.md
  queueforge diff --base origin/main --head HEAD clusters/prod --running workloads.yaml --fail-on quota-below-usage

--fail-on kinds:
  regression         a sample or running workload admitted before is Pending, preempted or
                     loses its quota after, or is admitted without a flavor it had
  deletion-blocked   a removed ClusterQueue/ResourceFlavor is still used by running workloads
  quota-below-usage  a nominal quota is cut below what running workloads use (needs --running)
  any                anything changed (as --exit-code)

Exit codes: 0 compared (whatever changed, like git diff), 1 a site is invalid in a revision,
a removed ClusterQueue/ResourceFlavor is still used by running workloads (review.deletion-blocked),
--exit-code and something changed, or --fail-on and the change has that kind; 2 usage error
(not a repository, a path outside it or on neither side, an unknown --fail-on kind,
a --running file that cannot be read), 70 internal error.)");
    return {sub, [flags] { return run_diff(*flags); }};
}

}  // namespace queueforge::cli
