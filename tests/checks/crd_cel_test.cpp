// x-kubernetes-validations evaluated by `validate --crd`: the semantics of
// the API server on create (self per schema node, escaping, metadata view,
// defaults, transition rules, messageExpression, reason, fieldPath, cost),
// against hand-written schemas, the fixture CRD in tests/fixtures/crd-cel
// and the real Kueue / KubeRay / JobSet / DataScienceCluster CRDs with
// their upstream samples from ../shared (skipped when absent).
#include <catch2/catch.hpp>

#include "test_util.hpp"

#include "checks/openapi/cel_validation.hpp"

#include <queueforge/checks/openapi.hpp>
#include <queueforge/frontend/manifests.hpp>
#include <queueforge/base/yaml_load.hpp>

#include <filesystem>

namespace fs = std::filesystem;
namespace oa = queueforge::openapi;
using namespace queueforge;
using qf_test::run_cli;
using qf_test::shell_quote;

namespace {

std::shared_ptr<const oa::Schema> schema_of(const std::string& text) {
    Diagnostics d;
    auto docs = load_yaml("schema.yaml", text, d);
    REQUIRE(docs.size() == 1);
    auto s = oa::compile(docs.front().root, "schema.yaml", d);
    INFO(qf_test::messages(d));
    REQUIRE(s);
    return s;
}

Node doc_of(const std::string& text) {
    Diagnostics d;
    auto docs = load_yaml("obj.yaml", text, d);
    REQUIRE(docs.size() == 1);
    return docs.front().root;
}

// Only the CEL findings of `text` against `s`.
Diagnostics run_cel(const oa::Schema& s, const std::string& text, oa::CelOptions opts = {}) {
    Diagnostics d;
    oa::validate_cel(s, doc_of(text), "obj.yaml", ObjectRef{"example.io/v1", "Thing", "", "x"}, d, opts);
    return d;
}

std::string where(const Diagnostic& d) {
    return d.file + ":" + std::to_string(d.mark.line) + ":" + std::to_string(d.mark.col);
}

const fs::path kFixtures = qf_test::source_dir() / "tests/fixtures/crd-cel";

}  // namespace

TEST_CASE("crd cel: property names are escaped as Kubernetes escapes them", "[crdcel]") {
    CHECK(oa::cel_escape("minReplicas") == "minReplicas");
    CHECK(oa::cel_escape("owner-team") == "owner__dash__team");
    CHECK(oa::cel_escape("a.b/c") == "a__dot__b__slash__c");
    CHECK(oa::cel_escape("x__y") == "x__underscores__y");
    CHECK(oa::cel_escape("namespace") == "__namespace__");
    CHECK(oa::cel_escape("if") == "__if__");
    CHECK(oa::cel_escape("_private") == "_private");
    CHECK_FALSE(oa::cel_escape(""));
    CHECK_FALSE(oa::cel_escape("1st"));
    CHECK_FALSE(oa::cel_escape("with space"));

    auto s = schema_of(R"Y(
type: object
properties:
  spec:
    type: object
    x-kubernetes-validations:
    - rule: self.owner__dash__team == 'a' && self.__namespace__ == 'b' && self.x__underscores__y == 'c'
      message: escaped names
    properties:
      owner-team: {type: string}
      namespace: {type: string}
      x__y: {type: string}
)Y");
    CHECK(run_cel(*s, "spec: {owner-team: a, namespace: b, x__y: c}").empty());
    CHECK(run_cel(*s, "spec: {owner-team: a, namespace: z, x__y: c}").count(Severity::Error) == 1);
}

TEST_CASE("crd cel: each rule sees the value of its node, with path and position", "[crdcel]") {
    auto s = schema_of(R"Y(
type: object
properties:
  spec:
    type: object
    properties:
      groups:
        type: array
        items:
          type: object
          x-kubernetes-validations:
          - rule: size(self.members) <= self.max
            message: too many members
          properties:
            max: {type: integer}
            members: {type: array, items: {type: string}}
      limits:
        type: object
        additionalProperties:
          type: integer
          x-kubernetes-validations:
          - rule: self >= 0
            message: limits are not negative
)Y");
    auto d = run_cel(*s, R"Y(spec:
  groups:
  - {max: 2, members: [a, b]}
  - max: 1
    members: [a, b]
  limits:
    cpu: 1
    gpu: -1
)Y");
    INFO(qf_test::messages(d));
    REQUIRE(d.all().size() == 2);
    const auto& g = d.all()[0];
    CHECK(g.message == "spec.groups[1]: Invalid value: \"object\": too many members");
    CHECK(g.rule == "schema.cel");
    CHECK(g.severity == Severity::Error);
    CHECK(g.path == "spec.groups[1]");
    CHECK(where(g) == "obj.yaml:4:5");
    CHECK(g.object.kind == "Thing");
    const auto& l = d.all()[1];
    // Map values are addressed as field.Path.Key prints them.
    CHECK(l.message == "spec.limits[gpu]: Invalid value: \"integer\": limits are not negative");
    CHECK(where(l) == "obj.yaml:8:10");
}

TEST_CASE("crd cel: the root sees apiVersion, kind and only name and generateName of metadata", "[crdcel]") {
    auto s = schema_of(R"Y(
type: object
x-kubernetes-validations:
- rule: self.kind == 'Thing' && self.apiVersion == 'example.io/v1' && self.metadata.name == 'x'
  message: identity
- rule: "!has(self.metadata.labels) && !has(self.metadata.namespace) && !has(self.status)"
  message: hidden fields
- rule: has(self.metadata.generateName) || self.metadata.name != 'why'
  message: why needs generateName
properties:
  metadata: {type: object}
  spec:
    type: object
    properties:
      template:
        type: object
        x-kubernetes-embedded-resource: true
        x-kubernetes-preserve-unknown-fields: true
        x-kubernetes-validations:
        - rule: self.kind == 'Pod' && self.metadata.name == 'p' && !has(self.metadata.labels) && !has(self.spec)
          message: embedded resources get the same view
)Y");
    auto ok = run_cel(*s, R"Y(apiVersion: example.io/v1
kind: Thing
metadata: {name: x, namespace: ns, labels: {a: b}}
spec:
  template: {apiVersion: v1, kind: Pod, metadata: {name: p, labels: {a: b}}, spec: {x: 1}}
status: {phase: Ready}
)Y");
    INFO(qf_test::messages(ok));
    CHECK(ok.empty());
    auto bad = run_cel(*s, "apiVersion: example.io/v1\nkind: Thing\nmetadata: {name: why}\n");
    REQUIRE(bad.all().size() == 2);
    // The root's path is nil for the API server.
    CHECK(bad.all()[0].message == "<nil>: Invalid value: \"object\": identity");
    CHECK(bad.all()[1].message == "<nil>: Invalid value: \"object\": why needs generateName");
    CHECK(where(bad.all()[0]) == "obj.yaml:1:1");
}

TEST_CASE("crd cel: values are typed by the schema and defaulted first", "[crdcel]") {
    auto s = schema_of(R"Y(
type: object
properties:
  spec:
    type: object
    x-kubernetes-validations:
    - rule: type(self.ratio) == double && type(self.count) == int && self.mode == 'Auto'
      message: typed and defaulted
    - rule: "type(self.size) == (self.size == 'big' ? string : int)"
      message: int-or-string
    - rule: self.since < timestamp('2030-01-01T00:00:00Z') && self.every == duration('90s') && self.blob == b'hi'
      message: formats
    - rule: "!has(self.gone)"
      message: a null field counts as absent
    properties:
      ratio: {type: number}
      count: {type: integer}
      mode: {type: string, default: Auto}
      size: {x-kubernetes-int-or-string: true}
      since: {type: string, format: date-time}
      every: {type: string, format: duration}
      blob: {type: string, format: byte}
      gone: {type: string, nullable: true}
)Y");
    auto d = run_cel(*s, R"Y(spec:
  ratio: 1
  count: 2
  size: big
  since: "2024-05-01T10:00:00Z"
  every: 1m30s
  blob: aGk=
  gone: null
)Y");
    INFO(qf_test::messages(d));
    CHECK(d.empty());
    CHECK(run_cel(*s, "spec: {ratio: 1, count: 2, size: 3, since: '2024-05-01T10:00:00Z', every: 90s, blob: aGk=}").empty());
    auto bad = run_cel(*s, "spec: {ratio: 1, count: 2, size: 3, since: '2024-05-01T10:00:00Z', every: 2m, blob: aGk=, mode: Manual}");
    INFO(qf_test::messages(bad));
    CHECK(bad.all().size() == 2);
}

TEST_CASE("crd cel: transition rules are skipped on create unless optionalOldSelf", "[crdcel]") {
    auto s = schema_of(R"Y(
type: object
properties:
  spec:
    type: object
    x-kubernetes-validations:
    - rule: self == oldSelf
      message: immutable
    - rule: "!has(oldSelf.topologyName) || self.topologyName == oldSelf.topologyName"
      message: topologyName is immutable
    - rule: "[1, 2].all(oldSelf, oldSelf > 0) && self.a == 'z'"
      message: a comprehension variable named oldSelf is still taken for oldSelf
    - rule: "!oldSelf.hasValue() && self.a == 'x'"
      optionalOldSelf: true
      message: optional oldSelf is none on create
    properties:
      a: {type: string}
      topologyName: {type: string}
)Y");
    oa::CelStats stats;
    auto ok = run_cel(*s, "spec: {a: x, topologyName: t}", {.stats = &stats});
    INFO(qf_test::messages(ok));
    CHECK(ok.empty());
    CHECK(stats.skipped == 3);
    CHECK(stats.evaluated == 1);
    auto bad = run_cel(*s, "spec: {a: y}");
    REQUIRE(bad.all().size() == 1);
    CHECK(bad.all()[0].message == "spec: Invalid value: \"object\": optional oldSelf is none on create");
}

TEST_CASE("crd cel: messageExpression, reason and fieldPath", "[crdcel]") {
    auto s = schema_of(R"Y(
type: object
properties:
  spec:
    type: object
    x-kubernetes-validations:
    - rule: self.min <= self.max
      messageExpression: "'min ' + string(self.min) + ' is above max ' + string(self.max)"
    - rule: self.min != 7
      messageExpression: self.nope
      message: seven is out
    - rule: self.min != 8
      messageExpression: "42"
    - rule: self.min != 9
      messageExpression: "'  '"
    - rule: "!has(self.legacy)"
      message: legacy is gone
      reason: FieldValueForbidden
      fieldPath: .legacy
    - rule: has(self.owner)
      message: an owner is needed
      reason: FieldValueRequired
      fieldPath: .owner
    - rule: self.min != 3
      message: three is taken
      reason: FieldValueDuplicate
      fieldPath: ".labels['team.io/name']"
    properties:
      min: {type: integer}
      max: {type: integer}
      legacy: {type: boolean}
      owner: {type: string}
      labels: {type: object, additionalProperties: {type: string}}
)Y");
    auto d = run_cel(*s, R"Y(spec:
  min: 5
  max: 4
  legacy: true
)Y");
    INFO(qf_test::messages(d));
    REQUIRE(d.all().size() == 3);
    CHECK(d.all()[0].message == "spec: Invalid value: \"object\": min 5 is above max 4");
    CHECK(where(d.all()[0]) == "obj.yaml:2:3");
    CHECK(d.all()[1].message == "spec.legacy: Forbidden: legacy is gone");
    CHECK(d.all()[1].path == "spec.legacy");
    CHECK(where(d.all()[1]) == "obj.yaml:4:11");
    CHECK(d.all()[2].message == "spec.owner: Required value: an owner is needed");
    CHECK(where(d.all()[2]) == "obj.yaml:2:3");  // absent: the rule's node

    // A messageExpression that errors, is not a string or is blank falls
    // back to the message, then to the rule.
    auto fb = run_cel(*s, "spec: {min: 7, max: 9, owner: o}");
    REQUIRE(fb.all().size() == 1);
    CHECK(fb.all()[0].message == "spec: Invalid value: \"object\": seven is out");
    CHECK(run_cel(*s, "spec: {min: 8, max: 9, owner: o}").all().at(0).message ==
          "spec: Invalid value: \"object\": failed rule: self.min != 8");
    CHECK(run_cel(*s, "spec: {min: 9, max: 9, owner: o}").all().at(0).message ==
          "spec: Invalid value: \"object\": failed rule: self.min != 9");

    auto dup = run_cel(*s, "spec: {min: 3, max: 9, owner: o, labels: {team.io/name: a}}");
    REQUIRE(dup.all().size() == 1);
    CHECK(dup.all()[0].message == "spec.labels[team.io/name]: Duplicate value: \"object\": three is taken");
    CHECK(where(dup.all()[0]) == "obj.yaml:1:57");  // the key's value
}

TEST_CASE("crd cel: evaluation errors are findings with the server's wording", "[crdcel]") {
    auto s = schema_of(R"Y(
type: object
properties:
  spec:
    type: object
    x-kubernetes-validations:
    - rule: self.a > 0
      message: a is positive
    - rule: self.b + 1 > 0
    - rule: self.a
    properties:
      a: {type: integer}
      b: {x-kubernetes-int-or-string: true}
)Y");
    auto d = run_cel(*s, "spec: {b: x}");
    INFO(qf_test::messages(d));
    REQUIRE(d.all().size() == 3);
    CHECK(d.all()[0].message == "spec: Invalid value: \"object\": no such key: 'a' evaluating rule: a is positive");
    CHECK(d.all()[1].message.starts_with("spec: Invalid value: \"object\": 'no such overload"));
    CHECK(d.all()[1].message.ends_with("call arguments did not match a supported operator, function or macro signature for rule: self.b + 1 > 0"));
    CHECK(d.all()[2].message.find("evaluating rule: self.a") != std::string::npos);
    CHECK(run_cel(*s, "spec: {a: 3, b: 1}").all().size() == 1);  // self.a is not a bool
}

TEST_CASE("crd cel: a rule that blows the cost budget stops with a finding", "[crdcel]") {
    auto s = schema_of(R"Y(
type: object
properties:
  spec:
    type: object
    x-kubernetes-validations:
    - rule: self.xs.all(a, self.xs.all(b, self.xs.all(c, a + b + c >= 0)))
      message: cubic
    - rule: size(self.xs) < 1000000
      message: never reached after the budget is gone
    properties:
      xs: {type: array, items: {type: integer}}
)Y");
    std::string xs;
    for (int i = 0; i < 300; ++i) xs += (i ? ", " : "") + std::to_string(i);
    oa::CelStats stats;
    auto d = run_cel(*s, "spec: {xs: [" + xs + "]}", {.stats = &stats});
    INFO(qf_test::messages(d));
    REQUIRE(d.all().size() == 1);
    CHECK(d.all()[0].message ==
          "spec: Invalid value: \"object\": 'cost limit exceeded': no further validation rules will be run due to call "
          "cost exceeds limit for rule: cubic");
    CHECK(stats.evaluated == 1);

    // The budget for the whole object: many cheap rules add up.
    auto many = schema_of(R"Y(
type: object
properties:
  items:
    type: array
    items:
      type: object
      x-kubernetes-validations:
      - rule: self.v.all(x, x >= 0)
        message: non-negative
      properties:
        v: {type: array, items: {type: integer}}
)Y");
    std::string objs;
    for (int i = 0; i < 50; ++i) objs += "- v: [" + xs + "]\n";
    auto b = run_cel(*many, "items:\n" + objs, {.object_cost_budget = 20'000});
    INFO(qf_test::messages(b));
    REQUIRE(b.all().size() == 1);
    CHECK(b.all()[0].message.ends_with(
        "Invalid value: \"object\": validation failed due to running out of cost budget, no further validation rules will be run"));
}

TEST_CASE("crd cel: rules that cannot be used are reported, never crash", "[crdcel]") {
    auto s = schema_of(R"Y(
type: object
properties:
  spec:
    type: object
    x-kubernetes-validations:
    - rule: self.a >
      message: syntax error
    - rule: "  "
    - rule: self.a == 1
      messageExpression: "'unterminated"
      message: a is one
    - rule: self.a == 1
      message: a is one
      fieldPath: .nothere
    - rule: self.a == 1
      message: a is one
      fieldPath: "spec[0]"
    properties:
      a: {type: integer}
)Y");
    auto problems = oa::cel_problems(*s);
    REQUIRE(problems.size() == 5);
    CHECK(problems[0].path == "spec");
    CHECK(problems[0].message.starts_with("does not compile: 1:"));
    CHECK(problems[1].message == "is empty");
    CHECK(problems[2].message.starts_with("has a messageExpression that does not compile"));
    CHECK(problems[3].message.find("does not refer to a valid field") != std::string::npos);
    CHECK(problems[4].message.find("expected [ or . but got: s") != std::string::npos);
    CHECK(problems[0].entry->mark.line == 7);
    // The usable rules still run; the messageExpression and fieldPath fall back.
    auto d = run_cel(*s, "spec: {a: 2}");
    INFO(qf_test::messages(d));
    REQUIRE(d.all().size() == 3);
    for (const auto& x : d.all()) CHECK(x.message == "spec: Invalid value: \"object\": a is one");
    CHECK(run_cel(*s, "spec: {a: 1}").empty());

    // Hostile values: deep nesting, wrong types.
    std::string deep = "spec: {a: 1, b: ";
    for (int i = 0; i < 60; ++i) deep += "[";
    for (int i = 0; i < 60; ++i) deep += "]";
    deep += "}";
    CHECK(run_cel(*s, deep).empty());
    CHECK(run_cel(*s, "spec: [1, 2]").all().size() >= 1);
    CHECK(run_cel(*s, "spec: 5").all().size() >= 1);
}

TEST_CASE("crd cel: structural errors that block CEL on the server", "[crdcel]") {
    auto blocking = [](const char* rule, const char* message) {
        return oa::blocks_cel(Diagnostic{.severity = Severity::Error, .message = message, .rule = rule});
    };
    CHECK(blocking("schema.type", "spec.a: Invalid value: \"string\": spec.a in body must be of type integer: \"string\""));
    CHECK(blocking("schema.required", "spec.a: Required value"));
    CHECK(blocking("schema.enum", "spec.a: Unsupported value: \"x\": supported values: \"y\""));
    CHECK(blocking("schema.length", "spec.a: Too long: may not be more than 3 bytes"));
    CHECK(blocking("schema.items", "spec.a: Too many: 4: must have at most 3 items"));
    CHECK(blocking("schema.metadata", "metadata.name: Required value: name or generateName is required"));
    CHECK_FALSE(blocking("schema.pattern", "spec.a: Invalid value: \"x\": spec.a in body should match '^y$'"));
    CHECK_FALSE(blocking("schema.unknown-field", "unknown field \"spec.b\""));
    CHECK_FALSE(blocking("V24", "spec.a: Required value"));
}

TEST_CASE("crd cel: validate --crd evaluates the fixture CRD's rules", "[crdcel]") {
    const std::string crd = shell_quote((kFixtures / "widgets-crd.yaml").string());
    auto good = run_cli("validate --fail-level note --crd " + crd + " " + shell_quote((kFixtures / "widgets-good.yaml").string()));
    INFO(good.out << good.err);
    // The rule that does not compile is noted once, at the rule in the CRD.
    CHECK(good.exit == 1);
    CHECK(good.out.find("widgets-crd.yaml:44:21: note: the x-kubernetes-validations rule at spec of the Widget CRD does "
                        "not compile: 1:19: Syntax error:") != std::string::npos);
    CHECK(good.out.find("[schema.cel]") == std::string::npos);
    CHECK(run_cli("validate --crd " + crd + " " + shell_quote((kFixtures / "widgets-good.yaml").string())).exit == 0);

    auto bad = run_cli("validate --crd " + crd + " " + shell_quote((kFixtures / "widgets-good.yaml").string()) + " " +
                       shell_quote((kFixtures / "widgets-bad.yaml").string()));
    INFO(bad.out << bad.err);
    CHECK(bad.exit == 1);
    const std::vector<std::string> expected = {
        "widgets-bad.yaml:1:1: error: <nil>: Invalid value: \"object\": the name must start with w- [schema.cel]",
        "widgets-bad.yaml:7:3: error: spec: Invalid value: \"object\": minReplicas (0) must not exceed maxReplicas (-1) [schema.cel]",
        "widgets-bad.yaml:7:3: error: spec: Invalid value: \"object\": the default mode Slow needs replicas [schema.cel]",
        "widgets-bad.yaml:9:11: error: spec.legacy: Forbidden: legacy mode is gone [schema.cel]",
        "widgets-bad.yaml:10:15: error: spec.owner-team: Invalid value: \"object\": owner-team must name a team [schema.cel]",
        "widgets-bad.yaml:11:11: error: spec.window: Invalid value: \"string\": window may be at most an hour [schema.cel]",
        "widgets-bad.yaml:12:10: error: spec.ratio: Invalid value: \"number\": ratio is a double below 1 [schema.cel]",
        "widgets-bad.yaml:15:5: error: spec.ports[1]: Invalid value: \"object\": ports up to 1024 need privileged [schema.cel]",
        "widgets-bad.yaml:17:11: error: spec.selectors[zone]: Invalid value: \"string\": value eu-west-1a-long is longer "
        "than 10 characters [schema.cel]",
    };
    for (const auto& e : expected) CHECK(bad.out.find(e) != std::string::npos);
    std::size_t count = 0;
    for (auto p = bad.out.find("[schema.cel]"); p != std::string::npos; p = bad.out.find("[schema.cel]", p + 1)) ++count;
    CHECK(count == expected.size());
    CHECK(bad.out.find("mode is immutable") == std::string::npos);  // a transition rule
    std::size_t notes = 0;
    for (auto p = bad.out.find("does not compile"); p != std::string::npos; p = bad.out.find("does not compile", p + 1)) ++notes;
    CHECK(notes == 1);

    // A type error keeps the server from running any rule.
    qf_test::TempDir tmp;
    qf_test::write_text(tmp.path / "typo.yaml",
                        "apiVersion: example.queueforge.io/v1\nkind: Widget\nmetadata: {name: bad}\nspec: {minReplicas: many}\n");
    auto typo = run_cli("validate --crd " + crd + " " + shell_quote((tmp.path / "typo.yaml").string()));
    INFO(typo.out);
    CHECK(typo.out.find("[schema.type]") != std::string::npos);
    CHECK(typo.out.find("[schema.cel]") == std::string::npos);
    CHECK(typo.out.find("were not evaluated because the object is invalid") != std::string::npos);
}

// ---- the real CRDs in ../shared/upstream ----

namespace {

std::optional<fs::path> upstream_dir() {
    auto shared = qf_test::shared_dir();
    if (!shared || !fs::exists(*shared / "upstream/kueue/v0.19.2")) return std::nullopt;
    return *shared / "upstream";
}

#define QF_NEED_UPSTREAM(var)                                                                      \
    auto var##_opt = upstream_dir();                                                               \
    if (!var##_opt) {                                                                              \
        WARN("skipped: ../shared is absent (the upstream CRDs and samples in ../shared/upstream)"); \
        return;                                                                                    \
    }                                                                                              \
    const fs::path var = *var##_opt

struct Sweep {
    std::size_t objects = 0;     // with a schema among the CRDs
    std::size_t with_rules = 0;  // whose schema has CEL rules
    std::size_t blocked = 0;     // structural errors kept CEL from running
    oa::CelStats stats;
    Diagnostics findings;     // CEL findings
    std::string structural;   // errors of blocked objects, for messages
};

// Validates every object of `inputs` that one of `crds` describes, as
// validate --crd does, but keeps the CEL findings apart.
Sweep sweep(const std::vector<fs::path>& crds, const std::vector<fs::path>& inputs) {
    Sweep s;
    Diagnostics load;
    oa::SchemaSet set;
    std::vector<std::string> crd_paths, input_paths;
    for (const auto& p : crds) crd_paths.push_back(p.string());
    for (const auto& p : inputs) input_paths.push_back(p.string());
    oa::load_crds(crd_paths, set, load);
    auto loaded = load_resources(input_paths, load);
    INFO(qf_test::messages(load));
    REQUIRE(set.size() > 0);
    for (const auto& r : loaded.resources) {
        const oa::Schema* schema = set.find(r.ref.api_version, r.ref.kind);
        if (!schema) continue;
        ++s.objects;
        if (!schema->cel_below) continue;
        ++s.with_rules;
        Diagnostics structural;
        oa::validate(*schema, r.doc, r.file, r.ref, structural);
        bool blocked = false;
        for (const auto& d : structural.all())
            if (oa::blocks_cel(d)) {
                blocked = true;
                s.structural += r.file + ": " + d.message + "\n";
            }
        if (blocked) {
            ++s.blocked;
            continue;
        }
        oa::validate_cel(*schema, r.doc, r.file, r.ref, s.findings, {.stats = &s.stats});
    }
    return s;
}

std::string counts(const Sweep& s) {
    return std::to_string(s.objects) + " objects, " + std::to_string(s.with_rules) + " with rules, " +
           std::to_string(s.blocked) + " blocked, " + std::to_string(s.stats.evaluated) + " rule evaluations, " +
           std::to_string(s.stats.skipped) + " transition rules skipped, " + std::to_string(s.findings.all().size()) +
           " findings";
}

const oa::Schema& find_schema(const oa::SchemaSet& set, const std::string& api_version, const std::string& kind) {
    const oa::Schema* s = set.find(api_version, kind);
    INFO(api_version << " " << kind);
    REQUIRE(s);
    return *s;
}

// The CEL findings of a multi-document text against `set`.
Diagnostics cel_of_stream(const oa::SchemaSet& set, const std::string& text, oa::CelStats* stats = nullptr) {
    Diagnostics load, out;
    LoadedResources loaded;
    load_resources_from_text("bad.yaml", text, loaded, load);
    INFO(qf_test::messages(load));
    REQUIRE_FALSE(load.has_errors());
    for (const auto& r : loaded.resources) {
        const oa::Schema& s = find_schema(set, r.ref.api_version, r.ref.kind);
        Diagnostics structural;
        oa::validate(s, r.doc, r.file, r.ref, structural);
        INFO(qf_test::messages(structural));
        for (const auto& d : structural.all()) CHECK_FALSE(oa::blocks_cel(d));
        oa::validate_cel(s, r.doc, r.file, r.ref, out, {.stats = stats});
    }
    return out;
}

// "file:line:col message" per finding.
std::vector<std::string> lines_of(const Diagnostics& d) {
    std::vector<std::string> out;
    for (const auto& x : d.all()) out.push_back(where(x) + " " + x.message);
    return out;
}

const std::string kBadKueue = R"Y(apiVersion: kueue.x-k8s.io/v1beta2
kind: ClusterQueue
metadata: {name: no-cohort}
spec:
  namespaceSelector: {}
  flavorFungibility:
    preference: BorrowingOverPreemption
  preemption:
    borrowWithinCohort: {policy: LowerPriority}
  resourceGroups:
  - coveredResources: [cpu, memory]
    flavors:
    - name: default
      resources:
      - {name: cpu, nominalQuota: 8, borrowingLimit: 2}
---
apiVersion: kueue.x-k8s.io/v1beta2
kind: ResourceFlavor
metadata: {name: tas}
spec:
  topologyName: default
  nodeLabels: {}
  tolerations:
  - {operator: Equal, value: v, effect: NoSchedule}
  - {key: k, operator: Exists, effect: NoSchedule, tolerationSeconds: 10}
---
apiVersion: kueue.x-k8s.io/v1beta2
kind: Topology
metadata: {name: default}
spec:
  levels:
  - nodeLabel: kubernetes.io/hostname
  - nodeLabel: cloud.provider.com/rack
  - nodeLabel: cloud.provider.com/rack
---
apiVersion: kueue.x-k8s.io/v1beta2
kind: LocalQueue
metadata: {name: user-queue, namespace: team-a}
spec: {clusterQueue: no-cohort}
)Y";

}  // namespace

TEST_CASE("crd cel: Kueue's CRD rules reject manifests that break them, at the value's position", "[crdcel]") {
    QF_NEED_UPSTREAM(up);
    Diagnostics load;
    oa::SchemaSet set;
    oa::load_crds({(up / "kueue/v0.19.2").string()}, set, load);
    REQUIRE_FALSE(load.has_errors());
    oa::CelStats stats;
    auto d = cel_of_stream(set, kBadKueue, &stats);
    const std::vector<std::string> expected = {
        // ClusterQueue: the cohort rule on spec, then the rules below it in document order.
        "bad.yaml:5:3 spec: Invalid value: \"object\": borrowingLimit must be nil when cohort is empty",
        "bad.yaml:7:5 spec.flavorFungibility: Invalid value: \"object\": preference can only be set when both "
        "whenCanBorrow and whenCanPreempt are TryNextFlavor",
        "bad.yaml:9:5 spec.preemption: Invalid value: \"object\": reclaimWithinCohort=Never and "
        "borrowWithinCohort.Policy!=Never",
        "bad.yaml:11:5 spec.resourceGroups[0]: Invalid value: \"object\": flavors must have the same number of "
        "resources as the coveredResources",
        // ResourceFlavor: nodeLabels {} with a topology, a toleration without key.
        "bad.yaml:21:3 spec: Invalid value: \"object\": at least one nodeLabel is required when topology is set",
        "bad.yaml:24:3 spec.tolerations: Invalid value: \"array\": operator must be Exists when 'key' is empty, which "
        "means 'match all values and all keys'",
        "bad.yaml:24:3 spec.tolerations: Invalid value: \"array\": effect must be 'NoExecute' when "
        "'tolerationSeconds' is set",
        // Topology: duplicates and the hostname level not last.
        "bad.yaml:32:3 spec.levels: Invalid value: \"array\": must be unique",
        "bad.yaml:32:3 spec.levels: Invalid value: \"array\": the kubernetes.io/hostname label can only be used at "
        "the lowest level of topology",
    };
    CHECK(lines_of(d) == expected);
    for (const auto& x : d.all()) CHECK(x.rule == "schema.cel");
    // Immutability rules (`self == oldSelf` on Topology levels and the
    // LocalQueue's clusterQueue, ResourceFlavor's topologyName rules) wait for an update.
    CHECK(stats.skipped == 5);

    // validate --crd: Kueue's rules are also native (compiler/checks/rules, with
    // finer positions); each problem is reported once.
    qf_test::TempDir tmp;
    qf_test::write_text(tmp.path / "bad.yaml", kBadKueue);
    auto r = run_cli("validate --crd " + shell_quote((up / "kueue/v0.19.2").string()) + " " +
                     shell_quote((tmp.path / "bad.yaml").string()));
    INFO(r.out);
    auto occurrences = [&](const std::string& s) {
        std::size_t n = 0;
        for (auto p = r.out.find(s); p != std::string::npos; p = r.out.find(s, p + 1)) ++n;
        return n;
    };
    CHECK(occurrences("flavors must have the same number of resources as the coveredResources") == 1);
    CHECK(occurrences("borrowingLimit must be nil when cohort is empty") == 1);
    // Not implemented natively: the CEL finding is what reports it.
    CHECK(r.out.find("bad.yaml:32:3: error: spec.levels: Invalid value: \"array\": the kubernetes.io/hostname label "
                     "can only be used at the lowest level of topology [schema.cel]") != std::string::npos);
    CHECK(r.out.find("[schema.cel-not-evaluated]") == std::string::npos);
}

TEST_CASE("crd cel: DataScienceCluster-side CRD rules reject manifests that break them", "[crdcel]") {
    QF_NEED_UPSTREAM(up);
    Diagnostics load;
    oa::SchemaSet set;
    oa::load_crds({(up / "opendatahub/odh-bundle_3.5.0").string()}, set, load);
    REQUIRE_FALSE(load.has_errors());
    auto d = cel_of_stream(set, R"Y(apiVersion: components.platform.opendatahub.io/v1alpha1
kind: Kueue
metadata: {name: my-kueue}
spec: {managementState: Managed}
---
apiVersion: dscinitialization.opendatahub.io/v2
kind: DSCInitialization
metadata: {name: default-dsci}
spec:
  applicationsNamespace: opendatahub
  monitoring:
    managementState: Managed
    namespace: opendatahub
    metrics:
      exporters:
        prometheus: {endpoint: x}
    traces:
      storage: {backend: s3, secret: s, size: 5Gi}
)Y");
    const std::vector<std::string> expected = {
        "bad.yaml:1:1 <nil>: Invalid value: \"object\": Kueue name must be default-kueue",
        "bad.yaml:16:9 spec.monitoring.metrics.exporters: Invalid value: \"object\": exporter name 'prometheus' is "
        "reserved and cannot be used",
        "bad.yaml:18:16 spec.monitoring.traces.storage: Invalid value: \"object\": Size is supported when backend is "
        "pv only",
    };
    CHECK(lines_of(d) == expected);
}

TEST_CASE("crd cel: no false positives on the upstream Kueue, KubeRay and JobSet samples", "[crdcel][slow]") {
    QF_NEED_UPSTREAM(up);
    auto s = sweep({up / "kueue/v0.19.2", up / "jobs"}, {up / "kueue-examples"});
    INFO(counts(s) << "\n" << s.structural << qf_test::messages(s.findings));
    CHECK(s.findings.empty());
    CHECK(s.blocked == 0);
    CHECK(s.objects >= 70);
    CHECK(s.stats.evaluated >= 90);
    if (std::getenv("QF_CEL_COUNTS")) std::printf("kueue-examples: %s\n", counts(s).c_str());
}

TEST_CASE("crd cel: no false positives on the DataScienceCluster samples of each release", "[crdcel]") {
    QF_NEED_UPSTREAM(up);
    const fs::path odh = up / "opendatahub";
    std::size_t evaluated = 0;
    for (const char* release : {"2.16", "2.19", "2.22", "2.25", "3.0"}) {
        const fs::path dir = odh / (std::string("rhods-operator_rhoai-") + release);
        auto s = sweep({dir / "datasciencecluster.opendatahub.io_datascienceclusters.yaml",
                        dir / "dscinitialization.opendatahub.io_dscinitializations.yaml"},
                       {dir / "config/samples"});
        INFO(release << ": " << counts(s) << "\n" << s.structural << qf_test::messages(s.findings));
        CHECK(s.findings.empty());
        CHECK(s.blocked == 0);
        CHECK(s.objects >= 2);
        evaluated += s.stats.evaluated;
        if (std::getenv("QF_CEL_COUNTS")) std::printf("rhoai-%s samples: %s\n", release, counts(s).c_str());
    }
    // The v2 samples of the newest operator against the last generated CRDs.
    for (const char* crds : {"odh-bundle_3.5.0", "odh-operator_dfac1ac9_crds-v1-v2"}) {
        auto s = sweep({odh / crds}, {odh / "odh-operator_HEAD_samples", odh / "rhods-operator_rhoai-3.5"});
        INFO(crds << ": " << counts(s) << "\n" << s.structural << qf_test::messages(s.findings));
        CHECK(s.findings.empty());
        CHECK(s.blocked == 0);
        evaluated += s.stats.evaluated;
        if (std::getenv("QF_CEL_COUNTS")) std::printf("%s + HEAD/3.5 samples: %s\n", crds, counts(s).c_str());
    }
    CHECK(evaluated >= 10);
}

TEST_CASE("crd cel: no false positives on queueforge's own examples, rendered", "[crdcel]") {
    QF_NEED_UPSTREAM(up);
    struct Example {
        const char* name;
        std::vector<fs::path> crds;
    };
    const std::vector<Example> examples = {
        {"multi-team", {up / "kueue/v0.10.6", up / "opendatahub/rhods-operator_rhoai-2.25"}},
        {"rhoai-3", {up / "kueue/v0.19.2", up / "opendatahub/odh-bundle_3.5.0"}},
        {"seed-minimal", {up / "kueue/v0.6.2", up / "opendatahub/rhods-operator_rhoai-2.10"}},
        {"tas", {up / "kueue/v0.19.2"}},
    };
    qf_test::TempDir tmp;
    std::size_t evaluated = 0;
    for (const auto& ex : examples) {
        auto built = run_cli("build " + shell_quote((qf_test::source_dir() / "examples" / ex.name).string()));
        INFO(ex.name << ": " << built.err);
        REQUIRE(built.exit == 0);
        const fs::path out = tmp.path / (std::string(ex.name) + ".yaml");
        qf_test::write_text(out, built.out);
        auto s = sweep(ex.crds, {out});
        INFO(counts(s) << "\n" << s.structural << qf_test::messages(s.findings));
        CHECK(s.findings.empty());
        CHECK(s.blocked == 0);
        evaluated += s.stats.evaluated;
        if (std::getenv("QF_CEL_COUNTS")) std::printf("examples/%s: %s\n", ex.name, counts(s).c_str());
    }
    CHECK(evaluated >= 40);  // Kueue v0.6.2 (seed-minimal) has no CEL rules yet
}

namespace {

// The k-th node of `n` in pre-order (k counts down), or nullptr.
Node* nth_node(Node& n, std::size_t& k) {
    if (k == 0) return &n;
    --k;
    if (n.is_seq())
        for (auto& i : n.items())
            if (Node* hit = nth_node(i, k)) return hit;
    if (n.is_map())
        for (auto& e : n.entries())
            if (Node* hit = nth_node(e.value, k)) return hit;
    return nullptr;
}

}  // namespace

TEST_CASE("crd cel: hostile values anywhere in real objects never crash the evaluation", "[crdcel]") {
    QF_NEED_UPSTREAM(up);
    Diagnostics load;
    oa::SchemaSet set;
    oa::load_crds({(up / "kueue/v0.19.2").string()}, set, load);
    auto loaded = load_resources({(up / "kueue-examples").string()}, load);
    const std::vector<Node> hostile = {
        Node::null_value(), Node::string("x"), Node::integer(-7), Node::scalar(Node::Kind::Float, "1e308"),
        Node::sequence(), Node::mapping(), doc_of("[null, {a: [1, {b: c}]}]"), doc_of("{a: {b: [1]}, c: null}"),
    };
    std::size_t runs = 0, findings = 0;
    for (const auto& r : loaded.resources) {
        const oa::Schema* schema = set.find(r.ref.api_version, r.ref.kind);
        if (!schema || !schema->cel_below) continue;
        for (std::size_t at = 1;; ++at) {
            Node probe = r.doc;
            std::size_t k = at;
            Node* target = nth_node(probe, k);
            if (!target) break;
            for (const auto& h : hostile) {
                Node mutated = probe;
                std::size_t k2 = at;
                *nth_node(mutated, k2) = h;
                Diagnostics d;
                // Run the rules even where the server would not (blocking
                // errors): conversion must cope with any shape.
                oa::validate_cel(*schema, mutated, r.file, r.ref, d);
                for (const auto& x : d.all()) CHECK(x.rule == "schema.cel");
                findings += d.all().size();
                ++runs;
            }
        }
    }
    CHECK(runs > 1000);
    CHECK(findings > 0);
    if (std::getenv("QF_CEL_COUNTS")) std::printf("hostile values: %zu runs, %zu findings\n", runs, findings);
}

TEST_CASE("validate: --crd takes one value, the files after it are validated, not read as CRDs", "[crdcel][defects]") {
    const std::string crd = shell_quote((kFixtures / "widgets-crd.yaml").string());
    const std::string bad = shell_quote((kFixtures / "widgets-bad.yaml").string());
    auto one = run_cli("validate --crd " + crd + " " + bad + " " + shell_quote((kFixtures / "widgets-good.yaml").string()));
    INFO(one.out << one.err);
    CHECK(one.exit == 1);
    CHECK(one.out.find("widgets-bad.yaml:9:11: error: spec.legacy: Forbidden: legacy mode is gone [schema.cel]") != std::string::npos);
    auto twice = run_cli("validate --crd " + crd + " --crd " + crd + " " + bad + " " +
                         shell_quote((kFixtures / "widgets-good.yaml").string()));
    INFO(twice.out << twice.err);
    CHECK(twice.exit == 1);
    CHECK(twice.out.find("widgets-bad.yaml:9:11: error:") != std::string::npos);
    // Without a file to validate it is a usage error.
    CHECK(run_cli("validate --crd " + crd).exit == 2);
}
