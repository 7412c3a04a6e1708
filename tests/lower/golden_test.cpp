// Golden output per example and target, and determinism: the same site,
// built twice or with its maps shuffled, gives the same bytes.
#include "test_util.hpp"

#include <queueforge/base/yaml_emit.hpp>
#include <queueforge/base/yaml_load.hpp>

#include <catch2/catch.hpp>

#include <algorithm>
#include <random>

using namespace queueforge;
using qf_test::source_dir;

namespace {

struct GoldenCase {
    std::string example;
    std::string target;  // empty = the site's own
    std::string golden;
};

const std::vector<GoldenCase> kCases = {
    {"seed-minimal", "", "seed-minimal.yaml"},
    {"seed-minimal", "rhoai-2.16", "seed-minimal@rhoai-2.16.yaml"},
    {"seed-minimal", "kueue-0.13", "seed-minimal@kueue-0.13.yaml"},
    {"multi-team", "", "multi-team.yaml"},
    {"multi-team", "rhoai-2.19", "multi-team@rhoai-2.19.yaml"},
    {"multi-team", "rhoai-3.3", "multi-team@rhoai-3.3.yaml"},
    {"multi-team", "kueue-0.20", "multi-team@kueue-0.20.yaml"},
    // With HardwareProfiles, tenant RoleBindings and the Kueue operator's CR
    // (opt-in sections).
    {"rhoai-3", "", "rhoai-3.yaml"},
    // Sites built on a base (spec.extends).
    {"gitops-repo/clusters/prod", "", "gitops-repo-prod.yaml"},
    {"gitops-repo/clusters/staging", "", "gitops-repo-staging.yaml"},
    {"gitops-repo/clusters/dev", "", "gitops-repo-dev.yaml"},
};

// Rewrites every map of the document in a random key order.
void shuffle_maps(Node& n, std::mt19937& rng) {
    if (n.is_map()) {
        std::shuffle(n.entries().begin(), n.entries().end(), rng);
        for (auto& e : n.entries()) shuffle_maps(e.value, rng);
    } else if (n.is_seq()) {
        for (auto& i : n.items()) shuffle_maps(i, rng);
    }
}

}  // namespace

TEST_CASE("golden: every example builds to its golden file through the CLI") {
    const bool update = std::getenv("QF_UPDATE_GOLDEN") != nullptr;
    for (const auto& c : kCases) {
        INFO(c.example << " " << c.target);
        std::string args = "build " + qf_test::shell_quote((source_dir() / "examples" / c.example).string());
        if (!c.target.empty()) args += " --target " + c.target;
        auto r = qf_test::run_cli(args);
        INFO(r.err);
        REQUIRE(r.exit == 0);
        auto golden = source_dir() / "tests/golden" / c.golden;
        if (update) qf_test::write_text(golden, r.out);
        CHECK(r.out == qf_test::read_text(golden));
    }
}

TEST_CASE("determinism: same input, same bytes, whatever the order of map keys") {
    std::mt19937 rng(12345);
    for (const char* example : {"seed-minimal", "multi-team", "rhoai-3"}) {
        INFO(example);
        auto text = qf_test::read_text(source_dir() / "examples" / example / "queueforge-site.yaml");
        Diagnostics d1, d2;
        std::string first = qf_test::build_text(text, d1);
        REQUIRE(!first.empty());
        CHECK(qf_test::build_text(text, d2) == first);
        for (int round = 0; round < 5; ++round) {
            Diagnostics d;
            auto docs = load_yaml("site.yaml", text, d);
            REQUIRE(docs.size() == 1);
            shuffle_maps(docs[0].root, rng);
            std::string shuffled = emit_yaml(docs[0].root);
            Diagnostics d3;
            INFO(shuffled);
            CHECK(qf_test::build_text(shuffled, d3) == first);
        }
    }
}

TEST_CASE("golden: every supported target builds the seed site with the target's API versions") {
    for (const auto& t : supported_targets()) {
        INFO(t);
        auto text = qf_test::read_text(source_dir() / "examples/seed-minimal/queueforge-site.yaml");
        Diagnostics diags;
        auto lowered = compile_site("site.yaml", text, diags, {.target_override = t});
        INFO(qf_test::messages(diags));
        REQUIRE(lowered);
        for (const auto& o : lowered->objects) {
            if (o.kind == "DataScienceCluster") CHECK(o.api_version == lowered->target.dsc_api_version);
            else if (o.kind != "Namespace") CHECK(o.api_version == lowered->target.kueue_api_version);
        }
        bool has_dsc = std::any_of(lowered->objects.begin(), lowered->objects.end(),
                                   [](const Object& o) { return o.kind == "DataScienceCluster"; });
        CHECK(has_dsc == !lowered->target.dsc_api_version.empty());
    }
}
