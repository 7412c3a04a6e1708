// `queueforge validate` as users run it: inputs of every shape, output
// formats, exit codes, and bad input that must not crash.
#include "test_util.hpp"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

using namespace queueforge;
using qf_test::run_cli;
using qf_test::shell_quote;

namespace {

const std::string kGood = R"(apiVersion: kueue.x-k8s.io/v1beta2
kind: ResourceFlavor
metadata: {name: gpu}
---
apiVersion: kueue.x-k8s.io/v1beta2
kind: ClusterQueue
metadata: {name: team-a}
spec:
  namespaceSelector: {matchLabels: {kubernetes.io/metadata.name: team-a}}
  resourceGroups:
  - coveredResources: [cpu]
    flavors: [{name: gpu, resources: [{name: cpu, nominalQuota: "8"}]}]
---
apiVersion: kueue.x-k8s.io/v1beta2
kind: LocalQueue
metadata: {name: default, namespace: team-a}
spec: {clusterQueue: team-a}
)";

// A flavor name that does not exist and an unknown field.
const std::string kBad = R"(apiVersion: kueue.x-k8s.io/v1beta2
kind: ClusterQueue
metadata: {name: team-a}
spec:
  namespaceSelector: {}
  queueingStrategy: Fifo
  resourceGroups:
  - coveredResources: [cpu]
    flavors: [{name: h100-sxm, resources: [{name: cpu, nominalQuota: "8"}]}]
)";

}  // namespace

TEST_CASE("validate: clean input exits 0, findings exit 1 with file:line:col") {
    qf_test::TempDir tmp;
    qf_test::write_text(tmp.path / "good.yaml", kGood);
    qf_test::write_text(tmp.path / "bad.yaml", kBad);
    auto ok = run_cli("validate " + shell_quote((tmp.path / "good.yaml").string()));
    INFO(ok.out << ok.err);
    CHECK(ok.exit == 0);
    auto bad = run_cli("validate " + shell_quote((tmp.path / "bad.yaml").string()));
    INFO(bad.out << bad.err);
    CHECK(bad.exit == 1);
    CHECK(bad.out.find("bad.yaml:6:21: error: spec.queueingStrategy: Unsupported value: \"Fifo\"") != std::string::npos);
    CHECK(bad.out.find("h100-sxm") != std::string::npos);
    CHECK(bad.out.find("[xref.missing-flavor]") != std::string::npos);
}

TEST_CASE("validate: folders, stdin, List and kubectl dumps, JSON") {
    qf_test::TempDir tmp;
    qf_test::write_text(tmp.path / "dir/a.yaml", kGood);
    qf_test::write_text(tmp.path / "dir/sub/notes.txt", "not yaml: [");
    auto dir = run_cli("validate --summary " + shell_quote((tmp.path / "dir").string()));
    CHECK(dir.exit == 0);
    CHECK(dir.out.find("3 objects") != std::string::npos);

    auto in = run_cli("validate -", kGood);
    CHECK(in.exit == 0);

    std::string list = "apiVersion: v1\nkind: List\nitems:\n- apiVersion: kueue.x-k8s.io/v1beta2\n  kind: LocalQueue\n"
                       "  metadata: {name: q, namespace: a, resourceVersion: \"12\", uid: 0b7c, creationTimestamp: \"2026-01-01T00:00:00Z\"}\n"
                       "  spec: {clusterQueue: missing}\n  status: {pendingWorkloads: 0}\n";
    auto l = run_cli("validate -o json -", list);
    auto j = nlohmann::json::parse(l.out);
    CHECK(j["summary"]["objects"] == 1);
    CHECK(j["findings"][0]["rule"] == "xref.missing-clusterqueue");
    CHECK(j["findings"][0]["line"] == 7);
    // No ClusterQueue at all in the input (a tenant's dump): a note, not an error.
    CHECK(j["findings"][0]["severity"] == "note");
    CHECK(l.exit == 0);

    std::string json = R"({"apiVersion":"kueue.x-k8s.io/v1beta2","kind":"WorkloadPriorityClass","metadata":{"name":"high"},"value":"x"})";
    auto js = run_cli("validate -", json);
    CHECK(js.exit == 1);
    CHECK(js.out.find("<stdin>:1:") != std::string::npos);
    CHECK(js.out.find("[schema.type]") != std::string::npos);
}

TEST_CASE("validate: site descriptions are compiled and their objects checked") {
    auto r = run_cli("validate --ignore-missing-schemas " + shell_quote((qf_test::source_dir() / "examples/multi-team").string()));
    INFO(r.out << r.err);
    CHECK(r.exit == 0);
    qf_test::TempDir tmp;
    qf_test::write_text(tmp.path / "queueforge-site.yaml",
                        "apiVersion: queueforge.io/v1alpha1\nkind: Site\nmetadata: {name: s}\nspec:\n  target: rhoai-2.10\n  poolz: []\n");
    auto bad = run_cli("validate " + shell_quote(tmp.path.string()));
    CHECK(bad.exit == 1);
    CHECK(bad.out.find("queueforge-site.yaml:6:3: error: spec: unknown field \"poolz\"; did you mean \"pools\"?") != std::string::npos);
}

TEST_CASE("validate: --target reports what the target does not serve, --strict and --fail-level") {
    std::string cohort = "apiVersion: kueue.x-k8s.io/v1beta2\nkind: Cohort\nmetadata: {name: c}\nspec: {}\n";
    CHECK(run_cli("validate -", cohort).exit == 0);
    auto t = run_cli("validate --target rhoai-2.16 -", cohort);
    CHECK(t.exit == 1);
    CHECK(t.out.find("[target.unserved]") != std::string::npos);
    CHECK(run_cli("validate --target nope -", cohort).exit == 2);

    // A ClusterQueue that admits every namespace is a note; notes fail only at --fail-level note.
    std::string all = kGood;
    const std::string selector = "{matchLabels: {kubernetes.io/metadata.name: team-a}}";
    all.replace(all.find(selector), selector.size(), "{}");
    CHECK(run_cli("validate -", all).exit == 0);
    CHECK(run_cli("validate --fail-level note -", all).exit == 1);
    std::string dup_default = kGood + "---\napiVersion: kueue.x-k8s.io/v1beta2\nkind: LocalQueue\nmetadata: {name: b, namespace: team-a, annotations: {kueue.x-k8s.io/default-queue: \"true\"}}\nspec: {clusterQueue: team-a}\n---\napiVersion: kueue.x-k8s.io/v1beta2\nkind: LocalQueue\nmetadata: {name: c, namespace: team-a, annotations: {kueue.x-k8s.io/default-queue: \"true\"}}\nspec: {clusterQueue: team-a}\n";
    auto warn = run_cli("validate -", dup_default);
    CHECK(warn.exit == 0);
    CHECK(warn.out.find("warning:") != std::string::npos);
    CHECK(run_cli("validate --strict -", dup_default).exit == 1);
}

TEST_CASE("validate: every output format") {
    qf_test::TempDir tmp;
    qf_test::write_text(tmp.path / "bad.yaml", kBad);
    const std::string file = shell_quote((tmp.path / "bad.yaml").string());
    auto sarif = nlohmann::json::parse(run_cli("validate -o sarif " + file).out);
    CHECK(sarif["version"] == "2.1.0");
    CHECK(sarif["runs"][0]["results"].size() >= 2);
    auto junit = run_cli("validate -o junit " + file).out;
    CHECK(junit.find("<testsuites") != std::string::npos);
    CHECK(junit.find("<failure") != std::string::npos);
    auto gh = run_cli("validate -o github " + file).out;
    CHECK(gh.find("::error file=") != std::string::npos);
    CHECK(gh.find(",line=6,col=21,") != std::string::npos);
    auto js = nlohmann::json::parse(run_cli("validate -o json " + file).out);
    CHECK(js["kind"] == "ValidationReport");
    CHECK(js["findings"][0]["object"]["kind"] == "ClusterQueue");
    CHECK(run_cli("validate -o yamlish " + file).exit == 2);
}

TEST_CASE("validate: CRDs given with --crd replace the built-in schemas, their CEL rules are evaluated", "[slow]") {
    auto shared = qf_test::shared_dir();
    if (!shared) {
        WARN("skipped: ../shared (the reference CRDs) is not beside this checkout");
        return;
    }
    qf_test::TempDir tmp;
    qf_test::write_text(tmp.path / "good.yaml", kGood);
    auto r = run_cli("validate --fail-level note --crd " + shell_quote((*shared / "upstream/kueue/v0.19.2").string()) + " " +
                     shell_quote((tmp.path / "good.yaml").string()));
    // The CRDs' CEL rules pass on valid objects: nothing to report, not even a note.
    CHECK(r.exit == 0);
    CHECK(r.out.find("[schema.cel") == std::string::npos);
    CHECK(r.out.find("error:") == std::string::npos);
    // --crd adds to the built-in schemas: Kueue kinds stay covered by them
    // when only job CRDs are given; a kind neither knows is still missing.
    CHECK(run_cli("validate --crd " + shell_quote((*shared / "upstream/jobs").string()) + " " +
                  shell_quote((tmp.path / "good.yaml").string())).exit == 0);
    qf_test::write_text(tmp.path / "widget.yaml", "apiVersion: example.com/v1\nkind: Widget\nmetadata: {name: w}\n");
    auto missing = run_cli("validate --crd " + shell_quote((*shared / "upstream/jobs").string()) + " " +
                           shell_quote((tmp.path / "widget.yaml").string()));
    CHECK(missing.exit == 1);
    CHECK(missing.out.find("[schema.missing]") != std::string::npos);
    CHECK(run_cli("validate --ignore-missing-schemas --crd " + shell_quote((*shared / "upstream/jobs").string()) + " " +
                  shell_quote((tmp.path / "widget.yaml").string())).exit == 0);
}

TEST_CASE("validate: bad input gets a clear error and exit 1 or 2, never a crash") {
    qf_test::TempDir tmp;
    struct Case {
        std::string name, text;
        int exit;
        std::string rule;
    };
    std::string deep;
    for (int i = 0; i < 5000; ++i) deep += "{a: ";
    std::string garbage;
    for (int i = 0; i < 4096; ++i) garbage += static_cast<char>((i * 7919) % 256);
    const std::vector<Case> cases = {
        {"malformed.yaml", "apiVersion: v1\nkind: [\n", 1, "yaml.syntax"},
        {"malformed.json", "{\"apiVersion\": \"v1\", \"kind\": ", 1, "yaml.syntax"},
        {"scalar.yaml", "just a string\n", 1, "resource.invalid"},
        {"list.yaml", "- a\n- b\n", 1, "resource.invalid"},
        {"noapi.yaml", "kind: ClusterQueue\nmetadata: {name: x}\n", 1, "resource.invalid"},
        {"nokind.yaml", "apiVersion: kueue.x-k8s.io/v1beta2\nmetadata: {name: x}\n", 1, "resource.invalid"},
        {"deep.yaml", deep, 1, "yaml.depth"},
        {"garbage.bin", garbage, 1, "yaml."},
    };
    for (const auto& c : cases) {
        INFO(c.name);
        qf_test::write_text(tmp.path / c.name, c.text);
        auto r = run_cli("validate " + shell_quote((tmp.path / c.name).string()));
        INFO(r.out << r.err);
        CHECK(r.exit == c.exit);
        CHECK(r.out.find("[" + c.rule) != std::string::npos);
    }
    // 50 MB: over the size limit, a finding about the file (refused before it is
    // read); a missing file is an I/O error.
    {
        std::ofstream f(tmp.path / "big.yaml", std::ios::binary);
        std::string chunk(1 << 20, '#');
        for (int i = 0; i < 50; ++i) f << chunk;
    }
    auto big = run_cli("validate " + shell_quote((tmp.path / "big.yaml").string()));
    CHECK(big.exit == 1);
    CHECK(big.out.find("the limit is") != std::string::npos);
    CHECK(run_cli("validate " + shell_quote((tmp.path / "absent.yaml").string())).exit == 2);
    CHECK(run_cli("validate").exit == 2);
}

TEST_CASE("validate: text and SARIF read the file again for its lines after the checks let it go") {
    qf_test::TempDir tmp;
    const std::string text = R"(apiVersion: kueue.x-k8s.io/v1beta2
kind: ClusterQueue
metadata: {name: team-a}
spec: {queueingStrategy: Fifo, namespaceSelector: {}}
)";
    qf_test::write_text(tmp.path / "bad.yaml", text);
    const std::string file = shell_quote((tmp.path / "bad.yaml").string());
    auto plain = run_cli("validate " + file);
    INFO(plain.out << plain.err);
    CHECK(plain.out.find(":4:26: error: spec.queueingStrategy") != std::string::npos);
    CHECK(plain.out.find("\n  spec: {queueingStrategy: Fifo, namespaceSelector: {}}\n" + std::string(27, ' ') + "^\n") !=
          std::string::npos);

    qf_test::write_text(tmp.path / "label.yaml", R"(apiVersion: kueue.x-k8s.io/v1beta2
kind: ClusterQueue
metadata: {name: team-b, labels: {"é": "x y"}}
)");
    auto sarif = nlohmann::json::parse(run_cli("validate -o sarif " + shell_quote((tmp.path / "label.yaml").string())).out);
    const auto& results = sarif["runs"][0]["results"];
    bool label_column = false;
    for (const auto& r : results) {
        const auto& region = r["locations"][0]["physicalLocation"]["region"];
        // "é" is two bytes: the value "x y" starts at byte 41, code point 40,
        // which SARIF counts from the line's text.
        if (region.value("startLine", 0) == 3 && region.value("startColumn", 0) == 40) label_column = true;
    }
    INFO(results.dump(2));
    CHECK(label_column);
}
