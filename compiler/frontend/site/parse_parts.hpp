#pragma once
// Readers for the list items of a site's spec, one per section.
#include "frontend/site/reader.hpp"

#include <string>

namespace queueforge::site {

bool read_pool(const Reader& r, const Node& n, const std::string& what, Pool& out);
bool read_topology(const Reader& r, const Node& n, const std::string& what, Topology& out);

bool read_cohort(const Reader& r, const Node& n, const std::string& what, Cohort& out);
bool read_priority_class(const Reader& r, const Node& n, const std::string& what, PriorityClass& out);
bool read_team(const Reader& r, const Node& n, const std::string& what, Team& out);
void read_team_defaults(const Reader& r, const Node& n, QueueSettings& out);
bool read_workload(const Reader& r, const Node& n, const std::string& what, Workload& out);
bool read_patch(const Reader& r, const Node& n, const std::string& what, Patch& out);
bool read_passthrough(const Reader& r, const Node& n, const std::string& what, Node& out);
bool read_hardware_profile(const Reader& r, const Node& n, const std::string& what, HardwareProfile& out);
void read_hardware_profiles(const Reader& r, const Node& n, HardwareProfiles& out);
// `key` is where `kueueOperator:` is written (an empty section has no position of its own).
void read_kueue_operator(const Reader& r, const Node& n, Mark key, KueueOperator& out);
// `key` is where `kueueConfig:` is written.
void read_kueue_config(const Reader& r, const Node& n, Mark key, KueueConfiguration& out);

// Shared by teams and cohorts.
void read_quota(const Reader& r, const Node* n, const std::string& what, std::vector<QuotaEntry>& out);
void read_tolerations(const Reader& r, const Node* n, const std::string& what, std::vector<Node>& out);

}  // namespace queueforge::site
