// The gate: rule configuration (.queueforge.yaml, --disable/--enable),
// suppression annotations and site ignore lists, the rule catalogue and
// docs/rules.md, and cross-object references into kinds the input lacks.
#include "test_util.hpp"

#include <queueforge/checks/gate.hpp>
#include <queueforge/frontend/manifests.hpp>
#include <queueforge/checks/rule_catalogue.hpp>
#include <queueforge/checks/validate.hpp>

#include <catch2/catch.hpp>

#include <regex>
#include <set>

using namespace queueforge;

namespace {

Diagnostic finding(std::string rule, std::string file, int line, Severity s = Severity::Error) {
    Diagnostic d;
    d.severity = s;
    d.file = std::move(file);
    d.mark = {line, 3};
    d.rule = std::move(rule);
    d.message = "m";
    return d;
}

std::vector<std::string> rules_of(const Diagnostics& d) {
    std::vector<std::string> out;
    for (const auto& x : d.all()) out.push_back(x.rule);
    return out;
}

const Diagnostic* find_rule(const Diagnostics& d, const std::string& rule) {
    for (const auto& x : d.all())
        if (x.rule == rule) return &x;
    return nullptr;
}

gate::Gate gate_with(const std::string& config_text, qf_test::TempDir& tmp, gate::Options opts = {}) {
    const auto path = tmp.path / ".queueforge.yaml";
    qf_test::write_text(path, config_text);
    opts.config_path = path.string();
    Diagnostics d;
    auto g = gate::load_gate(opts, d, nullptr);
    INFO(qf_test::messages(d));
    REQUIRE(g);
    REQUIRE(d.count(Severity::Error) == 0);
    return *g;
}

}  // namespace

TEST_CASE("gate: path globs", "[gate]") {
    using gate::glob_match;
    CHECK(glob_match("clusters/dev/**", "clusters/dev/site.yaml"));
    CHECK(glob_match("clusters/dev/**", "clusters/dev/jobs/a.yaml"));
    CHECK_FALSE(glob_match("clusters/dev/**", "clusters/prod/site.yaml"));
    CHECK(glob_match("clusters/*/jobs/*.yaml", "clusters/dev/jobs/a.yaml"));
    CHECK_FALSE(glob_match("clusters/*/jobs/*.yaml", "clusters/dev/x/jobs/a.yaml"));
    CHECK(glob_match("**/jobs/*.yaml", "a/b/c/jobs/x.yaml"));
    CHECK(glob_match("**/jobs/*.yaml", "jobs/x.yaml"));
    CHECK(glob_match("*.job.yaml", "deep/in/tree/train.job.yaml"));  // no slash: any depth
    CHECK_FALSE(glob_match("*.job.yaml", "deep/in/tree/train.yaml"));
    CHECK(glob_match("tenant/", "tenant/queues/lq.yaml"));
    CHECK(glob_match("./clusters/dev/site.yaml", "clusters/dev/site.yaml"));
    CHECK(glob_match("site-?.yaml", "site-a.yaml"));
    CHECK_FALSE(glob_match("site-?.yaml", "site-ab.yaml"));
    // Pathological patterns stay fast (dynamic programming, not backtracking).
    std::string pat, path;
    for (int i = 0; i < 200; ++i) pat += "**/";
    pat += "x";
    for (int i = 0; i < 200; ++i) path += "a/";
    path += "y";
    CHECK_FALSE(glob_match(pat, path));
}

TEST_CASE("gate: config file levels, per-path overrides and the command line", "[gate]") {
    qf_test::TempDir tmp;
    auto g = gate_with(R"(rules:
  xref.missing-clusterqueue: off
  V24: warning
  sim.never-admitted: note
overrides:
  - files: ["clusters/dev/**"]
    rules:
      sim.never-admitted: "off"
      V24: error
)",
                       tmp);
    const std::string prod = (tmp.path / "clusters/prod/site.yaml").string();
    const std::string dev = (tmp.path / "clusters/dev/site.yaml").string();
    Diagnostics d;
    d.add(finding("xref.missing-clusterqueue", prod, 1));
    d.add(finding("V24", prod, 2));
    d.add(finding("V24", dev, 2));
    d.add(finding("sim.never-admitted", prod, 3));
    d.add(finding("sim.never-admitted", dev, 3));
    d.add(finding("V10", prod, 4));  // not configured: unchanged
    gate::apply(g, {}, d);
    INFO(qf_test::messages(d));
    REQUIRE(d.all().size() == 4);
    CHECK(d.all()[0].rule == "V24");
    CHECK(d.all()[0].file == prod);
    CHECK(d.all()[0].severity == Severity::Warning);
    CHECK(d.all()[1].file == dev);
    CHECK(d.all()[1].severity == Severity::Error);  // the override wins
    CHECK(d.all()[2].rule == "sim.never-admitted");
    CHECK(d.all()[2].severity == Severity::Note);
    CHECK(d.all()[3].rule == "V10");
    CHECK(d.all()[3].severity == Severity::Error);

    // --disable turns any rule off; --enable brings back the default severity
    // over the file's `off`.
    qf_test::TempDir tmp2;
    auto g2 = gate_with("rules:\n  xref.missing-clusterqueue: off\n", tmp2,
                        {.disable = {"V24"}, .enable = {"xref.missing-clusterqueue"}});
    Diagnostics d2;
    d2.add(finding("xref.missing-clusterqueue", prod, 1, Severity::Note));
    d2.add(finding("V24", prod, 2));
    gate::apply(g2, {}, d2);
    REQUIRE(d2.all().size() == 1);
    CHECK(d2.all()[0].rule == "xref.missing-clusterqueue");
    CHECK(d2.all()[0].severity == Severity::Error);  // its catalogued default
}

TEST_CASE("gate: a broken config file stops the run with positioned errors", "[gate]") {
    qf_test::TempDir tmp;
    const auto path = tmp.path / ".queueforge.yaml";
    qf_test::write_text(path, "rules:\n  V24: loud\nrulez: {}\noverrides:\n  - rules: {V24: note}\n");
    Diagnostics d;
    auto g = gate::load_gate({.config_path = path.string()}, d, nullptr);
    INFO(qf_test::messages(d));
    CHECK_FALSE(g);
    const Diagnostic* level = find_rule(d, "config.invalid");
    REQUIRE(level);
    CHECK(level->mark.line == 2);
    const Diagnostic* field = find_rule(d, "config.unknown-field");
    REQUIRE(field);
    CHECK(field->message.find("did you mean \"rules\"") != std::string::npos);
    // An override without files.
    bool no_files = false;
    for (const auto& x : d.all()) no_files |= x.message.find("`files`") != std::string::npos;
    CHECK(no_files);
    // A config path that cannot be read is an I/O error.
    Diagnostics d2;
    bool io = false;
    CHECK_FALSE(gate::load_gate({.config_path = (tmp.path / "missing.yaml").string()}, d2, nullptr, &io));
    CHECK(io);
}

TEST_CASE("gate: the nearest .queueforge.yaml, not past the repository root", "[gate]") {
    qf_test::TempDir tmp;
    qf_test::write_text(tmp.path / "repo/.queueforge.yaml", "rules: {}\n");
    std::filesystem::create_directories(tmp.path / "repo/.git");
    std::filesystem::create_directories(tmp.path / "repo/clusters/prod");
    auto found = gate::find_config((tmp.path / "repo/clusters/prod").string());
    REQUIRE(found);
    CHECK(std::filesystem::weakly_canonical(std::filesystem::absolute(*found)) ==
          std::filesystem::weakly_canonical(tmp.path / "repo/.queueforge.yaml"));
    // A config above the repository root is not used.
    qf_test::write_text(tmp.path / ".queueforge.yaml", "rules: {}\n");
    std::filesystem::create_directories(tmp.path / "other/.git");
    CHECK_FALSE(gate::find_config((tmp.path / "other").string()));
    // Nor one above a confinement root (generate: the Application's folder).
    CHECK(gate::find_config((tmp.path / "repo/clusters/prod").string()));
    CHECK_FALSE(gate::find_config((tmp.path / "repo/clusters/prod").string(), (tmp.path / "repo/clusters/prod/.").string()));
}

TEST_CASE("gate: unknown rule ids are warnings with a suggestion", "[gate]") {
    qf_test::TempDir tmp;
    auto g = gate_with("rules:\n  xref.missing-flavour: off\n", tmp, {.disable = {"V244"}});
    Diagnostics d;
    d.add(finding("xref.missing-flavor", "a.yaml", 1));
    gate::apply(g, {}, d);
    INFO(qf_test::messages(d));
    std::vector<const Diagnostic*> unknown;
    for (const auto& x : d.all())
        if (x.rule == "config.unknown-rule") unknown.push_back(&x);
    REQUIRE(unknown.size() == 2);
    bool flavour = false;
    for (auto* u : unknown) flavour |= u->message.find("did you mean \"xref.missing-flavor\"") != std::string::npos;
    CHECK(flavour);
    // The typo changed nothing: the finding is still an error.
    CHECK(find_rule(d, "xref.missing-flavor")->severity == Severity::Error);
    // Ids of policies loaded from --policy are known.
    auto g2 = gate_with("rules:\n  my-org-policy: warning\n", tmp);
    g2.extra_ids = {"my-org-policy"};
    Diagnostics d2;
    gate::apply(g2, {}, d2);
    CHECK(d2.empty());
}

TEST_CASE("gate: queueforge.io/ignore on an object suppresses its findings, with a note", "[gate]") {
    const std::string text = R"(apiVersion: kueue.x-k8s.io/v1beta1
kind: LocalQueue
metadata:
  name: lq
  namespace: team-a
  annotations:
    queueforge.io/ignore: "xref.missing-clusterqueue, V99"
spec:
  clusterQueue: nowhere
---
apiVersion: kueue.x-k8s.io/v1beta1
kind: LocalQueue
metadata:
  name: lq2
  namespace: team-a
spec:
  clusterQueue: nowhere
---
apiVersion: kueue.x-k8s.io/v1beta1
kind: ClusterQueue
metadata:
  name: somewhere
spec:
  namespaceSelector: {}
)";
    LoadedResources in;
    Diagnostics d;
    load_resources_from_text("q.yaml", text, in, d);
    validate_all(in, {}, d);
    REQUIRE(d.count(Severity::Error) == 2);  // both LocalQueues name a missing ClusterQueue
    gate::Gate g;
    gate::apply(g, in.sources, d);
    INFO(qf_test::messages(d));
    CHECK(d.count(Severity::Error) == 1);
    const Diagnostic* left = find_rule(d, "xref.missing-clusterqueue");
    REQUIRE(left);
    CHECK(left->object.name == "lq2");
    const Diagnostic* note = find_rule(d, "gate.suppressed");
    REQUIRE(note);
    CHECK(note->severity == Severity::Note);
    CHECK(note->mark.line == 7);
    CHECK(note->message == "LocalQueue/team-a/lq: 1 finding suppressed by queueforge.io/ignore: xref.missing-clusterqueue");
    // V99 names no rule.
    const Diagnostic* unknown = find_rule(d, "config.unknown-rule");
    REQUIRE(unknown);
    CHECK(unknown->mark.line == 7);
}

TEST_CASE("gate: in a List the first annotation that covers a finding counts it: the List before its items", "[gate]") {
    const std::string text = R"(apiVersion: v1
kind: List
metadata:
  annotations:
    queueforge.io/ignore: V24
items:
- apiVersion: kueue.x-k8s.io/v1beta1
  kind: LocalQueue
  metadata:
    name: a
    namespace: t
    annotations:
      queueforge.io/ignore: "V24, V25"
  spec:
    clusterQueue: x
- apiVersion: kueue.x-k8s.io/v1beta1
  kind: LocalQueue
  metadata:
    name: b
    namespace: t
  spec:
    clusterQueue: x
---
apiVersion: kueue.x-k8s.io/v1beta1
kind: LocalQueue
metadata:
  name: c
  namespace: t
spec:
  clusterQueue: x
)";
    Diagnostics d;
    d.add(finding("V24", "l.yaml", 15));  // inside item a: the List's annotation comes first
    d.add(finding("V25", "l.yaml", 15));  // only item a names V25
    d.add(finding("V25", "l.yaml", 22));  // item b: nothing names V25 for it
    d.add(finding("V24", "l.yaml", 22));  // item b, inside the List
    d.add(finding("V24", "l.yaml", 30));  // the next document: not covered
    Diagnostic by_object = finding("V25", "l.yaml", 40);  // outside every span, but names item a
    by_object.object = {"kueue.x-k8s.io/v1beta1", "LocalQueue", "t", "a"};
    d.add(by_object);
    gate::Gate g;
    gate::apply(g, {{"l.yaml", text}}, d);
    INFO(qf_test::messages(d));
    std::vector<std::string> left;
    for (const auto& x : d.all())
        if (x.rule != "gate.suppressed") left.push_back(x.rule + "@" + std::to_string(x.mark.line));
    CHECK(left == std::vector<std::string>{"V25@22", "V24@30"});
    std::vector<std::string> notes;
    for (const auto& x : d.all())
        if (x.rule == "gate.suppressed") notes.push_back(x.message);
    CHECK(notes == std::vector<std::string>{
                       "List: 2 findings suppressed by queueforge.io/ignore: V24 (2)",
                       "LocalQueue/t/a: 2 findings suppressed by queueforge.io/ignore: V25 (2)",
                   });
}

TEST_CASE("gate: thousands of annotated objects each suppress exactly their own finding", "[gate]") {
    std::string text;
    Diagnostics d;
    const int n = 5000;
    for (int i = 0; i < n; ++i) {
        const int first = i * 9 + 1;  // the object's "---"
        text += "---\napiVersion: kueue.x-k8s.io/v1beta1\nkind: LocalQueue\nmetadata:\n  name: q" + std::to_string(i) +
                "\n  namespace: t\n  annotations:\n    queueforge.io/ignore: V24\nspec: {clusterQueue: x}\n";
        // One finding inside each object (line first + 8 is its spec), one
        // for every tenth object at its name by object only.
        d.add(finding("V24", "m.yaml", first + 8));
        if (i % 10 == 0) {
            Diagnostic o = finding("V24", "m.yaml", 0);
            o.mark = {};
            o.object = {"kueue.x-k8s.io/v1beta1", "LocalQueue", "t", "q" + std::to_string(i)};
            d.add(o);
        }
    }
    d.add(finding("V25", "m.yaml", 9));  // a rule no annotation names
    gate::Gate g;
    gate::apply(g, {{"m.yaml", text}}, d);
    std::size_t notes = 0, twice = 0, other = 0;
    for (const auto& x : d.all()) {
        if (x.rule == "gate.suppressed") {
            ++notes;
            twice += x.message.find(": 2 findings suppressed") != std::string::npos;
        } else {
            ++other;
            CHECK(x.rule == "V25");
        }
    }
    CHECK(notes == n);
    CHECK(twice == n / 10);
    CHECK(other == 1);
}

TEST_CASE("gate: a site team's or pool's ignore list suppresses the findings inside it", "[gate]") {
    const std::string site = R"(apiVersion: queueforge.io/v1alpha1
kind: Site
metadata:
  name: s
spec:
  target: kueue-0.13
  pools:
    - name: gpu
      ignore: [sim.never-admitted]
  teams:
    - name: a
      namespaces: [a]
      ignore: "V24,sim.never-admitted"
      quota:
        - pool: gpu
          nominal: {cpu: 1}
    - name: b
      namespaces: [b]
      quota:
        - pool: gpu
          nominal: {cpu: 1}
)";
    Diagnostics parsed;
    CHECK_FALSE(qf_test::build_text(site, parsed).empty());  // `ignore` is a known field
    INFO(qf_test::messages(parsed));
    CHECK_FALSE(qf_test::has_rule(parsed, "site.unknown-field"));
    Diagnostics d;
    d.add(finding("V24", "site.yaml", 15));                // inside team a
    d.add(finding("V24", "site.yaml", 20));                // inside team b
    d.add(finding("sim.never-admitted", "site.yaml", 9));  // pool gpu
    gate::Gate g;
    gate::apply(g, {{"site.yaml", site}}, d);
    INFO(qf_test::messages(d));
    const auto rules = rules_of(d);
    CHECK(std::count(rules.begin(), rules.end(), "V24") == 1);
    CHECK(find_rule(d, "V24")->mark.line == 20);
    CHECK(std::count(rules.begin(), rules.end(), "gate.suppressed") == 2);
    CHECK(std::count(rules.begin(), rules.end(), "sim.never-admitted") == 0);
}

TEST_CASE("gate: a reference into a kind the input lacks is a note, a typo among present ones an error", "[gate][rules]") {
    const std::string tenant = R"(apiVersion: kueue.x-k8s.io/v1beta1
kind: LocalQueue
metadata: {name: team-a-queue, namespace: team-a}
spec: {clusterQueue: team-a}
)";
    LoadedResources in;
    Diagnostics d;
    load_resources_from_text("tenant.yaml", tenant, in, d);
    validate_all(in, {}, d);
    INFO(qf_test::messages(d));
    CHECK_FALSE(d.has_errors());
    const Diagnostic* n = find_rule(d, "xref.missing-clusterqueue");
    REQUIRE(n);
    CHECK(n->severity == Severity::Note);

    const std::string with_cq = tenant + R"(---
apiVersion: kueue.x-k8s.io/v1beta1
kind: ClusterQueue
metadata: {name: team-b}
spec:
  namespaceSelector: {}
  resourceGroups:
  - coveredResources: [cpu]
    flavors:
    - name: default-flavor
      resources: [{name: cpu, nominalQuota: 1}]
)";
    LoadedResources in2;
    Diagnostics d2;
    load_resources_from_text("all.yaml", with_cq, in2, d2);
    validate_all(in2, {}, d2);
    INFO(qf_test::messages(d2));
    const Diagnostic* e = find_rule(d2, "xref.missing-clusterqueue");
    REQUIRE(e);
    CHECK(e->severity == Severity::Error);
    // The flavor is missing and no ResourceFlavor is in the input: a note.
    const Diagnostic* f = find_rule(d2, "xref.missing-flavor");
    REQUIRE(f);
    CHECK(f->severity == Severity::Note);
}

TEST_CASE("rules catalogue: loads cleanly, each id once, with summary, origin and examples", "[gate][catalogue]") {
    Diagnostics d;
    const auto c = rules::load_catalogue(d);
    INFO(qf_test::messages(d));
    CHECK(d.empty());
    REQUIRE(c.all().size() > 100);
    std::set<std::string> ids;
    for (const auto& r : c.all()) {
        INFO(r.id);
        CHECK(ids.insert(r.id).second);
        CHECK_FALSE(r.summary.empty());
        CHECK_FALSE(r.origin.empty());
        CHECK_FALSE(r.description.empty());
        if (r.origin != "policy") {
            CHECK_FALSE(r.bad.empty());
            CHECK_FALSE(r.good.empty());
        }
    }
    // The built-in policies are rules too.
    const auto* p = c.find("default-local-queue");
    REQUIRE(p);
    CHECK(p->origin == "policy");
    CHECK(p->severity == Severity::Warning);
    CHECK(c.suggest("xref.missing-flavour") == "xref.missing-flavor");
}

// Every rule id the code can report is catalogued: the ids are read from the
// sources (string literals in the positions the diagnostics API takes them).
TEST_CASE("rules catalogue: every rule id used in compiler/ and cmd/ is catalogued", "[gate][catalogue]") {
    Diagnostics d;
    const auto c = rules::load_catalogue(d);
    // A rule id literal: "family.name" or "V<n>", passed as the last argument
    // of error/warning/note/add calls, or assigned to `.rule`.
    const std::regex call(R"re((?:error|warning|note)\((?:[^;]|\n)*?"((?:[a-z]+\.[a-z0-9.-]+)|V[0-9]+)"\s*\)\s*;)re");
    const std::regex assign(R"re(rule\s*=\s*"((?:[a-z]+\.[a-z0-9.-]+)|V[0-9]+)")re");
    std::set<std::string> missing;
    std::size_t seen = 0;
    for (const char* dir : {"compiler", "cmd"}) {
        for (const auto& e : std::filesystem::recursive_directory_iterator(qf_test::source_dir() / dir)) {
            if (e.path().extension() != ".cpp" && e.path().extension() != ".hpp") continue;
            const std::string text = qf_test::read_text(e.path());
            for (const auto* re : {&call, &assign})
                for (std::sregex_iterator it(text.begin(), text.end(), *re), end; it != end; ++it) {
                    ++seen;
                    const std::string id = (*it)[1];
                    if (!c.find(id)) missing.insert(id + " (" + e.path().filename().string() + ")");
                }
        }
    }
    CHECK(seen > 100);
    std::string list;
    for (const auto& m : missing) list += m + "\n";
    INFO("not catalogued:\n" << list);
    CHECK(missing.empty());
}

TEST_CASE("rules catalogue: docs/rules.md is the current rendering", "[gate][catalogue]") {
    Diagnostics d;
    const auto c = rules::load_catalogue(d);
    const std::string expected = rules::render_rules_markdown(c);
    const std::string actual = qf_test::read_text(qf_test::source_dir() / "docs/rules.md");
    INFO("regenerate with: ./build/queueforge rules --markdown > docs/rules.md");
    CHECK(actual == expected);
    // Every rule has an anchor the SARIF helpUri points at.
    for (const auto& r : c.all()) {
        INFO(r.id);
        CHECK(actual.find("<a id=\"" + rules::rule_anchor(r.id) + "\"></a>") != std::string::npos);
    }
}

TEST_CASE("gate: validate lets go of the texts no one reads but the gate's and a Kueue ConfigMap's", "[gate]") {
    LoadedResources in;
    Diagnostics diags;
    const std::string plain = "apiVersion: kueue.x-k8s.io/v1beta1\nkind: ResourceFlavor\nmetadata: {name: a}\n";
    const std::string annotated =
        "apiVersion: kueue.x-k8s.io/v1beta1\nkind: ResourceFlavor\nmetadata:\n  name: b\n"
        "  annotations: {queueforge.io/ignore: xref.unused-flavor}\n";
    const std::string config_map = "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: kueue-manager-config, namespace: kueue-system}\n"
                                   "data: {controller_manager_config.yaml: \"kind: Configuration\"}\n";
    load_resources_from_text("plain.yaml", plain, in, diags);
    load_resources_from_text("annotated.yaml", annotated, in, diags);
    load_resources_from_text("config.yaml", config_map, in, diags);
    REQUIRE(in.sources.size() == 3);
    release_unread_sources(in);
    CHECK(in.sources[0].path == "plain.yaml");
    CHECK(in.sources[0].text.empty());
    CHECK(in.sources[1].text == annotated);
    CHECK(in.sources[2].text == config_map);
    CHECK(in.resources.size() == 3);
    CHECK(gate::may_hold_suppressions("ignore: [x]\napiVersion: queueforge.io/v1alpha1"));
    CHECK_FALSE(gate::may_hold_suppressions(plain));
}

TEST_CASE("gate: text and SARIF reports read a set-aside file again only while it is the text checked", "[gate]") {
    qf_test::TempDir dir;
    const std::string plain = "apiVersion: kueue.x-k8s.io/v1beta1\nkind: ResourceFlavor\nmetadata: {name: a}\n";
    const std::string annotated =
        "apiVersion: kueue.x-k8s.io/v1beta1\nkind: ResourceFlavor\nmetadata:\n  name: b\n"
        "  annotations: {queueforge.io/ignore: xref.unused-flavor}\n";
    qf_test::write_text(dir.path / "a.yaml", plain);
    qf_test::write_text(dir.path / "b.yaml", annotated);
    qf_test::write_text(dir.path / "c.yaml", plain + "---\n" + plain);
    Diagnostics diags;
    LoadedResources in = load_resources({dir.path.string()}, diags);
    load_resources_from_text("<stdin>", plain, in, diags);  // not from a file: kept
    REQUIRE(in.sources.size() == 4);
    for (int i = 0; i < 3; ++i) CHECK(in.sources[i].from_file);
    CHECK_FALSE(in.sources[3].from_file);
    set_sources_aside(in);
    CHECK(in.sources[0].text.empty());
    CHECK(in.sources[0].set_aside);
    CHECK(in.sources[1].text == annotated);  // the gate reads it
    CHECK_FALSE(in.sources[1].set_aside);
    CHECK(in.sources[2].text.empty());
    CHECK(in.sources[3].text == plain);
    CHECK_FALSE(in.sources[3].set_aside);

    SECTION("unchanged: the texts come back") {
        restore_sources(in.sources);
        CHECK(in.sources[0].text == plain);
        CHECK(in.sources[2].text == plain + "---\n" + plain);
    }
    SECTION("changed or gone since: no text, not another file's") {
        qf_test::write_text(dir.path / "a.yaml", "apiVersion: v1\nkind: Namespace\nmetadata: {name: x}\n");
        std::filesystem::remove(dir.path / "c.yaml");
        restore_sources(in.sources);
        CHECK(in.sources[0].text.empty());
        CHECK(in.sources[2].text.empty());
    }
    CHECK_FALSE(in.sources[0].set_aside);
    CHECK_FALSE(in.sources[2].set_aside);
}
