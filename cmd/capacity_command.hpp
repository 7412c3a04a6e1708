#pragma once
// `queueforge capacity`: pools, teams and cohorts of a compiled site against
// its nodes. Registered by main.cpp like every other command.
#include "cli.hpp"

namespace queueforge::cli {

Command add_capacity(CLI::App& app);

}  // namespace queueforge::cli
