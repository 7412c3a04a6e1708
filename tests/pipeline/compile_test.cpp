// The compile step (compile.hpp): one driver that owns the texts it read, and
// Kueue's rules written once (checks/rules) reported at site positions.
#include "test_util.hpp"

#include <queueforge/backends/html_report.hpp>
#include <queueforge/checks/validate.hpp>
#include <queueforge/compile.hpp>
#include <queueforge/frontend/site_parse.hpp>

#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>

using namespace queueforge;

namespace {

const std::string kHead = R"(apiVersion: queueforge.io/v1alpha1
kind: Site
metadata:
  name: t
spec:
  target: kueue-0.19
  pools:
    - name: cpu
      nodes: 3
      allocatable: {cpu: 10, memory: 256Gi}
)";

// A team whose lendingLimit is above its nominal quota (Kueue's V31), on line 19.
const std::string kLendingAboveNominal = kHead + R"(  cohorts: [{name: c}]
  teams:
    - name: x
      cohort: c
      namespaces: [a]
      quota:
        - pool: cpu
          nominal: {cpu: 1}
          lendingLimit: {cpu: 2}
)";

const Diagnostic* first_with(const Diagnostics& d, const std::string& rule) {
    for (const auto& x : d.all())
        if (x.rule == rule) return &x;
    return nullptr;
}

std::size_t count_with(const Diagnostics& d, const std::string& rule) {
    return static_cast<std::size_t>(
        std::count_if(d.all().begin(), d.all().end(), [&](const Diagnostic& x) { return x.rule == rule; }));
}

}  // namespace

TEST_CASE("compile: the SourceSet keeps one text per file, the first given", "[compile]") {
    SourceSet s;
    s.add("a.yaml", "one");
    s.add("b.yaml", "two");
    s.add("a.yaml", "other");
    REQUIRE(s.texts().size() == 2);
    CHECK(s.texts()[0].path == "a.yaml");
    CHECK(s.find("a.yaml")->text == "one");
    CHECK(s.find("b.yaml")->text == "two");
    CHECK_FALSE(s.find("c.yaml"));
}

TEST_CASE("compile: the result holds the site, the objects, the model and the texts read", "[compile]") {
    const std::string text = kHead + "  teams: [{name: x, namespaces: [a], quota: [{pool: cpu, nominal: {cpu: 1}}]}]\n";
    Compilation c = compile({.path = "site.yaml", .text = text, .build_model = true});
    INFO(qf_test::messages(c.diagnostics));
    REQUIRE(c.ok());
    REQUIRE(c.site);
    CHECK(c.site->teams.size() == 1);
    CHECK_FALSE(c.objects().empty());
    CHECK(c.model.find_cluster_queue("x") >= 0);
    // Not asked: emitting needs only the objects.
    CHECK(compile({.path = "site.yaml", .text = text}).model.find_cluster_queue("x") < 0);
    REQUIRE(c.sources.find("site.yaml"));
    CHECK(c.sources.find("site.yaml")->text == text);
}

TEST_CASE("compile: a finding in a base renders with the base's line from the compilation's own texts", "[compile]") {
    qf_test::TempDir tmp;
    qf_test::write_text(tmp.path / "base.yaml", R"(apiVersion: queueforge.io/v1alpha1
kind: SiteBase
metadata:
  name: base
spec:
  pools:
    - name: cpu
      nodes: 3
      allocatable: {cpu: 10, memory: 256Gi}
  teams:
    - name: x
      namespaces: [a]
      quota: [{pool: cpu, nominal: {cpu: 1}, lendingLimit: {cpu: 2}}]
)");
    qf_test::write_text(tmp.path / "queueforge-site.yaml", R"(apiVersion: queueforge.io/v1alpha1
kind: Site
metadata:
  name: t
spec:
  extends: base.yaml
  target: kueue-0.19
)");
    const std::string site = (tmp.path / "queueforge-site.yaml").string();
    Compilation c = compile({.path = site});
    CHECK_FALSE(c.ok());
    CHECK_FALSE(c.lowered);
    // No cohort: V30, at the base's lendingLimit, rendered with its caret
    // from the texts the compilation read.
    const Diagnostic* d = first_with(c.diagnostics, "V30");
    REQUIRE(d);
    CHECK(d->file == (tmp.path / "base.yaml").string());
    CHECK(d->mark.line == 13);
    const std::string text = render_text(c.diagnostics, c.sources.texts());
    INFO(text);
    CHECK(text.find("lendingLimit: {cpu: 2}") != std::string::npos);
}

TEST_CASE("compile: the sample manifests a site names are read by the compile step", "[compile]") {
    qf_test::TempDir tmp;
    qf_test::write_text(tmp.path / "job.yaml", R"(apiVersion: batch/v1
kind: Job
metadata: {name: j, namespace: a}
spec:
  template:
    spec:
      containers: [{name: c, image: x, resources: {requests: {cpu: 1}}}]
      restartPolicy: Never
)");
    qf_test::write_text(tmp.path / "queueforge-site.yaml",
                        kHead + "  teams: [{name: x, namespaces: [a], quota: [{pool: cpu, nominal: {cpu: 1}}]}]\n" +
                            "  workloads: [{name: s, namespace: a, file: job.yaml}]\n");
    const std::string site = (tmp.path / "queueforge-site.yaml").string();
    Compilation c = compile({.path = site, .read_samples = true});
    INFO(qf_test::messages(c.diagnostics));
    REQUIRE(c.ok());
    REQUIRE(c.samples.size() == 1);
    CHECK(c.samples[0].ref.kind == "Job");
    CHECK(c.sources.find((tmp.path / "job.yaml").string()));
    // Not asked: nothing read.
    CHECK(compile({.path = site}).samples.empty());
}

TEST_CASE("compile: prepare runs between parsing and lowering, and its errors stop lowering", "[compile]") {
    const std::string text = kHead + "  teams: [{name: x, namespaces: [a], quota: [{pool: cpu, nominal: {cpu: 1}}]}]\n";
    Compilation renamed = compile({.path = "site.yaml",
                                   .text = text,
                                   .prepare = [](site::Site& s, Diagnostics&) { s.teams[0].name.value = "y"; },
                                   .build_model = true});
    REQUIRE(renamed.ok());
    CHECK(renamed.model.find_cluster_queue("y") >= 0);
    Compilation refused = compile({.path = "site.yaml", .text = text, .prepare = [](site::Site& s, Diagnostics& d) {
                                       d.error(s.file, {}, "no", "cmp.unknown-team");
                                   }});
    CHECK(refused.site);
    CHECK_FALSE(refused.lowered);
}

TEST_CASE("compile: a Kueue rule is reported once, in validate's wording, at the site's field", "[compile]") {
    // lendingLimit above nominal (V31): the site line of the lendingLimit.
    const std::string text = kLendingAboveNominal;
    Compilation c = compile({.path = "site.yaml", .text = text});
    CHECK_FALSE(c.lowered);
    REQUIRE(count_with(c.diagnostics, "V31") == 1);
    const Diagnostic& d = *first_with(c.diagnostics, "V31");
    CHECK(d.file == "site.yaml");
    CHECK(d.mark.line == 19);
    CHECK(d.message ==
          "ClusterQueue/x: spec.resourceGroups[0].flavors[0].resources[0].lendingLimit: Invalid value: \"2\": must be "
          "less than or equal to the nominalQuota");

    // validate reports the same rule on the same object with the same words.
    qf_test::TempDir tmp;
    qf_test::write_text(tmp.path / "cq.yaml", R"(apiVersion: kueue.x-k8s.io/v1beta1
kind: ClusterQueue
metadata: {name: x}
spec:
  cohort: c
  namespaceSelector: {}
  resourceGroups:
    - coveredResources: [cpu]
      flavors:
        - name: cpu
          resources: [{name: cpu, nominalQuota: 1, lendingLimit: 2}]
)");
    Diagnostics vd;
    LoadedResources in = load_resources({(tmp.path / "cq.yaml").string()}, vd);
    validate_all(in, {}, vd);
    const Diagnostic* v = first_with(vd, "V31");
    REQUIRE(v);
    CHECK(d.message == "ClusterQueue/x: " + v->message);
}

TEST_CASE("compile: without provenance the objects carry none, and a refused field is still placed at its site line", "[compile]") {
    const std::string good = kHead + R"(  teams:
    - name: x
      namespaces: [a]
      quota: [{pool: cpu, nominal: {cpu: 1}}]
)";
    Compilation with = compile({.path = "site.yaml", .text = good});
    Compilation without = compile({.path = "site.yaml", .text = good, .provenance = false});
    REQUIRE(with.lowered);
    REQUIRE(without.lowered);
    REQUIRE(with.lowered->objects.size() == without.lowered->objects.size());
    std::size_t recorded = 0;
    for (std::size_t i = 0; i < with.lowered->objects.size(); ++i) {
        recorded += with.lowered->objects[i].provenance.size();
        CHECK(without.lowered->objects[i].provenance.empty());
        CHECK(with.lowered->objects[i].doc.same_as(without.lowered->objects[i].doc));
    }
    CHECK(recorded > 0);

    // lendingLimit above nominal (V31): placed by the provenance of a second
    // lowering, at the line of the lendingLimit, as with provenance.
    const std::string bad = kLendingAboveNominal;
    Compilation c = compile({.path = "site.yaml", .text = bad, .provenance = false});
    CHECK_FALSE(c.lowered);
    REQUIRE(count_with(c.diagnostics, "V31") == 1);
    CHECK(first_with(c.diagnostics, "V31")->mark.line == 19);
    Compilation p = compile({.path = "site.yaml", .text = bad});
    CHECK(qf_test::messages(c.diagnostics) == qf_test::messages(p.diagnostics));
}

TEST_CASE("compile: without provenance for the field, a finding falls back to its nearest recorded parent", "[compile]") {
    // In without values: the values field does not exist in the object; the
    // finding lands on the expression the site wrote.
    const std::string text = kHead + R"(  teams:
    - name: x
      namespaces: [a]
      namespaceSelector:
        matchExpressions:
          - {key: tier, operator: In}
      quota: [{pool: cpu, nominal: {cpu: 1}}]
)";
    Compilation c = compile({.path = "site.yaml", .text = text});
    CHECK_FALSE(c.lowered);
    const Diagnostic* d = first_with(c.diagnostics, "V32");
    REQUIRE(d);
    CHECK(d->mark.line == 16);
    CHECK(d->message.find("ClusterQueue/x: spec.namespaceSelector.matchExpressions[0].values: Required value") == 0);
}

TEST_CASE("compile: the report compiles the site once and shows each finding once", "[compile]") {
    // A share that does not divide evenly: one site.share-rounded warning,
    // which three compilations used to repeat.
    qf_test::TempDir tmp;
    qf_test::write_text(tmp.path / "queueforge-site.yaml",
                        kHead + "  teams: [{name: x, namespaces: [a], quota: [{pool: cpu, nominal: {cpu: 33.3333%}}]}]\n");
    Diagnostics diags;
    std::vector<SourceText> sources;
    auto in = html_report::collect({.site = tmp.path.string()}, diags, sources);
    INFO(qf_test::messages(diags));
    REQUIRE(in);
    CHECK(count_with(diags, "site.share-rounded") == 1);
    CHECK(std::count_if(sources.begin(), sources.end(), [&](const SourceText& s) {
              return s.path == (tmp.path / "queueforge-site.yaml").string();
          }) == 1);
}

namespace {

// Three teams sharing a pool by shares that add up to 120% (a site.share-sum
// warning after the teams' own findings), one with a borrowing limit in a
// cohort; with `profiles`, a Queue HardwareProfile per team and GPU pool.
std::string releasing_site(const std::string& profiles) {
    return R"(apiVersion: queueforge.io/v1alpha1
kind: Site
metadata:
  name: t
spec:
  target: rhoai-3.5
  priorityClasses: [{name: high, value: 1000}]
  pools:
    - name: a100
      nodes: 4
      allocatable: {cpu: 96, memory: 1000Gi, nvidia.com/gpu: 8}
    - name: cpu
      nodes: 10
      allocatable: {cpu: 64, memory: 256Gi}
  cohorts: [{name: all}]
  teams:
    - name: a
      cohort: all
      namespaces: [a]
      quota:
        - {pool: a100, nominal: {cpu: 50%, nvidia.com/gpu: 60%}, borrowingLimit: {nvidia.com/gpu: 4}}
        - {pool: cpu, nominal: {cpu: 8, memory: 32Gi}}
    - name: b
      namespaces: [b]
      quota: [{pool: a100, nominal: {cpu: 50%, nvidia.com/gpu: 60%}}]
    - name: c
      namespaces: [c]
      quota: [{pool: cpu, nominal: {cpu: 8}}]
)" + profiles;
}

}  // namespace

TEST_CASE("compile: a site not kept is lowered to the same objects and findings while its quota and text are let go",
          "[compile]") {
    for (const std::string profiles : {std::string(), std::string("  hardwareProfiles: {perTeamAndPool: true, priorityClass: high}\n")}) {
        INFO(profiles);
        qf_test::TempDir tmp;
        const std::string path = (tmp.path / "queueforge-site.yaml").string();
        const std::string text = releasing_site(profiles);
        qf_test::write_text(path, text);
        for (const bool provenance : {true, false}) {
            INFO("provenance " << provenance);
            Compilation kept = compile({.path = path, .provenance = provenance});
            Compilation let_go = compile({.path = path, .provenance = provenance, .keep_site = false});
            REQUIRE(kept.lowered);
            REQUIRE(let_go.lowered);
            CHECK(kept.site);
            CHECK_FALSE(let_go.site);
            CHECK(count_with(kept.diagnostics, "site.share-sum") == 1);
            // The same findings in the same order, the share sums included.
            CHECK(qf_test::messages(let_go.diagnostics) == qf_test::messages(kept.diagnostics));
            REQUIRE(let_go.lowered->objects.size() == kept.lowered->objects.size());
            for (std::size_t i = 0; i < kept.objects().size(); ++i) {
                CHECK(let_go.objects()[i].doc.same_as(kept.objects()[i].doc));
                CHECK(let_go.objects()[i].provenance.size() == kept.objects()[i].provenance.size());
            }
            CHECK(render_stream(let_go.objects(), "") == render_stream(kept.objects(), ""));
            if (!profiles.empty()) CHECK(render_stream(let_go.objects(), "").find("kind: HardwareProfile") != std::string::npos);

            // The text is set aside, not lost: read again for the report.
            REQUIRE(let_go.sources.texts().size() == 1);
            std::vector<SourceText> sources = let_go.sources.release();
            CHECK(sources[0].text.empty());
            CHECK(sources[0].set_aside);
            restore_sources(sources);
            CHECK(sources[0].text == text);
        }
    }
}

TEST_CASE("compile: lowering that releases the quota leaves the site without its teams' amounts", "[compile]") {
    for (const bool profiles : {false, true}) {
        Diagnostics parsed;
        auto s = load_site_text("site.yaml", releasing_site(profiles ? "  hardwareProfiles: {perTeamAndPool: true}\n" : ""), parsed);
        REQUIRE(s);
        Diagnostics d1, d2;
        auto read_only = lower_site(*s, d1);
        REQUIRE(s->teams[0].quota.size() == 2);
        CHECK(s->teams[0].quota[0].nominal.size() == 2);
        auto released = lower_site_releasing_quota(*s, d2);
        REQUIRE(read_only);
        REQUIRE(released);
        CHECK(qf_test::messages(d1) == qf_test::messages(d2));
        REQUIRE(read_only->objects.size() == released->objects.size());
        for (std::size_t i = 0; i < released->objects.size(); ++i) CHECK(released->objects[i].doc.same_as(read_only->objects[i].doc));
        for (const auto& t : s->teams) {
            // The hardware profiles pass reads each team's pools; nothing reads the amounts.
            CHECK(t.quota.size() == (profiles ? (t.name.value == "a" ? 2u : 1u) : 0u));
            for (const auto& q : t.quota) {
                CHECK_FALSE(q.pool.value.empty());
                CHECK(q.nominal.empty());
                CHECK(q.borrowing_limit.empty());
            }
        }
    }
}

TEST_CASE("compile: a site not kept and refused after lowering reports as a kept one does, at its site lines", "[compile]") {
    qf_test::TempDir tmp;
    const std::string path = (tmp.path / "queueforge-site.yaml").string();
    qf_test::write_text(path, kLendingAboveNominal);
    for (const bool provenance : {true, false}) {
        Compilation kept = compile({.path = path, .provenance = provenance});
        Compilation let_go = compile({.path = path, .provenance = provenance, .keep_site = false});
        CHECK_FALSE(let_go.lowered);
        CHECK_FALSE(let_go.site);
        REQUIRE(count_with(let_go.diagnostics, "V31") == 1);
        CHECK(first_with(let_go.diagnostics, "V31")->mark.line == 19);
        CHECK(qf_test::messages(let_go.diagnostics) == qf_test::messages(kept.diagnostics));
    }
}
