// Plain Kueue's Configuration (spec.kueueConfig): the kueue-manager-config
// ConfigMap with the target release's Configuration, the site's
// integrations, fair sharing and DRA deviceClassMappings; what validate and
// simulate read back from it; and the site's errors.
#include "lab_site.hpp"
#include "test_util.hpp"

#include <queueforge/compile.hpp>
#include <queueforge/model/kueue_config.hpp>

#include <catch2/catch.hpp>

#include <filesystem>

using namespace queueforge;

namespace {

using qf_test::with_rule;
using qf_test::lab_site;

const std::string kConfig = R"(  kueueConfig:
    frameworks: [kubeflow.org/pytorchjob, batch/job]
    manageJobsWithoutQueueName: false
    deviceClassMappings:
      - {name: mig.nvidia.com/devices, deviceClassNames: [mig.nvidia.com]}
      - {name: gpu.nvidia.com/devices, deviceClassNames: [gpu.nvidia.com, b.gpu.nvidia.com]}
)";

void check_golden(const std::string& text, const std::string& name) {
    const auto golden = qf_test::source_dir() / "tests/golden" / name;
    if (std::getenv("QF_UPDATE_GOLDEN")) qf_test::write_text(golden, text);
    REQUIRE(std::filesystem::exists(golden));
    CHECK(text == qf_test::read_text(golden));
}

}  // namespace

TEST_CASE("kueue config: the ConfigMap of each Configuration version, golden", "[kueue-config][golden]") {
    // (import_test reads these goldens back: the ConfigMap imports as
    // spec.kueueConfig and rebuilds to the same bytes.)
    // v1beta1 up to Kueue 0.14 (fairSharing.enable, the DRA alpha gate),
    // v1beta2 from 0.15; 0.18 counts DRA devices without a gate.
    for (const char* target : {"kueue-0.14", "kueue-0.18"}) {
        Diagnostics d;
        const std::string out = qf_test::build_text(lab_site(target, kConfig, "      fairSharingWeight: 2\n"), d);
        INFO(target << "\n" << qf_test::messages(d));
        REQUIRE_FALSE(out.empty());
        CHECK(d.all().empty());
        check_golden(out, std::string("kueue-config@") + target + ".yaml");
    }
}

TEST_CASE("kueue config: validate and simulate read the emitted Configuration back", "[kueue-config]") {
    for (const char* target : {"kueue-0.14", "kueue-0.18"}) {
        INFO(target);
        Compilation c = compile({.path = "site.yaml",
                                 .text = lab_site(target, kConfig, "      fairSharingWeight: 2\n"),
                                 .build_model = true});
        INFO(qf_test::messages(c.diagnostics));
        REQUIRE(c.ok());
        REQUIRE(c.kueue_config.objects.size() == 1);
        const auto& o = c.kueue_config.objects[0];
        CHECK(o.reading.empty());
        CHECK(o.v1beta1 == (std::string(target) == "kueue-0.14"));
        CHECK(o.fair_sharing);  // the weights count: simulate admits by weighted share
        CHECK(o.enabled_frameworks == std::vector<std::string>{"batch/job", "kubeflow.org/pytorchjob"});
        CHECK_FALSE(o.manage_jobs_without_queue_name);
    }
    // Without a weight, fair sharing stays off; `fairSharing: true` turns it on.
    Compilation off = compile({.path = "site.yaml", .text = lab_site("kueue-0.16", kConfig), .build_model = true});
    REQUIRE(off.ok());
    CHECK_FALSE(off.kueue_config.objects.at(0).fair_sharing);
    Compilation on = compile(
        {.path = "site.yaml", .text = lab_site("kueue-0.16", kConfig + "    fairSharing: true\n"), .build_model = true});
    REQUIRE(on.ok());
    CHECK(on.kueue_config.objects.at(0).fair_sharing);
}

TEST_CASE("kueue config: validate passes the built site's manifests", "[kueue-config]") {
    qf_test::TempDir dir;
    qf_test::write_text(dir.path / "site.yaml", lab_site("kueue-0.16", kConfig, "      fairSharingWeight: 2\n"));
    auto built = qf_test::run_cli("build " + (dir.path / "site.yaml").string() + " -o " + (dir.path / "out").string());
    INFO(built.out << built.err);
    REQUIRE(built.exit == 0);
    auto v = qf_test::run_cli("validate " + (dir.path / "out").string());
    INFO(v.out << v.err);
    CHECK(v.exit == 0);
}

TEST_CASE("kueue config: integrations come from the site and must be the target release's", "[kueue-config]") {
    // HardwareProfiles are OpenShift AI's; on plain Kueue the job files name
    // the kinds. Without either and without frameworks, nothing to enable.
    Diagnostics d;
    CHECK(qf_test::build_text(lab_site("kueue-0.16", "  kueueConfig: {}\n"), d).empty());
    auto e = with_rule(d, "site.kueue-config");
    REQUIRE(e.size() == 1);
    CHECK(e[0].mark.line == 15);
    CHECK_THAT(e[0].message, Catch::Contains("no integration to enable"));

    // Unknown name: did you mean.
    Diagnostics d2;
    CHECK(qf_test::build_text(lab_site("kueue-0.16", "  kueueConfig: {frameworks: [kubeflow.org/pytorchjobs]}\n"), d2)
              .empty());
    e = with_rule(d2, "site.kueue-config");
    REQUIRE(e.size() == 1);
    CHECK_THAT(e[0].message, Catch::Contains("did you mean \"kubeflow.org/pytorchjob\"?"));

    // A later release's integration: the first release that has it.
    Diagnostics d3;
    CHECK(qf_test::build_text(lab_site("kueue-0.13", "  kueueConfig: {frameworks: [trainer.kubeflow.org/trainjob]}\n"), d3)
              .empty());
    e = with_rule(d3, "target.kueue-config");
    REQUIRE(e.size() == 1);
    CHECK_THAT(e[0].message, Catch::Contains("Kueue 0.13 (target kueue-0.13) does not register; it is first in Kueue 0.14"));
    // One that Kueue dropped.
    Diagnostics d4;
    CHECK(qf_test::build_text(lab_site("kueue-0.16", "  kueueConfig: {frameworks: [kubeflow.org/mxjob]}\n"), d4).empty());
    e = with_rule(d4, "target.kueue-config");
    REQUIRE(e.size() == 1);
    CHECK_THAT(e[0].message, Catch::Contains("Kueue dropped it"));
}

TEST_CASE("kueue config: fair sharing, DRA and targets that cannot take it", "[kueue-config]") {
    const std::string batch = "  kueueConfig: {frameworks: [batch/job]";
    struct Case {
        std::string target, config, team_extra, rule, message;
        int line;
    };
    const std::vector<Case> cases = {
        // A weight with fair sharing off.
        {"kueue-0.16", batch + ", fairSharing: false}\n", "      fairSharingWeight: 2\n", "site.fair-sharing-weights",
         "does nothing: spec.kueueConfig.fairSharing is false", 14},
        // Kueue 0.6 has no fair sharing.
        {"kueue-0.6", batch + "}\n", "      fairSharingWeight: 2\n", "target.kueue-config",
         "Kueue 0.6 (target kueue-0.6) has no fair sharing; it is first in Kueue 0.7", 14},
        // DRA before 0.14.
        {"kueue-0.13", batch + ", deviceClassMappings: [{name: gpu, deviceClassNames: [gpu.nvidia.com]}]}\n", "",
         "target.kueue-config", "deviceClassMappings are first in Kueue 0.14", 15},
        // OpenShift AI: the operators write Kueue's Configuration.
        {"rhoai-3.5", batch + "}\n", "", "target.kueue-config", "use spec.kueueOperator", 15},
        {"rhoai-2.16", batch + "}\n", "", "target.kueue-config", "deploys its embedded Kueue", 15},
        // Mappings Kueue would refuse.
        {"kueue-0.18", batch + ", deviceClassMappings: [{name: a, deviceClassNames: [x]}, {name: b, deviceClassNames: [x]}]}\n",
         "", "site.kueue-config", "DeviceClass \"x\" is already mapped to a", 15},
        {"kueue-0.18", batch + ", deviceClassMappings: [{name: a, deviceClassNames: [x]}, {name: a, deviceClassNames: [z]}]}\n",
         "", "site.kueue-config", "\"a\" is mapped twice", 15},
        {"kueue-0.18", batch + ", deviceClassMappings: [{name: \"a b\", deviceClassNames: [x]}]}\n", "", "site.kueue-config",
         "is not a resource name Kueue accepts", 15},
        {"kueue-0.18", batch + ", deviceClassMappings: [{name: a, deviceClassNames: []}]}\n", "", "site.kueue-config",
         "at least one DeviceClass name is required", 15},
    };
    for (const auto& c : cases) {
        Diagnostics d;
        const std::string out = qf_test::build_text(lab_site(c.target, c.config, c.team_extra), d);
        INFO(c.target << " " << c.config << qf_test::messages(d));
        CHECK(out.empty());
        auto e = with_rule(d, c.rule);
        REQUIRE(e.size() == 1);
        CHECK_THAT(e[0].message, Catch::Contains(c.message));
        CHECK(e[0].mark.line == c.line);
    }
}

TEST_CASE("kueue config: a weight nothing turns on is a warning", "[kueue-config]") {
    struct Case {
        std::string target, extra, how;
    };
    for (const auto& c : std::vector<Case>{{"kueue-0.16", "", "add spec.kueueConfig"},
                                          {"rhoai-3.5", "", "add spec.kueueOperator"},
                                          {"rhoai-2.16", "", "turn fairSharing on in the Configuration"}}) {
        Diagnostics d;
        const std::string out = qf_test::build_text(lab_site(c.target, c.extra, "      fairSharingWeight: 2\n"), d);
        INFO(c.target << qf_test::messages(d));
        CHECK_FALSE(out.empty());
        auto w = with_rule(d, "site.fair-sharing-off");
        REQUIRE(w.size() == 1);
        CHECK(w[0].severity == Severity::Warning);
        CHECK(w[0].mark.line == 14);
        CHECK_THAT(w[0].message, Catch::Contains(c.how));
    }
    // Turned on: no warning.
    Diagnostics d;
    CHECK_FALSE(
        qf_test::build_text(lab_site("kueue-0.16", "  kueueConfig: {frameworks: [batch/job]}\n", "      fairSharingWeight: 2\n"), d)
            .empty());
    CHECK(with_rule(d, "site.fair-sharing-off").empty());
}
