// HardwareProfiles (infrastructure.opendatahub.io, emitted or hand-written)
// against the queues: OpenShift AI's dashboard offers a profile of type
// Queue in a project only when its LocalQueue exists in the project's
// namespace (odh-dashboard #8404), the operator's webhook stamps the
// profile's LocalQueue and priority class on the workload
// (internal/webhook/hardwareprofile/mutating.go), and each identifier's
// count becomes a container request. So: the CRD's CEL rules on
// spec.scheduling; the LocalQueue exists in every namespace the profile is
// meant for; the WorkloadPriorityClass exists; the ClusterQueue behind the
// LocalQueue covers every identifier's resource; no identifier's maximum is
// beyond what the ClusterQueue can admit in any flavor, or beyond every node
// of those flavors.
#include "checks/rules/inventory.hpp"
#include "checks/rules/selector.hpp"

#include <queueforge/frontend/kueue_operator.hpp>

#include <algorithm>
#include <set>

namespace queueforge::rules::detail {

namespace {

constexpr std::string_view kNamespacesAnnotation = "queueforge.io/namespaces";
// The dashboard's applications namespace on OpenShift AI and on Open Data Hub.
bool is_dashboard_namespace(const std::string& ns) { return ns == "redhat-ods-applications" || ns == "opendatahub"; }

// IntOrString as a quantity (an int is its decimal spelling).
std::optional<Quantity> count_of(const Node* n) {
    if (!n || !n->is_scalar() || n->is_null()) return std::nullopt;
    return Quantity::parse(n->text());
}

struct Reach {
    std::string flavor;
    std::optional<Quantity> amount;  // nullopt: unbounded (borrowing in a cohort without borrowingLimit)
    std::string how;
};

// What one workload can get of `resource` in each flavor of the ClusterQueue.
std::vector<Reach> reach_of(const Resource& cq, const std::string& resource, bool& covered) {
    std::vector<Reach> out;
    const Node* spec = present(&cq.doc, "spec");
    const bool cohort = cluster_queue_cohort(cq) != nullptr;
    covered = false;
    for (const auto& rg : items(present(spec, "resourceGroups"))) {
        const auto& cov = items(present(&rg, "coveredResources"));
        if (std::none_of(cov.begin(), cov.end(), [&](const Node& c) { return text(&c) == resource; })) continue;
        covered = true;
        for (const auto& fl : items(present(&rg, "flavors")))
            for (const auto& r : items(present(&fl, "resources"))) {
                if (text(present(&r, "name")) != resource) continue;
                auto nominal = quantity_quiet(present(&r, "nominalQuota"));
                if (!nominal) continue;
                Reach e{text(present(&fl, "name")), nominal, "nominalQuota " + nominal->to_string()};
                if (auto bl = quantity_quiet(present(&r, "borrowingLimit"))) {
                    e.amount = nominal->add(*bl);
                    e.how += " + borrowingLimit " + bl->to_string();
                } else if (cohort) {
                    e.amount.reset();
                }
                out.push_back(std::move(e));
            }
    }
    return out;
}

// The largest allocatable of `resource` among the Nodes a flavor selects.
std::optional<Quantity> largest_node(const Inventory& inv, const Labels& node_labels, const std::string& resource) {
    std::optional<Quantity> best;
    for (const Resource* n : inv.nodes) {
        if (!node_selected(*n, node_labels)) continue;
        auto q = quantity_quiet(present(present(present(&n->doc, "status"), "allocatable"), resource));
        // A site's pool is one Node holding all of its nodes (lower/pool_nodes.cpp).
        const std::string count = text(present(present(present(&n->doc, "metadata"), "annotations"), "queueforge.io/pool-nodes"));
        if (q && !count.empty()) {
            std::int64_t k = 0;
            for (char c : count) k = (c >= '0' && c <= '9' && k < 1'000'000'000) ? k * 10 + (c - '0') : -1;
            q = k > 0 ? q->scale(1, k) : std::nullopt;
        }
        if (q && (!best || q->compare(*best) > 0)) best = q;
    }
    return best;
}

std::vector<std::string> split_list(const std::string& s) {
    std::vector<std::string> out;
    std::string cur;
    for (char c : s) {
        if (c == ',') {
            if (!cur.empty()) out.push_back(cur);
            cur.clear();
        } else if (c != ' ') {
            cur += c;
        }
    }
    if (!cur.empty()) out.push_back(cur);
    return out;
}

void check_scheduling_cel(const Reporter& rep, const Node* sched) {
    // opendatahub-operator api/infrastructure/v1/hardwareprofile_types.go,
    // the XValidation rules on SchedulingSpec (also in v1alpha1).
    const std::string type = text(present(sched, "type"));
    const Node* kueue = present(sched, "kueue");
    const Node* node = present(sched, "node");
    if (type == "Queue" && (!kueue || !present(kueue, "localQueueName") || node))
        rep.error("hwp.scheduling", sched, "spec.scheduling",
                  cel("spec.scheduling", "object",
                      "When schedulingType is 'Queue', the 'kueue.localQueueName' field must be specified and non-empty, "
                      "and the 'node' field must not be set"));
    if (type == "Node" && (!node || kueue))
        rep.error("hwp.scheduling", sched, "spec.scheduling",
                  cel("spec.scheduling", "object",
                      "When schedulingType is 'Node', the 'node' field must be set, and the 'kueue' field must not be set"));
}

void check_identifiers(const Reporter& rep, const Node* spec) {
    const auto& ids = items(present(spec, "identifiers"));
    for (std::size_t i = 0; i < ids.size(); ++i) {
        const std::string path = index("spec.identifiers", i);
        std::optional<Quantity> v[3];
        const char* names[3] = {"minCount", "defaultCount", "maxCount"};
        for (int k = 0; k < 3; ++k) {
            const Node* n = present(&ids[i], names[k]);
            if (!n) continue;
            v[k] = count_of(n);
            if (!v[k])
                rep.error("hwp.identifier-range", n, path + "." + names[k],
                          invalid(path + "." + names[k], go_quote(n->text()), "not a count or quantity"));
        }
        for (int a = 0; a < 3; ++a)
            for (int b = a + 1; b < 3; ++b)
                if (v[a] && v[b] && v[a]->compare(*v[b]) > 0) {
                    rep.error("hwp.identifier-range", present(&ids[i], names[b]), path + "." + names[b],
                              path + ": " + names[b] + " " + v[b]->to_string() + " is below " + names[a] + " " +
                                  v[a]->to_string() + ": the dashboard cannot offer a value in that range");
                    a = b = 3;
                }
    }
}

}  // namespace

void check_hardware_profiles(const CrossContext& ctx, Diagnostics& diags) {
    const Inventory& inv = ctx.inv;
    const std::vector<Resource>& resources = ctx.resources;
    const Target* target = ctx.target;
    std::set<std::string> priority_classes;
    bool any_wpc = false;
    for (const auto& r : resources)
        if (api_group(r.ref.api_version) == kKueueGroup && r.ref.kind == "WorkloadPriorityClass") {
            any_wpc = true;
            priority_classes.insert(r.ref.name);
        }
    // LocalQueues by name: namespace -> ClusterQueue.
    std::map<std::string, std::map<std::string, std::string>> lqs;
    for (const Resource* lq : inv.local_queues)
        lqs[lq->ref.name][lq->ref.namespace_] = text(present(present(&lq->doc, "spec"), "clusterQueue"));

    for (const auto& r : resources) {
        if (r.ref.kind != "HardwareProfile" || api_group(r.ref.api_version) != platform::kHardwareProfileGroup) continue;
        const Reporter rep{r, diags};
        if (target) {
            // v1alpha1 from OpenShift AI 2.23; v1 (v1alpha1 still served) from 3.0.
            const std::string served = platform::hardware_profile_api_version(*target);
            const bool ok = !served.empty() && (r.ref.api_version == served || r.ref.api_version.ends_with("/v1alpha1"));
            if (!ok)
                rep.error("target.hardware-profile", present(&r.doc, "apiVersion"), "apiVersion",
                          r.ref.api_version + " HardwareProfile is not served by target " + target->name +
                              (served.empty() ? " (HardwareProfiles of type Queue need OpenShift AI " +
                                                    platform::first_hardware_profile_release().to_string() + " or newer)"
                                              : " (it serves " + served + ")"));
        }
        const Node* spec = present(&r.doc, "spec");
        const Node* sched = present(spec, "scheduling");
        if (sched) check_scheduling_cel(rep, sched);
        check_identifiers(rep, spec);
        if (text(present(sched, "type")) != "Queue") continue;
        const Node* kueue = present(sched, "kueue");
        const Node* lq_node = present(kueue, "localQueueName");
        const std::string lq = text(lq_node);
        if (lq.empty()) continue;

        // ---- priority class ----
        if (const Node* pc = present(kueue, "priorityClass"); pc && !text(pc).empty() && !priority_classes.count(text(pc))) {
            const std::string path = "spec.scheduling.kueue.priorityClass";
            if (!any_wpc)
                rep.note("hwp.unknown-priority-class", pc, path,
                         "WorkloadPriorityClass " + go_quote(text(pc)) +
                             " is not checked: the input holds no WorkloadPriorityClass");
            else
                rep.error("hwp.unknown-priority-class", pc, path,
                          "WorkloadPriorityClass " + go_quote(text(pc)) + " is not in the input" +
                              suggestion(text(pc), std::vector<std::string>(priority_classes.begin(), priority_classes.end())) +
                              ": Kueue rejects the workloads the profile labels with it");
        }

        // ---- the namespaces the profile is meant for ----
        const Node* ann = present(present(present(&r.doc, "metadata"), "annotations"), kNamespacesAnnotation);
        std::vector<std::string> meant;
        if (ann) meant = split_list(text(ann));
        else if (!r.ref.namespace_.empty() && !is_dashboard_namespace(r.ref.namespace_)) meant = {r.ref.namespace_};
        const auto found = lqs.find(lq);
        const std::string lq_path = "spec.scheduling.kueue.localQueueName";
        std::vector<std::string> present_in;
        if (found != lqs.end())
            for (const auto& [ns, _] : found->second) present_in.push_back(ns.empty() ? "(unset)" : ns);
        if (inv.local_queues.empty()) {
            rep.note("hwp.missing-localqueue", lq_node, lq_path,
                     "LocalQueue " + go_quote(lq) + " is not checked: the input holds no LocalQueue");
            continue;
        }
        std::vector<std::string> missing;
        for (const auto& ns : meant)
            if (found == lqs.end() || !found->second.count(ns)) missing.push_back(ns);
        if (!missing.empty())
            rep.error("hwp.missing-localqueue", lq_node, lq_path,
                      "LocalQueue " + go_quote(lq) + " does not exist in namespace" + (missing.size() == 1 ? " " : "s ") +
                          join(missing, ", ") + " the profile is meant for" +
                          (present_in.empty() ? std::string(" (nor anywhere else)") : " (only in " + join(present_in, ", ") + ")") +
                          ": the dashboard hides the profile in those projects (odh-dashboard #8404)");
        else if (meant.empty() && found == lqs.end())
            rep.error("hwp.missing-localqueue", lq_node, lq_path,
                      "no namespace in the input has LocalQueue " + go_quote(lq) +
                          ": the dashboard offers the profile in no project (odh-dashboard #8404)");
        if (found == lqs.end()) continue;

        // ---- offered beyond the namespaces it is meant for ----
        // A cluster-wide profile shows in every project that holds its
        // LocalQueue (odh-dashboard #8404). Where that LocalQueue feeds
        // another team's ClusterQueue, the profile's counts were sized for a
        // quota that is not the one its workloads go to there.
        if (ann && !meant.empty() && (r.ref.namespace_.empty() || is_dashboard_namespace(r.ref.namespace_))) {
            std::set<std::string> own;
            for (const auto& ns : meant)
                if (auto it = found->second.find(ns); it != found->second.end() && !it->second.empty()) own.insert(it->second);
            std::vector<std::string> beyond;
            for (const auto& [ns, cq] : found->second)
                if (std::find(meant.begin(), meant.end(), ns) == meant.end() && !own.count(cq))
                    beyond.push_back(ns + " (ClusterQueue " + cq + ")");
            if (!beyond.empty())
                rep.warning("hwp.offered-beyond", lq_node, lq_path,
                            "the dashboard also offers the profile in " + join(beyond, ", ") +
                                ", where a LocalQueue is named " + go_quote(lq) +
                                " too: workloads there use that project's quota with counts sized for ClusterQueue " +
                                join(std::vector<std::string>(own.begin(), own.end()), ", ") +
                                "; give each team a LocalQueue name of its own (teams[].localQueue) so the profile "
                                "shows only where it is meant");
        }

        // ---- the ClusterQueues behind it ----
        std::set<std::string> cqs;
        for (const auto& [ns, cq] : found->second)
            if (meant.empty() || std::find(meant.begin(), meant.end(), ns) != meant.end())
                if (!cq.empty()) cqs.insert(cq);
        const auto& ids = items(present(spec, "identifiers"));
        for (const auto& cq_name : cqs) {
            auto cq = inv.cq_by_name.find(cq_name);
            if (cq == inv.cq_by_name.end()) continue;  // xref.missing-clusterqueue on the LocalQueue
            for (std::size_t i = 0; i < ids.size(); ++i) {
                const std::string resource = text(present(&ids[i], "identifier"));
                if (resource.empty()) continue;
                const std::string path = index("spec.identifiers", i);
                bool covered = false;
                const auto reach = reach_of(*cq->second, resource, covered);
                if (!covered) {
                    rep.error("hwp.resource-not-covered", present(&ids[i], "identifier"), path + ".identifier",
                              "ClusterQueue " + cq_name + " (behind LocalQueue " + lq + ") covers no resource " +
                                  go_quote(resource) + ": Kueue cannot admit a workload that requests it, so workloads "
                                  "of this profile stay pending");
                    continue;
                }
                const Node* max_node = present(&ids[i], "maxCount");
                auto max = count_of(max_node);
                if (!max) continue;
                // Quota: beyond what every flavor can admit.
                bool bounded = !reach.empty();
                std::vector<std::string> parts;
                for (const auto& e : reach) {
                    if (!e.amount) bounded = false;
                    else if (e.amount->compare(*max) >= 0) bounded = false;
                    parts.push_back(e.flavor + ": " + (e.amount ? e.amount->to_string() + " (" + e.how + ")" : "unbounded"));
                }
                if (bounded)
                    rep.error("hwp.max-exceeds-quota", max_node, path + ".maxCount",
                              "maxCount " + max->to_string() + " of " + resource + " is more than ClusterQueue " + cq_name +
                                  " can admit for one workload in any flavor (" + join(parts, "; ") +
                                  "): a workload at the profile's maximum stays pending");
                // Nodes: beyond the largest node of every flavor.
                if (inv.nodes.empty()) continue;
                std::optional<Quantity> largest;
                std::vector<std::string> flavors;
                for (const auto& e : reach) {
                    auto rf = inv.flavor_by_name.find(e.flavor);
                    if (rf == inv.flavor_by_name.end()) continue;
                    auto biggest = largest_node(inv, string_map(present(present(&rf->second->doc, "spec"), "nodeLabels")), resource);
                    if (!biggest) continue;
                    flavors.push_back(e.flavor + " " + biggest->to_string());
                    if (!largest || biggest->compare(*largest) > 0) largest = biggest;
                }
                if (largest && max->compare(*largest) > 0)
                    rep.error("hwp.max-exceeds-node", max_node, path + ".maxCount",
                              "maxCount " + max->to_string() + " of " + resource +
                                  " exceeds every node: the largest Node of each flavor of ClusterQueue " + cq_name +
                                  " allocates " + join(flavors, ", ") +
                                  "; a pod at the profile's maximum is admitted by Kueue and never scheduled");
            }
        }
    }
}

}  // namespace queueforge::rules::detail
