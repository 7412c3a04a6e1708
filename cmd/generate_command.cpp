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

// The Kueue API version the destination cluster serves, from Argo CD's
// KUBE_API_VERSIONS ("v1,apps/v1,kueue.x-k8s.io/v1beta2,..."; entries may be
// group/version/Kind too). Empty when unknown.
std::set<std::string> served_kueue_versions() {
    std::set<std::string> out;
    const char* list = env("KUBE_API_VERSIONS");
    if (!list) return out;
    std::string s = list;
    for (std::size_t b = 0; b < s.size();) {
        std::size_t e = s.find(',', b);
        if (e == std::string::npos) e = s.size();
        std::string item = s.substr(b, e - b);
        if (item.starts_with("kueue.x-k8s.io/")) {
            std::string v = item.substr(15);
            out.insert(v.substr(0, v.find('/')));
        }
        b = e + 1;
    }
    return out;
}

std::string target_spec(const site::Site& s) {
    if (!s.target.name.value.empty()) return s.target.name.value;
    if (!s.target.openshift_ai.value.empty()) return "rhoai-" + s.target.openshift_ai.value;
    return "kueue-" + s.target.kueue.value;
}

// When the site does not pin the Kueue API version and the cluster serves the
// other one only, follow the cluster (and say so).
void follow_cluster_api(site::Site& s, const std::string& override_target) {
    if (!s.target.kueue_api_version.value.empty()) return;
    auto served = served_kueue_versions();
    if (served.empty()) return;
    auto t = find_target(override_target.empty() ? target_spec(s) : override_target);
    if (!t.target) return;
    std::string mine = t.target->kueue_api_version.substr(t.target->kueue_api_version.find('/') + 1);
    if (served.count(mine)) return;
    for (const char* other : {"v1beta2", "v1beta1"}) {
        if (!served.count(other)) continue;
        // Cohorts follow the queues when their version is not served either.
        const std::string& cohort = t.target->cohort_api_version;
        std::string cohort_version = cohort.empty() ? "" : cohort.substr(cohort.find('/') + 1);
        std::string cohort_override = !cohort_version.empty() && !served.count(cohort_version) ? other : "";
        if (apply_overrides(*t.target, {other, "", cohort_override}).target) {
            s.target.kueue_api_version.value = other;
            s.target.cohort_api_version.value = cohort_override;
            std::cerr << "queueforge: the destination cluster serves kueue.x-k8s.io/" << other << ", not " << mine
                      << "; emitting " << other << "\n";
        }
        return;
    }
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
    Compilation c = compile({.path = *path,
                             .target = p.target,
                             .prepare = [&p](site::Site& s, Diagnostics& diags) {
                                 argocd::select_teams(s, p.teams, diags);
                                 follow_cluster_api(s, p.target);
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
                    sources.insert(sources.begin(), {*path, std::move(text)});
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
