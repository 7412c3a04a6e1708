// The Red Hat build of Kueue operator's Kueue CR (issue 16 item 3): emitted
// from spec.kueueOperator with the field set of the target's operator
// release, and the kueue-config.* rules over a hand-written CR or Kueue
// Configuration.
#include "lab_site.hpp"
#include "test_util.hpp"

#include <queueforge/checks/validate.hpp>
#include <queueforge/frontend/manifests.hpp>
#include <queueforge/frontend/site_parse.hpp>

#include <catch2/catch.hpp>

using namespace queueforge;

namespace {

using qf_test::with_rule;
using qf_test::lab_site;

bool has(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

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

}  // namespace

TEST_CASE("kueue operator: the Kueue CR with the 1.4 field set on rhoai-3.5", "[kueue-operator]") {
    Diagnostics d;
    auto out = qf_test::build_text(lab_site("rhoai-3.5", R"(  hardwareProfiles: {perTeamAndPool: true}
  kueueOperator:
    frameworks: [LeaderWorkerSet, PyTorchJob]
    gangScheduling: {policy: ByWorkload, admission: Sequential}
    admissionFairSharing:
      usageHalfLifeTimeSeconds: 1800
      resourceWeights: {nvidia.com/gpu: 2, cpu: "0.5"}
)",
                                                     "      fairSharingWeight: 2\n      cohort: lab\n",
                                                     "  cohorts: [{name: lab}]\n"),
                                   d);
    INFO(qf_test::messages(d) << out);
    REQUIRE_FALSE(out.empty());
    CHECK(has(out, R"(apiVersion: kueue.openshift.io/v1
kind: Kueue
metadata:
  name: cluster
)"));
    CHECK(has(out, R"(spec:
  managementState: Managed
  config:
    integrations:
      frameworks:
        - Deployment
        - LeaderWorkerSet
        - PyTorchJob
        - StatefulSet
    workloadManagement:
      labelPolicy: QueueName
    gangScheduling:
      policy: ByWorkload
      byWorkload:
        admission: Sequential
    preemption:
      preemptionPolicy: FairSharing
    admissionFairSharing:
      configuration: Custom
      custom:
        usageHalfLifeTimeSeconds: 1800
        resourceWeights:
          - name: cpu
            weight: "0.5"
          - name: nvidia.com/gpu
            weight: "2"
)"));
    // The CR comes before any queue (sync wave -15).
    CHECK(out.find("kind: Kueue\n") < out.find("kind: ClusterQueue\n"));
}

TEST_CASE("kueue operator: frameworks come from the site's job files", "[kueue-operator]") {
    qf_test::TempDir tmp;
    qf_test::write_text(tmp.path / "jobs" / "train.yaml", R"(apiVersion: kubeflow.org/v1
kind: PyTorchJob
metadata: {name: train, namespace: team-a, labels: {kueue.x-k8s.io/queue-name: default}}
spec: {}
---
apiVersion: trainer.kubeflow.org/v1alpha1
kind: TrainJob
metadata: {name: t, namespace: team-a}
)");
    qf_test::write_text(tmp.path / "jobs" / "spark.yaml", R"(apiVersion: sparkoperator.k8s.io/v1beta2
kind: SparkApplication
metadata: {name: s, namespace: team-a}
)");
    auto site = [&](const std::string& target, const std::string& file) {
        return lab_site(target, "  kueueOperator:\n", "",
                         "  workloads:\n    - {name: w, namespace: team-a, queue: default, file: " + file + "}\n");
    };
    qf_test::write_text(tmp.path / "queueforge-site.yaml", site("rhoai-3.3", "jobs/train.yaml"));
    Diagnostics d;
    auto lowered = lower_site(*load_site_file((tmp.path / "queueforge-site.yaml").string(), d), d);
    INFO(qf_test::messages(d));
    REQUIRE(lowered);
    std::string out = render_stream(lowered->objects, "");
    CHECK(has(out, "      frameworks:\n        - PyTorchJob\n        - TrainJob\n    workloadManagement:"));
    // SparkApplication is first in the Red Hat build of Kueue 1.4: an error on 3.3 (1.2).
    qf_test::write_text(tmp.path / "queueforge-site.yaml", site("rhoai-3.3", "jobs/spark.yaml"));
    Diagnostics d2;
    auto bad = lower_site(*load_site_file((tmp.path / "queueforge-site.yaml").string(), d2), d2);
    INFO(qf_test::messages(d2));
    CHECK_FALSE(bad);
    auto e = with_rule(d2, "target.kueue-operator");
    REQUIRE(e.size() == 1);
    CHECK(e[0].mark.line == 16);
    CHECK(has(e[0].message, "workload \"w\" (SparkApplication) needs the Kueue framework SparkApplication, which Red Hat "
                            "build of Kueue 1.2 (target rhoai-3.3) does not offer; it is first in Red Hat build of Kueue 1.4"));
}

TEST_CASE("kueue operator: bad input and targets without the operator", "[kueue-operator]") {
    struct Case {
        std::string target, kueue_operator, team_extra;
        std::string rule;
        int line;
        std::string part;
    };
    const std::vector<Case> cases{
        {"rhoai-3.5", "  kueueOperator: {frameworks: [PytorchJob]}\n", "", "site.kueue-operator", 15, "did you mean \"PyTorchJob\""},
        {"rhoai-3.5", "  kueueOperator:\n", "", "site.kueue-operator", 15, "no framework to enable"},
        {"rhoai-3.4", "  kueueOperator: {frameworks: [BatchJob], admissionFairSharing: {}}\n", "", "target.kueue-operator", 15,
         "first in Red Hat build of Kueue 1.4"},
        {"rhoai-3.4", "  kueueOperator: {frameworks: [RayService]}\n", "", "target.kueue-operator", 15,
         "which Red Hat build of Kueue 1.2 (target rhoai-3.4) does not offer; it is first in Red Hat build of Kueue 1.4"},
        {"rhoai-3.5", "  kueueOperator: {frameworks: [BatchJob], preemptionPolicy: Classical}\n", "      fairSharingWeight: 3\n",
         "site.fair-sharing-weights", 14, "does nothing"},
        {"rhoai-3.5", "  kueueOperator: {frameworks: [BatchJob], gangScheduling: {admission: Parallel}}\n", "",
         "site.kueue-operator", 15, "only with policy ByWorkload"},
        {"kueue-0.16", "  kueueOperator: {frameworks: [BatchJob]}\n", "", "target.kueue-operator", 15, "Configuration"},
        {"rhoai-2.19", "  kueueOperator: {frameworks: [BatchJob]}\n", "", "target.kueue-operator", 15, "embeds its own Kueue"},
        {"rhoai-2.25", "  kueueOperator: {frameworks: [BatchJob]}\n", "", "target.kueue-operator", 15, "kueue: Unmanaged"},
    };
    for (const auto& c : cases) {
        Diagnostics d;
        auto out = qf_test::build_text(lab_site(c.target, c.kueue_operator, c.team_extra), d);
        INFO(c.target << "\n" << c.kueue_operator << qf_test::messages(d));
        CHECK(out.empty());
        bool found = false;
        for (const auto& x : d.all())
            if (x.rule == c.rule && x.mark.line == c.line && has(x.message, c.part)) found = true;
        CHECK(found);
    }
    // 2.25 with kueue Unmanaged runs the operator (RHBoK 1.0, Kueue 0.11).
    Diagnostics ok;
    auto out = qf_test::build_text(lab_site("rhoai-2.25", "  kueueOperator: {frameworks: [BatchJob]}\n", "",
                                             "  dataScienceCluster: {components: {kueue: Unmanaged}}\n"),
                                   ok);
    INFO(qf_test::messages(ok));
    CHECK(has(out, "kind: Kueue\n"));
    // A fair-sharing weight without a policy makes it FairSharing.
    Diagnostics fs;
    auto fair = qf_test::build_text(lab_site("rhoai-3.5", "  kueueOperator: {frameworks: [BatchJob]}\n", "      fairSharingWeight: 3\n"), fs);
    INFO(qf_test::messages(fs));
    CHECK(has(fair, "    preemption:\n      preemptionPolicy: FairSharing\n"));
}

TEST_CASE("kueue operator: a hand-written Kueue CR is checked against the queues and jobs", "[kueue-operator][rules]") {
    const std::string queues = R"(apiVersion: kueue.x-k8s.io/v1beta2
kind: ResourceFlavor
metadata: {name: a100}
---
apiVersion: kueue.x-k8s.io/v1beta2
kind: ClusterQueue
metadata: {name: team-a}
spec:
  namespaceSelector: {}
  fairSharing: {weight: "2"}
  admissionScope: {admissionMode: UsageBasedAdmissionFairSharing}
  resourceGroups:
    - coveredResources: [cpu]
      flavors: [{name: a100, resources: [{name: cpu, nominalQuota: "8"}]}]
---
apiVersion: kubeflow.org/v1
kind: PyTorchJob
metadata: {name: train, namespace: team-a, labels: {kueue.x-k8s.io/queue-name: default}}
spec:
  pytorchReplicaSpecs:
    Master:
      replicas: 1
      template: {spec: {containers: [{name: pytorch, image: x, resources: {requests: {cpu: "1"}}}]}}
---
)";
    auto d = validate_text(queues + R"(apiVersion: kueue.openshift.io/v1
kind: Kueue
metadata: {name: kueue}
spec:
  managementState: Managed
  config:
    integrations:
      frameworks: [BatchJob, PytorchJob, BatchJob, SparkApplication]
    gangScheduling: {policy: ByWorkload}
    admissionFairSharing: {configuration: Default}
)",
                           "rhoai-3.4");
    INFO(qf_test::messages(d));
    CHECK(qf_test::has_rule(d, "kueue-config.name"));
    auto fw = with_rule(d, "kueue-config.framework");
    REQUIRE(fw.size() == 3);
    CHECK(has(fw[0].message, "spec.config.integrations.frameworks[1]: Unsupported value: \"PytorchJob\""));
    CHECK(has(fw[0].message, "(did you mean \"PyTorchJob\"?)"));
    CHECK(has(fw[1].message, "each item in frameworks must be unique"));
    CHECK(has(fw[2].message, "it is first in Red Hat build of Kueue 1.4"));
    auto missing = with_rule(d, "kueue-config.missing-framework");
    REQUIRE(missing.size() == 1);
    CHECK(has(missing[0].message, "does not enable the \"PyTorchJob\" integration"));
    CHECK(qf_test::has_rule(d, "kueue-config.union"));
    auto unserved = with_rule(d, "kueue-config.unserved");
    REQUIRE(unserved.size() == 1);
    CHECK(has(unserved[0].message, "spec.config.admissionFairSharing is not a field of Red Hat build of Kueue 1.2"));
    auto weights = with_rule(d, "kueue-config.fair-sharing-weights");
    REQUIRE(weights.size() == 1);
    CHECK(weights[0].path == "spec.fairSharing.weight");
    CHECK(has(weights[0].message, "ClusterQueue team-a sets fairSharing.weight, which does nothing"));
    // admissionFairSharing is set (if unserved), so admissionScope is not reported twice.
    CHECK_FALSE(qf_test::has_rule(d, "kueue-config.admission-scope"));

    auto fixed = validate_text(queues + R"(apiVersion: kueue.openshift.io/v1
kind: Kueue
metadata: {name: cluster}
spec:
  managementState: Managed
  config:
    integrations: {frameworks: [BatchJob, PyTorchJob]}
    preemption: {preemptionPolicy: FairSharing}
    admissionFairSharing: {configuration: Default}
)",
                               "rhoai-3.5");
    INFO(qf_test::messages(fixed));
    for (const char* rule : {"kueue-config.name", "kueue-config.framework", "kueue-config.missing-framework",
                             "kueue-config.union", "kueue-config.unserved", "kueue-config.fair-sharing-weights",
                             "kueue-config.admission-scope", "schema.missing"})
        CHECK_FALSE(qf_test::has_rule(fixed, rule));

    auto no_afs = validate_text(queues + R"(apiVersion: kueue.openshift.io/v1
kind: Kueue
metadata: {name: cluster}
spec:
  config:
    integrations: {frameworks: [PyTorchJob]}
    preemption: {preemptionPolicy: FairSharing}
)");
    INFO(qf_test::messages(no_afs));
    auto scope = with_rule(no_afs, "kueue-config.admission-scope");
    REQUIRE(scope.size() == 1);
    CHECK(scope[0].path == "spec.admissionScope");
}

TEST_CASE("kueue operator: Kueue's Configuration, its frameworks, fair sharing and the AFS gate pairing", "[kueue-operator][rules]") {
    const std::string cq = R"(apiVersion: kueue.x-k8s.io/v1beta2
kind: ClusterQueue
metadata: {name: team-a}
spec:
  namespaceSelector: {}
  fairSharing: {weight: "2"}
  resourceGroups: []
---
apiVersion: batch/v1
kind: Job
metadata: {name: j, namespace: team-a, labels: {kueue.x-k8s.io/queue-name: default}}
spec: {template: {spec: {restartPolicy: Never, containers: [{name: c, image: x}]}}}
---
apiVersion: ray.io/v1
kind: RayJob
metadata: {name: r, namespace: team-a, labels: {kueue.x-k8s.io/queue-name: default}}
spec: {}
---
)";
    auto d = validate_text(cq + R"(apiVersion: config.kueue.x-k8s.io/v1beta1
kind: Configuration
integrations:
  frameworks: [batch/job]
fairSharing: {enable: false}
featureGates: {AdmissionFairSharing: false}
)",
                           "kueue-0.20");
    INFO(qf_test::messages(d));
    auto missing = with_rule(d, "kueue-config.missing-framework");
    REQUIRE(missing.size() == 1);
    CHECK(has(missing[0].message, "does not enable the \"ray.io/rayjob\" integration"));
    CHECK(qf_test::has_rule(d, "kueue-config.fair-sharing-weights"));
    auto gates = with_rule(d, "kueue-config.afs-gates");
    REQUIRE(gates.size() == 1);
    CHECK(gates[0].severity == Severity::Error);
    CHECK(has(gates[0].message, "Kueue refuses to start"));
    // On Kueue 0.19 the pair is harmless: no finding.
    auto old = validate_text(cq + R"(apiVersion: config.kueue.x-k8s.io/v1beta1
kind: Configuration
integrations: {frameworks: [batch/job, ray.io/rayjob]}
fairSharing: {enable: true}
featureGates: {AdmissionFairSharing: false}
)",
                             "kueue-0.19");
    INFO(qf_test::messages(old));
    CHECK_FALSE(qf_test::has_rule(old, "kueue-config.afs-gates"));
    CHECK_FALSE(qf_test::has_rule(old, "kueue-config.missing-framework"));
    CHECK_FALSE(qf_test::has_rule(old, "kueue-config.fair-sharing-weights"));
    // Both gates off: fine on 0.20.
    auto both = validate_text(cq + R"(apiVersion: config.kueue.x-k8s.io/v1beta2
kind: Configuration
integrations: {frameworks: [batch/job, ray.io/rayjob]}
fairSharing: {}
featureGates: {AdmissionFairSharing: false, AdmissionFairSharingAnchorAtQuotaReservation: false}
)",
                              "kueue-0.20");
    INFO(qf_test::messages(both));
    CHECK_FALSE(qf_test::has_rule(both, "kueue-config.afs-gates"));
    CHECK_FALSE(qf_test::has_rule(both, "kueue-config.fair-sharing-weights"));
}

TEST_CASE("kueue operator: Queue HardwareProfiles need the StatefulSet and Deployment integrations", "[kueue-operator][rules]") {
    const std::string profile = R"(apiVersion: infrastructure.opendatahub.io/v1
kind: HardwareProfile
metadata: {name: gpu, namespace: redhat-ods-applications}
spec:
  identifiers: [{identifier: cpu, displayName: CPU, minCount: 1, defaultCount: 1, maxCount: 4, resourceType: CPU}]
  scheduling: {type: Queue, kueue: {localQueueName: default}}
---
)";
    auto cr = [](const std::string& frameworks) {
        return "apiVersion: kueue.openshift.io/v1\nkind: Kueue\nmetadata: {name: cluster}\nspec:\n"
               "  managementState: Managed\n  config:\n    integrations:\n      frameworks: " + frameworks + "\n";
    };
    {
        auto d = validate_text(profile + cr("[BatchJob]"), "rhoai-3.4");
        INFO(qf_test::messages(d));
        auto w = with_rule(d, "kueue-config.profile-frameworks");
        REQUIRE(w.size() == 2);  // StatefulSet (workbenches) and Deployment (model servers)
        CHECK(w[0].severity == Severity::Warning);
        CHECK(has(w[0].message, "does not enable \"StatefulSet\""));
        CHECK(has(w[0].message, "workbenches"));
        CHECK(has(w[1].message, "does not enable \"Deployment\""));
        CHECK(has(w[1].message, "model servers"));
        CHECK(w[0].mark.line > 0);
    }
    {
        auto d = validate_text(profile + cr("[BatchJob, StatefulSet, Deployment]"), "rhoai-3.4");
        INFO(qf_test::messages(d));
        CHECK_FALSE(qf_test::has_rule(d, "kueue-config.profile-frameworks"));
    }
    {
        // No Queue profile: nothing to say about the integrations.
        auto d = validate_text(cr("[BatchJob]"), "rhoai-3.4");
        CHECK_FALSE(qf_test::has_rule(d, "kueue-config.profile-frameworks"));
    }
}
