// Inputs the fuzz targets (fuzz/, scripts/fuzz.sh) found, kept as regression
// tests: each failed before its fix.
#include <queueforge/engines/timeline.hpp>
#include <queueforge/base/node_json.hpp>
#include <queueforge/base/yaml_load.hpp>

#include <catch2/catch.hpp>

using namespace queueforge;

namespace {

// `text` read with the fast reader (the default) and with yaml-cpp alone.
struct BothReaders {
    Diagnostics fast_found, full_found;
    std::vector<Document> fast, full;
};

BothReaders read_both(const std::string& text) {
    BothReaders r;
    LoadOptions full;
    full.fast_path = false;
    r.fast = load_yaml("x.yaml", text, r.fast_found);
    r.full = load_yaml("x.yaml", text, r.full_found, full);
    return r;
}

}  // namespace

// yaml-cpp reports nulls without end for a line starting with ",:"; the node
// budget (4M) stopped it only after a second (half a minute under the
// sanitizers) and 400 MB. Found by fuzz_thresholds, fuzz_scenario and
// fuzz_policy as timeouts on 7- to 2,611-byte inputs.
TEST_CASE("fuzz: a line starting with ',:' is a syntax error at once, not a flood of nodes", "[fuzz][yaml]") {
    for (const std::string text : {std::string("\n,:lv1l\n"), std::string(",:a\n")}) {
        INFO(text);
        Diagnostics d;
        LoadOptions slow;
        slow.fast_path = false;
        auto docs = load_yaml("x.yaml", text, d, slow);
        CHECK(docs.empty());
        REQUIRE(d.has_errors());
        CHECK(d.all().front().rule == "yaml.syntax");
        CHECK(d.all().front().message.find("nodes") == std::string::npos);
        CHECK(d.all().front().mark.line >= 1);
    }
    Diagnostics d;
    CHECK_FALSE(timeline::parse_thresholds("rangespec.yaml", "\n,:lv1l\n", d));
    REQUIRE(d.has_errors());
    CHECK(d.all().front().rule == "yaml.syntax");
    CHECK(d.all().front().mark.line == 2);
}

// The fast reader took a CR that ends the input (no LF after it) as a line
// end, where yaml-cpp reads it as part of the scalar before it ("b\r"), or
// as content it then refuses. The fast reader now leaves such input to
// yaml-cpp. Found by fuzz_yaml_diff on 23 bytes: "  ron: Kesr:.######+##V\r".
TEST_CASE("fuzz: a CR at the very end is read as yaml-cpp reads it, on either path", "[fuzz][yaml]") {
    for (const std::string text : {std::string("  ron: Kesr:.######+##V\r"), std::string("a: b\r"),
                                   std::string("a:\n  b: c\r"), std::string("a: b\n  \r")}) {
        INFO(text);
        const BothReaders r = read_both(text);
        CHECK(r.fast_found.all().size() == r.full_found.all().size());
        REQUIRE(r.fast.size() == r.full.size());
        for (std::size_t i = 0; i < r.fast.size(); ++i) CHECK(to_json(r.fast[i].root) == to_json(r.full[i].root));
    }
}

// A flow map's key with its ":" on the next line ("x: {na\n: b}"): the fast
// reader took it as the key of b; yaml-cpp reads a key without a value and a
// null key, and the full reader reports the null key. The fast reader now
// leaves such input to yaml-cpp. Found by fuzz_yaml_diff on a 763-byte
// mutated manifest ("- {name: memory, n:::...ominalQuot\n: 1000Gi}").
TEST_CASE("fuzz: a flow key whose ':' is on the next line is read as yaml-cpp reads it", "[fuzz][yaml]") {
    for (const std::string text : {std::string("x: {na\n: b}\n"), std::string("x: {\"a\"\n : b}\n"),
                                   std::string("r:\n  - {name: memory, n::::':::ominalQuot\n: 1000Gi}\n")}) {
        INFO(text);
        const BothReaders r = read_both(text);
        CHECK(r.fast_found.all().size() == r.full_found.all().size());
        CHECK(r.fast.size() == r.full.size());
    }
}

// A quoted key in a block map with its value right after the ':' ("'a':b"):
// the fast reader took it; yaml-cpp refuses it ("illegal map value"), as the
// value indicator needs a space after it outside flow collections. The fast
// reader now leaves it to yaml-cpp. Found by fuzz_yaml_diff on 330 bytes,
// minimized by libFuzzer to "s: q\n'':c".
TEST_CASE("fuzz: a quoted block key with no space after its ':' is an error on either path", "[fuzz][yaml]") {
    for (const std::string text : {std::string("s: q\n'':c"), std::string("x:\n  \"a\":b\n")}) {
        INFO(text);
        const BothReaders r = read_both(text);
        CHECK(r.fast_found.has_errors());
        CHECK(r.fast_found.all().size() == r.full_found.all().size());
        CHECK(r.fast.size() == r.full.size());
    }
}

// Many small aliases are still counted by the alias budget, not by the new
// bound on the nodes yaml-cpp reports itself.
TEST_CASE("fuzz: the bound on reported nodes leaves aliases and dense flow collections alone", "[fuzz][yaml]") {
    std::string flow = "a: [";
    for (int i = 0; i < 2000; ++i) flow += "{},";
    flow += "{}]\nb: &x {k: v}\nc: [*x, *x, *x, *x]\n";
    Diagnostics d;
    LoadOptions slow;
    slow.fast_path = false;
    auto docs = load_yaml("x.yaml", flow, d, slow);
    CHECK_FALSE(d.has_errors());
    REQUIRE(docs.size() == 1);
    CHECK(docs[0].root.find("a")->size() == 2001);
}

// The fast reader marked a document without "---" at column 1 of its first
// line; yaml-cpp's path marks it at the first token, past the indentation.
// Found by fuzz_yaml_diff on an indented excerpt of Kueue's generator.yaml.
TEST_CASE("fuzz: both YAML paths mark an indented document without --- at its first token", "[fuzz][yaml]") {
    for (const std::string text : {std::string("  a: 1\n"), std::string("# comment\n      a: 1\n      b: [x]\n")}) {
        INFO(text);
        Diagnostics fast_diags, slow_diags;
        auto fast = load_yaml("x.yaml", text, fast_diags);
        LoadOptions slow_opts;
        slow_opts.fast_path = false;
        auto slow = load_yaml("x.yaml", text, slow_diags, slow_opts);
        REQUIRE(fast.size() == 1);
        REQUIRE(slow.size() == 1);
        CHECK(fast[0].start == slow[0].start);
        CHECK(fast[0].start.col == fast[0].root.mark().col);
    }
}

// "{a:{b: c}}": the fast reader took the colon glued to a plain key as a value
// indicator, while yaml-cpp's path reports an empty key. The fast reader now
// declines and both paths say the same. Found by fuzz_yaml_diff on a mutated
// DataScienceCluster sample.
TEST_CASE("fuzz: a flow-map colon glued to a plain key reads the same on both YAML paths", "[fuzz][yaml]") {
    // "{nc?t: Q}" too: yaml-cpp reports an unknown token, the fast reader took it.
    for (const std::string text : {std::string("a: {b:{c: d}}\n"), std::string("s: {x: 1, serving:{m: n}}\n"),
                                   std::string("a: {nc?t: Q}\n"), std::string("a: {x: 1, n?t: Q}\n")}) {
        INFO(text);
        Diagnostics fast_diags, slow_diags;
        auto fast = load_yaml("x.yaml", text, fast_diags);
        LoadOptions slow_opts;
        slow_opts.fast_path = false;
        auto slow = load_yaml("x.yaml", text, slow_diags, slow_opts);
        CHECK(fast_diags.all().size() == slow_diags.all().size());
        CHECK(fast.size() == slow.size());
    }
    // JSON keeps the fast path: a quoted key may touch its colon.
    Diagnostics d;
    auto json = load_yaml("x.json", "{\"a\":{\"b\":1}}\n", d);
    CHECK_FALSE(d.has_errors());
    REQUIRE(json.size() == 1);
    CHECK(json[0].root.find("a")->find("b")->text() == "1");
}

// "nodeTaints:e ## effects value: \"true\"" is one plain scalar and a
// comment, so the line is not a map entry and yaml-cpp reports "end of map
// not found". The fast reader looked for the key's colon past the " #" and
// read the comment's "value:" as one. Found by fuzz_yaml_diff in CI.
// Likewise "kind: C\n\rapi": a CR without LF at a line start (fuzz_yaml_diff
// in a local run) made the fast reader skip it as a blank line.
TEST_CASE("fuzz: a colon inside a comment or a lone CR reads the same on both YAML paths", "[fuzz][yaml]") {
    for (const std::string text : {std::string("a: 1\nc:e # x: \"t\"\n"),
                                   std::string("spec:\n  nodeLabels:\n    t: spot\n  nodeTaints:e ## v: \"true\"\n"),
                                   // A lone CR at a line start: yaml-cpp reads it as part of the next key.
                                   std::string("kind: C\n\rapi\n"), std::string("kind: C\n\rapi: 1\n")}) {
        INFO(text);
        Diagnostics fast_diags, slow_diags;
        auto fast = load_yaml("x.yaml", text, fast_diags);
        LoadOptions slow_opts;
        slow_opts.fast_path = false;
        auto slow = load_yaml("x.yaml", text, slow_diags, slow_opts);
        CHECK(fast_diags.all().size() == slow_diags.all().size());
        CHECK(fast.size() == slow.size());
        for (std::size_t i = 0; i < fast.size() && i < slow.size(); ++i) CHECK(to_json(fast[i].root) == to_json(slow[i].root));
    }
}

// A YAML float may be .inf or .nan: parse_thresholds handed its text to
// std::stod, which throws on ".inf" (an uncaught exception: the fuzz target's
// "deadly signal"). Found by fuzz_thresholds; now a positioned type error.
TEST_CASE("fuzz: a threshold of .inf or .nan is a positioned error, not an exception", "[fuzz][timeline]") {
    for (const std::string value : {std::string(".inf"), std::string("-.Inf"), std::string(".NaN")}) {
        INFO(value);
        Diagnostics d;
        const std::string text = "clusterQueueClassesMinUsage:\n  cq: " + value + "\n";
        CHECK_FALSE(timeline::parse_thresholds("rangespec.yaml", text, d));
        REQUIRE(d.has_errors());
        CHECK(d.all().front().message.find("finite number") != std::string::npos);
        CHECK(d.all().front().mark.line == 2);
        CHECK(d.all().front().mark.col == 7);
    }
    Diagnostics d;
    auto t = timeline::parse_thresholds("rangespec.yaml", "clusterQueueClassesMinUsage:\n  cq: +12.5\n  b: 3e1\n", d);
    REQUIRE(t);
    REQUIRE(t->cq_min_usage.size() == 2);
    CHECK(t->cq_min_usage[0].second == 12.5);
    CHECK(t->cq_min_usage[1].second == 30.0);
}
