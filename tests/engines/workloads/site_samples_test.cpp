// Tests for compiler/engines/workloads: a site's sample workloads turned into the Workloads
// Kueue's job integrations create. Facts come from Kueue's pkg/controller/jobs
// (cited in the sources); expected values are restated here on purpose.
#include "workloads_util.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <map>
#include <set>
#include <string>
#include <vector>

using namespace queueforge;
using namespace wl_test;
namespace fs = std::filesystem;

// ---------------------------------------------------------------- site samples

namespace {

const char* kSite = R"(
apiVersion: queueforge.io/v1alpha1
kind: Site
metadata: {name: s}
spec:
  target: kueue-0.20
  pools:
    - name: gpu
      nodes: 2
      nodeLabels: {gpu: "yes"}
      allocatable: {cpu: 64, memory: 512Gi, nvidia.com/gpu: 8}
  priorityClasses:
    - {name: prod, value: 900}
  teams:
    - name: ml
      namespaces: [ml]
      localQueue: ml-queue
      quota:
        - pool: gpu
          nominal: {cpu: 64, memory: 512Gi, nvidia.com/gpu: 8}
  workloads:
WORKLOADS
)";

struct SiteRun {
    std::vector<Resource> objects;
    workloads::ClusterContext ctx;
    std::optional<site::Site> site;
    Diagnostics d;
    std::vector<workloads::SampleWorkload> out;

    SiteRun(const std::string& workloads, const fs::path& dir) {
        std::string text = yaml(kSite);
        text.replace(text.find("WORKLOADS"), 9, workloads);
        Diagnostics compile;
        site = parse_site_text((dir / "site.yaml").string(), text, compile);
        INFO(qf_test::messages(compile));
        REQUIRE(site);
        // Lowering refuses some paths itself; the conversion must refuse them
        // on its own too, so it runs without the cluster objects then.
        if (auto lowered = lower_site(*site, compile)) objects = workloads::resources_from_objects(lowered->objects, site->file);
        ctx = workloads::cluster_context(objects);
        out = workloads::workloads_from_site(*site, dir.string(), ctx, d);
    }
    SiteRun(const SiteRun&) = delete;
    SiteRun& operator=(const SiteRun&) = delete;
};

}  // namespace

TEST_CASE("jobs: inline site samples become Workloads in section order") {
    qf_test::TempDir tmp;
    SiteRun r(R"(    - name: train
      namespace: ml
      priorityClass: prod
      podSets:
        - name: workers
          count: 4
          minCount: 2
          requests: {cpu: 1500m, memory: 1024Mi, nvidia.com/gpu: 1}
          nodeSelector: {gpu: "yes"}
          tolerations: [{key: nvidia.com/gpu, operator: Exists, effect: NoSchedule}]
    - name: tiny
      namespace: ml
      queue: other
      podSets:
        - requests: {cpu: 0.5})",
              tmp.path);
    INFO(qf_test::messages(r.d));
    REQUIRE(r.out.size() == 2);
    const Resource& a = r.out[0].workload;
    CHECK(r.out[0].sample == &r.site->workloads[0]);
    CHECK(a.ref.name == "train");
    CHECK(a.ref.namespace_ == "ml");
    CHECK(a.file == r.site->file);
    CHECK(str(a.doc, {"metadata", "creationTimestamp"}) == "2026-01-01T00:00:00Z");
    // No queue given: the team's LocalQueue, annotated as the namespace default.
    CHECK(str(a.doc, {"spec", "queueName"}) == "ml-queue");
    CHECK(num(a.doc, {"spec", "priority"}) == 900);
    CHECK(str(a.doc, {"spec", "priorityClassRef", "name"}) == "prod");
    CHECK(pod_sets(a) == "workers:4/min2");
    const Node& spec = *at(a.doc, {"spec", "podSets", "0", "template", "spec"});
    CHECK(str(spec, {"containers", "0", "name"}) == "main");
    CHECK(str(spec, {"containers", "0", "resources", "requests", "cpu"}) == "1500m");
    CHECK(str(spec, {"containers", "0", "resources", "requests", "memory"}) == "1Gi");  // canonical
    CHECK(str(spec, {"containers", "0", "resources", "requests", "nvidia.com/gpu"}) == "1");
    CHECK(str(spec, {"nodeSelector", "gpu"}) == "yes");
    CHECK(str(spec, {"tolerations", "0", "key"}) == "nvidia.com/gpu");
    CHECK(at(spec, {"containers", "0", "resources", "requests", "cpu"})->mark().line == 28);

    const Resource& b = r.out[1].workload;
    CHECK(str(b.doc, {"metadata", "creationTimestamp"}) == "2026-01-01T00:00:01Z");
    CHECK(str(b.doc, {"spec", "queueName"}) == "other");
    CHECK(pod_sets(b) == "main:1");
    CHECK(num(b.doc, {"spec", "priority"}) == 0);
    CHECK(str(b.doc, {"spec", "podSets", "0", "template", "spec", "containers", "0", "resources", "requests", "cpu"}) == "500m");

    std::vector<Resource> wls;
    for (const auto& s : r.out) wls.push_back(s.workload);
    CHECK(schema_errors(wls) == 0);
}

TEST_CASE("jobs: an inline sample's topology becomes Kueue's annotations and the Workload's topologyRequest", "[tas]") {
    qf_test::TempDir tmp;
    SiteRun r(R"(    - name: rack
      namespace: ml
      podSets:
        - count: 4
          requests: {cpu: 1}
          topology: {required: cloud.com/rack, sliceRequired: kubernetes.io/hostname, sliceSize: 2})",
              tmp.path);
    INFO(qf_test::messages(r.d));
    REQUIRE(r.out.size() == 1);
    const Node& ps = *at(r.out[0].workload.doc, {"spec", "podSets", "0"});
    CHECK(str(ps, {"template", "metadata", "annotations", "kueue.x-k8s.io/podset-required-topology"}) == "cloud.com/rack");
    CHECK(str(ps, {"template", "metadata", "annotations", "kueue.x-k8s.io/podset-slice-size"}) == "2");
    CHECK(str(ps, {"topologyRequest", "required"}) == "cloud.com/rack");
    CHECK(str(ps, {"topologyRequest", "podSetSliceRequiredTopology"}) == "kubernetes.io/hostname");
    CHECK(num(ps, {"topologyRequest", "podSetSliceSize"}) == 2);
}

TEST_CASE("jobs: an inline sample's topology that Kueue refuses is a positioned error", "[tas][badinput]") {
    qf_test::TempDir tmp;
    // Both required and preferred: Kueue's webhook refuses the pair; a slice
    // size larger than the pod count too; a group of one podset as well.
    SiteRun r(R"(    - name: both
      namespace: ml
      podSets:
        - count: 2
          requests: {cpu: 1}
          topology: {required: cloud.com/rack, preferred: cloud.com/block}
    - name: big-slice
      namespace: ml
      podSets:
        - count: 2
          requests: {cpu: 1}
          topology: {required: cloud.com/rack, sliceRequired: cloud.com/rack, sliceSize: 4}
    - name: lonely-group
      namespace: ml
      podSets:
        - count: 2
          requests: {cpu: 1}
          topology: {required: cloud.com/rack, groupName: g})",
              tmp.path);
    CHECK(r.out.empty());
    int errors = 0;
    for (const auto& d : r.d.all())
        if (d.severity == Severity::Error) {
            ++errors;
            CHECK(d.mark.line > 0);
            CHECK(d.rule == "jobs.invalid");
        }
    CHECK(errors >= 3);
}

TEST_CASE("jobs: file site samples are read beside the site and take the entry's settings") {
    qf_test::TempDir tmp;
    qf_test::write_text(tmp.path / "jobs/pt.yaml", yaml(R"(
apiVersion: kubeflow.org/v1
kind: PyTorchJob
metadata:
  name: from-file
  namespace: elsewhere
  creationTimestamp: "2020-01-01T00:00:00Z"
spec:
  pytorchReplicaSpecs:
    Master: {template: {spec: {containers: [{name: pytorch, resources: {requests: {cpu: "1"}}}]}}}
    Worker: {replicas: 2, template: {spec: {containers: [{name: pytorch}]}}}
)"));
    qf_test::write_text(tmp.path / "jobs/two.yaml", yaml(R"(
apiVersion: batch/v1
kind: Job
metadata: {name: a, labels: {kueue.x-k8s.io/queue-name: q}}
spec: {template: {spec: {containers: [{name: c}]}}}
---
apiVersion: batch/v1
kind: Job
metadata: {name: b, labels: {kueue.x-k8s.io/queue-name: q}}
spec: {template: {spec: {containers: [{name: c}]}}}
)"));
    SiteRun r(R"(    - name: inline-first
      namespace: ml
      podSets: [{requests: {cpu: 1}}]
    - name: pretrain
      namespace: ml
      priorityClass: prod
      file: jobs/pt.yaml
    - name: both
      namespace: ml
      file: jobs/two.yaml)",
              tmp.path);
    INFO(qf_test::messages(r.d));
    REQUIRE(r.out.size() == 2);
    const Resource& w = r.out[1].workload;
    CHECK(r.out[1].sample == &r.site->workloads[1]);
    CHECK(w.ref.name == "pytorchjob-pretrain");
    CHECK(w.ref.namespace_ == "ml");
    CHECK(w.file == (tmp.path / "jobs/pt.yaml").string());
    // The section order wins over the manifest's own timestamp.
    CHECK(str(w.doc, {"metadata", "creationTimestamp"}) == "2026-01-01T00:00:01Z");
    CHECK(str(w.doc, {"spec", "queueName"}) == "ml-queue");
    CHECK(num(w.doc, {"spec", "priority"}) == 900);
    CHECK(pod_sets(w) == "master:1 worker:2");
    CHECK(at(w.doc, {"spec", "podSets", "0", "template", "spec", "containers", "0", "resources", "requests", "cpu"})->mark().line == 9);
    // Kueue would not default this job's queue: a note says so.
    CHECK(qf_test::has_rule(r.d, "jobs.annotated-default-queue"));
    // Two jobs in one file: refused.
    REQUIRE(qf_test::has_rule(r.d, "site.workload"));
    for (const auto& x : r.d.all())
        if (x.rule == "site.workload") CHECK(x.mark.line == 30);
}

TEST_CASE("jobs: a LeaderWorkerSet of one group is a file site sample, of several it is refused with how to fix it") {
    qf_test::TempDir tmp;
    const std::string lws = yaml(R"(
apiVersion: leaderworkerset.x-k8s.io/v1
kind: LeaderWorkerSet
metadata: {name: serve}
spec:
  replicas: REPLICAS
  leaderWorkerTemplate:
    size: 4
    leaderTemplate: {spec: {containers: [{name: l, resources: {requests: {cpu: "1"}}}]}}
    workerTemplate: {spec: {containers: [{name: w, resources: {requests: {cpu: "2", nvidia.com/gpu: "1"}}}]}}
)");
    for (const char* n : {"1", "2"}) {
        std::string text = lws;
        text.replace(text.find("REPLICAS"), 8, n);
        qf_test::write_text(tmp.path / ("lws-" + std::string(n) + ".yaml"), text);
    }
    SiteRun r(R"(    - name: llm
      namespace: ml
      file: lws-1.yaml
    - name: llm-two
      namespace: ml
      file: lws-2.yaml)",
              tmp.path);
    INFO(qf_test::messages(r.d));
    REQUIRE(r.out.size() == 1);
    const Resource& w = r.out[0].workload;
    CHECK(w.ref.name == "leaderworkerset-llm-0");
    CHECK(pod_sets(w) == "leader:1 worker:3");
    CHECK(str(w.doc, {"spec", "queueName"}) == "ml-queue");
    const Diagnostic* refused = nullptr;
    for (const auto& x : r.d.all())
        if (x.rule == "site.workload") refused = &x;
    REQUIRE(refused);
    CHECK(refused->mark.line == 26);
    CHECK(refused->message.find("\"lws-2.yaml\" yields 2 Workloads") != std::string::npos);
    CHECK(refused->message.find("a LeaderWorkerSet with one group") != std::string::npos);
}

TEST_CASE("jobs: site sample files may not leave the site's folder") {
    qf_test::TempDir tmp;
    const fs::path site_dir = tmp.path / "site";
    qf_test::write_text(tmp.path / "outside.yaml", "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec: {containers: []}\n");
    qf_test::write_text(site_dir / "inside.yaml", "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec: {containers: [{name: c}]}\n");
    fs::create_symlink(tmp.path / "outside.yaml", site_dir / "link.yaml");
    fs::create_directory_symlink(tmp.path, site_dir / "up");
    const std::string abs = (tmp.path / "outside.yaml").string();
    for (const std::string f : {abs, std::string("../outside.yaml"), std::string("sub/../../outside.yaml"),
                                std::string("link.yaml"), std::string("up/outside.yaml")}) {
        SiteRun r("    - name: p\n      namespace: ml\n      file: \"" + f + "\"", site_dir);
        INFO(f << "\n" << qf_test::messages(r.d));
        CHECK(r.out.empty());
        CHECK(qf_test::has_rule(r.d, "site.path"));
    }
    SiteRun missing("    - name: p\n      namespace: ml\n      file: nope.yaml", site_dir);
    CHECK(missing.out.empty());
    // A finding in the site, not an I/O error of a command-line path.
    CHECK(qf_test::has_rule(missing.d, "site.workload-file"));
    SiteRun ok("    - name: p\n      namespace: ml\n      file: inside.yaml", site_dir);
    INFO(qf_test::messages(ok.d));
    REQUIRE(ok.out.size() == 1);
    CHECK(ok.out[0].workload.ref.name == "pod-p");
}

TEST_CASE("jobs: the multi-team example's samples convert") {
    const fs::path dir = qf_test::source_dir() / "examples/multi-team";
    Diagnostics d;
    const std::string site_file = (dir / "queueforge-site.yaml").string();
    auto site = parse_site_text(site_file, qf_test::read_text(site_file), d);
    REQUIRE(site);
    auto lowered = lower_site(*site, d);
    REQUIRE(lowered);
    auto objects = workloads::resources_from_objects(lowered->objects, site_file);
    auto ctx = workloads::cluster_context(objects);
    auto out = workloads::workloads_from_site(*site, dir.string(), ctx, d);
    INFO(qf_test::messages(d));
    CHECK_FALSE(d.has_errors());
    REQUIRE(out.size() == site->workloads.size());
    CHECK(out[0].workload.ref.name == "pytorchjob-llm-pretrain");
    CHECK(str(out[0].workload.doc, {"spec", "queueName"}) == "team-queue");
    CHECK(num(out[0].workload.doc, {"spec", "priority"}) == 1000);
    CHECK(pod_sets(out[0].workload) == "master:1 worker:3");
    CHECK(str(out[1].workload.doc, {"spec", "queueName"}) == "team-queue");
    std::vector<Resource> wls;
    for (const auto& s : out) wls.push_back(s.workload);
    CHECK(schema_errors(wls) == 0);
}

TEST_CASE("jobs: timestamp_plus") {
    CHECK(workloads::timestamp_plus("2026-01-01T00:00:00Z", 0) == "2026-01-01T00:00:00Z");
    CHECK(workloads::timestamp_plus("2026-01-01T00:00:00Z", 86400 + 3661) == "2026-01-02T01:01:01Z");
    CHECK(workloads::timestamp_plus("2028-02-28T23:59:59Z", 1) == "2028-02-29T00:00:00Z");
    CHECK(workloads::timestamp_plus("2026-12-31T23:59:59Z", 1) == "2027-01-01T00:00:00Z");
    CHECK_FALSE(workloads::timestamp_plus("2026-02-30T00:00:00Z", 0));
    CHECK_FALSE(workloads::timestamp_plus("yesterday", 0));
}

TEST_CASE("jobs: a TrainJob file site sample takes its runtime from the same file; a Deployment of one replica is a sample") {
    qf_test::TempDir tmp;
    qf_test::write_text(tmp.path / "tj.yaml", yaml(R"(
apiVersion: trainer.kubeflow.org/v1alpha1
kind: TrainJob
metadata: {name: ft}
spec:
  runtimeRef: {name: torch}
  trainer: {numNodes: 2, resourcesPerNode: {requests: {nvidia.com/gpu: 4}}}
---
apiVersion: trainer.kubeflow.org/v1alpha1
kind: ClusterTrainingRuntime
metadata: {name: torch}
spec:
  mlPolicy: {numNodes: 1, torch: {}}
  template:
    spec:
      replicatedJobs:
      - name: node
        template:
          metadata: {labels: {trainer.kubeflow.org/trainjob-ancestor-step: trainer}}
          spec:
            template: {spec: {containers: [{name: node, resources: {requests: {cpu: "4"}}}]}}
)"));
    const std::string dep = "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: srv}\nspec:\n  replicas: N\n"
                            "  template: {spec: {containers: [{name: s, resources: {requests: {cpu: \"1\"}}}]}}\n";
    for (const char* n : {"1", "2"}) {
        std::string text = dep;
        text.replace(text.find("N\n"), 1, n);
        qf_test::write_text(tmp.path / ("dep-" + std::string(n) + ".yaml"), text);
    }
    SiteRun r("    - name: ft\n      namespace: ml\n      file: tj.yaml\n    - name: srv\n      namespace: ml\n      file: dep-1.yaml\n"
              "    - name: srv-two\n      namespace: ml\n      file: dep-2.yaml",
              tmp.path);
    INFO(qf_test::messages(r.d));
    REQUIRE(r.out.size() == 2);
    CHECK(r.out[0].workload.ref.name == "trainjob-ft");
    CHECK(pod_sets(r.out[0].workload) == "node:2");
    CHECK(str(r.out[0].workload.doc, {"spec", "podSets", "0", "template", "spec", "containers", "0", "resources", "requests",
                                      "nvidia.com/gpu"}) == "4");
    CHECK(r.out[1].workload.ref.name == "pod-srv-0");
    const Diagnostic* refused = nullptr;
    for (const auto& x : r.d.all())
        if (x.rule == "site.workload") refused = &x;
    REQUIRE(refused);
    CHECK(refused->message.find("\"dep-2.yaml\" yields 2 Workloads") != std::string::npos);
    CHECK(refused->message.find("a Deployment with one replica") != std::string::npos);
}
