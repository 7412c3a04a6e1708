// Kueue's TestFindTopologyAssignments, translated to data
// (find_topology_assignments.yaml, see README.md), run against the TAS
// placement engine: every translated case must give Kueue's assignment or
// Kueue's exact failure reason.
#include <queueforge/base/quantity.hpp>
#include <queueforge/engines/topology.hpp>

#include "test_util.hpp"

#include <catch2/catch.hpp>
#include <yaml-cpp/yaml.h>

#include <sstream>

namespace topo = queueforge::topology;

namespace {

std::int64_t kueue_amount(const std::string& resource, const std::string& text) {
    auto q = queueforge::Quantity::parse(text);
    if (!q) throw std::runtime_error("bad quantity " + text);
    return resource == "cpu" ? q->milli_value() : q->value();
}

topo::Amounts amounts(const YAML::Node& n) {
    topo::Amounts out;
    if (!n) return out;
    for (const auto& kv : n) {
        auto r = kv.first.as<std::string>();
        out[r] += kueue_amount(r, kv.second.as<std::string>());
    }
    return out;
}

std::map<std::string, std::string> string_map(const YAML::Node& n) {
    std::map<std::string, std::string> out;
    if (n)
        for (const auto& kv : n) out[kv.first.as<std::string>()] = kv.second.as<std::string>();
    return out;
}

std::vector<std::string> strings(const YAML::Node& n) {
    std::vector<std::string> out;
    if (n)
        for (const auto& v : n) out.push_back(v.as<std::string>());
    return out;
}

struct Case {
    std::string name;
    topo::TopologySpec spec;
    topo::Options options;
    std::vector<topo::PodSetRequest> podsets;
    std::vector<std::optional<topo::Assignment>> want_assignment;
    std::vector<std::string> want_reason;
    struct Usage {
        std::vector<std::string> values;
        topo::Amounts requests;
        std::int32_t count;
    };
    std::vector<Usage> prior;
    std::optional<topo::NodeReplacement> replacement;
};

Case load_case(const YAML::Node& c) {
    Case k;
    k.name = c["name"].as<std::string>();
    k.spec.levels = strings(c["levels"]);
    k.spec.flavor_node_labels = string_map(c["flavorNodeLabels"]);
    if (c["options"] && c["options"]["profileMixed"]) k.options.profile_mixed = c["options"]["profileMixed"].as<bool>();
    if (c["options"] && c["options"]["respectPreferredAffinity"])
        k.options.respect_preferred_affinity = c["options"]["respectPreferredAffinity"].as<bool>();
    if (auto r = c["replacement"]) {
        topo::NodeReplacement nr;
        nr.unhealthy_node = r["unhealthyNode"].as<std::string>();
        nr.owned_by_single_pod = r["ownedBySinglePod"].as<bool>();
        if (c["options"] && c["options"]["skipReassignmentForPodOwned"])
            nr.skip_pod_owned = c["options"]["skipReassignmentForPodOwned"].as<bool>();
        k.replacement = nr;
    }
    if (c["options"] && c["options"]["elasticWorkloadSlices"])
        k.options.elastic_workload_slices = c["options"]["elasticWorkloadSlices"].as<bool>();
    if (c["options"] && c["options"]["balancedPlacement"])
        k.options.balanced_placement = c["options"]["balancedPlacement"].as<bool>();
    // The table tests the snapshot, below the webhook that rejects a slice
    // size not dividing the count.
    k.options.require_slice_divides_count = false;
    for (const auto& n : c["nodes"]) {
        topo::Node node;
        node.name = n["name"].as<std::string>();
        node.labels = string_map(n["labels"]);
        node.allocatable = amounts(n["allocatable"]);
        node.ready = !n["ready"] || n["ready"].as<bool>();
        node.unschedulable = n["unschedulable"] && n["unschedulable"].as<bool>();
        if (n["taints"])
            for (const auto& t : n["taints"])
                node.taints.push_back({t["key"].as<std::string>(), t["value"].as<std::string>(""),
                                       t["effect"].as<std::string>("")});
        k.spec.nodes.push_back(std::move(node));
    }
    // Non-TAS pods: every pod not Succeeded/Failed counts on its node, with
    // one `pods`.
    if (c["pods"])
        for (const auto& p : c["pods"]) {
            std::string phase = p["phase"].as<std::string>("");
            if (phase == "Succeeded" || phase == "Failed") continue;
            std::string node = p["node"].as<std::string>("");
            for (auto& n : k.spec.nodes) {
                if (n.name != node) continue;
                for (const auto& [r, v] : amounts(p["requests"])) n.non_tas_usage[r] += v;
                n.non_tas_usage["pods"] += 1;
            }
        }
    if (c["priorTasUsage"])
        for (const auto& u : c["priorTasUsage"])
            k.prior.push_back({strings(u["values"]), amounts(u["requests"]), u["count"].as<std::int32_t>()});
    for (const auto& ps : c["podSets"]) {
        topo::PodSetRequest r;
        r.name = ps["name"].as<std::string>();
        r.count = ps["count"].as<std::int32_t>();
        r.requests = amounts(ps["requests"]);
        if (auto tr = ps["topologyRequest"]) {
            if (tr["required"]) {
                r.mode = topo::Mode::Required;
                r.level = tr["required"].as<std::string>();
            } else if (tr["preferred"]) {
                r.mode = topo::Mode::Preferred;
                r.level = tr["preferred"].as<std::string>();
            } else if (tr["unconstrained"] && tr["unconstrained"].as<bool>()) {
                r.mode = topo::Mode::Unconstrained;
            } else if (tr["sliceRequiredTopology"] || tr["sliceConstraints"]) {
                r.mode = topo::Mode::Unconstrained;  // slice-only request
            } else {
                throw std::runtime_error("topology request without a level");
            }
            if (tr["sliceConstraints"]) {
                for (const auto& l : tr["sliceConstraints"])
                    r.slices.push_back({l["topology"].as<std::string>(), l["size"].as<std::int32_t>()});
            } else if (tr["sliceRequiredTopology"]) {
                r.slices.push_back({tr["sliceRequiredTopology"].as<std::string>(), tr["sliceSize"].as<std::int32_t>(0)});
            }
        }
        if (ps["tolerations"])
            for (const auto& t : ps["tolerations"])
                r.tolerations.push_back({t["key"].as<std::string>(""), t["operator"].as<std::string>("Equal"),
                                         t["value"].as<std::string>(""), t["effect"].as<std::string>("")});
        r.node_selector = string_map(ps["nodeSelector"]);
        auto requirements = [](const YAML::Node& term) {
            std::vector<topo::LabelRequirement> reqs;
            for (const auto& e : term)
                reqs.push_back({e["key"].as<std::string>(), e["operator"].as<std::string>(), strings(e["values"])});
            return reqs;
        };
        if (auto aff = ps["nodeAffinity"]) {
            if (aff["required"]) {
                topo::NodeSelectorTerms terms;
                for (const auto& term : aff["required"]) terms.push_back(requirements(term));
                r.required_affinity = std::move(terms);
            }
            if (aff["preferred"])
                for (const auto& t : aff["preferred"])
                    r.preferred_affinity.push_back({t["weight"].as<std::int32_t>(), requirements(t["preference"])});
        }
        if (ps["groupName"]) r.group = ps["groupName"].as<std::string>();
        auto assignment = [](const YAML::Node& w) {
            topo::Assignment a;
            a.levels = strings(w["levels"]);
            for (const auto& d : w["domains"]) a.domains.push_back({strings(d["values"]), d["count"].as<std::int32_t>()});
            return a;
        };
        if (ps["previousAssignment"]) r.previous_assignment = assignment(ps["previousAssignment"]);
        if (ps["currentAssignment"]) r.current_assignment = assignment(ps["currentAssignment"]);
        std::optional<topo::Assignment> want;
        if (ps["wantAssignment"]) want = assignment(ps["wantAssignment"]);
        k.want_assignment.push_back(std::move(want));
        k.want_reason.push_back(ps["wantReason"].as<std::string>(""));
        k.podsets.push_back(std::move(r));
    }
    return k;
}

std::string show(const std::optional<topo::Assignment>& a) {
    if (!a) return "<none>";
    std::ostringstream o;
    o << "levels [";
    for (const auto& l : a->levels) o << l << " ";
    o << "] " << topo::to_text(*a);
    return o.str();
}

// Kueue's result map has an entry for every podset up to and including the
// failing group; the table lists exactly those.
std::string compare(const Case& k, const topo::Outcome& got) {
    if (!got.error.empty()) return "input error: " + got.error;
    std::ostringstream diff;
    for (std::size_t i = 0; i < k.podsets.size(); ++i) {
        const topo::PodSetResult* r = nullptr;
        for (const auto& p : got.podsets)
            if (p.name == k.podsets[i].name) r = &p;
        if (!r) {
            diff << "podset " << k.podsets[i].name << ": no result\n";
            continue;
        }
        if (r->reason != k.want_reason[i])
            diff << "podset " << r->name << ": reason\n  want: " << k.want_reason[i] << "\n  got:  " << r->reason << "\n";
        // Kueue's test expects no assignment exactly when it expects a reason.
        std::optional<topo::Assignment> got_a = r->reason.empty() ? r->assignment : std::nullopt;
        if (got_a != k.want_assignment[i])
            diff << "podset " << r->name << ": assignment\n  want: " << show(k.want_assignment[i])
                 << "\n  got:  " << show(got_a) << "\n";
    }
    if (got.podsets.size() != k.podsets.size()) diff << "podsets with a result: " << got.podsets.size() << "\n";
    return diff.str();
}

// Runs every translated case of one table file; the counts in the file must
// add up to Kueue's table.
void run_table(const std::string& file, int table_cases) {
    auto path = qf_test::source_dir() / "tests/engines/topology" / file;
    YAML::Node doc = YAML::LoadFile(path.string());
    REQUIRE(doc["commit"].as<std::string>() == "ff69552e79ad21652c36caa97038382e55625cf7");
    const auto total = doc["tableCases"].as<int>();
    const auto translated = doc["translated"].as<int>();
    REQUIRE(total == table_cases);
    REQUIRE(static_cast<int>(doc["cases"].size()) == translated);
    REQUIRE(translated + static_cast<int>(doc["inexpressible"].size()) == total);
    int passed = 0;
    std::vector<std::string> failed;
    for (const auto& c : doc["cases"]) {
        Case k = load_case(c);
        std::string err;
        auto t = topo::Topology::build(k.spec, &err);
        std::string diff;
        if (!t) {
            diff = "topology: " + err;
        } else {
            for (const auto& u : k.prior)
                if (!t->add_usage(u.values, u.requests, u.count)) diff = "prior usage on an unknown domain\n";
            diff += compare(k, k.replacement ? t->replace_node(k.podsets, *k.replacement, k.options)
                                             : t->assign(k.podsets, k.options));
        }
        if (diff.empty()) {
            ++passed;
        } else {
            failed.push_back(k.name);
            UNSCOPED_INFO("case \"" << k.name << "\"\n" << diff);
        }
    }
    INFO("passing " << passed << " of " << translated << " translated (" << total << " in Kueue's table)");
    CHECK(failed.empty());
}

}  // namespace

TEST_CASE("topology: Kueue's TestFindTopologyAssignments table", "[topology][kueue-tas]") {
    run_table("find_topology_assignments.yaml", 140);
}

TEST_CASE("topology: Kueue's TestFindTopologyAssignmentsMultiLayerReplacement table", "[topology][kueue-tas]") {
    run_table("find_topology_assignments_multilayer_replacement.yaml", 6);
}
