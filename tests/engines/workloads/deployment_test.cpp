// Tests for compiler/engines/workloads/deployment.cpp: a Deployment turned into
// the single-pod Workloads Kueue's pod integration creates for its replicas.
// The rows are translated from Kueue ff69552e79ad21652c36caa97038382e55625cf7,
// pkg/controller/jobs/deployment/deployment_webhook_test.go (TestDefault: what
// the webhook puts on the pod template, here seen as the queue and priority
// of the pods' Workloads; TestValidateCreate: queue name and elastic
// annotation); Kueue's wrapper (pkg/util/testingjobs/deployment
// MakeDeployment) gives one replica and one container. Expected values are
// restated here on purpose.
#include "workloads_util.hpp"

#include <queueforge/engines/scheduler.hpp>

#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

using namespace queueforge;
using namespace wl_test;

namespace {

// A Deployment "dep" in `default` with uid dep-uid (`labels` replaces the
// metadata labels, `spec_extra` goes into the spec, `tmpl_meta` into the
// template's metadata, instead of its labels).
std::string dep(const std::string& spec_extra = "", const std::string& tmpl_meta = "",
                const std::string& labels = "{kueue.x-k8s.io/queue-name: lq}") {
    return "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: dep\n  namespace: default\n  uid: dep-uid\n"
           "  labels: " +
           labels + "\nspec:\n" + spec_extra +
           "  selector: {matchLabels: {app: dep}}\n"
           "  template:\n    metadata:\n" +
           (tmpl_meta.empty() ? std::string("      labels: {app: dep}\n") : tmpl_meta) +
           "    spec:\n      containers: [{name: c, image: pause, resources: {requests: {cpu: 250m}}}]\n";
}

std::vector<std::string> names(const Run& r) {
    std::vector<std::string> n;
    for (const auto& w : r.out) n.push_back(w.ref.name);
    return n;
}

}  // namespace

TEST_CASE("deployment: one single-pod Workload per replica, the pod integration's shape", "[deployment]") {
    Run r(dep("  replicas: 3\n"));
    INFO(qf_test::messages(r.d));
    CHECK(r.d.all().empty());
    REQUIRE(r.out.size() == 3);
    CHECK(names(r) == std::vector<std::string>{"pod-dep-0", "pod-dep-1", "pod-dep-2"});
    for (const auto& wl : r.out) {
        CHECK(pod_sets(wl) == "main:1");
        CHECK(str(wl.doc, {"spec", "queueName"}) == "lq");
        CHECK(num(wl.doc, {"spec", "priority"}) == 0);
        // The pod's spec only (constructPodSet), not its metadata.
        CHECK(at(wl.doc, {"spec", "podSets", "0", "template", "metadata"}) == nullptr);
        CHECK(str(wl.doc, {"spec", "podSets", "0", "template", "spec", "containers", "0", "resources", "requests", "cpu"}) == "250m");
        // The Workload is the Pod's: no trace of the Deployment's uid, no
        // component index, not a group.
        CHECK(at(wl.doc, {"metadata", "labels"}) == nullptr);
        CHECK(at(wl.doc, {"metadata", "uid"}) == nullptr);
        CHECK(at(wl.doc, {"metadata", "ownerReferences"}) == nullptr);
        CHECK(at(wl.doc, {"metadata", "annotations"}) == nullptr);
    }
    std::string what;
    CHECK(schema_errors(r.out, &what) == 0);
    INFO(what);
}

TEST_CASE("deployment: replicas default to 1, replicas 0 creates no Workload", "[deployment]") {
    {
        Run r(dep());
        CHECK(names(r) == std::vector<std::string>{"pod-dep-0"});
    }
    {
        Run r(dep("  replicas: 0\n"));
        CHECK(r.out.empty());
        CHECK(r.d.all().empty());
    }
    {
        Run r(dep("  replicas: null\n"));  // the API server defaults a null too
        CHECK(r.out.size() == 1);
    }
}

TEST_CASE("deployment: deployment without queue (TestDefault)", "[deployment]") {
    Run r(dep("", "", "{app: x}"));
    CHECK(r.out.empty());
    CHECK(r.count("jobs.no-queue") == 1);
}

TEST_CASE("deployment: deployment without queue with pod template spec queue (TestDefault)", "[deployment]") {
    // The webhook leaves such a Deployment alone: its pods get no
    // suspended-by-parent annotation and the implicitly enabled pod
    // integration skips them.
    Run r(dep("", "      labels: {app: dep, kueue.x-k8s.io/queue-name: lq}\n", "{app: x}"));
    CHECK(r.out.empty());
    CHECK(r.count("jobs.no-queue") == 1);
}

TEST_CASE("deployment: deployment with queue and pod template spec queue: the Deployment's wins (TestDefault)", "[deployment]") {
    Run r(dep("", "      labels: {app: dep, kueue.x-k8s.io/queue-name: other}\n"));
    REQUIRE(r.out.size() == 1);
    CHECK(str(r.out[0].doc, {"spec", "queueName"}) == "lq");
}

TEST_CASE("deployment: default lq is created, job doesn't have queue label (TestDefault)", "[deployment]") {
    std::string job = dep("", "", "{app: x}");
    job.replace(job.find("namespace: default"), 18, "namespace: team-a");
    Run r(job);
    REQUIRE(r.out.size() == 1);
    CHECK(str(r.out[0].doc, {"spec", "queueName"}) == "default");
    CHECK(str(r.out[0].doc, {"metadata", "namespace"}) == "team-a");
}

TEST_CASE("deployment: deployment with queue and priority class (TestDefault)", "[deployment]") {
    Run r(dep("  replicas: 2\n", "", "{kueue.x-k8s.io/queue-name: lq, kueue.x-k8s.io/priority-class: high}"));
    REQUIRE(r.out.size() == 2);
    for (const auto& wl : r.out) {
        CHECK(num(wl.doc, {"spec", "priority"}) == 1000);
        CHECK(str(wl.doc, {"spec", "priorityClassRef", "kind"}) == "WorkloadPriorityClass");
        CHECK(str(wl.doc, {"spec", "priorityClassRef", "name"}) == "high");
    }
}

TEST_CASE("deployment: priority class on the Deployment and on the template: the Deployment's wins (TestDefault)", "[deployment]") {
    Run r(dep("", "      labels: {app: dep, kueue.x-k8s.io/priority-class: low}\n",
              "{kueue.x-k8s.io/queue-name: lq, kueue.x-k8s.io/priority-class: high}"));
    REQUIRE(r.out.size() == 1);
    CHECK(num(r.out[0].doc, {"spec", "priority"}) == 1000);
}

TEST_CASE("deployment: a priority class on the template alone stays on the pods", "[deployment]") {
    const std::string job = dep("", "      labels: {app: dep, kueue.x-k8s.io/priority-class: low}\n");
    {
        Run r(job);
        REQUIRE(r.out.size() == 1);
        CHECK(num(r.out[0].doc, {"spec", "priority"}) == 10);
        CHECK(str(r.out[0].doc, {"spec", "priorityClassRef", "name"}) == "low");
    }
    {
        // ApplyDefaultWorkloadPriorityClass labels the Deployment first; the
        // webhook then overwrites the template's label.
        Run r(job, yaml(kCluster) + "---\napiVersion: kueue.x-k8s.io/v1beta2\nkind: WorkloadPriorityClass\nmetadata: {name: default}\nvalue: 7\n");
        REQUIRE(r.out.size() == 1);
        CHECK(num(r.out[0].doc, {"spec", "priority"}) == 7);
    }
}

TEST_CASE("deployment: the pods' PriorityClass is the Workload's without a WorkloadPriorityClass", "[deployment]") {
    std::string job = dep();
    job.replace(job.find("      containers:"), 0, "      priorityClassName: pod-high\n");
    Run r(job);
    REQUIRE(r.out.size() == 1);
    CHECK(num(r.out[0].doc, {"spec", "priority"}) == 5000);
    CHECK(str(r.out[0].doc, {"spec", "priorityClassRef", "kind"}) == "PriorityClass");
}

TEST_CASE("deployment: bad input gives positioned jobs.invalid errors (TestValidateCreate and the apps API)", "[deployment]") {
    struct Case {
        std::string text, path, words;
        int line;
    };
    const Case cases[] = {
        {dep("  replicas: -1\n"), "spec.replicas", "must be greater than or equal to 0, got -1", 9},
        {dep("  replicas: three\n"), "spec.replicas", "must be an integer (int32), got \"three\"", 9},
        {dep("  replicas: 2147483648\n"), "spec.replicas", "must be an integer (int32)", 9},
        {dep("  replicas: [1]\n"), "spec.replicas", "must be an integer (int32)", 9},
        {"apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: d, labels: {kueue.x-k8s.io/queue-name: lq}}\n"
         "spec:\n  replicas: 2\n  selector: {}\n",
         "spec.template", "Required value", 5},
        {"apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: d, labels: {kueue.x-k8s.io/queue-name: lq}}\n"
         "spec:\n  template: [x]\n",
         "spec.template", "must be a pod template", 5},
        {"apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: d, labels: {kueue.x-k8s.io/queue-name: lq}}\nspec: 3\n", "spec",
         "Required value", 4},
        {dep("", "", "{kueue.x-k8s.io/queue-name: \"Bad Queue\"}"), "metadata.labels[kueue.x-k8s.io/queue-name]", "Invalid value: \"Bad Queue\"",
         7},
        {dep("", "", "{kueue.x-k8s.io/queue-name: lq}\n  annotations: {kueue.x-k8s.io/elastic-job: \"true\"}"),
         "metadata.annotations[kueue.x-k8s.io/elastic-job]", "elastic job is not supported for apps/v1, Kind=Deployment", 8},
    };
    for (const auto& c : cases) check_invalid(c.text, c.path, c.words, c.line);
}

TEST_CASE("deployment: more replicas than the simulator takes are skipped with a warning", "[deployment]") {
    {
        Run r(dep("  replicas: 10000\n"));
        CHECK(r.out.size() == 10000);
        CHECK(r.out.back().ref.name == "pod-dep-9999");
        CHECK(r.d.all().empty());
    }
    {
        Run r(dep("  replicas: 10001\n"));
        CHECK(r.out.empty());
        REQUIRE(r.count("jobs.unsupported") == 1);
        const Diagnostic* w = r.first("jobs.unsupported");
        CHECK(w->severity == Severity::Warning);
        CHECK(w->path == "spec.replicas");
        CHECK(w->mark.line == 9);
        CHECK(w->message.find("10001 replicas are not converted") != std::string::npos);
        CHECK_FALSE(r.d.has_errors());
    }
}

TEST_CASE("deployment: through simulate, the CLI reports bad input at file:line:col and exits 1", "[deployment]") {
    qf_test::TempDir tmp;
    qf_test::write_text(tmp.path / "dep.yaml", dep("  replicas: -2\n"));
    auto r = qf_test::run_cli("simulate " + qf_test::shell_quote((tmp.path / "dep.yaml").string()));
    INFO(r.out << r.err);
    CHECK(r.exit == 1);
    CHECK((r.out + r.err).find("dep.yaml:9:") != std::string::npos);
    CHECK((r.out + r.err).find("spec.replicas") != std::string::npos);
}

TEST_CASE("deployment: Kueue's serving sample converts and simulates pod by pod", "[deployment]") {
    auto shared = qf_test::shared_dir();
    if (!shared) {
        WARN("skipped: ../shared (Kueue's samples, upstream/kueue-examples/serving-workloads) is not beside this checkout");
        return;
    }
    const auto sample = *shared / "upstream/kueue-examples/serving-workloads/sample-deployment.yaml";
    REQUIRE(std::filesystem::exists(sample));
    // replicas 3 of cpu 100m, each pod admitted on its own: unlike the
    // StatefulSet's pod group, quota for two pods admits two.
    for (const auto& [quota, admitted] : {std::pair{std::string("300m"), 3}, std::pair{std::string("299m"), 2},
                                          std::pair{std::string("200m"), 2}, std::pair{std::string("99m"), 0}}) {
        CAPTURE(quota);
        Run r(qf_test::read_text(sample), user_queue_cluster(quota));
        INFO(qf_test::messages(r.d));
        CHECK(r.d.all().empty());
        REQUIRE(r.out.size() == 3);
        CHECK(r.out[0].ref.name == "pod-nginx-deployment-0");
        std::vector<Resource> all = r.cluster.resources;
        for (auto& w : r.out) {
            CHECK(pod_sets(w) == "main:1");
            w.doc.find("metadata")->set("creationTimestamp", Node::string("2026-01-01T00:00:00Z"));
            all.push_back(w);
        }
        Diagnostics sd;
        auto result = scheduler::simulate(all, {}, sd);
        INFO(qf_test::messages(sd));
        CHECK_FALSE(sd.has_errors());
        REQUIRE(result.workloads.size() == 3);
        int n = 0;
        for (const auto& w : result.workloads) {
            n += w.admitted;
            if (w.admitted) CHECK(w.assignments.at(0).resource_usage.at("cpu") == "100m");
        }
        CHECK(n == admitted);
    }
}

TEST_CASE("deployment: queueforge simulate takes the sample with the queues, schema-checked", "[deployment]") {
    auto shared = qf_test::shared_dir();
    if (!shared) {
        WARN("skipped: ../shared (Kueue's samples, upstream/kueue-examples/serving-workloads) is not beside this checkout");
        return;
    }
    qf_test::TempDir tmp;
    qf_test::write_text(tmp.path / "queues.yaml", user_queue_cluster("250m"));
    const auto sample = *shared / "upstream/kueue-examples/serving-workloads/sample-deployment.yaml";
    auto r = qf_test::run_cli("simulate -o json " + qf_test::shell_quote((tmp.path / "queues.yaml").string()) + " " +
                              qf_test::shell_quote(sample.string()));
    INFO(r.out << r.err);
    REQUIRE(r.exit == 0);
    auto j = nlohmann::json::parse(r.out);
    REQUIRE(j["workloads"].size() == 3);
    std::map<std::string, std::string> status;
    for (const auto& w : j["workloads"]) status[w["name"].get<std::string>()] = w["status"].get<std::string>();
    CHECK(status["pod-nginx-deployment-0"] == "Admitted");
    CHECK(status["pod-nginx-deployment-1"] == "Admitted");
    CHECK(status["pod-nginx-deployment-2"] == "Pending");
}

TEST_CASE("deployment: a Deployment another framework manages has no Workload of its own", "[deployment]") {
    Run r(dep("", "      labels: {app: dep}\n      annotations: {kueue.x-k8s.io/pod-suspending-parent: workload.codeflare.dev/appwrapper}\n"));
    CHECK(r.out.empty());
    REQUIRE(r.count("jobs.not-managed") == 1);
    CHECK(r.first("jobs.not-managed")->mark.line == 13);
    CHECK_FALSE(r.d.has_errors());
    // Its own framework's mark (what Kueue's Deployment webhook writes) is no obstacle.
    Run own(dep("", "      labels: {app: dep}\n      annotations: {kueue.x-k8s.io/pod-suspending-parent: deployment}\n"));
    CHECK(own.out.size() == 1);
}
