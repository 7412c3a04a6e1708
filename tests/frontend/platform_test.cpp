// Tests for the target version matrix (compiler/frontend/platform) and the DSC templates
// (templates/dsc). The expected values are restated from openshift-ai.md and
// kueue-semantics.md 1.1 on purpose, so a wrong edit in matrix.cpp shows up here;
// the CRD tests then check both against the upstream files in ../shared.
#include <catch2/catch.hpp>

#include <queueforge/frontend/platform.hpp>

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <filesystem>
#include <set>
#include <string>
#include <vector>

using namespace queueforge;

namespace {

using Strings = std::vector<std::string>;

const Strings kMR{"Managed", "Removed"};
const Strings kMUR{"Managed", "Unmanaged", "Removed"};
const Strings kUR{"Unmanaged", "Removed"};

const std::string kV1 = "datasciencecluster.opendatahub.io/v1";
const std::string kV2 = "datasciencecluster.opendatahub.io/v2";
const std::string kQ1 = "kueue.x-k8s.io/v1beta1";
const std::string kQ2 = "kueue.x-k8s.io/v1beta2";
const std::string kC1a = "kueue.x-k8s.io/v1alpha1";

const Strings kBothLabels{"kueue.openshift.io/managed=true", "kueue-managed=true"};

Target must_find(const std::string& spec) {
    auto r = find_target(spec);
    INFO(spec << ": " << r.error);
    REQUIRE(r.target.has_value());
    return *r.target;
}

Strings names(const Target& t) {
    Strings out;
    for (const auto& c : t.components) out.push_back(c.name);
    return out;
}

// Plain helpers instead of designated initializers: g++ 12 -Wextra warns about
// every member a designated initializer leaves out.
TargetOverrides overrides(std::string kueue_api, std::string dsc_api, std::string cohort_api) {
    TargetOverrides o;
    o.kueue_api_version = std::move(kueue_api);
    o.dsc_api_version = std::move(dsc_api);
    o.cohort_api_version = std::move(cohort_api);
    return o;
}
TargetOverrides kueue_api(std::string v) { return overrides(std::move(v), {}, {}); }
TargetOverrides dsc_api(std::string v) { return overrides({}, std::move(v), {}); }
TargetOverrides cohort_api(std::string v) { return overrides({}, {}, std::move(v)); }

bool contains(const std::string& hay, const std::string& needle) { return hay.find(needle) != std::string::npos; }

struct RowExpectation {
    std::string name;
    std::string dsc;
    std::string kueue_version;
    std::string kueue_api;
    std::string cohort_api;
    std::string parent_field;
    Strings kueue_states;
    std::size_t component_count;
    Strings labels;
    bool embedded;
    bool default_queue_fields;
    bool auto_create;
    bool operator_creates;
    bool single_cq;
    bool shared_cohorts;
};

// openshift-ai.md sections 1-4, one line per documented row.
const std::vector<RowExpectation> kRows{
    //  name        dsc  kueue     kueue api cohort api         parent       kueue states n   labels                    emb    dqf    auto   ops    1cq    shared
    {"rhoai-2.10", kV1, "0.6.2",  kQ1, "",   "",           kMR,  10, {},                        true,  false, false, false, true,  true},
    {"rhoai-2.16", kV1, "0.8.1",  kQ1, "",   "",           kMR,  11, {},                        true,  false, false, false, false, false},
    {"rhoai-2.19", kV1, "0.10.1", kQ1, kC1a, "parent",     kMR,  11, {"kueue-managed=true"},    true,  false, false, false, false, false},
    {"rhoai-2.22", kV1, "0.11.6", kQ1, kC1a, "parent",     kMR,  13, {"kueue-managed=true"},    true,  false, false, false, false, false},
    {"rhoai-2.23", kV1, "0.11.6", kQ1, kC1a, "parent",     kMUR, 13, kBothLabels,               true,  true,  false, true,  false, false},
    {"rhoai-2.24", kV1, "0.11.6", kQ1, kC1a, "parent",     kMUR, 13, kBothLabels,               true,  true,  false, true,  false, false},
    {"rhoai-2.25", kV1, "0.11.6", kQ1, kC1a, "parent",     kMUR, 13, kBothLabels,               true,  true,  false, true,  false, false},
    {"rhoai-3.0",  kV2, "0.12",   kQ1, kC1a, "parent",     kUR,  11, kBothLabels,               false, true,  false, true,  false, true},
    {"rhoai-3.2",  kV2, "0.12",   kQ1, kC1a, "parent",     kUR,  13, kBothLabels,               false, true,  false, true,  false, true},
    {"rhoai-3.3",  kV2, "0.14",   kQ1, "kueue.x-k8s.io/v1beta1", "parentName", kUR, 13, kBothLabels, false, true, false, true, false, true},
    {"rhoai-3.4",  kV2, "0.14",   kQ1, "kueue.x-k8s.io/v1beta1", "parentName", kUR, 14, kBothLabels, false, true, false, true, false, true},
    {"rhoai-3.5",  kV2, "0.18",   kQ2, "kueue.x-k8s.io/v1beta2", "parentName", kUR, 17, kBothLabels, false, true, true,  false, false, true},
};

std::string slurp_dir(const std::string& rel) { return std::string(QF_SHARED_DIR) + "/upstream/" + rel; }

// The DSC CRD version schema `version` of `file`, or a null node.
YAML::Node crd_version(const std::string& file, const std::string& version) {
    auto doc = YAML::LoadFile(file);
    for (const auto& v : doc["spec"]["versions"])
        if (v["name"].as<std::string>() == version) return v;
    return {};
}

YAML::Node crd_components(const YAML::Node& version) {
    return version["schema"]["openAPIV3Schema"]["properties"]["spec"]["properties"]["components"]["properties"];
}

Strings enum_of(const YAML::Node& component) {
    Strings out;
    for (const auto& e : component["properties"]["managementState"]["enum"]) out.push_back(e.as<std::string>());
    return out;
}

bool subset(const Strings& small, const Strings& big) {
    return std::all_of(small.begin(), small.end(),
                       [&](const std::string& s) { return std::find(big.begin(), big.end(), s) != big.end(); });
}

bool shared_dir_present() { return std::filesystem::is_directory(std::string(QF_SHARED_DIR) + "/upstream"); }

}  // namespace

TEST_CASE("target: Version parse and to_string") {
    struct Case {
        std::string text;
        bool ok;
        Version v;
        std::string printed;
    };
    const std::vector<Case> cases{
        {"2.10", true, {2, 10, 0}, "2.10"},     {"0.13.4", true, {0, 13, 4}, "0.13.4"},
        {"v0.13", true, {0, 13, 0}, "0.13"},    {"v0.13.4", true, {0, 13, 4}, "0.13.4"},
        {"3.0", true, {3, 0, 0}, "3.0"},        {"0.13.0", true, {0, 13, 0}, "0.13"},
        {"2", false, {}, ""},                   {"", false, {}, ""},
        {"v", false, {}, ""},                   {"2.", false, {}, ""},
        {".2", false, {}, ""},                  {"2..1", false, {}, ""},
        {"2.10.1.1", false, {}, ""},            {"2.x", false, {}, ""},
        {"-2.10", false, {}, ""},               {"2.010", false, {}, ""},
        {" 2.10", false, {}, ""},               {"2.10 ", false, {}, ""},
        {"V2.10", false, {}, ""},               {"99999999999.1", false, {}, ""},
    };
    for (const auto& c : cases) {
        INFO("'" << c.text << "'");
        auto v = Version::parse(c.text);
        REQUIRE(v.has_value() == c.ok);
        if (!c.ok) continue;
        CHECK(*v == c.v);
        CHECK(v->to_string() == c.printed);
    }
    CHECK(Version{2, 9, 0} < Version{2, 10, 0});
    CHECK(Version{0, 13, 4} > Version{0, 13, 0});
}

TEST_CASE("target: every documented OpenShift AI row") {
    for (const auto& e : kRows) {
        INFO(e.name);
        auto r = find_target(e.name);
        REQUIRE(r.target.has_value());
        CHECK(r.error.empty());
        CHECK(r.warning.empty());
        const auto& t = *r.target;
        CHECK(t.name == e.name);
        CHECK(t.matrix_row == e.name);
        CHECK(t.platform == Platform::OpenShiftAI);
        CHECK("rhoai-" + t.release.to_string() == e.name);
        CHECK(t.dsc_api_version == e.dsc);
        CHECK(t.kueue.to_string() == e.kueue_version);
        CHECK(t.kueue_api_version == e.kueue_api);
        CHECK(t.cohort_api_version == e.cohort_api);
        CHECK(t.cohort_parent_field == e.parent_field);
        CHECK(t.dsc_template == "dsc/" + e.name + ".yaml");
        CHECK(t.components.size() == e.component_count);
        CHECK(t.namespace_labels == e.labels);
        CHECK(t.embedded_kueue == e.embedded);
        CHECK(t.dsc_default_queue_fields == e.default_queue_fields);
        CHECK(t.dsc_auto_create_queues == e.auto_create);
        CHECK(t.operator_creates_queues == e.operator_creates);
        CHECK(t.single_cluster_queue == e.single_cq);
        CHECK(t.shared_cohorts_supported == e.shared_cohorts);

        const auto* kueue = t.component("kueue");
        REQUIRE(kueue != nullptr);
        CHECK(kueue->states == e.kueue_states);
        // Section 1: every other component is Managed|Removed.
        for (const auto& c : t.components)
            if (c.name != "kueue") CHECK(c.states == kMR);
        auto keys = names(t);
        CHECK(std::is_sorted(keys.begin(), keys.end()));
        CHECK(std::set<std::string>(keys.begin(), keys.end()).size() == keys.size());
        CHECK(t.component("no-such-component") == nullptr);
    }
}

TEST_CASE("target: component key sets follow section 1 and rule 3") {
    auto has = [](const std::string& target, const std::string& key) { return must_find(target).component(key) != nullptr; };
    CHECK_FALSE(has("rhoai-2.10", "modelregistry"));
    CHECK(has("rhoai-2.16", "modelregistry"));
    CHECK_FALSE(has("rhoai-2.19", "feastoperator"));
    CHECK(has("rhoai-2.22", "feastoperator"));
    CHECK(has("rhoai-2.22", "llamastackoperator"));
    CHECK(names(must_find("rhoai-2.25")) == names(must_find("rhoai-2.22")));
    // v2 renames and drops (section 1).
    for (const std::string t : {"rhoai-3.0", "rhoai-3.2", "rhoai-3.3", "rhoai-3.4", "rhoai-3.5"}) {
        INFO(t);
        CHECK_FALSE(has(t, "codeflare"));
        CHECK_FALSE(has(t, "modelmeshserving"));
        CHECK_FALSE(has(t, "datasciencepipelines"));
        CHECK(has(t, "aipipelines"));
    }
    CHECK_FALSE(has("rhoai-3.0", "trainer"));
    CHECK(has("rhoai-3.2", "trainer"));
    CHECK(has("rhoai-3.2", "mlflowoperator"));
    CHECK(names(must_find("rhoai-3.3")) == names(must_find("rhoai-3.2")));
    CHECK_FALSE(has("rhoai-3.3", "sparkoperator"));
    CHECK(has("rhoai-3.4", "sparkoperator"));
    for (const std::string k : {"ogx", "aigateway", "mcplifecycleoperator"}) {
        CHECK_FALSE(has("rhoai-3.4", k));
        CHECK(has("rhoai-3.5", k));
    }
}

TEST_CASE("target: releases between documented rows use the nearest lower row") {
    struct Case {
        std::string spec;
        std::string row;
    };
    const std::vector<Case> cases{
        {"rhoai-2.11", "rhoai-2.10"}, {"rhoai-2.12", "rhoai-2.10"}, {"rhoai-2.13", "rhoai-2.10"},
        {"rhoai-2.14", "rhoai-2.10"}, {"rhoai-2.15", "rhoai-2.10"}, {"rhoai-2.17", "rhoai-2.16"},
        {"rhoai-2.18", "rhoai-2.16"}, {"rhoai-2.20", "rhoai-2.19"}, {"rhoai-2.21", "rhoai-2.19"},
    };
    for (const auto& c : cases) {
        INFO(c.spec);
        auto r = find_target(c.spec);
        REQUIRE(r.target.has_value());
        CHECK(r.target->name == c.spec);
        CHECK(r.target->matrix_row == c.row);
        CHECK(r.target->dsc_template == "dsc/" + c.row + ".yaml");
        CHECK(r.warning == "facts for " + c.spec + " taken from " + c.row + " (no documented row)");
        auto row = must_find(c.row);
        CHECK(names(*r.target) == names(row));
        CHECK(r.target->kueue == row.kueue);
    }
    CHECK(find_target("rhoai-2.13").target->release == Version{2, 13, 0});

    auto ea = find_target("rhoai-3.6");
    REQUIRE(ea.target.has_value());
    CHECK(ea.target->name == "rhoai-3.6");
    CHECK(ea.target->matrix_row == "rhoai-3.5");
    CHECK(ea.target->kueue_api_version == kQ2);
    CHECK(ea.target->dsc_template == "dsc/rhoai-3.5.yaml");
    CHECK(contains(ea.warning, "facts for rhoai-3.6 taken from rhoai-3.5"));
    CHECK(contains(ea.warning, "early access"));
}

TEST_CASE("target: spellings of a target") {
    auto a = must_find("openshift-ai-2.16");
    CHECK(a.name == "rhoai-2.16");
    CHECK(a.matrix_row == "rhoai-2.16");
    CHECK(must_find("rhoai-v2.16").name == "rhoai-2.16");

    // A z-stream keeps its patch in `release` but shares the minor's row.
    auto z = find_target("rhoai-2.16.3");
    REQUIRE(z.target.has_value());
    CHECK(z.warning.empty());
    CHECK(z.target->name == "rhoai-2.16");
    CHECK(z.target->release == Version{2, 16, 3});

    CHECK(must_find("rhoai-3.5").dsc_api_version == kV2);

    auto k = must_find("kueue-0.13");
    CHECK(k.name == "kueue-0.13");
    CHECK(k.kueue == Version{0, 13, 0});
    auto kp = must_find("kueue-v0.13.4");
    CHECK(kp.name == "kueue-0.13");
    CHECK(kp.matrix_row == "kueue-0.13");
    CHECK(kp.kueue == Version{0, 13, 4});
    CHECK(must_find("kueue-0.13.4").kueue == Version{0, 13, 4});

    auto kube = must_find("kubernetes");
    CHECK(kube.name == "kueue-0.20");
    CHECK(kube.platform == Platform::Kubernetes);
    CHECK(kube.kueue_api_version == kQ2);

    // The map form of the site file goes through these two directly.
    CHECK(find_openshift_ai({2, 19, 0}).target->matrix_row == "rhoai-2.19");
    CHECK(find_kubernetes({0, 9, 1}).target->name == "kueue-0.9");
}

TEST_CASE("target: unsupported targets are errors that list the supported ones") {
    const std::vector<std::string> bad{
        "rhoai-3.1", "rhoai-2.9",   "rhoai-2.6",  "rhoai-3.7",  "rhoai-4.0",   "rhoai-2.26", "rhoai-1.0",
        "rhoai-0.1", "kueue-0.5",   "kueue-0.21", "kueue-1.0",  "rhoai-",      "rhoai-2",    "rhoai-2.x",
        "kueue-",    "foo",         "",           "RHOAI-2.16", "kubernetes-", "openshift-ai", "rhoai-2.16 "};
    for (const auto& spec : bad) {
        INFO("'" << spec << "'");
        auto r = find_target(spec);
        CHECK_FALSE(r.target.has_value());
        CHECK_FALSE(r.error.empty());
        CHECK(contains(r.error, "supported targets: rhoai-2.10"));
        CHECK(contains(r.error, "kueue-0.20"));
    }
    CHECK(contains(find_target("rhoai-3.1").error, "never released"));
    CHECK(contains(find_target("rhoai-2.9").error, "OpenShift AI 2.9 is not supported"));
    CHECK(contains(find_target("kueue-0.5").error, "Kueue 0.5 is not supported"));
    CHECK(contains(find_target("foo").error, "unknown target 'foo'"));
}

TEST_CASE("target: supported_targets lists every row once") {
    auto all = supported_targets();
    const Strings rhoai{"rhoai-2.10", "rhoai-2.16", "rhoai-2.19", "rhoai-2.22", "rhoai-2.23", "rhoai-2.24",
                        "rhoai-2.25", "rhoai-3.0",  "rhoai-3.2",  "rhoai-3.3",  "rhoai-3.4",  "rhoai-3.5"};
    REQUIRE(all.size() == rhoai.size() + 15);  // kueue-0.6 ... kueue-0.20
    CHECK(Strings(all.begin(), all.begin() + 12) == rhoai);
    CHECK(all[12] == "kueue-0.6");
    CHECK(all.back() == "kueue-0.20");
    CHECK(std::set<std::string>(all.begin(), all.end()).size() == all.size());
    for (const auto& name : all) {
        INFO(name);
        auto r = find_target(name);
        REQUIRE(r.target.has_value());
        CHECK(r.target->name == name);
        CHECK(r.warning.empty());
    }
}

TEST_CASE("target: plain Kubernetes rows follow kueue-semantics 1.1") {
    for (int minor = 6; minor <= 20; ++minor) {
        const std::string name = "kueue-0." + std::to_string(minor);
        INFO(name);
        auto t = must_find(name);
        CHECK(t.platform == Platform::Kubernetes);
        CHECK(t.matrix_row == name);
        CHECK(t.release == Version{});
        CHECK(t.kueue == Version{0, minor, 0});
        CHECK(t.dsc_api_version.empty());
        CHECK(t.dsc_template.empty());
        CHECK(t.components.empty());
        CHECK(t.namespace_labels.empty());
        CHECK_FALSE(t.embedded_kueue);
        CHECK_FALSE(t.dsc_default_queue_fields);
        CHECK_FALSE(t.dsc_auto_create_queues);
        CHECK_FALSE(t.operator_creates_queues);
        CHECK_FALSE(t.single_cluster_queue);
        CHECK(t.shared_cohorts_supported);
        CHECK(t.kueue_api_version == (minor < 15 ? kQ1 : kQ2));
        if (minor < 9) {
            CHECK(t.cohort_api_version.empty());
            CHECK(t.cohort_parent_field.empty());
        } else if (minor <= 12) {
            CHECK(t.cohort_api_version == kC1a);
            CHECK(t.cohort_parent_field == "parent");
        } else if (minor <= 14) {
            CHECK(t.cohort_api_version == "kueue.x-k8s.io/v1beta1");
            CHECK(t.cohort_parent_field == "parentName");
        } else {
            CHECK(t.cohort_api_version == "kueue.x-k8s.io/v1beta2");
            CHECK(t.cohort_parent_field == "parentName");
        }
    }
}

TEST_CASE("target: valid overrides") {
    SECTION("no overrides change nothing") {
        auto t = must_find("rhoai-2.25");
        auto r = apply_overrides(t, {});
        REQUIRE(r.target.has_value());
        CHECK(r.warning.empty());
        CHECK(r.target->kueue_api_version == t.kueue_api_version);
        CHECK(names(*r.target) == names(t));
    }
    SECTION("v1beta1 on a v1beta2 target is allowed but deprecated") {
        auto r = apply_overrides(must_find("rhoai-3.5"), kueue_api("v1beta1"));
        REQUIRE(r.target.has_value());
        CHECK(r.target->kueue_api_version == kQ1);
        CHECK(contains(r.warning, "deprecated"));
    }
    SECTION("v1beta1 on Kueue 0.15 is not yet deprecated") {
        auto r = apply_overrides(must_find("kueue-0.15"), kueue_api("kueue.x-k8s.io/v1beta1"));
        REQUIRE(r.target.has_value());
        CHECK(r.target->kueue_api_version == kQ1);
        CHECK(r.warning.empty());
    }
    SECTION("v1beta1 is served by every known Kueue up to 0.19, by none from 0.20 (kueue#14558)") {
        for (const auto& name : supported_targets()) {
            INFO(name);
            const Target t = must_find(name);
            const bool served = t.kueue < Version{0, 20, 0};
            CHECK(apply_overrides(t, kueue_api("v1beta1")).target.has_value() == served);
        }
        auto r = apply_overrides(must_find("kueue-0.20"), kueue_api("v1beta1"));
        CHECK(contains(r.error, "served by Kueue 0.3 to 0.19"));
    }
    SECTION("v1beta2 from Kueue 0.15") {
        auto r = apply_overrides(must_find("kueue-0.15"), kueue_api("v1beta2"));
        REQUIRE(r.target.has_value());
        CHECK(r.target->kueue_api_version == kQ2);
    }
    SECTION("DSC v1 on 3.x switches to the 2.25 key set, still without kueue Managed") {
        for (const std::string name : {"rhoai-3.0", "rhoai-3.4", "rhoai-3.5"}) {
            INFO(name);
            auto r = apply_overrides(must_find(name), dsc_api("v1"));
            REQUIRE(r.target.has_value());
            CHECK(r.error.empty());
            const auto& t = *r.target;
            CHECK(t.dsc_api_version == kV1);
            CHECK(names(t) == names(must_find("rhoai-2.25")));
            CHECK(t.component("kueue")->states == kUR);
            CHECK(t.component("codeflare")->states == kMR);
            CHECK(t.dsc_template == "dsc/rhoai-3-v1.yaml");
            CHECK(t.matrix_row == name);
        }
    }
    SECTION("DSC overrides equal to the default are no-ops") {
        auto v1 = apply_overrides(must_find("rhoai-2.16"), dsc_api("v1"));
        REQUIRE(v1.target.has_value());
        CHECK(v1.target->dsc_template == "dsc/rhoai-2.16.yaml");
        CHECK(v1.target->component("kueue")->states == kMR);
        auto v2 = apply_overrides(must_find("rhoai-3.2"), dsc_api("datasciencecluster.opendatahub.io/v2"));
        REQUIRE(v2.target.has_value());
        CHECK(v2.target->dsc_template == "dsc/rhoai-3.2.yaml");
    }
    SECTION("cohort none drops the Cohort kind") {
        auto r = apply_overrides(must_find("rhoai-3.5"), cohort_api("none"));
        REQUIRE(r.target.has_value());
        CHECK(r.target->cohort_api_version.empty());
        CHECK(r.target->cohort_parent_field.empty());
        // Also fine where no Cohort kind exists.
        CHECK(apply_overrides(must_find("rhoai-2.10"), cohort_api("none")).target.has_value());
    }
    SECTION("cohort v1beta1 on Kueue 0.18 sets parentName and warns") {
        auto r = apply_overrides(must_find("rhoai-3.5"), cohort_api("v1beta1"));
        REQUIRE(r.target.has_value());
        CHECK(r.target->cohort_api_version == "kueue.x-k8s.io/v1beta1");
        CHECK(r.target->cohort_parent_field == "parentName");
        CHECK(contains(r.warning, "deprecated"));
    }
    SECTION("cohort v1alpha1 on Kueue 0.12 sets parent") {
        auto r = apply_overrides(must_find("kueue-0.12"), cohort_api("v1alpha1"));
        REQUIRE(r.target.has_value());
        CHECK(r.target->cohort_parent_field == "parent");
    }
    SECTION("all three at once") {
        auto r = apply_overrides(must_find("rhoai-3.5"), overrides("v1beta2", "v2", "v1beta2"));
        REQUIRE(r.target.has_value());
        CHECK(r.warning.empty());
    }
}

TEST_CASE("target: invalid overrides") {
    struct Case {
        std::string target;
        TargetOverrides o;
        std::string error_part;
    };
    const std::vector<Case> cases{
        {"rhoai-3.4", kueue_api("v1beta2"), "not served by Kueue 0.14"},
        {"kueue-0.14", kueue_api("v1beta2"), "needs Kueue 0.15 or newer"},
        {"rhoai-2.10", kueue_api("v1beta2"), "kueue_api_version v1beta2"},
        {"rhoai-2.10", kueue_api("v1alpha1"), "unknown kueue_api_version 'v1alpha1'"},
        {"rhoai-2.10", kueue_api("v2"), "unknown kueue_api_version"},
        {"rhoai-2.25", dsc_api("v2"), "needs OpenShift AI 3.0 or newer"},
        {"rhoai-2.10", dsc_api("v3"), "unknown dsc_api_version 'v3'"},
        {"kueue-0.13", dsc_api("v1"), "has no DataScienceCluster"},
        {"kubernetes", dsc_api("v2"), "has no DataScienceCluster"},
        {"rhoai-2.16", cohort_api("v1alpha1"), "not served by Kueue 0.8.1"},
        {"rhoai-2.10", cohort_api("v1beta1"), "cohort_api_version v1beta1"},
        {"rhoai-2.25", cohort_api("v1beta1"), "served by Kueue 0.13 to 0.19"},
        {"kueue-0.20", cohort_api("v1beta1"), "served by Kueue 0.13 to 0.19"},
        {"rhoai-3.2", cohort_api("v1beta1"), "not served by Kueue 0.12"},
        {"rhoai-3.3", cohort_api("v1alpha1"), "served by Kueue 0.9 to 0.12"},
        {"kueue-0.13", cohort_api("v1alpha1"), "not served"},
        {"rhoai-3.4", cohort_api("v1beta2"), "not served by Kueue 0.14"},
        {"rhoai-3.5", cohort_api("v1alpha1"), "not served by Kueue 0.18"},
        {"rhoai-3.5", cohort_api("v1"), "unknown cohort_api_version 'v1'"},
        {"rhoai-3.5", cohort_api("None"), "unknown cohort_api_version"},
    };
    for (const auto& c : cases) {
        INFO(c.target << " " << c.error_part);
        auto r = apply_overrides(must_find(c.target), c.o);
        CHECK_FALSE(r.target.has_value());
        CHECK(contains(r.error, c.error_part));
    }
    SECTION("every problem is reported, not only the first") {
        auto r = apply_overrides(must_find("rhoai-2.16"), overrides("v1beta2", "v2", "v1beta1"));
        CHECK_FALSE(r.target.has_value());
        CHECK(contains(r.error, "kueue_api_version"));
        CHECK(contains(r.error, "dsc_api_version"));
        CHECK(contains(r.error, "cohort_api_version"));
    }
}

TEST_CASE("target: DSC templates match their rows") {
    // The v1-on-3.x skeleton is reached through the dsc_api_version override.
    std::vector<Target> targets;
    for (const auto& name : supported_targets())
        if (auto t = must_find(name); t.platform == Platform::OpenShiftAI) targets.push_back(t);
    targets.push_back(*apply_overrides(must_find("rhoai-3.0"), dsc_api("v1")).target);

    // Section 3 of the brief: the distributed-workloads defaults.
    const std::set<std::string> managed{"dashboard", "workbenches", "datasciencepipelines", "aipipelines",
                                        "codeflare", "ray", "trainingoperator"};
    for (const auto& t : targets) {
        const std::string path = std::string(QF_SOURCE_DIR) + "/templates/" + t.dsc_template;
        INFO(path);
        REQUIRE(std::filesystem::exists(path));
        auto doc = YAML::LoadFile(path);
        CHECK(doc["apiVersion"].as<std::string>() == t.dsc_api_version);
        CHECK(doc["kind"].as<std::string>() == "DataScienceCluster");
        CHECK(doc["metadata"]["name"].as<std::string>() == "default-dsc");
        const auto comps = doc["spec"]["components"];
        REQUIRE(comps.IsMap());
        Strings keys;
        for (const auto& kv : comps) {
            const auto key = kv.first.as<std::string>();
            INFO(key);
            keys.push_back(key);
            REQUIRE(kv.second.IsMap());
            CHECK(kv.second.size() == 1);
            const auto state = kv.second["managementState"].as<std::string>();
            const auto* c = t.component(key);
            REQUIRE(c != nullptr);
            CHECK(std::find(c->states.begin(), c->states.end(), state) != c->states.end());
            const bool v2_storage = t.release >= Version{3, 0, 0};
            std::string expected = managed.count(key) ? "Managed" : "Removed";
            if (key == "kueue") expected = v2_storage ? "Unmanaged" : "Managed";
            // codeflare does not exist once the cluster stores v2 (section 1).
            if (key == "codeflare" && v2_storage) expected = "Removed";
            CHECK(state == expected);
        }
        CHECK(keys == names(t));  // same set, alphabetical order
    }
}

TEST_CASE("target: rows and DSC templates agree with the release CRDs") {
    if (!shared_dir_present()) {
        WARN("skipped: " << QF_SHARED_DIR << "/upstream is absent, so the CRDs cannot be checked");
        return;
    }
    struct Case {
        std::string target;      // a row, or "rhoai-3.x+v1" for the dsc v1 override
        std::string crd_dir;     // under upstream/opendatahub
        std::string version;     // CRD version name
        bool exact;              // the CRD is that release's own; otherwise a newer superset
    };
    // 2.23/2.24 are "as 2.25" (openshift-ai.md section 2). 3.2-3.4 have no
    // committed CRD; the 3.5 bundle is a superset of their key sets.
    const std::vector<Case> cases{
        {"rhoai-2.10", "rhods-operator_rhoai-2.10", "v1", true},
        {"rhoai-2.16", "rhods-operator_rhoai-2.16", "v1", true},
        {"rhoai-2.19", "rhods-operator_rhoai-2.19", "v1", true},
        {"rhoai-2.22", "rhods-operator_rhoai-2.22", "v1", true},
        {"rhoai-2.23", "rhods-operator_rhoai-2.25", "v1", true},
        {"rhoai-2.24", "rhods-operator_rhoai-2.25", "v1", true},
        {"rhoai-2.25", "rhods-operator_rhoai-2.25", "v1", true},
        {"rhoai-3.0", "rhods-operator_rhoai-3.0", "v2", true},
        {"rhoai-3.2", "odh-bundle_3.5.0", "v2", false},
        {"rhoai-3.3", "odh-bundle_3.5.0", "v2", false},
        {"rhoai-3.4", "odh-bundle_3.5.0", "v2", false},
        {"rhoai-3.5", "odh-bundle_3.5.0", "v2", true},
        {"rhoai-3.0+v1", "rhods-operator_rhoai-3.0", "v1", true},
        {"rhoai-3.5+v1", "odh-bundle_3.5.0", "v1", true},
    };
    for (const auto& c : cases) {
        INFO(c.target << " vs " << c.crd_dir << " " << c.version);
        Target t;
        if (auto plus = c.target.find('+'); plus != std::string::npos)
            t = *apply_overrides(must_find(c.target.substr(0, plus)), dsc_api(c.target.substr(plus + 1))).target;
        else
            t = must_find(c.target);

        const auto crd_file = slurp_dir("opendatahub/" + c.crd_dir + "/datasciencecluster.opendatahub.io_datascienceclusters.yaml");
        REQUIRE(std::filesystem::exists(crd_file));
        auto version = crd_version(crd_file, c.version);
        REQUIRE(version.IsMap());
        CHECK(version["served"].as<bool>());
        CHECK(t.dsc_api_version == "datasciencecluster.opendatahub.io/" + c.version);
        const auto crd = crd_components(version);
        REQUIRE(crd.IsMap());

        Strings crd_keys;
        for (const auto& kv : crd) crd_keys.push_back(kv.first.as<std::string>());
        std::sort(crd_keys.begin(), crd_keys.end());
        if (c.exact)
            CHECK(names(t) == crd_keys);
        else
            CHECK(subset(names(t), crd_keys));

        for (const auto& comp : t.components) {
            INFO(comp.name);
            REQUIRE(crd[comp.name].IsMap());
            const auto allowed = enum_of(crd[comp.name]);
            // Rule 2: the row may be stricter than the CRD (3.x rejects kueue Managed), never looser.
            CHECK(subset(comp.states, allowed));
            if (comp.name != "kueue") CHECK(allowed == kMR);
        }

        // The template's states must also pass the CRD enum.
        auto doc = YAML::LoadFile(std::string(QF_SOURCE_DIR) + "/templates/" + t.dsc_template);
        for (const auto& kv : doc["spec"]["components"]) {
            const auto key = kv.first.as<std::string>();
            INFO(key);
            REQUIRE(crd[key].IsMap());
            const auto allowed = enum_of(crd[key]);
            CHECK(subset({kv.second["managementState"].as<std::string>()}, allowed));
        }
    }
}

TEST_CASE("target: Kueue API serving agrees with the upstream Kueue CRDs") {
    if (!shared_dir_present()) {
        WARN("skipped: " << QF_SHARED_DIR << "/upstream is absent, so the Kueue CRDs cannot be checked");
        return;
    }
    namespace fs = std::filesystem;
    int checked = 0;
    for (const auto& dir : fs::directory_iterator(slurp_dir("kueue"))) {
        const auto release = Version::parse(dir.path().filename().string());
        if (!dir.is_directory() || !release) continue;
        auto target = find_kubernetes(*release);
        INFO(dir.path().string());
        REQUIRE(target.target.has_value());

        auto served_versions = [&](const std::string& file) {
            Strings out;
            if (!fs::exists(dir.path() / file)) return out;
            for (const auto& v : YAML::LoadFile((dir.path() / file).string())["spec"]["versions"])
                if (v["served"].as<bool>()) out.push_back(v["name"].as<std::string>());
            return out;
        };
        const auto queues = served_versions("kueue.x-k8s.io_clusterqueues.yaml");
        const auto cohorts = served_versions("kueue.x-k8s.io_cohorts.yaml");
        REQUIRE_FALSE(queues.empty());
        for (const std::string v : {"v1beta1", "v1beta2"}) {
            INFO("ClusterQueue " << v);
            const bool in_crd = std::find(queues.begin(), queues.end(), v) != queues.end();
            CHECK(apply_overrides(*target.target, kueue_api(v)).target.has_value() == in_crd);
        }
        for (const std::string v : {"v1alpha1", "v1beta1", "v1beta2"}) {
            INFO("Cohort " << v);
            const bool in_crd = std::find(cohorts.begin(), cohorts.end(), v) != cohorts.end();
            CHECK(apply_overrides(*target.target, cohort_api(v)).target.has_value() == in_crd);
        }
        // The default is the newest served version.
        CHECK(target.target->kueue_api_version == "kueue.x-k8s.io/" + queues.back());
        CHECK(target.target->cohort_api_version == (cohorts.empty() ? "" : "kueue.x-k8s.io/" + cohorts.back()));
        ++checked;
    }
    CHECK(checked >= 4);
}
