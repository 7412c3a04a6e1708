#pragma once
// Quota amounts → exact quantities, and quota entries → Kueue resource groups.
#include "lower/context.hpp"
#include "lower/provenance.hpp"

#include <queueforge/base/quantity.hpp>

#include <optional>
#include <string>
#include <vector>

namespace queueforge::lower {

struct ResourceQuota {
    std::string name;
    Quantity nominal;
    std::optional<Quantity> borrowing_limit;
    std::optional<Quantity> lending_limit;
    // Provenance of the resource entry (its name) and of each amount.
    Origin name_from, nominal_from, borrowing_from, lending_from;
};

struct FlavorQuota {
    std::string flavor;
    Mark mark;
    Mark pool_mark;
    std::vector<ResourceQuota> resources;  // in the group's coveredResources order
};

struct ResourceGroup {
    std::vector<std::string> covered;
    std::vector<Mark> covered_marks;   // where each covered resource is first quoted
    std::vector<FlavorQuota> flavors;  // preference order, as written
};

// Kueue's conventional resource order: cpu, memory, ephemeral-storage, pods,
// then everything else byte-wise. Maps in the site carry no order, so this is
// what makes coveredResources deterministic.
bool resource_before(const std::string& a, const std::string& b);

// `owner` names the team or cohort in messages. Values are lowered as the
// site writes them: Kueue's webhook rules on the groups (limits without a
// cohort or parent, lendingLimit above nominal, a flavor twice, the V27
// counts) are checked on the objects by the compile step (checks/rules).
std::vector<ResourceGroup> form_resource_groups(Context& ctx, const std::vector<site::QuotaEntry>& quota,
                                                const std::string& owner);

// Frees the amounts of every quota entry of `t`; each entry keeps its pool
// with `keep_pools`, else the entries go too.
void release_amounts(site::Team& t, bool keep_pools);

// Warnings into `out` where shares of one pool resource add up to more than
// 100%.
void check_share_sums(const Context& ctx, const std::vector<site::Team>& teams, Diagnostics& out);

}  // namespace queueforge::lower
