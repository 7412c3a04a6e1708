#pragma once
// The per-kind rule sets check_object dispatches to, and the pieces the
// ClusterQueue and Cohort webhooks share (kueue-semantics.md 2.3, 2.4).
#include "checks/rules/common.hpp"

namespace queueforge::rules::detail {

// The per-object rule sets, registered in object_rules.def.
#define QF_OBJECT_RULES(kind, fn) void fn(const Reporter& rep);
#include "checks/rules/object_rules.def"
#undef QF_OBJECT_RULES

// Kueue's validationConfig: a CQ has a parent when it names a cohort, a
// Cohort when it names a parent. Only CQs bound lendingLimit by nominalQuota.
struct QuotaConfig {
    bool has_parent = false;
    bool is_cohort = false;
};

// validateResourceGroups plus the resourceGroups CEL rules (V21-V31, V42).
void check_resource_groups(const Reporter& rep, const Node* spec, const QuotaConfig& cfg);

// validateFairSharing (V35 for ClusterQueues, V44 for Cohorts).
void check_fair_sharing(const Reporter& rep, const Node* spec, const std::string& rule);

// Every flavor name in spec.resourceGroups, in order, without duplicates.
std::vector<std::string> flavor_names(const Node* spec);

}  // namespace queueforge::rules::detail
