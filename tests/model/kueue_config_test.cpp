// Kueue's controller configuration read once (model/kueue_config.hpp): the
// three forms (Configuration, kueue-manager-config ConfigMap, the Red Hat
// build's Kueue CR) give one typed reading with the defaults of their API
// version and the node of each fact; malformed values become findings of
// the object they are in, positioned where they are written.
#include "test_util.hpp"

#include <queueforge/compile.hpp>
#include <queueforge/frontend/manifests.hpp>
#include <queueforge/model/kueue_config.hpp>

#include <catch2/catch.hpp>

#include <algorithm>

using namespace queueforge;

namespace {

std::vector<Resource> parse(const std::string& yaml) {
    Diagnostics diags;
    LoadedResources loaded;
    load_resources_from_text("config.yaml", yaml, loaded, diags);
    INFO(qf_test::messages(diags));
    REQUIRE_FALSE(diags.has_errors());
    return std::move(loaded.resources);
}

}  // namespace

TEST_CASE("kueue config: a v1beta2 Configuration with Kueue's defaults", "[model][kueue-config]") {
    auto objs = parse(R"(apiVersion: config.kueue.x-k8s.io/v1beta2
kind: Configuration
fairSharing: {}
)");
    const auto kc = model::build_kueue_config(objs);
    REQUIRE(kc.objects.size() == 1);
    const auto& o = kc.objects[0];
    CHECK(o.form == model::KueueConfigForm::Configuration);
    CHECK_FALSE(o.v1beta1);
    CHECK(o.fair_sharing);  // v1beta2: the section turns it on
    CHECK(o.enabled_frameworks == std::vector<std::string>{"batch/job"});  // no integrations: Kueue's default
    CHECK(o.preemption_strategies == std::vector<int>{0, 1});
    REQUIRE(o.pods_ready);
    CHECK(o.pods_ready->enabled);
    CHECK(o.pods_ready->timeout_ms == 30LL * 60 * 1000);
    CHECK_FALSE(o.pods_ready->block_admission);
    CHECK_FALSE(o.admission_fair_sharing);
    CHECK(o.afs_gate_on);
    CHECK(o.reading.empty());
}

TEST_CASE("kueue config: v1beta1 needs enable for fair sharing and waitForPodsReady", "[model][kueue-config]") {
    auto objs = parse(R"(apiVersion: config.kueue.x-k8s.io/v1beta1
kind: Configuration
fairSharing: {preemptionStrategies: [LessThanInitialShare]}
waitForPodsReady: {enable: true}
integrations: {frameworks: [batch/job, kubeflow.org/pytorchjob]}
manageJobsWithoutQueueName: true
)");
    const auto kc = model::build_kueue_config(objs);
    const auto& o = kc.objects.at(0);
    CHECK(o.v1beta1);
    CHECK_FALSE(o.fair_sharing);
    CHECK(o.preemption_strategies == std::vector<int>{1});
    REQUIRE(o.pods_ready);
    CHECK(o.pods_ready->enabled);
    CHECK(o.pods_ready->block_admission);
    CHECK(o.pods_ready->timeout_ms == 5LL * 60 * 1000);
    CHECK(o.pods_ready->source == "config.yaml:4");
    CHECK(o.pods_ready_note);
    CHECK(o.manage_jobs_without_queue_name);
    CHECK(o.enabled_frameworks == std::vector<std::string>{"batch/job", "kubeflow.org/pytorchjob"});
    REQUIRE(o.frameworks.size() == 2);
    CHECK(o.frameworks[1].at->mark().line == 5);
}

TEST_CASE("kueue config: malformed values are findings of their object, at their node", "[model][kueue-config]") {
    auto objs = parse(R"(apiVersion: config.kueue.x-k8s.io/v1beta2
kind: Configuration
admissionFairSharing:
  usageHalfLifeTime: 168h
  usageSamplingInterval: -5m
waitForPodsReady:
  timeout: soon
)");
    const auto kc = model::build_kueue_config(objs);
    const auto& o = kc.objects.at(0);
    CHECK_FALSE(o.admission_fair_sharing);  // invalid: off
    CHECK(o.admission_fair_sharing_on);     // the rules' reading: the section is there and the gate is on
    REQUIRE(o.reading.size() == 2);
    CHECK(o.reading[0].mark.line == 5);
    CHECK(o.reading[0].message.find("usageSamplingInterval: Invalid value: \"-5m\": must be greater than 0") != std::string::npos);
    CHECK(o.reading[1].mark.line == 7);
    CHECK(o.reading[1].message.find("waitForPodsReady.timeout: \"soon\" is not a non-negative duration") != std::string::npos);
}

TEST_CASE("kueue config: a ConfigMap's Configuration, positioned inside its literal block", "[model][kueue-config]") {
    const std::string text = R"(apiVersion: v1
kind: ConfigMap
metadata: {name: kueue-manager-config, namespace: kueue-system}
data:
  controller_manager_config.yaml: |
    apiVersion: config.kueue.x-k8s.io/v1beta2
    kind: Configuration
    resources:
      excludeResourcePrefixes: [example.com/]
    fairSharing: []
)";
    auto objs = parse(text);
    SECTION("without the file's text every node sits at the string") {
        const auto kc = model::build_kueue_config(objs);
        REQUIRE(kc.objects.size() == 1);
        const auto& o = kc.objects[0];
        CHECK(o.config_map == &objs[0]);
        REQUIRE(o.object == &kc.embedded.front());
        CHECK(o.exclude_resource_prefixes == std::vector<std::string>{"example.com/"});
        REQUIRE(o.reading.size() == 1);
        CHECK(o.reading[0].message == "ConfigMap/kueue-system/kueue-manager-config: fairSharing must be a map; ignored");
        CHECK(o.reading[0].mark.line == 5);
    }
    SECTION("with it, at its own line") {
        const auto kc = model::build_kueue_config(
            objs, {.text_of = [&](const std::string& f) { return f == "config.yaml" ? &text : nullptr; }});
        REQUIRE(kc.objects.at(0).reading.size() == 1);
        CHECK(kc.objects[0].reading[0].mark.line == 10);
    }
    SECTION("not read when the caller passes the Configuration itself") {
        CHECK(model::build_kueue_config(objs, {.config_maps = false}).empty());
    }
}

TEST_CASE("kueue config: a ConfigMap whose text Kueue would not load", "[model][kueue-config]") {
    auto objs = parse(R"(apiVersion: v1
kind: ConfigMap
metadata: {name: kueue-manager-config, namespace: kueue-system}
data:
  controller_manager_config.yaml: "[1, 2]"
)");
    const auto kc = model::build_kueue_config(objs);
    REQUIRE(kc.objects.size() == 1);
    CHECK(kc.objects[0].object == nullptr);
    REQUIRE(kc.objects[0].reading.size() == 1);
    CHECK(kc.objects[0].reading[0].rule == "kueue-config.embedded");
}

TEST_CASE("kueue config: the Kueue CR as its operator renders it", "[model][kueue-config]") {
    auto objs = parse(R"(apiVersion: kueue.openshift.io/v1
kind: Kueue
metadata: {name: cluster}
spec:
  config:
    integrations: {frameworks: [BatchJob, PyTorchJob]}
    workloadManagement: {labelPolicy: None}
    preemption: {preemptionPolicy: FairSharing}
    admissionFairSharing: {configuration: Default}
    gangScheduling:
      policy: ByWorkload
      byWorkload: {admission: Sequential, timeoutSeconds: 120, requeuingStrategy: {retryLimit: 3, timeReference: Creation}}
)");
    const auto kc = model::build_kueue_config(objs);
    const auto& o = kc.objects.at(0);
    CHECK(o.form == model::KueueConfigForm::OperatorCR);
    CHECK(o.enabled_frameworks == std::vector<std::string>{"BatchJob", "PyTorchJob"});
    CHECK(o.manage_jobs_without_queue_name);
    CHECK(o.fair_sharing);
    CHECK(o.admission_fair_sharing_on);
    CHECK(o.cr.gang_policy == "ByWorkload");
    REQUIRE(o.pods_ready);
    CHECK(o.pods_ready->block_admission);
    CHECK(o.pods_ready->timeout_ms == 120000);
    CHECK(o.pods_ready->recovery_timeout_ms == 120000);
    CHECK(o.pods_ready->backoff_limit_count == 3);
    CHECK(o.pods_ready->creation_timestamp);
    CHECK(o.pods_ready->source == "config.yaml:11");
    // Default: a 30m half-life, Kueue's 5m sampling, weights 1.
    REQUIRE(o.admission_fair_sharing);
    CHECK(o.admission_fair_sharing->half_life_ns == 30LL * 60 * 1000000000LL);
    CHECK(o.admission_fair_sharing->sampling_ns == 5LL * 60 * 1000000000LL);
    CHECK(o.admission_fair_sharing->resource_weights.empty());
}

TEST_CASE("kueue config: the Kueue CR's Custom admissionFairSharing in seconds and its weights", "[model][kueue-config]") {
    auto cr = [](const std::string& custom) {
        return "apiVersion: kueue.openshift.io/v1\nkind: Kueue\nmetadata: {name: cluster}\nspec:\n  config:\n"
               "    integrations: {frameworks: [BatchJob]}\n    admissionFairSharing:\n      configuration: Custom\n"
               "      custom: " + custom + "\n";
    };
    auto objs = parse(cr("{usageHalfLifeTimeSeconds: 3600, usageSamplingIntervalSeconds: 60, resourceWeights: "
                         "[{name: nvidia.com/gpu, weight: \"2.5\"}, {name: cpu, weight: \"0\"}]}"));
    const auto kc = model::build_kueue_config(objs);
    const auto& o = kc.objects.at(0);
    REQUIRE(o.admission_fair_sharing);
    CHECK(o.admission_fair_sharing->half_life_ns == 3600LL * 1000000000LL);
    CHECK(o.admission_fair_sharing->sampling_ns == 60LL * 1000000000LL);
    CHECK(o.admission_fair_sharing->resource_weights.at("nvidia.com/gpu") == 2.5);
    CHECK(o.admission_fair_sharing->resource_weights.at("cpu") == 0);
    CHECK(o.admission_fair_sharing->weight_sites.count("cpu"));
    CHECK(o.reading.empty());
    // Unset seconds are Kueue's: half-life 0, sampling 5m.
    auto bare = parse(cr("{}"));
    const auto kb = model::build_kueue_config(bare);
    REQUIRE(kb.objects.at(0).admission_fair_sharing);
    CHECK(kb.objects.at(0).admission_fair_sharing->half_life_ns == 0);
    CHECK(kb.objects.at(0).admission_fair_sharing->sampling_ns == 5LL * 60 * 1000000000LL);
    // A weight the operator cannot parse: a finding at it, nothing rendered.
    auto bad = parse(cr("{resourceWeights: [{name: cpu, weight: lots}]}"));
    const auto kx = model::build_kueue_config(bad);
    CHECK_FALSE(kx.objects.at(0).admission_fair_sharing);
    REQUIRE(kx.objects.at(0).reading.size() == 1);
    CHECK(kx.objects.at(0).reading[0].mark.line == 9);
    CHECK_THAT(kx.objects.at(0).reading[0].message, Catch::Contains("\"lots\" is not a non-negative number"));
}

TEST_CASE("kueue config: objects of other kinds are ignored, the order given is kept", "[model][kueue-config]") {
    auto objs = parse(R"(apiVersion: kueue.openshift.io/v1
kind: Kueue
metadata: {name: cluster}
---
apiVersion: v1
kind: ConfigMap
metadata: {name: other}
data: {controller_manager_config.yaml: "x"}
---
apiVersion: config.kueue.x-k8s.io/v1beta1
kind: Configuration
)");
    const auto kc = model::build_kueue_config(objs);
    REQUIRE(kc.objects.size() == 2);
    CHECK(kc.objects[0].form == model::KueueConfigForm::OperatorCR);
    CHECK(kc.objects[1].object == &objs[2]);
    CHECK_FALSE(kc.objects[1].pods_ready->enabled);  // v1beta1 without enable
}

TEST_CASE("kueue config: the compile step carries the Kueue CR a site lowers to", "[model][kueue-config]") {
    Compilation c = compile({.path = (qf_test::source_dir() / "examples/rhoai-3/queueforge-site.yaml").string(), .build_model = true});
    INFO(qf_test::messages(c.diagnostics));
    REQUIRE(c.ok());
    REQUIRE(c.kueue_config.objects.size() == 1);
    const auto& o = c.kueue_config.objects[0];
    CHECK(o.form == model::KueueConfigForm::OperatorCR);
    CHECK(o.fair_sharing);  // preemptionPolicy: FairSharing
    CHECK(std::find(o.enabled_frameworks.begin(), o.enabled_frameworks.end(), "PyTorchJob") != o.enabled_frameworks.end());
    CHECK(o.cr.gang_policy == "ByWorkload");
    REQUIRE(o.pods_ready);
    CHECK(o.object->file == c.kueue_config.embedded.front().file);
    CHECK(o.reading.empty());
}
