#include "cli.hpp"

#include <queueforge/target.hpp>

#include <iostream>

namespace queueforge::cli {

Command add_version(CLI::App& app) {
    CLI::App* sub = app.add_subcommand("version", "Print version, commit and supported targets");
    return {sub, [] {
                std::cout << "queueforge " << QF_VERSION << " (commit " << QF_COMMIT << ")\ntargets:";
                for (const auto& t : supported_targets()) std::cout << " " << t;
                std::cout << "\n";
                return static_cast<int>(kOk);
            }};
}

}  // namespace queueforge::cli
