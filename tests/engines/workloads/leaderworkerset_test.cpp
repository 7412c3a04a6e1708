// Tests for compiler/engines/workloads/leaderworkerset.cpp: LeaderWorkerSets
// turned into the Workloads Kueue creates, one per group. The tables are
// translated from Kueue ff69552e79ad21652c36caa97038382e55625cf7,
// pkg/controller/jobs/leaderworkerset/leaderworkerset_reconciler_test.go
// (TestReconciler, the rows that construct Workloads) and
// leaderworkerset_webhook_test.go (TestValidateCreate); Kueue's test wrapper
// (pkg/util/testingjobs/leaderworkerset MakeLeaderWorkerSet) gives replicas 1,
// size 1 and one worker container `c`. Kueue's GetWorkloadName appends a hash
// of the uid, which queueforge leaves out (workloads.hpp); expected values are
// restated here on purpose.
#include "workloads_util.hpp"

#include <queueforge/base/node_json.hpp>

#include <queueforge/engines/scheduler.hpp>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <functional>
#include <map>
#include <string>
#include <vector>

using namespace queueforge;
using namespace wl_test;

namespace {

// MakeLeaderWorkerSet("test-lws", ns).UID("test-lws"), queued to LocalQueue
// lq; `spec` replaces the default spec (replicas 1, size 1, one worker
// container `c`).
std::string lws(const std::string& spec = "", const std::string& extra_meta = "") {
    std::string s = "apiVersion: leaderworkerset.x-k8s.io/v1\nkind: LeaderWorkerSet\nmetadata:\n  name: test-lws\n"
                    "  namespace: default\n  uid: test-lws\n  labels: {kueue.x-k8s.io/queue-name: lq}\n" +
                    extra_meta;
    if (spec.empty())
        return s + "spec:\n  replicas: 1\n  leaderWorkerTemplate:\n    size: 1\n"
                   "    workerTemplate: {spec: {containers: [{name: c, image: pause}]}}\n";
    return s + spec;
}

const std::string kLeaderSize3 = R"(spec:
  replicas: REPLICAS
  leaderWorkerTemplate:
    size: 3
    leaderTemplate: {spec: {containers: [{name: leader, image: pause, resources: {requests: {cpu: 100m}}}]}}
    workerTemplate: {spec: {containers: [{name: c, image: pause, resources: {requests: {cpu: 200m}}}]}}
)";

std::string replicas(std::string spec, const std::string& n) {
    spec.replace(spec.find("REPLICAS"), 8, n);
    return spec;
}

std::string annotation(const Resource& wl, const std::string& key) { return str(wl.doc, {"metadata", "annotations", key}); }

// What every Workload of test-lws carries besides its podSets
// (constructWorkload, NewGroupWorkload).
void check_lws_metadata(const Resource& wl, int index) {
    CAPTURE(wl.ref.name, index);
    CHECK(wl.ref.name == "leaderworkerset-test-lws-" + std::to_string(index));
    CHECK(wl.ref.namespace_ == "default");
    CHECK(str(wl.doc, {"metadata", "labels", "kueue.x-k8s.io/job-uid"}) == "test-lws");
    CHECK(str(wl.doc, {"metadata", "ownerReferences", "0", "apiVersion"}) == "leaderworkerset.x-k8s.io/v1");
    CHECK(str(wl.doc, {"metadata", "ownerReferences", "0", "kind"}) == "LeaderWorkerSet");
    CHECK(str(wl.doc, {"metadata", "ownerReferences", "0", "name"}) == "test-lws");
    CHECK(str(wl.doc, {"metadata", "ownerReferences", "0", "uid"}) == "test-lws");
    CHECK(annotation(wl, "kueue.x-k8s.io/is-group-workload") == "true");
    CHECK(annotation(wl, "kueue.x-k8s.io/job-owner-gvk") == "leaderworkerset.x-k8s.io/v1, Kind=LeaderWorkerSet");
    CHECK(annotation(wl, "kueue.x-k8s.io/job-owner-name") == "test-lws");
    CHECK(annotation(wl, "kueue.x-k8s.io/component-workload-index") == std::to_string(index));
    CHECK(str(wl.doc, {"spec", "queueName"}) == "lq");
}

}  // namespace

// ---------------------------------------------------------------- TestReconciler

TEST_CASE("leaderworkerset: should create prebuilt workload (one group, podSet main)", "[leaderworkerset]") {
    Run r(lws());
    INFO(qf_test::messages(r.d));
    CHECK(r.d.all().empty());
    REQUIRE(r.out.size() == 1);
    check_lws_metadata(r.out[0], 0);
    CHECK(pod_sets(r.out[0]) == "main:1");
    CHECK(str(r.out[0].doc, {"spec", "podSets", "0", "template", "spec", "containers", "0", "image"}) == "pause");
    CHECK(num(r.out[0].doc, {"spec", "priority"}) == 0);
    CHECK(at(r.out[0].doc, {"spec", "priorityClassRef"}) == nullptr);
}

TEST_CASE("leaderworkerset: should create prebuilt workload with leader template", "[leaderworkerset]") {
    Run r(lws(replicas(kLeaderSize3, "1")));
    INFO(qf_test::messages(r.d));
    REQUIRE(r.out.size() == 1);
    check_lws_metadata(r.out[0], 0);
    CHECK(pod_sets(r.out[0]) == "leader:1 worker:2");
    CHECK(str(r.out[0].doc, {"spec", "podSets", "0", "template", "spec", "containers", "0", "name"}) == "leader");
    CHECK(str(r.out[0].doc, {"spec", "podSets", "1", "template", "spec", "containers", "0", "name"}) == "c");
}

TEST_CASE("leaderworkerset: should create prebuilt workloads with leader template (one per group)", "[leaderworkerset]") {
    Run r(lws(replicas(kLeaderSize3, "2")));
    INFO(qf_test::messages(r.d));
    REQUIRE(r.out.size() == 2);
    for (int i = 0; i < 2; ++i) {
        check_lws_metadata(r.out[i], i);
        CHECK(pod_sets(r.out[i]) == "leader:1 worker:2");
    }
}

TEST_CASE("leaderworkerset: custom annotations propagate to podSets, LWS-owned keys do not", "[leaderworkerset]") {
    Run r(lws(R"(spec:
  replicas: 1
  leaderWorkerTemplate:
    size: 3
    leaderTemplate:
      metadata:
        annotations: {custom-leader-annotation: leader-value, leaderworkerset.sigs.k8s.io/template-hash: "12345"}
        labels: {leaderworkerset.sigs.k8s.io/name: test-lws, leaderworkerset.sigs.k8s.io/group-index: "1"}
      spec: {containers: [{name: c, image: pause}]}
    workerTemplate:
      metadata:
        annotations: {custom-worker-annotation: worker-value, leaderworkerset.sigs.k8s.io/template-hash: "12345"}
        labels: {leaderworkerset.sigs.k8s.io/name: test-lws, leaderworkerset.sigs.k8s.io/group-index: "1"}
      spec: {containers: [{name: c, image: pause}]}
)"));
    INFO(qf_test::messages(r.d));
    REQUIRE(r.out.size() == 1);
    CHECK(pod_sets(r.out[0]) == "leader:1 worker:2");
    for (const auto& [i, role] : {std::pair{"0", "leader"}, std::pair{"1", "worker"}}) {
        CAPTURE(role);
        const Node* meta = at(r.out[0].doc, {"spec", "podSets", i, "template", "metadata"});
        REQUIRE(meta);
        const Node* ann = meta->find("annotations");
        const Node* labels = meta->find("labels");
        REQUIRE(ann);
        REQUIRE(labels);
        CHECK(ann->size() == 1);
        CHECK(str(*ann, {std::string("custom-") + role + "-annotation"}) == std::string(role) + "-value");
        CHECK(labels->size() == 1);
        CHECK(str(*labels, {"leaderworkerset.sigs.k8s.io/name"}) == "test-lws");
    }
}

TEST_CASE("leaderworkerset: topology annotations stay on the templates and become topology requests", "[leaderworkerset][tas]") {
    // The row "with required topology annotation" (TAS on, Kueue's default):
    // the leader has no pod index label, the workers the worker index.
    Run r(lws(R"(spec:
  leaderWorkerTemplate:
    size: 3
    leaderTemplate:
      metadata: {annotations: {kueue.x-k8s.io/podset-required-topology: cloud.com/block}}
      spec: {containers: [{name: c, image: pause}]}
    workerTemplate:
      metadata: {annotations: {kueue.x-k8s.io/podset-required-topology: cloud.com/block}}
      spec: {containers: [{name: c, image: pause}]}
)"));
    REQUIRE(r.out.size() == 1);
    CHECK(pod_sets(r.out[0]) == "leader:1 worker:2");
    for (const char* i : {"0", "1"}) {
        CHECK(str(r.out[0].doc, {"spec", "podSets", i, "template", "metadata", "annotations", "kueue.x-k8s.io/podset-required-topology"}) ==
              "cloud.com/block");
    }
    CHECK(to_json(*at(r.out[0].doc, {"spec", "podSets", "0", "topologyRequest"})).dump() == R"({"required":"cloud.com/block"})");
    CHECK(to_json(*at(r.out[0].doc, {"spec", "podSets", "1", "topologyRequest"})).dump() ==
          R"({"required":"cloud.com/block","podIndexLabel":"leaderworkerset.sigs.k8s.io/worker-index"})");
    CHECK(r.d.empty());
}

TEST_CASE("leaderworkerset: should create prebuilt workload with workload priority", "[leaderworkerset]") {
    const std::string cluster = yaml(kCluster) +
                                "---\napiVersion: kueue.x-k8s.io/v1beta2\nkind: WorkloadPriorityClass\n"
                                "metadata: {name: high-priority}\nvalue: 5000\n";
    std::string job = lws();
    job.replace(job.find("labels: {"), 9, "labels: {kueue.x-k8s.io/priority-class: high-priority, ");
    Run r(job, cluster);
    INFO(qf_test::messages(r.d));
    REQUIRE(r.out.size() == 1);
    check_lws_metadata(r.out[0], 0);
    CHECK(num(r.out[0].doc, {"spec", "priority"}) == 5000);
    CHECK(str(r.out[0].doc, {"spec", "priorityClassRef", "kind"}) == "WorkloadPriorityClass");
    CHECK(str(r.out[0].doc, {"spec", "priorityClassRef", "name"}) == "high-priority");
}

TEST_CASE("leaderworkerset: a missing workload priority class creates no Workloads", "[leaderworkerset]") {
    // Kueue emits WorkloadPriorityClassNotFound once per group (the reconciler
    // resolves the class per component); queueforge reports it once.
    std::string job = lws(replicas(kLeaderSize3, "2"));
    job.replace(job.find("labels: {"), 9, "labels: {kueue.x-k8s.io/priority-class: missing-wpc, ");
    Run r(job);
    CHECK(r.out.empty());
    REQUIRE(r.count("jobs.priority-class-not-found") == 1);
    CHECK(r.first("jobs.priority-class-not-found")->message.find("\"missing-wpc\" not found") != std::string::npos);
    CHECK_FALSE(r.d.has_errors());
}

TEST_CASE("leaderworkerset: surge groups of a rolling update get Workloads only while it is under way", "[leaderworkerset]") {
    const std::string rollout = "  rolloutStrategy: {rollingUpdateConfiguration: {maxSurge: 1}}\n";
    const std::string tmpl = "  leaderWorkerTemplate:\n    workerTemplate: {spec: {containers: [{name: c, image: pause}]}}\n";
    SECTION("should delete excess workload on scale down with maxSurge configured but no active rolling update") {
        Run r(lws("spec:\n  replicas: 1\n" + tmpl + rollout + "status: {replicas: 2, updatedReplicas: 1}\n"));
        INFO(qf_test::messages(r.d));
        REQUIRE(r.out.size() == 1);
        CHECK(r.out[0].ref.name == "leaderworkerset-test-lws-0");
    }
    SECTION("should keep surge workloads during active rolling update with maxSurge") {
        Run r(lws("spec:\n  replicas: 2\n" + tmpl + rollout + "status: {replicas: 3, updatedReplicas: 1}\n"));
        INFO(qf_test::messages(r.d));
        REQUIRE(r.out.size() == 3);
        for (int i = 0; i < 3; ++i) check_lws_metadata(r.out[i], i);
    }
    SECTION("without maxSurge status.replicas above spec.replicas is a scale-down: spec.replicas counts") {
        Run r(lws("spec:\n  replicas: 2\n" + tmpl + "status: {replicas: 3, updatedReplicas: 1}\n"));
        CHECK(r.out.size() == 2);
    }
    SECTION("a percentage maxSurge is 0 to Kueue's IntValue") {
        Run r(lws("spec:\n  replicas: 2\n" + tmpl + "  rolloutStrategy: {rollingUpdateConfiguration: {maxSurge: 50%}}\n" +
                  "status: {replicas: 3, updatedReplicas: 1}\n"));
        CHECK(r.out.size() == 2);
    }
}

// ---------------------------------------------------------------- podSets (leaderworkerset_reconciler.go podSets)

TEST_CASE("leaderworkerset: size 1 with a leader template keeps the worker podSet at count 0", "[leaderworkerset]") {
    // podSets() appends the worker podSet unconditionally, with size - 1 pods.
    Run r(lws(R"(spec:
  leaderWorkerTemplate:
    size: 1
    leaderTemplate: {spec: {containers: [{name: leader, image: pause}]}}
    workerTemplate: {spec: {containers: [{name: c, image: pause}]}}
)"));
    INFO(qf_test::messages(r.d));
    REQUIRE(r.out.size() == 1);
    CHECK(pod_sets(r.out[0]) == "leader:1 worker:0");
    std::string what;
    CHECK(schema_errors(r.out, &what) == 0);
    INFO(what);
}

TEST_CASE("leaderworkerset: replicas and size default to 1, replicas 0 creates no Workload", "[leaderworkerset]") {
    {
        Run r(lws("spec:\n  leaderWorkerTemplate:\n    workerTemplate: {spec: {containers: [{name: c}]}}\n"));
        REQUIRE(r.out.size() == 1);
        CHECK(pod_sets(r.out[0]) == "main:1");
        CHECK(r.out[0].ref.name == "leaderworkerset-test-lws-0");
    }
    {
        Run r(lws("spec:\n  replicas: 0\n  leaderWorkerTemplate:\n    size: 4\n    workerTemplate: {spec: {containers: [{name: c}]}}\n"));
        CHECK(r.out.empty());
        CHECK_FALSE(r.d.has_errors());
    }
    {
        Run r(lws("spec:\n  replicas: 3\n  leaderWorkerTemplate:\n    size: 4\n    workerTemplate: {spec: {containers: [{name: c}]}}\n"));
        REQUIRE(r.out.size() == 3);
        for (const auto& w : r.out) CHECK(pod_sets(w) == "main:4");
    }
}

TEST_CASE("leaderworkerset: the priority class of the leader template comes first", "[leaderworkerset]") {
    // extractPriorityFromPodSets: the first podSet naming a priorityClassName.
    Run r(lws(R"(spec:
  leaderWorkerTemplate:
    size: 2
    leaderTemplate: {spec: {priorityClassName: pod-high, containers: [{name: leader}]}}
    workerTemplate: {spec: {priorityClassName: pod-low, containers: [{name: c}]}}
)"));
    REQUIRE(r.out.size() == 1);
    CHECK(num(r.out[0].doc, {"spec", "priority"}) == 5000);
    CHECK(str(r.out[0].doc, {"spec", "priorityClassRef", "name"}) == "pod-high");
}

TEST_CASE("leaderworkerset: queue defaulting, generateName and long names", "[leaderworkerset]") {
    {
        // No label: the namespace's LocalQueue `default` (ApplyDefaultLocalQueue).
        std::string job = lws();
        job.replace(job.find("namespace: default"), 18, "namespace: team-a");
        job.replace(job.find("  labels: {kueue.x-k8s.io/queue-name: lq}\n"), 42, "");
        Run r(job);
        REQUIRE(r.out.size() == 1);
        CHECK(str(r.out[0].doc, {"spec", "queueName"}) == "default");
    }
    {
        // The longest name the LWS webhook takes (63) leaves the group
        // Workloads' names apart, well within 253 characters.
        std::string job = lws(replicas(kLeaderSize3, "2"));
        const std::string long_name(63, 'a');
        job.replace(job.find("name: test-lws"), 14, "name: " + long_name);
        Run r(job);
        INFO(qf_test::messages(r.d));
        REQUIRE(r.out.size() == 2);
        CHECK(r.out[0].ref.name == "leaderworkerset-" + long_name + "-0");
        CHECK(r.out[1].ref.name == "leaderworkerset-" + long_name + "-1");
    }
}

// ---------------------------------------------------------------- TestValidateCreate and bad input

TEST_CASE("leaderworkerset: the webhooks' refusals are positioned jobs.invalid errors", "[leaderworkerset]") {
    struct Case {
        const char* name;
        std::string job;
        std::string path;
        std::string message;
        int line;
    };
    const std::string worker = "    workerTemplate: {spec: {containers: [{name: c}]}}\n";
    const std::vector<Case> cases = {
        {"negative replicas", lws("spec:\n  replicas: -1\n  leaderWorkerTemplate:\n" + worker), "spec.replicas",
         "spec.replicas: Invalid value: -1: invalid LeaderWorkerSet replicas: must be >= 0, got -1", 9},
        {"replicas above maximum", lws("spec:\n  replicas: 1000001\n  leaderWorkerTemplate:\n" + worker), "spec.replicas",
         "spec.replicas: Invalid value: 1000001: invalid LeaderWorkerSet replicas: must be <= 1000000, got 1000001", 9},
        {"invalid queue name", [&] {
             std::string j = lws();
             j.replace(j.find("queue-name: lq"), 14, "queue-name: test/queue");
             return j;
         }(),
         "metadata.labels[kueue.x-k8s.io/queue-name]", "Invalid value: \"test/queue\"", 7},
        {"size 0", lws("spec:\n  leaderWorkerTemplate:\n    size: 0\n" + worker), "spec.leaderWorkerTemplate.size",
         "spec.leaderWorkerTemplate.size: Invalid value: 0: size must be equal or greater than 1", 10},
        {"negative size", lws("spec:\n  leaderWorkerTemplate:\n    size: -3\n" + worker), "spec.leaderWorkerTemplate.size",
         "Invalid value: -3: size must be equal or greater than 1", 10},
        {"replicas times size past int32", lws("spec:\n  replicas: 1000000\n  leaderWorkerTemplate:\n    size: 3000\n" + worker),
         "spec.replicas", "the product of replicas and worker replicas must not exceed 2147483647", 9},
        {"replicas not an integer", lws("spec:\n  replicas: two\n  leaderWorkerTemplate:\n" + worker), "spec.replicas",
         "must be an integer (int32)", 9},
        {"no spec", lws("spec: null\n"), "spec", "Required value", 1},
        {"no leaderWorkerTemplate", lws("spec:\n  replicas: 2\n"), "spec.leaderWorkerTemplate", "Required value", 9},
        {"leaderWorkerTemplate not a map", lws("spec:\n  leaderWorkerTemplate: [a]\n"), "spec.leaderWorkerTemplate", "must be a map", 9},
        {"no workerTemplate", lws("spec:\n  leaderWorkerTemplate:\n    size: 2\n"), "spec.leaderWorkerTemplate.workerTemplate",
         "Required value: the pod template is missing", 10},
        {"leaderTemplate not a map", lws("spec:\n  leaderWorkerTemplate:\n    leaderTemplate: x\n" + worker),
         "spec.leaderWorkerTemplate.leaderTemplate", "must be a pod template (a map), got a", 10},
        {"workerTemplate spec not a map", lws("spec:\n  leaderWorkerTemplate:\n    workerTemplate: {spec: [x]}\n"),
         "spec.leaderWorkerTemplate.workerTemplate.spec", "must be a pod spec (a map)", 10},
        {"name longer than a DNS-1035 label", [&] {
             std::string j = lws(replicas(kLeaderSize3, "2"));
             j.replace(j.find("name: test-lws"), 14, "name: " + std::string(250, 'a'));
             return j;
         }(),
         "metadata.name", "must be no more than 63 characters", 4},
        {"name starting with a digit", [&] {
             std::string j = lws();
             j.replace(j.find("name: test-lws"), 14, "name: 1lws");
             return j;
         }(),
         "metadata.name", "Invalid value: \"1lws\": a DNS-1035 label must consist of", 4},
        {"elastic job", lws("", "  annotations: {kueue.x-k8s.io/elastic-job: \"true\"}\n"), "metadata.annotations[kueue.x-k8s.io/elastic-job]",
         "Forbidden: elastic job is not supported for leaderworkerset.x-k8s.io/v1, Kind=LeaderWorkerSet", 8},
    };
    for (const auto& c : cases) {
        CAPTURE(c.name, c.job);
        Run r(c.job);
        INFO(qf_test::messages(r.d));
        CHECK(r.out.empty());
        const Diagnostic* e = r.first("jobs.invalid");
        REQUIRE(e);
        CHECK(e->severity == Severity::Error);
        CHECK(e->path == c.path);
        CHECK(e->message.find(c.message) != std::string::npos);
        CHECK(e->file == "jobs.yaml");
        if (c.line != 1) CHECK(e->mark.line == c.line);
        CHECK(e->mark.line > 0);
        CHECK(e->mark.col > 0);
    }
}

TEST_CASE("leaderworkerset: through simulate, the CLI reports bad input at file:line:col and exits 1", "[leaderworkerset]") {
    qf_test::TempDir tmp;
    qf_test::write_text(tmp.path / "lws.yaml", lws("spec:\n  replicas: -2\n  leaderWorkerTemplate:\n    size: 2\n"
                                                   "    workerTemplate: {spec: {containers: [{name: c}]}}\n"));
    auto r = qf_test::run_cli("simulate " + qf_test::shell_quote((tmp.path / "lws.yaml").string()));
    INFO(r.out << r.err);
    CHECK(r.exit == 1);
    CHECK((r.out + r.err).find("lws.yaml:9:") != std::string::npos);
    CHECK((r.out + r.err).find("spec.replicas") != std::string::npos);
}

// ---------------------------------------------------------------- Kueue's sample

namespace {

// A ClusterQueue with `cpu` of quota behind LocalQueue user-queue in `default`.

}  // namespace

TEST_CASE("leaderworkerset: Kueue's serving sample converts and simulates, one Workload per group", "[leaderworkerset]") {
    auto shared = qf_test::shared_dir();
    if (!shared) {
        WARN("skipped: ../shared (Kueue's samples, upstream/kueue-examples/serving-workloads) is not beside this checkout");
        return;
    }
    const auto sample = *shared / "upstream/kueue-examples/serving-workloads/sample-leaderworkerset.yaml";
    REQUIRE(std::filesystem::exists(sample));
    // replicas 2, size 3: per group a leader (cpu 100m) and two workers (cpu 200m each).
    for (const auto& [quota, admitted] : {std::pair{std::string("1"), 2}, std::pair{std::string("900m"), 1}}) {
        CAPTURE(quota);
        Run r(qf_test::read_text(sample), user_queue_cluster(quota));
        INFO(qf_test::messages(r.d));
        CHECK(r.d.all().empty());
        REQUIRE(r.out.size() == 2);
        CHECK(r.out[0].ref.name == "leaderworkerset-nginx-leaderworkerset-0");
        CHECK(r.out[1].ref.name == "leaderworkerset-nginx-leaderworkerset-1");
        for (const auto& w : r.out) CHECK(pod_sets(w) == "leader:1 worker:2");
        std::string what;
        CHECK(schema_errors(r.out, &what) == 0);
        INFO(what);

        std::vector<Resource> all = r.cluster.resources;
        for (auto& w : r.out) {
            w.doc.find("metadata")->set("creationTimestamp", Node::string("2026-01-01T00:00:00Z"));
            all.push_back(w);
        }
        Diagnostics sd;
        auto result = scheduler::simulate(all, {}, sd);
        INFO(qf_test::messages(sd));
        CHECK_FALSE(sd.has_errors());
        REQUIRE(result.workloads.size() == 2);
        int n = 0;
        for (const auto& w : result.workloads) {
            n += w.admitted;
            CHECK(w.cluster_queue == "cluster-queue");
            if (w.admitted) {
                REQUIRE(w.assignments.size() == 2);
                CHECK(w.assignments[0].resource_usage.at("cpu") == "100m");
                CHECK(w.assignments[1].resource_usage.at("cpu") == "400m");
            }
        }
        CHECK(n == admitted);
    }
}

TEST_CASE("leaderworkerset: queueforge simulate takes the sample with the queues, schema-checked", "[leaderworkerset]") {
    auto shared = qf_test::shared_dir();
    if (!shared) {
        WARN("skipped: ../shared (Kueue's samples, upstream/kueue-examples/serving-workloads) is not beside this checkout");
        return;
    }
    qf_test::TempDir tmp;
    qf_test::write_text(tmp.path / "queues.yaml", user_queue_cluster("900m"));
    const auto sample = *shared / "upstream/kueue-examples/serving-workloads/sample-leaderworkerset.yaml";
    auto r = qf_test::run_cli("simulate -o json " + qf_test::shell_quote((tmp.path / "queues.yaml").string()) + " " +
                              qf_test::shell_quote(sample.string()));
    INFO(r.out << r.err);
    REQUIRE(r.exit == 0);
    auto j = nlohmann::json::parse(r.out);
    REQUIRE(j["workloads"].size() == 2);
    std::map<std::string, std::string> status;
    for (const auto& w : j["workloads"]) status[w["name"].get<std::string>()] = w["status"].get<std::string>();
    CHECK(status["leaderworkerset-nginx-leaderworkerset-0"] == "Admitted");
    CHECK(status["leaderworkerset-nginx-leaderworkerset-1"] == "Pending");
}

TEST_CASE("leaderworkerset: more groups than the simulator takes are skipped with a warning", "[leaderworkerset]") {
    const std::string worker = "  leaderWorkerTemplate:\n    workerTemplate: {spec: {containers: [{name: c}]}}\n";
    {
        Run r(lws("spec:\n  replicas: 10000\n" + worker));
        CHECK(r.out.size() == 10000);
        CHECK(r.d.all().empty());
    }
    {
        Run r(lws("spec:\n  replicas: 10001\n" + worker));
        CHECK(r.out.empty());
        REQUIRE(r.count("jobs.unsupported") == 1);
        const Diagnostic* w = r.first("jobs.unsupported");
        CHECK(w->severity == Severity::Warning);
        CHECK(w->mark.line == 9);
        CHECK(w->message.find("10001 groups are not converted") != std::string::npos);
        CHECK_FALSE(r.d.has_errors());
    }
    {
        // Surge groups count too.
        Run r(lws("spec:\n  replicas: 2\n" + worker + "  rolloutStrategy: {rollingUpdateConfiguration: {maxSurge: 1}}\n" +
                  "status: {replicas: 20000, updatedReplicas: 0}\n"));
        CHECK(r.out.empty());
        CHECK(r.count("jobs.unsupported") == 1);
    }
}

TEST_CASE("leaderworkerset: any field of Kueue's LWS samples replaced by junk gives positioned findings, never a crash",
          "[leaderworkerset]") {
    auto shared = qf_test::shared_dir();
    if (!shared) {
        WARN("skipped: ../shared (Kueue's samples, upstream/kueue-examples/serving-workloads) is not beside this checkout");
        return;
    }
    LoadedResources cluster;
    Diagnostics d0;
    load_resources_from_text("cluster.yaml", user_queue_cluster("1"), cluster, d0);
    const auto ctx = workloads::cluster_context(cluster.resources);
    const Node junk[] = {Node::null_value(), Node::string("x"), Node::integer(-1), Node::integer(0), Node::sequence(), Node::mapping()};
    // Every path to a node of the document.
    std::function<void(const Node&, std::vector<std::string>&, std::vector<std::vector<std::string>>&)> paths =
        [&](const Node& n, std::vector<std::string>& prefix, std::vector<std::vector<std::string>>& out) {
            out.push_back(prefix);
            if (n.is_map())
                for (const auto& e : n.entries()) {
                    prefix.push_back(e.key);
                    paths(e.value, prefix, out);
                    prefix.pop_back();
                }
            else if (n.is_seq())
                for (std::size_t i = 0; i < n.items().size(); ++i) {
                    prefix.push_back(std::to_string(i));
                    paths(n.items()[i], prefix, out);
                    prefix.pop_back();
                }
        };
    std::size_t variants = 0;
    for (const char* file : {"sample-leaderworkerset.yaml", "sample-leaderworkerset-tas.yaml"}) {
        const auto path = *shared / "upstream/kueue-examples/serving-workloads" / file;
        LoadedResources in;
        Diagnostics d;
        load_resources_from_text(path.string(), qf_test::read_text(path), in, d);
        REQUIRE(in.resources.size() == 1);
        std::vector<std::vector<std::string>> all;
        std::vector<std::string> prefix;
        paths(in.resources[0].doc, prefix, all);
        for (const auto& p : all) {
            if (p.empty() || p.front() == "apiVersion" || p.front() == "kind") continue;
            for (const auto& j : junk) {
                std::vector<Resource> one = in.resources;
                Node* n = &one[0].doc;
                for (const auto& k : p) n = n->is_seq() ? &n->items()[std::stoul(k)] : n->find(k);
                *n = j;
                Diagnostics dd;
                auto out = workloads::workloads_from_jobs(one, ctx, dd);
                CHECK(out.size() <= 2);
                for (const auto& x : dd.all()) {
                    CHECK_FALSE(x.rule.empty());
                    CHECK(x.mark.line > 0);
                }
                // No Workload, then something says why, unless there are no groups.
                std::string where;
                for (const auto& k : p) where += "/" + k;
                CAPTURE(file, where, j.text());
                if (out.empty() && !(where == "/spec/replicas" && j.as_int() == 0)) CHECK_FALSE(dd.all().empty());
                ++variants;
            }
        }
    }
    INFO("variants: " << variants);
    CHECK(variants > 300);
}
