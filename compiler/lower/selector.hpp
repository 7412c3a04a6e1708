#pragma once
// A team's namespaceSelector: built from its namespaces, "all" ({}), or a
// LabelSelector written in the site (lowered as written; Kueue's V32 is
// checked on the ClusterQueue by the compile step).
#include "lower/context.hpp"
#include "lower/provenance.hpp"

namespace queueforge::lower {

// Provenance goes under `at` ("spec.namespaceSelector").
Node namespace_selector(Context& ctx, const site::Team& team, const Trace& at);

}  // namespace queueforge::lower
