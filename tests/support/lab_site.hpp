#pragma once
// The one-pool, one-team site the platform-section tests build on
// (kueueOperator, kueueConfig), with the line numbers a test checks
// positions against.
#include <string>

namespace qf_test {

// `team_extra` goes into team-a's map before its quota (line 14 when it is
// one line), `extra` after the teams, `section` last (line 15 after a
// one-line `extra`-less site, 16 with one line of `team_extra`).
inline std::string lab_site(const std::string& target, const std::string& section, const std::string& team_extra = {},
                            const std::string& extra = {}) {
    return "apiVersion: queueforge.io/v1alpha1\n"  // 1
           "kind: Site\n"                          // 2
           "metadata:\n"                           // 3
           "  name: lab\n"                         // 4
           "spec:\n"                               // 5
           "  target: " + target + "\n" +          // 6
           "  pools:\n"                            // 7
           "    - name: a100\n"                    // 8
           "      nodes: 2\n"                      // 9
           "      allocatable: {cpu: 96, memory: 1000Gi, nvidia.com/gpu: 8}\n"  // 10
           "  teams:\n"                            // 11
           "    - name: team-a\n"                  // 12
           "      namespaces: [team-a]\n" +        // 13
           team_extra +
           "      quota: [{pool: a100, nominal: {cpu: 8, memory: 64Gi, nvidia.com/gpu: 4}}]\n" + extra + section;
}

}  // namespace qf_test
