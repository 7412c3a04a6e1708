// The diff library (integrations/diff) at its boundary, without git or the
// CLI: two folders holding the same site before and after a change are built
// (build_side) and compared (compare, compare_sites); the review's object,
// quota and admission changes and the --fail-on predicates are checked.
#include <catch2/catch.hpp>

#include "test_util.hpp"

#include <queueforge/integrations/diff.hpp>

#include <algorithm>
#include <filesystem>

namespace fs = std::filesystem;
using namespace queueforge;
using qf_test::TempDir;
using qf_test::write_text;

namespace {

// One GPU pool, one team; `gpus` is the team's nominal GPU quota and the
// sample asks for 4 GPUs on one pod.
std::string site_text(int gpus, const std::string& name = "lab") {
    return R"(apiVersion: queueforge.io/v1alpha1
kind: Site
metadata:
  name: )" + name + R"(
spec:
  target: kueue-0.14
  pools:
    - name: a100
      nodes: 2
      allocatable: {cpu: 64, memory: 512Gi, nvidia.com/gpu: 8, pods: 110}
  teams:
    - name: research
      namespaces: [research]
      quota:
        - pool: a100
          nominal: {cpu: 64, memory: 512Gi, nvidia.com/gpu: )" + std::to_string(gpus) + R"(}
  workloads:
    - name: train
      namespace: research
      podSets:
        - name: main
          count: 1
          requests: {cpu: 8, memory: 64Gi, nvidia.com/gpu: 4}
)";
}

struct Sides {
    TempDir dir;
    diff::Tree base, head;
    Sides(const std::string& before, const std::string& after) {
        if (!before.empty()) write_text(dir.path / "base/clusters/lab/queueforge-site.yaml", before);
        if (!after.empty()) write_text(dir.path / "head/clusters/lab/queueforge-site.yaml", after);
        fs::create_directories(dir.path / "base");
        fs::create_directories(dir.path / "head");
        base = {(dir.path / "base").string(), "base:", "the base"};
        head = {(dir.path / "head").string(), "", "the work tree"};
    }
    std::optional<diff::MultiReview> compare(Diagnostics& d, bool simulate = true) {
        std::vector<SourceText> sources;
        diff::Options o;
        o.simulate = simulate;
        return diff::compare_sites(base, head, {"clusters"}, o, d, sources);
    }
};

const diff::QuotaChange* quota(const diff::Review& r, const std::string& resource) {
    auto it = std::find_if(r.quotas.begin(), r.quotas.end(), [&](const auto& q) { return q.resource == resource; });
    return it == r.quotas.end() ? nullptr : &*it;
}

}  // namespace

TEST_CASE("diff: a quota cut is a quota change before -> after and an admission regression", "[diff]") {
    Sides s(site_text(8), site_text(2));
    Diagnostics d;
    auto r = s.compare(d);
    INFO(qf_test::messages(d));
    REQUIRE(r);
    REQUIRE(r->sites.size() == 1);
    const auto& sr = r->sites.front();
    CHECK(sr.change == "Changed");
    const auto* q = quota(sr.review, "nvidia.com/gpu");
    REQUIRE(q);
    CHECK(q->field == "nominalQuota");
    CHECK(q->before == "8");
    CHECK(q->after == "2");
    CHECK(quota(sr.review, "cpu") == nullptr);  // unchanged quotas are not listed
    REQUIRE(sr.review.simulated);
    REQUIRE(sr.review.admissions.size() == 1);
    const auto& a = sr.review.admissions.front();
    CHECK(a.name == "train");
    CHECK(a.before.starts_with("Admitted"));
    CHECK(a.after.starts_with("Pending"));
    CHECK(a.regression);
    CHECK(diff::has(*r, "any"));
    CHECK(diff::has(*r, "regression"));
    CHECK_FALSE(diff::has(*r, "deletion-blocked"));
    CHECK_FALSE(diff::has(*r, "quota-below-usage"));
}

TEST_CASE("diff: a quota raise changes the object but regresses nothing", "[diff]") {
    Sides s(site_text(4), site_text(8));
    Diagnostics d;
    auto r = s.compare(d);
    INFO(qf_test::messages(d));
    REQUIRE(r);
    const auto& review = r->sites.front().review;
    REQUIRE(quota(review, "nvidia.com/gpu"));
    CHECK(quota(review, "nvidia.com/gpu")->after == "8");
    CHECK(review.admissions.empty());  // admitted before and after: not a change
    CHECK(diff::has(*r, "any"));
    CHECK_FALSE(diff::has(*r, "regression"));
    // The ClusterQueue is the changed object, with the field path of the quota.
    auto cq = std::find_if(review.objects.begin(), review.objects.end(),
                           [](const auto& o) { return o.kind == "ClusterQueue"; });
    REQUIRE(cq != review.objects.end());
    CHECK(cq->change == "Changed");
    REQUIRE_FALSE(cq->fields.empty());
    CHECK(cq->fields.front().path.find("nominalQuota") != std::string::npos);
}

TEST_CASE("diff: the same site on both sides is Unchanged and fails on nothing", "[diff]") {
    Sides s(site_text(8), site_text(8));
    Diagnostics d;
    auto r = s.compare(d, false);
    REQUIRE(r);
    CHECK(r->sites.front().change == "Unchanged");
    CHECK(r->sites.front().review.objects.empty());
    for (const auto& kind : diff::fail_on_kinds()) {
        INFO(kind);
        CHECK_FALSE(diff::has(*r, kind));
    }
}

TEST_CASE("diff: a site only in the head is Added, only in the base Removed", "[diff]") {
    {
        Sides s("", site_text(8));
        Diagnostics d;
        auto r = s.compare(d, false);
        REQUIRE(r);
        CHECK(r->sites.front().change == "Added");
        CHECK(diff::has(*r, "any"));
    }
    {
        Sides s(site_text(8), "");
        Diagnostics d;
        auto r = s.compare(d, false);
        REQUIRE(r);
        CHECK(r->sites.front().change == "Removed");
    }
}

TEST_CASE("diff: an invalid head is an error naming the head's file, not a review", "[diff]") {
    std::string broken = site_text(8);
    broken.replace(broken.find("pool: a100"), 10, "pool: a10");
    Sides s(site_text(8), broken);
    Diagnostics d;
    auto r = s.compare(d, false);
    CHECK_FALSE(r);
    REQUIRE(d.has_errors());
    const auto& first = *std::find_if(d.all().begin(), d.all().end(), [](const auto& x) { return x.severity == Severity::Error; });
    CHECK(first.file == "clusters/lab/queueforge-site.yaml");
    CHECK(first.mark.line > 0);
}
