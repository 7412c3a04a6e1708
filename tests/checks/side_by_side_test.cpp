// validate and the policies on a large input run on two threads (each
// object's checks beside the cross-object ones; the policies shared out
// between two evaluators): the findings, their order and the summary must be
// the ones a single thread gives.
#include "test_util.hpp"

#include <queueforge/checks/policy.hpp>
#include <queueforge/checks/validate.hpp>

#include <catch2/catch.hpp>

#include <set>

using namespace queueforge;

namespace {

// 2,400 objects with a bit of everything to report: schema errors, Kueue's
// rules, dangling references, notes and the built-in policies' warnings.
std::string objects() {
    std::string s;
    for (int i = 0; i < 600; ++i) {
        const std::string n = std::to_string(i);
        s += "---\napiVersion: kueue.x-k8s.io/v1beta2\nkind: ResourceFlavor\nmetadata:\n  name: rf-" + n + "\n";
        s += "---\napiVersion: kueue.x-k8s.io/v1beta2\nkind: ClusterQueue\nmetadata:\n  name: cq-" + n +
             "\nspec:\n  cohortName: all\n  namespaceSelector: {}\n  resourceGroups:\n  - coveredResources: [cpu]\n"
             "    flavors:\n    - name: rf-" + n + "\n      resources:\n      - name: cpu\n";
        switch (i % 4) {
        case 0: s += "        nominalQuota: \"8\"\n"; break;
        case 1: s += "        nominalQuota: lots\n"; break;                           // schema
        case 2: s += "        nominalQuota: 1\n        lendingLimit: 2\n"; break;      // V31
        default: s += "        nominalQuota: 1\n        borrowingLimit: 5\n"; break;    // policy
        }
        s += "---\napiVersion: kueue.x-k8s.io/v1beta2\nkind: LocalQueue\nmetadata:\n  name: lq-" + n +
             "\n  namespace: ns-" + n + "\nspec:\n  clusterQueue: " + (i % 5 == 0 ? "nowhere-" + n : "cq-" + n) + "\n";
        if (i % 7 == 0) s += "---\napiVersion: v1\nkind: Namespace\nmetadata:\n  name: ns-" + n + "\n";
    }
    return s;
}

struct Run {
    std::string findings;
    std::size_t objects = 0;
    std::set<std::string> rules;
};

Run run(const std::string& text, unsigned threads) {
    LoadedResources in;
    Diagnostics d;
    load_resources_from_text("objects.yaml", text, in, d);
    ValidationOptions vo;
    vo.threads = threads;
    const ValidationSummary summary = validate_all(in, vo, d);
    policy::Options po;
    po.threads = threads;
    policy::check_policies(in, po, std::nullopt, d);
    Run r;
    r.objects = summary.objects;
    for (const auto& f : d.all()) {
        r.findings += f.file + ":" + std::to_string(f.mark.line) + ":" + std::to_string(f.mark.col) + " " +
                      severity_name(f.severity) + " [" + f.rule + "] " + f.object.display() + " " + f.path + ": " +
                      f.message + "\n";
        r.rules.insert(f.rule);
    }
    for (const auto& [kind, n] : summary.per_kind) r.findings += kind + "=" + std::to_string(n) + "\n";
    for (const auto& f : summary.files) r.findings += "file " + f + "\n";
    return r;
}

}  // namespace

TEST_CASE("validate: two threads give one thread's findings, in its order", "[validate][policy]") {
    const std::string text = objects();
    const Run one = run(text, 1);
    const Run two = run(text, 2);
    const Run three = run(text, 3);  // more threads than the checks have parts: still the same
    CHECK(one.objects == 1800 + 86);
    INFO(std::string(one.findings, 0, 2000));
    // Something of each kind to keep in order.
    CHECK(one.rules.count("xref.missing-clusterqueue"));
    CHECK(one.rules.count("xref.all-namespaces"));
    CHECK(one.rules.count("V31"));
    CHECK(one.rules.count("borrowing-within-nominal"));
    CHECK(std::any_of(one.rules.begin(), one.rules.end(), [](const std::string& r) { return r.starts_with("schema."); }));
    CHECK(two.findings == one.findings);
    CHECK(three.findings == one.findings);
    CHECK(two.objects == one.objects);
}
