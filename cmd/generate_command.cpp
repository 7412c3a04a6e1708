// `queueforge generate`: the Argo CD config-management plugin's generate
// command (conventions.md section 1). It runs in the Application's source
// folder of an untrusted repository: it reads nothing outside that folder,
// runs nothing, and prints manifests only when everything succeeded -- an
// empty stream with exit 0 would make Argo CD prune the whole application.
#include "cli.hpp"

#include <queueforge/integrations/argocd.hpp>
#include <queueforge/backends/emit.hpp>
#include <queueforge/compile.hpp>
#include <queueforge/frontend/site_parse.hpp>
#include <queueforge/base/source_root.hpp>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <set>

extern char** environ;

namespace queueforge::cli {

namespace {

// Plugin mode reads nothing outside the Application's folder: not even a
// .queueforge.yaml above it.
GateFlags plugin_gate() {
    GateFlags g;
    g.options.search_root = ".";
    return g;
}

const char* env(const char* name) {
    const char* v = std::getenv(name);
    return v && *v ? v : nullptr;
}

// The plugin's parameters from this process's environment; on a problem the
// diagnostics are printed and `exit` says how the command ends (2 for an
// unknown parameter, as for an unknown flag; 1 for a malformed one).
std::optional<argocd::Parameters> read_params(int& exit) {
    std::vector<std::string> environment;
    for (char** e = environ; e && *e; ++e) environment.emplace_back(*e);
    Diagnostics diags;
    auto p = argocd::read_parameters(environment, diags);
    if (p) return p;
    report(diags, {}, plugin_gate());
    exit = std::any_of(diags.all().begin(), diags.all().end(),
                       [](const Diagnostic& d) { return d.rule == "cmp.unknown-parameter"; })
               ? kUsage
               : kInvalid;
    return std::nullopt;
}

int run_generate(const std::string& flag_target) {
    int exit = kOk;
    auto params = read_params(exit);
    if (!params) return exit;
    argocd::Parameters& p = *params;
    std::string err;
    if (!flag_target.empty() && p.target.empty()) p.target = flag_target;
    auto path = resolve_inside(".", p.site, &err);
    if (!path) {
        std::cerr << "queueforge generate: site file " << err << "\n";
        return kInvalid;
    }
    const char* api_versions = env("KUBE_API_VERSIONS");
    const auto served = argocd::served_kueue_versions(api_versions ? api_versions : "");
    Compilation c = compile({.path = *path,
                             .target = p.target,
                             .prepare = [&p, &served](site::Site& s, Diagnostics& diags) {
                                 argocd::select_teams(s, p.teams, diags);
                                 if (auto note = argocd::follow_cluster_api(s, p.target, served); !note.empty())
                                     std::cerr << "queueforge: " << note << "\n";
                             }});
    if (report(c.diagnostics, c.sources.texts(), plugin_gate()) != kOk || !c.lowered) return kInvalid;
    const auto& lowered = c.lowered;
    if (lowered->objects.empty()) {
        std::cerr << "queueforge generate: the site renders no objects; refusing to hand Argo CD an empty stream\n";
        return kInvalid;
    }
    // Everything is rendered before the first byte goes out.
    std::string out = render_stream(lowered->objects, "");
    std::cout << out;
    std::cout.flush();
    return std::cout.good() ? kOk : kInvalid;
}

}  // namespace

Command add_generate(CLI::App& app) {
    auto target = std::make_shared<std::string>();
    CLI::App* sub = app.add_subcommand("generate", "Argo CD plugin mode: render the site in the current folder to stdout");
    sub->add_option("--target", *target, "Default target when the Application sets none");
    sub->footer(R"(Examples:
  queueforge generate                                   # in the Application's folder, as Argo CD runs it
  ARGOCD_ENV_QUEUEFORGE_TARGET=rhoai-3.5 queueforge generate
  PARAM_TEAMS_0=llm PARAM_TEAMS_1=vision queueforge generate   # only these teams

Runs in the Application's source folder as Argo CD's config-management plugin
(deploy/argocd/plugin.yaml). Parameters: site (file, default queueforge-site.yaml),
target, teams (subset to render); from ARGOCD_APP_PARAMETERS, PARAM_* or
ARGOCD_ENV_QUEUEFORGE_SITE / _TARGET. Manifests go to stdout only on success.

Exit codes: 0 ok, 1 invalid site, malformed parameter, unknown team or unsafe path
(nothing printed), 2 unknown parameter.)");
    return {sub, [target] { return run_generate(*target); }};
}

Command add_cmp_parameters(CLI::App& app) {
    CLI::App* sub = app.add_subcommand("cmp-parameters", "Argo CD plugin mode: announce the site's teams as a parameter");
    sub->footer(R"(Examples:
  queueforge cmp-parameters          # in the Application's folder, as Argo CD runs it

Prints the JSON array Argo CD's dynamic parameters expect.

Exit codes: 0 ok, 1 no readable site or a malformed parameter (the reason on stderr),
2 unknown parameter.)");
    return {sub, [] {
                int exit = kOk;
                auto p = read_params(exit);
                if (!p) return exit;
                std::string err;
                auto path = resolve_inside(".", p->site, &err);
                if (!path) std::cerr << "queueforge cmp-parameters: site file " << err << "\n";
                // The teams need the site read, not compiled.
                Diagnostics diags;
                std::vector<SourceText> sources;
                std::optional<site::Site> site;
                if (path) {
                    std::string text;
                    site = load_site_file(*path, diags, &text, &sources);
                    sources.insert(sources.begin(), SourceText{.path = *path, .text = std::move(text)});
                    if (!site) report(diags, sources, plugin_gate());
                }
                nlohmann::ordered_json teams = nlohmann::ordered_json::array();
                if (site)
                    for (const auto& t : site->teams) teams.push_back(t.name.value);
                nlohmann::ordered_json out = nlohmann::ordered_json::array();
                out.push_back({{"name", "teams"},
                               {"title", "Teams to render (default: all)"},
                               {"collectionType", "array"},
                               {"array", teams}});
                std::cout << out.dump() << "\n";
                return static_cast<int>(site ? kOk : kInvalid);
            }};
}

}  // namespace queueforge::cli
