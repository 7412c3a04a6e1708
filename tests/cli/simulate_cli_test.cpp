// `queueforge simulate` on sites, manifests and running Workloads: the
// SimulationReport contract, expectations, both scenarios and exit codes.
#include "test_util.hpp"

#include <queueforge/engines/scenarios.hpp>

#include <map>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

using qf_test::run_cli;
using qf_test::shell_quote;

namespace {

const std::string kSite = R"(apiVersion: queueforge.io/v1alpha1
kind: Site
metadata: {name: s}
spec:
  target: kueue-0.19
  pools:
    - {name: gpu, nodes: 1, allocatable: {cpu: 16, nvidia.com/gpu: 4}}
  teams:
    - name: team-a
      namespaces: [team-a]
      quota: [{pool: gpu, nominal: {cpu: 16, nvidia.com/gpu: 4}}]
  workloads:
    - name: small
      namespace: team-a
      podSets: [{name: main, count: 1, requests: {cpu: 4, nvidia.com/gpu: 2}}]
      expect: {status: Admitted, flavor: gpu, borrowing: false}
    - name: second
      namespace: team-a
      podSets: [{name: main, count: 1, requests: {cpu: 4, nvidia.com/gpu: 2}}]
      expect: {status: Admitted}
    - name: third
      namespace: team-a
      podSets: [{name: main, count: 1, requests: {cpu: 4, nvidia.com/gpu: 2}}]
      expect: {status: Pending}
)";

}  // namespace

TEST_CASE("simulate: the example site's samples are admitted as expected") {
    auto r = run_cli("simulate " + shell_quote((qf_test::source_dir() / "examples/multi-team").string()));
    INFO(r.out << r.err);
    CHECK(r.exit == 0);
    CHECK(r.out.find("5 of 5 expectations met") != std::string::npos);
}

TEST_CASE("simulate: -o json follows the SimulationReport contract") {
    qf_test::TempDir tmp;
    qf_test::write_text(tmp.path / "queueforge-site.yaml", kSite);
    auto r = run_cli("simulate -o json " + shell_quote(tmp.path.string()));
    INFO(r.out << r.err);
    REQUIRE(r.exit == 0);
    auto j = nlohmann::json::parse(r.out);
    CHECK(j["apiVersion"] == "queueforge.io/v1alpha1");
    CHECK(j["kind"] == "SimulationReport");
    CHECK(j["cycles"].is_number_integer());
    REQUIRE(j["workloads"].size() == 3);
    auto small = j["workloads"][1];  // sorted by namespace/name: second, small, third
    CHECK(small["name"] == "small");
    for (const char* k : {"namespace", "name", "localQueue", "clusterQueue", "priority", "status", "preempted",
                          "admittedInCycle", "admission", "borrowing", "message", "expectation"})
        CHECK(small.contains(k));
    CHECK(small["status"] == "Admitted");
    CHECK(small["localQueue"] == "default");
    CHECK(small["clusterQueue"] == "team-a");
    CHECK(small["admittedInCycle"] == 1);
    CHECK(small["admission"]["podSetAssignments"][0]["flavors"]["nvidia.com/gpu"] == "gpu");
    CHECK(small["admission"]["podSetAssignments"][0]["resourceUsage"]["cpu"] == "4");
    CHECK(small["expectation"]["met"] == true);
    auto third = j["workloads"][2];
    CHECK(third["status"] == "Pending");
    CHECK(third["admission"].is_null());
    CHECK(third["message"].get<std::string>().find("insufficient unused quota for nvidia.com/gpu in flavor gpu") != std::string::npos);
    CHECK(j["clusterQueues"][0]["name"] == "team-a");
    CHECK(j["clusterQueues"][0]["admitted"] == 2);
    CHECK(j["clusterQueues"][0]["pending"] == 1);
    // Alone, every sample fits.
    REQUIRE(j["alone"].size() == 3);
    for (const auto& a : j["alone"]) CHECK(a["status"] == "Admitted");
}

TEST_CASE("simulate: a failed expectation or a sample that can never fit exits 1") {
    qf_test::TempDir tmp;
    std::string wrong = kSite;
    wrong.replace(wrong.find("expect: {status: Pending}"), 25, "expect: {status: Admitted}");
    qf_test::write_text(tmp.path / "a/queueforge-site.yaml", wrong);
    auto r = run_cli("simulate " + shell_quote((tmp.path / "a").string()));
    CHECK(r.exit == 1);
    CHECK(r.out.find("expectation: status is Pending, expected Admitted") != std::string::npos);

    std::string huge = kSite;
    huge.replace(huge.find("nvidia.com/gpu: 2}}]"), 20, "nvidia.com/gpu: 8}}]");  // more than the quota
    qf_test::write_text(tmp.path / "b/queueforge-site.yaml", huge);
    auto h = run_cli("simulate " + shell_quote((tmp.path / "b").string()));
    CHECK(h.exit == 1);
    CHECK(h.out.find("do not fit even alone") != std::string::npos);
    CHECK(run_cli("simulate -o yaml " + shell_quote((tmp.path / "b").string())).exit == 2);
}

TEST_CASE("simulate: running Workloads from a cluster dump hold quota, --cycles stops early") {
    qf_test::TempDir tmp;
    qf_test::write_text(tmp.path / "site/queueforge-site.yaml", kSite);
    qf_test::write_text(tmp.path / "running.yaml", R"(apiVersion: kueue.x-k8s.io/v1beta2
kind: Workload
metadata: {name: running, namespace: team-a, creationTimestamp: "2025-01-01T00:00:00Z"}
spec:
  queueName: default
  podSets: [{name: main, count: 1, template: {spec: {containers: [{name: c, resources: {requests: {cpu: "8", nvidia.com/gpu: "4"}}}]}}}]
status:
  conditions: [{type: QuotaReserved, status: "True", reason: QuotaReserved, message: x, lastTransitionTime: "2025-01-01T00:00:01Z"}]
  admission: {clusterQueue: team-a, podSetAssignments: [{name: main, count: 1, flavors: {cpu: gpu, nvidia.com/gpu: gpu}, resourceUsage: {cpu: "8", nvidia.com/gpu: "4"}}]}
)");
    auto r = run_cli("simulate -o json " + shell_quote((tmp.path / "site").string()) + " " +
                     shell_quote((tmp.path / "running.yaml").string()));
    INFO(r.err);
    auto j = nlohmann::json::parse(r.out);
    CHECK(r.exit == 1);  // the samples' expectations no longer hold: the GPUs are taken
    for (const auto& w : j["workloads"]) {
        if (w["name"] == "running") {
            CHECK(w["status"] == "Admitted");
            CHECK(w["admittedInCycle"].is_null());
        } else {
            CHECK(w["status"] == "Pending");
        }
    }
    auto one = nlohmann::json::parse(run_cli("simulate -o json --cycles 1 " + shell_quote((tmp.path / "site").string())).out);
    CHECK(one["cycles"] == 1);
}

TEST_CASE("simulate: the report does not depend on the order of the inputs") {
    qf_test::TempDir tmp;
    qf_test::write_text(tmp.path / "site/queueforge-site.yaml", kSite);
    qf_test::write_text(tmp.path / "ns.yaml", "apiVersion: v1\nkind: Namespace\nmetadata: {name: team-a}\n");
    auto a = run_cli("simulate -o json " + shell_quote((tmp.path / "site").string()) + " " + shell_quote((tmp.path / "ns.yaml").string()));
    auto b = run_cli("simulate -o json " + shell_quote((tmp.path / "ns.yaml").string()) + " " + shell_quote((tmp.path / "site").string()));
    CHECK(a.out == b.out);
}

TEST_CASE("simulate: a pod admitted by quota that fits no node of its flavor is flagged") {
    qf_test::TempDir tmp;
    // Quota for 8 GPUs on a pool of 4-GPU nodes: Kueue admits an 8-GPU pod that can never schedule.
    std::string site = R"(apiVersion: queueforge.io/v1alpha1
kind: Site
metadata: {name: s}
spec:
  target: kueue-0.19
  pools:
    - {name: l40s, nodes: 2, allocatable: {cpu: 64, nvidia.com/gpu: 4}}
  teams:
    - {name: a, namespaces: [a], quota: [{pool: l40s, nominal: {cpu: 64, nvidia.com/gpu: 8}}]}
  workloads:
    - {name: big, namespace: a, podSets: [{name: main, count: 1, requests: {cpu: 8, nvidia.com/gpu: 8}}]}
    - {name: fine, namespace: a, podSets: [{name: main, count: 2, requests: {cpu: 8, nvidia.com/gpu: 4}}]}
)";
    qf_test::write_text(tmp.path / "queueforge-site.yaml", site);
    auto r = run_cli("simulate -o json --cycles 1 " + shell_quote(tmp.path.string()));
    INFO(r.out << r.err);
    CHECK(r.exit == 1);
    auto j = nlohmann::json::parse(r.out);
    for (const auto& w : j["workloads"]) {
        if (w["name"] == "big") {
            CHECK(w["status"] == "Admitted");
            CHECK(w["nodeShape"].get<std::string>().find("one pod needs 8 nvidia.com/gpu and the largest node of l40s has 4") != std::string::npos);
        }
    }
    // Node objects do the same for plain manifests.
    qf_test::write_text(tmp.path / "m/queues.yaml", R"(apiVersion: kueue.x-k8s.io/v1beta2
kind: ResourceFlavor
metadata: {name: l40s}
spec: {nodeLabels: {gpu: l40s}}
---
apiVersion: kueue.x-k8s.io/v1beta2
kind: ClusterQueue
metadata: {name: a}
spec:
  namespaceSelector: {}
  resourceGroups: [{coveredResources: [nvidia.com/gpu], flavors: [{name: l40s, resources: [{name: nvidia.com/gpu, nominalQuota: "8"}]}]}]
---
apiVersion: kueue.x-k8s.io/v1beta2
kind: LocalQueue
metadata: {name: default, namespace: a}
spec: {clusterQueue: a}
---
apiVersion: v1
kind: Node
metadata: {name: n1, labels: {gpu: l40s}}
status: {allocatable: {nvidia.com/gpu: "4", cpu: "64"}}
---
apiVersion: batch/v1
kind: Job
metadata: {name: big, namespace: a}
spec:
  template:
    spec:
      containers: [{name: c, image: x, resources: {requests: {nvidia.com/gpu: "8"}}}]
)");
    auto m = run_cli("simulate " + shell_quote((tmp.path / "m").string()));
    INFO(m.out << m.err);
    CHECK(m.exit == 1);
    CHECK(m.out.find("node shape: pod set main was admitted on flavor l40s") != std::string::npos);
}

TEST_CASE("simulate: -o junit and -o sarif report failed expectations at the sample's position") {
    qf_test::TempDir tmp;
    std::string wrong = kSite;
    wrong.replace(wrong.find("expect: {status: Pending}"), 25, "expect: {status: Admitted}");
    qf_test::write_text(tmp.path / "queueforge-site.yaml", wrong);
    auto junit = run_cli("simulate -o junit " + shell_quote(tmp.path.string()));
    INFO(junit.out << junit.err);
    CHECK(junit.exit == 1);
    CHECK(junit.out.find("<testcase") != std::string::npos);
    CHECK(junit.out.find("type=\"sim.expectation\"") != std::string::npos);
    auto sarif = nlohmann::json::parse(run_cli("simulate -o sarif " + shell_quote(tmp.path.string())).out);
    REQUIRE(sarif["runs"][0]["results"].size() == 1);
    auto res = sarif["runs"][0]["results"][0];
    CHECK(res["ruleId"] == "sim.expectation");
    CHECK(res["locations"][0]["physicalLocation"]["region"]["startLine"] == 21);  // "- name: third"
}

TEST_CASE("simulate: the node-shape check covers samples kept pending in the together run", "[simulate][defects]") {
    qf_test::TempDir tmp;
    // holder takes the whole quota first; big (one 16-GPU pod on 8-GPU nodes)
    // waits together and is admitted alone by quota -- where no node can run it.
    qf_test::write_text(tmp.path / "queueforge-site.yaml", R"(apiVersion: queueforge.io/v1alpha1
kind: Site
metadata: {name: s}
spec:
  target: kueue-0.19
  pools:
    - {name: h100, nodes: 2, allocatable: {cpu: 64, nvidia.com/gpu: 8}}
  teams:
    - {name: a, namespaces: [a], quota: [{pool: h100, nominal: {cpu: 64, nvidia.com/gpu: 16}}]}
  workloads:
    - {name: holder, namespace: a, podSets: [{name: main, count: 2, requests: {cpu: 8, nvidia.com/gpu: 8}}]}
    - {name: big, namespace: a, podSets: [{name: main, count: 1, requests: {cpu: 8, nvidia.com/gpu: 16}}]}
)");
    auto r = run_cli("simulate -o json " + shell_quote(tmp.path.string()));
    INFO(r.out << r.err);
    CHECK(r.exit == 1);
    auto j = nlohmann::json::parse(r.out);
    bool seen = false;
    for (const auto& w : j["workloads"]) {
        if (w["name"] == "holder") CHECK(w["nodeShape"].is_null());
        if (w["name"] != "big") continue;
        seen = true;
        CHECK(w["status"] == "Pending");
        REQUIRE(w["nodeShape"].is_string());
        CHECK(w["nodeShape"].get<std::string>().find("alone: pod set main was admitted on flavor h100, but one pod needs 16 "
                                                     "nvidia.com/gpu and the largest node of h100 has 8") != std::string::npos);
    }
    CHECK(seen);
    auto text = run_cli("simulate " + shell_quote(tmp.path.string()));
    CHECK(text.exit == 1);
    CHECK(text.out.find("no-node") != std::string::npos);
    CHECK(text.out.find("fits") != std::string::npos);  // holder
    // The HTML report's Alone column says the same.
    auto html = run_cli("report " + shell_quote(tmp.path.string()) + " -o -");
    CHECK(html.out.find("<td>no node</td>") != std::string::npos);
    auto check = run_cli("check " + shell_quote(tmp.path.string()));
    INFO(check.out << check.err);
    CHECK(check.exit == 1);
    CHECK((check.out + check.err).find("sim.node-shape") != std::string::npos);
}

TEST_CASE("simulate text: Preempted and long flavor names keep their columns apart", "[simulate][defects]") {
    using namespace queueforge;
    scenarios::Report r;
    auto add = [&](std::string name, bool admitted, bool preempted, std::string flavor) {
        scenarios::SampleReport s;
        s.together.namespace_ = "a";
        s.together.name = std::move(name);
        s.together.cluster_queue = "cq";
        s.together.admitted = admitted;
        s.together.preempted = preempted;
        if (!flavor.empty()) s.together.assignments.push_back({.name = "main", .flavors = {{"cpu", flavor}}});
        r.workloads.push_back(std::move(s));
    };
    add("victim", false, true, "");
    add("winner", true, false, "very-long-flavor-name");
    std::string text = scenarios::format_text(r);
    INFO(text);
    CHECK(text.find("  WORKLOAD  STATUS    FLAVOR                BORROW ALONE    EXPECT\n") != std::string::npos);
    CHECK(text.find("  a/victim  Preempted -                     -      -        -\n") != std::string::npos);
    CHECK(text.find("  a/winner  Admitted  very-long-flavor-name no     -        -\n") != std::string::npos);
}

TEST_CASE("simulate: jobs without creationTimestamp queue by file path then document, not argument order", "[simulate][defects]") {
    qf_test::TempDir tmp;
    qf_test::write_text(tmp.path / "queues.yaml", R"(apiVersion: kueue.x-k8s.io/v1beta2
kind: ResourceFlavor
metadata: {name: default}
---
apiVersion: kueue.x-k8s.io/v1beta2
kind: ClusterQueue
metadata: {name: a}
spec:
  namespaceSelector: {}
  queueingStrategy: StrictFIFO
  resourceGroups: [{coveredResources: [cpu], flavors: [{name: default, resources: [{name: cpu, nominalQuota: "1"}]}]}]
---
apiVersion: kueue.x-k8s.io/v1beta2
kind: LocalQueue
metadata: {name: default, namespace: a}
spec: {clusterQueue: a}
)");
    auto job = [](const std::string& name) {
        return "apiVersion: batch/v1\nkind: Job\nmetadata: {name: " + name +
               ", namespace: a}\nspec:\n  template:\n    spec:\n      containers: [{name: c, image: x, resources: {requests: {cpu: \"1\"}}}]\n";
    };
    // b.yaml holds two jobs; only the first job in path/document order fits.
    qf_test::write_text(tmp.path / "jobs/b.yaml", job("b-first") + "---\n" + job("b-second"));
    qf_test::write_text(tmp.path / "jobs/a.yaml", job("a-only"));
    const std::string q = shell_quote((tmp.path / "queues.yaml").string());
    const std::string a = shell_quote((tmp.path / "jobs/a.yaml").string());
    const std::string b = shell_quote((tmp.path / "jobs/b.yaml").string());
    auto forward = run_cli("simulate -o json " + q + " " + a + " " + b);
    auto backward = run_cli("simulate -o json " + b + " " + a + " " + q);
    INFO(forward.out << forward.err << backward.err);
    CHECK(forward.out == backward.out);
    auto j = nlohmann::json::parse(forward.out);
    std::map<std::string, std::string> status;
    for (const auto& w : j["workloads"]) status[w["name"].get<std::string>()] = w["status"].get<std::string>();
    CHECK(status["job-a-only"] == "Admitted");
    CHECK(status["job-b-first"] == "Pending");
    CHECK(status["job-b-second"] == "Pending");
}

TEST_CASE("simulate: TAS annotations Kueue refuses are positioned errors and exit 1", "[simulate][tas]") {
    qf_test::TempDir tmp;
    qf_test::write_text(tmp.path / "queues.yaml", R"(apiVersion: kueue.x-k8s.io/v1beta2
kind: ResourceFlavor
metadata: {name: default}
---
apiVersion: kueue.x-k8s.io/v1beta2
kind: ClusterQueue
metadata: {name: a}
spec:
  namespaceSelector: {}
  resourceGroups: [{coveredResources: [cpu], flavors: [{name: default, resources: [{name: cpu, nominalQuota: "8"}]}]}]
---
apiVersion: kueue.x-k8s.io/v1beta2
kind: LocalQueue
metadata: {name: default, namespace: a}
spec: {clusterQueue: a}
)");
    const std::string job = R"(apiVersion: batch/v1
kind: Job
metadata: {name: j, namespace: a}
spec:
  parallelism: 2
  template:
    metadata:
      annotations:
        kueue.x-k8s.io/podset-required-topology: cloud.com/block
        EXTRA
    spec:
      containers: [{name: c, image: x, resources: {requests: {cpu: "1"}}}]
)";
    auto with = [&](const std::string& extra) {
        std::string j = job;
        j.replace(j.find("EXTRA"), 5, extra);
        qf_test::write_text(tmp.path / "job.yaml", j);
        return run_cli("simulate " + shell_quote(tmp.path.string()));
    };
    // Two modes: the webhook's first step fails, so the slice size is not
    // compared with the pods (job_webhook.go returns early).
    auto two = with("kueue.x-k8s.io/podset-preferred-topology: cloud.com/rack\n        kueue.x-k8s.io/podset-slice-size: \"4\"");
    INFO(two.out << two.err);
    CHECK(two.exit == 1);
    const std::string all = two.out + two.err;
    CHECK(all.find("job.yaml:9:9: error: Job/a/j: spec.template.metadata.annotations: Invalid value: must not contain more than one "
                   "topology annotation: [\"kueue.x-k8s.io/podset-required-topology\", \"kueue.x-k8s.io/podset-preferred-topology\", "
                   "\"kueue.x-k8s.io/podset-unconstrained-topology\"] [jobs.invalid]") != std::string::npos);
    CHECK(all.find("job.yaml:11:43: error: Job/a/j: spec.template.metadata.annotations[kueue.x-k8s.io/podset-slice-size]: Forbidden: "
                   "may not be set when 'kueue.x-k8s.io/podset-slice-required-topology' is not specified [jobs.invalid]") !=
          std::string::npos);
    CHECK(all.find("pod set count") == std::string::npos);
    // A slice larger than the podSet.
    auto big = with("kueue.x-k8s.io/podset-slice-required-topology: cloud.com/rack\n        kueue.x-k8s.io/podset-slice-size: \"4\"");
    INFO(big.out << big.err);
    CHECK(big.exit == 1);
    CHECK((big.out + big.err).find("job.yaml:11:43: error: Job/a/j: spec.template.metadata.annotations[kueue.x-k8s.io/podset-slice-size]: "
                                   "Invalid value: \"4\": must not be greater than pod set count 2 [jobs.invalid]") != std::string::npos);
    // A valid request is simulated.
    auto ok = with("kueue.x-k8s.io/podset-slice-required-topology: cloud.com/rack\n        kueue.x-k8s.io/podset-slice-size: \"2\"");
    INFO(ok.out << ok.err);
    CHECK((ok.out + ok.err).find("jobs.invalid") == std::string::npos);
}
