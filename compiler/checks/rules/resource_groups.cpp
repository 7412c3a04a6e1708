// spec.resourceGroups of ClusterQueues and Cohorts: Kueue's
// validateResourceGroups (pkg/webhooks/clusterqueue_webhook.go) and the CRD's
// CEL rules on the same list, in the webhook's order.
#include "checks/rules/kinds.hpp"

#include <queueforge/base/names.hpp>

#include <set>

namespace queueforge::rules::detail {

namespace {

constexpr std::string_view kNilWhenNoCohort = "must be nil when cohort is empty";
constexpr std::string_view kNilWhenNoParent = "must be nil when parent is empty";

void check_negative(const Reporter& rep, const Node* n, const Quantity& q, const std::string& path) {
    if (q.sign() < 0) rep.error("V28", n, path, invalid(path, go_quote(q.to_string()), kNegative));
}

// One flavor's resources against the group's coveredResources
// (validateFlavorQuotas). Like Kueue, entries past coveredResources are left
// to the count rule (V23).
void check_flavor_quotas(const Reporter& rep, const Node& flavor, const Node::Items& covered,
                         const QuotaConfig& cfg, const std::string& fpath) {
    const auto& resources = items(present(&flavor, "resources"));
    for (std::size_t k = 0; k < resources.size(); ++k) {
        const Node& rq = resources[k];
        // Spelt only for a finding.
        auto at = [&](std::string_view field) { return index(fpath + ".resources", k) + std::string(field); };
        const Node* nominal = present(&rq, "nominalQuota");
        const Node* borrowing = present(&rq, "borrowingLimit");
        const Node* lending = present(&rq, "lendingLimit");
        // Quantities decode before any rule runs, past coveredResources too.
        auto nq = quantity_at(rep, nominal, [&] { return at(".nominalQuota"); });
        auto bq = quantity_at(rep, borrowing, [&] { return at(".borrowingLimit"); });
        auto lq = quantity_at(rep, lending, [&] { return at(".lendingLimit"); });
        if (k >= covered.size()) continue;

        const Node* name = present(&rq, "name");
        if (is_text(name) && is_text(&covered[k]) && name->text() != covered[k].text())
            rep.error("V24", name, at(".name"),
                      invalid(at(".name"), go_quote(name->text()), "must match the name in coveredResources"));
        if (nq && nq->sign() < 0) check_negative(rep, nominal, *nq, at(".nominalQuota"));
        // An unparsable limit is V4 only: the request fails to decode before
        // any rule sees it.
        if (borrowing && bq) {
            const std::string bp = at(".borrowingLimit");
            if (!cfg.has_parent) {
                // A ClusterQueue hits the CRD's CEL rule first (the API server
                // validates before calling the webhook), so that is what the
                // user sees; a Cohort has only the webhook.
                if (cfg.is_cohort)
                    rep.error("V42", borrowing, bp, invalid(bp, go_quote(bq->to_string()), kNilWhenNoParent));
                else
                    rep.error("V29", borrowing, bp, cel("spec", "object", "borrowingLimit must be nil when cohort is empty"));
            }
            check_negative(rep, borrowing, *bq, bp);
        }
        if (lending && lq) {
            const std::string lp = at(".lendingLimit");
            check_negative(rep, lending, *lq, lp);
            if (!cfg.has_parent)
                rep.error(cfg.is_cohort ? "V42" : "V30", lending, lp,
                          invalid(lp, go_quote(lq->to_string()),
                                  cfg.is_cohort ? kNilWhenNoParent : kNilWhenNoCohort));
            // V31 is ClusterQueue-only: a Cohort may lend more than its own
            // nominalQuota (V43), since it lends its subtree's quota too.
            if (!cfg.is_cohort && nq && lq->compare(*nq) > 0)
                rep.error("V31", lending, lp,
                          invalid(lp, go_quote(lq->to_string()), "must be less than or equal to the nominalQuota"));
        }
    }
}

}  // namespace

std::vector<std::string> flavor_names(const Node* spec) {
    std::vector<std::string> out;
    std::set<std::string> seen;
    for (const auto& rg : items(present(spec, "resourceGroups")))
        for (const auto& f : items(present(&rg, "flavors"))) {
            std::string n = text(present(&f, "name"));
            if (!n.empty() && seen.insert(n).second) out.push_back(n);
        }
    return out;
}

void check_resource_groups(const Reporter& rep, const Node* spec, const QuotaConfig& cfg) {
    const Node* rgs_node = present(spec, "resourceGroups");
    const auto& rgs = items(rgs_node);
    std::set<std::string> seen_resources, seen_flavors;
    std::size_t total_flavors = 0, total_covered = 0;

    for (std::size_t i = 0; i < rgs.size(); ++i) {
        const Node& rg = rgs[i];
        const std::string rp = index("spec.resourceGroups", i);
        const Node* covered_node = present(&rg, "coveredResources");
        const auto& covered = items(covered_node);
        const Node* flavors_node = present(&rg, "flavors");
        const auto& flavors = items(flavors_node);
        total_flavors += flavors.size();
        total_covered += covered.size();

        for (std::size_t j = 0; j < covered.size(); ++j) {
            if (!is_text(&covered[j])) continue;
            const std::string& name = covered[j].text();
            auto p = [&] { return index(rp + ".coveredResources", j); };
            // V21: resource names are label keys (content.IsLabelKey).
            if (auto why = check_qualified_name(name); !why.empty())
                rep.error("V21", &covered[j], p(), invalid(p(), go_quote(name), why));
            if (!seen_resources.insert(name).second) rep.error("V25", &covered[j], p(), duplicate(p(), go_quote(name)));
        }

        // V23 (CEL on each resource group): one finding per group, at the
        // first flavor whose resource count differs.
        if (covered_node && covered_node->is_seq()) {
            for (std::size_t j = 0; j < flavors.size(); ++j) {
                const Node* res = present(&flavors[j], "resources");
                if (!res || !res->is_seq() || res->items().size() == covered.size()) continue;
                rep.error("V23", res, index(rp + ".flavors", j) + ".resources",
                          cel(rp, "object", "flavors must have the same number of resources as the coveredResources"));
                break;
            }
        }

        std::size_t combinations = 0;
        for (std::size_t j = 0; j < flavors.size(); ++j) {
            const Node& f = flavors[j];
            const std::string fp = index(rp + ".flavors", j);
            combinations += items(present(&f, "resources")).size();
            check_flavor_quotas(rep, f, covered, cfg, fp);
            const Node* name = present(&f, "name");
            if (is_text(name) && !seen_flavors.insert(name->text()).second)
                rep.error("V26", name, fp + ".name", duplicate(fp + ".name", go_quote(name->text())));
        }
        // V27 (ClusterQueue only): per-group flavor-resource combinations.
        if (!cfg.is_cohort && combinations > 512)
            rep.error("V27", &rg, rp,
                      invalid(rp, std::to_string(combinations),
                              "number of flavor-resource combinations in a resourceGroup must be ≤ 512, got " +
                                  std::to_string(combinations)));
    }
    if (cfg.is_cohort) return;  // V27 does not apply to Cohorts
    if (total_flavors > 256)
        rep.error("V27", rgs_node, "spec.resourceGroups",
                  invalid("spec.resourceGroups", std::to_string(total_flavors),
                          "total number of flavors across all resourceGroups must be ≤ 256, got " + std::to_string(total_flavors)));
    if (total_covered > 256)
        rep.error("V27", rgs_node, "spec.resourceGroups",
                  invalid("spec.resourceGroups", std::to_string(total_covered),
                          "total number of covered resources across all resourceGroups must be ≤ 256, got " +
                              std::to_string(total_covered)));
}

void check_fair_sharing(const Reporter& rep, const Node* spec, const std::string& rule) {
    const Node* w = present(present(spec, "fairSharing"), "weight");
    auto q = quantity(rep, w, "spec.fairSharing.weight");
    if (!q) return;
    // Kueue reports on spec.fairSharing (the struct), with weight.String().
    if (q->sign() < 0)
        rep.error(rule, w, "spec.fairSharing.weight", invalid("spec.fairSharing", go_quote(q->to_string()), kNegative));
    else if (q->sign() > 0 && q->nanos() <= 1)
        rep.error(rule, w, "spec.fairSharing.weight",
                  invalid("spec.fairSharing", go_quote(q->to_string()), "When not 0, weight must be > 10e-9"));
}

}  // namespace queueforge::rules::detail
