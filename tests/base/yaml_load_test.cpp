#include <catch2/catch.hpp>

#include <queueforge/base/yaml_load.hpp>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <vector>

using namespace queueforge;

namespace {

struct Loaded {
    std::vector<Document> docs;
    Diagnostics diags;
};

Loaded load(const std::string& text, const LoadOptions& opts = {}) {
    Loaded l;
    l.docs = load_yaml("t.yaml", text, l.diags, opts);
    return l;
}

Node load_one(const std::string& text) {
    Loaded l = load(text);
    INFO(render_text(l.diags, {{"t.yaml", text}}));
    REQUIRE_FALSE(l.diags.has_errors());
    REQUIRE(l.docs.size() == 1);
    return l.docs[0].root;
}

const Diagnostic* find_rule(const Diagnostics& d, const std::string& rule) {
    for (const auto& x : d.all())
        if (x.rule == rule) return &x;
    return nullptr;
}

// Loads text that must fail with `rule`; returns that diagnostic.
Diagnostic expect_error(const std::string& text, const std::string& rule, const LoadOptions& opts = {}) {
    Loaded l = load(text, opts);
    INFO(render_text(l.diags, {}));
    CHECK(l.docs.empty());
    REQUIRE(l.diags.has_errors());
    const Diagnostic* d = find_rule(l.diags, rule);
    REQUIRE(d != nullptr);
    CHECK(d->severity == Severity::Error);
    CHECK(d->file == "t.yaml");
    return *d;
}

std::string nested(const std::string& open, const std::string& close, int depth) {
    std::string s;
    for (int i = 0; i < depth; ++i) s += open;
    for (int i = 0; i < depth; ++i) s += close;
    return s;
}

std::string nested_block_maps(int depth) {
    std::string s;
    for (int i = 0; i < depth; ++i) s += std::string(static_cast<std::size_t>(i) * 2, ' ') + "a:\n";
    s += std::string(static_cast<std::size_t>(depth) * 2, ' ') + "x\n";
    return s;
}

std::string billion_laughs() {
    std::string s = "a: &a [\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\"]\n";
    const std::string names = "abcdefghij";
    for (std::size_t i = 1; i < names.size(); ++i) {
        const std::string prev = "*" + names.substr(i - 1, 1);
        s += names.substr(i, 1) + ": &" + names.substr(i, 1) + " [";
        for (int k = 0; k < 9; ++k) s += (k ? "," : "") + prev;
        s += "]\n";
    }
    return s;
}

// A scratch directory removed again when the test ends.
struct TempDir {
    std::filesystem::path path;
    TempDir() {
        std::random_device rd;
        path = std::filesystem::temp_directory_path() / ("qf-yaml-test-" + std::to_string(rd()));
        std::filesystem::create_directories(path);
    }
    ~TempDir() {
        std::error_code ec;
        std::filesystem::remove_all(path, ec);
    }
    std::string write(const std::string& name, const std::string& content) const {
        auto p = path / name;
        std::ofstream(p, std::ios::binary) << content;
        return p.string();
    }
};

}  // namespace

TEST_CASE("yaml: builds maps, lists and scalars with 1-based positions") {
    Node root = load_one("apiVersion: v1\nkind: Namespace\nspec:\n  items: [1, x]\n  flag: true\n");
    REQUIRE(root.is_map());
    CHECK(root.mark() == Mark{1, 1});
    REQUIRE(root.entries().size() == 3);
    CHECK(root.entries()[0].key == "apiVersion");
    CHECK(root.entries()[0].key_mark() == Mark{1, 1});
    CHECK(root.find("kind")->text() == "Namespace");
    CHECK(root.find("kind")->mark() == Mark{2, 7});
    const Node* spec = root.find("spec");
    REQUIRE(spec != nullptr);
    CHECK(spec->entries()[0].key_mark() == Mark{4, 3});
    const Node* items = spec->find("items");
    REQUIRE(items->is_seq());
    CHECK(items->mark() == Mark{4, 10});
    CHECK(items->items()[0].kind() == Node::Kind::Int);
    CHECK(items->items()[0].as_int() == 1);
    CHECK(items->items()[1].is_string());
    CHECK(items->items()[1].mark() == Mark{4, 14});
    CHECK(spec->find("flag")->kind() == Node::Kind::Bool);
    CHECK(spec->find("flag")->as_bool());
}

TEST_CASE("yaml: plain scalars are typed like Kubernetes (go-yaml v2)") {
    using K = Node::Kind;
    struct Case {
        const char* in;
        K kind;
        const char* text;
    };
    const Case cases[] = {
        // YAML 1.1 booleans, exactly the spellings go-yaml v2 lists.
        {"true", K::Bool, "true"}, {"True", K::Bool, "true"}, {"TRUE", K::Bool, "true"},
        {"yes", K::Bool, "true"}, {"Yes", K::Bool, "true"}, {"YES", K::Bool, "true"},
        {"y", K::Bool, "true"}, {"Y", K::Bool, "true"}, {"on", K::Bool, "true"},
        {"On", K::Bool, "true"}, {"ON", K::Bool, "true"}, {"false", K::Bool, "false"},
        {"no", K::Bool, "false"}, {"N", K::Bool, "false"}, {"off", K::Bool, "false"},
        {"OFF", K::Bool, "false"}, {"tRUE", K::String, "tRUE"}, {"yES", K::String, "yES"},
        {"oN", K::String, "oN"},
        // Nulls.
        {"~", K::Null, "null"}, {"null", K::Null, "null"}, {"Null", K::Null, "null"},
        {"NULL", K::Null, "null"}, {"nULL", K::String, "nULL"},
        // Integers: canonical decimal text so as_int() works.
        {"42", K::Int, "42"}, {"-17", K::Int, "-17"}, {"+5", K::Int, "5"}, {"0", K::Int, "0"},
        {"-0", K::Int, "0"}, {"0x1F", K::Int, "31"}, {"0o17", K::Int, "15"}, {"017", K::Int, "15"},
        {"0b101", K::Int, "5"}, {"1_000", K::Int, "1000"}, {"9223372036854775807", K::Int, "9223372036854775807"},
        {"-9223372036854775808", K::Int, "-9223372036854775808"},
        {"18446744073709551615", K::Int, "18446744073709551615"},
        // Past uint64 go-yaml falls back to a float; 08 is not octal but is a float.
        {"18446744073709551616", K::Float, "18446744073709551616"}, {"08", K::Float, "08"},
        // Floats keep their spelling.
        {"1.5", K::Float, "1.5"}, {"1.10", K::Float, "1.10"}, {"1e3", K::Float, "1e3"},
        {".5", K::Float, ".5"}, {"-.5e-3", K::Float, "-.5e-3"}, {".inf", K::Float, ".inf"},
        {"-.Inf", K::Float, "-.Inf"}, {".NaN", K::Float, ".NaN"}, {"1e-999", K::Float, "1e-999"},
        // Go's ParseFloat sees these raw: underscores only between digits.
        {".5e1_0", K::Float, ".5e1_0"}, {".5_5", K::Float, ".5_5"}, {".5_", K::String, ".5_"},
        {".5__5", K::String, ".5__5"},
        // Strings, including what only YAML 1.1 or 1.2 readers would type.
        {"1e999", K::String, "1e999"}, {"36Gi", K::String, "36Gi"}, {"500m", K::String, "500m"},
        {"2024-01-01", K::String, "2024-01-01"}, {"1:30", K::String, "1:30"}, {"0x", K::String, "0x"},
        {"1.2.3", K::String, "1.2.3"}, {"._5", K::String, "._5"}, {"nan", K::String, "nan"},
        {"team-a", K::String, "team-a"},
    };
    for (const auto& c : cases) {
        INFO(c.in);
        Node root = load_one(std::string("v: ") + c.in + "\n");
        const Node* v = root.find("v");
        REQUIRE(v != nullptr);
        CHECK(v->kind() == c.kind);
        CHECK(v->text() == c.text);
        CHECK_FALSE(v->quoted());
    }
    CHECK(load_one("v: 0x10\n").find("v")->as_int() == 16);
    CHECK(load_one("v:\n").find("v")->is_null());
}

TEST_CASE("yaml: quoted and block scalars are strings") {
    Node root = load_one("a: \"true\"\nb: '0755'\nc: |\n  line1\n  line2\nd: >-\n  folded\n  text\ne: \"\"\n");
    for (const char* k : {"a", "b", "c", "d", "e"}) {
        INFO(k);
        CHECK(root.find(k)->is_string());
        CHECK(root.find(k)->quoted());
    }
    CHECK(root.find("a")->text() == "true");
    CHECK(root.find("c")->text() == "line1\nline2\n");
    CHECK(root.find("d")->text() == "folded text");
    CHECK(root.find("e")->text().empty());
    CHECK(load_one("\"just a string\"\n").text() == "just a string");
}

TEST_CASE("yaml: core tags are honoured, other tags rejected") {
    Node root = load_one("a: !!str 12\nb: !!int \"42\"\nc: !!float 1\nd: !!bool yes\ne: !!null ''\nf: !!str\n"
                         "g: !!map {x: 1}\nh: !!seq [1]\n");
    CHECK(root.find("a")->is_string());
    CHECK(root.find("a")->text() == "12");
    CHECK(root.find("b")->kind() == Node::Kind::Int);
    CHECK(root.find("b")->as_int() == 42);
    CHECK(root.find("c")->kind() == Node::Kind::Float);
    CHECK(root.find("d")->kind() == Node::Kind::Bool);
    CHECK(root.find("e")->is_null());
    CHECK(root.find("f")->is_string());
    CHECK(root.find("g")->is_map());
    CHECK(root.find("h")->is_seq());

    Diagnostic d = expect_error("a: !!int abc\n", "yaml.tag");
    CHECK(d.mark == Mark{1, 4});
    CHECK_THAT(d.message, Catch::Contains("!!int"));
    expect_error("a: !!bool 1\n", "yaml.tag");
    expect_error("a: !custom x\n", "yaml.tag");
    expect_error("a: !!binary aGVsbG8=\n", "yaml.tag");
    expect_error("a: !!seq {x: 1}\n", "yaml.tag");
    expect_error("a: !foo [1]\n", "yaml.tag");
}

TEST_CASE("yaml: JSON input loads, tab-indented or not") {
    Node root = load_one(
        "{\n\t\"kind\": \"Namespace\",\n\t\"items\": [\n\t\t1,\n\t\t\"x\",\n\t\ttrue,\n\t\tnull\n\t]\n}\n");
    CHECK(root.find("kind")->text() == "Namespace");
    const Node* items = root.find("items");
    REQUIRE(items->size() == 4);
    CHECK(items->items()[0].kind() == Node::Kind::Int);
    CHECK(items->items()[1].is_string());
    CHECK(items->items()[2].kind() == Node::Kind::Bool);
    CHECK(items->items()[3].is_null());
}

TEST_CASE("yaml: syntax errors are positioned") {
    Diagnostic d = expect_error("a: b: c\n", "yaml.syntax");
    CHECK(d.mark == Mark{1, 5});
    CHECK_THAT(d.message, Catch::Contains("illegal map value"));

    d = expect_error("a: [1, 2\n", "yaml.syntax");
    CHECK(d.mark.line == 2);

    d = expect_error("a: 1\nb: *nope\n", "yaml.syntax");
    CHECK(d.mark.line == 2);
    CHECK_THAT(d.message, Catch::Contains("anchor"));

    // yaml-cpp would let these run to the end of the file.
    d = expect_error("a: \"unterminated\nb: 1\n", "yaml.syntax");
    CHECK(d.mark == Mark{1, 4});
    CHECK_THAT(d.message, Catch::Contains("never closed"));
    d = expect_error("a: 1\nb: ['x', 'unterminated]\n", "yaml.syntax");
    CHECK(d.mark == Mark{2, 10});
    // A quote inside a plain scalar is just a character.
    CHECK(load_one("a: it's\nb: say \"hi\n").find("b")->text() == "say \"hi");
    CHECK(load_one("a: x\n  'tis continued\n").find("a")->text() == "x 'tis continued");
}

TEST_CASE("yaml: a block-map line without ':' is an error") {
    // yaml-cpp would read "labels" as a key with a null value.
    Diagnostic d = expect_error("metadata:\n  name: foo\n  labels\n", "yaml.syntax");
    CHECK(d.mark == Mark{3, 3});
    CHECK_THAT(d.message, Catch::Contains("expected ':' after \"labels\""));
    // Block-scalar content that is not indented enough.
    expect_error("- name: |\n  x\n", "yaml.syntax");
    expect_error("a:\n  b: 1\n  ...\n", "yaml.syntax");

    // A line at its key's column is the next key, not the key's value.
    d = expect_error("name:\nca # comment\na: 1\n", "yaml.syntax");
    CHECK(d.mark == Mark{2, 1});
    CHECK(load_one("key:\n- a\nother:\n  - b\n").find("key")->is_seq());
    CHECK(load_one("- key:\n  - a\n").items()[0].find("key")->is_seq());

    // Explicit keys indent their values from the indicators.
    Node explicit_keys = load_one("? a\n:\n  b: 1\n? &k c\n: d\nlist:\n  - ? e\n    :\n      f: 1\n");
    CHECK(explicit_keys.find("a")->find("b")->as_int() == 1);
    CHECK(explicit_keys.find("c")->text() == "d");
    CHECK(explicit_keys.find("list")->items()[0].find("e")->find("f") != nullptr);

    // Keys without values are fine where YAML allows them.
    Node root = load_one("? a\n? b\n: c\nd:\n");
    CHECK(root.find("a")->is_null());
    CHECK(root.find("b")->text() == "c");
    CHECK(root.find("d")->is_null());
    root = load_one("{a, b: }\n");
    CHECK(root.find("a")->is_null());
    CHECK(root.find("b")->is_null());
}

TEST_CASE("yaml: content after a finished document needs ---") {
    // yaml-cpp would quietly start a second document here.
    Diagnostic d = expect_error("- a\nb: c\n", "yaml.syntax");
    CHECK(d.mark == Mark{2, 1});
    CHECK_THAT(d.message, Catch::Contains("---"));
    expect_error("[1]\n[2]\n", "yaml.syntax");
    expect_error("a: 1\n---\n- b\n# comment\n\nc: d\n", "yaml.syntax");

    // yaml-cpp also starts a document at an indented ---, which YAML reads
    // as text ("x ---" here) or, as in this case, as an error.
    d = expect_error(" - x\n ---\n", "yaml.syntax");
    CHECK(d.mark == Mark{2, 2});
    CHECK(load_one("- x\n ---\n").items()[0].text() == "x ---");

    // Explicit markers, including after multi-byte text, are fine.
    CHECK(load("a: 1\n...\nb: 2\n").docs.size() == 2);
    Loaded l = load("a: caf\xC3\xA9 \xF0\x9F\x9A\x80\n# c\n---\nb: 1\n--- # comment\nc: 2\n");
    INFO(render_text(l.diags, {}));
    CHECK(l.docs.size() == 3);
    CHECK(l.diags.empty());
}

TEST_CASE("yaml: tabs used as indentation are rejected with a clear message") {
    Diagnostic d = expect_error("a:\n\tb: 1\n", "yaml.tab");
    CHECK(d.mark == Mark{2, 1});
    CHECK(d.message == "tab character used for indentation; YAML allows only spaces");

    d = expect_error("a:\n  b: 1\n  \tc: 2\n", "yaml.tab");
    CHECK(d.mark == Mark{3, 3});

    d = expect_error("list:\n- a\n\t- b\n", "yaml.tab");
    CHECK(d.mark == Mark{3, 1});

    // Tabs that are not indentation are fine.
    Node root = load_one("a: |\n  x\n  \ty\nb: 2\n");
    CHECK(root.find("a")->text() == "x\n\ty\n");
    load_one("a: 1\n\t# a comment after a tab\nb: 2\n");
    load_one("a:\n  b: 1\n\t# c\n  c: 2\n");
    load_one("a: 1\t\nb: [1,\n\t2]\n");
    load_one("a: 1\n\t\nb: 2\n");
    CHECK(load_one("a: \"x\n\ty\"\n").find("a")->text() == "x y");
    CHECK(load_one("a: >\n  x\n  \ty\n").find("a")->text() == "x\n\ty\n");

    // A tab-only line inside a block scalar ends it; yaml-cpp's complaint is
    // reported with the same message.
    d = expect_error("a: |\n  x\n\t\n  y\n", "yaml.tab");
    CHECK(d.mark == Mark{3, 1});
    CHECK(d.message == "tab character used for indentation; YAML allows only spaces");
}

TEST_CASE("yaml: duplicate keys are errors that name the first definition") {
    Diagnostic d = expect_error("a: 1\nb: 2\na: 3\n", "yaml.duplicate-key");
    CHECK(d.mark == Mark{3, 1});
    CHECK(d.message == "duplicate key \"a\" (first defined at line 1, column 1)");

    d = expect_error("spec:\n  x: 1\n  y:\n    x: 2\n  x: 3\n", "yaml.duplicate-key");
    CHECK(d.mark == Mark{5, 3});
    CHECK(d.message == "duplicate key \"x\" (first defined at line 2, column 3)");

    d = expect_error("{a: 1, a: 2}", "yaml.duplicate-key");
    CHECK(d.mark == Mark{1, 8});

    // Keys compare after Kubernetes' conversion to strings.
    expect_error("1: a\n\"1\": b\n", "yaml.duplicate-key");

    std::string big;
    for (int i = 0; i < 2000; ++i) big += "k" + std::to_string(i) + ": " + std::to_string(i) + "\n";
    big += "k1500: again\n";
    d = expect_error(big, "yaml.duplicate-key");
    CHECK(d.mark == Mark{2001, 1});
    CHECK_THAT(d.message, Catch::Contains("line 1501, column 1"));
}

TEST_CASE("yaml: nesting deeper than max_depth is an error, never a stack overflow") {
    load_one(nested("[", "]", 200));
    Diagnostic d = expect_error(nested("[", "]", 201), "yaml.depth");
    CHECK(d.mark == Mark{1, 201});

    for (int depth : {10000, 100000}) {
        INFO(depth);
        expect_error(std::string(static_cast<std::size_t>(depth), '['), "yaml.depth");
        expect_error(nested("[", "]", depth), "yaml.depth");
        expect_error(nested("{a: ", "}", depth), "yaml.depth");
    }
    d = expect_error(nested_block_maps(300), "yaml.depth");
    CHECK(d.mark == Mark{201, 401});
    load_one(nested_block_maps(199));

    // Past yaml-cpp's own recursion guard the error still comes out positioned.
    LoadOptions deep;
    deep.max_depth = 1000000;
    expect_error(nested("[", "]", 100000), "yaml.depth", deep);
}

TEST_CASE("yaml: aliases are expanded as copies") {
    Node root = load_one("base: &b {cpu: 1, mem: [a, b]}\none: *b\ntwo: *b\nname: &n x\nkey: *n\n");
    CHECK(root.find("one")->same_as(*root.find("base")));
    CHECK(root.find("two")->same_as(*root.find("base")));
    CHECK(root.find("one")->mark() == Mark{2, 6});
    CHECK(root.find("key")->text() == "x");

    Diagnostic d = expect_error("a: &loop [1, *loop]\n", "yaml.alias");
    CHECK(d.mark == Mark{1, 14});
    CHECK_THAT(d.message, Catch::Contains("*loop"));

    // An alias may not carry nesting past the limit either.
    LoadOptions shallow;
    shallow.max_depth = 3;
    load_one("a: &x [[1]]\n");
    d = expect_error("a: &x [[1]]\nb: [*x]\n", "yaml.depth", shallow);
    CHECK(d.mark == Mark{2, 5});
    // Anchors do not leak into the next document.
    expect_error("a: &x 1\n---\nb: *x\n", "yaml.syntax");
}

TEST_CASE("yaml: billion laughs is refused quickly") {
    const std::string doc = billion_laughs();
    const auto start = std::chrono::steady_clock::now();
    Diagnostic d = expect_error(doc, "yaml.alias-budget");
    CHECK_THAT(d.message, Catch::Contains("excessive aliasing"));

    LoadOptions small;
    small.max_nodes = 1000;
    d = expect_error(doc, "yaml.alias-budget", small);
    CHECK(d.message == "alias expansion exceeds 1000 nodes");
    CHECK(d.mark.line == 4);

    // With the ratio check out of reach (huge documents), the node budget
    // alone still stops it long before a billion nodes.
    LoadOptions budget;
    budget.max_nodes = 100000;
    expect_error(doc, "yaml.alias-budget", budget);
    const auto elapsed = std::chrono::steady_clock::now() - start;
    CHECK(elapsed < std::chrono::seconds(5));
}

TEST_CASE("yaml: moderate alias use stays within the ratio") {
    std::string doc = "defaults: &d {a: 1, b: 2, c: [x, y, z]}\n";
    for (int i = 0; i < 200; ++i)
        doc += "k" + std::to_string(i) + ": {own: " + std::to_string(i) + ", other: " + std::to_string(i) +
               ", more: [1, 2, 3], shared: *d}\n";
    Node root = load_one(doc);
    CHECK(root.size() == 201);
}

TEST_CASE("yaml: keys must be strings, merge keys are refused") {
    Diagnostic d = expect_error("? [1]\n: 2\n", "yaml.non-string-key");
    CHECK(d.mark == Mark{1, 3});
    expect_error("{[1]: 2}\n", "yaml.non-string-key");
    expect_error("{{a: 1}: 2}\n", "yaml.non-string-key");
    expect_error("a: &x {b: 1}\n*x : 2\n", "yaml.non-string-key");
    expect_error("~: 1\n", "yaml.non-string-key");
    expect_error("? \n: 1\n", "yaml.non-string-key");

    d = expect_error("base: &b {x: 1}\nderived:\n  <<: *b\n  y: 2\n", "yaml.merge-key");
    CHECK(d.mark == Mark{3, 3});
    CHECK_THAT(d.message, Catch::Contains("merge keys"));
    CHECK(load_one("'<<': 1\n").find("<<") != nullptr);

    // Non-string scalar keys become their JSON spelling, as in Kubernetes,
    // with a warning when that changes what was written.
    Loaded l = load("yes: 1\n0x10: 2\n3: c\n11e3: d\n1.50: e\n.inf: f\n");
    REQUIRE_FALSE(l.diags.has_errors());
    REQUIRE(l.docs.size() == 1);
    const Node& root = l.docs[0].root;
    CHECK(root.entries()[0].key == "true");
    CHECK(root.entries()[1].key == "16");
    CHECK(root.entries()[2].key == "3");
    CHECK(root.entries()[3].key == "11000");
    CHECK(root.entries()[4].key == "1.5");
    CHECK(root.entries()[5].key == ".inf");
    CHECK(l.diags.count(Severity::Warning) == 4);
    CHECK(find_rule(l.diags, "yaml.non-string-key")->mark == Mark{1, 1});
}

TEST_CASE("yaml: size and node limits") {
    LoadOptions opts;
    opts.max_bytes = 10;
    Diagnostic d = expect_error("a: 123456789012345\n", "yaml.too-large", opts);
    CHECK(d.message == "file is 19 bytes; the limit is 10");
    CHECK_FALSE(d.mark.known());

    LoadOptions nodes;
    nodes.max_nodes = 10;
    expect_error("[1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]\n", "yaml.too-large", nodes);
}

TEST_CASE("yaml: binary and badly encoded input is an error") {
    Diagnostic d = expect_error(std::string("a\0b: 1\n", 7), "yaml.encoding");
    CHECK(d.mark == Mark{1, 2});
    d = expect_error("a: 1\nb: \xff\n", "yaml.encoding");
    CHECK(d.mark == Mark{2, 4});
    expect_error("a: \xc0\xaf\n", "yaml.encoding");        // overlong
    expect_error("a: \xed\xa0\x80\n", "yaml.encoding");    // surrogate
    expect_error("a: \x1b[31mred\n", "yaml.encoding");     // raw escape character
    // DEL, the first byte past printable ASCII (which is read without
    // decoding), at its column after a long ASCII line.
    d = expect_error("key: " + std::string(100, 'x') + "\x7f\n", "yaml.encoding");
    CHECK(d.mark == Mark{1, 106});
    d = expect_error("a: ~\nb: \tc\x7f\n", "yaml.encoding");
    CHECK(d.mark == Mark{2, 6});
    expect_error("\xff\xfe" "a\0:\0 \0" "1\0", "yaml.encoding");  // UTF-16
    // Plain bytes are skipped sixteen at a time: a bad byte is found at its
    // position wherever it falls in or after such a block, and a line break
    // in the block before it still counts.
    for (std::size_t at = 0; at < 40; ++at) {
        INFO(at);
        const std::string text = "a: 1\nkey: " + std::string(at, 'x') + "\x7f" + std::string(20, 'y') + "\n";
        d = expect_error(text, "yaml.encoding");
        CHECK(d.mark == Mark{2, static_cast<int>(6 + at)});
        d = expect_error("a: 1\nkey: " + std::string(at, 'x') + "\x01\n", "yaml.encoding");
        CHECK(d.mark == Mark{2, static_cast<int>(6 + at)});
    }
    // Valid multi-byte text and a BOM are fine; columns count bytes.
    Node root = load_one("\xEF\xBB\xBFname: caf\xC3\xA9 \xF0\x9F\x9A\x80\nx: [y]\n");
    CHECK(root.find("name")->text() == "caf\xC3\xA9 \xF0\x9F\x9A\x80");
    CHECK(root.entries()[0].key_mark() == Mark{1, 4});
}

TEST_CASE("yaml: random bytes and random YAML-ish text never crash") {
    std::mt19937 rng(12345);
    const std::string alphabet = "ab:-[]{},&*!|>'\"#?%@` \n\t\\~.01yn";
    LoadOptions opts;
    opts.max_nodes = 5000;
    for (int round = 0; round < 3000; ++round) {
        std::string text;
        const std::size_t len = rng() % 120;
        const bool binary = round % 3 == 0;
        for (std::size_t i = 0; i < len; ++i)
            text += binary ? static_cast<char>(rng() % 256) : alphabet[rng() % alphabet.size()];
        Loaded l = load(text, opts);
        INFO(text);
        if (l.diags.has_errors()) CHECK(l.docs.empty());
    }
}

TEST_CASE("yaml: empty documents are dropped but counted") {
    for (const char* text : {"", "---\n", "# only a comment\n# and another\n", "---\n---\n", "--- ~\n", "\n\n"}) {
        INFO(text);
        Loaded l = load(text);
        CHECK(l.docs.empty());
        CHECK(l.diags.empty());
    }
    Loaded l = load("---\n# nothing here\n---\na: 1\n...\n---\n---\nb: 2\n");
    REQUIRE(l.diags.empty());
    REQUIRE(l.docs.size() == 2);
    CHECK(l.docs[0].index == 1);
    CHECK(l.docs[0].start == Mark{3, 1});
    CHECK(l.docs[0].root.find("a") != nullptr);
    CHECK(l.docs[1].index == 3);
    CHECK(l.docs[1].root.find("b") != nullptr);

    l = load("a: 1\n---\nb: 2\n");
    REQUIRE(l.docs.size() == 2);
    CHECK(l.docs[0].index == 0);
    CHECK(l.docs[1].index == 1);
    CHECK(l.docs[1].start == Mark{2, 1});
}

TEST_CASE("yaml: CRLF line endings") {
    Node root = load_one("a: 1\r\nb: [x, z]\r\nc:\r\n  - z\r\n");
    CHECK(root.find("a")->as_int() == 1);
    CHECK(root.find("b")->items()[1].text() == "z");
    CHECK(root.find("c")->items()[0].text() == "z");
    CHECK(root.find("c")->items()[0].mark() == Mark{4, 5});
}

TEST_CASE("yaml: errors are capped") {
    std::string text;
    for (int i = 0; i < 500; ++i) text += "a: " + std::to_string(i) + "\n";
    Loaded l = load(text);
    CHECK(l.docs.empty());
    CHECK(l.diags.count(Severity::Error) <= 51);
    CHECK(l.diags.count(Severity::Error) >= 50);
}

TEST_CASE("yaml: read_file_limited") {
    TempDir dir;
    Diagnostics diags;
    std::string out;

    const std::string content = std::string("a: 1\n\0\xff binary\r\n", 16);
    const std::string file = dir.write("ok.yaml", content);
    CHECK(read_file_limited(file, out, diags));
    CHECK(out == content);
    CHECK(diags.empty());

    out = "untouched";
    CHECK_FALSE(read_file_limited(file, out, diags, 8));
    CHECK(out == "untouched");
    REQUIRE(diags.all().size() == 1);
    CHECK(diags.all()[0].rule == "yaml.too-large");
    CHECK_THAT(diags.all()[0].message, Catch::Contains(file));
    CHECK_THAT(diags.all()[0].message, Catch::Contains("16 bytes"));

    Diagnostics d2;
    const std::string missing = (dir.path / "missing.yaml").string();
    CHECK_FALSE(read_file_limited(missing, out, d2));
    REQUIRE(d2.has_errors());
    CHECK_THAT(d2.all()[0].message, Catch::Contains(missing));
    CHECK(d2.all()[0].file == missing);

    Diagnostics d3;
    CHECK_FALSE(read_file_limited(dir.path.string(), out, d3));
    REQUIRE(d3.has_errors());
    CHECK_THAT(d3.all()[0].message, Catch::Contains("directory"));

    Diagnostics d4;
    const std::string empty = dir.write("empty.yaml", "");
    CHECK(read_file_limited(empty, out, d4));
    CHECK(out.empty());
}

TEST_CASE("yaml: a large stream's scans side by side report what they report one after the other",
          "[yaml]") {
    using namespace queueforge;
    // Bad input for each scan: an invalid UTF-8 byte (encoding) and a tab
    // used as indentation (layout). One after the other only the encoding
    // is reported; side by side (two threads) it must be the same, and the
    // layout's finding alone once the encoding is sound.
    const std::string good = "a:\n  b: 1\n";
    const std::string tab = "c:\n\td: 2\n";
    const std::string bad_byte = "e: \xff\n";
    auto findings = [](const std::string& text, unsigned threads) {
        LoadOptions o;
        o.threads = threads;
        o.parallel_min_bytes = threads > 1 ? 0 : o.parallel_min_bytes;
        Diagnostics d;
        const auto docs = load_yaml("x.yaml", text, d, o);
        std::string s = std::to_string(docs.size()) + " documents\n";
        for (const auto& f : d.all())
            s += std::to_string(f.mark.line) + ":" + std::to_string(f.mark.col) + " [" + f.rule + "] " + f.message + "\n";
        return s;
    };
    for (const std::string& text : {good + "---\n" + tab + "---\n" + bad_byte, good + "---\n" + tab, good + "---\n" + bad_byte,
                                    bad_byte + "---\n" + tab, good + "---\n" + good}) {
        INFO(text);
        const std::string one = findings(text, 1);
        CHECK(findings(text, 2) == one);
        CHECK(findings(text, 3) == one);
    }
    CHECK(findings(good + "---\n" + tab + "---\n" + bad_byte, 2).find("yaml.encoding") != std::string::npos);
    CHECK(findings(good + "---\n" + tab + "---\n" + bad_byte, 2).find("yaml.tab") == std::string::npos);
    CHECK(findings(good + "---\n" + tab, 2).find("yaml.tab") != std::string::npos);
    CHECK(findings(good + "---\n" + good, 2).starts_with("2 documents\n"));
}
