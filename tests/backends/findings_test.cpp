// Output formats for findings (compiler/backends/findings/): each format on one fixed
// set of findings. Text and GitHub are compared byte for byte; JSON and SARIF
// are parsed and checked by structure; JUnit goes through a small strict XML
// reader below, so that escaping mistakes fail here rather than in a CI
// server's parser. (No SARIF JSON schema ships in a Debian package, so SARIF
// is checked against the properties GitHub code scanning relies on.)
#include <catch2/catch.hpp>

#include <sstream>

#include <queueforge/backends/findings.hpp>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

using namespace queueforge;
using nlohmann::json;

namespace {

const std::string kQueues =
    "apiVersion: kueue.x-k8s.io/v1beta1\n"  // 1
    "kind: ClusterQueue\n"
    "metadata:\n"
    "  name: team-a\n"
    "spec:\n"  // 5
    "  resourceGroups:\n"
    "  - coveredResources: [cpu]\n"
    "    flavors:\n"
    "    - name: h100-sxm\n"
    "---\n"  // 10
    "apiVersion: kueue.x-k8s.io/v1beta1\n"
    "kind: LocalQueue\n"
    "metadata:\n"
    "  namespace: team-a\n"
    "  name: default\n"  // 15
    "spec:\n"
    "  clusterQueue: team-x\n";

const ObjectRef kTeamA{"kueue.x-k8s.io/v1beta1", "ClusterQueue", "", "team-a"};
const ObjectRef kDefaultQueue{"kueue.x-k8s.io/v1beta1", "LocalQueue", "team-a", "default"};
const ObjectRef kH100{"kueue.x-k8s.io/v1beta1", "ResourceFlavor", "", "h100"};

// Two errors on one object (same JUnit test case), a warning, a file-level
// note without a rule, and a rule used twice (SARIF must list it once).
Diagnostics findings() {
    Diagnostics d;
    d.add({Severity::Error, "site/queues.yaml", {7, 5}, "coveredResources must list every resource of its flavors",
           "V24", kTeamA, "spec.resourceGroups[0]"});
    d.add({Severity::Error, "site/queues.yaml", {9, 13}, "ResourceFlavor h100-sxm is not defined",
           "xref.missing-flavor", kTeamA, "spec.resourceGroups[0].flavors[0].name"});
    d.add({Severity::Warning, "site/queues.yaml", {17, 17}, "ClusterQueue team-x does not exist",
           "xref.missing-cluster-queue", kDefaultQueue, "spec.clusterQueue"});
    d.add({Severity::Note, "site/empty.yaml", {}, "file contains no Kubernetes objects", "", {}, ""});
    d.add({Severity::Error, "site/more.yaml", {3, 7}, "ResourceFlavor a100 is not defined", "xref.missing-flavor",
           {"kueue.x-k8s.io/v1beta1", "ClusterQueue", "", "team-b"}, "spec.resourceGroups[0].flavors[0].name"});
    return d;
}

ReportContext context() {
    ReportContext ctx;
    ctx.tool_version = "0.1.0";
    ctx.sources = {{"site/queues.yaml", kQueues}};
    ctx.inputs = {"site/empty.yaml", "site/flavors.yaml", "site/queues.yaml"};
    ctx.objects_checked = 3;
    ctx.per_kind = {{"LocalQueue", 1}, {"ClusterQueue", 1}, {"ResourceFlavor", 1}};
    ctx.objects = {{"site/flavors.yaml", kH100}, {"site/queues.yaml", kTeamA}, {"site/queues.yaml", kDefaultQueue}};
    return ctx;
}

Diagnostics one(Diagnostic d) {
    Diagnostics ds;
    ds.add(std::move(d));
    return ds;
}

// ---- A small strict XML reader: elements, attributes, text, the five
// predefined entities and character references. Throws on anything that is
// not well-formed XML 1.0 (as far as this output can go wrong).

struct Element {
    std::string name;
    std::map<std::string, std::string> attrs;
    std::string text;
    std::vector<std::unique_ptr<Element>> children;

    const Element& child(std::size_t i) const { return *children.at(i); }
    std::vector<const Element*> all(const std::string& n) const {
        std::vector<const Element*> out;
        for (const auto& c : children)
            if (c->name == n) out.push_back(c.get());
        return out;
    }
    std::string attr(const std::string& n) const {
        auto it = attrs.find(n);
        if (it == attrs.end()) throw std::runtime_error("no attribute " + n + " on " + name);
        return it->second;
    }
};

class XmlReader {
public:
    explicit XmlReader(std::string s) : s_(std::move(s)) {}

    std::unique_ptr<Element> document() {
        const std::string decl = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>";
        if (s_.compare(0, decl.size(), decl) != 0) fail("missing XML declaration");
        pos_ = decl.size();
        skip_space();
        auto root = element();
        skip_space();
        if (pos_ != s_.size()) fail("content after the root element");
        return root;
    }

private:
    [[noreturn]] void fail(const std::string& why) const {
        throw std::runtime_error(why + " at byte " + std::to_string(pos_));
    }
    char peek() const { return pos_ < s_.size() ? s_[pos_] : '\0'; }
    void expect(char c) {
        if (peek() != c) fail(std::string("expected '") + c + "'");
        ++pos_;
    }
    void skip_space() {
        while (pos_ < s_.size() && (s_[pos_] == ' ' || s_[pos_] == '\n' || s_[pos_] == '\t' || s_[pos_] == '\r'))
            ++pos_;
    }
    std::string name() {
        const auto start = pos_;
        while (pos_ < s_.size() && (std::isalnum(static_cast<unsigned char>(s_[pos_])) || s_[pos_] == '-' ||
                                    s_[pos_] == '_' || s_[pos_] == ':' || s_[pos_] == '.'))
            ++pos_;
        if (pos_ == start) fail("expected a name");
        return s_.substr(start, pos_ - start);
    }
    static void append_utf8(std::string& out, unsigned long cp) {
        if (cp < 0x80) {
            out += static_cast<char>(cp);
        } else if (cp < 0x800) {
            out += static_cast<char>(0xC0 | (cp >> 6));
            out += static_cast<char>(0x80 | (cp & 0x3F));
        } else {
            out += static_cast<char>(0xE0 | (cp >> 12));
            out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
            out += static_cast<char>(0x80 | (cp & 0x3F));
        }
    }
    // Character data up to `stop`, entities decoded.
    std::string chars(char stop) {
        std::string out;
        while (pos_ < s_.size() && s_[pos_] != stop) {
            const char c = s_[pos_];
            if (c == '<') fail("raw '<' in character data");
            if (stop == '"' && c == '"') break;
            if (static_cast<unsigned char>(c) < 0x20 && c != '\t' && c != '\n' && c != '\r')
                fail("control character not allowed in XML 1.0");
            if (c != '&') {
                out += c;
                ++pos_;
                continue;
            }
            const auto semi = s_.find(';', pos_);
            if (semi == std::string::npos) fail("unterminated entity");
            const std::string ent = s_.substr(pos_ + 1, semi - pos_ - 1);
            static const std::map<std::string, char> named{
                {"amp", '&'}, {"lt", '<'}, {"gt", '>'}, {"quot", '"'}, {"apos", '\''}};
            if (auto it = named.find(ent); it != named.end()) {
                out += it->second;
            } else if (ent.size() > 1 && ent[0] == '#') {
                const bool hex = ent[1] == 'x';
                const unsigned long cp = std::stoul(ent.substr(hex ? 2 : 1), nullptr, hex ? 16 : 10);
                if (cp < 0x20 && cp != '\t' && cp != '\n' && cp != '\r') fail("reference to a non-XML character");
                append_utf8(out, cp);
            } else {
                fail("unknown entity &" + ent + ";");
            }
            pos_ = semi + 1;
        }
        return out;
    }
    std::unique_ptr<Element> element() {
        expect('<');
        auto e = std::make_unique<Element>();
        e->name = name();
        for (;;) {
            const auto before = pos_;
            skip_space();
            if (peek() == '/') {
                ++pos_;
                expect('>');
                return e;
            }
            if (peek() == '>') {
                ++pos_;
                break;
            }
            if (pos_ == before) fail("expected space between attributes");
            const std::string key = name();
            expect('=');
            expect('"');
            std::string value = chars('"');
            expect('"');
            if (!e->attrs.emplace(key, value).second) fail("duplicate attribute " + key);
        }
        for (;;) {
            e->text += chars('<');
            if (s_.compare(pos_, 2, "</") == 0) {
                pos_ += 2;
                if (name() != e->name) fail("mismatched end tag for " + e->name);
                skip_space();
                expect('>');
                return e;
            }
            if (pos_ >= s_.size()) fail("unterminated element " + e->name);
            e->children.push_back(element());
        }
    }

    std::string s_;
    std::size_t pos_ = 0;
};

std::unique_ptr<Element> parse_xml(const std::string& s) { return XmlReader(s).document(); }

}  // namespace

TEST_CASE("report: format names") {
    for (const char* name : {"text", "json", "sarif", "junit", "github", "gitlab"}) {
        REQUIRE(find_report_format(name) != nullptr);
        CHECK(find_report_format(name)->name == name);
        CHECK_FALSE(find_report_format(name)->description.empty());
    }
    CHECK(report_formats().size() == 6);
    CHECK(report_format_names() == "text, json, sarif, junit, github, gitlab");
    for (const char* bad : {"", "JSON", "yaml", "tap", "xml", "sarif ", "git"}) CHECK_FALSE(find_report_format(bad));

    const auto diags = findings();
    const auto ctx = context();
    CHECK(format_report(*find_report_format("text"), diags, ctx) == format_text(diags, ctx));
    CHECK(format_report(*find_report_format("json"), diags, ctx) == format_json(diags, ctx));
    CHECK(format_report(*find_report_format("sarif"), diags, ctx) == format_sarif(diags, ctx));
    CHECK(format_report(*find_report_format("junit"), diags, ctx) == format_junit(diags, ctx));
    CHECK(format_report(*find_report_format("github"), diags, ctx) == format_github(diags, ctx));
    CHECK(format_report(*find_report_format("gitlab"), diags, ctx) == format_gitlab(diags, ctx));
}

TEST_CASE("report: text is render_text plus the object and field") {
    auto ctx = context();
    const std::string expected =
        "site/queues.yaml:7:5: error: coveredResources must list every resource of its flavors [V24]\n"
        "    - coveredResources: [cpu]\n"
        "      ^\n"
        "  = in ClusterQueue/team-a at spec.resourceGroups[0]\n"
        "site/queues.yaml:9:13: error: ResourceFlavor h100-sxm is not defined [xref.missing-flavor]\n"
        "      - name: h100-sxm\n"
        "              ^\n"
        "  = in ClusterQueue/team-a at spec.resourceGroups[0].flavors[0].name\n"
        "site/queues.yaml:17:17: warning: ClusterQueue team-x does not exist [xref.missing-cluster-queue]\n"
        "    clusterQueue: team-x\n"
        "                  ^\n"
        "  = in LocalQueue/team-a/default at spec.clusterQueue\n"
        "site/empty.yaml: note: file contains no Kubernetes objects\n"
        "site/more.yaml:3:7: error: ResourceFlavor a100 is not defined [xref.missing-flavor]\n"
        "  = in ClusterQueue/team-b at spec.resourceGroups[0].flavors[0].name\n";
    CHECK(format_text(findings(), ctx) == expected);

    SECTION("without object or path the output is exactly render_text's") {
        Diagnostics plain;
        plain.error("site/queues.yaml", {4, 9}, "bad name", "k8s.name");
        plain.warning("site/queues.yaml", {}, "no trailing newline");
        CHECK(format_text(plain, ctx) == render_text(plain, ctx.sources));
    }
    SECTION("--summary: totals and objects per kind, sorted by kind") {
        ctx.summary = true;
        CHECK(format_text(findings(), ctx) == expected +
                                                  "\n"
                                                  "summary: 4 files, 3 objects: 3 errors, 1 warning, 1 note\n"
                                                  "  ClusterQueue    1\n"
                                                  "  LocalQueue      1\n"
                                                  "  ResourceFlavor  1\n");
        CHECK(format_text(Diagnostics{}, ctx) ==
              "summary: 3 files, 3 objects: 0 errors, 0 warnings, 0 notes\n"
              "  ClusterQueue    1\n"
              "  LocalQueue      1\n"
              "  ResourceFlavor  1\n");
    }
    SECTION("no findings, no summary: nothing") { CHECK(format_text(Diagnostics{}, ctx).empty()); }
}

TEST_CASE("report: text colour only when asked, and only around the same text") {
    auto ctx = context();
    const auto plain = format_text(findings(), ctx);
    CHECK(plain.find('\x1b') == std::string::npos);

    ctx.color = true;
    const auto colored = format_text(findings(), ctx);
    CHECK(colored.find("\x1b[01;31merror\x1b[0m") != std::string::npos);
    CHECK(colored.find("\x1b[01;35mwarning\x1b[0m") != std::string::npos);
    CHECK(colored.find("\x1b[01;36mnote\x1b[0m") != std::string::npos);
    CHECK(colored.find("\x1b[01msite/queues.yaml:7:5\x1b[0m") != std::string::npos);
    CHECK(colored.find("      \x1b[01;32m^\x1b[0m\n") != std::string::npos);
    std::string stripped;
    for (std::size_t i = 0; i < colored.size(); ++i) {
        if (colored[i] == '\x1b') i = colored.find('m', i);
        else stripped += colored[i];
    }
    CHECK(stripped == plain);
}

TEST_CASE("report: json shape") {
    auto ctx = context();
    const auto doc = json::parse(format_json(findings(), ctx));
    CHECK(doc["apiVersion"] == "queueforge.io/v1alpha1");
    CHECK(doc["kind"] == "ValidationReport");
    CHECK(doc["tool"] == json{{"name", "queueforge"}, {"version", "0.1.0"}});
    CHECK(doc["summary"] == json{{"files", 4}, {"objects", 3}, {"errors", 3}, {"warnings", 1}, {"notes", 1}});
    REQUIRE(doc["findings"].size() == 5);
    CHECK(doc["findings"][1] == json::parse(R"({
        "file": "site/queues.yaml", "line": 9, "column": 13, "severity": "error",
        "rule": "xref.missing-flavor", "message": "ResourceFlavor h100-sxm is not defined",
        "object": {"apiVersion": "kueue.x-k8s.io/v1beta1", "kind": "ClusterQueue", "namespace": "", "name": "team-a"},
        "path": "spec.resourceGroups[0].flavors[0].name", "site": ""})"));
    // Unknown values are "" and 0, never missing keys.
    CHECK(doc["findings"][3] == json::parse(R"({
        "file": "site/empty.yaml", "line": 0, "column": 0, "severity": "note", "rule": "",
        "message": "file contains no Kubernetes objects",
        "object": {"apiVersion": "", "kind": "", "namespace": "", "name": ""}, "path": "", "site": ""})"));
    CHECK(doc["findings"][2]["severity"] == "warning");

    SECTION("keys in documented order") {
        const auto text = format_json(findings(), ctx);
        std::size_t last = 0;
        for (const char* key : {"\"apiVersion\"", "\"kind\"", "\"tool\"", "\"summary\"", "\"findings\"", "\"file\"",
                                "\"line\"", "\"column\"", "\"severity\"", "\"rule\"", "\"message\"", "\"object\"",
                                "\"path\""}) {
            const auto at = text.find(key, last);
            REQUIRE(at != std::string::npos);
            last = at;
        }
        CHECK(text.back() == '\n');
    }
    SECTION("--summary adds objects per kind") {
        CHECK_FALSE(doc["summary"].contains("kinds"));
        ctx.summary = true;
        const auto with = json::parse(format_json(findings(), ctx));
        CHECK(with["summary"]["kinds"] == json{{"ClusterQueue", 1}, {"LocalQueue", 1}, {"ResourceFlavor", 1}});
    }
    SECTION("no findings: an empty list, not a missing one") {
        const auto empty = json::parse(format_json(Diagnostics{}, ctx));
        CHECK(empty["findings"] == json::array());
        CHECK(empty["summary"]["errors"] == 0);
        CHECK(empty["summary"]["files"] == 3);
    }
    SECTION("control characters escaped, invalid UTF-8 replaced instead of throwing") {
        const auto text = format_json(one({Severity::Error, "bad\xff.yaml", {1, 1}, "a\x01\"b\"\n", "r"}), ctx);
        const auto parsed = json::parse(text);
        CHECK(parsed["findings"][0]["message"] == "a\x01\"b\"\n");
        CHECK(parsed["findings"][0]["file"] == "bad\xEF\xBF\xBD.yaml");
    }
}

TEST_CASE("report: sarif 2.1.0 structure") {
    auto ctx = context();
    const auto log = json::parse(format_sarif(findings(), ctx));
    CHECK(log["version"] == "2.1.0");
    CHECK(log["$schema"] == "https://json.schemastore.org/sarif-2.1.0.json");
    REQUIRE(log["runs"].size() == 1);
    const auto& run = log["runs"][0];
    const auto& driver = run["tool"]["driver"];
    CHECK(driver["name"] == "queueforge");
    CHECK(driver["version"] == "0.1.0");
    CHECK(driver["informationUri"] == "https://queueforge.io");
    CHECK(run["columnKind"] == "unicodeCodePoints");

    SECTION("rules: each id once, sorted; empty rule ids become 'unclassified'") {
        std::vector<std::string> ids;
        for (const auto& r : driver["rules"]) ids.push_back(r["id"]);
        CHECK(ids == std::vector<std::string>{"V24", "unclassified", "xref.missing-cluster-queue",
                                              "xref.missing-flavor"});
    }
    SECTION("results: one per finding, ruleIndex pointing at its rule, levels mapped") {
        const auto& results = run["results"];
        REQUIRE(results.size() == 5);
        std::vector<std::string> levels;
        for (const auto& r : results) {
            CHECK(driver["rules"][r["ruleIndex"].get<std::size_t>()]["id"] == r["ruleId"]);
            CHECK(r["message"]["text"].is_string());
            levels.push_back(r["level"]);
        }
        CHECK(levels == std::vector<std::string>{"error", "error", "warning", "note", "error"});
    }
    SECTION("a located finding: relative uri under %SRCROOT%, 1-based region, object as logical location") {
        const auto& r = run["results"][1];
        CHECK(r["ruleId"] == "xref.missing-flavor");
        CHECK(r["message"]["text"] == "ResourceFlavor h100-sxm is not defined");
        REQUIRE(r["locations"].size() == 1);
        const auto& loc = r["locations"][0];
        const auto& artifact = loc["physicalLocation"]["artifactLocation"];
        CHECK(artifact["uri"] == "site/queues.yaml");
        CHECK(artifact["uriBaseId"] == "%SRCROOT%");
        CHECK(run["artifacts"][artifact["index"].get<std::size_t>()]["location"]["uri"] == "site/queues.yaml");
        CHECK(loc["physicalLocation"]["region"] == json{{"startLine", 9}, {"startColumn", 13}});
        CHECK(loc["logicalLocations"] ==
              json::parse(R"([{"name": "team-a", "fullyQualifiedName": "ClusterQueue/team-a", "kind": "object"}])"));
        CHECK(r["properties"]["path"] == "spec.resourceGroups[0].flavors[0].name");
    }
    SECTION("a finding about a whole file lands on line 1 (GitHub needs a startLine)") {
        const auto& loc = run["results"][3]["locations"][0];
        CHECK(loc["physicalLocation"]["artifactLocation"]["uri"] == "site/empty.yaml");
        CHECK(loc["physicalLocation"]["region"] == json{{"startLine", 1}});
        CHECK_FALSE(loc.contains("logicalLocations"));
    }
    SECTION("artifacts: every input, in input order, then files only findings name") {
        std::vector<std::string> uris;
        for (const auto& a : run["artifacts"]) uris.push_back(a["location"]["uri"]);
        CHECK(uris == std::vector<std::string>{"site/empty.yaml", "site/flavors.yaml", "site/queues.yaml",
                                               "site/more.yaml"});
    }
    SECTION("empty: a valid log with results []") {
        const auto empty = json::parse(format_sarif(Diagnostics{}, ctx));
        CHECK(empty["version"] == "2.1.0");
        CHECK(empty["runs"][0]["results"] == json::array());
        CHECK(empty["runs"][0]["tool"]["driver"]["rules"] == json::array());
        CHECK(empty["runs"][0]["tool"]["driver"]["name"] == "queueforge");
    }
}

TEST_CASE("report: sarif uris and columns") {
    ReportContext ctx;
    SECTION("paths stay relative and '/'-separated; other characters percent-encoded") {
        const auto log =
            json::parse(format_sarif(one({Severity::Error, "my dir/a:b#c%d.yaml", {2, 3}, "m", "r"}), ctx));
        const auto& loc = log["runs"][0]["results"][0]["locations"][0]["physicalLocation"];
        CHECK(loc["artifactLocation"]["uri"] == "my%20dir/a%3Ab%23c%25d.yaml");
        CHECK(loc["region"] == json{{"startLine", 2}, {"startColumn", 3}});
        CHECK_FALSE(log["runs"][0]["tool"]["driver"].contains("version"));  // unknown, not ""
    }
    SECTION("byte columns become code point columns where the line is known") {
        ctx.sources = {{"a.yaml", "x: 1\nname: \xc3\xa9t\xc3\xa9: x\n"}};  // "name: été: x"
        const auto log = json::parse(format_sarif(one({Severity::Error, "a.yaml", {2, 12}, "m", "r"}), ctx));
        CHECK(log["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["region"]["startColumn"] == 10);
    }
    SECTION("a finding without a file has no location") {
        const auto log = json::parse(format_sarif(one({Severity::Error, "", {}, "m", "r"}), ctx));
        CHECK(log["runs"][0]["results"][0]["locations"] == json::array());
    }
}

TEST_CASE("report: the XML reader used here rejects what CI parsers reject") {
    const std::string decl = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
    CHECK_NOTHROW(parse_xml(decl + "<a x=\"&lt;&amp;&#10;\"><b/>t&gt;</a>\n"));
    for (const char* bad : {"<a>&</a>", "<a x=\"<\"/>", "<a>\x01</a>", "<a><b></a></b>", "<a x=\"1\" x=\"2\"/>",
                            "<a>&#1;</a>", "<a>&nbsp;</a>", "<a/><b/>", "<a x=\"1\"y=\"2\"/>"}) {
        CAPTURE(bad);
        CHECK_THROWS(parse_xml(decl + bad));
    }
}

TEST_CASE("report: junit testsuite per file, testcase per object") {
    auto ctx = context();
    const auto xml = format_junit(findings(), ctx);
    const auto root = parse_xml(xml);
    CHECK(root->name == "testsuites");
    CHECK(root->attr("name") == "queueforge");
    CHECK(root->attr("tests") == "5");
    CHECK(root->attr("failures") == "2");

    const auto suites = root->all("testsuite");
    REQUIRE(suites.size() == 4);
    std::vector<std::string> names;
    for (const auto* s : suites) names.push_back(s->attr("name"));
    CHECK(names == std::vector<std::string>{"site/empty.yaml", "site/flavors.yaml", "site/queues.yaml",
                                            "site/more.yaml"});

    SECTION("a note is no failure; the file is the test case when no object is involved") {
        const auto& s = *suites[0];
        CHECK(s.attr("tests") == "1");
        CHECK(s.attr("failures") == "0");
        const auto& tc = s.child(0);
        CHECK(tc.attr("classname") == "site/empty.yaml");
        CHECK(tc.attr("name") == "site/empty.yaml");
        CHECK(tc.all("failure").empty());
        CHECK(tc.all("system-out").at(0)->text == "site/empty.yaml: note: file contains no Kubernetes objects");
    }
    SECTION("objects without findings pass") {
        const auto& s = *suites[1];
        CHECK(s.attr("tests") == "1");
        CHECK(s.child(0).attr("name") == "ResourceFlavor/h100");
        CHECK(s.child(0).children.empty());
    }
    SECTION("one failure per object, listing all its failing findings") {
        const auto& s = *suites[2];
        CHECK(s.attr("tests") == "2");
        CHECK(s.attr("failures") == "1");
        const auto& cq = s.child(0);
        CHECK(cq.attr("name") == "ClusterQueue/team-a");
        const auto failures = cq.all("failure");
        REQUIRE(failures.size() == 1);
        CHECK(failures[0]->attr("type") == "V24");
        CHECK(failures[0]->attr("message") == "coveredResources must list every resource of its flavors (and 1 more)");
        CHECK(failures[0]->text ==
              "site/queues.yaml:7:5: error: coveredResources must list every resource of its flavors [V24]\n"
              "  in ClusterQueue/team-a at spec.resourceGroups[0]\n"
              "site/queues.yaml:9:13: error: ResourceFlavor h100-sxm is not defined [xref.missing-flavor]\n"
              "  in ClusterQueue/team-a at spec.resourceGroups[0].flavors[0].name");
        const auto& lq = s.child(1);
        CHECK(lq.attr("name") == "LocalQueue/team-a/default");
        CHECK(lq.all("failure").empty());
        CHECK(lq.all("system-out").size() == 1);
    }
    SECTION("objects known only from findings still get a test case") {
        const auto& s = *suites[3];
        CHECK(s.child(0).attr("name") == "ClusterQueue/team-b");
        CHECK(s.child(0).all("failure").at(0)->attr("type") == "xref.missing-flavor");
    }
    SECTION("--fail-level warning: warnings fail too") {
        ctx.fail_level = Severity::Warning;
        const auto strict = parse_xml(format_junit(findings(), ctx));
        CHECK(strict->attr("failures") == "3");
        CHECK(strict->child(2).child(1).all("failure").at(0)->attr("type") == "xref.missing-cluster-queue");
    }
}

TEST_CASE("report: junit escapes markup, quotes and control characters") {
    ReportContext ctx;
    const std::string nasty = "a<b>&c\"d'e]]>\x01\x1f\tx\r\ny \xff end";
    const Diagnostic d{Severity::Error, "dir/<&>.yaml", {1, 2}, nasty, "r\"<'>", {"v1", "ConfigMap", "ns", "a&b"},
                       "data[\"k\"]"};
    const auto xml = format_junit(one(d), ctx);
    const auto root = parse_xml(xml);  // throws if not well-formed
    const auto& suite = root->child(0);
    CHECK(suite.attr("name") == "dir/<&>.yaml");
    const auto& tc = suite.child(0);
    CHECK(tc.attr("name") == "ConfigMap/ns/a&b");
    const auto& failure = tc.child(0);
    CHECK(failure.attr("type") == "r\"<'>");
    // Tab, CR, LF survive in attributes as character references; controls XML
    // cannot carry are spelled out; an invalid byte becomes U+FFFD.
    CHECK(failure.attr("message") == "a<b>&c\"d'e]]>\\x01\\x1f\tx\r\ny \xEF\xBF\xBD end");
    CHECK(failure.text.find("a<b>&c\"d'e]]>\\x01\\x1f\tx\r\ny") != std::string::npos);
    CHECK(failure.text.find("in ConfigMap/ns/a&b at data[\"k\"]") != std::string::npos);
    CHECK(xml.find('\x01') == std::string::npos);
    CHECK(xml.find('\xff') == std::string::npos);
    CHECK(xml.find("]]>") == std::string::npos);
}

TEST_CASE("report: junit without findings: one passing test case per input file") {
    auto ctx = context();
    ctx.objects.clear();
    const auto root = parse_xml(format_junit(Diagnostics{}, ctx));
    CHECK(root->attr("tests") == "3");
    CHECK(root->attr("failures") == "0");
    REQUIRE(root->children.size() == 3);
    for (std::size_t i = 0; i < 3; ++i) {
        const auto& suite = root->child(i);
        CHECK(suite.attr("name") == ctx.inputs[i]);
        REQUIRE(suite.children.size() == 1);
        CHECK(suite.child(0).attr("name") == ctx.inputs[i]);
        CHECK(suite.child(0).children.empty());
    }
    SECTION("nothing checked at all is still a well-formed document") {
        const auto empty = parse_xml(format_junit(Diagnostics{}, ReportContext{}));
        CHECK(empty->attr("tests") == "0");
        CHECK(empty->children.empty());
    }
}

TEST_CASE("report: github workflow commands") {
    auto ctx = context();
    CHECK(format_github(findings(), ctx) ==
          "::error file=site/queues.yaml,line=7,col=5,title=V24::coveredResources must list every resource of its "
          "flavors%0Ain ClusterQueue/team-a at spec.resourceGroups[0]\n"
          "::error file=site/queues.yaml,line=9,col=13,title=xref.missing-flavor::ResourceFlavor h100-sxm is not "
          "defined%0Ain ClusterQueue/team-a at spec.resourceGroups[0].flavors[0].name\n"
          "::warning file=site/queues.yaml,line=17,col=17,title=xref.missing-cluster-queue::ClusterQueue team-x does "
          "not exist%0Ain LocalQueue/team-a/default at spec.clusterQueue\n"
          "::notice file=site/empty.yaml::file contains no Kubernetes objects\n"
          "::error file=site/more.yaml,line=3,col=7,title=xref.missing-flavor::ResourceFlavor a100 is not "
          "defined%0Ain ClusterQueue/team-b at spec.resourceGroups[0].flavors[0].name\n"
          "::notice title=queueforge::4 files, 3 objects: 3 errors, 1 warning, 1 note\n");

    SECTION("--summary adds objects per kind to the notice") {
        ctx.summary = true;
        const auto out = format_github(Diagnostics{}, ctx);
        CHECK(out == "::notice title=queueforge::3 files, 3 objects: 0 errors, 0 warnings, 0 notes "
                     "(ClusterQueue 1, LocalQueue 1, ResourceFlavor 1)\n");
    }
    SECTION("escaping: % CR LF everywhere, also : and , in properties") {
        const Diagnostic d{Severity::Warning, "a,b:c%d.yaml", {3, 0}, "50% done\r\n::error::injected: a,b", "x:y,z"};
        CHECK(format_github(one(d), ReportContext{}) ==
              "::warning file=a%2Cb%3Ac%25d.yaml,line=3,title=x%3Ay%2Cz::50%25 done%0D%0A::error::injected: a,b\n"
              "::notice title=queueforge::1 file, 0 objects: 0 errors, 1 warning, 0 notes\n");
    }
    SECTION("a finding without file or position is a plain annotation") {
        const auto out = format_github(one({Severity::Error, "", {}, "boom", ""}), ReportContext{});
        CHECK(out.starts_with("::error::boom\n"));
    }
}

TEST_CASE("report: same findings, same bytes") {
    const auto ctx = context();
    auto shuffled = ctx;
    std::reverse(shuffled.per_kind.begin(), shuffled.per_kind.end());
    shuffled.summary = true;
    auto sorted = ctx;
    sorted.summary = true;
    for (const auto& f : report_formats()) {
        CAPTURE(f.name);
        CHECK(format_report(f, findings(), ctx) == format_report(f, findings(), ctx));
        CHECK(format_report(f, findings(), sorted) == format_report(f, findings(), shuffled));
        const auto out = format_report(f, findings(), ctx);
        CHECK(out.back() == '\n');
        CHECK(out.find("/work/") == std::string::npos);  // never absolutized
    }
}

TEST_CASE("report: written to a stream in pieces it is the same bytes as the whole string") {
    // 3,000 findings are several pieces of 64 KiB in every format; the text
    // summary's blank line depends on whether anything was written before.
    Diagnostics many;
    for (int i = 0; i < 3000; ++i)
        many.add({.severity = i % 3 == 0 ? Severity::Error : Severity::Note,
                  .file = "manifests/queues-" + std::to_string(i % 7) + ".yaml",
                  .mark = {i + 1, 3},
                  .message = "namespaceSelector {} admits workloads from every namespace (" + std::to_string(i) + ")",
                  .rule = "xref.all-namespaces",
                  .object = {"kueue.x-k8s.io/v1beta2", "ClusterQueue", "", "cq-" + std::to_string(i)},
                  .path = "spec.namespaceSelector"});
    for (const Diagnostics* diags : {static_cast<const Diagnostics*>(&many), static_cast<const Diagnostics*>(nullptr)}) {
        const Diagnostics none;
        const Diagnostics& d = diags ? *diags : none;
        for (bool summary : {false, true}) {
            auto ctx = context();
            ctx.summary = summary;
            ctx.sites = {"clusters/prod"};
            for (const auto& f : report_formats()) {
                CAPTURE(f.name, summary, d.all().size());
                std::ostringstream os;
                write_report(f, d, ctx, os);
                const std::string whole = format_report(f, d, ctx);
                CHECK(os.str() == whole);
                if (diags) CHECK(whole.size() > 3 * (1 << 16));
            }
        }
    }
}

TEST_CASE("gitlab: Code Quality JSON with GitLab's severities and line-independent, unique fingerprints", "[report][gitlab]") {
    auto diags_at = [](int first_line) {
        Diagnostics d;
        d.error("clusters/prod/queueforge-site.yaml", {first_line, 9}, "quota names unknown pool \"a10\"", "site.unknown-pool");
        d.error("clusters/prod/queueforge-site.yaml", {first_line + 5, 9}, "quota names unknown pool \"a10\"", "site.unknown-pool");
        d.warning("rendered/cq.yaml", {3, 1}, "no LocalQueue points here", "xref.unused-cluster-queue");
        d.note("", {}, "3 objects checked", "");
        return d;
    };
    const auto* format = find_report_format("gitlab");
    REQUIRE(format);
    const auto a = nlohmann::json::parse(format_report(*format, diags_at(10), {}));
    const auto b = nlohmann::json::parse(format_report(*format, diags_at(40), {}));
    REQUIRE(a.is_array());
    REQUIRE(a.size() == 4);
    CHECK(a[0]["check_name"] == "site.unknown-pool");
    CHECK(a[0]["severity"] == "major");
    CHECK(a[2]["severity"] == "minor");
    CHECK(a[3]["severity"] == "info");
    CHECK(a[3]["check_name"] == "queueforge");
    CHECK(a[0]["location"]["path"] == "clusters/prod/queueforge-site.yaml");
    CHECK(a[0]["location"]["lines"]["begin"] == 10);
    CHECK(a[3]["location"]["lines"]["begin"] == 1);  // GitLab needs a line: the first
    // The same finding twice: two fingerprints; lines moved: the same ones.
    CHECK(a[0]["fingerprint"] != a[1]["fingerprint"]);
    for (std::size_t i = 0; i < a.size(); ++i) CHECK(a[i]["fingerprint"] == b[i]["fingerprint"]);
    CHECK(a[0]["fingerprint"].get<std::string>().size() == 16);
    // No findings: an empty array, which GitLab reads as "no issues".
    CHECK(format_report(*format, Diagnostics{}, {}) == "[]\n");
}
