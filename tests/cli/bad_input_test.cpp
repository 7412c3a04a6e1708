// Bad site input: every case gets a clear, positioned error, exit code 1 from
// the CLI, and nothing written.
#include "test_util.hpp"

#include <catch2/catch.hpp>

using namespace queueforge;

namespace {

const std::string kHead = R"(apiVersion: queueforge.io/v1alpha1
kind: Site
metadata:
  name: t
spec:
  target: rhoai-2.19
)";

const std::string kPools = R"(  pools:
    - name: gpu
      nodes: 2
      allocatable: {cpu: 8, nvidia.com/gpu: 4}
)";

std::string team(const std::string& quota) {
    return "  teams:\n    - name: a\n      namespaces: [a]\n      quota:\n" + quota;
}

struct Expect {
    int line;
    int col;
    std::string rule;
    std::string text;
};

void expect_error(const std::string& site, const Expect& e) {
    Diagnostics d;
    auto out = qf_test::build_text(site, d);
    INFO(site);
    INFO(qf_test::messages(d));
    CHECK(out.empty());
    CHECK(d.has_errors());
    bool found = false;
    for (const auto& x : d.all())
        if (x.severity == Severity::Error && x.rule == e.rule && x.message.find(e.text) != std::string::npos &&
            (e.line == 0 || (x.mark.line == e.line && x.mark.col == e.col)))
            found = true;
    CHECK(found);
}

}  // namespace

TEST_CASE("bad input: YAML-level problems are positioned errors") {
    expect_error("a: [1, 2\n", {0, 0, "yaml.syntax", ""});
    expect_error(kHead + "\tpools: []\n", {7, 1, "yaml.tab", "tab"});
    expect_error(kHead + "  target: rhoai-2.16\n", {7, 3, "yaml.duplicate-key", "target"});
    std::string bomb = "a: &a [x, x, x, x, x, x, x, x, x, x]\n";
    for (char c = 'b'; c <= 'k'; ++c)
        bomb += std::string(1, c) + ": &" + c + " [*" + char(c - 1) + ", *" + char(c - 1) + ", *" + char(c - 1) +
                ", *" + char(c - 1) + ", *" + char(c - 1) + ", *" + char(c - 1) + ", *" + char(c - 1) + ", *" +
                char(c - 1) + ", *" + char(c - 1) + ", *" + char(c - 1) + "]\n";
    expect_error(bomb, {0, 0, "yaml.alias-budget", ""});
    expect_error(std::string(300, '[') + std::string(300, ']') + "\n", {0, 0, "yaml.depth", ""});
    std::string deep;
    for (int i = 0; i < 250; ++i) deep += std::string(static_cast<std::size_t>(i) * 2, ' ') + "k:\n";
    expect_error(deep, {0, 0, "yaml.depth", ""});
    expect_error(std::string(100u * 1024u * 1024u, '#'), {0, 0, "yaml.too-large", ""});
}

TEST_CASE("bad input: unknown fields get a did-you-mean, wrong types name the expected type") {
    expect_error(kHead + kPools + "  teems: []\n", {11, 3, "site.unknown-field", "did you mean \"teams\""});
    expect_error(kHead + kPools + team("        - pool: gpu\n          nominall: {cpu: 1}\n"),
                 {16, 11, "site.unknown-field", "did you mean \"nominal\""});
    expect_error(kHead + "  pools: {name: gpu}\n", {7, 10, "site.type", "expected a list"});
    expect_error(kHead + kPools + "  teams:\n    - name: a\n      namespaces: a\n      quota: []\n",
                 {13, 19, "site.type", "expected a list"});
    expect_error(kHead + "  pools:\n    - name: gpu\n      nodes: many\n", {9, 14, "site.type", "expected an integer"});
    expect_error(kHead + "  manageNamespaces: sometimes\n", {7, 21, "site.type", "expected a boolean"});
}

TEST_CASE("bad input: negative, malformed and overflowing quantities") {
    expect_error(kHead + kPools + team("        - pool: gpu\n          nominal: {cpu: -1}\n"),
                 {16, 26, "site.quantity", "must not be negative"});
    expect_error(kHead + kPools + team("        - pool: gpu\n          nominal: {cpu: lots}\n"),
                 {16, 26, "site.quantity", "invalid quantity"});
    expect_error(kHead + kPools + team("        - pool: gpu\n          nominal: {memory: 1gi}\n"),
                 {16, 29, "site.quantity", "invalid quantity"});
    expect_error(kHead + kPools + team("        - pool: gpu\n          nominal: {cpu: 99999999999999999999999999999999E}\n"),
                 {16, 26, "site.quantity", "invalid quantity"});
    expect_error(kHead + kPools + team("        - pool: gpu\n          nominal: {cpu: 150%}\n"),
                 {16, 26, "site.quantity", "more than 100%"});
}

TEST_CASE("bad input: shares that sum past 100% of a pool warn, and fail with --strict") {
    std::string site = kHead + kPools +
                       "  teams:\n"
                       "    - {name: a, namespaces: [a], quota: [{pool: gpu, nominal: {nvidia.com/gpu: 60%}}]}\n"
                       "    - {name: b, namespaces: [b], quota: [{pool: gpu, nominal: {nvidia.com/gpu: 50%}}]}\n";
    Diagnostics d;
    CHECK(!qf_test::build_text(site, d).empty());
    CHECK(qf_test::has_rule(d, "site.share-sum"));
    CHECK_FALSE(d.has_errors());

    qf_test::TempDir tmp;
    qf_test::write_text(tmp.path / "queueforge-site.yaml", site);
    auto ok = qf_test::run_cli("build " + qf_test::shell_quote(tmp.path.string()));
    CHECK(ok.exit == 0);
    CHECK(ok.err.find("110%") != std::string::npos);
    auto strict = qf_test::run_cli("build --strict -o " + qf_test::shell_quote((tmp.path / "out").string()) + " " +
                                   qf_test::shell_quote(tmp.path.string()));
    CHECK(strict.exit == 1);
    CHECK(strict.out.empty());
    CHECK_FALSE(std::filesystem::exists(tmp.path / "out"));
}

TEST_CASE("bad input: names that are not DNS-1123 labels") {
    for (const std::string& bad : std::vector<std::string>{"GPU", "a/b", "a..b", "gpü", std::string(64, 'a'), "-a", "a_b"}) {
        INFO(bad);
        expect_error(kHead + "  pools:\n    - name: \"" + bad + "\"\n", {8, 13, "site.name", "invalid name"});
    }
}

TEST_CASE("bad input: references to unknown pools, cohorts and priority classes") {
    expect_error(kHead + kPools + team("        - pool: gpus\n          nominal: {cpu: 1}\n"),
                 {15, 17, "site.unknown-pool", "did you mean \"gpu\""});
    expect_error(kHead + kPools +
                     "  teams:\n    - name: a\n      namespaces: [a]\n      cohort: research\n      quota: [{pool: gpu, nominal: {cpu: 1}}]\n",
                 {14, 15, "site.unknown-cohort", "unknown cohort"});
    expect_error(kHead + kPools + team("        - pool: gpu\n          nominal: {cpu: 1}\n") +
                     "  workloads:\n    - {name: w, namespace: a, priorityClass: high, podSets: [{name: main, count: 1, requests: {cpu: 1}}]}\n",
                 {18, 46, "site.unknown-priority-class", "unknown priority class"});
}

TEST_CASE("bad input: quotas and priority classes past the CRD's limits (V20, V55)") {
    expect_error(kHead + kPools + "  teams:\n    - name: a\n      namespaces: [a]\n      quota: []\n",
                 {12, 7, "V20", "team \"a\": quota must name at least one pool"});
    expect_error(kHead + kPools + team("        - pool: gpu\n          nominal: {}\n"),
                 {15, 11, "V20", "team \"a\" quota for pool \"gpu\": nominal must list at least one resource"});
    std::string head = kHead;
    head.replace(head.find("rhoai-2.19"), 10, "kueue-0.20");
    expect_error(head + "  priorityClasses:\n    - {name: p, value: 1, description: " + std::string(2049, 'x') + "}\n",
                 {8, 40, "V55", "priority class \"p\": description may be at most 2048 characters"});
    // At the limit: accepted.
    Diagnostics d;
    qf_test::build_text(head + "  priorityClasses:\n    - {name: p, value: 1, description: " + std::string(2048, 'x') + "}\n", d);
    INFO(qf_test::messages(d));
    CHECK_FALSE(d.has_errors());
}

TEST_CASE("bad input: cycles in the cohort hierarchy") {
    expect_error(kHead + "  cohorts:\n    - {name: a, parent: b}\n    - {name: b, parent: c}\n    - {name: c, parent: a}\n",
                 {8, 25, "V45", "Cohort/a: Cohort hierarchy has a cycle (a -> b -> c -> a)"});
}

TEST_CASE("bad input: the CLI exits 1 and writes nothing, a usage error exits 2") {
    qf_test::TempDir tmp;
    qf_test::write_text(tmp.path / "queueforge-site.yaml", kHead + "  pools: [{name: BAD}]\n");
    auto out = tmp.path / "rendered";
    auto r = qf_test::run_cli("build -o " + qf_test::shell_quote(out.string()) + " " + qf_test::shell_quote(tmp.path.string()));
    CHECK(r.exit == 1);
    CHECK(r.err.find("queueforge-site.yaml:7:18: error:") != std::string::npos);
    CHECK(r.err.find("^") != std::string::npos);
    CHECK_FALSE(std::filesystem::exists(out));

    CHECK(qf_test::run_cli("build --no-such-flag").exit == 2);
    CHECK(qf_test::run_cli("build -strict x").exit == 2);
    CHECK(qf_test::run_cli("build " + qf_test::shell_quote((tmp.path / "missing.yaml").string())).exit == 2);  // an unreadable command-line path
}

TEST_CASE("bad input: a YAML 1.1 boolean where a name is expected says to quote it") {
    expect_error(kHead + "  pools:\n    - name: y\n", {8, 13, "site.type", "quote the value"});
}

TEST_CASE("bad input: every problem in the file is reported in one run") {
    Diagnostics d;
    std::string site = kHead + "  pools:\n    - name: GPU\n      nodez: 1\n  teams:\n    - name: a\n      namespaces: [a]\n      quota: [{pool: gpu, nominal: {cpu: -1}}]\n";
    CHECK(qf_test::build_text(site, d).empty());
    INFO(qf_test::messages(d));
    CHECK(d.count(Severity::Error) >= 3);
    CHECK(qf_test::has_rule(d, "site.name"));
    CHECK(qf_test::has_rule(d, "site.unknown-field"));
    CHECK(qf_test::has_rule(d, "site.quantity"));
}

TEST_CASE("bad input: through the CLI every bad site exits 1 with a positioned error and writes nothing") {
    std::string bomb = "a: &a [x, x, x, x, x, x, x, x, x, x]\n";
    for (char c = 'b'; c <= 'k'; ++c) {
        std::string prev = std::string("*") + char(c - 1);
        bomb += std::string(1, c) + ": &" + c + " [" + prev;
        for (int i = 0; i < 9; ++i) bomb += ", " + prev;
        bomb += "]\n";
    }
    const std::vector<std::string> sites = {
        "a: [1, 2\n",
        kHead + "\tpools: []\n",
        kHead + "  target: rhoai-2.16\n",
        bomb,
        std::string(300, '[') + std::string(300, ']') + "\n",
        kHead + kPools + "  teems: []\n",
        kHead + "  pools: {name: gpu}\n",
        kHead + kPools + team("        - pool: gpu\n          nominal: {cpu: -1}\n"),
        kHead + kPools + team("        - pool: gpu\n          nominal: {cpu: 99999999999999999999999999999999E}\n"),
        kHead + "  pools:\n    - name: \"GPU/../x\"\n",
        kHead + kPools + team("        - pool: gpus\n          nominal: {cpu: 1}\n"),
        kHead + "  cohorts:\n    - {name: a, parent: b}\n    - {name: b, parent: a}\n",
        "\x7f" "ELF\x02\x01\x01\x00\x00\x00garbage\xff\xfe",
    };
    qf_test::TempDir tmp;
    for (std::size_t i = 0; i < sites.size(); ++i) {
        INFO("case " << i << ":\n" << sites[i]);
        auto dir = tmp.path / std::to_string(i);
        qf_test::write_text(dir / "queueforge-site.yaml", sites[i]);
        auto out = dir / "rendered";
        auto r = qf_test::run_cli("build -o " + qf_test::shell_quote(out.string()) + " " + qf_test::shell_quote(dir.string()));
        INFO(r.err);
        CHECK(r.exit == 1);
        CHECK(r.out.empty());
        CHECK(r.err.find("queueforge-site.yaml:") != std::string::npos);
        CHECK(r.err.find(": error: ") != std::string::npos);
        CHECK_FALSE(std::filesystem::exists(out));
    }
    // 100 MB: refused before it is read.
    auto big = tmp.path / "big";
    std::filesystem::create_directories(big);
    {
        std::ofstream f(big / "queueforge-site.yaml", std::ios::binary);
        std::string chunk(1 << 20, '#');
        for (int i = 0; i < 100; ++i) f << chunk;
    }
    auto r = qf_test::run_cli("build " + qf_test::shell_quote(big.string()));
    CHECK(r.exit == 1);
    CHECK(r.out.empty());
    CHECK(r.err.find("limit") != std::string::npos);
}
