// Tests for compiler/engines/workloads/role_hash.cpp: pod-group podSets are
// named by Kueue's role hash and ordered by name. The oracle is Kueue's own
// tests at ff69552e79ad21652c36caa97038382e55625cf7:
// pkg/controller/jobs/pod/pod_webhook_test.go expects RoleHash("a9f06f3a") for
// its MakePod (one container `c`, requests and limits empty maps), and
// pod_controller_test.go names the podSet of a group of MakePod(...).Request(cpu,
// "1") pods "dc85db45" (TestReconciler pod groups, TestRecordPodSchedulingGateRemovalSeconds).
#include "workloads_util.hpp"

#include "engines/workloads/jobs.hpp"

#include <queueforge/base/sha256.hpp>
#include <queueforge/base/yaml_load.hpp>

#include <catch2/catch.hpp>

#include <string>

using namespace queueforge;
using namespace wl_test;

namespace {

Node spec_of(const std::string& yaml_text) {
    Diagnostics d;
    auto docs = load_yaml("spec.yaml", yaml_text, d);
    REQUIRE(docs.size() == 1);
    REQUIRE_FALSE(d.has_errors());
    return docs[0].root;
}

// Kueue's testingpod.MakePod spec (restartPolicy Never, one container c of
// image pause with empty requests and limits, no scheduling gates).
constexpr const char* kMakePod = R"(restartPolicy: Never
containers:
- name: c
  image: pause
  resources: {requests: {}, limits: {}}
schedulingGates: []
)";

}  // namespace

TEST_CASE("role hash: SHA-256 matches FIPS 180-4's examples", "[role-hash]") {
    CHECK(sha256_hex("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    CHECK(sha256_hex("") == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
    CHECK(sha256_hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq") ==
          "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
}

TEST_CASE("role hash: Kueue's MakePod hashes to a9f06f3a (pod_webhook_test)", "[role-hash]") {
    const Node spec = spec_of(kMakePod);
    CHECK(workloads::detail::role_shape_json(spec) ==
          R"({"spec":{"affinity":null,"containers":[{"ports":null,"resources":{"requests":{}}}],"initContainers":null,)"
          R"("nodeSelector":null,"overhead":null,"priority":null,"resourceClaims":null,"runtimeClassName":null,)"
          R"("tolerations":null,"topologySpreadConstraints":null}})");
    CHECK(workloads::detail::role_hash(spec) == "a9f06f3a");
}

TEST_CASE("role hash: MakePod with a cpu request of 1 hashes to dc85db45 (pod_controller_test)", "[role-hash]") {
    std::string y = kMakePod;
    y.replace(y.find("requests: {}"), 12, "requests: {cpu: \"1\"}");
    CHECK(workloads::detail::role_hash(spec_of(y)) == "dc85db45");
    // Quantities hash by their canonical spelling; key order and fields
    // outside the shape (image, command, restartPolicy) do not count.
    y.replace(y.find("cpu: \"1\""), 8, "cpu: 1000m");
    y.replace(y.find("image: pause"), 12, "command: [sleep]");
    CHECK(workloads::detail::role_hash(spec_of(y)) == "dc85db45");
    CHECK(workloads::detail::role_hash(spec_of("containers:\n- resources: {limits: {}, requests: {cpu: \"1\"}}\n  name: x\n")) == "dc85db45");
    // Without the empty requests map the container's requests are null.
    CHECK(workloads::detail::role_hash(spec_of("containers: [{name: c}]\n")) != "a9f06f3a");
}

TEST_CASE("role hash: Go's struct encoding -- field order, omitempty, HTML escaping", "[role-hash]") {
    const Node spec = spec_of(R"(containers:
- name: c
  ports: [{protocol: TCP, containerPort: 80, name: http}]
  resources: {requests: {memory: 1Gi, cpu: 500m}}
nodeSelector: {zone: "a<b>&c", gpu: h100}
tolerations: [{effect: NoSchedule, operator: Exists, key: gpu}, {key: t, value: v, tolerationSeconds: 300, operator: Equal}]
priority: 7
runtimeClassName: nvidia
resources: {limits: {cpu: "2"}}
affinity:
  nodeAffinity:
    requiredDuringSchedulingIgnoredDuringExecution:
      nodeSelectorTerms: [{matchExpressions: [{values: [a, b], operator: In, key: k}]}]
)");
    CHECK(workloads::detail::role_shape_json(spec) ==
          R"({"spec":{"affinity":{"nodeAffinity":{"requiredDuringSchedulingIgnoredDuringExecution":{"nodeSelectorTerms":)"
          R"([{"matchExpressions":[{"key":"k","operator":"In","values":["a","b"]}]}]}}},)"
          R"("containers":[{"ports":[{"name":"http","containerPort":80,"protocol":"TCP"}],"resources":{"requests":{"cpu":"500m","memory":"1Gi"}}}],)"
          R"("initContainers":null,"nodeSelector":{"gpu":"h100","zone":"a\u003cb\u003e\u0026c"},"overhead":null,"priority":7,)"
          R"("resourceClaims":null,"resources":null,"runtimeClassName":"nvidia",)"
          R"("tolerations":[{"key":"gpu","operator":"Exists","effect":"NoSchedule"},{"key":"t","operator":"Equal","value":"v","tolerationSeconds":300}],)"
          R"("topologySpreadConstraints":null}})");
}

TEST_CASE("role hash: a pod group's podSets are named by role hash and ordered by name", "[role-hash]") {
    auto pod = [](const std::string& name, const std::string& cpu) {
        return "apiVersion: v1\nkind: Pod\nmetadata:\n  name: " + name +
               "\n  labels: {kueue.x-k8s.io/queue-name: lq, kueue.x-k8s.io/pod-group-name: grp}\n"
               "  annotations: {kueue.x-k8s.io/pod-group-total-count: \"3\"}\nspec:\n  restartPolicy: Never\n"
               "  containers:\n  - name: c\n    image: pause\n    resources: {requests: {cpu: \"" +
               cpu + "\"}, limits: {}}\n  schedulingGates: []\n";
    };
    // The cpu 1 role comes first in the input; the cpu 2 role's hash sorts
    // first (21a4619c, also computed independently with Python's json and
    // hashlib over the same shape), so it leads the podSets, as in Kueue.
    const std::string one = workloads::detail::role_hash(spec_of("containers: [{resources: {requests: {cpu: \"1\"}}}]\n"));
    const std::string two = workloads::detail::role_hash(spec_of("containers: [{resources: {requests: {cpu: \"2\"}}}]\n"));
    REQUIRE(one == "dc85db45");
    REQUIRE(two == "21a4619c");
    Run r(pod("a", "1") + "---\n" + pod("b", "2") + "---\n" + pod("c", "1"));
    INFO(qf_test::messages(r.d));
    REQUIRE(r.out.size() == 1);
    CHECK(pod_sets(r.out[0]) == "21a4619c:1 dc85db45:2");
}
