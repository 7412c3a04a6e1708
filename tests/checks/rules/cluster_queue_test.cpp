// Tests for compiler/checks/rules: ClusterQueue (kueue-semantics.md section 2).
// Every rule has a case that fires (checked by rule id, field path,
// position and wording) and one that must stay quiet. The wording is Kueue's
// own (pkg/webhooks, the CRD x-kubernetes-validations), restated on purpose.
#include "rules_test_util.hpp"

using namespace rules_test;

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
