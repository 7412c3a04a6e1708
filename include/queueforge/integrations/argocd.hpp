#pragma once
// The Argo CD config-management plugin's parameters (conventions.md
// section 1): which site file, which target and which teams `generate`
// renders. They come from the repo-server's environment, written by whoever
// edits the Application, so every value is checked for its type and a wrong
// one is a diagnostic, never an exception.
#include <queueforge/base/diagnostics.hpp>
#include <queueforge/frontend/site.hpp>

#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace queueforge::argocd {

inline constexpr const char* kAppParameters = "ARGOCD_APP_PARAMETERS";

struct Parameters {
    std::string site = "queueforge-site.yaml";
    std::string target;
    std::vector<std::string> teams;  // sorted; empty = every team
};

// Reads the parameters from `environment` ("NAME=value" entries, as in
// environ): ARGOCD_APP_PARAMETERS (JSON) is the source of truth, PARAM_* the
// fallback; ARGOCD_ENV_QUEUEFORGE_SITE / _TARGET override both. Problems are
// reported against the variable that carries them: "cmp.unknown-parameter"
// for a name the plugin does not announce, "cmp.parameter" for anything
// malformed. Returns nothing when an error was reported.
std::optional<Parameters> read_parameters(const std::vector<std::string>& environment, Diagnostics& diags);

// Keeps the teams `wanted` names (every team when it is empty); a name the
// site does not define is an error ("cmp.teams") with the closest team name
// as a suggestion, and then no team is dropped.
void select_teams(site::Site& s, const std::vector<std::string>& wanted, Diagnostics& diags);

// The versions of kueue.x-k8s.io the destination cluster serves, from Argo
// CD's KUBE_API_VERSIONS ("v1,apps/v1,kueue.x-k8s.io/v1beta2,..."; entries
// may be group/version/Kind too). Empty when the list is empty.
std::set<std::string> served_kueue_versions(std::string_view kube_api_versions);

// When the site pins no Kueue API version and the destination cluster serves
// only the other one, the site follows the cluster (Cohorts too, when their
// version is not served either). Returns what to tell the user ("" when
// nothing changed). `override_target` is the plugin's target parameter.
std::string follow_cluster_api(site::Site& s, const std::string& override_target, const std::set<std::string>& served);

}  // namespace queueforge::argocd
