#pragma once
// The evaluators, one per policy format.
#include "checks/policy/cluster.hpp"

#include <set>
#include <string>

namespace queueforge::policy {

// Binds `variables.<name>` for each variable, in order (a variable may use
// the ones before it). Errors stay values: they surface only where used.
void bind_variables(const std::vector<NamedExpression>& vars, cel::Activation& act, const cel::EvalOptions& eo);
// Unbinds them again: matchConditions run before the variables and must not
// see the previous object's.
void unbind_variables(const std::vector<NamedExpression>& vars, cel::Activation& act);

// Each adds the ids of policies whose expressions failed to evaluate to `failed`.
void evaluate_policy(const Policy& p, const Cluster& c, Diagnostics& out, std::set<std::string>& failed);  // evaluate_policy.cpp
// Whether an expression of `p` may read `objects` (by its text: a false yes
// only costs a Cluster::forget_conversions).
bool reads_objects(const Policy& p);
void evaluate_admission(const Data& d, const Cluster& c, Diagnostics& out, std::set<std::string>& failed);  // evaluate_vap.cpp

}  // namespace queueforge::policy
