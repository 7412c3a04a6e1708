// Tests for compiler/engines/workloads: plain Pods and pod groups turned into the Workloads
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

// ---------------------------------------------------------------- Pods

TEST_CASE("jobs: a plain Pod is podSet main of count 1 with the pod's spec") {
    Run r(yaml(R"(
apiVersion: v1
kind: Pod
metadata: {name: p, labels: {kueue.x-k8s.io/queue-name: lq}}
spec:
  containers: [{name: c, resources: {requests: {cpu: "3"}}}]
)"));
    REQUIRE(r.out.size() == 1);
    CHECK(r.out[0].ref.name == "pod-p");
    CHECK(pod_sets(r.out[0]) == "main:1");
    CHECK(at(r.out[0].doc, {"spec", "podSets", "0", "template", "metadata"}) == nullptr);
    CHECK(str(r.out[0].doc, {"spec", "podSets", "0", "template", "spec", "containers", "0", "resources", "requests", "cpu"}) == "3");
}

TEST_CASE("jobs: a pod group is one Workload named after the group, one podSet per role") {
    const std::string pod = R"(apiVersion: v1
kind: Pod
metadata:
  name: NAME
  labels: {kueue.x-k8s.io/queue-name: lq, kueue.x-k8s.io/pod-group-name: grp}
  annotations: {kueue.x-k8s.io/pod-group-total-count: "TOTAL"}
spec:
  containers: [{name: c, command: [CMD], resources: {requests: {cpu: "CPU"}}}]
)";
    auto make = [&](const std::string& name, const std::string& cpu, const std::string& total) {
        std::string s = pod;
        s.replace(s.find("NAME"), 4, name);
        s.replace(s.find("TOTAL"), 5, total);
        s.replace(s.find("CMD"), 3, name);  // commands differ: not part of the role
        s.replace(s.find("CPU"), 3, cpu);
        return s;
    };
    {
        Run r(make("a", "1", "3") + "---\n" + make("b", "2", "3") + "---\n" + make("c", "1", "3"));
        INFO(qf_test::messages(r.d));
        REQUIRE(r.out.size() == 1);
        const Resource& wl = r.out[0];
        CHECK(wl.ref.name == "grp");
        CHECK(str(wl.doc, {"metadata", "annotations", "kueue.x-k8s.io/is-group-workload"}) == "true");
        const Node& ps = *at(wl.doc, {"spec", "podSets"});
        REQUIRE(ps.items().size() == 2);
        std::map<std::string, std::int64_t> by_cpu;
        std::vector<std::string> names;
        for (const auto& p : ps.items()) {
            by_cpu[str(p, {"template", "spec", "containers", "0", "resources", "requests", "cpu"})] = num(p, {"count"});
            names.push_back(str(p, {"name"}));
            CHECK(str(p, {"name"}).size() == 8);
        }
        CHECK(by_cpu == std::map<std::string, std::int64_t>{{"1", 2}, {"2", 1}});
        CHECK(names[0] < names[1]);  // sorted by name, as Kueue does
    }
    {
        Run r(make("a", "1", "3") + "---\n" + make("b", "1", "3"));
        CHECK(r.out.empty());
        CHECK(r.count("jobs.pod-group-incomplete") == 1);
    }
    {
        // Fast admission: the Workload is built from the first pod, for the whole group.
        std::string fast = make("a", "4", "3");
        fast.replace(fast.find("annotations: {"), 14, "annotations: {kueue.x-k8s.io/pod-group-fast-admission: \"true\", ");
        Run r(fast);
        INFO(qf_test::messages(r.d));
        REQUIRE(r.out.size() == 1);
        CHECK(pod_sets(r.out[0]).ends_with(":3"));
    }
    {
        // A role hash given by the user names the podSet, as in Kueue.
        std::string a = make("a", "1", "2"), b = make("b", "2", "2");
        for (auto* p : {&a, &b}) p->replace(p->find("annotations: {"), 14, "annotations: {kueue.x-k8s.io/role-hash: Leader, ");
        Run r(a + "---\n" + b);
        INFO(qf_test::messages(r.d));
        REQUIRE(r.out.size() == 1);
        CHECK(pod_sets(r.out[0]) == "leader:2");
    }
    {
        Run r(make("a", "1", "2") + "---\n" + make("b", "1", "3"));
        CHECK(r.out.empty());
        REQUIRE(r.count("jobs.invalid") == 1);
        CHECK(r.first("jobs.invalid")->mark.line == 15);  // the second pod's annotation
        CHECK(r.first("jobs.invalid")->object.name == "b");
    }
}
