// The seed-minimal example against OpenShift AI 2.10's documented manifests,
// and the CRD defaults queueforge writes against the real CRDs.
#include "crd_defaults.hpp"
#include "test_util.hpp"

#include <queueforge/base/node_json.hpp>
#include <queueforge/base/yaml_load.hpp>

#include <catch2/catch.hpp>

using namespace queueforge;
using qf_test::source_dir;

namespace {

nlohmann::json comparable(const Node& doc) {
    nlohmann::json j = qf_test::textual(nlohmann::json::parse(to_json(doc).dump()));
    auto& meta = j["metadata"];
    // queueforge's own labels and annotations are not part of the comparison.
    for (const char* key : {"labels", "annotations"}) {
        if (!meta.contains(key)) continue;
        auto kept = nlohmann::json::object();
        for (const auto& [k, v] : meta[key].items())
            if (!k.starts_with("app.kubernetes.io/") && !k.starts_with("argocd.argoproj.io/") &&
                !k.starts_with("queueforge.io/"))
                kept[k] = v;
        if (kept.empty()) meta.erase(key);
        else meta[key] = kept;
    }
    return j;
}

std::string crd_file(const std::string& kind) {
    if (kind == "DataScienceCluster")
        return std::string(QF_SHARED_DIR) +
               "/upstream/opendatahub/rhods-operator_rhoai-2.10/datasciencecluster.opendatahub.io_datascienceclusters.yaml";
    std::string plural = kind == "ClusterQueue" ? "clusterqueues" : kind == "LocalQueue" ? "localqueues" : "resourceflavors";
    return std::string(QF_SHARED_DIR) + "/upstream/kueue/v0.6.2/kueue.x-k8s.io_" + plural + ".yaml";
}

}  // namespace

TEST_CASE("seed-minimal: equals OpenShift AI 2.10's documented manifests, object for object") {
    if (!qf_test::shared_dir()) {
        WARN("skipped: ../shared (the reference CRDs) is not beside this checkout");
        return;
    }
    Diagnostics diags;
    auto site = qf_test::read_text(source_dir() / "examples/seed-minimal/queueforge-site.yaml");
    auto lowered = compile_site("queueforge-site.yaml", site, diags);
    INFO(qf_test::messages(diags));
    REQUIRE(lowered);

    auto docs_text = qf_test::read_text(source_dir() / "tests/fixtures/rhoai-2.10-distributed-workloads.yaml");
    auto docs = load_yaml("fixture", docs_text, diags);
    REQUIRE(docs.size() == 4);
    REQUIRE(lowered->objects.size() == docs.size());

    for (const auto& d : docs) {
        nlohmann::json want = comparable(d.root);
        const std::string kind = want["kind"];
        const Object* got = nullptr;
        for (const auto& o : lowered->objects)
            if (o.kind == kind && o.name == want["metadata"]["name"] &&
                o.namespace_ == want["metadata"].value("namespace", ""))
                got = &o;
        INFO(kind << " " << want["metadata"].dump());
        REQUIRE(got);
        nlohmann::json have = comparable(got->doc);
        std::string version = std::string(want["apiVersion"]).substr(std::string(want["apiVersion"]).find('/') + 1);
        auto schema = qf_test::crd_schema(crd_file(kind), version);
        REQUIRE(!schema.is_null());
        // Kueue 0.6's mutating webhook fills in flavorFungibility and
        // preemption when absent; its CRD defaults their fields.
        if (kind == "ClusterQueue")
            for (const char* f : {"flavorFungibility", "preemption"})
                if (!want["spec"].contains(f)) want["spec"][f] = nlohmann::json::object();
        qf_test::apply_defaults(schema, want);
        qf_test::apply_defaults(schema, have);
        // An absent ResourceFlavor spec and an empty one are the same object.
        if (kind == "ResourceFlavor" && !want.contains("spec")) want["spec"] = nlohmann::json::object();
        CHECK(have == want);
        if (have != want) FAIL_CHECK("want " << want.dump() << "\nhave " << have.dump());
    }
}

TEST_CASE("lowering: ClusterQueue defaults written out equal the CRD defaults of each Kueue release") {
    auto shared = qf_test::shared_dir();
    if (!shared) {
        WARN("skipped: ../shared (the reference CRDs) is not beside this checkout");
        return;
    }
    struct Case {
        std::string target, crd_version, api;
    };
    for (const auto& c : std::vector<Case>{{"kueue-0.6", "v0.6.2", "v1beta1"},
                                           {"kueue-0.10", "v0.10.6", "v1beta1"},
                                           {"kueue-0.13", "v0.13.10", "v1beta1"},
                                           {"kueue-0.19", "v0.19.2", "v1beta2"}}) {
        INFO(c.target);
        Diagnostics diags;
        auto site = qf_test::read_text(source_dir() / "examples/seed-minimal/queueforge-site.yaml");
        auto lowered = compile_site("queueforge-site.yaml", site, diags, {.target_override = c.target});
        INFO(qf_test::messages(diags));
        REQUIRE(lowered);
        auto schema = qf_test::crd_schema((*shared / ("upstream/kueue/" + c.crd_version + "/kueue.x-k8s.io_clusterqueues.yaml")).string(), c.api);
        REQUIRE(!schema.is_null());
        for (const auto& o : lowered->objects) {
            if (o.kind != "ClusterQueue") continue;
            CHECK(o.api_version == "kueue.x-k8s.io/" + c.api);
            nlohmann::json have = qf_test::textual(nlohmann::json::parse(to_json(o.doc).dump()));
            nlohmann::json defaulted = have;
            qf_test::apply_defaults(schema, defaulted);
            // Everything the API server would default is already there, with the same value.
            CHECK(defaulted == have);
            // And the explicit values equal the defaults of a bare object.
            nlohmann::json bare = {{"spec", {{"flavorFungibility", nlohmann::json::object()}, {"preemption", nlohmann::json::object()}}}};
            qf_test::apply_defaults(schema, bare);
            for (const char* field : {"flavorFungibility", "preemption"})
                for (const auto& [k, v] : bare["spec"][field].items()) {
                    INFO(field << "." << k);
                    CHECK(have["spec"][field][k] == v);
                }
            CHECK(have["spec"]["queueingStrategy"] == bare["spec"].value("queueingStrategy", "BestEffortFIFO"));
            CHECK(have["spec"]["stopPolicy"] == bare["spec"].value("stopPolicy", "None"));
        }
    }
}
