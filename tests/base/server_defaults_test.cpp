// The API server's defaults for built-in kinds (compiler/base/k8s/server_defaults),
// which ValidatingAdmissionPolicies see: each rule on a small manifest.
#include "base/k8s/server_defaults.hpp"

#include <queueforge/frontend/manifests.hpp>
#include <queueforge/base/yaml_emit.hpp>

#include <catch2/catch.hpp>

#include <string>

using namespace queueforge;

namespace {

Node parse(const std::string& text) {
    Diagnostics d;
    LoadedResources in;
    load_resources_from_text("m.yaml", text, in, d);
    REQUIRE_FALSE(d.has_errors());
    REQUIRE(in.resources.size() == 1);
    return in.resources[0].doc;
}

Node defaulted(const std::string& text) {
    Node n = parse(text);
    k8s::apply_server_defaults(n);
    return n;
}

// The node at a dotted path ("spec.template.spec.containers.0.resources").
const Node* at(const Node& root, const std::string& path) {
    const Node* n = &root;
    std::size_t start = 0;
    while (n && start <= path.size()) {
        const std::size_t dot = path.find('.', start);
        const std::string part = path.substr(start, dot == std::string::npos ? std::string::npos : dot - start);
        if (n->is_seq()) {
            const std::size_t i = std::stoul(part);
            n = i < n->items().size() ? &n->items()[i] : nullptr;
        } else {
            n = n->is_map() ? n->find(part) : nullptr;
        }
        if (dot == std::string::npos) break;
        start = dot + 1;
    }
    return n;
}

std::string text_at(const Node& root, const std::string& path) {
    const Node* n = at(root, path);
    if (!n) return "<absent>";
    if (n->is_map() || n->is_seq()) return emit_yaml(*n);
    return n->text();
}

const std::string kJob = R"(apiVersion: batch/v1
kind: Job
metadata: {name: j, namespace: team-a}
spec:
  template:
    spec:
      containers:
      - name: latest
        image: busybox
      - name: tagged
        image: registry.example.com:5000/team/train:v1.2
        ports: [{containerPort: 8080}]
        resources: {requests: {cpu: 1500m, memory: 1.5Gi, example.com/tiny: 0.0001}, limits: {cpu: 2}}
      - name: digest
        image: busybox@sha256:0000000000000000000000000000000000000000000000000000000000000000
        imagePullPolicy: Never
)";

}  // namespace

TEST_CASE("server defaults: a Job's pod template and containers", "[k8s-defaults]") {
    const Node job = defaulted(kJob);
    // SetDefaults_PodSpec
    CHECK(text_at(job, "spec.template.spec.restartPolicy") == "Always");
    CHECK(text_at(job, "spec.template.spec.dnsPolicy") == "ClusterFirst");
    CHECK(text_at(job, "spec.template.spec.schedulerName") == "default-scheduler");
    CHECK(text_at(job, "spec.template.spec.terminationGracePeriodSeconds") == "30");
    REQUIRE(at(job, "spec.template.spec.securityContext"));
    CHECK(at(job, "spec.template.spec.securityContext")->is_map());
    CHECK(at(job, "spec.template.spec.securityContext")->size() == 0);
    REQUIRE(at(job, "spec.template.metadata"));
    // SetDefaults_Container: no tag means "latest": Always; a tag: IfNotPresent;
    // a registry port is not a tag; a given policy stays.
    CHECK(text_at(job, "spec.template.spec.containers.0.imagePullPolicy") == "Always");
    CHECK(text_at(job, "spec.template.spec.containers.1.imagePullPolicy") == "IfNotPresent");
    CHECK(text_at(job, "spec.template.spec.containers.2.imagePullPolicy") == "Never");
    CHECK(text_at(job, "spec.template.spec.containers.0.terminationMessagePath") == "/dev/termination-log");
    CHECK(text_at(job, "spec.template.spec.containers.0.terminationMessagePolicy") == "File");
    // resources is a struct in the Go type: {} when not written.
    const Node* res = at(job, "spec.template.spec.containers.0.resources");
    REQUIRE(res);
    CHECK(res->is_map());
    CHECK(res->size() == 0);
    CHECK(text_at(job, "spec.template.spec.containers.1.ports.0.protocol") == "TCP");
    // Quantities: canonical strings, rounded up to milli units; requests are
    // NOT defaulted from limits in a template (SetDefaults_Pod is for Pods).
    CHECK(text_at(job, "spec.template.spec.containers.1.resources.requests.cpu") == "1500m");
    CHECK(text_at(job, "spec.template.spec.containers.1.resources.requests.memory") == "1536Mi");
    const Node* requests = at(job, "spec.template.spec.containers.1.resources.requests");
    REQUIRE(requests);
    REQUIRE(requests->find("example.com/tiny"));
    CHECK(requests->find("example.com/tiny")->text() == "1m");
    CHECK(requests->find("cpu")->is_string());
    const Node* limits = at(job, "spec.template.spec.containers.1.resources.limits");
    REQUIRE(limits);
    CHECK(limits->find("cpu")->text() == "2");
    CHECK(limits->find("cpu")->is_string());
    CHECK_FALSE(at(job, "spec.template.spec.containers.1.resources.requests")->find("nvidia.com/gpu"));
}

TEST_CASE("server defaults: Job spec, labels from the template, status and generation", "[k8s-defaults]") {
    const Node job = defaulted(kJob);
    CHECK(text_at(job, "spec.completions") == "1");
    CHECK(text_at(job, "spec.parallelism") == "1");
    CHECK(text_at(job, "spec.backoffLimit") == "6");
    CHECK(text_at(job, "spec.completionMode") == "NonIndexed");
    CHECK(text_at(job, "spec.suspend") == "false");
    CHECK(text_at(job, "spec.podReplacementPolicy") == "TerminatingOrFailed");
    CHECK(text_at(job, "spec.manualSelector") == "false");
    CHECK(text_at(job, "metadata.generation") == "1");
    REQUIRE(at(job, "status"));
    CHECK(at(job, "status")->size() == 0);

    // parallelism alone: completions stays unset; what is written stays.
    const Node parallel = defaulted(R"(apiVersion: batch/v1
kind: Job
metadata:
  name: p
spec:
  parallelism: 4
  suspend: true
  backoffLimitPerIndex: 1
  completionMode: Indexed
  completions: 8
  podFailurePolicy:
    rules: [{action: FailJob, onPodConditions: [{type: DisruptionTarget}]}]
  template:
    metadata: {labels: {kueue.x-k8s.io/queue-name: user-queue}}
    spec: {containers: [{name: c, image: busybox:1}]}
status: {active: 3}
)");
    CHECK(text_at(parallel, "spec.parallelism") == "4");
    CHECK(text_at(parallel, "spec.completions") == "8");
    CHECK(text_at(parallel, "spec.suspend") == "true");
    CHECK(text_at(parallel, "spec.backoffLimit") == "2147483647");
    CHECK(text_at(parallel, "spec.podReplacementPolicy") == "Failed");
    CHECK(text_at(parallel, "spec.podFailurePolicy.rules.0.onPodConditions.0.status") == "True");
    // A Job without labels takes its template's (SetDefaults_Job).
    REQUIRE(at(parallel, "metadata.labels"));
    CHECK(at(parallel, "metadata.labels")->find("kueue.x-k8s.io/queue-name"));
    // status is reset on create.
    CHECK(at(parallel, "status")->size() == 0);

    // A Job with labels of its own keeps them.
    const Node own = defaulted(R"(apiVersion: batch/v1
kind: Job
metadata: {name: o, labels: {team: a}}
spec:
  template:
    metadata: {labels: {kueue.x-k8s.io/queue-name: user-queue}}
    spec: {containers: [{name: c, image: busybox:1}]}
)");
    CHECK_FALSE(at(own, "metadata.labels")->find("kueue.x-k8s.io/queue-name"));
}

TEST_CASE("server defaults: Pods, volumes, probes, Namespaces, apps kinds", "[k8s-defaults]") {
    const Node pod = defaulted(R"(apiVersion: v1
kind: Pod
metadata: {name: p}
spec:
  hostNetwork: true
  volumes: [{name: scratch}, {name: cfg, configMap: {name: c}}, {name: host, hostPath: {path: /tmp}}]
  containers:
  - name: c
    image: busybox:1
    ports: [{containerPort: 9000}]
    resources: {limits: {cpu: 1, memory: 1Gi}, requests: {cpu: 500m}}
    livenessProbe: {httpGet: {port: 8080}, periodSeconds: 5}
    env: [{name: NODE, valueFrom: {fieldRef: {fieldPath: spec.nodeName}}}]
)");
    // SetDefaults_Pod: requests from limits where missing; service links; host ports.
    CHECK(text_at(pod, "spec.containers.0.resources.requests.cpu") == "500m");
    CHECK(text_at(pod, "spec.containers.0.resources.requests.memory") == "1Gi");
    CHECK(text_at(pod, "spec.enableServiceLinks") == "true");
    CHECK(text_at(pod, "spec.containers.0.ports.0.hostPort") == "9000");
    // Volumes.
    CHECK(at(pod, "spec.volumes.0.emptyDir"));
    CHECK(text_at(pod, "spec.volumes.1.configMap.defaultMode") == "420");
    CHECK(text_at(pod, "spec.volumes.2.hostPath.type").empty());
    // Probes and field refs.
    CHECK(text_at(pod, "spec.containers.0.livenessProbe.periodSeconds") == "5");
    CHECK(text_at(pod, "spec.containers.0.livenessProbe.timeoutSeconds") == "1");
    CHECK(text_at(pod, "spec.containers.0.livenessProbe.failureThreshold") == "3");
    CHECK(text_at(pod, "spec.containers.0.livenessProbe.httpGet.path") == "/");
    CHECK(text_at(pod, "spec.containers.0.livenessProbe.httpGet.scheme") == "HTTP");
    CHECK(text_at(pod, "spec.containers.0.env.0.valueFrom.fieldRef.apiVersion") == "v1");

    const Node ns = defaulted("apiVersion: v1\nkind: Namespace\nmetadata: {name: team-a}\n");
    REQUIRE(at(ns, "metadata.labels"));
    CHECK(at(ns, "metadata.labels")->find("kubernetes.io/metadata.name")->text() == "team-a");
    CHECK(text_at(ns, "spec.finalizers.0") == "kubernetes");
    CHECK(text_at(ns, "status.phase") == "Active");

    const Node deploy = defaulted(R"(apiVersion: apps/v1
kind: Deployment
metadata: {name: d}
spec:
  selector: {matchLabels: {app: d}}
  template: {metadata: {labels: {app: d}}, spec: {containers: [{name: c, image: nginx}]}}
)");
    CHECK(text_at(deploy, "spec.replicas") == "1");
    CHECK(text_at(deploy, "spec.strategy.type") == "RollingUpdate");
    CHECK(text_at(deploy, "spec.strategy.rollingUpdate.maxSurge") == "25%");
    CHECK(text_at(deploy, "spec.revisionHistoryLimit") == "10");
    CHECK(text_at(deploy, "spec.progressDeadlineSeconds") == "600");
    CHECK(text_at(deploy, "spec.template.spec.containers.0.imagePullPolicy") == "Always");

    // Kinds without modelled defaults (and Kueue's own) are left exactly as written.
    const std::string cq = "apiVersion: kueue.x-k8s.io/v1beta2\nkind: ClusterQueue\nmetadata: {name: cq}\nspec: {}\n";
    CHECK(defaulted(cq).same_as(parse(cq)));
    CHECK_FALSE(k8s::has_server_defaults("kueue.x-k8s.io/v1beta2", "ClusterQueue"));
    CHECK(k8s::has_server_defaults("batch/v1", "Job"));
    // Malformed parts are left for validation to report, without a crash.
    const std::string odd = "apiVersion: batch/v1\nkind: Job\nmetadata: {name: x}\nspec: {template: 3}\n";
    CHECK(text_at(defaulted(odd), "spec.template") == "3");
    const std::string odd2 = "apiVersion: batch/v1\nkind: Job\nmetadata: {name: x}\nspec: nope\n";
    CHECK(text_at(defaulted(odd2), "spec") == "nope");
}
