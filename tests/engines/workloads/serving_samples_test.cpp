// Kueue's serving samples (../shared/upstream/kueue-examples/serving-workloads,
// Kueue ff69552e79ad21652c36caa97038382e55625cf7 site/static/examples) through
// `queueforge simulate`: every file converts without findings and each is
// admitted or left pending as its quota says. The HAMi sample runs with the
// Configuration its page (site/content/en/docs/tasks/run/using_hami.md) gives:
// gpucores and gpumem multiplied by the vGPU count.
#include "workloads_util.hpp"

#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

#include <filesystem>
#include <map>
#include <string>

using namespace queueforge;
using namespace wl_test;
namespace fs = std::filesystem;

namespace {


constexpr const char* kHamiConfig = R"(apiVersion: config.kueue.x-k8s.io/v1beta2
kind: Configuration
resources:
  transformations:
  - input: nvidia.com/gpucores
    strategy: Replace
    multiplyBy: nvidia.com/gpu
    outputs:
      nvidia.com/total-gpucores: "1"
  - input: nvidia.com/gpumem
    strategy: Replace
    multiplyBy: nvidia.com/gpu
    outputs:
      nvidia.com/total-gpumem: "1"
)";

std::map<std::string, std::string> statuses(const std::string& out) {
    std::map<std::string, std::string> s;
    const auto j = nlohmann::json::parse(out);
    for (const auto& w : j["workloads"]) s[w["name"].get<std::string>()] = w["status"].get<std::string>();
    return s;
}

}  // namespace

TEST_CASE("serving samples: every file of Kueue's serving-workloads converts without findings", "[serving-samples]") {
    auto shared = qf_test::shared_dir();
    if (!shared) {
        WARN("skipped: ../shared (Kueue's samples) is not beside this checkout");
        return;
    }
    const fs::path dir = *shared / "upstream/kueue-examples/serving-workloads";
    std::vector<fs::path> files;
    for (const auto& e : fs::directory_iterator(dir)) files.push_back(e.path());
    std::sort(files.begin(), files.end());
    REQUIRE(files.size() == 5);
    std::map<std::string, std::size_t> workloads;
    for (const auto& f : files) {
        Run r(qf_test::read_text(f), user_queue_cluster("10"));
        INFO(f.filename().string() << "\n" << qf_test::messages(r.d));
        CHECK(r.d.empty());
        workloads[f.filename().string()] = r.out.size();
        std::string what;
        CHECK(schema_errors(r.out, &what) == 0);
        INFO(what);
    }
    CHECK(workloads["sample-deployment.yaml"] == 3);
    CHECK(workloads["sample-hami.yaml"] == 1);
    CHECK(workloads["sample-leaderworkerset.yaml"] == 2);
    CHECK(workloads["sample-leaderworkerset-tas.yaml"] == 2);
    CHECK(workloads["sample-statefulset.yaml"] == 1);
}

TEST_CASE("serving samples: queueforge simulate admits them as far as their quota goes", "[serving-samples]") {
    auto shared = qf_test::shared_dir();
    if (!shared) {
        WARN("skipped: ../shared (Kueue's samples) is not beside this checkout");
        return;
    }
    const fs::path dir = *shared / "upstream/kueue-examples/serving-workloads";
    qf_test::TempDir tmp;
    // Deployment 3 x 100m, StatefulSet 3 x 100m (one group), LWS 2 groups of
    // 100m + 2 x 200m: 0.3 + 0.3 + 1.0 = 1.6 cpu for all of them.
    for (const auto& [quota, pending] : {std::pair{std::string("1600m"), 0}, std::pair{std::string("1500m"), 1}}) {
        CAPTURE(quota);
        qf_test::write_text(tmp.path / "queues.yaml", user_queue_cluster(quota));
        auto r = qf_test::run_cli("simulate -o json " + qf_test::shell_quote((tmp.path / "queues.yaml").string()) + " " +
                                  qf_test::shell_quote((dir / "sample-deployment.yaml").string()) + " " +
                                  qf_test::shell_quote((dir / "sample-statefulset.yaml").string()) + " " +
                                  qf_test::shell_quote((dir / "sample-leaderworkerset.yaml").string()));
        INFO(r.out << r.err);
        REQUIRE(r.exit == 0);
        auto s = statuses(r.out);
        REQUIRE(s.size() == 6);
        int n = 0;
        for (const auto& [name, status] : s) n += status == "Pending";
        CHECK(n == pending);
    }
}

TEST_CASE("serving samples: the HAMi Deployment is admitted on total vGPU cores and memory", "[serving-samples]") {
    auto shared = qf_test::shared_dir();
    if (!shared) {
        WARN("skipped: ../shared (Kueue's samples) is not beside this checkout");
        return;
    }
    const fs::path sample = *shared / "upstream/kueue-examples/serving-workloads/sample-hami.yaml";
    qf_test::TempDir tmp;
    qf_test::write_text(tmp.path / "config.yaml", kHamiConfig);
    auto r = qf_test::run_cli("simulate -o json " + qf_test::shell_quote((tmp.path / "config.yaml").string()) + " " +
                              qf_test::shell_quote(sample.string()));
    INFO(r.out << r.err);
    REQUIRE(r.exit == 0);
    auto j = nlohmann::json::parse(r.out);
    REQUIRE(j["workloads"].size() == 1);
    const auto& w = j["workloads"][0];
    CHECK(w["name"] == "pod-gpu-burn-0");
    CHECK(w["status"] == "Admitted");
    const auto& usage = w["admission"]["podSetAssignments"][0]["resourceUsage"];
    CHECK(usage["nvidia.com/gpu"] == "2");
    CHECK(usage["nvidia.com/total-gpucores"] == "60");  // the page's 30 cores x 2 vGPUs
    CHECK(usage["nvidia.com/total-gpumem"] == "2048");

    // Without the transformation the per-vGPU resources are not covered: it
    // cannot fit even alone, which simulate reports with exit 1.
    auto bare = qf_test::run_cli("simulate -o json " + qf_test::shell_quote(sample.string()));
    INFO(bare.out << bare.err);
    CHECK(bare.exit == 1);
    CHECK(nlohmann::json::parse(bare.out)["workloads"][0]["status"] == "Pending");
}
