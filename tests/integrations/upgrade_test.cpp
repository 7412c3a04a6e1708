// upgrade-check: a repository checked under two targets, the platform changes
// that concern it, the findings that start and stop, and the verdict.
#include "test_util.hpp"

#include <queueforge/integrations/upgrade.hpp>

#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

using namespace queueforge;
using qf_test::source_dir;

namespace {

upgrade::Report run(const std::string& path, const std::string& from, const std::string& to) {
    Diagnostics diags;
    auto r = upgrade::check({.paths = {(source_dir() / path).string()}, .from = from, .to = to}, diags);
    INFO(qf_test::messages(diags));
    REQUIRE(r);
    return *r;
}

const upgrade::Change* change(const upgrade::Report& r, const std::string& id) {
    for (const auto& c : r.changes)
        if (c.id == id) return &c;
    return nullptr;
}

bool started(const upgrade::Report& r, const std::string& rule) {
    for (const auto& d : r.started)
        if (d.rule == rule) return true;
    return false;
}

}  // namespace

TEST_CASE("upgrade-check: v1beta1 objects break on Kueue 0.20", "[upgrade]") {
    auto r = run("tests/fixtures/upgrade/v1beta1-queues.yaml", "kueue-0.19", "kueue-0.20");
    CHECK(r.upgrade);
    CHECK(started(r, "target.unserved"));
    const auto* c = change(r, "kueue-v1beta1-unserved");
    REQUIRE(c);
    CHECK(c->severity == Severity::Error);
    REQUIRE(c->subjects.size() == 4);
    CHECK(c->subjects[1].what == "ClusterQueue team-a");
    CHECK(c->subjects[1].mark.line > 1);
    // The deprecation warnings of 0.19 stop: the objects are not served at all.
    CHECK_FALSE(r.stopped.empty());
    const auto* wpc = change(r, "kueue-default-priority-class");
    REQUIRE(wpc);
    REQUIRE(wpc->subjects.size() == 1);
    CHECK(wpc->subjects[0].what == "WorkloadPriorityClass default");
    // Nothing here is a site or a Kueue configuration.
    REQUIRE(change(r, "kueue-storage-migration"));
    CHECK(change(r, "kueue-storage-migration")->subjects.empty());
    CHECK(change(r, "kueue-afs-gate-pairing")->subjects.empty());
    CHECK(r.breaks());
    // Back down, the same objects are fine.
    auto back = run("tests/fixtures/upgrade/v1beta1-queues.yaml", "kueue-0.20", "kueue-0.19");
    CHECK_FALSE(back.upgrade);
    CHECK(back.started.size() + back.unchanged.size() < r.started.size() + r.unchanged.size() + 4);
    for (const auto& d : back.started) CHECK(d.severity != Severity::Error);
    CHECK_FALSE(back.breaks());
}

TEST_CASE("upgrade-check: 20 flavors with ConcurrentAdmission break below Kueue 0.20", "[upgrade]") {
    auto down = run("tests/fixtures/upgrade/concurrent-20-flavors.yaml", "kueue-0.20", "kueue-0.19");
    CHECK(started(down, "V38"));
    const auto* c = change(down, "kueue-concurrent-admission-flavors");
    REQUIRE(c);
    CHECK(c->severity == Severity::Error);
    REQUIRE(c->subjects.size() == 1);
    CHECK(c->subjects[0].what == "ClusterQueue wide (20 flavors)");
    CHECK(down.breaks());
    // Upwards the limit grows: a note, nothing breaks.
    auto up = run("tests/fixtures/upgrade/concurrent-20-flavors.yaml", "kueue-0.19", "kueue-0.20");
    CHECK_FALSE(started(up, "V38"));
    CHECK(change(up, "kueue-concurrent-admission-flavors")->severity == Severity::Note);
    CHECK_FALSE(up.breaks());
}

TEST_CASE("upgrade-check: OpenShift AI 3.5 stops creating the default queues", "[upgrade]") {
    auto r = run("tests/fixtures/upgrade/default-queue.yaml", "rhoai-3.4", "rhoai-3.5");
    const auto* c = change(r, "operator-creates-queues");
    REQUIRE(c);
    CHECK(c->severity == Severity::Error);
    REQUIRE(c->subjects.size() == 1);
    CHECK(c->subjects[0].what == "LocalQueue team-a/team-queue (ClusterQueue default)");
    CHECK(c->source.find("#3648") != std::string::npos);
    CHECK(r.breaks());
}

TEST_CASE("upgrade-check: a site that upgrades cleanly", "[upgrade]") {
    auto r = run("examples/rhoai-3", "rhoai-3.4", "rhoai-3.5");
    INFO(upgrade::render_text(r));
    for (const auto& d : r.started) CHECK(d.severity != Severity::Error);
    CHECK_FALSE(r.breaks());
    // The site's queues are emitted as v1beta2 on 3.5.
    const auto* api = change(r, "kueue-api");
    REQUIRE(api);
    REQUIRE(api->subjects.size() == 1);
    REQUIRE(r.emitted.size() == 1);
    bool cq = false;
    for (const auto& o : r.emitted[0].objects)
        if (o.kind == "ClusterQueue" && o.name == "llm")
            for (const auto& f : o.fields)
                if (f.path == "apiVersion") {
                    cq = true;
                    CHECK(f.before == "kueue.x-k8s.io/v1beta1");
                    CHECK(f.after == "kueue.x-k8s.io/v1beta2");
                }
    CHECK(cq);
    // Nothing in the site relies on the operator's default queues.
    REQUIRE(change(r, "operator-creates-queues"));
    CHECK(change(r, "operator-creates-queues")->subjects.empty());
}

TEST_CASE("upgrade-check: text, JSON and findings outputs", "[upgrade]") {
    auto r = run("tests/fixtures/upgrade/v1beta1-queues.yaml", "kueue-0.19", "kueue-0.20");
    const std::string text = upgrade::render_text(r);
    CHECK(text.starts_with("Upgrade check: kueue-0.19 (Kueue 0.19) -> kueue-0.20 (Kueue 0.20)\n"));
    CHECK(text.find("Platform changes that concern this repository:") != std::string::npos);
    CHECK(text.find("kueue-v1beta1-unserved") != std::string::npos);
    CHECK(text.find("The repository breaks on kueue-0.20") != std::string::npos);
    auto j = nlohmann::json::parse(upgrade::render_json(r));
    CHECK(j["kind"] == "UpgradeCheck");
    CHECK(j["direction"] == "upgrade");
    CHECK(j["breaks"] == true);
    CHECK_FALSE(j["findings"]["started"].empty());
    auto f = upgrade::as_findings(r);
    bool breaking = false, action = false;
    for (const auto& d : f.all()) {
        breaking = breaking || d.rule == "upgrade.breaking";
        action = action || d.rule == "upgrade.action";
    }
    CHECK(breaking);
    CHECK(action);
}

TEST_CASE("upgrade-check: the CLI and its exit codes", "[upgrade][cli]") {
    const auto fixture = [](const char* f) { return qf_test::shell_quote((source_dir() / "tests/fixtures/upgrade" / f).string()); };
    auto broken = qf_test::run_cli("upgrade-check --from kueue-0.19 --to kueue-0.20 " + fixture("v1beta1-queues.yaml"));
    CHECK(broken.exit == 1);
    CHECK(broken.out.find("Findings that start on kueue-0.20:") != std::string::npos);
    auto clean = qf_test::run_cli("upgrade-check --from kueue-0.19 --to kueue-0.20 " + fixture("concurrent-20-flavors.yaml"));
    INFO(clean.out << clean.err);
    CHECK(clean.exit == 0);
    auto sarif = qf_test::run_cli("upgrade-check --from kueue-0.19 --to kueue-0.20 -o sarif " + fixture("v1beta1-queues.yaml"));
    CHECK(sarif.exit == 1);
    CHECK(sarif.out.find("upgrade.breaking") != std::string::npos);
    auto json = qf_test::run_cli("upgrade-check --from kueue-0.20 --to kueue-0.19 -o json " + fixture("concurrent-20-flavors.yaml"));
    CHECK(json.exit == 1);
    CHECK(nlohmann::json::parse(json.out)["direction"] == "downgrade");
    // Usage errors: an unknown target, a missing flag, an unknown format.
    auto unknown = qf_test::run_cli("upgrade-check --from rhoai-3.1 --to rhoai-3.5 " + fixture("default-queue.yaml"));
    CHECK(unknown.exit == 2);
    CHECK(unknown.err.find("--from: OpenShift AI 3.1 was never released") != std::string::npos);
    CHECK(qf_test::run_cli("upgrade-check --to rhoai-3.5 " + fixture("default-queue.yaml")).exit == 2);
    CHECK(qf_test::run_cli("upgrade-check --from rhoai-3.4 --to rhoai-3.5 -o yaml " + fixture("default-queue.yaml")).exit == 2);
    // A broken file is a positioned error, not a crash.
    qf_test::TempDir tmp;
    qf_test::write_text(tmp.path / "bad.yaml", "apiVersion: v1\nkind: [\n");
    auto bad = qf_test::run_cli("upgrade-check --from kueue-0.19 --to kueue-0.20 " + qf_test::shell_quote((tmp.path / "bad.yaml").string()));
    CHECK(bad.exit == 1);
    CHECK(bad.err.find("bad.yaml:") != std::string::npos);
}

TEST_CASE("upgrade-check: OpenShift AI 3.0 refuses the embedded Kueue", "[upgrade]") {
    // A hand-written DataScienceCluster keeps kueue Managed: it breaks.
    auto written = run("tests/fixtures/upgrade/dsc-managed.yaml", "rhoai-2.25", "rhoai-3.0");
    const auto* states = change(written, "dsc-kueue-states");
    REQUIRE(states);
    CHECK(states->severity == Severity::Error);
    REQUIRE(states->subjects.size() == 1);
    CHECK(states->subjects[0].what == "DataScienceCluster default-dsc (kueue Managed)");
    CHECK(written.breaks());
    // A site's DataScienceCluster is rendered for 3.0 (Unmanaged): it does
    // not break, but the Red Hat build of Kueue must be installed first.
    auto site = run("examples/multi-team", "rhoai-2.25", "rhoai-3.0");
    INFO(upgrade::render_text(site));
    REQUIRE(change(site, "dsc-kueue-states"));
    CHECK(change(site, "dsc-kueue-states")->subjects.empty());
    const auto* provider = change(site, "kueue-provider");
    REQUIRE(provider);
    CHECK(provider->severity == Severity::Warning);
    CHECK_FALSE(provider->subjects.empty());
    CHECK_FALSE(site.breaks());
    // Back from 3.0 to 2.25 the same site loses nothing it uses.
    CHECK_FALSE(run("examples/multi-team", "rhoai-3.0", "rhoai-2.25").breaks());
}

TEST_CASE("upgrade-check: a downgrade breaks hand-written objects, not what a site re-renders", "[upgrade]") {
    // The site's Cohorts are v1beta2 on 3.5 and rendered as v1beta1 for 3.4.
    auto site = run("examples/rhoai-3", "rhoai-3.5", "rhoai-3.4");
    CHECK_FALSE(site.upgrade);
    const auto* cohorts = change(site, "cohort-api");
    REQUIRE(cohorts);
    CHECK(cohorts->severity == Severity::Error);
    CHECK(cohorts->subjects.empty());
    CHECK_FALSE(site.breaks());
}

TEST_CASE("upgrade-check: notes that concern the repository are upgrade.change findings, bad targets upgrade.target", "[upgrade]") {
    auto r = run("examples/rhoai-3", "rhoai-3.4", "rhoai-3.5");
    auto f = upgrade::as_findings(r);
    std::size_t notes = 0;
    for (const auto& d : f.all()) {
        if (d.rule != "upgrade.change") continue;
        ++notes;
        CHECK(d.severity == Severity::Note);
        CHECK(d.message.find("source: ") != std::string::npos);  // every change names its release note
        CHECK_FALSE(d.file.empty());
    }
    CHECK(notes > 0);
    CHECK_FALSE(r.breaks());

    Diagnostics diags;
    auto bad = upgrade::check({.paths = {(source_dir() / "examples/rhoai-3").string()}, .from = "rhoai-9.9", .to = "rhoai-3.5"}, diags);
    CHECK_FALSE(bad);
    CHECK(qf_test::has_rule(diags, "upgrade.target"));
}
