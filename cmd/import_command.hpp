#pragma once
// queueforge import: declared here rather than in cli.hpp so that the command
// can be wired into main.cpp separately.
#include "cli.hpp"

namespace queueforge::cli {

Command add_import(CLI::App& app);

}  // namespace queueforge::cli
