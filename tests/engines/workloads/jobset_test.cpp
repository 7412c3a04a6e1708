// Tests for compiler/engines/workloads: JobSet turned into the Workloads
// Kueue's job integrations create. Facts come from Kueue's pkg/controller/jobs
// (cited in the sources); expected values are restated here on purpose.
#include "workloads_util.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <map>
#include <set>
#include <string>
#include <vector>

using namespace queueforge;
using namespace wl_test;
namespace fs = std::filesystem;

// ---------------------------------------------------------------- JobSet

TEST_CASE("jobs: JobSet has one podSet per replicatedJob, replicas x pods per child Job") {
    Run r(yaml(R"(
apiVersion: jobset.x-k8s.io/v1alpha2
kind: JobSet
metadata: {name: js, labels: {kueue.x-k8s.io/queue-name: lq}}
spec:
  replicatedJobs:
    - name: Workers
      replicas: 3
      template:
        spec:
          parallelism: 4
          completions: 2
          template: {spec: {containers: [{name: w}]}}
    - name: driver
      template:
        spec:
          template: {spec: {containers: [{name: d}]}}
)"));
    INFO(qf_test::messages(r.d));
    REQUIRE(r.out.size() == 1);
    CHECK(r.out[0].ref.name == "jobset-js");
    CHECK(pod_sets(r.out[0]) == "workers:6 driver:1");
    CHECK(at(r.out[0].doc, {"spec", "podSets", "0", "name"})->mark().line == 6);
    CHECK(str(r.out[0].doc, {"spec", "podSets", "1", "template", "spec", "containers", "0", "name"}) == "d");
}
