#pragma once
// The sections of the HTML report, each a self-contained <section>.
#include "backends/html/markup.hpp"

#include <queueforge/engines/capacity.hpp>
#include <queueforge/engines/scenarios.hpp>
#include <queueforge/engines/timeline.hpp>

#include <string>

namespace queueforge::html {

// The resource a pool is about: its first accelerator (any resource besides
// cpu, memory, ephemeral-storage and pods), else cpu, else its first.
std::string primary_resource(const capacity::Pool& p);

std::string pools_section(const capacity::Report& r, const Palette& colors);
std::string teams_section(const capacity::Report& r, const Palette& colors);
std::string cohorts_section(const capacity::Report& r, const Palette& colors);
std::string simulation_section(const scenarios::Report& r);
std::string timeline_section(const timeline::Report& r, const std::string& scenario_name);

}  // namespace queueforge::html
