#include <catch2/catch.hpp>

#include <queueforge/base/yaml_emit.hpp>
#include <queueforge/base/yaml_load.hpp>

#include <chrono>
#include <cstdint>
#include <limits>
#include <random>
#include <set>
#include <string>
#include <vector>

using namespace queueforge;

namespace {

Node str(const std::string& s) { return Node::string(s); }
Node flt(const std::string& s) { return Node::scalar(Node::Kind::Float, s); }

Node map_of(std::vector<std::pair<std::string, Node>> entries) {
    Node m = Node::mapping();
    for (auto& [k, v] : entries) m.set(k, std::move(v));
    return m;
}

Node seq_of(std::vector<Node> items) {
    Node s = Node::sequence();
    for (auto& i : items) s.push(std::move(i));
    return s;
}

// Emits, loads back and requires the same tree (kinds included).
void require_round_trip(const Node& tree) {
    const std::string text = emit_yaml(tree);
    Diagnostics diags;
    auto docs = load_yaml("rt.yaml", text, diags);
    INFO("emitted:\n" << text);
    INFO(render_text(diags, {{"rt.yaml", text}}));
    REQUIRE_FALSE(diags.has_errors());
    if (tree.is_null()) {
        CHECK(docs.empty());  // a null document is dropped by the loader
        return;
    }
    REQUIRE(docs.size() == 1);
    CHECK(docs[0].root.same_as(tree));
}

std::string one_line(const Node& value) {
    std::string s = emit_yaml(map_of({{"k", value}}));
    REQUIRE(s.size() > 4);
    REQUIRE(s.back() == '\n');
    return s.substr(3, s.size() - 4);
}

Node cluster_queue() {
    Node labels = map_of({{"app.kubernetes.io/component", str("kueue-queueing")},
                          {"app.kubernetes.io/managed-by", str("queueforge")},
                          {"app.kubernetes.io/part-of", str("prod-gpu")},
                          {"queueforge.io/team", str("team-a")}});
    Node annotations = map_of({{"argocd.argoproj.io/sync-options", str("SkipDryRunOnMissingResource=true")},
                               {"argocd.argoproj.io/sync-wave", str("1")}});
    auto resource = [](const char* name, const char* quota) {
        return map_of({{"name", str(name)}, {"nominalQuota", str(quota)}});
    };
    Node gpu = resource("nvidia.com/gpu", "16");
    gpu.set("borrowingLimit", str("8"));
    gpu.set("lendingLimit", str("8"));
    Node flavor = map_of({{"name", str("h100")},
                          {"resources", seq_of({resource("cpu", "256"), resource("memory", "2Ti"), gpu})}});
    Node group = map_of({{"coveredResources", seq_of({str("cpu"), str("memory"), str("nvidia.com/gpu")})},
                         {"flavors", seq_of({flavor})}});
    Node spec = map_of({
        {"resourceGroups", seq_of({group})},
        {"cohortName", str("research")},
        {"queueingStrategy", str("BestEffortFIFO")},
        {"namespaceSelector", map_of({{"matchLabels", map_of({{"kubernetes.io/metadata.name", str("team-a")}})}})},
        {"flavorFungibility",
         map_of({{"whenCanBorrow", str("MayStopSearch")}, {"whenCanPreempt", str("TryNextFlavor")}})},
        {"preemption", map_of({{"reclaimWithinCohort", str("Never")},
                               {"borrowWithinCohort", map_of({{"policy", str("Never")}})},
                               {"withinClusterQueue", str("Never")}})},
        {"stopPolicy", str("None")},
    });
    return map_of({{"apiVersion", str("kueue.x-k8s.io/v1beta2")},
                   {"kind", str("ClusterQueue")},
                   {"metadata", map_of({{"name", str("team-a")}, {"labels", labels}, {"annotations", annotations}})},
                   {"spec", spec}});
}

// The ClusterQueue of conventions.md section 5.7, byte for byte.
const char* const kClusterQueueYaml = R"(apiVersion: kueue.x-k8s.io/v1beta2
kind: ClusterQueue
metadata:
  name: team-a
  labels:
    app.kubernetes.io/component: kueue-queueing
    app.kubernetes.io/managed-by: queueforge
    app.kubernetes.io/part-of: prod-gpu
    queueforge.io/team: team-a
  annotations:
    argocd.argoproj.io/sync-options: SkipDryRunOnMissingResource=true
    argocd.argoproj.io/sync-wave: "1"
spec:
  resourceGroups:
    - coveredResources:
        - cpu
        - memory
        - nvidia.com/gpu
      flavors:
        - name: h100
          resources:
            - name: cpu
              nominalQuota: "256"
            - name: memory
              nominalQuota: 2Ti
            - name: nvidia.com/gpu
              nominalQuota: "16"
              borrowingLimit: "8"
              lendingLimit: "8"
  cohortName: research
  queueingStrategy: BestEffortFIFO
  namespaceSelector:
    matchLabels:
      kubernetes.io/metadata.name: team-a
  flavorFungibility:
    whenCanBorrow: MayStopSearch
    whenCanPreempt: TryNextFlavor
  preemption:
    reclaimWithinCohort: Never
    borrowWithinCohort:
      policy: Never
    withinClusterQueue: Never
  stopPolicy: None
)";

}  // namespace

TEST_CASE("yaml: emitter matches the conventions example") {
    const Node cq = cluster_queue();
    CHECK(emit_yaml(cq) == kClusterQueueYaml);
    require_round_trip(cq);
}

TEST_CASE("yaml: scalar kinds print plain") {
    Node m = map_of({{"b", Node::boolean(true)},
                     {"f", Node::boolean(false)},
                     {"i", Node::integer(42)},
                     {"neg", Node::integer(-7)},
                     {"x", flt("1.5")},
                     {"inf", flt("-.inf")},
                     {"nil", Node::null_value()},
                     {"d", Node()},
                     {"s", str("text")}});
    CHECK(emit_yaml(m) == "b: true\nf: false\ni: 42\nneg: -7\nx: 1.5\ninf: -.inf\nnil: null\nd: null\ns: text\n");
}

TEST_CASE("yaml: yaml_needs_quotes") {
    const char* const quoted[] = {
        "", "true", "True", "TRUE", "tRuE", "false", "yes", "Yes", "YES", "yEs", "no", "NO", "y", "Y", "n", "N",
        "on", "On", "ON", "off", "Off", "null", "Null", "NULL", "nULL", "~",
        // Numbers of every reader.
        "0", "9", "-20", "+1", "0755", "0o17", "0x1F", "0X1f", "0b101", "1_000", "1e3", "1E3", "1e+3", ".5", "1.",
        "1.10", "1.2.3", "10.0.0.1", "-.5", ".inf", "-.Inf", "+.INF", ".NaN", ".nan", "08", "1:30", "190:20:30.15",
        "12345678901234567890123", "1e999", ".", ".5E1_0",
        // Timestamps.
        "2024-01-01", "2001-12-14t21:59:43.10-05:00", "2024-1-2",
        // Whitespace at the ends.
        " lead", "trail ", " ",
        // Leading indicators.
        "-x", "- x", "-", "?x", ":x", ",x", "[x", "]x", "{x", "}x", "#x", "&x", "*x", "!x", "|x", ">x", "'x",
        "\"x", "%x", "@x", "`x",
        // Structure inside.
        "a: b", "a #b", "x:", "a:\tb", "---", "--- x", "...", "...x", "<<", "=",
        // Control and non-printable characters, line breaks.
        "a\nb", "a\tb", "tab\t", "a\rb", "\x01", "a\x7f", "nel\xC2\x85", "ls\xE2\x80\xA8", "\xEF\xBB\xBF" "bom",
        "bad\xff",
    };
    for (const char* s : quoted) {
        INFO("'" << s << "'");
        CHECK(yaml_needs_quotes(s));
    }
    const char* const plain[] = {
        "36Gi",       "1Gi",        "500m",        "2Ti",         "100Mi",          "abc",
        "team-a",     "nvidia.com/gpu", "kueue.x-k8s.io/v1beta2", "BestEffortFIFO", "a:b",
        "a#b",        "foo bar",    "x-1",         "v1.10",       "deadbeef",       "1-2",
        "100%",       "caf\xC3\xA9", "\xE6\x97\xA5\xE6\x9C\xAC", "a,b", "a[1]",   "yes-no",
        "truex",      "nullable",   "on-demand",   "Never",       "SkipDryRunOnMissingResource=true",
        "_1",         "1e",         "nan",         "inf",         "x y z",          "a'b",
        "a\"b",       "C:\\path",   "http://example.com/a?b=c#d", "<<x",
    };
    for (const char* s : plain) {
        INFO("'" << s << "'");
        CHECK_FALSE(yaml_needs_quotes(s));
    }
}

TEST_CASE("yaml: quoted strings escape what YAML cannot show raw") {
    CHECK(one_line(str("a\"b\\c\nd\te\x01\x7f")) == R"("a\"b\\c\nd\te\x01\x7F")");
    CHECK(one_line(str(std::string("nul\0", 4))) == R"("nul\0")");
    CHECK(one_line(str("nel\xC2\x85")) == R"("nel\x85")");
    CHECK(one_line(str("ls\xE2\x80\xA8ps\xE2\x80\xA9")) == R"("ls\u2028ps\u2029")");
    CHECK(one_line(str("\xEF\xBB\xBFx")) == R"("\uFEFFx")");
    CHECK(one_line(str("bad\xff")) == R"("bad\uFFFD")");
    // Text a literal block could not carry unchanged stays quoted.
    CHECK(one_line(str("caf\xC3\xA9\n\n")) == "\"caf\xC3\xA9\\n\\n\"");  // two final breaks
    CHECK(one_line(str(" line1\nline2\n")) == R"(" line1\nline2\n")");  // leading blank
    CHECK(one_line(str("\nline2\n")) == R"("\nline2\n")");              // empty first line
    CHECK(one_line(str("line1\n  \nline3")) == R"("line1\n  \nline3")");  // a line of spaces
    CHECK(one_line(str("line1\r\nline2\n")) == R"("line1\r\nline2\n")");
    CHECK(one_line(str("true")) == R"("true")");
    CHECK(one_line(str("")) == R"("")");
    CHECK(one_line(str("caf\xC3\xA9")) == "caf\xC3\xA9");
}

TEST_CASE("yaml: multi-line text is a literal block that reads back the same") {
    // A ConfigMap's configuration file, as kubectl users write it.
    CHECK(one_line(str("caf\xC3\xA9\n")) == "|\n  caf\xC3\xA9");
    CHECK(emit_yaml(map_of({{"k", str("line1\n\n  line3\n")}})) == "k: |\n  line1\n\n    line3\n");
    CHECK(emit_yaml(map_of({{"k", str("a: 1\nb: [x]")}})) == "k: |-\n  a: 1\n  b: [x]\n");
    CHECK(emit_yaml(map_of({{"m", map_of({{"k", str("x\ny\n")}})}})) == "m:\n  k: |\n    x\n    y\n");
    for (const char* t : {"line1\nline2\n", "line1\nline2", "a\n\n\nb\n", "# not a comment\n- not a list\n",
                          "key: \"value\"\n  indented: true\n", "trailing  \nx\n", "tab\tinside\n"})
        require_round_trip(map_of({{"k", str(t)}, {"after", str("v")}}));
}

TEST_CASE("yaml: empty collections, nulls and nesting") {
    CHECK(emit_yaml(Node::mapping()) == "{}\n");
    CHECK(emit_yaml(Node::sequence()) == "[]\n");
    CHECK(emit_yaml(Node()) == "null\n");
    CHECK(emit_yaml(str("root")) == "root\n");
    CHECK(emit_yaml(map_of({{"namespaceSelector", Node::mapping()}, {"items", Node::sequence()}})) ==
          "namespaceSelector: {}\nitems: []\n");
    Node nested = seq_of({seq_of({str("a"), str("b")}), seq_of({seq_of({str("c")})}), Node::sequence(),
                          Node::mapping(), map_of({{"k", str("v")}, {"l", seq_of({Node::integer(1)})}})});
    CHECK(emit_yaml(nested) == "- - a\n  - b\n- - - c\n- []\n- {}\n- k: v\n  l:\n    - 1\n");
    require_round_trip(nested);
}

TEST_CASE("yaml: keys are quoted by the same rules") {
    Node m = map_of({{"yes", Node::integer(1)},
                     {"", str("empty")},
                     {"a: b", str("x")},
                     {"8080", str("port")},
                     {"plain", str("y")}});
    CHECK(emit_yaml(m) == "\"yes\": 1\n\"\": empty\n\"a: b\": x\n\"8080\": port\nplain: \"y\"\n");
    require_round_trip(m);
}

TEST_CASE("yaml: long keys use the explicit form") {
    const std::string long_key(1500, 'k');
    Node m = map_of({{long_key, str("v")},
                     {long_key + "2", map_of({{"a", Node::integer(1)}})},
                     {"list", seq_of({map_of({{long_key + "3", Node::integer(2)}, {"z", Node::integer(3)}})})}});
    const std::string text = emit_yaml(m);
    CHECK(text.rfind("? " + long_key + "\n: v\n", 0) == 0);
    require_round_trip(m);
}

TEST_CASE("yaml: streams start every document with --- after an optional header") {
    std::vector<Node> docs{map_of({{"a", Node::integer(1)}}), map_of({{"b", str("true")}})};
    CHECK(emit_yaml_stream(docs, "Generated by queueforge from site.yaml. Do not edit.") ==
          "# Generated by queueforge from site.yaml. Do not edit.\n---\na: 1\n---\nb: \"true\"\n");
    CHECK(emit_yaml_stream(docs) == "---\na: 1\n---\nb: \"true\"\n");
    CHECK(emit_yaml_stream({}, "only a header") == "# only a header\n");
    CHECK(emit_yaml_stream({map_of({{"a", Node::integer(1)}})}, "two\nlines") == "# two\n# lines\n---\na: 1\n");

    const std::string text = emit_yaml_stream(docs, "header");
    Diagnostics diags;
    auto loaded = load_yaml("s.yaml", text, diags);
    REQUIRE_FALSE(diags.has_errors());
    REQUIRE(loaded.size() == 2);
    CHECK(loaded[0].root.same_as(docs[0]));
    CHECK(loaded[1].root.same_as(docs[1]));
}

TEST_CASE("yaml: round trip keeps values and kinds") {
    const std::int64_t lo = std::numeric_limits<std::int64_t>::min();
    const std::int64_t hi = std::numeric_limits<std::int64_t>::max();
    Node tree = map_of({
        {"strings", seq_of({str("true"), str("yes"), str("0755"), str("1.10"), str(""), str(" x"), str("null"),
                            str("~"), str("a: b"), str("multi\nline\n"), str("caf\xC3\xA9"), str("36Gi"),
                            str("2024-01-01"), str("1:30"), str("-"), str("#"), str("'q'"), str("\"dq\""),
                            str("back\\slash"), str("ctl\x01\x1f"), str("\t"), str("emoji \xF0\x9F\x9A\x80")})},
        {"ints", seq_of({Node::integer(0), Node::integer(-1), Node::integer(lo), Node::integer(hi)})},
        {"floats", seq_of({flt("1.5"), flt(".inf"), flt("-.Inf"), flt(".nan"), flt("1e3"), flt("-0.25")})},
        {"bools", seq_of({Node::boolean(true), Node::boolean(false)})},
        {"nulls", seq_of({Node::null_value(), Node()})},
        {"empty", map_of({{"m", Node::mapping()}, {"s", Node::sequence()}})},
        {"deep", seq_of({seq_of({map_of({{"a", seq_of({map_of({{"b", Node::mapping()}})})}})})})},
        {"true", str("key that needs quotes")},
        {"1.0", Node::integer(1)},
    });
    require_round_trip(tree);
    for (const auto& e : tree.entries()) require_round_trip(e.value);
    require_round_trip(str("a root scalar"));
    require_round_trip(str("yes"));
    require_round_trip(Node::integer(5));
}

TEST_CASE("yaml: random tricky strings round trip") {
    const std::vector<std::string> pieces = {
        " ",  "a",  "Z",  "0",  "1",  "9",  ".",  "-",  "+",  "_",  ":",  "#",  "'",  "\"", "\\", "\n", "\t",
        "\r", "[",  "]",  "{",  "}",  ",",  "&",  "*",  "!",  "|",  ">",  "%",  "@",  "`",  "?",  "~",  "e",
        "x",  "o",  "b",  "y",  "n",  "yes", "no", "on", "true", "null", "0x", "0o", "1e3", ".inf", "---",
        "...", "<<", "=", ": ", " #", "\xC3\xA9", "\xC2\x85", "\xE2\x80\xA8", "\xF0\x9F\x9A\x80", "\x01",
        "\x7f", "\xEF\xBB\xBF", "2024-", "12:", "Gi",
    };
    std::mt19937 rng(20240601);
    auto random_string = [&] {
        std::string s;
        const std::size_t n = rng() % 7;
        for (std::size_t i = 0; i < n; ++i) s += pieces[rng() % pieces.size()];
        return s;
    };
    for (int round = 0; round < 60; ++round) {
        Node m = Node::mapping();
        Node list = Node::sequence();
        std::set<std::string> keys;
        for (int i = 0; i < 50; ++i) {
            std::string key = random_string();
            if (!keys.insert(key).second) continue;
            std::string value = random_string();
            list.push(str(value));
            m.entries().push_back(Node::Entry{key, {}, str(value)});
        }
        m.entries().push_back(Node::Entry{"\x01list", {}, std::move(list)});
        require_round_trip(m);
    }
}

TEST_CASE("yaml: emitting is deterministic and well-formed") {
    const Node cq = cluster_queue();
    const Node copy = cq;
    const std::string a = emit_yaml(cq);
    CHECK(a == emit_yaml(cq));
    CHECK(a == emit_yaml(copy));
    CHECK(emit_yaml_stream({cq, cq}, "h") == emit_yaml_stream({copy, copy}, "h"));
    CHECK(a.find('\r') == std::string::npos);
    CHECK(a.find('\t') == std::string::npos);
    CHECK(a.back() == '\n');

    // Number nodes whose text is not a number still produce valid YAML.
    const std::string odd = emit_yaml(map_of({{"count", Node::scalar(Node::Kind::Int, "12 apples")}}));
    CHECK(odd == "count: \"12 apples\"\n");
}

TEST_CASE("yaml: emitting a large tree is quick") {
    Node big = Node::mapping();
    for (int i = 0; i < 100000; ++i)
        big.entries().push_back(Node::Entry{"key-" + std::to_string(i), {},
                                            map_of({{"name", str("n" + std::to_string(i))},
                                                    {"value", str(std::to_string(i))}})});
    const auto start = std::chrono::steady_clock::now();
    const std::string text = emit_yaml(big);
    const auto elapsed = std::chrono::steady_clock::now() - start;
    CHECK(text.size() > 3000000);
    CHECK(elapsed < std::chrono::seconds(3));
}
