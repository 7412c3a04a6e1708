#pragma once
// A team's namespaceSelector: built from its namespaces, "all" ({}), or a
// LabelSelector written in the site and checked as Kueue's webhook does (V32).
#include "lower/context.hpp"

namespace queueforge::lower {

Node namespace_selector(Context& ctx, const site::Team& team);

}  // namespace queueforge::lower
