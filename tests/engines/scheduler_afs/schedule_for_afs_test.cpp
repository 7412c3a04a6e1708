// Kueue's Admission Fair Sharing (AFS) tests at ff69552e, translated (see
// README.md): the pure functions of pkg/util/admissionfairsharing
// (admission_fair_sharing_test.go), the ledger's penalty bookkeeping
// (pkg/cache/queue/afs), shouldApplyEntryPenalty (TestShouldApplyEntryPenalty)
// and TestScheduleForAFS as data (schedule_for_afs.yaml), run through the
// simulator. Tag [kueue-afs].
#include "engines/scheduler/admission_fair_sharing.hpp"
#include "engines/scheduler/afs_build.hpp"

#include <queueforge/base/quantity.hpp>
#include <queueforge/engines/scheduler.hpp>
#include <queueforge/engines/scheduler_engine.hpp>
#include <queueforge/frontend/manifests.hpp>

#include "test_util.hpp"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>
#include <yaml-cpp/yaml.h>

#include <cmath>
#include <set>
#include <sstream>

using namespace queueforge;
using namespace queueforge::scheduler::detail;

namespace {

const char* kCommit = "ff69552e79ad21652c36caa97038382e55625cf7";

int128 nano(const char* q) { return Quantity::parse(q)->nanos(); }
std::string str(const YAML::Node& n) { return n && n.IsScalar() ? n.as<std::string>() : std::string(); }

std::vector<Resource> objects_of(const std::string& name, const std::string& text) {
    LoadedResources lr;
    Diagnostics d;
    load_resources_from_text(name, text, lr, d);
    return std::move(lr.resources);
}

constexpr double kLongHalfLife = 168.0 * 3600;  // 168h
constexpr double kSampling = 300;               // 5m

}  // namespace

TEST_CASE("afs: CalculateEntryPenalty covers DRA logical resources and stays positive with a long half-life", "[kueue-afs]") {
    AfsConfig c;
    c.sampling_ns = 5LL * 60 * 1000000000;
    c.half_life_ns = 10LL * 60 * 1000000000;
    auto p = afs::entry_penalty({{"cpu", nano("4")}, {"gpu-logical", nano("2")}}, c);
    REQUIRE(p.count("cpu"));
    REQUIRE(p.count("gpu-logical"));
    CHECK(p["cpu"] > 0);
    CHECK(p["gpu-logical"] > 0);
    c.half_life_ns = 168LL * 3600 * 1000000000;
    p = afs::entry_penalty({{"cpu", nano("2")}, {"nvidia.com/gpu", nano("1")}}, c);
    CHECK(p["cpu"] > 0);
    CHECK(p["nvidia.com/gpu"] > 0);
}

TEST_CASE("afs: CalculateDecayedConsumed accumulates sub-milli contributions", "[kueue-afs]") {
    NanoList usage{{"cpu", nano("2")}, {"nvidia.com/gpu", nano("1")}}, consumed;
    int128 prev_cpu = 0, prev_gpu = 0;
    for (int sample = 1; sample <= 3; ++sample) {
        consumed = afs::decayed_consumed(consumed, usage, kSampling, kLongHalfLife);
        CHECK(consumed["cpu"] > prev_cpu);
        CHECK(consumed["nvidia.com/gpu"] > prev_gpu);
        prev_cpu = consumed["cpu"];
        prev_gpu = consumed["nvidia.com/gpu"];
    }
}

TEST_CASE("afs: CalculateDecayedConsumed converges to the usage on the half-life curve", "[kueue-afs][slow]") {
    NanoList usage{{"cpu", nano("2")}}, consumed;
    const char* want[] = {"1", "1500m", "1750m"};
    for (int hl = 0; hl < 3; ++hl) {
        for (int i = 0; i < 2016; ++i) consumed = afs::decayed_consumed(consumed, usage, kSampling, kLongHalfLife);
        const int128 got = consumed["cpu"], w = nano(want[hl]), tol = nano("1m");
        CHECK(got >= w - tol);
        CHECK(got <= w + tol);
        CHECK(got <= usage["cpu"]);
    }
}

TEST_CASE("afs: CalculateDecayedConsumed keeps large quantities positive", "[kueue-afs]") {
    for (const char* size : {"16Gi", "1Ti", "64Ti"}) {
        auto c = afs::decayed_consumed({}, {{"memory", nano(size)}}, kSampling, kLongHalfLife);
        INFO(size);
        CHECK(c["memory"] > 0);
    }
}

TEST_CASE("afs: CalculateUsage with DRA resources and resource weights", "[kueue-afs]") {
    struct Case { const char* name; NanoList consumed, penalty; double lq; std::map<std::string, double> w; double want; };
    const std::vector<Case> cases{
        {"DRA resource with default weight", {{"gpu-logical", nano("2")}}, {}, 1, {}, 2},
        {"DRA resource with explicit weight", {{"gpu-logical", nano("2")}}, {}, 1, {{"gpu-logical", 3}}, 6},
        {"mixed CPU and DRA resources", {{"cpu", nano("4")}, {"gpu-logical", nano("2")}}, {}, 1, {{"cpu", 1}, {"gpu-logical", 5}}, 14},
        {"DRA resource with weight zero contributes nothing", {{"gpu-logical", nano("10")}}, {}, 1, {{"gpu-logical", 0}}, 0},
        {"DRA resource in penalty only", {}, {{"gpu-logical", nano("3")}}, 1, {}, 3},
        {"DRA resource in both consumed and penalty", {{"gpu-logical", nano("2")}}, {{"gpu-logical", nano("1")}}, 2, {{"gpu-logical", 4}}, 6},
    };
    for (const auto& c : cases) {
        INFO(c.name);
        CHECK(afs::usage(c.consumed, c.penalty, c.lq, c.w) == c.want);
    }
}

TEST_CASE("afs: CalculateUsage with a non-positive LocalQueue weight is +Inf, never NaN", "[kueue-afs]") {
    for (auto [consumed, w] : std::vector<std::pair<NanoList, double>>{{{}, 0}, {{{"cpu", nano("4")}}, 0}, {{{"cpu", nano("4")}}, -1}}) {
        const double u = afs::usage(consumed, {}, w, {});
        CHECK_FALSE(std::isnan(u));
        CHECK(std::isinf(u));
        CHECK(u > 0);
    }
}

TEST_CASE("afs: MulByFloat rounds down at nine digits and the alpha rate follows the half-life", "[kueue-afs]") {
    CHECK(afs::alpha_rate(1, 0) == 0.0);
    CHECK(afs::alpha_rate(10, 10) == 0.5);
    CHECK(afs::mul_by_float(nano("8"), 0.5) == nano("4"));
    CHECK(afs::mul_by_float(nano("1n"), 0.5) == 0);  // 0.5n rounds down
    CHECK(afs::mul_by_float(nano("3"), 1.0 / 3) == nano("999999999n"));
    CHECK(afs::approximate_float(nano("8")) == 8.0);
}

TEST_CASE("afs: Go durations and Kueue's admissionFairSharing validation", "[kueue-afs]") {
    CHECK(parse_go_duration("5m") == 300000000000LL);
    CHECK(parse_go_duration("1h30m") == 5400000000000LL);
    CHECK(parse_go_duration("-10s") == -10000000000LL);
    CHECK(parse_go_duration("0") == 0);
    CHECK_FALSE(parse_go_duration("10"));
    CHECK_FALSE(parse_go_duration("ten minutes"));
}

// TestShouldApplyEntryPenalty: the penalty is pushed only with an AFS config,
// on a usage-based ClusterQueue, for a workload not already reserving quota.
TEST_CASE("afs: TestShouldApplyEntryPenalty", "[kueue-afs]") {
    auto run = [](bool config, bool usage_based, bool reserved) {
        std::string text =
            "apiVersion: kueue.x-k8s.io/v1beta2\nkind: ResourceFlavor\nmetadata: {name: default}\n---\n"
            "apiVersion: kueue.x-k8s.io/v1beta2\nkind: ClusterQueue\nmetadata: {name: cq}\nspec:\n  namespaceSelector: {}\n" +
            std::string(usage_based ? "  admissionScope: {admissionMode: UsageBasedAdmissionFairSharing}\n" : "") +
            "  resourceGroups:\n  - coveredResources: [cpu]\n    flavors:\n    - name: default\n      resources:\n      - {name: cpu, nominalQuota: 8}\n---\n"
            "apiVersion: kueue.x-k8s.io/v1beta2\nkind: LocalQueue\nmetadata: {name: lq, namespace: ns}\nspec: {clusterQueue: cq}\n---\n"
            "apiVersion: v1\nkind: Namespace\nmetadata: {name: ns}\n---\n"
            "apiVersion: kueue.x-k8s.io/v1beta2\nkind: Workload\nmetadata: {name: wl, namespace: ns, creationTimestamp: '2025-06-01T12:00:00Z'}\n"
            "spec:\n  queueName: lq\n  podSets:\n  - name: main\n    count: 1\n    template: {spec: {containers: [{name: c, resources: {requests: {cpu: '4'}}}]}}\n";
        if (reserved)
            text += "status:\n  admission:\n    clusterQueue: cq\n    podSetAssignments:\n    - name: main\n      count: 1\n      flavors: {cpu: default}\n      resourceUsage: {cpu: '4'}\n"
                    "  conditions:\n  - {type: QuotaReserved, status: 'True', reason: QuotaReserved, message: m, lastTransitionTime: '2025-06-01T12:00:00Z'}\n";
        if (config)
            text += "---\napiVersion: config.kueue.x-k8s.io/v1beta2\nkind: Configuration\nadmissionFairSharing: {usageHalfLifeTime: 10s, usageSamplingInterval: 1s}\n";
        Diagnostics d;
        scheduler::Engine e(objects_of("penalty.yaml", text), d);
        e.cycle(1748779200LL * 1000000000);
        return e.afs_usage("ns", "lq");
    };
    // "pushes for a first-pass workload on a usage-based ClusterQueue":
    // 4 cpu x (1 - 0.5^(1/10)).
    CHECK(run(true, true, false) == Approx(4 * (1 - std::pow(0.5, 0.1))));
    CHECK(run(false, true, false) == 0);  // skips when no AdmissionFairSharing config is set
    CHECK(run(true, false, false) == 0);  // skips for a ClusterQueue without usage-based admission mode
    CHECK(run(true, true, true) == 0);    // skips a workload that already holds a quota reservation
}

TEST_CASE("afs: TestScheduleForAFS", "[kueue-afs]") {
    auto path = qf_test::source_dir() / "tests/engines/scheduler_afs/schedule_for_afs.yaml";
    YAML::Node doc = YAML::LoadFile(path.string());
    REQUIRE(str(doc["commit"]) == kCommit);
    REQUIRE(doc["cases"].size() + doc["inexpressible"].size() == 8);
    std::vector<std::string> failed;
    for (const auto& c : doc["cases"]) {
        const std::string name = str(c["name"]);
        Diagnostics diags;
        auto r = scheduler::simulate(objects_of(name, str(c["objects"])), {.max_cycles = c["cycles"].as<int>()}, diags);
        std::ostringstream diff;
        std::set<std::string> want_adm;
        for (const auto& k : c["expect"]["admitted"]) want_adm.insert(k.as<std::string>());
        for (const auto& o : r.workloads) {
            const std::string key = o.namespace_ + "/" + o.name;
            if (o.admitted != (want_adm.count(key) > 0))
                diff << key << ": admitted " << o.admitted << ", Kueue " << !o.admitted << "\n";
            if (const auto p = c["expect"]["pending"][key]; p && p.IsMap()) {
                if (p["reason"] && str(p["reason"]) != o.reason) diff << key << ": reason " << o.reason << ", Kueue " << str(p["reason"]) << "\n";
                if (p["message"] && str(p["message"]) != o.message) diff << key << ": message " << o.message << ", Kueue " << str(p["message"]) << "\n";
            }
        }
        if (!diff.str().empty()) {
            failed.push_back(name);
            UNSCOPED_INFO("case \"" << name << "\"\n" << diff.str());
        }
    }
    CHECK(failed.empty());
}

// ../shared/upstream/kueue-examples/admission-fs: lq-a has run a job, lq-b
// none; with both waiting, Kueue admits lq-b's first (StrictFIFO queue).
TEST_CASE("afs: Kueue's admission-fs sample orders by LocalQueue usage", "[kueue-afs]") {
    auto shared = qf_test::shared_dir();
    if (!shared) {
        WARN("skipped: ../shared (Kueue's samples) is not beside this checkout");
        return;
    }
    const auto dir = *shared / "upstream/kueue-examples/admission-fs";
    std::string text = qf_test::read_text(dir / "admission-fair-sharing-setup.yaml");
    // The sample's setup enables AFS in the manager's configuration (Kueue's
    // docs, "Admission Fair Sharing"); the config here is the documented one.
    text += "\n---\napiVersion: config.kueue.x-k8s.io/v1beta2\nkind: Configuration\n"
            "admissionFairSharing: {usageHalfLifeTime: 168h, usageSamplingInterval: 5m}\n---\n"
            "apiVersion: v1\nkind: Namespace\nmetadata: {name: default}\n";
    // lq-a consumed 9 cpu before (its LocalQueue status says so); three
    // 3-cpu jobs from each queue wait: the queue of 9 admits lq-b's three.
    const auto lq_a = text.find("name: \"lq-a\"");
    REQUIRE(lq_a != std::string::npos);
    const auto weight_end = text.find('\n', text.find("weight: \"1\"", lq_a));
    text.insert(weight_end, "\nstatus: {fairSharing: {admissionFairSharingStatus: {consumedResources: {cpu: '9'}, lastUpdate: '2025-06-01T12:00:00Z'}}}");
    const std::string a = qf_test::read_text(dir / "lq-a-simple-job.yaml"), b = qf_test::read_text(dir / "lq-b-simple-job.yaml");
    auto named = [](std::string job, const std::string& name) {
        const std::string gen = "generateName: sample-job-";
        const auto p = job.find(gen);
        if (p != std::string::npos) job.replace(p, gen.size(), "name: " + name);
        return job;
    };
    for (int i = 0; i < 3; ++i)
        text += "\n---\n" + named(a, "from-a-" + std::to_string(i)) + "\n---\n" + named(b, "from-b-" + std::to_string(i));
    qf_test::TempDir tmp;
    qf_test::write_text(tmp.path / "all.yaml", text);
    auto r = qf_test::run_cli("simulate -o json " + qf_test::shell_quote((tmp.path / "all.yaml").string()));
    INFO(r.out << r.err);
    REQUIRE(r.exit == 0);
    int a_admitted = 0, b_admitted = 0;
    const auto report = nlohmann::json::parse(r.out);
    for (const auto& w : report["workloads"]) {
        const std::string name = w["name"].get<std::string>();
        if (w["status"].get<std::string>() != "Admitted") continue;
        (name.find("from-a-") != std::string::npos ? a_admitted : b_admitted) += 1;
    }
    CHECK(b_admitted == 3);
    CHECK(a_admitted == 0);
}

namespace {

std::string afs_cluster(const std::string& afs_config, const std::string& lq_a_status) {
    return "apiVersion: config.kueue.x-k8s.io/v1beta2\nkind: Configuration\nadmissionFairSharing: " + afs_config + "\n---\n"
           "apiVersion: kueue.x-k8s.io/v1beta2\nkind: ResourceFlavor\nmetadata: {name: default}\n---\n"
           "apiVersion: kueue.x-k8s.io/v1beta2\nkind: ClusterQueue\nmetadata: {name: cq}\nspec:\n  namespaceSelector: {}\n"
           "  admissionScope: {admissionMode: UsageBasedAdmissionFairSharing}\n"
           "  resourceGroups:\n  - coveredResources: [cpu]\n    flavors:\n    - name: default\n      resources:\n      - {name: cpu, nominalQuota: 8}\n---\n"
           "apiVersion: v1\nkind: Namespace\nmetadata: {name: ns}\n---\n"
           "apiVersion: kueue.x-k8s.io/v1beta2\nkind: LocalQueue\nmetadata: {name: lq-a, namespace: ns}\nspec: {clusterQueue: cq}\n" +
           lq_a_status + "---\n"
           "apiVersion: kueue.x-k8s.io/v1beta2\nkind: LocalQueue\nmetadata: {name: lq-b, namespace: ns}\nspec: {clusterQueue: cq}\n---\n"
           "apiVersion: kueue.x-k8s.io/v1beta2\nkind: Workload\nmetadata: {name: wl-b, namespace: ns, creationTimestamp: '2025-06-01T12:00:00Z'}\n"
           "spec:\n  queueName: lq-b\n  podSets:\n  - name: main\n    count: 1\n    template: {spec: {containers: [{name: c, resources: {requests: {cpu: '8'}}}]}}\n";
}

constexpr std::int64_t kT0 = 1748779200LL * 1000000000;
constexpr std::int64_t kSec = 1000000000;

}  // namespace

// The LocalQueue controller's sampling in virtual time: with no admitted
// usage, the history halves every half-life (10 samples of 0.5^(1/10));
// with 8 cpu admitted, it climbs towards 8.
TEST_CASE("afs: usage decays and accrues with the sampling interval in virtual time", "[kueue-afs]") {
    Diagnostics d;
    scheduler::Engine e(objects_of("afs.yaml", afs_cluster("{usageHalfLifeTime: 10s, usageSamplingInterval: 1s}",
                                                           "status: {fairSharing: {admissionFairSharingStatus: {consumedResources: {cpu: '8'}, lastUpdate: '2025-06-01T12:00:00Z'}}}\n")),
                        d);
    INFO(qf_test::messages(d));
    e.advance(kT0);
    e.cycle(kT0);
    REQUIRE(e.holds_quota(e.workload_id("ns", "wl-b")));
    const double penalty = 8 * (1 - std::pow(0.5, 0.1));
    CHECK(e.afs_usage("ns", "lq-b") == Approx(penalty));
    CHECK(e.afs_usage("ns", "lq-a") == 8);
    e.advance(kT0 + kSec / 2);  // before the first sample: nothing moves
    CHECK(e.afs_usage("ns", "lq-a") == 8);
    e.advance(kT0 + 10 * kSec);
    CHECK(e.afs_usage("ns", "lq-a") == Approx(4).epsilon(1e-8));
    // lq-b: h_{n+1} = h_n a + 8 (1 - a), a = 0.5^0.1, from h_0 = penalty.
    double h = penalty;
    for (int i = 0; i < 10; ++i) h = h * std::pow(0.5, 0.1) + 8 * (1 - std::pow(0.5, 0.1));
    CHECK(e.afs_usage("ns", "lq-b") == Approx(h).epsilon(1e-8));
    // The job finishes: lq-b's history decays from then on.
    REQUIRE(e.finish(e.workload_id("ns", "wl-b")));
    e.advance(kT0 + 20 * kSec);
    CHECK(e.afs_usage("ns", "lq-b") == Approx(h / 2).epsilon(1e-8));
}

TEST_CASE("afs: bad admissionFairSharing settings and LocalQueue weights are positioned errors", "[kueue-afs]") {
    qf_test::TempDir tmp;
    qf_test::write_text(tmp.path / "c.yaml", afs_cluster("\n  usageHalfLifeTime: -10s\n  usageSamplingInterval: 0s\n  resourceWeights: {cpu: -2, memory: x}", ""));
    auto r = qf_test::run_cli("simulate " + qf_test::shell_quote((tmp.path / "c.yaml").string()));
    INFO(r.out << r.err);
    CHECK(r.exit == 1);
    CHECK(r.err.find("c.yaml:4:22: error: Configuration: admissionFairSharing.usageHalfLifeTime: Invalid value: \"-10s\": must be greater than or equal to 0") != std::string::npos);
    CHECK(r.err.find("resourceWeights[cpu]: Invalid value: -2: must be greater than or equal to 0") != std::string::npos);
    CHECK(r.err.find("resourceWeights[memory]: \"x\" is not a number") != std::string::npos);
    CHECK(r.err.find("usageSamplingInterval") == std::string::npos);  // 0 is unset: Kueue defaults it to 5m
    qf_test::write_text(tmp.path / "c.yaml", afs_cluster("{usageHalfLifeTime: 1h, usageSamplingInterval: -5m}", ""));
    r = qf_test::run_cli("simulate " + qf_test::shell_quote((tmp.path / "c.yaml").string()));
    CHECK(r.exit == 1);
    CHECK(r.err.find("usageSamplingInterval: Invalid value: \"-5m\": must be greater than 0") != std::string::npos);
    std::string bad_weight = afs_cluster("{usageHalfLifeTime: 1h}", "");
    bad_weight.replace(bad_weight.find("spec: {clusterQueue: cq}\n---\napiVersion: kueue.x-k8s.io/v1beta2\nkind: LocalQueue\nmetadata: {name: lq-b"),
                       std::string("spec: {clusterQueue: cq}").size(), "spec: {clusterQueue: cq, fairSharing: {weight: heavy}}");
    qf_test::write_text(tmp.path / "c.yaml", bad_weight);
    r = qf_test::run_cli("simulate " + qf_test::shell_quote((tmp.path / "c.yaml").string()));
    CHECK(r.exit == 1);
    CHECK(r.err.find("fairSharing.weight") != std::string::npos);
    // A half-life of 0 is Kueue's to accept (only negative is invalid), but
    // it makes the decay rate 0: reported where it is written, and where it
    // is missing.
    qf_test::write_text(tmp.path / "c.yaml", afs_cluster("{usageHalfLifeTime: 0s}", ""));
    r = qf_test::run_cli("simulate " + qf_test::shell_quote((tmp.path / "c.yaml").string()));
    CHECK(r.exit == 0);
    CHECK(r.err.find("c.yaml:3:43: warning: Configuration: admissionFairSharing.usageHalfLifeTime is 0: Kueue's decay rate is then 0") !=
          std::string::npos);
    qf_test::write_text(tmp.path / "c.yaml", afs_cluster("{usageSamplingInterval: 1m}", ""));
    r = qf_test::run_cli("simulate " + qf_test::shell_quote((tmp.path / "c.yaml").string()));
    CHECK(r.exit == 0);
    CHECK(r.err.find("warning: Configuration: admissionFairSharing without usageHalfLifeTime (Kueue reads 0)") != std::string::npos);
}

// pkg/cache/queue/afs/entry_penalties_test.go TestPenaltyBookkeepingIsIdempotentAndExact:
// per-workload records, re-push replaces, subtraction exact and idempotent.
TEST_CASE("afs: TestPenaltyBookkeepingIsIdempotentAndExact", "[kueue-afs]") {
    struct Op { int wl; std::optional<NanoList> push; };
    struct Case { const char* name; std::vector<Op> ops; bool has; std::map<std::string, int128> want; };
    const NanoList cpu2{{"cpu", nano("2")}}, cpu3{{"cpu", nano("3")}}, mem4{{"memory", nano("4Gi")}};
    const std::vector<Case> cases{
        {"pushes for distinct workloads accumulate", {{1, cpu2}, {2, cpu3}}, true, {{"cpu", nano("5")}}},
        {"re-pushing the same workload replaces instead of stacking", {{1, cpu2}, {1, cpu2}}, true, {{"cpu", nano("2")}}},
        {"re-pushing with a different amount keeps the latest", {{1, cpu2}, {1, cpu3}}, true, {{"cpu", nano("3")}}},
        {"rollback after replacement subtracts the replacement amount", {{1, cpu2}, {1, cpu3}, {1, {}}}, false, {}},
        {"subtracting a workload removes exactly its record", {{1, cpu2}, {2, cpu3}, {1, {}}}, true, {{"cpu", nano("3")}}},
        {"subtracting the only workload leaves nothing pending", {{1, cpu2}, {1, {}}}, false, {}},
        {"subtracting twice is a no-op the second time", {{1, cpu2}, {2, cpu3}, {1, {}}, {1, {}}}, true, {{"cpu", nano("3")}}},
        {"subtracting a workload that never pushed leaves no negative residue", {{1, {}}}, false, {}},
        {"a workload's subtraction cannot drain another workload's resources", {{1, cpu2}, {2, mem4}, {1, {}}}, true,
         {{"cpu", 0}, {"memory", nano("4Gi")}}},
    };
    for (const auto& c : cases) {
        INFO(c.name);
        AfsLedger ledger;
        ledger.reset(1);
        for (const auto& op : c.ops) {
            if (op.push) ledger.push_penalty(0, op.wl, *op.push, kT0);
            else ledger.sub_penalty(0, op.wl);
        }
        CHECK(ledger.has_pending(0) == c.has);
        for (const auto& [res, want] : c.want) {
            auto it = ledger.pending(0).find(res);
            CHECK((it == ledger.pending(0).end() ? int128(0) : it->second) == want);
        }
    }
}

TEST_CASE("afs: TestPushPenaltySeedsLastUpdateOnlyWhenCreating and TestSubPenaltyDoesNotCreateEntry", "[kueue-afs]") {
    AfsLedger ledger;
    ledger.reset(1);
    CHECK_FALSE(ledger.sub_penalty(0, 1));
    CHECK(ledger.entry(0) == nullptr);  // no entry materialized
    ledger.push_penalty(0, 1, {{"cpu", nano("1")}}, kT0);
    REQUIRE(ledger.entry(0));
    CHECK(ledger.entry(0)->last_update == kT0);
    ledger.push_penalty(0, 2, {{"cpu", nano("1")}}, kT0 + 3600 * kSec);
    CHECK(ledger.entry(0)->last_update == kT0);  // a later push leaves it
    CHECK(ledger.pending(0).at("cpu") == nano("2"));
    ledger.sub_penalty(0, 7);  // an unknown workload changes nothing
    CHECK(ledger.pending(0).at("cpu") == nano("2"));
}

// pkg/scheduler/scheduler_afs_secondpass_test.go TestSecondPassDoesNotRepushEntryPenalty:
// a workload holding quota from its first pass, its ProvisioningRequest check
// Ready and its topology assignment delayed (Pending), is re-assumed by the
// second pass, which must not push another entry penalty: the second pass
// places it (second_pass.cpp) and the LocalQueue's usage stays 0.
TEST_CASE("afs: TestSecondPassDoesNotRepushEntryPenalty", "[kueue-afs]") {
    const std::string text = R"(apiVersion: config.kueue.x-k8s.io/v1beta2
kind: Configuration
admissionFairSharing: {usageHalfLifeTime: 10s, usageSamplingInterval: 1s}
---
apiVersion: v1
kind: Namespace
metadata: {name: default}
---
apiVersion: kueue.x-k8s.io/v1beta2
kind: Topology
metadata: {name: tas-single-level}
spec:
  levels:
  - nodeLabel: kubernetes.io/hostname
---
apiVersion: kueue.x-k8s.io/v1beta2
kind: ResourceFlavor
metadata: {name: tas-default}
spec:
  nodeLabels: {tas-node: "true"}
  topologyName: tas-single-level
---
apiVersion: v1
kind: Node
metadata:
  name: x1
  labels: {tas-node: "true", kubernetes.io/hostname: x1}
status:
  allocatable: {cpu: "1", memory: 1Gi, pods: "10"}
  conditions: [{type: Ready, status: "True"}]
---
apiVersion: kueue.x-k8s.io/v1beta2
kind: AdmissionCheck
metadata: {name: prov-check}
spec: {controllerName: kueue.x-k8s.io/provisioning-request}
status:
  conditions: [{type: Active, status: "True", reason: Active, message: "", lastTransitionTime: "2025-06-01T12:00:00Z"}]
---
apiVersion: kueue.x-k8s.io/v1beta2
kind: ClusterQueue
metadata: {name: cq}
spec:
  namespaceSelector: {}
  admissionChecksStrategy: {admissionChecks: [{name: prov-check}]}
  admissionScope: {admissionMode: UsageBasedAdmissionFairSharing}
  resourceGroups:
  - coveredResources: [cpu, memory]
    flavors:
    - name: tas-default
      resources:
      - {name: cpu, nominalQuota: "50"}
      - {name: memory, nominalQuota: 50Gi}
---
apiVersion: kueue.x-k8s.io/v1beta2
kind: LocalQueue
metadata: {name: lq, namespace: default}
spec: {clusterQueue: cq, fairSharing: {weight: "1"}}
---
apiVersion: kueue.x-k8s.io/v1beta2
kind: Workload
metadata: {name: foo, namespace: default}
spec:
  queueName: lq
  podSets:
  - name: one
    count: 1
    topologyRequest: {required: kubernetes.io/hostname}
    template: {spec: {containers: [{name: c, resources: {requests: {cpu: "1"}}}]}}
status:
  admission:
    clusterQueue: cq
    podSetAssignments:
    - name: one
      count: 1
      flavors: {cpu: tas-default}
      resourceUsage: {cpu: 1000m}
      delayedTopologyRequest: Pending
  conditions:
  - {type: QuotaReserved, status: "True", reason: QuotaReserved, message: "Quota reserved in ClusterQueue cq", lastTransitionTime: "2025-06-01T12:00:00Z"}
  admissionChecks:
  - {name: prov-check, state: Ready, message: "", lastTransitionTime: "2025-06-01T12:00:00Z"}
)";
    Diagnostics d;
    scheduler::Engine e(objects_of("secondpass.yaml", text), d);
    e.cycle(kT0 + kSec);
    auto r = e.result(true, d);
    bool assigned = false;
    for (const auto& o : r.workloads)
        if (o.name == "foo" && o.admitted)
            for (const auto& a : o.assignments) assigned = assigned || (a.topology_assignment && !a.topology_assignment->domains.empty());
    CHECK(assigned);                           // re-assumed: placed by the second pass
    CHECK(e.afs_usage("default", "lq") == 0);  // and no second entry penalty pushed
}

TEST_CASE("afs: a resource weight for a resource no ClusterQueue covers is a positioned warning", "[kueue-afs]") {
    Diagnostics d;
    scheduler::Engine e(objects_of("w.yaml", afs_cluster("{usageHalfLifeTime: 1h, resourceWeights: {cpu: 1, nvidia.com/gpu: 4}}", "")), d);
    (void)e;
    const std::string text = qf_test::messages(d);
    INFO(text);
    CHECK(text.find("resourceWeights[nvidia.com/gpu]: no ClusterQueue covers resource \"nvidia.com/gpu\"") != std::string::npos);
    CHECK(text.find("resourceWeights[cpu]") == std::string::npos);
    CHECK_FALSE(d.has_errors());
}

TEST_CASE("afs: the Red Hat build's Kueue CR turns admission fair sharing on as its operator renders it", "[kueue-afs]") {
    // openshift/kueue-operator dc3b6577 pkg/configmap/configmap.go
    // buildAdmissionFairSharing: Custom carries the seconds, Default is a 30m
    // half-life, no configuration is none. TestScheduleForAFS's first case
    // with its Configuration replaced by the CR decides the same way.
    auto path = qf_test::source_dir() / "tests/engines/scheduler_afs/schedule_for_afs.yaml";
    YAML::Node doc = YAML::LoadFile(path.string());
    const YAML::Node c = doc["cases"][0];
    REQUIRE(str(c["name"]) == "admits workload from less active localqueue");
    const std::string configuration = R"(apiVersion: config.kueue.x-k8s.io/v1beta2
kind: Configuration
admissionFairSharing:
  usageHalfLifeTime: 10s
  usageSamplingInterval: 1s
)";
    const std::string objects = str(c["objects"]);
    const auto at = objects.find(configuration);
    REQUIRE(at != std::string::npos);
    auto with_cr = [&](const std::string& afs) {
        std::string text = objects;
        text.replace(at, configuration.size(),
                     "apiVersion: kueue.openshift.io/v1\nkind: Kueue\nmetadata: {name: cluster}\nspec:\n  config:\n"
                     "    integrations: {frameworks: [BatchJob]}\n" + afs);
        Diagnostics diags;
        auto r = scheduler::simulate(objects_of("cr.yaml", text), {.max_cycles = c["cycles"].as<int>()}, diags);
        INFO(qf_test::messages(diags));
        std::set<std::string> admitted;
        for (const auto& o : r.workloads)
            if (o.admitted) admitted.insert(o.namespace_ + "/" + o.name);
        return admitted;
    };
    std::set<std::string> want;
    for (const auto& k : c["expect"]["admitted"]) want.insert(k.as<std::string>());
    CHECK(with_cr("    admissionFairSharing:\n      configuration: Custom\n      custom: {usageHalfLifeTimeSeconds: 10, "
                  "usageSamplingIntervalSeconds: 1}\n") == want);
    CHECK(with_cr("    admissionFairSharing: {configuration: Default}\n") == want);
    // Without it the LocalQueues' usage orders nothing: another workload wins.
    CHECK(with_cr("") != want);
}
