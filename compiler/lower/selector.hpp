#pragma once
// A team's namespaceSelector: built from its namespaces, "all" ({}), or a
// LabelSelector written in the site and checked as Kueue's webhook does (V32).
#include "lower/context.hpp"
#include "lower/provenance.hpp"

namespace queueforge::lower {

// Provenance goes under `at` ("spec.namespaceSelector").
Node namespace_selector(Context& ctx, const site::Team& team, const Trace& at);

}  // namespace queueforge::lower
