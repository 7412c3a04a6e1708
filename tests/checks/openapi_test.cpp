// Unit tests of the OpenAPI validator: one keyword at a time, with the exact
// message, path, rule and position the API server's field errors would give.
#include <catch2/catch.hpp>

#include "test_util.hpp"

#include <queueforge/checks/openapi.hpp>
#include <queueforge/base/yaml_load.hpp>

#include "checks/openapi/values.hpp"

#include <filesystem>

namespace oa = queueforge::openapi;
using queueforge::Diagnostic;
using queueforge::Diagnostics;
using queueforge::Node;
using queueforge::Severity;

namespace {

Node yaml(const std::string& text) {
    Diagnostics d;
    auto docs = queueforge::load_yaml("in.yaml", text, d);
    INFO(qf_test::messages(d));
    REQUIRE(!d.has_errors());
    REQUIRE(docs.size() == 1);
    return docs[0].root;
}

std::shared_ptr<const oa::Schema> schema(const std::string& text) {
    Diagnostics d;
    auto s = oa::compile(yaml(text), "schema.yaml", d);
    INFO(qf_test::messages(d));
    REQUIRE(s);
    return s;
}

// Validates a value (no ObjectMeta handling) and returns the findings.
Diagnostics check(const std::string& schema_text, const std::string& data, oa::ValidateOptions opts = {}) {
    auto s = schema(schema_text);
    Diagnostics d;
    oa::validate_value(*s, yaml(data), "obj.yaml", "", {}, d, opts);
    return d;
}

// Validates a whole object (ObjectMeta at the root).
Diagnostics check_object(const std::string& schema_text, const std::string& data, oa::ValidateOptions opts = {}) {
    auto s = schema(schema_text);
    Diagnostics d;
    oa::validate(*s, yaml(data), "obj.yaml", {"v1", "Thing", "", "x"}, d, opts);
    return d;
}

Diagnostic only(const Diagnostics& d) {
    INFO(qf_test::messages(d));
    REQUIRE(d.all().size() == 1);
    return d.all()[0];
}

std::vector<std::string> messages_of(const Diagnostics& d) {
    std::vector<std::string> out;
    for (const auto& x : d.all()) out.push_back(x.message);
    return out;
}

const char* kSpec = R"(
type: object
properties:
  spec:
    type: object
    properties:
      replicas: {type: integer, maximum: 64}
      ratio: {type: number}
      name: {type: string, pattern: '^[a-z]$'}
      quota: {x-kubernetes-int-or-string: true}
      flag: {type: boolean}
)";

}  // namespace

TEST_CASE("openapi: type mismatches give the API server's message, path, rule and mark") {
    auto d = check(kSpec, "spec:\n  replicas: \"3\"\n");
    const auto& x = only(d);
    CHECK(x.message == "spec.replicas: Invalid value: \"string\": spec.replicas in body must be of type integer: \"string\"");
    CHECK(x.rule == "schema.type");
    CHECK(x.path == "spec.replicas");
    CHECK(x.mark.line == 2);
    CHECK(x.mark.col == 13);
    CHECK(x.file == "obj.yaml");
    CHECK(x.severity == Severity::Error);

    CHECK(check(kSpec, "spec: {ratio: 3}").empty());       // an integer is a number
    CHECK(check(kSpec, "spec: {replicas: 3.0}").empty());  // arrives as JSON 3
    CHECK(only(check(kSpec, "spec: {replicas: 3.5}")).message ==
          "spec.replicas: Invalid value: \"number\": spec.replicas in body must be of type integer: \"number\"");
    CHECK(check(kSpec, "spec: {flag: yes}").empty());  // YAML 1.1: yes is a boolean
    CHECK(only(check(kSpec, "spec: {name: [a]}")).message ==
          "spec.name: Invalid value: \"array\": spec.name in body must be of type string: \"array\"");
    CHECK(only(check(kSpec, "spec: 7")).message ==
          "spec: Invalid value: \"integer\": spec in body must be of type object: \"integer\"");
}

TEST_CASE("openapi: int-or-string accepts integers and strings only") {
    CHECK(check(kSpec, "spec: {quota: 5}").empty());
    CHECK(check(kSpec, "spec: {quota: 5Gi}").empty());
    CHECK(only(check(kSpec, "spec: {quota: true}")).message ==
          "spec.quota: Invalid value: \"boolean\": spec.quota in body must be of type integer,string: \"boolean\"");
    CHECK(only(check(kSpec, "spec: {quota: 1.5}")).rule == "schema.type");
}

TEST_CASE("openapi: required fields") {
    const char* s = R"(
type: object
properties:
  spec:
    type: object
    required: [a, b]
    properties:
      a: {type: string}
      b: {type: string, default: x}
)";
    auto d = check(s, "spec:\n  c: 1\n", {.reject_unknown_fields = false});
    const auto& x = only(d);  // b has a default: the server fills it before validating
    CHECK(x.message == "spec.a: Required value");
    CHECK(x.path == "spec.a");
    CHECK(x.rule == "schema.required");
    CHECK(x.mark.line == 2);  // the map that lacks it
    CHECK(check(s, "spec: {a: x}").empty());
}

TEST_CASE("openapi: enum") {
    const char* s = R"(
type: object
properties:
  queueingStrategy: {type: string, enum: [StrictFIFO, BestEffortFIFO]}
  num: {type: integer, enum: [1, 2]}
)";
    CHECK(only(check(s, "queueingStrategy: Fifo")).message ==
          "queueingStrategy: Unsupported value: \"Fifo\": supported values: \"StrictFIFO\", \"BestEffortFIFO\"");
    CHECK(only(check(s, "queueingStrategy: Fifo")).rule == "schema.enum");
    CHECK(check(s, "queueingStrategy: StrictFIFO").empty());
    CHECK(check(s, "num: 2.0").empty());
    CHECK(only(check(s, "num: 3")).message == "num: Unsupported value: 3: supported values: \"1\", \"2\"");
}

TEST_CASE("openapi: pattern uses RE2, unanchored unless the pattern anchors") {
    CHECK(only(check(kSpec, "spec: {name: abc}")).message ==
          "spec.name: Invalid value: \"abc\": spec.name in body should match '^[a-z]$'");
    CHECK(only(check(kSpec, "spec: {name: abc}")).rule == "schema.pattern");
    CHECK(check(kSpec, "spec: {name: q}").empty());
    CHECK(check("type: string\npattern: b", "abc").empty());

    Diagnostics d;
    CHECK(oa::compile(yaml("type: string\npattern: '(?=lookahead)'"), "s.yaml", d) == nullptr);
    CHECK(qf_test::has_rule(d, "schema.invalid"));
    CHECK(d.all()[0].mark.line == 2);
}

TEST_CASE("openapi: lengths count code points") {
    const char* s = "type: string\nminLength: 2\nmaxLength: 3\n";
    CHECK(check(s, "\"\xC3\xA9\xC3\xA9\xC3\xA9\"").empty());  // three é, six bytes
    CHECK(only(check(s, "abcd")).message == "<root>: Too long: may not be more than 3 bytes");
    CHECK(only(check(s, "a")).message == "<root>: Invalid value: \"a\": <root> in body should be at least 2 chars long");
    CHECK(only(check(s, "a")).rule == "schema.length");
    CHECK(only(check("type: string\nmaxLength: 1", "ab")).message == "<root>: Too long: may not be more than 1 byte");
}

TEST_CASE("openapi: numeric ranges and multipleOf") {
    CHECK(only(check(kSpec, "spec: {replicas: 70}")).message ==
          "spec.replicas: Invalid value: 70: spec.replicas in body should be less than or equal to 64");
    CHECK(only(check(kSpec, "spec: {replicas: 70}")).rule == "schema.range");
    const char* s = R"(
type: object
properties:
  a: {type: number, minimum: 0, exclusiveMinimum: true, maximum: 1.5, exclusiveMaximum: true}
  b: {type: integer, minimum: 1}
  c: {type: integer, multipleOf: 5}
  d: {type: number, multipleOf: 0.25}
  e: {type: integer, format: int32}
)";
    CHECK(only(check(s, "a: 0")).message == "a: Invalid value: 0: a in body should be greater than 0");
    CHECK(only(check(s, "a: 1.5")).message == "a: Invalid value: 1.5: a in body should be less than 1.5");
    CHECK(check(s, "a: 1.4999").empty());
    CHECK(only(check(s, "b: 0")).message == "b: Invalid value: 0: b in body should be greater than or equal to 1");
    CHECK(only(check(s, "c: 12")).message == "c: Invalid value: 12: c in body should be a multiple of 5");
    CHECK(only(check(s, "c: 12")).rule == "schema.multiple-of");
    CHECK(check(s, "c: -15").empty());
    CHECK(check(s, "d: 1.75").empty());
    CHECK(!check(s, "d: 1.8").empty());
    // Float division as in kube-openapi: 19.99 is not a multiple of 0.01 there.
    CHECK(!check("type: number\nmultipleOf: 0.01", "19.99").empty());
    CHECK(only(check(s, "e: 3000000000")).message ==
          "e: Invalid value: 3000000000: Checked value must be of type integer with format int32 in e");
    CHECK(only(check(s, "e: 3000000000")).rule == "schema.format");
}

TEST_CASE("openapi: array and object sizes") {
    const char* s = R"(
type: object
properties:
  list: {type: array, minItems: 1, maxItems: 2, items: {type: integer}}
  one: {type: array, maxItems: 1, items: {type: integer}}
  map: {type: object, minProperties: 1, maxProperties: 2, additionalProperties: {type: string}}
  uniq: {type: array, uniqueItems: true, items: {type: integer}}
)";
    CHECK(only(check(s, "list: [1, 2, 3]")).message == "list: Too many: 3: must have at most 2 items");
    CHECK(only(check(s, "list: [1, 2, 3]")).rule == "schema.items");
    CHECK(only(check(s, "one: [1, 2]")).message == "one: Too many: 2: must have at most 1 item");
    CHECK(only(check(s, "list: []")).message == "list: Invalid value: 0: list in body should have at least 1 items");
    CHECK(only(check(s, "list: [1, x]")).path == "list[1]");
    CHECK(only(check(s, "map: {}")).message == "map: Invalid value: 0: map in body should have at least 1 properties");
    CHECK(only(check(s, "map: {a: x, b: w, c: z}")).message == "map: Too many: 3: must have at most 2 items");
    CHECK(only(check(s, "map: {a: 1}")).path == "map.a");
    CHECK(only(check(s, "uniq: [1, 2, 1.0]")).message == "uniq: Invalid value: \"\": uniq in body shouldn't contain duplicates");
    CHECK(check(s, "uniq: [1, 2]").empty());
}

TEST_CASE("openapi: nulls follow the API server") {
    const char* s = R"(
type: object
required: [must]
properties:
  must: {type: string}
  opt: {type: string}
  nul: {type: string, nullable: true}
  def: {type: string, default: x}
  list: {type: array, items: {type: string}}
  choice: {type: string, nullable: true, enum: [a, b]}
)";
    // A non-nullable null is dropped before validation: a warning, not an error...
    auto d = check(s, "must: x\nopt:\n");
    const auto& w = only(d);
    CHECK(w.severity == Severity::Warning);
    CHECK(w.rule == "schema.nullable");
    CHECK(w.message == "opt: null is dropped by the API server: the field is not nullable");
    // ... which makes a required field missing.
    auto r = check(s, "must:\n");
    CHECK(r.has_errors());
    CHECK(qf_test::has_rule(r, "schema.required"));
    CHECK(check(s, "must: x\nnul:\n").empty());
    CHECK(check(s, "must: x\ndef:\n").empty());  // defaulted
    // Items are not pruned: a null item is a type error.
    CHECK(only(check(s, "must: x\nlist: [a, null]")).message ==
          "list[1]: Invalid value: \"null\": list[1] in body must be of type string: \"null\"");
    // nullable with an enum still needs null in the enum (kube-openapi).
    CHECK(only(check(s, "must: x\nchoice:\n")).message == "choice: Unsupported value: null: supported values: \"a\", \"b\"");
    // Plain JSON Schema semantics on request.
    CHECK(only(check(s, "must: x\nopt:\n", {.prune_nulls = false})).rule == "schema.nullable");
}

TEST_CASE("openapi: allOf, anyOf, oneOf and not") {
    const char* any = "anyOf: [{type: integer}, {type: string, maxLength: 2}]";
    CHECK(check(any, "5").empty());
    CHECK(check(any, "ab").empty());
    auto d = check(any, "abc");
    REQUIRE(d.all().size() == 2);
    CHECK(d.all()[0].message == "<root>: Invalid value: \"\": \"<root>\" must validate at least one schema (anyOf)");
    CHECK(d.all()[0].rule == "schema.anyof");
    CHECK(d.all()[1].rule == "schema.type");  // the branch with the fewest errors

    const char* one = "oneOf: [{type: integer}, {minimum: 2}]";
    CHECK(check(one, "1").empty());
    CHECK(messages_of(check(one, "3")) ==
          std::vector<std::string>{"<root>: Invalid value: \"\": \"<root>\" must validate one and only one schema "
                                   "(oneOf). Found 2 valid alternatives"});
    auto none = check("type: object\nproperties:\n  x:\n    oneOf: [{type: integer}, {type: boolean}]", "x: s");
    REQUIRE(none.all().size() == 2);
    CHECK(none.all()[0].message ==
          "x: Invalid value: \"\": \"x\" must validate one and only one schema (oneOf). Found none valid");
    CHECK(none.all()[0].rule == "schema.oneof");
    CHECK(none.all()[1].message == "x: Invalid value: \"string\": x in body must be of type integer: \"string\"");

    const char* all = "allOf: [{type: integer}, {maximum: 3}]";
    CHECK(check(all, "2").empty());
    auto a = check(all, "4");
    CHECK(qf_test::has_rule(a, "schema.allof"));
    CHECK(qf_test::has_rule(a, "schema.range"));

    CHECK(check("not: {type: string}", "1").empty());
    CHECK(only(check("not: {type: string}", "x")).message ==
          "<root>: Invalid value: \"\": \"<root>\" must not validate the schema (not)");
}

TEST_CASE("openapi: unknown fields as strict field validation reports them") {
    const char* s = R"(
type: object
properties:
  apiVersion: {type: string}
  kind: {type: string}
  metadata: {type: object}
  spec:
    type: object
    properties:
      items:
        type: array
        items:
          type: object
          properties:
            name: {type: string}
      free:
        type: object
        x-kubernetes-preserve-unknown-fields: true
        properties:
          known: {type: object, properties: {a: {type: string}}}
      labels:
        type: object
        additionalProperties: {type: string}
      untyped: {type: array}
      kept:
        type: array
        x-kubernetes-preserve-unknown-fields: true
        items: {type: object, properties: {inner: {type: object, properties: {a: {type: string}}}}}
      loose: {type: object, additionalProperties: true}
)";
    const std::string base = "apiVersion: v1\nkind: Thing\nmetadata: {name: x}\n";
    auto d = check_object(s, base + "spec:\n  foo: 1\n");
    const auto& x = only(d);
    CHECK(x.message == "unknown field \"spec.foo\"");
    CHECK(x.rule == "schema.unknown-field");
    CHECK(x.path == "spec.foo");
    CHECK(x.mark.line == 5);
    CHECK(x.mark.col == 3);

    CHECK(only(check_object(s, base + "spec: {items: [{name: a}, {name: b, bad: 1}]}")).message ==
          "unknown field \"spec.items[1].bad\"");
    CHECK(check_object(s, base + "spec: {free: {anything: [1, {x: 2}]}}").empty());
    // Below a known property of a preserving object, pruning is back.
    CHECK(only(check_object(s, base + "spec: {free: {known: {b: 1}}}")).message ==
          "unknown field \"spec.free.known.b\"");
    CHECK(check_object(s, base + "spec: {labels: {a: b, c: d}}").empty());
    // An array without an items schema keeps nothing of its objects.
    CHECK(only(check_object(s, base + "spec: {untyped: [{a: 1}]}")).message ==
          "unknown field \"spec.untyped[0].a\"");
    CHECK(only(check_object(s, base + "top: 1")).message == "unknown field \"top\"");
    // A preserving array hands the preservation to its items, not further.
    CHECK(check_object(s, base + "spec: {kept: [{extra: 1}]}").empty());
    CHECK(only(check_object(s, base + "spec: {kept: [{inner: {b: 1}}]}")).message ==
          "unknown field \"spec.kept[0].inner.b\"");
    // additionalProperties: true keeps values but prunes the fields of objects.
    CHECK(check_object(s, base + "spec: {loose: {a: 1, b: [x]}}").empty());
    CHECK(only(check_object(s, base + "spec: {loose: {a: {b: 1}}}")).message == "unknown field \"spec.loose.a.b\"");
    CHECK(check_object(s, base + "spec:\n  foo: 1\n", {.reject_unknown_fields = false}).empty());
    // metadata is ObjectMeta even though the schema says only "object".
    CHECK(only(check_object(s, "apiVersion: v1\nkind: Thing\nmetadata: {name: x, nmae: y}\n")).message ==
          "unknown field \"metadata.nmae\"; did you mean \"name\"?");
    // apiVersion and kind are never unknown at a resource root.
    CHECK(check_object("type: object\nproperties:\n  spec: {type: object}", "apiVersion: v1\nkind: T\nmetadata: {name: x}\n")
              .empty());
}

TEST_CASE("openapi: additionalProperties false and patternProperties") {
    const char* s = R"(
type: object
properties:
  a: {type: string}
patternProperties:
  '^x-': {type: integer}
additionalProperties: false
)";
    CHECK(check(s, "a: s\nx-one: 1").empty());
    CHECK(only(check(s, "x-one: s")).rule == "schema.type");
    const auto& f = only(check(s, "b: 1"));
    CHECK(f.message == "<root>: Invalid value: \"b\": b in body is a forbidden property");
    CHECK(f.rule == "schema.properties");
}

TEST_CASE("openapi: ObjectMeta at the root of an object") {
    const char* s = "type: object\nproperties:\n  metadata: {type: object}\n";
    auto d = check_object(s, "apiVersion: v1\nkind: T\nmetadata: {name: Bad_Name}\n");
    const auto& x = only(d);
    CHECK(x.rule == "schema.metadata");
    CHECK(x.path == "metadata.name");
    CHECK(x.message.starts_with("metadata.name: Invalid value: \"Bad_Name\": a lowercase RFC 1123 subdomain must consist"));
    CHECK(x.mark.line == 3);

    CHECK(only(check_object(s, "apiVersion: v1\nkind: T\nmetadata: {}\n")).message ==
          "metadata.name: Required value: name or generateName is required");
    CHECK(only(check_object(s, "apiVersion: v1\nkind: T\n")).message ==
          "metadata.name: Required value: name or generateName is required");
    CHECK(check_object(s, "apiVersion: v1\nkind: T\nmetadata: {generateName: job-}\n").empty());
    auto labels = check_object(s, "apiVersion: v1\nkind: T\nmetadata:\n  name: x\n  labels: {'bad key': 'v!', ok: fine}\n");
    REQUIRE(labels.all().size() == 2);
    CHECK(labels.all()[0].message.starts_with("metadata.labels: Invalid value: \"bad key\": name part must consist"));
    CHECK(labels.all()[1].message.starts_with("metadata.labels: Invalid value: \"v!\": a valid label must be"));
    CHECK(only(check_object(s, "apiVersion: v1\nkind: T\nmetadata:\n  name: x\n  labels: {version: 1}\n")).rule ==
          "schema.type");
    CHECK(only(check_object(s, "apiVersion: v1\nkind: T\nmetadata:\n  name: x\n  annotations: {'a b': x}\n"))
              .message.starts_with("metadata.annotations: Invalid value: \"a b\""));
    CHECK(check_object(s, "apiVersion: v1\nkind: T\nmetadata:\n  name: x\n  annotations: {Example.COM/Key: x}\n")
              .empty());
    CHECK(only(check_object(s, "apiVersion: v1\nkind: T\nmetadata: {name: x, namespace: Bad}\n")).path ==
          "metadata.namespace");
    CHECK(only(check_object(s, "apiVersion: v1\nkind: T\nmetadata: {name: x, finalizers: ['a b']}\n")).path ==
          "metadata.finalizers");
    CHECK(only(check_object(s, "apiVersion: v1\nkind: T\nmetadata: {name: x, ownerReferences: [{apiVersion: v1, kind: K, name: own}]}\n"))
              .message == "metadata.ownerReferences[0].uid: Required value: must not be empty");
    CHECK(check_object(s, "apiVersion: v1\nkind: T\nmetadata: {name: x, labels: null, creationTimestamp: null}\n")
              .empty());
}

TEST_CASE("openapi: embedded resources") {
    const char* s = R"(
type: object
properties:
  template:
    type: object
    x-kubernetes-embedded-resource: true
    x-kubernetes-preserve-unknown-fields: true
)";
    const std::string base = "apiVersion: v1\nkind: T\nmetadata: {name: x}\n";
    CHECK(check_object(s, base + "template: {apiVersion: v1, kind: Pod, spec: {}}").empty());
    auto d = check_object(s, base + "template: {spec: {}}");
    CHECK(messages_of(d) == std::vector<std::string>{"template.apiVersion: Required value", "template.kind: Required value"});
    CHECK(only(check_object(s, base + "template: {apiVersion: v1, kind: Pod, metadata: {name: a/b}}")).message ==
          "template.metadata.name: Invalid value: \"a/b\": may not contain '/'");
    CHECK(only(check_object(s, base + "template: {apiVersion: v1, kind: Pod, metadata: {nam: a}}")).message ==
          "unknown field \"template.metadata.nam\"; did you mean \"name\"?");
}

TEST_CASE("openapi: list-type set and map uniqueness") {
    const char* s = R"(
type: object
properties:
  set: {type: array, x-kubernetes-list-type: set, items: {type: string}}
  map:
    type: array
    x-kubernetes-list-type: map
    x-kubernetes-list-map-keys: [name]
    items: {type: object, properties: {name: {type: string}, v: {type: integer}}}
  map2:
    type: array
    x-kubernetes-list-type: map
    x-kubernetes-list-map-keys: [a, b]
    items: {type: object, properties: {a: {type: string}, b: {type: integer}}}
)";
    auto d = check(s, "set: [a, b, a, a]");
    const auto& x = only(d);  // second occurrence only
    CHECK(x.message == "set[2]: Duplicate value: \"a\"");
    CHECK(x.rule == "schema.unique");
    CHECK(x.mark.col == 13);
    CHECK(only(check(s, "map: [{name: x, v: 1}, {name: z}, {name: x, v: 2}]")).message ==
          "map[2]: Duplicate value: {\"name\":\"x\"}");
    CHECK(only(check(s, "map: [{v: 1}, {v: 2}]")).message == "map[1]: Duplicate value: {}");
    CHECK(only(check(s, "map2: [{a: x, b: 1}, {a: x, b: 1}]")).message == "map2[1]: Duplicate value: {\"a\":\"x\",\"b\":1}");
    CHECK(check(s, "map2: [{a: x, b: 1}, {a: x, b: 2}]").empty());

    // Past the linear-scan size the hashed path must agree.
    std::string big = "set: [";
    for (int i = 0; i < 100; ++i) big += "v" + std::to_string(i) + ", ";
    big += "v7, v8, v7]";
    CHECK(messages_of(check(s, big)) ==
          std::vector<std::string>{"set[100]: Duplicate value: \"v7\"", "set[101]: Duplicate value: \"v8\""});
}

TEST_CASE("openapi: formats the API server enforces") {
    auto fmt = [](const std::string& f, const std::string& v) {
        return check("type: string\nformat: " + f, "'" + v + "'").empty();
    };
    CHECK(fmt("date-time", "2024-02-29T10:00:00Z"));
    CHECK(fmt("date-time", "2024-02-29T10:00:00.123+02:00"));
    CHECK_FALSE(fmt("date-time", "2023-02-29T10:00:00Z"));
    CHECK_FALSE(fmt("date-time", "2024-01-01 10:00:00Z"));
    CHECK(fmt("date", "2024-12-31"));
    CHECK_FALSE(fmt("date", "2024-13-01"));
    CHECK(fmt("uuid", "123e4567-e89b-12d3-a456-426614174000"));
    CHECK_FALSE(fmt("uuid", "123e4567-e89b-12d3-a456-42661417400"));
    CHECK(fmt("uuid4", "123e4567-e89b-42d3-a456-426614174000"));
    CHECK_FALSE(fmt("uuid4", "123e4567-e89b-12d3-a456-426614174000"));
    CHECK(fmt("byte", "aGVsbG8="));
    CHECK_FALSE(fmt("byte", "aGVsbG8"));
    CHECK(fmt("ipv4", "10.0.0.1"));
    CHECK_FALSE(fmt("ipv4", "10.0.0.256"));
    CHECK(fmt("ipv6", "fe80::1"));
    CHECK_FALSE(fmt("ipv6", "fe80:::1"));
    CHECK(fmt("cidr", "10.0.0.0/8"));
    CHECK_FALSE(fmt("cidr", "10.0.0.0/33"));
    CHECK(fmt("mac", "01:23:45:67:89:ab"));
    CHECK_FALSE(fmt("mac", "01:23:45:67:89"));
    CHECK(fmt("hostname", "example.com"));
    CHECK_FALSE(fmt("hostname", "-bad-.com"));
    CHECK(fmt("duration", "1h30m"));
    CHECK(fmt("duration", "3 days"));
    CHECK_FALSE(fmt("duration", "soon"));
    CHECK(fmt("email", "a.b@example.com"));
    CHECK_FALSE(fmt("email", "not-an-email"));
    CHECK(fmt("uri", "https://example.com/x?y=1"));
    CHECK_FALSE(fmt("uri", "relative/path"));
    CHECK(fmt("k8s-short-name", "abc-1"));
    CHECK_FALSE(fmt("k8s-short-name", "Abc"));
    CHECK(fmt("no-such-format", "anything"));  // stripped by the server, ignored here

    const auto& x = only(check("type: string\nformat: date-time", "nope"));
    CHECK(x.message == "<root>: Invalid value: \"nope\": <root> in body must be of type date-time: \"nope\"");
    CHECK(x.rule == "schema.format");
    // String formats are stripped from integer schemas.
    CHECK(check("type: integer\nformat: date-time", "5").empty());
}

TEST_CASE("openapi: apply_defaults fills what the API server fills") {
    auto s = schema(R"(
type: object
properties:
  spec:
    type: object
    default: {}
    properties:
      strategy: {type: string, default: BestEffortFIFO}
      policy:
        type: object
        default: {}
        properties:
          mode: {type: string, default: Never}
      gone: {type: string}
      keep: {type: string, nullable: true}
      list:
        type: array
        items: {type: integer, default: 7}
)");
    Node doc = yaml("metadata: {name: x}\nspec:\n  gone:\n  keep:\n  list: [1, null]\n");
    oa::apply_defaults(*s, doc);
    const Node* spec = doc.find("spec");
    REQUIRE(spec);
    CHECK(spec->find("gone") == nullptr);
    REQUIRE(spec->find("keep"));
    CHECK(spec->find("keep")->is_null());
    CHECK(spec->find("strategy")->text() == "BestEffortFIFO");
    CHECK(spec->find("strategy")->mark().line == 3);  // the map it landed in, not the CRD
    CHECK(spec->find("policy")->find("mode")->text() == "Never");
    CHECK(spec->find("list")->items()[1].text() == "7");

    Node empty = yaml("metadata: {name: x}");
    oa::apply_defaults(*s, empty);
    REQUIRE(empty.find("spec"));
    CHECK(empty.find("spec")->find("policy")->find("mode")->text() == "Never");
}

TEST_CASE("openapi: cel_rules lists x-kubernetes-validations with their paths") {
    auto s = schema(R"(
type: object
properties:
  spec:
    type: object
    x-kubernetes-validations:
    - rule: self.a == self.b
      message: a must equal b
    properties:
      groups:
        type: array
        items:
          type: object
          x-kubernetes-validations:
          - rule: size(self.x) > 0
)");
    auto rules = oa::cel_rules(*s);
    REQUIRE(rules.size() == 2);
    CHECK(rules[0].path == "spec");
    CHECK(rules[0].rule == "self.a == self.b");
    CHECK(rules[0].message == "a must equal b");
    CHECK(rules[1].path == "spec.groups[*]");
    CHECK(rules[1].message.empty());
}

TEST_CASE("openapi: weird schemas compile to errors, never crash") {
    auto bad = [](const std::string& text) {
        Diagnostics d;
        auto s = oa::compile(yaml(text), "s.yaml", d);
        return !s && d.has_errors();
    };
    CHECK(bad("properties: [a, b]"));
    CHECK(bad("type: 5"));
    CHECK(bad("type: strin"));
    CHECK(bad("items: [{type: string}]"));
    CHECK(bad("required: a"));
    CHECK(bad("minLength: -1"));
    CHECK(bad("multipleOf: 0"));
    CHECK(bad("enum: x"));
    CHECK(bad("$ref: '#/definitions/x'"));
    CHECK(bad("x-kubernetes-list-type: bag"));
    CHECK(bad("x-kubernetes-list-type: map"));
    CHECK(bad("properties: {a: 5}"));
    CHECK(bad("anyOf: []"));
    CHECK(bad("- not a map"));

    // No type at all validates nothing about the type.
    CHECK(check("description: anything", "[1, {a: 2}]", {.reject_unknown_fields = false}).empty());
    // A deep schema: the compiler's depth limit, not the stack, stops it.
    Node deep = Node::mapping();
    for (int i = 0; i < 300; ++i) {
        Node props = Node::mapping();
        props.set("a", std::move(deep));
        Node level = Node::mapping();
        level.set("properties", std::move(props));
        deep = std::move(level);
    }
    Diagnostics dd;
    CHECK(oa::compile(deep, "s.yaml", dd) == nullptr);
    CHECK(qf_test::has_rule(dd, "schema.invalid"));
}

TEST_CASE("openapi: max_errors caps the findings per object") {
    const char* s = "type: array\nitems: {type: integer}";
    auto d = check(s, "[a, b, c, d, e]", {.max_errors = 3});
    CHECK(d.all().size() == 3);
}

TEST_CASE("openapi: values print as Go prints them") {
    using namespace queueforge::openapi;
    CHECK(go_float(1e6) == "1e+06");
    CHECK(go_float(123456) == "123456");
    CHECK(go_float(0.5) == "0.5");
    CHECK(go_float(1e-5) == "1e-05");
    CHECK(go_quote("a\"b\n\x01") == "\"a\\\"b\\n\\x01\"");
    CHECK(go_quote("\xC3\xA9") == "\"\xC3\xA9\"");
    CHECK(go_json(yaml("{b: 1, a: [x, 2.5, null, true], c: '<&>'}")) ==
          "{\"a\":[\"x\",2.5,null,true],\"b\":1,\"c\":\"\\u003c\\u0026\\u003e\"}");
    CHECK(go_value(yaml("1.0")) == "1");
    CHECK(rune_count("\xF0\x9F\x92\xA9x") == 2);
}

TEST_CASE("openapi: load_crds reads folders, Lists and served versions") {
    qf_test::TempDir tmp;
    const std::string crd = R"(apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: things.example.com}
spec:
  group: example.com
  names: {kind: Thing, plural: things}
  scope: Namespaced
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec: {type: object, properties: {size: {type: integer}}}
  - name: v0
    served: false
    storage: false
    schema:
      openAPIV3Schema: {type: object}
---
apiVersion: v1
kind: ConfigMap
metadata: {name: ignored}
)";
    qf_test::write_text(tmp.path / "a" / "thing.yaml", crd);
    std::string list = "apiVersion: v1\nkind: List\nitems:\n- " + std::string(R"({"apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition", "spec": {"group": "other.io", "names": {"kind": "Other"}, "versions": [{"name": "v2", "served": true, "schema": {"openAPIV3Schema": {"type": "object"}}}]}})");
    qf_test::write_text(tmp.path / "b" / "list.yml", list);
    qf_test::write_text(tmp.path / "b" / "notes.txt", "not yaml: [");

    oa::SchemaSet set;
    Diagnostics d;
    oa::load_crds({tmp.path.string()}, set, d);
    INFO(qf_test::messages(d));
    CHECK(d.empty());
    CHECK(set.size() == 2);
    const oa::Schema* thing = set.find("example.com/v1", "Thing");
    REQUIRE(thing);
    CHECK(set.find("example.com/v0", "Thing") == nullptr);
    CHECK(set.find("other.io/v2", "Other"));

    Diagnostics vd;
    oa::validate(*thing, yaml("apiVersion: example.com/v1\nkind: Thing\nmetadata: {name: t}\nspec: {size: big}"), "t.yaml",
                 {"example.com/v1", "Thing", "", "t"}, vd);
    const auto& x = only(vd);
    CHECK(x.rule == "schema.type");
    CHECK(x.object.kind == "Thing");

    Diagnostics missing;
    oa::load_crds({(tmp.path / "nope").string()}, set, missing);
    CHECK(missing.has_errors());

    // A bad pattern makes the CRD's schema unusable: reported, not added.
    oa::SchemaSet set2;
    Diagnostics bad;
    std::string broken = crd;
    broken.replace(broken.find("{type: integer}"), 15, "{type: integer, pattern: '(?<=x)'}");
    qf_test::write_text(tmp.path / "c" / "broken.yaml", broken);
    oa::load_crds({(tmp.path / "c").string()}, set2, bad);
    CHECK(bad.has_errors());
    CHECK(set2.find("example.com/v1", "Thing") == nullptr);
}

TEST_CASE("openapi: an unknown field suggests the closest declared property", "[openapi][defects]") {
    const std::string s = R"(type: object
properties:
  spec:
    type: object
    properties:
      queueingStrategy: {type: string}
      namespaceSelector: {type: object}
      a: {type: string}
)";
    const std::string base = "apiVersion: v1\nkind: Thing\nmetadata: {name: x}\n";
    auto typo = only(check_object(s, base + "spec:\n  queuingStrategy: StrictFIFO\n"));
    CHECK(typo.rule == "schema.unknown-field");
    CHECK(typo.message == "unknown field \"spec.queuingStrategy\"; did you mean \"queueingStrategy\"?");
    CHECK(typo.mark.line == 5);
    // Nothing close, or a one-letter key that shares nothing: the server's words only.
    CHECK(only(check_object(s, base + "spec:\n  replicas: 3\n")).message == "unknown field \"spec.replicas\"");
    CHECK(only(check_object(s, base + "spec:\n  b: x\n")).message == "unknown field \"spec.b\"");
}
