// capacity and simulate read one quota tree (model/quota_tree.hpp), so they
// agree on what a team may borrow. Checked end to end on every example site:
// for each team, pool and resource, capacity's max burst is the largest single
// workload the simulator admits for that team on that pool on an empty
// cluster. A workload of exactly the max burst is admitted on the pool's
// flavor; one Kueue unit more (1m of cpu, 1 of anything else) is not.
#include "test_util.hpp"

#include <queueforge/base/yaml_emit.hpp>
#include <queueforge/engines/capacity.hpp>
#include <queueforge/engines/scenarios.hpp>
#include <queueforge/engines/scheduler.hpp>
#include <queueforge/frontend/manifests.hpp>
#include <queueforge/frontend/site_parse.hpp>
#include <queueforge/lower.hpp>
#include <queueforge/model/cluster.hpp>

#include <catch2/catch.hpp>

#include <string>
#include <vector>

using namespace queueforge;
using qf_test::source_dir;

namespace {

std::string quoted(const std::string& s) {
    std::string out = "\"";
    for (char c : s) {
        if (c == '"' || c == '\\') out += '\\';
        out += c;
    }
    return out + "\"";
}

// One pending workload in `lq` asking for `amount` of `resource`, pinned to
// `flavor` by its node labels and tolerating its taints. Kueue counts `pods`
// as the podSet's count (whatever the containers ask), so a pods probe is
// `amount` pods asking for nothing else.
std::string probe(const model::LocalQueue& lq, const model::ResourceFlavor& flavor, const std::string& resource,
                  const std::string& amount) {
    const bool pods = resource == "pods";
    std::string selector, tolerations;
    for (const auto& [k, v] : flavor.node_labels) selector += (selector.empty() ? "" : ", ") + quoted(k) + ": " + quoted(v);
    for (const auto& t : flavor.node_taints)
        tolerations += (tolerations.empty() ? "" : ", ") + std::string("{key: ") + quoted(t.key) + ", operator: Exists}";
    return "apiVersion: kueue.x-k8s.io/v1beta2\nkind: Workload\nmetadata: {name: probe, namespace: " + quoted(lq.namespace_) +
           ", creationTimestamp: '2025-06-01T10:00:00Z'}\nspec:\n  queueName: " + quoted(lq.name) +
           "\n  podSets:\n  - name: main\n    count: " + (pods ? amount : "1") +
           "\n    template:\n      spec:\n        nodeSelector: {" + selector + "}\n        tolerations: [" + tolerations +
           "]\n        containers: [{name: c, resources: {requests: {" +
           (pods ? "" : quoted(resource) + ": " + quoted(amount)) + "}}}]\n";
}

struct Outcome {
    bool admitted = false;
    std::string flavor;
    std::string reason;
};

Outcome simulate_with(const std::string& site_yaml, const std::string& workload, const std::string& resource) {
    Diagnostics diags;
    LoadedResources loaded;
    load_resources_from_text("site.yaml", site_yaml + "---\n" + workload, loaded, diags);
    // As `simulate` runs a site: Namespaces as the API server keeps them.
    scenarios::add_missing_namespaces(loaded.resources);
    auto result = scheduler::simulate(loaded.resources, {}, diags);
    Outcome o;
    for (const auto& w : result.workloads) {
        if (w.name != "probe") continue;
        o.admitted = w.admitted;
        o.reason = w.reason + ": " + w.message;
        if (!w.assignments.empty() && w.assignments[0].flavors.count(resource))
            o.flavor = w.assignments[0].flavors.at(resource);
    }
    return o;
}

struct Figures {
    int rows = 0;      // team x pool x resource rows with a max burst above 0
    int probed = 0;    // of which the simulator was asked
};

Figures check_site(const std::string& path) {
    INFO("site " << path);
    Figures f;
    Diagnostics diags;
    auto site = load_site_file((source_dir() / path).string(), diags);
    REQUIRE(site);
    auto lowered = lower_site(*site, diags);
    INFO(qf_test::messages(diags));
    REQUIRE(lowered);
    REQUIRE_FALSE(diags.has_errors());
    const capacity::Report report = capacity::compute(*site, *lowered, model::build_cluster(lowered->objects));
    std::vector<Node> docs;
    for (const auto& o : lowered->objects) docs.push_back(o.doc);
    const std::string site_yaml = emit_yaml_stream(docs);
    const model::Cluster cluster = model::build_cluster(lowered->objects);

    for (const auto& team : report.teams) {
        const model::LocalQueue* lq = nullptr;
        for (const auto& l : cluster.local_queues)
            if (l.cluster_queue == team.cluster_queue) {
                lq = &l;
                break;
            }
        REQUIRE(lq);  // every site team gets a LocalQueue
        for (const auto& row : team.quota) {
            if (row.max_burst.zero()) continue;
            ++f.rows;
            INFO("team " << team.name << " pool " << row.pool << " " << row.resource << " max burst "
                         << row.max_burst.str());
            auto it = cluster.flavor_index.find(row.pool);
            REQUIRE(it != cluster.flavor_index.end());
            const model::ResourceFlavor& flavor = cluster.flavors[it->second];
            // Kueue's unit: milli for cpu, 1 otherwise; the report's amounts are
            // Kueue's, so the division is exact.
            const bool cpu = row.resource == "cpu";
            const int128 unit = cpu ? 1000000 : 1000000000;
            REQUIRE(row.max_burst.nanos % unit == 0);
            const auto units = static_cast<std::int64_t>(row.max_burst.nanos / unit);
            auto spell = [cpu](std::int64_t v) { return std::to_string(v) + (cpu ? "m" : ""); };

            Outcome at = simulate_with(site_yaml, probe(*lq, flavor, row.resource, spell(units)), row.resource);
            INFO("at max burst: " << at.reason);
            CHECK(at.admitted);
            CHECK(at.flavor == row.pool);
            Outcome above = simulate_with(site_yaml, probe(*lq, flavor, row.resource, spell(units + 1)), row.resource);
            INFO("one unit more: " << above.reason);
            CHECK_FALSE((above.admitted && above.flavor == row.pool));
            ++f.probed;
        }
    }
    return f;
}

}  // namespace

TEST_CASE("capacity and simulate agree on each team's max burst for every example site", "[capacity][sim]") {
    for (const char* path : {"examples/multi-team/queueforge-site.yaml", "examples/rhoai-3/queueforge-site.yaml",
                             "examples/seed-minimal/queueforge-site.yaml",
                             "examples/gitops-repo/clusters/dev/queueforge-site.yaml",
                             "examples/gitops-repo/clusters/staging/queueforge-site.yaml",
                             "examples/gitops-repo/clusters/prod/queueforge-site.yaml"}) {
        Figures f = check_site(path);
        CHECK(f.rows > 0);
        CHECK(f.probed == f.rows);
    }
}
