// Kueue's scheduler-level TAS tables (TestScheduleForTAS,
// TestScheduleForTASPreemption, TestScheduleForTASCohorts in
// pkg/scheduler/scheduler_tas_test.go at ff69552e), translated to data (see
// README.md), run through the simulator for one scheduling cycle as Kueue's
// scheduler unit tests do. Every translated case must give Kueue's outcome for
// every workload: the new admissions (ClusterQueue, count, flavors, usage,
// topologyAssignment), the pending workloads with the QuotaReserved
// reason/message the test asserts, the preempted workloads with their
// Preempted reason/message, and the queues' contents. Cases marked
// `knownFailing` are reported with a WARN and skipped.
#include <queueforge/base/quantity.hpp>
#include <queueforge/engines/scheduler.hpp>
#include <queueforge/frontend/manifests.hpp>

#include "test_util.hpp"

#include <catch2/catch.hpp>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <map>
#include <set>
#include <sstream>

using namespace queueforge;

namespace {

const char* kCommit = "ff69552e79ad21652c36caa97038382e55625cf7";

std::string str(const YAML::Node& n) { return n && n.IsScalar() ? n.as<std::string>() : std::string(); }

// Quantities compare by value ("1" == "1000m").
bool same_quantity(const std::string& a, const std::string& b) {
    auto qa = Quantity::parse(a), qb = Quantity::parse(b);
    if (!qa || !qb) return a == b;
    return qa->milli_value() == qb->milli_value();
}

std::string show_ta(const topology::Assignment& a) {
    std::ostringstream o;
    o << "[";
    for (std::size_t i = 0; i < a.levels.size(); ++i) o << (i ? " " : "") << a.levels[i];
    o << "] ";
    for (std::size_t i = 0; i < a.domains.size(); ++i) {
        o << (i ? ", " : "") << "{";
        for (std::size_t j = 0; j < a.domains[i].values.size(); ++j) o << (j ? "," : "") << a.domains[i].values[j];
        o << "}:" << a.domains[i].count;
    }
    return o.str();
}

topology::Assignment ta_of(const YAML::Node& n) {
    topology::Assignment a;
    for (const auto& l : n["levels"]) a.levels.push_back(l.as<std::string>());
    for (const auto& d : n["domains"]) {
        topology::DomainAssignment da;
        for (const auto& v : d["values"]) da.values.push_back(v.as<std::string>());
        da.count = d["count"].as<std::int32_t>();
        a.domains.push_back(std::move(da));
    }
    return a;
}

std::string join(const std::vector<std::string>& v) {
    std::string out;
    for (const auto& s : v) out += (out.empty() ? "" : ", ") + s;
    return "[" + out + "]";
}

std::string key(const scheduler::WorkloadOutcome& w) { return w.namespace_ + "/" + w.name; }

std::vector<Resource> objects_of(const std::string& name, const YAML::Node& objects) {
    LoadedResources lr;
    Diagnostics d;
    load_resources_from_text(name, objects.as<std::string>(), lr, d);
    return std::move(lr.resources);
}

// The differences between Kueue's expectation and the simulator's outcome,
// one line each ("" when they agree).
std::string compare(const YAML::Node& expect, const scheduler::Result& r) {
    std::ostringstream diff;
    std::set<std::string> initially;
    for (const auto& k : expect["initiallyAdmitted"]) initially.insert(k.as<std::string>());
    std::map<std::string, const scheduler::WorkloadOutcome*> by_key;
    for (const auto& w : r.workloads) by_key[key(w)] = &w;

    // New admissions (every workload holding quota after the cycle that was
    // not admitted before it).
    std::set<std::string> want_admitted, got_admitted;
    for (const auto& e : expect["admitted"]) want_admitted.insert(e.first.as<std::string>());
    for (const auto& w : r.workloads)
        if (w.admitted && !initially.count(key(w))) got_admitted.insert(key(w));
    for (const auto& k : want_admitted)
        if (!got_admitted.count(k)) {
            auto it = by_key.find(k);
            diff << k << ": want admitted, got "
                 << (it == by_key.end() ? "no outcome"
                                        : "pending (" + it->second->reason + ": " + it->second->message + ")")
                 << "\n";
        }
    for (const auto& k : got_admitted)
        if (!want_admitted.count(k)) diff << k << ": want not newly admitted, got admitted\n";
    for (const auto& e : expect["admitted"]) {
        const std::string k = e.first.as<std::string>();
        if (!got_admitted.count(k)) continue;
        const auto& w = *by_key[k];
        const YAML::Node& a = e.second;
        if (w.cluster_queue != str(a["clusterQueue"]))
            diff << k << ": clusterQueue want " << str(a["clusterQueue"]) << " got " << w.cluster_queue << "\n";
        std::set<std::string> want_ps;
        for (const auto& p : a["podSets"]) {
            const std::string ps = str(p["name"]);
            want_ps.insert(ps);
            const scheduler::PodSetAssignment* g = nullptr;
            for (const auto& x : w.assignments)
                if (x.name == ps) g = &x;
            if (!g) {
                diff << k << "/" << ps << ": no podset assignment\n";
                continue;
            }
            if (g->count != p["count"].as<int>())
                diff << k << "/" << ps << ": count want " << p["count"].as<int>() << " got " << g->count << "\n";
            std::map<std::string, std::string> flavors;
            for (const auto& f : p["flavors"]) flavors[f.first.as<std::string>()] = f.second.as<std::string>();
            if (flavors != g->flavors) {
                diff << k << "/" << ps << ": flavors want";
                for (const auto& [res, f] : flavors) diff << " " << res << "=" << f;
                diff << " got";
                for (const auto& [res, f] : g->flavors) diff << " " << res << "=" << f;
                diff << "\n";
            }
            for (const auto& u : p["resourceUsage"]) {
                const std::string res = u.first.as<std::string>(), q = u.second.as<std::string>();
                auto it = g->resource_usage.find(res);
                if (it == g->resource_usage.end() || !same_quantity(q, it->second))
                    diff << k << "/" << ps << ": resourceUsage " << res << " want " << q << " got "
                         << (it == g->resource_usage.end() ? "<none>" : it->second) << "\n";
            }
            if (p["topologyAssignment"]) {
                auto want = ta_of(p["topologyAssignment"]);
                if (!g->topology_assignment)
                    diff << k << "/" << ps << ": topologyAssignment want " << show_ta(want) << " got <none>\n";
                else if (!(*g->topology_assignment == want))
                    diff << k << "/" << ps << ": topologyAssignment want " << show_ta(want) << " got "
                         << show_ta(*g->topology_assignment) << "\n";
            } else if (g->topology_assignment) {
                diff << k << "/" << ps << ": topologyAssignment want <none> got " << show_ta(*g->topology_assignment)
                     << "\n";
            }
            if (str(p["delayedTopologyRequest"]) != g->delayed_topology_request)
                diff << k << "/" << ps << ": delayedTopologyRequest want "
                     << (p["delayedTopologyRequest"] ? str(p["delayedTopologyRequest"]) : "<none>") << " got "
                     << (g->delayed_topology_request.empty() ? "<none>" : g->delayed_topology_request) << "\n";
        }
        for (const auto& x : w.assignments)
            if (!want_ps.count(x.name)) diff << k << "/" << x.name << ": unexpected podset assignment\n";
    }

    // Pending workloads, with the reason/message the test asserts.
    for (const auto& e : expect["pending"]) {
        const std::string k = e.first.as<std::string>();
        auto it = by_key.find(k);
        if (it == by_key.end()) {
            diff << k << ": want pending, got no outcome\n";
            continue;
        }
        const auto& w = *it->second;
        if (w.admitted) continue;  // reported above
        if (e.second["reason"] && w.reason != str(e.second["reason"]))
            diff << k << ": QuotaReserved reason want " << str(e.second["reason"]) << " got " << w.reason << "\n";
        if (e.second["message"] && w.message != str(e.second["message"]))
            diff << k << ": QuotaReserved message\n  want: " << str(e.second["message"]) << "\n  got:  " << w.message
                 << "\n";
    }

    // Preemptions.
    std::set<std::string> want_pre, got_pre;
    for (const auto& e : expect["preempted"]) want_pre.insert(e.first.as<std::string>());
    for (const auto& w : r.workloads)
        if (w.preempted) got_pre.insert(key(w));
    if (want_pre != got_pre)
        diff << "preempted want " << join({want_pre.begin(), want_pre.end()}) << " got "
             << join({got_pre.begin(), got_pre.end()}) << "\n";
    for (const auto& e : expect["preempted"]) {
        const std::string k = e.first.as<std::string>();
        if (!got_pre.count(k)) continue;
        const auto& w = *by_key[k];
        if (e.second["reason"] && w.preemption_reason != str(e.second["reason"]))
            diff << k << ": Preempted reason want " << str(e.second["reason"]) << " got " << w.preemption_reason
                 << "\n";
        if (e.second["message"] && w.preemption_message != str(e.second["message"]))
            diff << k << ": Preempted message\n  want: " << str(e.second["message"])
                 << "\n  got:  " << w.preemption_message << "\n";
    }

    // Queue contents after the cycle (Kueue's Dump / DumpInadmissible).
    std::map<std::string, std::vector<std::string>> want_active, want_inadm, got_active, got_inadm;
    if (const auto q = expect["queues"]) {
        for (const auto& c : q["active"])
            for (const auto& k : c.second) want_active[c.first.as<std::string>()].push_back(k.as<std::string>());
        for (const auto& c : q["inadmissible"])
            for (const auto& k : c.second) want_inadm[c.first.as<std::string>()].push_back(k.as<std::string>());
    }
    for (auto* m : {&want_active, &want_inadm})
        for (auto& [cq, v] : *m) std::sort(v.begin(), v.end());
    for (const auto& cq : r.cluster_queues) {
        auto a = cq.pending_active, i = cq.pending_inadmissible;
        std::sort(a.begin(), a.end());
        std::sort(i.begin(), i.end());
        if (!a.empty()) got_active[cq.name] = a;
        if (!i.empty()) got_inadm[cq.name] = i;
    }
    auto show_q = [](const std::map<std::string, std::vector<std::string>>& m) {
        std::string out;
        for (const auto& [cq, v] : m) out += cq + ": " + join(v) + " ";
        return out.empty() ? std::string("{}") : out;
    };
    if (want_active != got_active)
        diff << "active queues want " << show_q(want_active) << " got " << show_q(got_active) << "\n";
    if (want_inadm != got_inadm)
        diff << "inadmissible queues want " << show_q(want_inadm) << " got " << show_q(got_inadm) << "\n";

    // Events the outcome can show: QuotaReserved (admitted in the cycle),
    // EvictedDueToPreempted (preempted), EvictedDueToNodeFailures (no
    // replacement for a failed node), SecondPassFailed (a failed second pass).
    for (const auto& ev : expect["events"]) {
        const std::string k = str(ev["object"]), reason = str(ev["reason"]);
        if (reason == "QuotaReserved" && !got_admitted.count(k))
            diff << k << ": event QuotaReserved expected, workload not admitted\n";
        if (reason == "EvictedDueToPreempted" && !got_pre.count(k))
            diff << k << ": event EvictedDueToPreempted expected, workload not preempted\n";
        auto it = by_key.find(k);
        const scheduler::WorkloadOutcome* w = it == by_key.end() ? nullptr : it->second;
        if (reason == "EvictedDueToNodeFailures") {
            if (!w || w->eviction_reason != reason)
                diff << k << ": event EvictedDueToNodeFailures expected, workload not evicted for node failures\n";
            else if (ev["message"] && w->eviction_message != str(ev["message"]))
                diff << k << ": EvictedDueToNodeFailures message\n  want: " << str(ev["message"])
                     << "\n  got:  " << w->eviction_message << "\n";
        }
        if (reason == "SecondPassFailed") {
            if (!w || w->second_pass_message.empty())
                diff << k << ": event SecondPassFailed expected, no failed second pass\n";
            else if (ev["message"] && w->second_pass_message != str(ev["message"]))
                diff << k << ": SecondPassFailed message\n  want: " << str(ev["message"])
                     << "\n  got:  " << w->second_pass_message << "\n";
        }
    }
    return diff.str();
}

void run_table(const std::string& file, int table_cases) {
    auto path = qf_test::source_dir() / "tests/engines/scheduler_tas" / file;
    YAML::Node doc = YAML::LoadFile(path.string());
    REQUIRE(str(doc["commit"]) == kCommit);
    const int total = doc["tableCases"].as<int>();
    const int translated = doc["translated"].as<int>();
    REQUIRE(total == table_cases);
    REQUIRE(static_cast<int>(doc["cases"].size()) == translated);
    REQUIRE(translated + static_cast<int>(doc["inexpressible"].size()) == total);
    int passed = 0;
    std::vector<std::string> failed, known, known_now_passing;
    for (const auto& c : doc["cases"]) {
        const std::string name = str(c["name"]);
        auto objects = objects_of(name, c["objects"]);
        Diagnostics diags;
        auto r = scheduler::simulate(objects, {.max_cycles = 1}, diags);
        const std::string diff = compare(c["expect"], r);
        if (c["knownFailing"]) {
            known.push_back(name + " (" + str(c["knownFailing"]) + ")");
            if (diff.empty()) known_now_passing.push_back(name);
            continue;
        }
        if (diff.empty()) {
            ++passed;
        } else {
            failed.push_back(name);
            UNSCOPED_INFO("case \"" << name << "\"\n" << diff);
        }
    }
    if (!known.empty()) {
        std::string list;
        for (const auto& k : known) list += "\n  " + k;
        WARN(file << ": " << known.size() << " known-failing case(s) skipped:" << list);
    }
    // A known-failing case that now agrees with Kueue must be unmarked.
    std::string now_passing;
    for (const auto& k : known_now_passing) now_passing += "\n  known-failing case now passes: \"" + k + "\"";
    INFO("passing " << passed << " of " << translated << " translated (" << total << " in Kueue's table, "
                    << known.size() << " known failing)");
    CHECK(failed.empty());
    INFO(now_passing);
    CHECK(known_now_passing.empty());
}

}  // namespace

TEST_CASE("simulate: Kueue's TestScheduleForTAS table", "[simulate][kueue-tas]") {
    run_table("schedule_for_tas.yaml", 67);
}

TEST_CASE("simulate: Kueue's TestScheduleForTASPreemption table", "[simulate][kueue-tas]") {
    run_table("schedule_for_tas_preemption.yaml", 11);
}

TEST_CASE("simulate: Kueue's TestScheduleForTASCohorts table", "[simulate][kueue-tas]") {
    run_table("schedule_for_tas_cohorts.yaml", 26);
}
