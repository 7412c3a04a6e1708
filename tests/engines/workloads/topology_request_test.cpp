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
