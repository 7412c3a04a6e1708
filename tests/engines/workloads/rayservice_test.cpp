// Tests for compiler/engines/workloads/rayservice.cpp: a RayService turned into
// the Workload of its cluster. Rows translated from Kueue
// ff69552e79ad21652c36caa97038382e55625cf7,
// pkg/controller/jobs/rayservice/rayservice_controller_test.go (TestPodSets:
// "no annotations", "with NumOfHosts > 1", "with gcs fault tolerance") and
// rayservice_webhook_test.go; Kueue's own sample
// (kueue-examples/jobs/ray-service-sample.yaml) simulated at its quota
// boundary. Kueue's unit tests build objects without the API server, so a
// worker group without replicas counts 1 there; through the KubeRay CRD's
// default it is 0 here (and jobs.ray-replicas says so), so the rows give
// replicas explicitly. Expected values are restated here on purpose.
#include "workloads_util.hpp"

#include <queueforge/engines/scheduler.hpp>

#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

using namespace queueforge;
using namespace wl_test;

namespace {

std::string rs(const std::string& cluster, const std::string& annotations = "") {
    return "apiVersion: ray.io/v1\nkind: RayService\nmetadata:\n  name: rayservice\n  namespace: default\n"
           "  labels: {kueue.x-k8s.io/queue-name: lq}\n" +
           (annotations.empty() ? std::string() : "  annotations: " + annotations + "\n") +
           "spec:\n  serveConfigV2: |\n    applications: []\n  rayClusterConfig:\n" + cluster;
}

const std::string kNoAnnotations = R"(    headGroupSpec:
      template: {spec: {containers: [{name: head-c, resources: {requests: {cpu: "1"}}}]}}
    workerGroupSpecs:
    - groupName: group1
      replicas: 1
      template: {spec: {containers: [{name: group1-c, resources: {requests: {cpu: 500m}}}]}}
    - groupName: group2
      replicas: 3
      template: {spec: {containers: [{name: group2-c}]}}
)";

}  // namespace

TEST_CASE("rayservice: no annotations (TestPodSets): head then one podSet per worker group", "[rayservice]") {
    Run r(rs(kNoAnnotations));
    INFO(qf_test::messages(r.d));
    CHECK(r.d.all().empty());
    REQUIRE(r.out.size() == 1);
    CHECK(r.out[0].ref.name == "rayservice-rayservice");
    CHECK(pod_sets(r.out[0]) == "head:1 group1:1 group2:3");
    CHECK(str(r.out[0].doc, {"spec", "podSets", "1", "template", "spec", "containers", "0", "resources", "requests", "cpu"}) == "500m");
    std::string what;
    CHECK(schema_errors(r.out, &what) == 0);
    INFO(what);
}

TEST_CASE("rayservice: with NumOfHosts > 1 (TestPodSets): replicas x numOfHosts", "[rayservice]") {
    Run r(rs(R"(    headGroupSpec:
      template: {spec: {containers: [{name: head-c}]}}
    workerGroupSpecs:
    - groupName: group1
      replicas: 2
      numOfHosts: 3
      template: {spec: {containers: [{name: group1-c}]}}
)"));
    REQUIRE(r.out.size() == 1);
    CHECK(pod_sets(r.out[0]) == "head:1 group1:6");
}

TEST_CASE("rayservice: with gcs fault tolerance (TestPodSets): the head's Ray container is raised for the Redis cleanup", "[rayservice]") {
    Run r(rs(R"(    gcsFaultToleranceOptions: {redisAddress: "redis:6379"}
    headGroupSpec:
      template:
        metadata: {labels: {ray.io/cluster: rayservice}}
        spec: {containers: [{name: head-c, image: "rayproject/ray:2.0.0"}]}
    workerGroupSpecs:
    - groupName: group1
      replicas: 1
      template: {spec: {containers: [{name: group1-c}]}}
)"));
    REQUIRE(r.out.size() == 1);
    const Resource& wl = r.out[0];
    CHECK(pod_sets(wl) == "head:1 group1:1");
    CHECK(str(wl.doc, {"spec", "podSets", "0", "template", "spec", "containers", "0", "resources", "requests", "cpu"}) == "200m");
    CHECK(str(wl.doc, {"spec", "podSets", "0", "template", "spec", "containers", "0", "resources", "requests", "memory"}) == "256Mi");
}

TEST_CASE("rayservice: autoscaling needs the elastic-job annotation, which RayService accepts", "[rayservice]") {
    std::string cluster = "    enableInTreeAutoscaling: true\n" + kNoAnnotations;
    {
        Run r(rs(cluster));
        CHECK(r.out.empty());
        const Diagnostic* e = r.first("jobs.invalid");
        REQUIRE(e);
        CHECK(e->path == "spec.rayClusterConfig.enableInTreeAutoscaling");
        CHECK(e->mark.line == 11);
    }
    {
        Run r(rs(cluster, "{kueue.x-k8s.io/elastic-job: \"true\"}"));
        INFO(qf_test::messages(r.d));
        CHECK_FALSE(r.d.has_errors());
        REQUIRE(r.out.size() == 1);
        CHECK(str(r.out[0].doc, {"metadata", "annotations", "kueue.x-k8s.io/elastic-job"}) == "true");
    }
}

TEST_CASE("rayservice: bad input gives positioned jobs.invalid errors", "[rayservice]") {
    struct Case {
        std::string text, path, words;
        int line;
    };
    const Case cases[] = {
        {"apiVersion: ray.io/v1\nkind: RayService\nmetadata: {name: s, labels: {kueue.x-k8s.io/queue-name: lq}}\nspec:\n  serveConfigV2: x\n",
         "spec.rayClusterConfig", "Required value", 5},
        {"apiVersion: ray.io/v1\nkind: RayService\nmetadata: {name: s, labels: {kueue.x-k8s.io/queue-name: lq}}\nspec:\n  rayClusterConfig: 7\n",
         "spec.rayClusterConfig", "must be a map", 5},
        {rs("    workerGroupSpecs: []\n"), "spec.rayClusterConfig.headGroupSpec", "Required value", 11},
        {rs(R"(    headGroupSpec:
      template: {spec: {containers: [{name: head-c}]}}
    workerGroupSpecs:
    - groupName: group1
      replicas: -2
      template: {spec: {containers: [{name: group1-c}]}}
)"),
         "spec.rayClusterConfig.workerGroupSpecs[0].replicas", "", 15},
    };
    for (const auto& c : cases) check_invalid(c.text, c.path, c.words, c.line);
}

TEST_CASE("rayservice: Kueue's sample converts and simulates at its quota boundary", "[rayservice]") {
    auto shared = qf_test::shared_dir();
    if (!shared) {
        WARN("skipped: ../shared (Kueue's samples, upstream/kueue-examples/jobs) is not beside this checkout");
        return;
    }
    const auto sample = *shared / "upstream/kueue-examples/jobs/ray-service-sample.yaml";
    REQUIRE(std::filesystem::exists(sample));
    // head cpu 2 + one small-group worker cpu 1: 3 cpus.
    for (const auto& [quota, admitted] : {std::pair{std::string("3"), true}, std::pair{std::string("2900m"), false}}) {
        CAPTURE(quota);
        Run r(qf_test::read_text(sample), user_queue_cluster(quota, "100Gi"));
        INFO(qf_test::messages(r.d));
        CHECK_FALSE(r.d.has_errors());
        REQUIRE(r.out.size() == 1);
        CHECK(r.out[0].ref.name == "rayservice-test-rayservice");
        CHECK(pod_sets(r.out[0]) == "head:1 small-group:1");
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

TEST_CASE("rayservice: queueforge simulate takes Kueue's sample, schema-checked", "[rayservice]") {
    auto shared = qf_test::shared_dir();
    if (!shared) {
        WARN("skipped: ../shared (Kueue's samples) is not beside this checkout");
        return;
    }
    qf_test::TempDir tmp;
    qf_test::write_text(tmp.path / "queues.yaml", user_queue_cluster("3", "100Gi"));
    const auto sample = *shared / "upstream/kueue-examples/jobs/ray-service-sample.yaml";
    auto r = qf_test::run_cli("simulate -o json " + qf_test::shell_quote((tmp.path / "queues.yaml").string()) + " " +
                              qf_test::shell_quote(sample.string()));
    INFO(r.out << r.err);
    REQUIRE(r.exit == 0);
    auto j = nlohmann::json::parse(r.out);
    REQUIRE(j["workloads"].size() == 1);
    CHECK(j["workloads"][0]["name"] == "rayservice-test-rayservice");
    CHECK(j["workloads"][0]["status"] == "Admitted");
}
