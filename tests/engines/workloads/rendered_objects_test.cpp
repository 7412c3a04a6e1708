// OpenShift AI objects Kueue does not manage itself (a workbench Notebook, a
// KServe InferenceService / LLMInferenceService) are refused with a warning
// naming the rendered object to give instead (registry.cpp), and what they
// render to -- StatefulSet, Deployment, LeaderWorkerSet -- converts.
#include "workloads_util.hpp"

#include <catch2/catch.hpp>

#include <string>

using namespace queueforge;
using namespace wl_test;

TEST_CASE("rendered objects: Notebook, InferenceService and LLMInferenceService are refused, naming what to give", "[rendered-objects]") {
    struct Case {
        const char* api;
        const char* kind;
        const char* give;
    };
    const Case cases[] = {
        {"kubeflow.org/v1", "Notebook", "give that StatefulSet"},
        {"kubeflow.org/v1beta1", "Notebook", "give that StatefulSet"},
        {"serving.kserve.io/v1beta1", "InferenceService", "give that Deployment"},
        {"serving.kserve.io/v1alpha1", "LLMInferenceService", "give that Deployment or LeaderWorkerSet"},
    };
    for (const auto& c : cases) {
        CAPTURE(c.kind, c.api);
        Run r(std::string("apiVersion: ") + c.api + "\nkind: " + c.kind +
              "\nmetadata:\n  name: x\n  namespace: default\n  labels: {kueue.x-k8s.io/queue-name: lq}\nspec: {}\n");
        CHECK(r.out.empty());
        REQUIRE(r.count("jobs.unsupported") == 1);
        const Diagnostic* w = r.first("jobs.unsupported");
        CHECK(w->severity == Severity::Warning);
        CHECK(w->message.find(std::string(c.api) + " " + c.kind + " is not converted") != std::string::npos);
        CHECK(w->message.find(c.give) != std::string::npos);
        CHECK(w->mark.line == 1);
        CHECK_FALSE(r.d.has_errors());
    }
}

TEST_CASE("rendered objects: other kinds of those groups are not jobs", "[rendered-objects]") {
    Run r("apiVersion: serving.kserve.io/v1alpha1\nkind: ServingRuntime\nmetadata: {name: rt, namespace: default}\nspec: {}\n");
    CHECK(r.out.empty());
    CHECK(r.d.all().empty());
}
