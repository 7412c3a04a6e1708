#pragma once
// The evaluators, one per policy format.
#include "policy/cluster.hpp"

namespace queueforge::policy {

// Binds `variables.<name>` for each variable, in order (a variable may use
// the ones before it). Errors stay values: they surface only where used.
void bind_variables(const std::vector<NamedExpression>& vars, cel::Activation& act, const cel::EvalOptions& eo);

void evaluate_policy(const Policy& p, const Cluster& c, Diagnostics& out);        // evaluate_policy.cpp
void evaluate_admission(const Data& d, const Cluster& c, Diagnostics& out);       // evaluate_vap.cpp

}  // namespace queueforge::policy
