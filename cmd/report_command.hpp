#pragma once
// `queueforge report`: one self-contained HTML file about a site. Registered
// by main.cpp like every other command.
#include "cli.hpp"

namespace queueforge::cli {

Command add_report(CLI::App& app);

}  // namespace queueforge::cli
