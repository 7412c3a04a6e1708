// The validator against external material: Debian's json-schema-test-suite
// (draft 4, the JSON Schema dialect OpenAPI 3.0 schema objects derive from)
// and the real Kueue CRDs with the upstream samples.
#include <catch2/catch.hpp>

#include "test_util.hpp"

#include <queueforge/base/node_json.hpp>
#include <queueforge/checks/openapi.hpp>
#include <queueforge/base/yaml_load.hpp>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

namespace fs = std::filesystem;
namespace oa = queueforge::openapi;
using queueforge::Diagnostics;
using queueforge::Node;

namespace {

const fs::path kSuiteDir = "/usr/share/json-schema-test-suite/tests/draft4";

struct Exclusion {
    std::string_view file;
    std::string_view group;  // "*": the whole file
    std::string_view reason;
};

// What structural schemas forbid; each is a compile error (or ignored
// keyword) in queueforge, as the API server rejects such CRDs.
constexpr Exclusion kExclusions[] = {
    {"ref.json", "*", "$ref: CRD schemas must be self-contained"},
    {"refRemote.json", "*", "$ref to remote documents"},
    {"definitions.json", "*", "validates against the draft-4 metaschema through $ref"},
    {"items.json", "an array of schemas for items", "tuple items: structural schemas take one items schema"},
    {"additionalItems.json", "additionalItems as schema", "tuple items"},
    {"additionalItems.json", "array of items with no additionalItems", "tuple items"},
    {"additionalItems.json", "additionalItems are allowed by default", "tuple items"},
};

const Exclusion* excluded(const std::string& file, const std::string& group) {
    for (const auto& e : kExclusions)
        if (e.file == file && (e.group == "*" || e.group == group)) return &e;
    return nullptr;
}

struct FileResult {
    std::string file;
    int passed = 0;
    int failed = 0;
    int skipped = 0;
};

}  // namespace

TEST_CASE("openapi: json-schema-test-suite draft4") {
    if (!fs::is_directory(kSuiteDir)) {
        WARN("json-schema-test-suite not installed (" << kSuiteDir.string()
                                                      << " missing); apt-get install json-schema-test-suite");
        return;
    }
    std::vector<fs::path> files;
    for (const auto& e : fs::directory_iterator(kSuiteDir))
        if (e.is_regular_file() && e.path().extension() == ".json") files.push_back(e.path());
    std::sort(files.begin(), files.end());
    REQUIRE(!files.empty());

    // The suite allows unknown properties unless additionalProperties says
    // otherwise, and treats null as a value of its own.
    const oa::ValidateOptions opts{.reject_unknown_fields = false, .prune_nulls = false};
    std::vector<FileResult> results;
    std::vector<std::string> failures;
    for (const auto& path : files) {
        FileResult r{path.filename().string()};
        auto groups = nlohmann::ordered_json::parse(std::ifstream(path));
        for (const auto& g : groups) {
            const std::string desc = g["description"].get<std::string>();
            const auto& tests = g["tests"];
            if (excluded(r.file, desc)) {
                r.skipped += static_cast<int>(tests.size());
                continue;
            }
            Diagnostics cd;
            auto schema = oa::compile(queueforge::from_json(g["schema"]), r.file, cd);
            for (const auto& t : tests) {
                const bool expect = t["valid"].get<bool>();
                const Node data = queueforge::from_json(t["data"]);
                bool ok = false, got = false;
                if (schema) {
                    got = oa::conforms(*schema, data, opts);
                    // The reporting walk must agree with the yes/no walk.
                    Diagnostics vd;
                    oa::validate_value(*schema, data, "data.json", "", {}, vd, opts);
                    ok = got == expect && vd.has_errors() == !got;
                }
                if (ok) {
                    ++r.passed;
                } else {
                    ++r.failed;
                    failures.push_back(r.file + " / " + desc + " / " + t["description"].get<std::string>() +
                                       (schema ? (got ? ": accepted" : ": rejected") : ": schema did not compile"));
                }
            }
        }
        results.push_back(r);
    }
    std::ostringstream table;
    table << "json-schema-test-suite draft4 (pass/fail/excluded):\n";
    int passed = 0, failed = 0, skipped = 0;
    for (const auto& r : results) {
        table << "  " << r.file << ": " << r.passed << "/" << r.failed << "/" << r.skipped << "\n";
        passed += r.passed;
        failed += r.failed;
        skipped += r.skipped;
    }
    table << "  total: " << passed << "/" << failed << "/" << skipped;
    WARN(table.str());
    for (const auto& f : failures) UNSCOPED_INFO(f);
    CHECK(failed == 0);
    CHECK(passed > 250);
}

// ---- real Kueue CRDs ----

namespace {

std::optional<fs::path> kueue_dir() {
    fs::path p = fs::path(QF_SHARED_DIR) / "upstream/kueue/v0.19.2";
    if (fs::is_directory(p)) return p;
    return std::nullopt;
}

std::vector<queueforge::Document> load_docs(const std::string& name, const std::string& text) {
    Diagnostics d;
    auto docs = queueforge::load_yaml(name, text, d);
    INFO(qf_test::messages(d));
    REQUIRE(!d.has_errors());
    return docs;
}

const queueforge::CompactString* text_of(const Node& n, const char* key) {
    const Node* v = n.find(key);
    return v && v->is_string() ? &v->text() : nullptr;
}

// Validates `doc` with its schema from `set`; nullptr when its kind is unknown.
bool validate_doc(const oa::SchemaSet& set, const Node& doc, const std::string& file, Diagnostics& d) {
    const auto* av = text_of(doc, "apiVersion");
    const auto* kind = text_of(doc, "kind");
    if (!av || !kind) return false;
    const oa::Schema* s = set.find(*av, *kind);
    if (!s) return false;
    oa::validate(*s, doc, file, {*av, *kind, {}, {}}, d);
    return true;
}

const char* kClusterQueue = R"(apiVersion: kueue.x-k8s.io/v1beta2
kind: ClusterQueue
metadata:
  name: cluster-queue
spec:
  namespaceSelector: {}
  queueingStrategy: BestEffortFIFO
  resourceGroups:
  - coveredResources: ["cpu", "memory"]
    flavors:
    - name: default-flavor
      resources:
      - name: cpu
        nominalQuota: 9
      - name: memory
        nominalQuota: 36Gi
)";

}  // namespace

TEST_CASE("openapi: real Kueue v0.19.2 CRDs accept the upstream admin samples") {
    auto dir = kueue_dir();
    if (!dir) {
        WARN("shared Kueue CRDs not found under " QF_SHARED_DIR "/upstream/kueue/v0.19.2; skipping");
        return;
    }
    oa::SchemaSet set;
    Diagnostics d;
    oa::load_crds({dir->string()}, set, d);
    INFO(qf_test::messages(d));
    REQUIRE(!d.has_errors());
    // Eight CRDs, each serving v1beta1 and v1beta2.
    CHECK(set.size() == 16);
    REQUIRE(set.find("kueue.x-k8s.io/v1beta2", "ClusterQueue"));
    REQUIRE(set.find("kueue.x-k8s.io/v1beta1", "Workload"));

    fs::path samples = fs::path(QF_SHARED_DIR) / "upstream/kueue-examples/admin";
    REQUIRE(fs::is_directory(samples));
    int validated = 0;
    for (const auto& e : fs::directory_iterator(samples)) {
        if (e.path().extension() != ".yaml") continue;
        const std::string text = qf_test::read_text(e.path());
        for (const auto& doc : load_docs(e.path().string(), text)) {
            Diagnostics vd;
            if (!validate_doc(set, doc.root, e.path().string(), vd)) continue;
            ++validated;
            INFO(e.path().filename().string() << "\n" << qf_test::messages(vd));
            CHECK(vd.empty());
        }
    }
    CHECK(validated >= 15);
}

TEST_CASE("openapi: real Kueue ClusterQueue mutations", "[slow]") {
    auto dir = kueue_dir();
    if (!dir) {
        WARN("shared Kueue CRDs not found; skipping");
        return;
    }
    oa::SchemaSet set;
    Diagnostics ld;
    oa::load_crds({dir->string()}, set, ld);
    REQUIRE(!ld.has_errors());

    auto run = [&](const std::string& text) {
        auto docs = load_docs("cq.yaml", text);
        Diagnostics d;
        REQUIRE(validate_doc(set, docs.at(0).root, "cq.yaml", d));
        return d;
    };

    SECTION("the baseline is clean") {
        auto d = run(kClusterQueue);
        INFO(qf_test::messages(d));
        CHECK(d.empty());
    }
    SECTION("unknown field") {
        std::string t = kClusterQueue;
        t.replace(t.find("  queueingStrategy"), 0, "  foo: bar\n");
        auto d = run(t);
        REQUIRE(qf_test::has_rule(d, "schema.unknown-field"));
        CHECK(d.all()[0].message == "unknown field \"spec.foo\"");
        CHECK(d.all()[0].mark.line == 7);
    }
    SECTION("wrong enum") {
        std::string t = kClusterQueue;
        t.replace(t.find("BestEffortFIFO"), 14, "Fifo");
        auto d = run(t);
        REQUIRE(d.all().size() == 1);
        CHECK(d.all()[0].rule == "schema.enum");
        CHECK(d.all()[0].message ==
              "spec.queueingStrategy: Unsupported value: \"Fifo\": supported values: \"StrictFIFO\", \"BestEffortFIFO\"");
    }
    SECTION("missing nominalQuota") {
        std::string t = kClusterQueue;
        t.replace(t.find("        nominalQuota: 9\n"), 24, "");
        auto d = run(t);
        REQUIRE(d.all().size() == 1);
        CHECK(d.all()[0].rule == "schema.required");
        CHECK(d.all()[0].path == "spec.resourceGroups[0].flavors[0].resources[0].nominalQuota");
        CHECK(d.all()[0].message == "spec.resourceGroups[0].flavors[0].resources[0].nominalQuota: Required value");
    }
    SECTION("too many resourceGroups") {
        std::string t = kClusterQueue;
        std::string group = t.substr(t.find("  - coveredResources"));
        for (int i = 0; i < 16; ++i) t += group;
        auto d = run(t);
        REQUIRE(qf_test::has_rule(d, "schema.items"));
        bool found = false;
        for (const auto& x : d.all())
            if (x.message == "spec.resourceGroups: Too many: 17: must have at most 16 items") found = true;
        INFO(qf_test::messages(d));
        CHECK(found);
    }
    SECTION("quantity pattern and int-or-string") {
        std::string t = kClusterQueue;
        t.replace(t.find("36Gi"), 4, "36 GB");
        auto d = run(t);
        INFO(qf_test::messages(d));
        REQUIRE(qf_test::has_rule(d, "schema.pattern"));
    }
}

TEST_CASE("openapi: validation throughput on a small ClusterQueue") {
    auto dir = kueue_dir();
    if (!dir) {
        WARN("shared Kueue CRDs not found; skipping");
        return;
    }
    oa::SchemaSet set;
    Diagnostics ld;
    oa::load_crds({dir->string()}, set, ld);
    const oa::Schema* s = set.find("kueue.x-k8s.io/v1beta2", "ClusterQueue");
    REQUIRE(s);
    auto docs = load_docs("cq.yaml", kClusterQueue);
    const Node& doc = docs.at(0).root;
    const queueforge::ObjectRef ref{"kueue.x-k8s.io/v1beta2", "ClusterQueue", {}, "cluster-queue"};
    constexpr int kRounds = 20000;
    std::size_t findings = 0;
    auto start = std::chrono::steady_clock::now();
    for (int i = 0; i < kRounds; ++i) {
        Diagnostics d;
        oa::validate(*s, doc, "cq.yaml", ref, d);
        findings += d.all().size();
    }
    auto secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    CHECK(findings == 0);
    WARN("validated " << kRounds << " ClusterQueues in " << secs << " s: " << static_cast<long>(kRounds / secs)
                      << " objects/s");
}
