// HardwareProfiles of type Queue (issue 16 item 1): the site's
// spec.hardwareProfiles lowered per target, and the hwp.* rules over emitted
// and hand-written profiles.
#include "test_util.hpp"

#include <queueforge/checks/rules.hpp>
#include <queueforge/checks/validate.hpp>
#include <queueforge/frontend/manifests.hpp>

#include <catch2/catch.hpp>

using namespace queueforge;

namespace {

bool has(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

std::string site_text(const std::string& target, const std::string& profiles, const std::string& extra = {}) {
    return "apiVersion: queueforge.io/v1alpha1\n"     // 1
           "kind: Site\n"                             // 2
           "metadata:\n"                              // 3
           "  name: lab\n"                            // 4
           "spec:\n"                                  // 5
           "  target: " + target + "\n" +             // 6
           "  priorityClasses: [{name: high, value: 1000}]\n"  // 7
           "  pools:\n"                               // 8
           "    - name: a100\n"                       // 9
           "      nodes: 4\n"                         // 10
           "      allocatable: {cpu: 96, memory: 1000Gi, nvidia.com/gpu: 8}\n"  // 11
           "    - name: cpu\n"                        // 12
           "      nodes: 10\n"                        // 13
           "      allocatable: {cpu: 64, memory: 256Gi}\n"  // 14
           "  teams:\n"                               // 15
           "    - name: team-a\n"                     // 16
           "      namespaces: [team-a, team-a-dev]\n" // 17
           "      quota:\n"                           // 18
           "        - {pool: a100, nominal: {cpu: 64, memory: 512Gi, nvidia.com/gpu: 4}}\n"  // 19
           "        - {pool: cpu, nominal: {cpu: 32, memory: 128Gi}}\n"  // 20
           "    - name: team-b\n"                     // 21
           "      namespaces: [team-b]\n"             // 22
           "      localQueue: b-queue\n"              // 23
           "      quota: [{pool: a100, nominal: {cpu: 64, memory: 512Gi, nvidia.com/gpu: 16}}]\n" +  // 24
           extra +
           profiles;
}

std::size_t count(const std::string& s, const std::string& part) {
    std::size_t n = 0;
    for (auto at = s.find(part); at != std::string::npos; at = s.find(part, at + 1)) ++n;
    return n;
}

Diagnostics validate_text(const std::string& yaml, const std::string& target = {}) {
    LoadedResources in;
    Diagnostics d;
    load_resources_from_text("in.yaml", yaml, in, d);
    REQUIRE_FALSE(d.has_errors());
    ValidationOptions o;
    if (!target.empty()) o.target = find_target(target).target;
    validate_all(in, o, d);
    return d;
}

using qf_test::with_rule;

}  // namespace

TEST_CASE("hardware profiles: perTeamAndPool makes one Queue profile per team and GPU pool", "[hwp]") {
    Diagnostics d;
    auto out = qf_test::build_text(site_text("rhoai-3.5", "  hardwareProfiles: {perTeamAndPool: true, priorityClass: high}\n"), d);
    INFO(qf_test::messages(d) << out);
    REQUIRE_FALSE(out.empty());
    // team-a on a100 and team-b on a100; no profile for the cpu pool (no accelerator).
    CHECK(count(out, "kind: HardwareProfile") == 2);
    CHECK(has(out, R"(apiVersion: infrastructure.opendatahub.io/v1
kind: HardwareProfile
metadata:
  name: team-a-a100
  namespace: redhat-ods-applications
)"));
    CHECK(has(out, "    queueforge.io/namespaces: team-a,team-a-dev\n"));
    CHECK(has(out, "    opendatahub.io/display-name: \"team-a: a100\"\n"));
    // Accelerator max: team-a's quota (4) below the node's 8; team-b's 16 is capped at the node's 8.
    CHECK(has(out, R"(    - displayName: nvidia.com/gpu
      identifier: nvidia.com/gpu
      minCount: 1
      maxCount: 4
      defaultCount: 1
      resourceType: Accelerator
  scheduling:
    type: Queue
    kueue:
      localQueueName: default
      priorityClass: high
)"));
    CHECK(has(out, "      maxCount: 8\n      defaultCount: 1\n      resourceType: Accelerator\n"));
    CHECK(has(out, "      localQueueName: b-queue\n"));
    // cpu: min(node 96, quota 64); memory: min(node 1000Gi, quota 512Gi).
    CHECK(has(out, R"(    - displayName: CPU
      identifier: cpu
      minCount: 1
      maxCount: 64
      defaultCount: 2
      resourceType: CPU
    - displayName: Memory
      identifier: memory
      minCount: 2Gi
      maxCount: 512Gi
      defaultCount: 8Gi
      resourceType: Memory
)"));
}

TEST_CASE("hardware profiles: the API version follows the target, and targets without profiles are an error", "[hwp]") {
    Diagnostics d225;
    auto out = qf_test::build_text(site_text("rhoai-2.25", "  hardwareProfiles: {perTeamAndPool: true}\n"), d225);
    INFO(qf_test::messages(d225));
    CHECK(has(out, "apiVersion: infrastructure.opendatahub.io/v1alpha1\nkind: HardwareProfile\n"));
    for (const char* target : {"rhoai-2.22", "kueue-0.16"}) {
        Diagnostics d;
        auto none = qf_test::build_text(site_text(target, "  hardwareProfiles: {perTeamAndPool: true}\n"), d);
        INFO(target << "\n" << qf_test::messages(d));
        CHECK(none.empty());
        auto found = with_rule(d, "target.hardware-profile");
        REQUIRE(found.size() == 1);
        CHECK(found[0].mark.line == 25);
        CHECK(has(found[0].message, "the first release that does is OpenShift AI 2.23"));
    }
}

TEST_CASE("hardware profiles: explicit profiles per team, per pool and both", "[hwp]") {
    Diagnostics d;
    auto out = qf_test::build_text(site_text("rhoai-3.5", R"(  hardwareProfiles:
    profiles:
      - name: team-a-small
        team: team-a
        displayName: Team A small
        description: cpu work
        cpu: {min: 1, default: 2, max: 8}
        memory: {min: 2Gi, default: 4Gi, max: 16Gi}
      - name: a100-large
        team: team-a
        pool: a100
        priorityClass: high
        accelerator: {min: 1, default: 2, max: 4}
      - name: a100-shared
        pool: a100
        localQueue: default
        accelerator: {max: 8}
)"),
                                   d);
    INFO(qf_test::messages(d) << out);
    REQUIRE_FALSE(out.empty());
    CHECK(count(out, "kind: HardwareProfile") == 3);
    CHECK(has(out, "    opendatahub.io/description: cpu work\n"));
    CHECK(has(out, "  name: team-a-small\n"));
    CHECK(has(out, "      minCount: 2Gi\n      maxCount: 16Gi\n      defaultCount: 4Gi\n      resourceType: Memory\n"));
    // The pool-only profile is meant for every team with quota in a100.
    CHECK(has(out, "    queueforge.io/namespaces: team-a,team-a-dev,team-b\n"));
}

TEST_CASE("hardware profiles: bad profiles are positioned errors", "[hwp]") {
    struct Case {
        std::string profiles;
        std::string rule;
        int line, col;
        std::string part;
    };
    const std::vector<Case> cases{
        {"  hardwareProfiles:\n    profiles: [{name: p, team: team-x}]\n", "site.unknown-team", 26, 32, "did you mean \"team-a\""},
        {"  hardwareProfiles:\n    profiles: [{name: p, pool: a10}]\n", "site.unknown-pool", 26, 32, "unknown pool \"a10\""},
        {"  hardwareProfiles:\n    profiles: [{name: p, team: team-a, priorityClass: hihg}]\n", "site.unknown-priority-class", 26,
         55, "did you mean \"high\""},
        {"  hardwareProfiles:\n    profiles: [{name: p}]\n", "site.hardware-profile", 26, 16, "give team, pool or both"},
        // Pool-only: team-a's LocalQueue is "default", team-b's "b-queue".
        {"  hardwareProfiles:\n    profiles: [{name: p, pool: a100}]\n", "site.hardware-profile", 26, 16,
         "different LocalQueue names (b-queue, default)"},
        {"  hardwareProfiles:\n    profiles: [{name: p, pool: cpu, accelerator: {max: 2}}]\n", "site.hardware-profile", 26, 50,
         "allocates no accelerator"},
        {"  hardwareProfiles:\n    profiles: [{name: p, team: team-a, accelerator: {max: 2}}]\n", "site.hardware-profile", 26, 53,
         "accelerator needs a pool"},
        {"  hardwareProfiles:\n    profiles: [{name: p, team: team-a, cpu: {min: 4, default: 2}}]\n", "site.hardware-profile", 26,
         63, "default (2) is below min (4)"},
        {"  hardwareProfiles:\n    profiles: [{name: p, team: team-a, gpu: {max: 2}}]\n", "site.unknown-field", 26, 40, ""},
    };
    for (const auto& c : cases) {
        Diagnostics d;
        auto out = qf_test::build_text(site_text("rhoai-3.5", c.profiles), d);
        INFO(c.profiles << qf_test::messages(d));
        CHECK(out.empty());
        bool found = false;
        for (const auto& x : d.all())
            if (x.rule == c.rule && x.mark.line == c.line && x.mark.col == c.col && has(x.message, c.part)) found = true;
        CHECK(found);
    }
}

TEST_CASE("hardware profiles: validate checks the site's profiles against its queues and nodes", "[hwp][rules]") {
    // A pool profile whose LocalQueue exists in team-a's namespaces only, and
    // whose maximum exceeds every node and team-a's quota.
    auto d = validate_text(site_text("rhoai-3.5", R"(  hardwareProfiles:
    profiles:
      - {name: shared, pool: a100, localQueue: default, accelerator: {max: 16}}
)"));
    INFO(qf_test::messages(d));
    auto missing = with_rule(d, "hwp.missing-localqueue");
    REQUIRE(missing.size() == 1);
    CHECK(has(missing[0].message, "LocalQueue \"default\" does not exist in namespace team-b the profile is meant for (only in team-a, team-a-dev)"));
    CHECK(missing[0].mark.line == 27);  // the profile in the site
    auto node = with_rule(d, "hwp.max-exceeds-node");
    REQUIRE_FALSE(node.empty());
    CHECK(has(node[0].message, "maxCount 16 of nvidia.com/gpu exceeds every node"));
    CHECK(has(node[0].message, "a100 8"));
    auto quota = with_rule(d, "hwp.max-exceeds-quota");
    REQUIRE_FALSE(quota.empty());
    CHECK(has(quota[0].message, "ClusterQueue team-a can admit for one workload in any flavor (a100: 4 (nominalQuota 4); cpu: 0"));
    // The generated default profiles pass.
    auto ok = validate_text(site_text("rhoai-3.5", "  hardwareProfiles: {perTeamAndPool: true, priorityClass: high}\n"));
    INFO(qf_test::messages(ok));
    for (const char* rule : {"hwp.missing-localqueue", "hwp.max-exceeds-node", "hwp.max-exceeds-quota",
                             "hwp.resource-not-covered", "hwp.unknown-priority-class", "schema.missing"})
        CHECK_FALSE(qf_test::has_rule(ok, rule));
    CHECK_FALSE(ok.has_errors());
}

TEST_CASE("hardware profiles: hand-written profiles are checked against the queues", "[hwp][rules]") {
    const std::string queues = R"(apiVersion: kueue.x-k8s.io/v1beta2
kind: ResourceFlavor
metadata: {name: a100}
spec: {nodeLabels: {gpu: a100}}
---
apiVersion: kueue.x-k8s.io/v1beta2
kind: ClusterQueue
metadata: {name: team-a}
spec:
  namespaceSelector: {}
  resourceGroups:
    - coveredResources: [cpu, nvidia.com/gpu]
      flavors:
        - name: a100
          resources:
            - {name: cpu, nominalQuota: "64"}
            - {name: nvidia.com/gpu, nominalQuota: "8"}
---
apiVersion: kueue.x-k8s.io/v1beta2
kind: LocalQueue
metadata: {name: team-a-queue, namespace: team-a}
spec: {clusterQueue: team-a}
---
apiVersion: kueue.x-k8s.io/v1beta2
kind: WorkloadPriorityClass
metadata: {name: high}
value: 1000
---
apiVersion: v1
kind: Node
metadata: {name: n1, labels: {gpu: a100}}
status: {allocatable: {cpu: "96", memory: 1000Gi, nvidia.com/gpu: "4"}}
---
)";
    auto d = validate_text(queues + R"(apiVersion: infrastructure.opendatahub.io/v1
kind: HardwareProfile
metadata:
  name: gpu
  namespace: redhat-ods-applications
  annotations: {queueforge.io/namespaces: "team-a,team-b"}
spec:
  identifiers:
    - {displayName: GPU, identifier: nvidia.com/gpu, minCount: 1, defaultCount: 1, maxCount: 6, resourceType: Accelerator}
    - {displayName: Memory, identifier: memory, minCount: 1Gi, defaultCount: 4Gi, maxCount: 2Gi, resourceType: Memory}
  scheduling:
    type: Queue
    kueue: {localQueueName: team-a-queue, priorityClass: hihg}
---
apiVersion: infrastructure.opendatahub.io/v1
kind: HardwareProfile
metadata: {name: broken, namespace: team-a}
spec:
  scheduling:
    type: Queue
    node: {nodeSelector: {gpu: a100}}
)");
    INFO(qf_test::messages(d));
    auto lq = with_rule(d, "hwp.missing-localqueue");
    REQUIRE(lq.size() == 1);
    CHECK(has(lq[0].message, "does not exist in namespace team-b"));
    auto pc = with_rule(d, "hwp.unknown-priority-class");
    REQUIRE(pc.size() == 1);
    CHECK(pc[0].severity == Severity::Error);
    CHECK(has(pc[0].message, "(did you mean \"high\"?)"));
    auto node = with_rule(d, "hwp.max-exceeds-node");
    REQUIRE(node.size() == 1);
    CHECK(node[0].path == "spec.identifiers[0].maxCount");
    CHECK(has(node[0].message, "maxCount 6 of nvidia.com/gpu exceeds every node"));
    // 6 fits the ClusterQueue's 8.
    CHECK_FALSE(qf_test::has_rule(d, "hwp.max-exceeds-quota"));
    auto cov = with_rule(d, "hwp.resource-not-covered");
    REQUIRE(cov.size() == 1);
    CHECK(has(cov[0].message, "covers no resource \"memory\""));
    auto range = with_rule(d, "hwp.identifier-range");
    REQUIRE(range.size() == 1);
    CHECK(has(range[0].message, "maxCount 2Gi is below defaultCount 4Gi"));
    auto cel = with_rule(d, "hwp.scheduling");
    REQUIRE(cel.size() == 1);
    CHECK(has(cel[0].message, "spec.scheduling: Invalid value: \"object\": When schedulingType is 'Queue', the "
                              "'kueue.localQueueName' field must be specified and non-empty, and the 'node' field must not be set"));
    // A project-scoped profile is meant for its own namespace.
    auto own = validate_text(queues + R"(apiVersion: infrastructure.opendatahub.io/v1
kind: HardwareProfile
metadata: {name: gpu, namespace: team-c}
spec:
  scheduling: {type: Queue, kueue: {localQueueName: team-a-queue}}
)");
    INFO(qf_test::messages(own));
    auto own_lq = with_rule(own, "hwp.missing-localqueue");
    REQUIRE(own_lq.size() == 1);
    CHECK(has(own_lq[0].message, "namespace team-c"));
    // Fixed: every rule quiet.
    auto fixed = validate_text(queues + R"(apiVersion: infrastructure.opendatahub.io/v1
kind: HardwareProfile
metadata:
  name: gpu
  namespace: redhat-ods-applications
  annotations: {queueforge.io/namespaces: team-a}
spec:
  identifiers:
    - {displayName: GPU, identifier: nvidia.com/gpu, minCount: 1, defaultCount: 1, maxCount: 4, resourceType: Accelerator}
  scheduling:
    type: Queue
    kueue: {localQueueName: team-a-queue, priorityClass: high}
)");
    INFO(qf_test::messages(fixed));
    CHECK_FALSE(fixed.has_errors());
}

TEST_CASE("hardware profiles: hwp.offered-beyond when teams share a LocalQueue name", "[hwp][rules]") {
    // team-b's own LocalQueue name keeps each generated profile in its team's projects.
    auto apart = validate_text(site_text("rhoai-3.5", "  hardwareProfiles: {perTeamAndPool: true, priorityClass: high}\n"));
    INFO(qf_test::messages(apart));
    CHECK_FALSE(qf_test::has_rule(apart, "hwp.offered-beyond"));

    // Both teams on LocalQueue "default": the dashboard offers each team's
    // profile in the other team's projects too.
    std::string shared = site_text("rhoai-3.5", "  hardwareProfiles: {perTeamAndPool: true, priorityClass: high}\n");
    shared.erase(shared.find("      localQueue: b-queue\n"), std::string("      localQueue: b-queue\n").size());
    auto d = validate_text(shared);
    INFO(qf_test::messages(d));
    auto beyond = with_rule(d, "hwp.offered-beyond");
    REQUIRE(beyond.size() == 2);  // team-a's a100 profile, team-b's a100 profile
    for (const auto& f : beyond) CHECK(f.severity == Severity::Warning);
    std::string a, b;
    for (const auto& f : beyond) (f.object.name == "team-a-a100" ? a : b) = f.message;
    CHECK(has(a, "the dashboard also offers the profile in team-b (ClusterQueue team-b), where a LocalQueue is named "
                 "\"default\" too: workloads there use that project's quota with counts sized for ClusterQueue team-a"));
    CHECK(has(b, "in team-a (ClusterQueue team-a), team-a-dev (ClusterQueue team-a)"));
    CHECK_FALSE(d.has_errors());
}

TEST_CASE("hardware profiles: hwp.offered-beyond on hand-written profiles, not on a project's own", "[hwp][rules]") {
    const std::string queues = R"(apiVersion: kueue.x-k8s.io/v1beta2
kind: LocalQueue
metadata: {name: team-queue, namespace: team-a}
spec: {clusterQueue: team-a}
---
apiVersion: kueue.x-k8s.io/v1beta2
kind: LocalQueue
metadata: {name: team-queue, namespace: team-b}
spec: {clusterQueue: team-b}
---
)";
    auto global = validate_text(queues + R"(apiVersion: infrastructure.opendatahub.io/v1
kind: HardwareProfile
metadata:
  name: team-a-gpu
  namespace: redhat-ods-applications
  annotations: {queueforge.io/namespaces: "team-a"}
spec:
  scheduling: {type: Queue, kueue: {localQueueName: team-queue}}
)");
    INFO(qf_test::messages(global));
    auto f = with_rule(global, "hwp.offered-beyond");
    REQUIRE(f.size() == 1);
    CHECK(f[0].mark.line == 18);  // localQueueName
    CHECK(f[0].path == "spec.scheduling.kueue.localQueueName");
    // A project's own profile shows only in that project.
    auto own = validate_text(queues + R"(apiVersion: infrastructure.opendatahub.io/v1
kind: HardwareProfile
metadata: {name: team-a-gpu, namespace: team-a}
spec:
  scheduling: {type: Queue, kueue: {localQueueName: team-queue}}
)");
    CHECK_FALSE(qf_test::has_rule(own, "hwp.offered-beyond"));
    // Two namespaces of one team behind one ClusterQueue are one team.
    auto one_team = validate_text(queues + R"(apiVersion: kueue.x-k8s.io/v1beta2
kind: LocalQueue
metadata: {name: team-queue, namespace: team-a-dev}
spec: {clusterQueue: team-a}
---
apiVersion: infrastructure.opendatahub.io/v1
kind: HardwareProfile
metadata:
  name: team-a-gpu
  namespace: redhat-ods-applications
  annotations: {queueforge.io/namespaces: "team-a"}
spec:
  scheduling: {type: Queue, kueue: {localQueueName: team-queue}}
)");
    auto g = with_rule(one_team, "hwp.offered-beyond");
    REQUIRE(g.size() == 1);
    CHECK(has(g[0].message, "offers the profile in team-b (ClusterQueue team-b), where"));
}
