// Tests for compiler/checks/rules: Kueue's CEL and webhook rules per object
// (kueue-semantics.md section 2) and the cross-object checks. Every rule has a
// case that fires (checked by rule id, field path, position and wording) and
// one that must stay quiet. The wording is Kueue's own (pkg/webhooks, the CRD
// x-kubernetes-validations), restated here on purpose.
#include <catch2/catch.hpp>

#include <queueforge/frontend/manifests.hpp>
#include <queueforge/checks/rules.hpp>

#include <algorithm>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

using namespace queueforge;

namespace {

// YAML written as raw string literals starts right after `R"(` plus one
// newline; dropping that newline makes line 1 the first line of the text.
std::string yaml(const char* text) {
    std::string s = text;
    if (!s.empty() && s.front() == '\n') s.erase(0, 1);
    return s;
}

LoadedResources load(const std::string& text) {
    LoadedResources in;
    Diagnostics d;
    load_resources_from_text("x.yaml", text, in, d);
    INFO(text);
    REQUIRE_FALSE(d.has_errors());
    return in;
}

Diagnostics check(const std::string& text) {
    auto in = load(text);
    Diagnostics d;
    for (const auto& r : in.resources) rules::check_object(r, d);
    return d;
}

Diagnostics cross(const std::string& text, std::optional<std::string> target = std::nullopt) {
    auto in = load(text);
    rules::CrossOptions o;
    if (target) {
        auto t = find_target(*target);
        REQUIRE(t.target);
        o.target = t.target;
    }
    Diagnostics d;
    rules::check_cross_objects(in.resources, o, d);
    return d;
}

std::vector<Diagnostic> of_rule(const Diagnostics& d, const std::string& rule) {
    std::vector<Diagnostic> out;
    for (const auto& x : d.all())
        if (x.rule == rule) out.push_back(x);
    return out;
}

std::string dump(const Diagnostics& d) {
    std::string s;
    for (const auto& x : d.all())
        s += std::string(severity_name(x.severity)) + " [" + x.rule + "] " + x.path + " @" + std::to_string(x.mark.line) +
             ":" + std::to_string(x.mark.col) + " " + x.message + "\n";
    return s;
}

// Exactly one finding with `rule` at `path`, `line`:`col`; returns it.
Diagnostic one(const Diagnostics& d, const std::string& rule, const std::string& path, int line, int col) {
    INFO(dump(d));
    auto found = of_rule(d, rule);
    REQUIRE(found.size() == 1);
    CHECK(found[0].path == path);
    CHECK(found[0].mark.line == line);
    CHECK(found[0].mark.col == col);
    CHECK(found[0].file == "x.yaml");
    return found[0];
}

void none(const Diagnostics& d, const std::string& rule) {
    INFO(dump(d));
    CHECK(of_rule(d, rule).empty());
}

void no_errors(const Diagnostics& d) {
    INFO(dump(d));
    CHECK(d.count(Severity::Error) == 0);
}

bool has(const std::string& haystack, const std::string& needle) { return haystack.find(needle) != std::string::npos; }

}  // namespace

// ---------------------------------------------------------------- ResourceFlavor

TEST_CASE("rules: V11 ResourceFlavor nodeLabels are label keys and values", "[rules]") {
    auto bad = check(yaml(R"(
apiVersion: kueue.x-k8s.io/v1beta2
kind: ResourceFlavor
metadata:
  name: gpu
spec:
  nodeLabels:
    "bad key!": a100
    ok: "bad value!"
)"));
    auto d = of_rule(bad, "V11");
    REQUIRE(d.size() == 2);
    CHECK(d[0].path == "spec.nodeLabels[bad key!]");
    CHECK(d[0].mark.line == 7);
    CHECK(d[0].mark.col == 5);
    CHECK(d[0].object.kind == "ResourceFlavor");
    CHECK(d[0].object.name == "gpu");
    CHECK(d[0].message.starts_with("spec.nodeLabels: Invalid value: \"bad key!\": name part must consist of"));
    CHECK(d[1].path == "spec.nodeLabels[ok]");
    CHECK(d[1].mark.line == 8);
    CHECK(d[1].mark.col == 9);
    CHECK(d[1].message.starts_with("spec.nodeLabels: Invalid value: \"bad value!\": a valid label must be"));

    no_errors(check(yaml(R"(
apiVersion: kueue.x-k8s.io/v1beta2
kind: ResourceFlavor
metadata:
  name: gpu
spec:
  nodeLabels:
    nvidia.com/gpu.product: NVIDIA-A100-SXM4-80GB
    empty: ""
)")));
}

TEST_CASE("rules: V12 V13 V14 ResourceFlavor nodeTaints", "[rules]") {
    auto bad = check(yaml(R"(
apiVersion: kueue.x-k8s.io/v1beta2
kind: ResourceFlavor
metadata:
  name: spot
spec:
  nodeTaints:
  - key: spot
    value: "true"
    effect: NoSchedule
  - key: spot
    effect: NoSchedule
  - key: "-bad"
    value: "no spaces"
    effect: Sometimes
)"));
    auto v12 = one(bad, "V12", "spec.nodeTaints[2].effect", 14, 13);
    CHECK(v12.message == "spec.nodeTaints: Invalid value: \"array\": supported taint effect values: 'NoSchedule', "
                         "'PreferNoSchedule', 'NoExecute'");
    auto v14 = one(bad, "V14", "spec.nodeTaints[1]", 10, 5);
    CHECK(v14.message == "spec.nodeTaints[1]: Duplicate value: {\"key\":\"spot\",\"effect\":\"NoSchedule\"}: "
                         "taints must be unique by key and effect pair");
    auto v13 = of_rule(bad, "V13");
    REQUIRE(v13.size() == 2);
    CHECK(v13[0].path == "spec.nodeTaints[2].key");
    CHECK(v13[0].mark.line == 12);
    CHECK(v13[0].message.starts_with("spec.nodeTaints[2].key: Invalid value: \"-bad\": name part must consist"));
    CHECK(v13[1].path == "spec.nodeTaints[2].value");
    CHECK(v13[1].mark.line == 13);

    // Same key with another effect is a different taint.
    no_errors(check(yaml(R"(
apiVersion: kueue.x-k8s.io/v1beta2
kind: ResourceFlavor
metadata:
  name: spot
spec:
  nodeTaints:
  - key: spot
    effect: NoSchedule
  - key: spot
    effect: NoExecute
)")));
}

TEST_CASE("rules: V15 V16 ResourceFlavor tolerations", "[rules]") {
    auto bad = check(yaml(R"(
apiVersion: kueue.x-k8s.io/v1beta2
kind: ResourceFlavor
metadata:
  name: f
spec:
  tolerations:
  - operator: Equal
  - key: a
    tolerationSeconds: 30
    effect: NoSchedule
  - key: b
    operator: Maybe
  - key: c
    operator: Exists
    value: x
  - key: d
    effect: Never
  - key: "e f"
    operator: Exists
)"));
    auto v15 = of_rule(bad, "V15");
    INFO(dump(bad));
    REQUIRE(v15.size() == 5);
    CHECK(v15[0].message == "spec.tolerations: Invalid value: \"array\": operator must be Exists when 'key' is empty, "
                            "which means 'match all values and all keys'");
    CHECK(v15[0].mark.line == 7);
    CHECK(v15[0].mark.col == 15);
    CHECK(v15[0].path == "spec.tolerations[0]");
    CHECK(v15[1].message == "spec.tolerations: Invalid value: \"array\": effect must be 'NoExecute' when 'tolerationSeconds' is set");
    CHECK(v15[1].mark.line == 10);
    CHECK(v15[2].message == "spec.tolerations: Invalid value: \"array\": supported toleration values: 'Equal'(default), 'Exists'");
    CHECK(v15[2].path == "spec.tolerations[2].operator");
    CHECK(v15[2].mark.line == 12);
    CHECK(v15[3].message == "spec.tolerations: Invalid value: \"array\": a value must be empty when 'operator' is 'Exists'");
    CHECK(v15[3].path == "spec.tolerations[3].value");
    CHECK(v15[3].mark.line == 15);
    CHECK(v15[4].path == "spec.tolerations[4].effect");
    CHECK(v15[4].mark.line == 17);
    auto v16 = one(bad, "V16", "spec.tolerations[5].key", 18, 10);
    CHECK(v16.message.starts_with("spec.tolerations[5].key: Invalid value: \"e f\": name part must consist"));

    no_errors(check(yaml(R"(
apiVersion: kueue.x-k8s.io/v1beta2
kind: ResourceFlavor
metadata:
  name: f
spec:
  tolerations:
  - operator: Exists
  - key: a
    operator: Exists
    effect: NoExecute
    tolerationSeconds: 30
  - key: nvidia.com/gpu
    value: present
    effect: NoSchedule
)")));
}

TEST_CASE("rules: V17 a topology flavor needs node labels", "[rules]") {
    auto bad = check(yaml(R"(
apiVersion: kueue.x-k8s.io/v1beta2
kind: ResourceFlavor
metadata:
  name: tas
spec:
  topologyName: default
)"));
    auto d = one(bad, "V17", "spec.topologyName", 6, 17);
    CHECK(d.message == "spec: Invalid value: \"object\": at least one nodeLabel is required when topology is set");

    none(check(yaml(R"(
apiVersion: kueue.x-k8s.io/v1beta2
kind: ResourceFlavor
metadata:
  name: tas
spec:
  topologyName: default
  nodeLabels:
    node-group: tas
)")),
         "V17");
}

// ---------------------------------------------------------------- ClusterQueue

namespace {

// A ClusterQueue whose resourceGroups are `groups` (indented under spec).
std::string cq(const std::string& spec_extra, const std::string& groups, const std::string& api = "v1beta2") {
    return "apiVersion: kueue.x-k8s.io/" + api +
           "\n"                                  // 1
           "kind: ClusterQueue\n"                // 2
           "metadata:\n"                         // 3
           "  name: team-a\n"                    // 4
           "spec:\n"                             // 5
           "  namespaceSelector: {}\n" +         // 6
           spec_extra + "  resourceGroups:\n" +  // 7 when spec_extra is empty
           groups;
}

const char* kGoodGroups = R"(  - coveredResources: ["cpu", "memory"]
    flavors:
    - name: default-flavor
      resources:
      - name: cpu
        nominalQuota: 9
      - name: memory
        nominalQuota: 36Gi
)";

}  // namespace

TEST_CASE("rules: a valid ClusterQueue in both API versions has no findings", "[rules]") {
    CHECK(check(cq("", kGoodGroups)).empty());
    CHECK(check(cq("  cohort: pool\n", kGoodGroups, "v1beta1")).empty());
}

TEST_CASE("rules: V21 V25 covered resources", "[rules]") {
    auto bad = check(cq("", R"(  - coveredResources: ["cpu", "memory"]
    flavors:
    - name: a
      resources:
      - name: cpu
        nominalQuota: 1
      - name: memory
        nominalQuota: 1
  - coveredResources: ["cpu", "Not Valid"]
    flavors:
    - name: b
      resources:
      - name: cpu
        nominalQuota: 1
      - name: Not Valid
        nominalQuota: 1
)"));
    auto v25 = one(bad, "V25", "spec.resourceGroups[1].coveredResources[0]", 16, 24);
    CHECK(v25.message == "spec.resourceGroups[1].coveredResources[0]: Duplicate value: \"cpu\"");
    auto v21 = one(bad, "V21", "spec.resourceGroups[1].coveredResources[1]", 16, 31);
    CHECK(v21.message.starts_with("spec.resourceGroups[1].coveredResources[1]: Invalid value: \"Not Valid\": name part"));

    none(check(cq("", kGoodGroups)), "V21");
    none(check(cq("", kGoodGroups)), "V25");
}

TEST_CASE("rules: V23 V24 flavors list the covered resources in order", "[rules]") {
    auto bad = check(cq("", R"(  - coveredResources: ["cpu", "memory"]
    flavors:
    - name: a
      resources:
      - name: memory
        nominalQuota: 1
      - name: cpu
        nominalQuota: 1
    - name: b
      resources:
      - name: cpu
        nominalQuota: 1
)"));
    auto v23 = one(bad, "V23", "spec.resourceGroups[0].flavors[1].resources", 18, 7);
    CHECK(v23.message ==
          "spec.resourceGroups[0]: Invalid value: \"object\": flavors must have the same number of resources as the coveredResources");
    auto v24 = of_rule(bad, "V24");
    INFO(dump(bad));
    REQUIRE(v24.size() == 2);
    CHECK(v24[0].path == "spec.resourceGroups[0].flavors[0].resources[0].name");
    CHECK(v24[0].mark.line == 12);
    CHECK(v24[0].mark.col == 15);
    CHECK(v24[0].message ==
          "spec.resourceGroups[0].flavors[0].resources[0].name: Invalid value: \"memory\": must match the name in coveredResources");
    CHECK(v24[1].path == "spec.resourceGroups[0].flavors[0].resources[1].name");

    none(check(cq("", kGoodGroups)), "V23");
    none(check(cq("", kGoodGroups)), "V24");
}

TEST_CASE("rules: V26 a flavor appears in one resource group only", "[rules]") {
    auto bad = check(cq("", R"(  - coveredResources: ["cpu"]
    flavors:
    - name: a
      resources:
      - name: cpu
        nominalQuota: 1
  - coveredResources: ["memory"]
    flavors:
    - name: a
      resources:
      - name: memory
        nominalQuota: 1
)"));
    auto d = one(bad, "V26", "spec.resourceGroups[1].flavors[0].name", 16, 13);
    CHECK(d.message == "spec.resourceGroups[1].flavors[0].name: Duplicate value: \"a\"");
    none(check(cq("", kGoodGroups)), "V26");
}

TEST_CASE("rules: V27 totals over resource groups", "[rules]") {
    // 16 groups x 17 flavors = 272 flavors > 256; 16 x 17 covered resources > 256;
    // one group of 17 flavors x 17 resources... only 289, so use 31 flavors x 17.
    auto make = [](int groups, int flavors, int resources) {
        std::string g;
        for (int i = 0; i < groups; ++i) {
            g += "  - coveredResources: [";
            for (int k = 0; k < resources; ++k) g += (k ? ", " : "") + ("r" + std::to_string(i) + "-" + std::to_string(k));
            g += "]\n    flavors:\n";
            for (int j = 0; j < flavors; ++j) {
                g += "    - name: f" + std::to_string(i) + "-" + std::to_string(j) + "\n      resources:\n";
                for (int k = 0; k < resources; ++k)
                    g += "      - name: r" + std::to_string(i) + "-" + std::to_string(k) + "\n        nominalQuota: 1\n";
            }
        }
        return g;
    };
    auto totals = check(cq("", make(16, 17, 17)));
    auto v27 = of_rule(totals, "V27");
    REQUIRE(v27.size() == 2);
    CHECK(v27[0].path == "spec.resourceGroups");
    CHECK(v27[0].mark.line == 8);
    CHECK(v27[0].message == "spec.resourceGroups: Invalid value: 272: total number of flavors across all resourceGroups must be ≤ 256, got 272");
    CHECK(v27[1].message ==
          "spec.resourceGroups: Invalid value: 272: total number of covered resources across all resourceGroups must be ≤ 256, got 272");

    auto combos = check(cq("", make(1, 31, 17)));
    auto c = one(combos, "V27", "spec.resourceGroups[0]", 8, 5);
    CHECK(c.message ==
          "spec.resourceGroups[0]: Invalid value: 527: number of flavor-resource combinations in a resourceGroup must be ≤ 512, got 527");

    none(check(cq("", make(1, 30, 17))), "V27");  // 510 combinations
}

TEST_CASE("rules: V28 V4 quotas are non-negative, parseable quantities", "[rules]") {
    auto bad = check(cq("  cohortName: pool\n", R"(  - coveredResources: ["cpu", "memory"]
    flavors:
    - name: a
      resources:
      - name: cpu
        nominalQuota: -500m
        borrowingLimit: "-1"
      - name: memory
        nominalQuota: 1Gb
        lendingLimit: -1Ki
)"));
    auto v28 = of_rule(bad, "V28");
    INFO(dump(bad));
    REQUIRE(v28.size() == 3);
    CHECK(v28[0].path == "spec.resourceGroups[0].flavors[0].resources[0].nominalQuota");
    CHECK(v28[0].mark.line == 14);
    CHECK(v28[0].mark.col == 23);
    CHECK(v28[0].message ==
          "spec.resourceGroups[0].flavors[0].resources[0].nominalQuota: Invalid value: \"-500m\": must be greater than or equal to 0");
    CHECK(v28[1].path == "spec.resourceGroups[0].flavors[0].resources[0].borrowingLimit");
    CHECK(v28[2].message ==
          "spec.resourceGroups[0].flavors[0].resources[1].lendingLimit: Invalid value: \"-1Ki\": must be greater than or equal to 0");
    auto v4 = one(bad, "V4", "spec.resourceGroups[0].flavors[0].resources[1].nominalQuota", 17, 23);
    CHECK(v4.message.starts_with(
        "spec.resourceGroups[0].flavors[0].resources[1].nominalQuota: Invalid value: \"1Gb\": invalid quantity"));

    // Zero is fine (borrowingLimit 0 = cannot borrow), and so is "0.5".
    auto good = check(cq("  cohortName: pool\n", R"(  - coveredResources: ["cpu"]
    flavors:
    - name: a
      resources:
      - name: cpu
        nominalQuota: 0.5
        borrowingLimit: 0
        lendingLimit: 0
)"));
    none(good, "V28");
    none(good, "V4");
}

TEST_CASE("rules: V29 V30 limits need a cohort", "[rules]") {
    const char* groups = R"(  - coveredResources: ["cpu"]
    flavors:
    - name: a
      resources:
      - name: cpu
        nominalQuota: 4
        borrowingLimit: 2
        lendingLimit: 1
)";
    auto bad = check(cq("", groups));
    auto v29 = one(bad, "V29", "spec.resourceGroups[0].flavors[0].resources[0].borrowingLimit", 14, 25);
    CHECK(v29.message == "spec: Invalid value: \"object\": borrowingLimit must be nil when cohort is empty");
    auto v30 = one(bad, "V30", "spec.resourceGroups[0].flavors[0].resources[0].lendingLimit", 15, 23);
    CHECK(v30.message == "spec.resourceGroups[0].flavors[0].resources[0].lendingLimit: Invalid value: \"1\": must be nil when cohort is empty");

    // v1beta2 cohortName, v1beta1 cohort.
    for (auto [extra, api] : {std::pair{"  cohortName: pool\n", "v1beta2"}, std::pair{"  cohort: pool\n", "v1beta1"}}) {
        auto good = check(cq(extra, groups, api));
        none(good, "V29");
        none(good, "V30");
    }
    // v1beta2 does not know the v1beta1 name: no cohort there.
    none(check(cq("  cohort: pool\n", groups, "v1beta2")), "V31");
    CHECK_FALSE(of_rule(check(cq("  cohort: pool\n", groups, "v1beta2")), "V29").empty());
}

TEST_CASE("rules: V31 lendingLimit <= nominalQuota on a ClusterQueue", "[rules]") {
    auto bad = check(cq("  cohortName: pool\n", R"(  - coveredResources: ["memory"]
    flavors:
    - name: a
      resources:
      - name: memory
        nominalQuota: 1Gi
        lendingLimit: 1025Mi
)"));
    auto d = one(bad, "V31", "spec.resourceGroups[0].flavors[0].resources[0].lendingLimit", 15, 23);
    CHECK(d.message ==
          "spec.resourceGroups[0].flavors[0].resources[0].lendingLimit: Invalid value: \"1025Mi\": must be less than or equal to the nominalQuota");

    // Exact comparison: 1024Mi == 1Gi.
    none(check(cq("  cohortName: pool\n", R"(  - coveredResources: ["memory"]
    flavors:
    - name: a
      resources:
      - name: memory
        nominalQuota: 1Gi
        lendingLimit: 1024Mi
)")),
         "V31");
}

TEST_CASE("rules: V32 namespaceSelector is a valid label selector", "[rules]") {
    auto bad = check(yaml(R"(
apiVersion: kueue.x-k8s.io/v1beta2
kind: ClusterQueue
metadata:
  name: cq
spec:
  namespaceSelector:
    matchLabels:
      team: "a b"
    matchExpressions:
    - key: team
      operator: In
    - key: tier
      operator: Exists
      values: [gold]
    - key: x
      operator: Near
      values: [y]
)"));
    auto v32 = of_rule(bad, "V32");
    INFO(dump(bad));
    REQUIRE(v32.size() == 4);
    CHECK(v32[0].path == "spec.namespaceSelector.matchLabels[team]");
    CHECK(v32[0].message.starts_with("spec.namespaceSelector.matchLabels: Invalid value: \"a b\": a valid label"));
    CHECK(v32[1].path == "spec.namespaceSelector.matchExpressions[0].values");
    CHECK(v32[1].mark.line == 10);
    CHECK(v32[1].mark.col == 7);
    CHECK(v32[1].message == "spec.namespaceSelector.matchExpressions[0].values: Required value: must be specified when "
                            "`operator` is 'In' or 'NotIn'");
    CHECK(v32[2].path == "spec.namespaceSelector.matchExpressions[1].values");
    CHECK(v32[2].mark.line == 14);
    CHECK(v32[2].message == "spec.namespaceSelector.matchExpressions[1].values: Forbidden: may not be specified when "
                            "`operator` is 'Exists' or 'DoesNotExist'");
    CHECK(v32[3].path == "spec.namespaceSelector.matchExpressions[2].operator");
    CHECK(v32[3].message == "spec.namespaceSelector.matchExpressions[2].operator: Invalid value: \"Near\": not a valid selector operator");

    none(check(yaml(R"(
apiVersion: kueue.x-k8s.io/v1beta2
kind: ClusterQueue
metadata:
  name: cq
spec:
  namespaceSelector:
    matchLabels:
      kueue.openshift.io/managed: "true"
    matchExpressions:
    - key: team
      operator: NotIn
      values: [sandbox]
    - key: tier
      operator: DoesNotExist
)")),
         "V32");
}

TEST_CASE("rules: V33 preference needs TryNextFlavor twice", "[rules]") {
    auto spec = [](const std::string& ff) { return cq("  flavorFungibility:\n" + ff, kGoodGroups); };
    auto bad = check(spec("    whenCanBorrow: TryNextFlavor\n    preference: BorrowingOverPreemption\n"));
    // whenCanPreempt defaults to TryNextFlavor, whenCanBorrow to MayStopSearch.
    none(bad, "V33");
    auto defaulted = check(spec("    preference: BorrowingOverPreemption\n"));
    auto d = one(defaulted, "V33", "spec.flavorFungibility.preference", 8, 17);
    CHECK(d.message == "spec.flavorFungibility: Invalid value: \"object\": preference can only be set when both whenCanBorrow "
                       "and whenCanPreempt are TryNextFlavor");
    one(check(spec("    whenCanBorrow: TryNextFlavor\n    whenCanPreempt: MayStopSearch\n    preference: PreemptionOverBorrowing\n")),
        "V33", "spec.flavorFungibility.preference", 10, 17);
    none(check(spec("    whenCanBorrow: MayStopSearch\n")), "V33");
}

TEST_CASE("rules: V34 borrowWithinCohort needs reclaimWithinCohort", "[rules]") {
    auto spec = [](const std::string& p) { return cq("  cohortName: pool\n  preemption:\n" + p, kGoodGroups); };
    auto bad = check(spec("    borrowWithinCohort:\n      policy: LowerPriority\n"));
    auto d = one(bad, "V34", "spec.preemption.borrowWithinCohort.policy", 10, 15);
    CHECK(d.message == "spec.preemption: Invalid value: \"object\": reclaimWithinCohort=Never and borrowWithinCohort.Policy!=Never");
    one(check(spec("    reclaimWithinCohort: Never\n    borrowWithinCohort:\n      policy: LowerPriority\n")), "V34",
        "spec.preemption.borrowWithinCohort.policy", 11, 15);
    none(check(spec("    reclaimWithinCohort: Any\n    borrowWithinCohort:\n      policy: LowerPriority\n")), "V34");
    none(check(spec("    borrowWithinCohort: {}\n")), "V34");
}

TEST_CASE("rules: V35 fairSharing weight", "[rules]") {
    auto weight = [](const std::string& w) { return check(cq("  fairSharing:\n    weight: " + w + "\n", kGoodGroups)); };
    auto neg = one(weight("-1"), "V35", "spec.fairSharing.weight", 8, 13);
    CHECK(neg.message == "spec.fairSharing: Invalid value: \"-1\": must be greater than or equal to 0");
    auto tiny = one(weight("0.0000000001"), "V35", "spec.fairSharing.weight", 8, 13);
    CHECK(tiny.message == "spec.fairSharing: Invalid value: \"1n\": When not 0, weight must be > 10e-9");
    none(weight("0"), "V35");
    none(weight("2n"), "V35");
    none(weight("1.5"), "V35");
}

TEST_CASE("rules: V36 onFlavors name the ClusterQueue's flavors", "[rules]") {
    auto bad = check(cq("  admissionChecksStrategy:\n    admissionChecks:\n    - name: prov\n      onFlavors: [default-flavor, spot]\n",
                        kGoodGroups));
    auto d = one(bad, "V36", "spec.admissionChecksStrategy.admissionChecks[0].onFlavors[1]", 10, 35);
    CHECK(d.message == "spec.admissionChecksStrategy.admissionChecks[0].onFlavors[1]: Unsupported value: \"spot\": supported "
                       "values: \"default-flavor\"");
    none(check(cq("  admissionChecksStrategy:\n    admissionChecks:\n    - name: prov\n      onFlavors: [default-flavor]\n", kGoodGroups)),
         "V36");
}

TEST_CASE("rules: V38 concurrentAdmissionPolicy", "[rules]") {
    auto bad = check(cq("  queueingStrategy: StrictFIFO\n  concurrentAdmissionPolicy:\n    migration:\n      mode: TryPreferredFlavors\n"
                        "      constraints:\n        lastAcceptableFlavorName: spot\n",
                        kGoodGroups));
    auto v38 = of_rule(bad, "V38");
    INFO(dump(bad));
    REQUIRE(v38.size() == 2);
    CHECK(v38[0].path == "spec.concurrentAdmissionPolicy.migration.constraints.lastAcceptableFlavorName");
    CHECK(v38[0].mark.line == 12);
    CHECK(v38[0].message.ends_with("must be one of the flavors defined in the ClusterQueue: [default-flavor]"));
    CHECK(v38[1].path == "spec.queueingStrategy");
    CHECK(v38[1].mark.line == 7);
    CHECK(v38[1].message == "spec.queueingStrategy: Invalid value: \"StrictFIFO\": StrictFIFO queueing strategy cannot be used "
                            "when ConcurrentAdmissionPolicy is defined");
    none(check(cq("  concurrentAdmissionPolicy:\n    migration:\n      mode: TryPreferredFlavors\n      constraints:\n"
                  "        lastAcceptableFlavorName: default-flavor\n",
                  kGoodGroups)),
         "V38");
}

TEST_CASE("rules: V38 allows 32 flavors from Kueue 0.20, 16 on older targets", "[rules][target]") {
    auto groups = [](int flavors) {
        std::string g = "  - coveredResources: [\"cpu\"]\n    flavors:\n";
        for (int i = 0; i < flavors; ++i)
            g += "    - name: f" + std::to_string(i) + "\n      resources:\n      - name: cpu\n        nominalQuota: 1\n";
        return g;
    };
    const std::string policy = "  concurrentAdmissionPolicy:\n    migration:\n      mode: TryPreferredFlavors\n";
    none(check(cq(policy, groups(32))), "V38");
    auto over = of_rule(check(cq(policy, groups(33))), "V38");
    REQUIRE(over.size() == 1);
    CHECK(has(over[0].message, "cannot have more than 32 resource flavors"));
    // 17 flavors: fine on 0.20, refused by the 0.18/0.19 webhook.
    none(cross(cq(policy, groups(17)), "kueue-0.20"), "V38");
    auto old = one(cross(cq(policy, groups(17)), "kueue-0.19"), "V38", "spec.resourceGroups[0].flavors", 13, 5);
    CHECK(has(old.message, "cannot have more than 16 resource flavors"));
    CHECK(has(old.message, "Kueue 0.20 allows 32"));
    none(cross(cq(policy, groups(16)), "kueue-0.19"), "V38");
}

TEST_CASE("rules: a WorkloadPriorityClass named default is a warning from Kueue 0.20", "[rules][target]") {
    const std::string wpc = "apiVersion: kueue.x-k8s.io/v1beta2\nkind: WorkloadPriorityClass\nmetadata:\n  name: default\nvalue: 10\n";
    auto w = one(cross(wpc, "kueue-0.20"), "target.default-priority-class", "metadata.name", 4, 3);
    CHECK(w.severity == Severity::Warning);
    CHECK(has(w.message, "every workload that names none"));
    none(cross(wpc, "kueue-0.19"), "target.default-priority-class");
    none(cross(wpc), "target.default-priority-class");
    std::string other = wpc;
    other.replace(other.find("default"), 7, "standard");
    none(cross(other, "kueue-0.20"), "target.default-priority-class");
}

// ---------------------------------------------------------------- Cohort

TEST_CASE("rules: V42 V43 V44 Cohort limits and weight", "[rules]") {
    auto cohort = [](const std::string& api, const std::string& parent, const std::string& lending) {
        return "apiVersion: kueue.x-k8s.io/" + api +
               "\n"
               "kind: Cohort\n"
               "metadata:\n"
               "  name: org\n"
               "spec:\n" +
               parent +
               "  fairSharing:\n"
               "    weight: -2\n"
               "  resourceGroups:\n"
               "  - coveredResources: [cpu]\n"
               "    flavors:\n"
               "    - name: a\n"
               "      resources:\n"
               "      - name: cpu\n"
               "        nominalQuota: 4\n"
               "        lendingLimit: " +
               lending + "\n";
    };
    auto bad = check(cohort("v1beta2", "", "8"));
    auto v42 = one(bad, "V42", "spec.resourceGroups[0].flavors[0].resources[0].lendingLimit", 15, 23);
    CHECK(v42.message == "spec.resourceGroups[0].flavors[0].resources[0].lendingLimit: Invalid value: \"8\": must be nil when parent is empty");
    auto v44 = one(bad, "V44", "spec.fairSharing.weight", 7, 13);
    CHECK(v44.message == "spec.fairSharing: Invalid value: \"-2\": must be greater than or equal to 0");
    none(bad, "V31");  // V43: a Cohort may lend more than its own nominalQuota

    // v1beta2/v1beta1 parentName, v1alpha1 parent.
    none(check(cohort("v1beta2", "  parentName: root\n", "8")), "V42");
    none(check(cohort("v1beta1", "  parentName: root\n", "8")), "V42");
    none(check(cohort("v1alpha1", "  parent: root\n", "8")), "V42");
    CHECK(of_rule(check(cohort("v1alpha1", "  parentName: root\n", "8")), "V42").size() == 1);
}

TEST_CASE("rules: Cohort resource groups follow the ClusterQueue rules except V27", "[rules]") {
    auto bad = check(yaml(R"(
apiVersion: kueue.x-k8s.io/v1beta2
kind: Cohort
metadata:
  name: org
spec:
  resourceGroups:
  - coveredResources: [cpu, cpu]
    flavors:
    - name: a
      resources:
      - name: memory
        nominalQuota: -1
      - name: cpu
        nominalQuota: 1
)"));
    one(bad, "V25", "spec.resourceGroups[0].coveredResources[1]", 7, 29);
    one(bad, "V24", "spec.resourceGroups[0].flavors[0].resources[0].name", 11, 15);
    one(bad, "V28", "spec.resourceGroups[0].flavors[0].resources[0].nominalQuota", 12, 23);
    none(bad, "V27");
}

// ---------------------------------------------------------------- LocalQueue, WorkloadPriorityClass

TEST_CASE("rules: V2 LocalQueue and WorkloadPriorityClass names are label values", "[rules]") {
    const std::string long_name(70, 'q');
    auto bad = check("apiVersion: kueue.x-k8s.io/v1beta2\nkind: LocalQueue\nmetadata:\n  name: " + long_name +
                     "\n  namespace: team-a\nspec:\n  clusterQueue: cq\n---\n"
                     "apiVersion: kueue.x-k8s.io/v1beta2\nkind: WorkloadPriorityClass\nmetadata:\n  name: prio.high\nvalue: 100\n");
    auto v2 = of_rule(bad, "V2");
    REQUIRE(v2.size() == 1);  // dots are fine in label values
    CHECK(v2[0].severity == Severity::Warning);
    CHECK(v2[0].path == "metadata.name");
    CHECK(v2[0].mark.line == 4);
    CHECK(v2[0].mark.col == 9);
    CHECK(has(v2[0].message, "kueue.x-k8s.io/queue-name"));
    CHECK(has(v2[0].message, "must be no more than 63 characters"));

    auto wpc = check("apiVersion: kueue.x-k8s.io/v1beta2\nkind: WorkloadPriorityClass\nmetadata:\n  name: " + long_name + "\nvalue: 1\n");
    CHECK(has(one(wpc, "V2", "metadata.name", 4, 9).message, "kueue.x-k8s.io/priority-class"));
}

TEST_CASE("rules: V4 LocalQueue fairSharing weight must parse", "[rules]") {
    auto bad = check(yaml(R"(
apiVersion: kueue.x-k8s.io/v1beta2
kind: LocalQueue
metadata:
  name: lq
  namespace: team-a
spec:
  clusterQueue: cq
  fairSharing:
    weight: 1.5.0
)"));
    one(bad, "V4", "spec.fairSharing.weight", 9, 13);
    CHECK(check(yaml(R"(
apiVersion: kueue.x-k8s.io/v1beta2
kind: LocalQueue
metadata:
  name: lq
  namespace: team-a
spec:
  clusterQueue: cq
  fairSharing:
    weight: "1.5"
)")).empty());
}

// ---------------------------------------------------------------- Workload

namespace {

std::string workload(const std::string& pod_sets, const std::string& rest = "", const std::string& annotations = "") {
    return "apiVersion: kueue.x-k8s.io/v1beta2\n"  // 1
           "kind: Workload\n"                      // 2
           "metadata:\n"                           // 3
           "  name: wl\n"                          // 4
           "  namespace: team-a\n" +               // 5
           annotations +                           //
           "spec:\n"                               // 6
           "  queueName: lq\n"                     // 7
           "  podSets:\n" +                        // 8
           pod_sets + rest;
}

std::string pod_set(const std::string& name, int count, const std::string& extra, const std::string& resources) {
    return "  - name: " + name + "\n    count: " + std::to_string(count) + "\n" + extra +
           "    template:\n"
           "      spec:\n"
           "        containers:\n"
           "        - name: c\n"
           "          resources:\n" +
           resources;
}

const std::string kCpu1 = "            requests:\n              cpu: 1\n";

}  // namespace

TEST_CASE("rules: a valid Workload has no findings", "[rules]") {
    CHECK(check(workload(pod_set("main", 3, "    minCount: 2\n", kCpu1))).empty());
}

TEST_CASE("rules: V61 V62 V63 minCount", "[rules]") {
    auto over = check(workload(pod_set("main", 3, "    minCount: 4\n", kCpu1)));
    auto v61 = one(over, "V61", "spec.podSets[0].minCount", 11, 15);
    CHECK(v61.message == "spec.podSets[0]: Invalid value: \"object\": minCount should be positive and less or equal to count");
    // count defaults to 1.
    one(check(workload("  - name: main\n    minCount: 2\n    template: {}\n")), "V61", "spec.podSets[0].minCount", 10, 15);

    auto two = check(workload(pod_set("a", 3, "    minCount: 1\n", kCpu1) + pod_set("b", 3, "    minCount: 1\n", kCpu1)));
    auto v62 = one(two, "V62", "spec.podSets", 9, 3);
    CHECK(v62.message == "spec.podSets: Invalid value: 2: at most one podSet can use minCount");
    none(check(workload(pod_set("a", 3, "    minCount: 1\n", kCpu1) + pod_set("b", 3, "", kCpu1))), "V62");

    const std::string elastic = "  annotations:\n    kueue.x-k8s.io/elastic-job: \"true\"\n";
    auto el = check(workload(pod_set("a", 3, "    minCount: 1\n", kCpu1), "", elastic));
    auto v63 = one(el, "V63", "spec.podSets", 11, 3);
    CHECK(v63.message == "spec.podSets: Invalid value: 1: partial admission and elastic job cannot be used together");
    none(check(workload(pod_set("a", 3, "", kCpu1), "", elastic)), "V63");
}

TEST_CASE("rules: V64 V65 container resources", "[rules]") {
    auto bad = check(workload(pod_set("main", 1, "",
                                      "            requests:\n              pods: 1\n              memory: -1Gi\n"
                                      "            limits:\n              cpu: 2x\n")));
    auto v64 = one(bad, "V64", "spec.podSets[0].template.spec.containers[0].resources.requests[pods]", 17, 15);
    CHECK(v64.message == "spec.podSets[0].template.spec.containers[0].resources.requests[pods]: Invalid value: \"pods\": the "
                         "key is reserved for internal kueue use");
    auto v65 = one(bad, "V65", "spec.podSets[0].template.spec.containers[0].resources.requests[memory]", 18, 23);
    CHECK(v65.message ==
          "spec.podSets[0].template.spec.containers[0].resources.requests[memory]: Invalid value: \"-1Gi\": must be greater than or equal to 0");
    one(bad, "V4", "spec.podSets[0].template.spec.containers[0].resources.limits[cpu]", 20, 20);

    auto good = check(workload(pod_set("main", 1, "", "            requests:\n              cpu: 0\n              nvidia.com/gpu: 1\n")));
    none(good, "V64");
    none(good, "V65");
}

TEST_CASE("rules: V66 pod template labels and annotations", "[rules]") {
    auto bad = check(workload(
        "  - name: main\n    template:\n      metadata:\n        labels:\n          app: \"a b\"\n        annotations:\n"
        "          Example.COM/Owner: me\n          \"bad key\": x\n      spec: {}\n"));
    auto v66 = of_rule(bad, "V66");
    INFO(dump(bad));
    REQUIRE(v66.size() == 2);  // annotation keys are compared lower-cased, so Example.COM is fine
    CHECK(v66[0].path == "spec.podSets[0].template.metadata.labels[app]");
    CHECK(v66[0].mark.line == 13);
    CHECK(v66[1].path == "spec.podSets[0].template.metadata.annotations[bad key]");
    CHECK(v66[1].mark.line == 16);
    CHECK(v66[1].mark.col == 11);
    CHECK(v66[1].message.starts_with("spec.podSets[0].template.metadata.annotations: Invalid value: \"bad key\": name part"));
}

TEST_CASE("rules: V67 priorityClassRef and priority", "[rules]") {
    auto bad = check(workload(pod_set("main", 1, "", kCpu1), "  priorityClassRef:\n    group: scheduling.k8s.io\n    kind: WorkloadPriorityClass\n    name: high\n"));
    auto v67 = of_rule(bad, "V67");
    INFO(dump(bad));
    REQUIRE(v67.size() == 2);
    CHECK(v67[0].path == "spec.priorityClassRef");
    CHECK(v67[0].message == "spec: Invalid value: \"object\": priority should not be nil when priorityClassRef is set");
    CHECK(v67[1].path == "spec.priorityClassRef.kind");
    CHECK(v67[0].mark.line == 19);  // a block map's position is its first key's
    CHECK(v67[1].mark.line == 20);
    CHECK(v67[1].mark.col == 11);
    CHECK(v67[1].message == "spec.priorityClassRef: Invalid value: \"object\": only the PriorityClass kind is allowed for the "
                            "scheduling.k8s.io group");
    none(check(workload(pod_set("main", 1, "", kCpu1),
                        "  priority: 100\n  priorityClassRef:\n    group: kueue.x-k8s.io\n    kind: WorkloadPriorityClass\n    name: high\n")),
         "V67");

    // v1beta1: priorityClassName needs priority.
    auto v1 = check(yaml(R"(
apiVersion: kueue.x-k8s.io/v1beta1
kind: Workload
metadata:
  name: wl
  namespace: a
spec:
  queueName: lq
  priorityClassName: high
  priorityClassSource: kueue.x-k8s.io/workloadpriorityclass
  podSets:
  - name: main
    count: 1
    template: {}
)"));
    auto d = one(v1, "V67", "spec.priorityClassName", 8, 22);
    CHECK(d.message == "spec: Invalid value: \"object\": priority should not be nil when priorityClassName is set");
}

TEST_CASE("rules: V69 V70 admission and reclaimable pods", "[rules]") {
    const std::string reserved = "status:\n  conditions:\n  - type: QuotaReserved\n    status: \"True\"\n";
    auto missing = check(workload(pod_set("main", 2, "", kCpu1), reserved));
    auto req = one(missing, "V69", "status.admission", 19, 3);
    CHECK(req.message == "status.admission: Required value: must be set while the QuotaReserved condition is true");

    auto bad = check(workload(pod_set("main", 2, "", kCpu1), reserved +
                                                                  "  admission:\n    clusterQueue: cq\n    podSetAssignments:\n"
                                                                  "    - name: main\n      count: 2\n      resourceUsage:\n        cpu: 2\n"
                                                                  "        memory: 3\n"
                                                                  "    - name: other\n      count: 1\n"
                                                                  "  reclaimablePods:\n  - name: main\n    count: 3\n  - name: ghost\n    count: 1\n"));
    auto v69 = of_rule(bad, "V69");
    INFO(dump(bad));
    REQUIRE(v69.size() == 3);
    CHECK(v69[0].message == "<nil>: Invalid value: \"object\": podSetAssignments must have the same number of podSets as the spec");
    CHECK(v69[0].path == "status.admission.podSetAssignments");
    CHECK(v69[1].path == "status.admission.podSetAssignments[0].resourceUsage[memory]");
    CHECK(v69[1].mark.line == 29);
    CHECK(v69[1].message == "status.admission.podSetAssignments[0].resourceUsage[memory]: Invalid value: \"3\": is not a multiple of 2");
    CHECK(v69[2].path == "status.admission.podSetAssignments[1].name");
    CHECK(v69[2].message == "status.admission.podSetAssignments[1].name: Not found: \"other\"");
    auto v70 = of_rule(bad, "V70");
    REQUIRE(v70.size() == 2);
    CHECK(v70[0].path == "status.reclaimablePods[main].count");
    CHECK(v70[0].mark.line == 34);
    CHECK(v70[0].message == "status.reclaimablePods[main].count: Invalid value: 3: should be less or equal to 2");
    CHECK(v70[1].message == "status.reclaimablePods[ghost].name: Unsupported value: \"ghost\": supported values: \"main\"");

    auto good = check(workload(pod_set("main", 2, "", kCpu1), reserved +
                                                                   "  admission:\n    clusterQueue: cq\n    podSetAssignments:\n"
                                                                   "    - name: main\n      count: 2\n      resourceUsage:\n        cpu: 2\n"
                                                                   "  reclaimablePods:\n  - name: main\n    count: 1\n"));
    none(good, "V69");
    none(good, "V70");
    // No QuotaReserved condition: no admission needed.
    none(check(workload(pod_set("main", 2, "", kCpu1))), "V69");
}

TEST_CASE("rules: V71 requests above limits make a Workload inadmissible", "[rules]") {
    auto bad = check(workload(pod_set("main", 1, "",
                                      "            requests:\n              cpu: 200m\n              memory: 1Gi\n"
                                      "            limits:\n              cpu: 100m\n              memory: 2Gi\n")));
    auto d = one(bad, "V71", "spec.podSets[0].template.spec.containers[0].resources.requests[cpu]", 17, 20);
    CHECK(d.severity == Severity::Error);
    CHECK(d.message.starts_with("resources validation failed: spec.podSets[0].template.spec.containers[0]: Invalid value: "
                                "[\"cpu\"]: requests must not exceed its limits"));
    // Compared in Kueue's integer units: 1.5 cpu = 1500m, equal is fine.
    none(check(workload(pod_set("main", 1, "", "            requests:\n              cpu: 1.5\n            limits:\n              cpu: 1500m\n"))),
         "V71");
}

TEST_CASE("rules: objects outside kueue.x-k8s.io are not checked per object", "[rules]") {
    CHECK(check("apiVersion: example.com/v1\nkind: ClusterQueue\nmetadata:\n  name: x\nspec:\n  fairSharing:\n    weight: -1\n").empty());
}

// ---------------------------------------------------------------- cross-object

namespace {

const char* kFlavor = R"(apiVersion: kueue.x-k8s.io/v1beta2
kind: ResourceFlavor
metadata:
  name: default-flavor
)";

}  // namespace

TEST_CASE("rules: xref.duplicate objects", "[rules]") {
    auto d = cross(std::string(kFlavor) + "---\napiVersion: kueue.x-k8s.io/v1beta1\nkind: ResourceFlavor\nmetadata:\n  name: default-flavor\n");
    auto dup = one(d, "xref.duplicate", "metadata.name", 9, 9);
    CHECK(has(dup.message, "ResourceFlavor/default-flavor is defined twice (first at x.yaml:1:1)"));
    // Same name, different namespace or kind: not a duplicate.
    none(cross("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n  namespace: x\n---\n"
               "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n  namespace: y\n---\n"
               "apiVersion: v1\nkind: Secret\nmetadata:\n  name: a\n  namespace: x\n"),
         "xref.duplicate");
}

TEST_CASE("rules: xref.missing-clusterqueue and xref.missing-flavor", "[rules]") {
    auto d = cross(std::string(kFlavor) + "---\n" + cq("", R"(  - coveredResources: ["cpu"]
    flavors:
    - name: default-flavour
      resources:
      - name: cpu
        nominalQuota: 1
)") + "---\napiVersion: kueue.x-k8s.io/v1beta2\nkind: LocalQueue\nmetadata:\n  name: lq\n  namespace: team-a\nspec:\n  clusterQueue: team-b\n");
    auto f = one(d, "xref.missing-flavor", "spec.resourceGroups[0].flavors[0].name", 15, 13);
    CHECK(has(f.message, "ResourceFlavor \"default-flavour\" is not in the input (did you mean \"default-flavor\"?)"));
    CHECK(has(f.message, "FlavorNotFound"));
    CHECK(f.object.name == "team-a");
    auto q = one(d, "xref.missing-clusterqueue", "spec.clusterQueue", 26, 17);
    CHECK(has(q.message, "ClusterQueue \"team-b\" is not in the input (did you mean \"team-a\"?)"));

    auto ok = cross(std::string(kFlavor) + "---\n" + cq("", kGoodGroups) +
                    "---\napiVersion: kueue.x-k8s.io/v1beta2\nkind: LocalQueue\nmetadata:\n  name: lq\n  namespace: team-a\nspec:\n  clusterQueue: team-a\n");
    no_errors(ok);
}

TEST_CASE("rules: cohort references, missing parents and V45 cycles", "[rules]") {
    auto co = [](const std::string& name, const std::string& parent) {
        return "apiVersion: kueue.x-k8s.io/v1beta2\nkind: Cohort\nmetadata:\n  name: " + name + "\nspec:\n" +
               (parent.empty() ? "  {}\n" : "  parentName: " + parent + "\n");
    };
    // a -> b -> a, c -> a (under the cycle), root without parent.
    auto d = cross(co("a", "b") + "---\n" + co("b", "a") + "---\n" + co("c", "a") + "---\n" + co("root", "") + "---\n" +
                   cq("  cohortName: c\n", kGoodGroups) + "---\n" + std::string(kFlavor));
    auto v45 = one(d, "V45", "spec.parentName", 6, 15);
    CHECK(v45.severity == Severity::Error);
    CHECK(has(v45.message, "(a -> b -> a)"));
    CHECK(has(v45.message, "cycles make every ClusterQueue in the cycle inactive"));
    CHECK(has(v45.message, "affected: ClusterQueue team-a"));

    // Self-parent is a cycle too; a root is not.
    one(cross(co("x", "x")), "V45", "spec.parentName", 6, 15);
    none(cross(co("root", "") + "---\n" + co("child", "root")), "V45");

    // Missing parent: warning. CQ cohort without object: a note only when Cohorts exist.
    auto m = cross(co("child", "rot") + "---\n" + co("root", "") + "---\n" + cq("  cohortName: roof\n", kGoodGroups) + "---\n" +
                   std::string(kFlavor));
    auto w = one(m, "xref.missing-parent-cohort", "spec.parentName", 6, 15);
    CHECK(w.severity == Severity::Warning);
    CHECK(has(w.message, "(did you mean \"root\"?)"));
    auto n = one(m, "xref.implicit-cohort", "spec.cohortName", 21, 15);
    CHECK(n.severity == Severity::Note);
    CHECK(has(n.message, "(did you mean \"root\"?)"));
    none(cross(cq("  cohortName: roof\n", kGoodGroups) + "---\n" + std::string(kFlavor)), "xref.implicit-cohort");

    // v1alpha1 Cohorts use spec.parent.
    one(cross("apiVersion: kueue.x-k8s.io/v1alpha1\nkind: Cohort\nmetadata:\n  name: x\nspec:\n  parent: x\n"), "V45", "spec.parent", 6, 11);
}

TEST_CASE("rules: namespaceSelector null, {} and LocalQueues outside it", "[rules]") {
    auto no_sel = cross(yaml(R"(
apiVersion: kueue.x-k8s.io/v1beta2
kind: ClusterQueue
metadata:
  name: cq
spec:
  resourceGroups: []
)"));
    auto e = one(no_sel, "xref.no-namespace-selector", "spec.namespaceSelector", 6, 3);
    CHECK(e.severity == Severity::Error);
    auto all = one(cross(cq("", kGoodGroups) + "---\n" + kFlavor), "xref.all-namespaces", "spec.namespaceSelector", 6, 22);
    CHECK(all.severity == Severity::Note);

    const std::string selective = yaml(R"(
apiVersion: kueue.x-k8s.io/v1beta2
kind: ClusterQueue
metadata:
  name: cq
spec:
  namespaceSelector:
    matchLabels:
      team: ml
---
apiVersion: kueue.x-k8s.io/v1beta2
kind: LocalQueue
metadata:
  name: lq
  namespace: research
spec:
  clusterQueue: cq
)");
    // Without the Namespace object only kubernetes.io/metadata.name is known.
    auto unknown = one(cross(selective), "xref.namespace-mismatch", "spec.clusterQueue", 16, 17);
    CHECK(unknown.severity == Severity::Warning);
    CHECK(has(unknown.message, "Namespace research is not in the input"));
    auto labelled = cross(selective + "---\napiVersion: v1\nkind: Namespace\nmetadata:\n  name: research\n  labels:\n    team: ml\n");
    none(labelled, "xref.namespace-mismatch");
    auto wrong = cross(selective + "---\napiVersion: v1\nkind: Namespace\nmetadata:\n  name: research\n  labels:\n    team: web\n");
    CHECK(has(one(wrong, "xref.namespace-mismatch", "spec.clusterQueue", 16, 17).message, "team=web"));
    // The automatic name label is enough for a name-based selector.
    none(cross(yaml(R"(
apiVersion: kueue.x-k8s.io/v1beta2
kind: ClusterQueue
metadata:
  name: cq
spec:
  namespaceSelector:
    matchExpressions:
    - key: kubernetes.io/metadata.name
      operator: In
      values: [research]
---
apiVersion: kueue.x-k8s.io/v1beta2
kind: LocalQueue
metadata:
  name: lq
  namespace: research
spec:
  clusterQueue: cq
)")),
         "xref.namespace-mismatch");
}

TEST_CASE("rules: several default LocalQueues in one namespace", "[rules]") {
    auto lq = [](const std::string& name, const std::string& ns) {
        return "apiVersion: kueue.x-k8s.io/v1beta2\nkind: LocalQueue\nmetadata:\n  name: " + name + "\n  namespace: " + ns +
               "\n  annotations:\n    kueue.x-k8s.io/default-queue: \"true\"\nspec:\n  clusterQueue: cq\n";
    };
    auto d = cross(lq("a", "ns1") + "---\n" + lq("b", "ns1") + "---\n" + lq("c", "ns2"));
    auto w = one(d, "xref.multiple-default-queues", "metadata.annotations[kueue.x-k8s.io/default-queue]", 17, 35);
    CHECK(w.severity == Severity::Warning);
    CHECK(w.object.name == "b");
    none(cross(lq("a", "ns1") + "---\n" + lq("c", "ns2")), "xref.multiple-default-queues");
}

TEST_CASE("rules: xref.overcommit compares quota with Node allocatable", "[rules]") {
    const std::string objects = yaml(R"(
apiVersion: kueue.x-k8s.io/v1beta2
kind: ResourceFlavor
metadata:
  name: a100
spec:
  nodeLabels:
    gpu: a100
---
apiVersion: kueue.x-k8s.io/v1beta2
kind: ClusterQueue
metadata:
  name: cq-1
spec:
  namespaceSelector: {}
  resourceGroups:
  - coveredResources: [nvidia.com/gpu, memory]
    flavors:
    - name: a100
      resources:
      - name: nvidia.com/gpu
        nominalQuota: 8
      - name: memory
        nominalQuota: 512Gi
---
apiVersion: kueue.x-k8s.io/v1beta2
kind: ClusterQueue
metadata:
  name: cq-2
spec:
  namespaceSelector: {}
  resourceGroups:
  - coveredResources: [nvidia.com/gpu, memory]
    flavors:
    - name: a100
      resources:
      - name: nvidia.com/gpu
        nominalQuota: 4
      - name: memory
        nominalQuota: 256Gi
)");
    auto node = [](const std::string& name, const std::string& label, int gpus) {
        return "---\napiVersion: v1\nkind: Node\nmetadata:\n  name: " + name + "\n  labels:\n    gpu: " + label +
               "\nstatus:\n  allocatable:\n    nvidia.com/gpu: \"" + std::to_string(gpus) + "\"\n    memory: 1Ti\n";
    };
    auto d = cross(objects + node("n1", "a100", 8) + node("n2", "h100", 8));
    auto w = one(d, "xref.overcommit", "spec.resourceGroups[0].flavors[0].resources[0].nominalQuota", 37, 23);
    CHECK(w.severity == Severity::Warning);
    CHECK(w.object.name == "cq-2");
    CHECK(has(w.message, "nominalQuota of nvidia.com/gpu in flavor a100 adds up to 12"));
    CHECK(has(w.message, "the 1 Node matching its nodeLabels allocate 8"));

    none(cross(objects + node("n1", "a100", 8) + node("n2", "a100", 8)), "xref.overcommit");
    none(cross(objects), "xref.overcommit");  // no Node objects: capacity unknown
}

// ---------------------------------------------------------------- --target

TEST_CASE("rules: target.unserved kinds and API versions", "[rules]") {
    auto cohort = "apiVersion: kueue.x-k8s.io/v1beta1\nkind: Cohort\nmetadata:\n  name: org\n";
    auto old = one(cross(cohort, "rhoai-2.16"), "target.unserved", "apiVersion", 1, 13);
    CHECK(has(old.message, "Cohort objects need Kueue 0.9 or newer"));
    // 0.10 serves Cohort only as v1alpha1; 0.13 only as v1beta1.
    CHECK(has(one(cross(cohort, "kueue-0.10"), "target.unserved", "apiVersion", 1, 13).message, "served there: kueue.x-k8s.io/v1alpha1"));
    one(cross("apiVersion: kueue.x-k8s.io/v1alpha1\nkind: Cohort\nmetadata:\n  name: org\n", "kueue-0.13"), "target.unserved",
        "apiVersion", 1, 13);
    none(cross(cohort, "kueue-0.13"), "target.unserved");

    auto v2 = cross(std::string(kFlavor), "rhoai-3.4");
    CHECK(has(one(v2, "target.unserved", "apiVersion", 1, 13).message, "Kueue 0.14 of target rhoai-3.4 (served there: kueue.x-k8s.io/v1beta1)"));
    none(cross(std::string(kFlavor), "rhoai-3.5"), "target.unserved");
    // v1beta1 is deprecated from Kueue 0.16.
    auto dep = one(cross("apiVersion: kueue.x-k8s.io/v1beta1\nkind: ResourceFlavor\nmetadata:\n  name: f\n", "kueue-0.16"),
                   "target.deprecated", "apiVersion", 1, 13);
    CHECK(dep.severity == Severity::Warning);
    CHECK(has(dep.message, "use kueue.x-k8s.io/v1beta2"));
    // Kueue 0.20 serves no v1beta1 (kubernetes-sigs/kueue#14558): refused, with the rewrite.
    for (const char* target : {"kueue-0.20", "kubernetes"}) {
        auto gone = one(cross(cq("", kGoodGroups, "v1beta1"), target), "target.unserved", "apiVersion", 1, 13);
        CHECK(has(gone.message, "served there: kueue.x-k8s.io/v1beta2"));
        CHECK(has(gone.message, "rewrite the object as kueue.x-k8s.io/v1beta2 (spec.cohort becomes spec.cohortName)"));
    }
    none(cross(cq("", kGoodGroups, "v1beta1"), "kueue-0.19"), "target.unserved");
}

TEST_CASE("rules: target.unserved fields", "[rules]") {
    auto cq1 = [](const std::string& extra) {
        return "apiVersion: kueue.x-k8s.io/v1beta1\nkind: ClusterQueue\nmetadata:\n  name: cq\nspec:\n  namespaceSelector: {}\n" + extra;
    };
    auto fs = one(cross(cq1("  fairSharing:\n    weight: 2\n"), "rhoai-2.10"), "target.unserved", "spec.fairSharing", 8, 5);
    CHECK(has(fs.message, "needs Kueue 0.7 or newer"));
    none(cross(cq1("  fairSharing:\n    weight: 2\n"), "rhoai-2.16"), "target.unserved");
    auto pref = cross(cq1("  flavorFungibility:\n    whenCanBorrow: TryNextFlavor\n    preference: BorrowingOverPreemption\n"), "kueue-0.14");
    one(pref, "target.unserved", "spec.flavorFungibility.preference", 9, 17);
    none(cross(cq1("  flavorFungibility:\n    whenCanBorrow: TryNextFlavor\n    preference: BorrowingOverPreemption\n"), "kueue-0.15"),
         "target.unserved");
    auto lq = "apiVersion: kueue.x-k8s.io/v1beta1\nkind: LocalQueue\nmetadata:\n  name: q\n  namespace: a\nspec:\n  clusterQueue: cq\n  stopPolicy: Hold\n";
    one(cross(lq, "kueue-0.7"), "target.unserved", "spec.stopPolicy", 8, 15);
    none(cross(lq, "kueue-0.8"), "target.unserved");
    // Cohort fairSharing arrived in v1alpha1 with Kueue 0.11.
    auto co = "apiVersion: kueue.x-k8s.io/v1alpha1\nkind: Cohort\nmetadata:\n  name: org\nspec:\n  fairSharing:\n    weight: 1\n";
    one(cross(co, "kueue-0.10"), "target.unserved", "spec.fairSharing", 7, 5);
    none(cross(co, "rhoai-2.22"), "target.unserved");
    // Without a target nothing is judged.
    none(cross(cq1("  fairSharing:\n    weight: 2\n")), "target.unserved");
}

TEST_CASE("rules: DataScienceCluster against the target", "[rules]") {
    const std::string v2 = yaml(R"(
apiVersion: datasciencecluster.opendatahub.io/v2
kind: DataScienceCluster
metadata:
  name: default-dsc
spec:
  components:
    kueue:
      managementState: Managed
      defaultLocalQueueName: default
    codeflare:
      managementState: Managed
    trainer:
      managementState: Removed
)");
    auto on30 = cross(v2, "rhoai-3.0");
    auto state = one(on30, "target.component-state", "spec.components.kueue.managementState", 8, 24);
    CHECK(has(state.message, "use Unmanaged"));
    auto comp = of_rule(on30, "target.component");
    INFO(dump(on30));
    REQUIRE(comp.size() == 2);
    CHECK(comp[0].path == "spec.components.codeflare");
    CHECK(comp[0].mark.line == 10);
    CHECK(comp[0].mark.col == 5);
    CHECK(has(comp[0].message, "removed in DataScienceCluster v2"));
    CHECK(comp[1].path == "spec.components.trainer");
    CHECK(has(comp[1].message, "needs OpenShift AI 3.2 or newer"));

    // v2 before 3.0; no DSC on plain Kubernetes.
    auto on225 = cross(v2, "rhoai-2.25");
    CHECK(has(one(on225, "target.unserved", "apiVersion", 1, 13).message, "needs OpenShift AI 3.0 or newer"));
    one(cross(v2, "kueue-0.14"), "target.unserved", "apiVersion", 1, 13);

    // v1 is still served on 3.x, with the 2.25 keys and without kueue Managed.
    const std::string v1 = yaml(R"(
apiVersion: datasciencecluster.opendatahub.io/v1
kind: DataScienceCluster
metadata:
  name: default-dsc
spec:
  components:
    codeflare:
      managementState: Managed
    kueue:
      managementState: Unmanaged
      defaultClusterQueueName: default
)");
    no_errors(cross(v1, "rhoai-3.3"));
    no_errors(cross(v1, "rhoai-2.25"));
    auto on222 = cross(v1, "rhoai-2.22");
    one(on222, "target.component-state", "spec.components.kueue.managementState", 10, 24);
    one(on222, "target.unserved", "spec.components.kueue.defaultClusterQueueName", 11, 32);
}

// ---------------------------------------------------------------- Kueue's own examples

TEST_CASE("rules: Kueue's documentation examples raise no errors", "[rules]") {
    const std::filesystem::path dir = std::filesystem::path(QF_SHARED_DIR) / "upstream" / "kueue-examples";
    if (!std::filesystem::exists(dir)) {
        WARN("skipped: " << dir << " not found");
        return;
    }
    // Justified exclusions: samples Kueue's current webhook itself rejects.
    // admin/minimal-cq.yaml is a fragment showing admissionChecksStrategy on
    // a ClusterQueue without resourceGroups; since Kueue 0.18 (#10336) every
    // onFlavors entry must be one of the ClusterQueue's flavors (V36), so the
    // API rejects it as written. Checked to fail with exactly that rule.
    const std::map<std::string, std::string> excluded{{"admin/minimal-cq.yaml", "V36"}};

    std::vector<std::filesystem::path> files;
    for (const auto& e : std::filesystem::recursive_directory_iterator(dir))
        if (e.is_regular_file() && e.path().extension() == ".yaml") files.push_back(e.path());
    std::sort(files.begin(), files.end());
    REQUIRE(files.size() > 50);

    std::size_t kueue_objects = 0;
    for (const auto& f : files) {
        Diagnostics load_diags;
        auto in = load_resources({f.string()}, load_diags);
        Diagnostics d;
        for (const auto& r : in.resources) {
            if (r.ref.api_version.starts_with("kueue.x-k8s.io/")) ++kueue_objects;
            rules::check_object(r, d);
        }
        const std::string rel = std::filesystem::relative(f, dir).generic_string();
        INFO(rel << "\n" << dump(d));
        if (auto ex = excluded.find(rel); ex != excluded.end()) {
            REQUIRE(d.count(Severity::Error) >= 1);
            for (const auto& x : d.all()) CHECK(x.rule == ex->second);
            continue;
        }
        CHECK(d.count(Severity::Error) == 0);
    }
    CHECK(kueue_objects > 40);
}
