#include "cli.hpp"

#include <queueforge/frontend/platform.hpp>

#include <iostream>

namespace queueforge::cli {

std::string version_text() {
    std::string s = std::string("queueforge ") + QF_VERSION + " (commit " + QF_COMMIT + ")\ntargets:";
    for (const auto& t : supported_targets()) s += " " + t;
    return s;
}

Command add_version(CLI::App& app) {
    CLI::App* sub = app.add_subcommand("version", "Print version, commit and supported targets");
    sub->footer(R"(Examples:
  queueforge version
  queueforge --version               # the same

Exit codes: 0.)");
    return {sub, [] {
                std::cout << version_text() << "\n";
                return static_cast<int>(kOk);
            }};
}

}  // namespace queueforge::cli
