// The Argo CD plugin's parameters: the input is an environment, one
// "NAME=value" entry per line (ARGOCD_APP_PARAMETERS carries JSON); the teams
// it selects are then applied to a small site.
#include "fuzz_util.hpp"

#include <queueforge/integrations/argocd.hpp>
#include <queueforge/frontend/site_parse.hpp>

namespace {

const queueforge::site::Site& fixed_site() {
    static const queueforge::site::Site s = [] {
        const std::string text = R"(apiVersion: queueforge.io/v1alpha1
kind: Site
metadata: {name: fuzz}
spec:
  target: kueue-0.13
  pools:
    - name: default-flavor
  teams:
    - name: team-a
      namespaces: [team-a]
      quota:
        - {pool: default-flavor, nominal: {cpu: 9, memory: 36Gi}}
    - name: team-b
      namespaces: [team-b]
      quota:
        - {pool: default-flavor, nominal: {cpu: 9, memory: 36Gi}}
)";
        queueforge::Diagnostics diags;
        auto parsed = queueforge::parse_site_text("site.yaml", text, diags);
        if (!parsed)
            queueforge::fuzz::fail("the argocd target's site does not parse: " +
                                   (diags.all().empty() ? std::string() : diags.all().front().message.str()));
        return *parsed;
    }();
    return s;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace queueforge;
    const std::string text = fuzz::text_of(data, size);
    std::vector<std::string> environment;
    std::size_t start = 0;
    while (start <= text.size()) {
        std::size_t end = text.find('\n', start);
        if (end == std::string::npos) end = text.size();
        environment.push_back(text.substr(start, end - start));
        start = end + 1;
    }
    Diagnostics diags;
    auto params = argocd::read_parameters(environment, diags);
    fuzz::require_error_on_failure(!params, diags, "read_parameters");
    if (params) {
        site::Site s = fixed_site();
        argocd::select_teams(s, params->teams, diags);
    }
    return 0;
}
