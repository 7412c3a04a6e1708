// Tests for compiler/engines/workloads/statefulset.cpp: StatefulSets turned
// into the one Workload Kueue creates for their pods. The rows are translated
// from Kueue ff69552e79ad21652c36caa97038382e55625cf7,
// pkg/controller/jobs/statefulset/statefulset_reconciler_test.go (TestReconciler,
// the rows that create or do not create a Workload) and TestHandle; Kueue's
// test wrapper (pkg/util/testingjobs/statefulset MakeStatefulSet) gives no
// replicas (1), selector and template label app: <name>-pod and one container
// `c`. Kueue's GetWorkloadName appends a hash of the uid, which queueforge
// leaves out (workloads.hpp); expected values are restated here on purpose.
#include "workloads_util.hpp"

#include <queueforge/base/node_json.hpp>

#include <queueforge/engines/scheduler.hpp>

#include <catch2/catch.hpp>

#include <string>
#include <vector>

using namespace queueforge;
using namespace wl_test;

namespace {

// MakeStatefulSet("sts", "default").UID("sts-uid"), queued to LocalQueue lq
// (`labels` replaces the metadata labels, `spec_extra` goes into the spec,
// `tmpl_meta` into the template's metadata).
std::string sts(const std::string& spec_extra = "", const std::string& tmpl_meta = "",
                const std::string& labels = "{kueue.x-k8s.io/queue-name: lq}") {
    return "apiVersion: apps/v1\nkind: StatefulSet\nmetadata:\n  name: sts\n  namespace: default\n  uid: sts-uid\n"
           "  labels: " +
           labels + "\nspec:\n" + spec_extra +
           "  selector: {matchLabels: {app: sts-pod}}\n"
           "  template:\n    metadata:\n      labels: {app: sts-pod}\n" +
           tmpl_meta +
           "    spec:\n      containers: [{name: c, image: pause, resources: {requests: {cpu: 250m}}}]\n      nodeSelector: {}\n";
}

}  // namespace

TEST_CASE("statefulset: should create workload when replicas > 0 and workload doesn't exist", "[statefulset]") {
    Run r(sts());
    INFO(qf_test::messages(r.d));
    CHECK(r.d.all().empty());
    REQUIRE(r.out.size() == 1);
    const Resource& wl = r.out[0];
    CHECK(wl.ref.name == "statefulset-sts");
    CHECK(str(wl.doc, {"metadata", "labels", "kueue.x-k8s.io/job-uid"}) == "sts-uid");
    CHECK(str(wl.doc, {"metadata", "ownerReferences", "0", "apiVersion"}) == "apps/v1");
    CHECK(str(wl.doc, {"metadata", "ownerReferences", "0", "kind"}) == "StatefulSet");
    CHECK(str(wl.doc, {"metadata", "ownerReferences", "0", "name"}) == "sts");
    CHECK(str(wl.doc, {"metadata", "annotations", "kueue.x-k8s.io/is-group-workload"}) == "true");
    CHECK(str(wl.doc, {"metadata", "annotations", "kueue.x-k8s.io/job-owner-gvk"}) == "apps/v1, Kind=StatefulSet");
    CHECK(str(wl.doc, {"metadata", "annotations", "kueue.x-k8s.io/job-owner-name"}) == "sts");
    CHECK(at(wl.doc, {"metadata", "annotations", "kueue.x-k8s.io/component-workload-index"}) == nullptr);
    CHECK(str(wl.doc, {"spec", "queueName"}) == "lq");
    CHECK(num(wl.doc, {"spec", "priority"}) == 0);
    CHECK(pod_sets(wl) == "main:1");
    // Template: the pod spec only (PodTemplateSpec{Spec: ...}).
    CHECK(at(wl.doc, {"spec", "podSets", "0", "template", "metadata"}) == nullptr);
    CHECK(str(wl.doc, {"spec", "podSets", "0", "template", "spec", "containers", "0", "resources", "requests", "cpu"}) == "250m");
    std::string what;
    CHECK(schema_errors(r.out, &what) == 0);
    INFO(what);
}

TEST_CASE("statefulset: count is spec.replicas", "[statefulset]") {
    Run r(sts("  replicas: 3\n"));
    REQUIRE(r.out.size() == 1);
    CHECK(pod_sets(r.out[0]) == "main:3");
}

TEST_CASE("statefulset: should not create workload when replicas == 0", "[statefulset]") {
    Run r(sts("  replicas: 0\n"));
    CHECK(r.out.empty());
    CHECK(r.d.all().empty());
}

TEST_CASE("statefulset: should not create workload when queue name is empty", "[statefulset]") {
    Run r(sts("", "", "{app: x}"));
    CHECK(r.out.empty());
    CHECK(r.count("jobs.no-queue") == 1);
}

TEST_CASE("statefulset: should report a missing workload priority class and create no workload", "[statefulset]") {
    Run r(sts("", "", "{kueue.x-k8s.io/queue-name: lq, kueue.x-k8s.io/priority-class: missing-wpc}"));
    CHECK(r.out.empty());
    REQUIRE(r.count("jobs.priority-class-not-found") == 1);
    CHECK(r.first("jobs.priority-class-not-found")->message.find("\"missing-wpc\" not found") != std::string::npos);
}

TEST_CASE("statefulset: a TAS annotation becomes the podSet's topology request", "[statefulset][tas]") {
    // Row "should create workload with TAS topology request when TAS enabled":
    // the template's annotation (the podSet template keeps only the spec)
    // with apps.kubernetes.io/pod-index as the pod index label.
    Run r(sts("", "      annotations: {kueue.x-k8s.io/podset-required-topology: cloud.com/block}\n"));
    REQUIRE(r.out.size() == 1);
    const Node* t = at(r.out[0].doc, {"spec", "podSets", "0", "topologyRequest"});
    REQUIRE(t);
    CHECK(to_json(*t).dump() == R"({"required":"cloud.com/block","podIndexLabel":"apps.kubernetes.io/pod-index"})");
    CHECK(t->find("required")->mark().line == 13);  // the annotation's position
    CHECK(r.d.empty());
    // A slice size on a StatefulSet is checked by the Pods' webhook, without
    // the bound against the replicas.
    Run bad(sts("", "      annotations: {kueue.x-k8s.io/podset-slice-size: \"2\"}\n"));
    CHECK(bad.out.empty());
    REQUIRE(bad.count("jobs.invalid") == 1);
    CHECK(bad.first("jobs.invalid")->message.find("spec.template.metadata.annotations[kueue.x-k8s.io/podset-slice-size]: Forbidden: "
                                                  "may not be set when 'kueue.x-k8s.io/podset-slice-required-topology' is not specified") !=
          std::string::npos);
    CHECK(bad.first("jobs.invalid")->mark.line == 13);
}

TEST_CASE("statefulset: managed by another framework (TestHandle): no Workload of its own", "[statefulset]") {
    Run r(sts("", "      annotations: {kueue.x-k8s.io/pod-suspending-parent: leaderworkerset.x-k8s.io/leaderworkerset}\n"));
    CHECK(r.out.empty());
    REQUIRE(r.count("jobs.not-managed") == 1);
    CHECK(r.first("jobs.not-managed")->mark.line == 13);
    CHECK_FALSE(r.d.has_errors());
    // Its own framework's mark (what Kueue's webhook writes) is no obstacle.
    Run own(sts("", "      annotations: {kueue.x-k8s.io/pod-suspending-parent: statefulset}\n"));
    CHECK(own.out.size() == 1);
}

TEST_CASE("statefulset: bad input gives positioned jobs.invalid errors", "[statefulset]") {
    {
        Run r(sts("  replicas: -1\n"));
        CHECK(r.out.empty());
        const Diagnostic* e = r.first("jobs.invalid");
        REQUIRE(e);
        CHECK(e->path == "spec.replicas");
        CHECK(e->message.find("must be greater than or equal to 0, got -1") != std::string::npos);
        CHECK(e->mark.line == 9);
    }
    {
        Run r("apiVersion: apps/v1\nkind: StatefulSet\nmetadata: {name: s, labels: {kueue.x-k8s.io/queue-name: lq}}\n"
              "spec:\n  replicas: 2\n  selector: {}\n");
        CHECK(r.out.empty());
        const Diagnostic* e = r.first("jobs.invalid");
        REQUIRE(e);
        CHECK(e->path == "spec.template");
        CHECK(e->mark.line == 5);
    }
    {
        Run r("apiVersion: apps/v1\nkind: StatefulSet\nmetadata: {name: s, labels: {kueue.x-k8s.io/queue-name: lq}}\n");
        CHECK(r.out.empty());
        REQUIRE(r.first("jobs.invalid"));
        CHECK(r.first("jobs.invalid")->path == "spec");
    }
    {
        Run r(sts("", "", "{kueue.x-k8s.io/queue-name: lq}\n  annotations: {kueue.x-k8s.io/elastic-job: \"true\"}"));
        CHECK(r.out.empty());
        REQUIRE(r.first("jobs.invalid"));
        CHECK(r.first("jobs.invalid")->message.find("elastic job is not supported for apps/v1, Kind=StatefulSet") != std::string::npos);
    }
}

TEST_CASE("statefulset: Kueue's serving sample converts and simulates", "[statefulset]") {
    auto shared = qf_test::shared_dir();
    if (!shared) {
        WARN("skipped: ../shared (Kueue's samples, upstream/kueue-examples/serving-workloads) is not beside this checkout");
        return;
    }
    const auto sample = *shared / "upstream/kueue-examples/serving-workloads/sample-statefulset.yaml";
    REQUIRE(std::filesystem::exists(sample));
    // replicas 3 of cpu 100m: 300m as one pod group, all or nothing.
    for (const auto& [quota, admitted] : {std::pair{std::string("300m"), true}, std::pair{std::string("299m"), false}}) {
        CAPTURE(quota);
        Run r(qf_test::read_text(sample), user_queue_cluster(quota));
        INFO(qf_test::messages(r.d));
        CHECK(r.d.all().empty());
        REQUIRE(r.out.size() == 1);
        CHECK(r.out[0].ref.name == "statefulset-nginx-statefulset");
        CHECK(pod_sets(r.out[0]) == "main:3");
        std::vector<Resource> all = r.cluster.resources;
        all.push_back(r.out[0]);
        all.back().doc.find("metadata")->set("creationTimestamp", Node::string("2026-01-01T00:00:00Z"));
        Diagnostics sd;
        auto result = scheduler::simulate(all, {}, sd);
        INFO(qf_test::messages(sd));
        CHECK_FALSE(sd.has_errors());
        REQUIRE(result.workloads.size() == 1);
        CHECK(result.workloads[0].admitted == admitted);
        if (admitted) CHECK(result.workloads[0].assignments.at(0).resource_usage.at("cpu") == "300m");
    }
}
