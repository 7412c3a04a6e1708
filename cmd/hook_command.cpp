// `queueforge hook check|render [FILE...]`: the pre-commit hooks of the
// whole repository (.pre-commit-hooks.yaml, pass_filenames: true). pre-commit
// passes the staged files; the hook acts on exactly the sites those files
// reach -- a site file, a file the site's build reads (site_inputs.hpp: its
// job manifests), a policy given with --policy (every site), a
// .queueforge.yaml (every site beneath its folder), a file of the site's
// rendered folder -- as they are staged (the index), never the work tree:
//   check   queueforge check --staged SITE...
//   render  queueforge build --staged SITE -o SITE/rendered --prune --fail-on-change, per site
//           (a site file not called queueforge-site.yaml: FOLDER/rendered/STEM)
// No file, or none that reaches a site: nothing to do, exit 0.
#include "cli.hpp"
#include "git_input.hpp"

#include <queueforge/frontend/discover.hpp>
#include <queueforge/frontend/site_inputs.hpp>

#include <algorithm>
#include <filesystem>
#include <iostream>
#include <set>

namespace queueforge::cli {

namespace {

namespace fs = std::filesystem;

struct HookFlags {
    std::string mode;
    std::vector<std::string> files;
    std::string rendered = "rendered";
    std::vector<std::string> policies;
};

// "a/b" is `file` itself or a folder holding it.
bool covers(const std::string& prefix, const std::string& file) {
    if (prefix.empty() || prefix == ".") return true;
    return file == prefix || (file.size() > prefix.size() && file.compare(0, prefix.size(), prefix) == 0 &&
                              file[prefix.size()] == '/');
}

std::string repo_relative(const std::string& root, const std::string& path) {
    return fs::path(path).lexically_relative(root).lexically_normal().generic_string();
}

// Runs another command of this program in-process, as the command line would.
int run_command(std::vector<std::string> args) {
    CLI::App app{"queueforge"};
    app.require_subcommand(1);
    std::vector<Command> commands = {add_check(app), add_build(app)};
    std::vector<const char*> argv{"queueforge"};
    for (const auto& a : args) argv.push_back(a.c_str());
    try {
        app.parse(static_cast<int>(argv.size()), argv.data());
    } catch (const CLI::ParseError& e) {
        app.exit(e);
        return kUsage;
    }
    for (const auto& c : commands)
        if (c.app->parsed()) return c.run();
    return kUsage;
}

int run_hook(const HookFlags& f) {
    if (f.files.empty()) return kOk;  // pre-commit passed nothing this hook cares about
    std::string error;
    auto repo = open_repository(error);
    if (!repo) {
        std::cerr << "queueforge hook " << f.mode << ": " << error << "\n";
        return kUsage;
    }
    auto changed = repository_paths(*repo, f.files, error);
    auto policies = repository_paths(*repo, f.policies, error);
    if (!changed || !policies) {
        std::cerr << "queueforge hook " << f.mode << ": " << error << "\n";
        return kUsage;
    }
    if (f.policies.empty()) policies->clear();  // repository_paths reads "none" as "."
    // The sites as staged: every site of the index, and what each one reads.
    auto staged = read_input(*repo, Source::Staged, "", {""}, error);
    if (!staged) {
        std::cerr << "queueforge hook " << f.mode << ": " << error << "\n";
        return kInvalid;
    }
    const std::string root = fs::path(staged->root).lexically_normal().string();
    Diagnostics quiet;  // check reports the sites' problems, named as staged
    auto clusters = discover::find_clusters({root}, {}, quiet);
    bool every_site = false;
    for (const auto& file : *changed)
        for (const auto& p : *policies)
            if (covers(p, file)) every_site = true;
    std::vector<std::string> sites;  // repository paths of the site files reached
    for (const auto& c : clusters) {
        if (c.site_file.empty()) continue;
        const std::string site_file = repo_relative(root, c.site_file);
        bool reached = every_site;
        for (const auto& input : site_inputs(c.site_file)) {
            const std::string rel = repo_relative(root, input);
            reached = reached || std::find(changed->begin(), changed->end(), rel) != changed->end();
        }
        for (const auto& file : *changed) {
            const fs::path p(file);
            if (covers(file, site_file)) reached = true;  // a folder named in the hook's args: its sites
            if (p.filename() == ".queueforge.yaml" && covers(p.parent_path().generic_string(), site_file)) reached = true;
            if (covers(discover::rendered_folder(site_file, f.rendered), file)) reached = true;
        }
        if (reached) sites.push_back(site_file);
    }
    if (sites.empty()) return kOk;
    // Paths as the commands take them: from the repository's top, whatever
    // folder pre-commit (or a person) ran the hook in.
    const fs::path top = repo->workdir();
    auto shown = [&](const std::string& rel) { return (top / rel).lexically_normal().lexically_relative(fs::current_path()).string(); };
    if (f.mode == "check") {
        std::vector<std::string> args{"check", "--staged"};
        for (const auto& p : *policies) args.insert(args.end(), {"--policy", shown(p)});
        for (const auto& s : sites) args.push_back(shown(s));
        return run_command(args);
    }
    int worst = kOk;
    for (const auto& s : sites) {
        const std::string out = shown(discover::rendered_folder(s, f.rendered));
        worst = std::max(worst, run_command({"build", "--staged", shown(s), "-o", out, "--prune", "--fail-on-change"}));
    }
    return worst;
}

}  // namespace

Command add_hook(CLI::App& app) {
    auto flags = std::make_shared<HookFlags>();
    CLI::App* sub = app.add_subcommand("hook", "The pre-commit hooks: check or render the sites the staged files reach");
    sub->add_option("mode", flags->mode, "check or render")->required()->check(CLI::IsMember({"check", "render"}));
    sub->add_option("files", flags->files, "Staged files, as pre-commit passes them (pass_filenames: true)");
    sub->add_option("--rendered", flags->rendered, "render: the folder inside each site's folder to write (default: rendered)");
    sub->add_option("--policy", flags->policies,
                    "check: policy files or folders; a staged change to them reaches every site (repeatable)")
        ->allow_extra_args(false);
    sub->footer(R"(A staged file reaches a site when it is the site file, a job manifest the site references
(workloads[].file), a file in the site's rendered folder, a .queueforge.yaml above the site, or
a file under a --policy path (every site); a folder (in the hook's args) reaches the sites beneath
it. Only those sites are checked or rendered, each as
staged in the index; files that reach no site make the hook succeed without doing anything.

  check    queueforge check --staged SITE...                       (all reached sites together)
  render   queueforge build --staged SITE -o SITE/rendered --prune --fail-on-change   (each site;
           a site file with another name, clusters/east.yaml, renders into clusters/rendered/east)

Examples (what .pre-commit-hooks.yaml runs):
  queueforge hook check clusters/prod/queueforge-site.yaml jobs/train.yaml
  queueforge hook render clusters/prod/queueforge-site.yaml

Exit codes: 0 nothing reached, or every reached site passes (render: its rendered folder was
already up to date), 1 a finding at error level or a rendered folder that had to be updated
(review and stage it), 2 usage error (a path outside the repository), 70 internal error.)");
    return {sub, [flags] { return run_hook(*flags); }};
}

}  // namespace queueforge::cli
