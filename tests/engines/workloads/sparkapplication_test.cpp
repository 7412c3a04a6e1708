// Tests for compiler/engines/workloads/sparkapplication.cpp: a SparkApplication
// turned into the Workload Kueue creates. Rows translated from Kueue
// ff69552e79ad21652c36caa97038382e55625cf7,
// pkg/controller/jobs/sparkapplication/sparkapplication_controller_test.go
// (TestPodSets "base": Kueue's wrapper -- MakeSparkApplication, mode cluster,
// driver and executor with coreRequest 100m and memory 512Mi, one executor --
// with node selectors, tolerations and 3 executors) and
// sparkapplication_webhook_test.go; the memory conversion follows the Spark
// operator v2.5.2 (pkg/util ConvertJavaMemoryStringToK8sMemoryString); Kueue's
// sample (kueue-examples/jobs/sample-sparkapplication.yaml) is simulated at
// its quota boundary. Expected values are restated here on purpose.
#include "workloads_util.hpp"

#include <queueforge/engines/scheduler.hpp>

#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

using namespace queueforge;
using namespace wl_test;

namespace {

// MakeSparkApplication("sparkapp", "default") queued to lq; `driver` and
// `executor` are extra keys of each role (indent 4).
std::string spark(const std::string& driver = "", const std::string& executor = "", const std::string& spec_extra = "") {
    return "apiVersion: sparkoperator.k8s.io/v1beta2\nkind: SparkApplication\nmetadata:\n  name: sparkapp\n  namespace: default\n"
           "  labels: {kueue.x-k8s.io/queue-name: lq}\nspec:\n  type: Scala\n  mode: cluster\n  sparkVersion: 3.5.0\n" +
           spec_extra + "  driver:\n    coreRequest: 100m\n    memory: 512Mi\n" + driver +
           "  executor:\n    instances: 1\n    coreRequest: 100m\n    memory: 512Mi\n" + executor;
}

std::string res(const Resource& wl, int ps, const char* kind, const char* name, int c = 0) {
    return str(wl.doc, {"spec", "podSets", std::to_string(ps), "template", "spec", "containers", std::to_string(c), "resources", kind, name});
}

}  // namespace

TEST_CASE("sparkapplication: base (TestPodSets): driver 1 and executor instances, requests on the Spark container", "[sparkapplication]") {
    const std::string sel = "    nodeSelector: {test: test}\n    tolerations: [{key: t1k, operator: Equal, value: t1v, effect: NoExecute}]\n";
    std::string job = spark(sel, sel);
    job.replace(job.find("instances: 1"), 12, "instances: 3");
    Run r(job);
    INFO(qf_test::messages(r.d));
    CHECK(r.d.all().empty());
    REQUIRE(r.out.size() == 1);
    const Resource& wl = r.out[0];
    CHECK(wl.ref.name == "sparkapplication-sparkapp");
    CHECK(pod_sets(wl) == "driver:1 executor:3");
    CHECK(str(wl.doc, {"spec", "podSets", "0", "template", "spec", "containers", "0", "name"}) == "spark-kubernetes-driver");
    CHECK(str(wl.doc, {"spec", "podSets", "1", "template", "spec", "containers", "0", "name"}) == "spark-kubernetes-executor");
    for (int ps : {0, 1}) {
        CHECK(res(wl, ps, "requests", "cpu") == "100m");
        CHECK(res(wl, ps, "requests", "memory") == "512Mi");
        CHECK(str(wl.doc, {"spec", "podSets", std::to_string(ps), "template", "spec", "nodeSelector", "test"}) == "test");
        CHECK(str(wl.doc, {"spec", "podSets", std::to_string(ps), "template", "spec", "tolerations", "0", "key"}) == "t1k");
    }
    std::string what;
    CHECK(schema_errors(r.out, &what) == 0);
    INFO(what);
}

TEST_CASE("sparkapplication: Java-style memory converts as the Spark operator converts it", "[sparkapplication]") {
    const std::pair<const char*, const char*> rows[] = {{"512m", "512Mi"}, {"2g", "2Gi"}, {"1gb", "1Gi"}, {"300k", "300Ki"},
                                                        {"1t", "1Ti"},     {"4Gi", "4Gi"}, {"1000", "1000"}, {"1.5g", "1.5Gi"}};
    for (const auto& [java, k8s] : rows) {
        CAPTURE(java);
        Run r(spark(std::string("    memoryLimit: \"") + java + "\"\n"));
        INFO(qf_test::messages(r.d));
        REQUIRE(r.out.size() == 1);
        CHECK(res(r.out[0], 0, "limits", "memory") == k8s);
    }
}

TEST_CASE("sparkapplication: limits, GPU, sidecars, init containers, priority class and template metadata", "[sparkapplication]") {
    Run r(spark("    coreLimit: \"2\"\n    gpu: {name: nvidia.com/gpu, quantity: 2}\n    priorityClassName: pod-high\n"
                "    labels: {team: a}\n    template: {metadata: {labels: {from: template}}, spec: {containers: [{name: x, resources: {requests: {cpu: \"64\"}}}]}}\n"
                "    sidecars: [{name: side, resources: {requests: {cpu: 50m}}}]\n"
                "    initContainers: [{name: init, resources: {requests: {cpu: \"3\"}}}]\n",
                "    cores: 8\n    gpu: {name: nvidia.com/gpu, quantity: 0}\n"));
    INFO(qf_test::messages(r.d));
    REQUIRE(r.out.size() == 1);
    const Resource& wl = r.out[0];
    CHECK(res(wl, 0, "limits", "cpu") == "2");
    CHECK(res(wl, 0, "limits", "nvidia.com/gpu") == "2");
    CHECK(res(wl, 0, "requests", "cpu", 1) == "50m");
    CHECK(str(wl.doc, {"spec", "podSets", "0", "template", "spec", "initContainers", "0", "name"}) == "init");
    CHECK(str(wl.doc, {"spec", "podSets", "0", "template", "metadata", "labels", "team"}) == "a");
    CHECK(str(wl.doc, {"spec", "podSets", "0", "template", "metadata", "labels", "from"}) == "template");
    // The role template's spec is not used; `cores` is not read; a GPU of
    // quantity 0 adds nothing.
    CHECK(at(wl.doc, {"spec", "podSets", "0", "template", "spec", "containers", "2"}) == nullptr);
    CHECK(res(wl, 1, "requests", "cpu") == "100m");
    CHECK(at(wl.doc, {"spec", "podSets", "1", "template", "spec", "containers", "0", "resources", "limits"}) == nullptr);
    // The pods' PriorityClass gives the Workload's priority.
    CHECK(num(wl.doc, {"spec", "priority"}) == 5000);
}

TEST_CASE("sparkapplication: no executor instances means no executors", "[sparkapplication]") {
    std::string job = spark();
    job.replace(job.find("    instances: 1\n"), 16, "");
    Run r(job);
    REQUIRE(r.out.size() == 1);
    CHECK(pod_sets(r.out[0]) == "driver:1 executor:0");
}

TEST_CASE("sparkapplication: bad input gives positioned jobs.invalid errors", "[sparkapplication]") {
    struct Case {
        std::string text, path, words;
        int line;
    };
    std::string client = spark();
    client.replace(client.find("mode: cluster"), 13, "mode: client");
    std::string no_mode = spark();
    no_mode.replace(no_mode.find("  mode: cluster\n"), 16, "");
    std::string negative = spark();
    negative.replace(negative.find("instances: 1"), 12, "instances: -2");
    std::string bad_mem = spark();
    bad_mem.replace(bad_mem.find("memory: 512Mi"), 13, "memory: 2G");
    std::string bad_cpu = spark();
    bad_cpu.replace(bad_cpu.find("coreRequest: 100m"), 17, "coreRequest: one");
    const Case cases[] = {
        {client, "spec.mode", "Invalid value: \"client\": only Cluster mode is supported for a kueue managed job", 9},
        {no_mode, "spec.mode", "only Cluster mode is supported", 8},
        {spark("", "", "  dynamicAllocation: {enabled: true}\n"), "spec.dynamicAllocation.enabled",
         "can use dynamicAllocation only when the ElasticJobsViaWorkloadSlices feature gate is on", 11},
        {negative, "spec.executor.instances", "must be greater than or equal to 0, got -2", 15},
        // Spark itself takes "2G"; Kueue's conversion leaves "2GGi".
        {bad_mem, "spec.driver.memory", "failed to parse memory requests 2G: \"2GGi\"", 13},
        {spark("    memoryLimit: lots\n"), "spec.driver.memoryLimit", "failed to parse memory limit lots", 14},
        {bad_cpu, "spec.driver.coreRequest", "failed to parse CPU requests one", 12},
        {spark("", "    coreLimit: [1]\n"), "spec.executor.coreLimit", "must be a string", 18},
        {spark("    gpu: {name: nvidia.com/gpu, quantity: two}\n"), "spec.driver.gpu.quantity", "must be an integer", 14},
        {"apiVersion: sparkoperator.k8s.io/v1beta2\nkind: SparkApplication\nmetadata: {name: s, labels: {kueue.x-k8s.io/queue-name: lq}}\n"
             "spec: {mode: cluster, driver: [x]}\n",
         "spec.driver", "must be a map", 4},
    };
    for (const auto& c : cases) check_invalid(c.text, c.path, c.words, c.line);
}

TEST_CASE("sparkapplication: Kueue's sample converts and simulates at its quota boundary", "[sparkapplication]") {
    auto shared = qf_test::shared_dir();
    if (!shared) {
        WARN("skipped: ../shared (Kueue's samples, upstream/kueue-examples/jobs) is not beside this checkout");
        return;
    }
    const auto sample = *shared / "upstream/kueue-examples/jobs/sample-sparkapplication.yaml";
    REQUIRE(std::filesystem::exists(sample));
    // driver + 2 executors of coreRequest 1, memory 1g (1Gi; no overhead counted): 3 cpu, 3Gi.
    for (const auto& [quota, admitted] : {std::pair{std::string("3"), true}, std::pair{std::string("2999m"), false}}) {
        CAPTURE(quota);
        Run r(qf_test::read_text(sample), user_queue_cluster(quota, "3Gi"));
        INFO(qf_test::messages(r.d));
        CHECK_FALSE(r.d.has_errors());
        REQUIRE(r.out.size() == 1);
        CHECK(r.out[0].ref.name == "sparkapplication-spark-pi");
        CHECK(pod_sets(r.out[0]) == "driver:1 executor:2");
        CHECK(res(r.out[0], 1, "requests", "memory") == "1Gi");
        std::vector<Resource> all = r.cluster.resources;
        all.push_back(r.out[0]);
        all.back().doc.find("metadata")->set("creationTimestamp", Node::string("2026-01-01T00:00:00Z"));
        Diagnostics sd;
        auto result = scheduler::simulate(all, {}, sd);
        INFO(qf_test::messages(sd));
        CHECK_FALSE(sd.has_errors());
        REQUIRE(result.workloads.size() == 1);
        CHECK(result.workloads[0].admitted == admitted);
    }
}

TEST_CASE("sparkapplication: queueforge simulate takes Kueue's sample, schema-checked", "[sparkapplication]") {
    auto shared = qf_test::shared_dir();
    if (!shared) {
        WARN("skipped: ../shared (Kueue's samples) is not beside this checkout");
        return;
    }
    qf_test::TempDir tmp;
    qf_test::write_text(tmp.path / "queues.yaml", user_queue_cluster("3", "3Gi"));
    const auto sample = *shared / "upstream/kueue-examples/jobs/sample-sparkapplication.yaml";
    auto r = qf_test::run_cli("simulate -o json " + qf_test::shell_quote((tmp.path / "queues.yaml").string()) + " " +
                              qf_test::shell_quote(sample.string()));
    INFO(r.out << r.err);
    REQUIRE(r.exit == 0);
    auto j = nlohmann::json::parse(r.out);
    REQUIRE(j["workloads"].size() == 1);
    CHECK(j["workloads"][0]["status"] == "Admitted");

    // A memory string Kueue cannot read, through the CLI: file:line:col, exit 1.
    std::string text = qf_test::read_text(sample);
    text.replace(text.find("memory: 1g"), 10, "memory: 1G");
    qf_test::write_text(tmp.path / "spark.yaml", text);
    auto e = qf_test::run_cli("simulate " + qf_test::shell_quote((tmp.path / "queues.yaml").string()) + " " +
                              qf_test::shell_quote((tmp.path / "spark.yaml").string()));
    INFO(e.out << e.err);
    CHECK(e.exit == 1);
    CHECK((e.out + e.err).find("spark.yaml:21:") != std::string::npos);
}
