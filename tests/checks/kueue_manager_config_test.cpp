// Kueue's Configuration inside the kueue-manager-config ConfigMap (data key
// controller_manager_config.yaml): checked like a standalone Configuration
// (its schema, the kueue-config.* rules), with findings positioned inside the
// ConfigMap's string; malformed text is a positioned error, never a crash.
#include "test_util.hpp"

#include <queueforge/checks/validate.hpp>
#include <queueforge/frontend/kueue_operator.hpp>
#include <queueforge/frontend/manifests.hpp>

#include <catch2/catch.hpp>

#include <random>

using namespace queueforge;

namespace {

bool has(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

using qf_test::with_rule;

Diagnostics validate_text(const std::string& yaml, const std::string& target = {}, bool ignore_missing = false) {
    LoadedResources in;
    Diagnostics d;
    load_resources_from_text("in.yaml", yaml, in, d);
    REQUIRE_FALSE(d.has_errors());
    ValidationOptions o;
    if (!target.empty()) o.target = find_target(target).target;
    o.ignore_missing_schemas = ignore_missing;
    validate_all(in, o, d);
    return d;
}

// A ClusterQueue with a fair-sharing weight and a labelled PyTorchJob: what
// the Configuration is checked against.
const std::string kQueues = R"(apiVersion: kueue.x-k8s.io/v1beta2
kind: ClusterQueue
metadata: {name: team-a}
spec:
  namespaceSelector: {}
  fairSharing: {weight: "2"}
  resourceGroups: []
---
apiVersion: kubeflow.org/v1
kind: PyTorchJob
metadata: {name: train, namespace: team-a, labels: {kueue.x-k8s.io/queue-name: default}}
spec:
  pytorchReplicaSpecs:
    Master:
      replicas: 1
      template: {spec: {containers: [{name: pytorch, image: x, resources: {requests: {cpu: "1"}}}]}}
---
)";
const int kQueuesLines = 17;  // the ConfigMap starts on line 18

std::string config_map(const std::string& name, const std::string& data) {
    return "apiVersion: v1\n"                                              // +1
           "kind: ConfigMap\n"                                             // +2
           "metadata: {name: " + name + ", namespace: kueue-system}\n" +  // +3
           "data:\n" + data;                                               // +4
}

}  // namespace

TEST_CASE("kueue-manager-config: the embedded Configuration is checked at positions inside the string", "[kueue-operator][rules]") {
    const std::string cm = config_map("kueue-manager-config",
                                      "  controller_manager_config.yaml: |\n"        // +5
                                      "    apiVersion: config.kueue.x-k8s.io/v1beta2\n"  // +6
                                      "    kind: Configuration\n"                         // +7
                                      "    integrations:\n"                               // +8
                                      "      frameworks: [batch/job]\n"                   // +9
                                      "    bogusField: 1\n");                             // +10
    auto d = validate_text(kQueues + cm, "kueue-0.20");
    INFO(qf_test::messages(d));
    CHECK_FALSE(qf_test::has_rule(d, "schema.missing"));  // the ConfigMap is known
    auto missing = with_rule(d, "kueue-config.missing-framework");
    REQUIRE(missing.size() == 1);
    CHECK(has(missing[0].message, "does not enable the \"kubeflow.org/pytorchjob\" integration"));
    CHECK(missing[0].file == "in.yaml");
    CHECK(missing[0].mark.line == kQueuesLines + 9);
    CHECK(missing[0].mark.col == 19);  // the [ of the frameworks list
    auto weights = with_rule(d, "kueue-config.fair-sharing-weights");
    REQUIRE(weights.size() == 1);
    CHECK(has(weights[0].message, "add a fairSharing section"));
    CHECK(weights[0].mark.line == 6);  // on the ClusterQueue
    // The Configuration's schema: Kueue decodes it strictly.
    bool unknown = false;
    for (const auto& x : d.all())
        if (x.severity == Severity::Error && has(x.message, "bogusField")) {
            unknown = true;
            CHECK(x.rule.starts_with("schema."));
            CHECK(x.file == "in.yaml");
            CHECK(x.mark.line == kQueuesLines + 10);
            CHECK(x.mark.col == 5);
        }
    CHECK(unknown);

    // The same Configuration fixed: nothing to report.
    const std::string good = config_map("kueue-manager-config",
                                        "  controller_manager_config.yaml: |\n"
                                        "    apiVersion: config.kueue.x-k8s.io/v1beta2\n"
                                        "    kind: Configuration\n"
                                        "    integrations:\n"
                                        "      frameworks: [batch/job, kubeflow.org/pytorchjob]\n"
                                        "    fairSharing: {}\n");
    auto ok = validate_text(kQueues + good, "kueue-0.20");
    INFO(qf_test::messages(ok));
    CHECK_FALSE(ok.has_errors());
    for (const auto& x : ok.all()) CHECK_FALSE(x.rule.starts_with("kueue-config."));
}

TEST_CASE("kueue-manager-config: v1beta1, the AFS gates and block scalars with indicators", "[kueue-operator][rules]") {
    // |- with an explicit indentation indicator and a blank first line; the
    // key's line is indented by 2, the content by 2 + 4.
    const std::string cm = config_map("kueue-manager-config",
                                      "  controller_manager_config.yaml: |4-\n"           // +5
                                      "\n"                                                // +6
                                      "      apiVersion: config.kueue.x-k8s.io/v1beta1\n" // +7
                                      "      kind: Configuration\n"                       // +8
                                      "      fairSharing: {enable: true}\n"               // +9
                                      "      integrations: {frameworks: [kubeflow.org/pytorchjob]}\n"  // +10
                                      "      featureGates: {AdmissionFairSharing: false}\n");         // +11
    auto d = validate_text(kQueues + cm, "kueue-0.20");
    INFO(qf_test::messages(d));
    auto gates = with_rule(d, "kueue-config.afs-gates");
    REQUIRE(gates.size() == 1);
    CHECK(gates[0].severity == Severity::Error);
    CHECK(gates[0].mark.line == kQueuesLines + 11);
    CHECK(gates[0].mark.col == 44);  // the value false
    CHECK_FALSE(qf_test::has_rule(d, "kueue-config.missing-framework"));
    CHECK_FALSE(qf_test::has_rule(d, "kueue-config.fair-sharing-weights"));
}

TEST_CASE("kueue-manager-config: a quoted string falls back to the scalar's position", "[kueue-operator][rules]") {
    const std::string cm = config_map("kueue-manager-config",
                                      "  controller_manager_config.yaml: \"apiVersion: config.kueue.x-k8s.io/v1beta2\\n"
                                      "kind: Configuration\\nintegrations: {frameworks: [batch/job]}\\n\"\n");  // +5
    auto d = validate_text(kQueues + cm, "kueue-0.20");
    INFO(qf_test::messages(d));
    auto missing = with_rule(d, "kueue-config.missing-framework");
    REQUIRE(missing.size() == 1);
    CHECK(missing[0].mark.line == kQueuesLines + 5);
    CHECK(missing[0].mark.col == 35);
    CHECK(qf_test::has_rule(d, "kueue-config.fair-sharing-weights"));
}

TEST_CASE("kueue-manager-config: malformed embedded text is a positioned error", "[kueue-operator][rules]") {
    struct Case {
        std::string data;
        std::string rule;
        int line;  // relative to the ConfigMap's first line; 0: not checked
        int col;
        std::string says;
    };
    const std::vector<Case> cases = {
        // A flow list left open on the string's line 3: found at its end
        // (the string's line 4, the file's line 9).
        {"  controller_manager_config.yaml: |\n"
         "    apiVersion: config.kueue.x-k8s.io/v1beta2\n"
         "    kind: Configuration\n"
         "    integrations: {frameworks: [batch/job\n",
         "yaml.", 9, 5, "Kueue does not start"},
        // A duplicate key inside the string.
        {"  controller_manager_config.yaml: |\n"
         "    apiVersion: config.kueue.x-k8s.io/v1beta2\n"
         "    kind: Configuration\n"
         "    kind: Configuration\n",
         "yaml.", 8, 5, "Kueue does not start"},
        {"  controller_manager_config.yaml: |\n"
         "    - a\n"
         "    - b\n",
         "kueue-config.embedded", 6, 5, "is a YAML"},
        {"  controller_manager_config.yaml: |\n"
         "    apiVersion: config.kueue.x-k8s.io/v1beta2\n"
         "    kind: Config\n",
         "kueue-config.embedded", 7, 11, "kind \"Config\""},
        {"  controller_manager_config.yaml: |\n"
         "    kind: Configuration\n",
         "kueue-config.embedded", 6, 5, "apiVersion (none)"},
        {"  controller_manager_config.yaml: \"\"\n", "kueue-config.embedded", 5, 35, "is empty"},
        {"  controller_manager_config.yaml: {apiVersion: x}\n", "kueue-config.embedded", 5, 35, "must be a string"},
        {"  controller_manager_config.yaml: 42\n", "kueue-config.embedded", 5, 35, "must be a string"},
    };
    for (const auto& c : cases) {
        INFO(c.data);
        auto d = validate_text(config_map("kueue-manager-config", c.data));
        INFO(qf_test::messages(d));
        bool found = false;
        for (const auto& x : d.all()) {
            if (!x.rule.starts_with(c.rule) || x.severity != Severity::Error) continue;
            found = true;
            CHECK(x.file == "in.yaml");
            CHECK(has(x.message, c.says));
            CHECK(x.mark.line == c.line);
            if (c.col) CHECK(x.mark.col == c.col);
        }
        CHECK(found);
        CHECK_FALSE(qf_test::has_rule(d, "schema.missing"));
    }
    // Several documents: Kueue reads the first.
    auto two = validate_text(config_map("kueue-manager-config",
                                        "  controller_manager_config.yaml: |\n"
                                        "    apiVersion: config.kueue.x-k8s.io/v1beta2\n"
                                        "    kind: Configuration\n"
                                        "    ---\n"
                                        "    apiVersion: config.kueue.x-k8s.io/v1beta2\n"
                                        "    kind: Configuration\n"));
    INFO(qf_test::messages(two));
    auto w = with_rule(two, "kueue-config.embedded");
    REQUIRE(w.size() == 1);
    CHECK(w[0].severity == Severity::Warning);
    CHECK(has(w[0].message, "reads the first one only"));
}

TEST_CASE("kueue-manager-config: a ConfigMap with another name, or without the key, is left alone", "[kueue-operator][rules]") {
    const std::string bad = "  controller_manager_config.yaml: |\n"
                            "    apiVersion: config.kueue.x-k8s.io/v1beta2\n"
                            "    kind: Configuration\n"
                            "    integrations: {frameworks: [batch/job\n";
    auto other = validate_text(kQueues + config_map("my-settings", bad), "kueue-0.20");
    INFO(qf_test::messages(other));
    CHECK(qf_test::has_rule(other, "schema.missing"));  // a ConfigMap like any other: validate has no schema for it
    for (const auto& x : other.all()) {
        CHECK_FALSE(x.rule.starts_with("kueue-config."));
        CHECK_FALSE(x.rule.starts_with("yaml."));
    }
    auto skipped = validate_text(kQueues + config_map("my-settings", bad), "kueue-0.20", true);
    INFO(qf_test::messages(skipped));
    CHECK_FALSE(skipped.has_errors());

    auto no_key = validate_text(config_map("kueue-manager-config", "  other.yaml: |\n    a: [\n"));
    INFO(qf_test::messages(no_key));
    CHECK(qf_test::has_rule(no_key, "schema.missing"));
    CHECK_FALSE(qf_test::has_rule(no_key, "kueue-config.embedded"));
    for (const auto& x : no_key.all()) CHECK_FALSE(x.rule.starts_with("yaml."));

    Resource r;
    r.ref = {"v1", "ConfigMap", "kueue-system", "kueue-manager-config"};
    CHECK(platform::is_kueue_manager_config_map(r));
    r.ref.namespace_ = "my-kueue";  // a Helm release namespace
    CHECK(platform::is_kueue_manager_config_map(r));
    r.ref.name = "kueue-manager-config-2";
    CHECK_FALSE(platform::is_kueue_manager_config_map(r));
}

TEST_CASE("kueue-manager-config: validate and check through the CLI", "[kueue-operator][rules][cli]") {
    qf_test::TempDir tmp;
    const auto file = tmp.path / "kueue.yaml";
    qf_test::write_text(file, config_map("kueue-manager-config",
                                         "  controller_manager_config.yaml: |\n"
                                         "    apiVersion: config.kueue.x-k8s.io/v1beta2\n"
                                         "    kind: Configuration\n"
                                         "    integrations: {frameworks: [batch/job\n"));
    for (const char* cmd : {"validate ", "check "}) {
        auto r = qf_test::run_cli(cmd + qf_test::shell_quote(file.string()));
        INFO(cmd << r.err << r.out);
        CHECK(r.exit == 1);
        CHECK(has(r.err + r.out, "kueue.yaml:9:5: error: data.controller_manager_config.yaml: invalid YAML"));
    }
    qf_test::write_text(file, config_map("kueue-manager-config",
                                         "  controller_manager_config.yaml: |\n"
                                         "    apiVersion: config.kueue.x-k8s.io/v1beta2\n"
                                         "    kind: Configuration\n"
                                         "    integrations: {frameworks: [batch/job]}\n"));
    for (const char* cmd : {"validate ", "check "}) {
        auto r = qf_test::run_cli(cmd + qf_test::shell_quote(file.string()));
        INFO(cmd << r.err << r.out);
        CHECK(r.exit == 0);
    }
}

TEST_CASE("kueue-manager-config: odd strings never crash and every finding is inside the file", "[kueue-operator][rules]") {
    const std::string valid = "apiVersion: config.kueue.x-k8s.io/v1beta2\n"
                              "kind: Configuration\n"
                              "integrations:\n"
                              "  frameworks: [batch/job, \"kubeflow.org/pytorchjob\"]\n"
                              "fairSharing: {}\n"
                              "featureGates: {AdmissionFairSharing: false}\n";
    const std::string alphabet = "ab:-[]{},\"'|>#&*!%@`\t \n\\0123456789.?";
    std::mt19937 rng(16);
    auto embed = [](const std::string& text, int style) {
        std::string body;
        if (style == 0) {  // literal block
            body = "  controller_manager_config.yaml: |\n";
            std::string line;
            for (char ch : text + "\n") {
                if (ch == '\n') {
                    body += "    " + line + "\n";
                    line.clear();
                } else {
                    line += ch;
                }
            }
        } else {  // double-quoted, escaped
            body = "  controller_manager_config.yaml: \"";
            for (char ch : text) {
                if (ch == '\n') body += "\\n";
                else if (ch == '"' || ch == '\\') body += std::string("\\") + ch;
                else if (ch == '\t') body += "\\t";
                else body += ch;
            }
            body += "\"\n";
        }
        return body;
    };
    int checked = 0, rejected = 0;
    for (int round = 0; round < 400; ++round) {
        std::string text = valid;
        const int edits = 1 + static_cast<int>(rng() % 6);
        for (int e = 0; e < edits; ++e) {
            const std::size_t at = rng() % (text.size() + 1);
            switch (rng() % 3) {
                case 0: text.insert(at, 1, alphabet[rng() % alphabet.size()]); break;
                case 1: if (at < text.size()) text.erase(at, 1); break;
                default: if (at < text.size()) text[at] = alphabet[rng() % alphabet.size()]; break;
            }
        }
        const std::string yaml = kQueues + config_map("kueue-manager-config", embed(text, round % 2));
        INFO(yaml);
        LoadedResources in;
        Diagnostics d;
        load_resources_from_text("in.yaml", yaml, in, d);
        if (d.has_errors()) continue;  // the outer file itself does not load (a quote or escape broke it)
        validate_all(in, {}, d);
        ++checked;
        rejected += qf_test::has_rule(d, "kueue-config.embedded") || d.has_errors();
        int lines = 0;
        for (char ch : yaml) lines += ch == '\n';
        for (const auto& x : d.all()) {
            INFO(x.rule << " " << x.message);
            if (x.file != "in.yaml") continue;
            CHECK(x.mark.line >= 1);
            CHECK(x.mark.line <= lines + 1);
        }
    }
    // Most mutants reach the embedded Configuration, and many are refused.
    CHECK(checked > 300);
    CHECK(rejected > 50);
}
