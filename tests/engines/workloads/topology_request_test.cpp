// Tests for compiler/engines/workloads/topology_request.cpp: a podSet's
// topologyRequest from the pod template's TAS annotations, and the webhook
// checks of those annotations. The oracle is Kueue at
// ff69552e79ad21652c36caa97038382e55625cf7: the rows of
// pkg/controller/jobframework/tas_test.go (TestPodSetTopologyRequestBuilder)
// and tas_validation_test.go (TestValidateSliceRequiredTopologyConstraintsAnnotation,
// TestValidateSliceSizeAnnotationUpperBound) that need no feature gate off
// the defaults; the messages are tas_validation.go's, restated here.
#include "workloads_util.hpp"

#include "engines/workloads/jobs.hpp"

#include <queueforge/base/node_json.hpp>
#include <queueforge/base/yaml_emit.hpp>
#include <queueforge/base/yaml_load.hpp>

#include <catch2/catch.hpp>

#include <map>
#include <optional>
#include <string>
#include <vector>

using namespace queueforge;
using namespace wl_test;
namespace d = queueforge::workloads::detail;

namespace {

constexpr const char* kReq = "kueue.x-k8s.io/podset-required-topology";
constexpr const char* kPref = "kueue.x-k8s.io/podset-preferred-topology";
constexpr const char* kUnc = "kueue.x-k8s.io/podset-unconstrained-topology";
constexpr const char* kSlice = "kueue.x-k8s.io/podset-slice-required-topology";
constexpr const char* kSize = "kueue.x-k8s.io/podset-slice-size";
constexpr const char* kLayers = "kueue.x-k8s.io/podset-slice-required-topology-constraints";
constexpr const char* kGroup = "kueue.x-k8s.io/podset-group-name";

// An annotations map, values as strings (as the API server stores them).
Node anns(const std::map<std::string, std::string>& kv) {
    Node m = Node::mapping({1, 1});
    int line = 1;
    for (const auto& [k, v] : kv) m.set(k, Node::string(v, {++line, 5}));
    return m;
}

struct Labels {
    std::optional<std::string> pod_index, sub_group_index;
    std::optional<std::int64_t> sub_group_count;
};

// The request as Kueue's JSON ("" for none), or "error: <message>".
std::string build(const std::map<std::string, std::string>& kv, const Labels& l = {}) {
    Node a = anns(kv);
    d::TasSource src;
    src.pod_index_label = l.pod_index;
    src.sub_group_index_label = l.sub_group_index;
    src.sub_group_count = l.sub_group_count;
    d::TasBuild r = d::build_topology_request(&a, src, {});
    if (r.error) return "error: " + r.error->message;
    return r.request ? to_json(*r.request).dump() : "";
}

std::vector<d::TasError> tas_validate(const std::map<std::string, std::string>& kv) {
    Node a = anns(kv);
    auto errs = d::validate_topology_annotations(&a, "spec.template.metadata");
    for (auto& e : errs) e.at = nullptr;  // `a` dies here
    return errs;
}

std::string messages(const std::vector<d::TasError>& errs) {
    std::string s;
    for (const auto& e : errs) s += e.path + ": " + e.message + "\n";
    return s;
}

const std::string kJci = "batch.kubernetes.io/job-completion-index";
const std::string kJobIndex = "jobset.sigs.k8s.io/job-index";

}  // namespace

// ------------------------------------------------ TestPodSetTopologyRequestBuilder

TEST_CASE("tas: builder rows of Kueue's tas_test.go", "[tas]") {
    CHECK(build({{kReq, "cloud.com/block"}}) == R"({"required":"cloud.com/block"})");
    CHECK(build({{kReq, "cloud.com/block"}}, {kJci}) ==
          R"({"required":"cloud.com/block","podIndexLabel":"batch.kubernetes.io/job-completion-index"})");
    // pod index label only: a request without a mode.
    CHECK(build({}, {kJci}) == R"({"podIndexLabel":"batch.kubernetes.io/job-completion-index"})");
    // required annotation with sub group (and pod set group name annotation).
    CHECK(build({{kReq, "cloud.com/block"}, {kGroup, "block"}}, {std::nullopt, kJobIndex, 1}) ==
          R"({"required":"cloud.com/block","subGroupIndexLabel":"jobset.sigs.k8s.io/job-index","subGroupCount":1,"podSetGroupName":"block"})");
    CHECK(build({{kPref, "cloud.com/block"}}) == R"({"preferred":"cloud.com/block"})");
    CHECK(build({{kUnc, "true"}}) == R"({"unconstrained":true})");
    CHECK(build({{kUnc, "false"}}) == R"({"unconstrained":false})");
    // slice-only topology.
    CHECK(build({{kSlice, "cloud.com/block"}, {kSize, "1"}}) == R"({"podSetSliceRequiredTopology":"cloud.com/block","podSetSliceSize":1})");
    // only one of the two slice annotations: no request at all.
    CHECK(build({{kSlice, "cloud.com/block"}}).empty());
    CHECK(build({{kSize, "1"}}).empty());
    // slice-only with sub group and group name: the group name needs a mode.
    CHECK(build({{kSlice, "cloud.com/block"}, {kSize, "1"}, {kGroup, "block"}}, {std::nullopt, kJobIndex, 1}) ==
          R"({"subGroupIndexLabel":"jobset.sigs.k8s.io/job-index","subGroupCount":1,)"
          R"("podSetSliceRequiredTopology":"cloud.com/block","podSetSliceSize":1})");
    // required with the two-level slice annotations (the gate's "ignored" row).
    CHECK(build({{kReq, "cloud.com/block"}, {kSlice, "cloud.com/rack"}, {kSize, "16"}}) ==
          R"({"required":"cloud.com/block","podSetSliceRequiredTopology":"cloud.com/rack","podSetSliceSize":16})");
    CHECK(build({}).empty());
}

TEST_CASE("tas: builder errors are strconv's and the multi-layer parser's", "[tas]") {
    CHECK(build({{kUnc, "invalid"}}) == R"(error: strconv.ParseBool: parsing "invalid": invalid syntax)");
    CHECK(build({{kSlice, "cloud.com/block"}, {kSize, "invalid"}}) == R"(error: strconv.ParseInt: parsing "invalid": invalid syntax)");
    CHECK(build({{kSlice, "cloud.com/block"}, {kSize, "3000000000"}}) ==
          R"(error: strconv.ParseInt: parsing "3000000000": value out of range)");
    CHECK(build({{kReq, "cloud.com/block"}, {kLayers, "[]"}}) == "error: topology constraints must contain between 1 and 3 entries: got 0");
    CHECK(build({{kReq, "cloud.com/block"},
                 {kLayers, R"([{"topology":"cloud.com/rack","size":32},{"topology":"cloud.com/sub-rack","size":16},)"
                           R"({"topology":"cloud.com/cluster","size":4},{"topology":"kubernetes.io/hostname","size":2}])"}}) ==
          "error: topology constraints must contain between 1 and 3 entries: got 4");
    CHECK(build({{kReq, "cloud.com/block"}, {kLayers, "invalid-json"}}) ==
          "error: failed to parse multi-layer topology constraints annotation: invalid character 'i' looking for beginning of value");
    CHECK(build({{kReq, "cloud.com/block"}, {kLayers, R"([{"topology":"cloud.com/rack","size":"8"}])"}}) ==
          "error: failed to parse multi-layer topology constraints annotation: json: cannot unmarshal string into Go struct field "
          "PodsetSliceRequiredTopologyConstraint.size of type int32");
    // A required mode does not read the unconstrained value.
    CHECK(build({{kReq, "cloud.com/block"}, {kUnc, "invalid"}}) == R"({"required":"cloud.com/block"})");
}

TEST_CASE("tas: multi-layer constraints become podsetSliceRequiredTopologyConstraints", "[tas]") {
    CHECK(build({{kReq, "cloud.com/block"},
                 {kLayers, R"([{"topology":"cloud.com/rack","size":16},{"topology":"cloud.com/sub-rack","size":4},)"
                           R"({"topology":"kubernetes.io/hostname","size":2}])"}}) ==
          R"({"required":"cloud.com/block","podsetSliceRequiredTopologyConstraints":[{"topology":"cloud.com/rack","size":16},)"
          R"({"topology":"cloud.com/sub-rack","size":4},{"topology":"kubernetes.io/hostname","size":2}]})");
    CHECK(build({{kReq, "cloud.com/block"}, {kLayers, R"([{"topology":"cloud.com/rack","size":8},{"topology":"kubernetes.io/hostname","size":2}])"}}) ==
          R"({"required":"cloud.com/block","podsetSliceRequiredTopologyConstraints":[{"topology":"cloud.com/rack","size":8},)"
          R"({"topology":"kubernetes.io/hostname","size":2}]})");
    // encoding/json matches keys case-insensitively and ignores unknown ones.
    CHECK(build({{kLayers, R"([{"Topology":"cloud.com/rack","SIZE":8,"x":1}])"}}) ==
          R"({"podsetSliceRequiredTopologyConstraints":[{"topology":"cloud.com/rack","size":8}]})");
    // The constraints win over the two-level slice annotations.
    CHECK(build({{kReq, "b"}, {kSlice, "r"}, {kSize, "2"}, {kLayers, R"([{"topology":"r","size":2}])"}}) ==
          R"({"required":"b","podsetSliceRequiredTopologyConstraints":[{"topology":"r","size":2}]})");
}

// ------------------------------------------------ ValidateTASPodSetRequest

TEST_CASE("tas: constraints rows of Kueue's tas_validation_test.go", "[tas]") {
    struct Row {
        const char* name;
        std::map<std::string, std::string> a;
        std::size_t errors;
    };
    const std::vector<Row> rows = {
        {"valid: single constraint layer", {{kReq, "cloud.com/block"}, {kLayers, R"([{"topology":"cloud.com/rack","size":16}])"}}, 0},
        {"valid: two constraint layers",
         {{kReq, "cloud.com/block"}, {kLayers, R"([{"topology":"cloud.com/rack","size":16},{"topology":"kubernetes.io/hostname","size":4}])"}},
         0},
        {"valid: three constraint layers",
         {{kReq, "cloud.com/block"},
          {kLayers, R"([{"topology":"cloud.com/rack","size":16},{"topology":"cloud.com/sub-rack","size":4},{"topology":"kubernetes.io/hostname","size":2}])"}},
         0},
        {"invalid: not valid JSON", {{kReq, "cloud.com/block"}, {kLayers, "invalid-json"}}, 1},
        {"invalid: empty array", {{kReq, "cloud.com/block"}, {kLayers, "[]"}}, 1},
        {"invalid: more than 3 entries",
         {{kReq, "cloud.com/block"},
          {kLayers, R"([{"topology":"a","size":64},{"topology":"b","size":16},{"topology":"c","size":4},{"topology":"d","size":1}])"}},
         1},
        {"invalid: size less than 1", {{kReq, "cloud.com/block"}, {kLayers, R"([{"topology":"cloud.com/rack","size":0}])"}}, 1},
        {"invalid: size does not divide parent",
         {{kReq, "cloud.com/block"}, {kLayers, R"([{"topology":"cloud.com/rack","size":16},{"topology":"kubernetes.io/hostname","size":5}])"}},
         1},
        {"invalid: mutual exclusivity with podset-slice-required-topology",
         {{kReq, "cloud.com/block"}, {kSlice, "cloud.com/rack"}, {kSize, "16"}, {kLayers, R"([{"topology":"cloud.com/rack","size":16}])"}},
         2},
        {"invalid: with podset-group-name",
         {{kReq, "cloud.com/block"}, {kLayers, R"([{"topology":"cloud.com/rack","size":16}])"}, {kGroup, "group1"}},
         1},
        {"invalid: duplicate topology labels",
         {{kReq, "cloud.com/block"}, {kLayers, R"([{"topology":"cloud.com/rack","size":16},{"topology":"cloud.com/rack","size":4}])"}},
         1},
        {"invalid: duplicate topology label among three entries",
         {{kReq, "cloud.com/block"},
          {kLayers, R"([{"topology":"cloud.com/rack","size":16},{"topology":"kubernetes.io/hostname","size":4},{"topology":"cloud.com/rack","size":2}])"}},
         1},
    };
    for (const auto& row : rows) {
        auto errs = tas_validate(row.a);
        INFO(row.name << "\n" << messages(errs));
        CHECK(errs.size() == row.errors);
    }
}

TEST_CASE("tas: validation messages are Kueue's field errors", "[tas]") {
    const std::string p = "spec.template.metadata.annotations";
    auto one = [&](const std::map<std::string, std::string>& a) {
        auto errs = tas_validate(a);
        INFO(messages(errs));
        REQUIRE(errs.size() == 1);
        return errs[0].path + ": " + errs[0].message;
    };
    CHECK(one({{kReq, "a"}, {kPref, "b"}}) ==
          p + R"(: Invalid value: must not contain more than one topology annotation: ["kueue.x-k8s.io/podset-required-topology", )"
              R"("kueue.x-k8s.io/podset-preferred-topology", "kueue.x-k8s.io/podset-unconstrained-topology"])");
    CHECK(one({{kUnc, "yes"}}) == p + "[" + kUnc + R"(]: Invalid value: "yes": must be a boolean value)");
    CHECK(one({{kSlice, "r"}, {kSize, "x"}}) == p + "[" + kSize + R"(]: Invalid value: "x": must be a numeric value)");
    CHECK(one({{kSlice, "r"}, {kSize, "0"}}) == p + "[" + kSize + R"(]: Invalid value: "0": must be greater than or equal to 1)");
    CHECK(one({{kSlice, "r"}}) == p + "[" + kSize + "]: Required value: must be set when '" + kSlice + "' is specified");
    CHECK(one({{kSize, "2"}}) == p + "[" + kSize + "]: Forbidden: may not be set when '" + kSlice + "' is not specified");
    CHECK(one({{kPref, "b"}, {kGroup, "42"}}) == p + "[" + kGroup + R"(]: Invalid value: "42": must not be a number)");
    CHECK(one({{kGroup, "g"}}) == p + "[" + kGroup + "]: Forbidden: may not be set when neither '" + kPref + "' nor '" + kReq +
                                      "' is specified");
    CHECK(one({{kReq, "Not A Label!"}}).starts_with(p + "[" + kReq + R"(]: Invalid value: "Not A Label!": name part must consist of)"));
    CHECK(one({{kReq, "b"}, {kLayers, R"([{"topology":"r","size":16},{"topology":"h","size":5}])"}}) ==
          p + "[" + kLayers + "][1].size: Invalid value: 5: must evenly divide the parent layer size 16");
    CHECK(one({{kReq, "b"}, {kLayers, R"([{"topology":"r","size":16},{"topology":"r","size":4}])"}}) ==
          p + "[" + kLayers + R"x(][1].topology: Duplicate value: "r (also at index 0)")x");
    CHECK(one({{kReq, "b"}, {kLayers, "[]"}}) == p + "[" + kLayers + R"(]: Invalid value: "[]": topology constraints must contain between 1 and 3 entries)");
    // A group name with slices: both the group's and the constraints' rule.
    auto errs = tas_validate({{kReq, "b"}, {kGroup, "g"}, {kSlice, "r"}, {kSize, "2"}});
    INFO(messages(errs));
    REQUIRE(errs.size() == 2);
    CHECK(errs[0].message == std::string("Forbidden: may not be set when '") + kSize + "' is specified");
    CHECK(errs[1].message == std::string("Forbidden: may not be set when '") + kSlice + "' is specified");
    CHECK(tas_validate({{kReq, "cloud.com/block"}, {kGroup, "g"}}).empty());
}

TEST_CASE("tas: slice size upper bound rows of Kueue's tas_validation_test.go", "[tas]") {
    auto bound = [](const std::map<std::string, std::string>& kv, std::int64_t count) {
        Node a = anns(kv);
        auto errs = d::validate_slice_size_bound(&a, "spec.template.metadata", count);
        for (auto& e : errs) e.at = nullptr;
        return errs;
    };
    CHECK(bound({{kSize, "16"}, {kSlice, "cloud.com/rack"}, {kReq, "cloud.com/block"}}, 20).empty());
    auto over = bound({{kSize, "20"}, {kSlice, "cloud.com/rack"}, {kReq, "cloud.com/block"}}, 16);
    REQUIRE(over.size() == 1);
    CHECK(over[0].message == R"(Invalid value: "20": must not be greater than pod set count 16)");
    const std::string layers = R"([{"topology":"cloud.com/rack","size":16},{"topology":"kubernetes.io/hostname","size":4}])";
    CHECK(bound({{kReq, "cloud.com/block"}, {kLayers, layers}}, 20).empty());
    auto outer = bound({{kReq, "cloud.com/block"}, {kLayers, layers}}, 10);
    REQUIRE(outer.size() == 1);
    CHECK(outer[0].message == "Invalid value: 16: must not be greater than pod set count 10");
}

// ------------------------------------------------ through the integrations

namespace {

// The podSets' topologyRequest blocks as emitted YAML, one per podSet ("-"
// for none).
std::string emitted(const Resource& wl) {
    std::string s;
    const Node* ps = at(wl.doc, {"spec", "podSets"});
    for (const auto& p : ps ? ps->items() : Node::Items{}) {
        const Node* t = p.find("topologyRequest");
        s += str(p, {"name"}) + ":\n" + (t ? emit_yaml(*t) : std::string("-\n"));
    }
    return s;
}

}  // namespace

TEST_CASE("tas: a batch Job's Workload carries the request with the completion index", "[tas]") {
    Run r(yaml(R"(
apiVersion: batch/v1
kind: Job
metadata: {name: j, namespace: default, labels: {kueue.x-k8s.io/queue-name: lq}}
spec:
  parallelism: 4
  template:
    metadata:
      annotations:
        kueue.x-k8s.io/podset-preferred-topology: cloud.com/rack
        kueue.x-k8s.io/podset-group-name: ignored-without-partner
    spec: {containers: [{name: c, resources: {requests: {cpu: "1"}}}]}
)"));
    INFO(qf_test::messages(r.d));
    REQUIRE(r.out.size() == 1);
    CHECK(r.d.empty());
    CHECK(emitted(r.out[0]) == "main:\n"
                               "preferred: cloud.com/rack\n"
                               "podIndexLabel: batch.kubernetes.io/job-completion-index\n"
                               "podSetGroupName: ignored-without-partner\n");
    // The request sits after the template, as in Kueue's PodSet.
    const Node& ps = at(r.out[0].doc, {"spec", "podSets", "0"})[0];
    CHECK(ps.entries().back().key == "topologyRequest");
    CHECK(schema_errors(r.out) == 0);
}

TEST_CASE("tas: a JobSet's podSets name the job index and the replicas", "[tas]") {
    Run r(yaml(R"(
apiVersion: jobset.x-k8s.io/v1alpha2
kind: JobSet
metadata: {name: js, namespace: default, labels: {kueue.x-k8s.io/queue-name: lq}}
spec:
  replicatedJobs:
    - name: leader
      replicas: 1
      template:
        spec:
          parallelism: 1
          template:
            metadata: {annotations: {kueue.x-k8s.io/podset-required-topology: cloud.com/block, kueue.x-k8s.io/podset-group-name: g}}
            spec: {containers: [{name: c}]}
    - name: workers
      replicas: 3
      template:
        spec:
          parallelism: 4
          template:
            metadata:
              annotations:
                kueue.x-k8s.io/podset-required-topology: cloud.com/block
                kueue.x-k8s.io/podset-group-name: g
                kueue.x-k8s.io/podset-slice-required-topology-constraints: '[{"topology":"cloud.com/rack","size":4},{"topology":"kubernetes.io/hostname","size":2}]'
            spec: {containers: [{name: c}]}
)"));
    INFO(qf_test::messages(r.d));
    // A group name with the multi-layer constraints is refused.
    CHECK(r.out.empty());
    REQUIRE(r.count("jobs.invalid") == 1);
    CHECK(r.first("jobs.invalid")->path ==
          "spec.replicatedJobs[1].template.spec.template.metadata.annotations[kueue.x-k8s.io/podset-group-name]");

    std::string ok = yaml(R"(
apiVersion: jobset.x-k8s.io/v1alpha2
kind: JobSet
metadata: {name: js, namespace: default, labels: {kueue.x-k8s.io/queue-name: lq}}
spec:
  replicatedJobs:
    - name: leader
      replicas: 1
      template:
        spec:
          parallelism: 1
          template:
            metadata: {annotations: {kueue.x-k8s.io/podset-required-topology: cloud.com/block, kueue.x-k8s.io/podset-group-name: g}}
            spec: {containers: [{name: c}]}
    - name: workers
      replicas: 3
      template:
        spec:
          parallelism: 4
          template:
            metadata:
              annotations:
                kueue.x-k8s.io/podset-required-topology: cloud.com/block
                kueue.x-k8s.io/podset-group-name: g
            spec: {containers: [{name: c}]}
    - name: sliced
      replicas: 2
      template:
        spec:
          parallelism: 4
          template:
            metadata:
              annotations:
                kueue.x-k8s.io/podset-preferred-topology: cloud.com/block
                kueue.x-k8s.io/podset-slice-required-topology-constraints: '[{"topology":"cloud.com/rack","size":4},{"topology":"kubernetes.io/hostname","size":2}]'
            spec: {containers: [{name: c}]}
)");
    Run g(ok);
    INFO(qf_test::messages(g.d));
    REQUIRE(g.out.size() == 1);
    CHECK(g.d.empty());
    CHECK(emitted(g.out[0]) == "leader:\n"
                               "required: cloud.com/block\n"
                               "podIndexLabel: batch.kubernetes.io/job-completion-index\n"
                               "subGroupIndexLabel: jobset.sigs.k8s.io/job-index\n"
                               "subGroupCount: 1\n"
                               "podSetGroupName: g\n"
                               "workers:\n"
                               "required: cloud.com/block\n"
                               "podIndexLabel: batch.kubernetes.io/job-completion-index\n"
                               "subGroupIndexLabel: jobset.sigs.k8s.io/job-index\n"
                               "subGroupCount: 3\n"
                               "podSetGroupName: g\n"
                               "sliced:\n"
                               "preferred: cloud.com/block\n"
                               "podIndexLabel: batch.kubernetes.io/job-completion-index\n"
                               "subGroupIndexLabel: jobset.sigs.k8s.io/job-index\n"
                               "subGroupCount: 2\n"
                               "podsetSliceRequiredTopologyConstraints:\n"
                               "  - topology: cloud.com/rack\n"
                               "    size: 4\n"
                               "  - topology: kubernetes.io/hostname\n"
                               "    size: 2\n");
    CHECK(schema_errors(g.out) == 0);

    // ValidatePodSetGroupingTopology: groups of two, one of them a single pod,
    // with the same required or preferred level.
    std::string three = ok;
    three.replace(three.find("podset-preferred-topology: cloud.com/block\n"), 43,
                  "podset-required-topology: cloud.com/block\n                kueue.x-k8s.io/podset-group-name: g\n");
    three.erase(three.find("                kueue.x-k8s.io/podset-slice-required-topology-constraints"));
    three += "            spec: {containers: [{name: c}]}\n";
    Run t(three);
    INFO(qf_test::messages(t.d));
    CHECK(t.out.empty());
    CHECK(t.count("jobs.invalid") == 3);
    CHECK(t.first("jobs.invalid")->message.find(R"(Invalid value: "g": can only define groups of exactly 2 pod sets, got: 3 pod set(s))") !=
          std::string::npos);

    std::string mismatch = ok;
    const std::string from = "{annotations: {kueue.x-k8s.io/podset-required-topology:";
    mismatch.replace(mismatch.find(from), from.size(), "{annotations: {kueue.x-k8s.io/podset-preferred-topology:");
    mismatch.replace(mismatch.find("parallelism: 1"), 14, "parallelism: 2");
    Run m(mismatch);
    INFO(qf_test::messages(m.d));
    CHECK(m.out.empty());
    // Both podSets of the group have more than one pod, and their levels differ.
    CHECK(m.count("jobs.invalid") == 4);
    bool consistent = false, sizes = false;
    for (const auto& x : m.d.all()) {
        consistent |= x.message.find("spec.replicatedJobs[0].template.spec.template.metadata.annotations: Invalid value: must specify "
                                     "'kueue.x-k8s.io/podset-required-topology' or 'kueue.x-k8s.io/podset-preferred-topology' topology "
                                     "consistent with 'spec.replicatedJobs[1].template.spec.template.metadata.annotations' in group 'g'") !=
                      std::string::npos;
        sizes |= x.message.find("can only define groups where at least one pod set has only 1 replica, got: 2 replica(s) and 12 replica(s) in the group") !=
                 std::string::npos;
    }
    CHECK(consistent);
    CHECK(sizes);
}

TEST_CASE("tas: a LeaderWorkerSet sample groups its leader and workers", "[tas]") {
    Run r(yaml(R"(
apiVersion: leaderworkerset.x-k8s.io/v1
kind: LeaderWorkerSet
metadata: {name: lws, namespace: default, labels: {kueue.x-k8s.io/queue-name: lq}}
spec:
  replicas: 2
  leaderWorkerTemplate:
    size: 3
    leaderTemplate:
      metadata: {annotations: {kueue.x-k8s.io/podset-required-topology: cloud.com/rack, kueue.x-k8s.io/podset-group-name: lws-group}}
      spec: {containers: [{name: c}]}
    workerTemplate:
      metadata:
        annotations:
          kueue.x-k8s.io/podset-required-topology: cloud.com/rack
          kueue.x-k8s.io/podset-group-name: lws-group
          kueue.x-k8s.io/podset-slice-required-topology: kubernetes.io/hostname
      spec: {containers: [{name: c}]}
)"));
    INFO(qf_test::messages(r.d));
    // podset-group-name with a slice topology (and no slice size) is refused.
    CHECK(r.out.empty());
    REQUIRE(r.count("jobs.invalid") == 2);
    CHECK(r.d.all()[0].path == "spec.leaderWorkerTemplate.workerTemplate.metadata.annotations[kueue.x-k8s.io/podset-group-name]");
    CHECK(r.d.all()[1].message.find("[kueue.x-k8s.io/podset-slice-size]: Required value: must be set when "
                                    "'kueue.x-k8s.io/podset-slice-required-topology' is specified") != std::string::npos);

    Run ok(yaml(R"(
apiVersion: leaderworkerset.x-k8s.io/v1
kind: LeaderWorkerSet
metadata: {name: lws, namespace: default, labels: {kueue.x-k8s.io/queue-name: lq}}
spec:
  replicas: 2
  leaderWorkerTemplate:
    size: 3
    leaderTemplate:
      metadata: {annotations: {kueue.x-k8s.io/podset-required-topology: cloud.com/rack, kueue.x-k8s.io/podset-group-name: lws-group}}
      spec: {containers: [{name: c}]}
    workerTemplate:
      metadata: {annotations: {kueue.x-k8s.io/podset-required-topology: cloud.com/rack, kueue.x-k8s.io/podset-group-name: lws-group}}
      spec: {containers: [{name: c}]}
)"));
    INFO(qf_test::messages(ok.d));
    REQUIRE(ok.out.size() == 2);
    for (const auto& wl : ok.out)
        CHECK(emitted(wl) == "leader:\n"
                             "required: cloud.com/rack\n"
                             "podSetGroupName: lws-group\n"
                             "worker:\n"
                             "required: cloud.com/rack\n"
                             "podIndexLabel: leaderworkerset.sigs.k8s.io/worker-index\n"
                             "podSetGroupName: lws-group\n");
    CHECK(schema_errors(ok.out) == 0);
}

TEST_CASE("tas: per integration, the labels Kueue names and no request without them", "[tas]") {
    // Ray and Spark name no index label: no request without annotations.
    Run ray(yaml(R"(
apiVersion: ray.io/v1
kind: RayCluster
metadata: {name: rc, namespace: default, labels: {kueue.x-k8s.io/queue-name: lq}}
spec:
  headGroupSpec:
    template:
      metadata: {annotations: {kueue.x-k8s.io/podset-unconstrained-topology: "true"}}
      spec: {containers: [{name: ray-head}]}
  workerGroupSpecs:
    - groupName: small
      replicas: 1
      template: {spec: {containers: [{name: w}]}}
)"));
    INFO(qf_test::messages(ray.d));
    REQUIRE(ray.out.size() == 1);
    CHECK(emitted(ray.out[0]) == "head:\nunconstrained: true\nsmall:\n-\n");

    // A PyTorchJob's replica index; the path names the canonical replica type.
    Run pt(yaml(R"(
apiVersion: kubeflow.org/v1
kind: PyTorchJob
metadata: {name: pt, namespace: default, labels: {kueue.x-k8s.io/queue-name: lq}}
spec:
  pytorchReplicaSpecs:
    master:
      replicas: 1
      template: {spec: {containers: [{name: pytorch}]}}
    Worker:
      replicas: 2
      template:
        metadata: {annotations: {kueue.x-k8s.io/podset-slice-required-topology: cloud.com/rack, kueue.x-k8s.io/podset-slice-size: "3"}}
        spec: {containers: [{name: pytorch}]}
)"));
    INFO(qf_test::messages(pt.d));
    CHECK(pt.out.empty());
    REQUIRE(pt.count("jobs.invalid") == 1);
    CHECK(pt.first("jobs.invalid")->message.find(
              R"(spec.pytorchReplicaSpecs[Worker].template.metadata.annotations[kueue.x-k8s.io/podset-slice-size]: Invalid value: "3": )"
              "must not be greater than pod set count 2") != std::string::npos);

    // A Pod's own annotations with the pod-group index label.
    Run pod(yaml(R"(
apiVersion: v1
kind: Pod
metadata:
  name: p
  namespace: default
  labels: {kueue.x-k8s.io/queue-name: lq}
  annotations: {kueue.x-k8s.io/podset-required-topology: cloud.com/block}
spec: {containers: [{name: c}]}
)"));
    INFO(qf_test::messages(pod.d));
    REQUIRE(pod.out.size() == 1);
    CHECK(emitted(pod.out[0]) == "main:\nrequired: cloud.com/block\npodIndexLabel: kueue.x-k8s.io/pod-group-pod-index\n");
}

TEST_CASE("tas: an elastic Job may only ask for unconstrained topology", "[tas]") {
    const std::string job = yaml(R"(
apiVersion: batch/v1
kind: Job
metadata: {name: j, namespace: default, labels: {kueue.x-k8s.io/queue-name: lq}, annotations: {kueue.x-k8s.io/elastic-job: "true"}}
spec:
  parallelism: 2
  template:
    metadata: {annotations: {MODE: cloud.com/block}}
    spec: {containers: [{name: c}]}
)");
    std::string req = job;
    req.replace(req.find("MODE"), 4, "kueue.x-k8s.io/podset-required-topology");
    Run r(req);
    CHECK(r.out.empty());
    REQUIRE(r.count("jobs.invalid") == 1);
    CHECK(r.first("jobs.invalid")->message.find(
              "spec.template.metadata.annotations.kueue.x-k8s.io/podset-required-topology: Forbidden: required topology is not "
              "supported with elastic jobs") != std::string::npos);
    std::string unc = job;
    unc.replace(unc.find("MODE: cloud.com/block"), 21, "kueue.x-k8s.io/podset-unconstrained-topology: \"true\"");
    Run u(unc);
    INFO(qf_test::messages(u.d));
    CHECK(u.out.size() == 1);
}

TEST_CASE("tas: where no webhook checks the annotations, Kueue's build error remains", "[tas]") {
    // AppWrapper: no TAS validation in its webhook; the unconstrained value
    // fails the Workload's construction. Its inferred Job podSet names the
    // completion index (appwrapper InferPodSets).
    const std::string aw = yaml(R"(
apiVersion: workload.codeflare.dev/v1beta2
kind: AppWrapper
metadata: {name: aw, namespace: default, labels: {kueue.x-k8s.io/queue-name: lq}}
spec:
  components:
    - template:
        apiVersion: batch/v1
        kind: Job
        metadata: {name: j}
        spec:
          template:
            metadata: {annotations: {kueue.x-k8s.io/podset-unconstrained-topology: VALUE}}
            spec: {containers: [{name: c}], restartPolicy: Never}
)");
    std::string bad = aw;
    bad.replace(bad.find("VALUE"), 5, "maybe");
    Run r(bad);
    CHECK(r.out.empty());
    REQUIRE(r.count("jobs.invalid") == 1);
    CHECK(r.first("jobs.invalid")->message.find(R"(Kueue cannot build the Workload: strconv.ParseBool: parsing "maybe": invalid syntax)") !=
          std::string::npos);
    CHECK(r.first("jobs.invalid")->mark.line == 12);
    std::string good = aw;
    good.replace(good.find("VALUE"), 5, "\"true\"");
    Run g(good);
    INFO(qf_test::messages(g.d));
    REQUIRE(g.out.size() == 1);
    CHECK(emitted(g.out[0]) == "aw-0:\nunconstrained: true\npodIndexLabel: batch.kubernetes.io/job-completion-index\n");

    // JobSet: the webhook builds the podSets first, so the build error is
    // what it returns.
    Run js(yaml(R"(
apiVersion: jobset.x-k8s.io/v1alpha2
kind: JobSet
metadata: {name: js, namespace: default, labels: {kueue.x-k8s.io/queue-name: lq}}
spec:
  replicatedJobs:
    - name: w
      template:
        spec:
          template:
            metadata: {annotations: {kueue.x-k8s.io/podset-unconstrained-topology: maybe}}
            spec: {containers: [{name: c}]}
)"));
    REQUIRE(js.count("jobs.invalid") == 1);
    CHECK(js.first("jobs.invalid")->message.find("strconv.ParseBool") != std::string::npos);
    // A batch Job: the webhook's own message.
    Run job(yaml(R"(
apiVersion: batch/v1
kind: Job
metadata: {name: j, namespace: default, labels: {kueue.x-k8s.io/queue-name: lq}}
spec:
  template:
    metadata: {annotations: {kueue.x-k8s.io/podset-unconstrained-topology: maybe}}
    spec: {containers: [{name: c}]}
)"));
    REQUIRE(job.count("jobs.invalid") == 1);
    CHECK(job.first("jobs.invalid")->message.find(
              R"(spec.template.metadata.annotations[kueue.x-k8s.io/podset-unconstrained-topology]: Invalid value: "maybe": must be a boolean value)") !=
          std::string::npos);
}

TEST_CASE("tas: every member of a pod group is checked at its own position", "[tas]") {
    const std::string pod = R"(apiVersion: v1
kind: Pod
metadata:
  name: NAME
  namespace: default
  labels: {kueue.x-k8s.io/queue-name: lq, kueue.x-k8s.io/pod-group-name: grp}
  annotations: {kueue.x-k8s.io/pod-group-total-count: "2", ANN}
spec: {containers: [{name: c, resources: {requests: {cpu: "1"}}}]}
)";
    auto member = [&](const std::string& name, const std::string& ann) {
        std::string p = pod;
        p.replace(p.find("NAME"), 4, name);
        p.replace(p.find("ANN"), 3, ann);
        return p;
    };
    const std::string good = "kueue.x-k8s.io/podset-required-topology: cloud.com/block";
    Run ok(member("a", good) + "---\n" + member("b", good));
    INFO(qf_test::messages(ok.d));
    REQUIRE(ok.out.size() == 1);
    CHECK(emitted(ok.out[0]).ends_with(":\nrequired: cloud.com/block\npodIndexLabel: kueue.x-k8s.io/pod-group-pod-index\n"));
    // The second pod shares the first one's role, so it is no podSet of its
    // own, but the Pod webhook refuses it.
    Run bad(member("a", good) + "---\n" + member("b", good + ", kueue.x-k8s.io/podset-unconstrained-topology: \"true\""));
    CHECK(bad.out.empty());
    REQUIRE(bad.count("jobs.invalid") == 1);
    const Diagnostic* e = bad.first("jobs.invalid");
    CHECK(e->object.name == "b");
    CHECK(e->mark.line == 16);
    CHECK(e->path == "metadata.annotations");
}
