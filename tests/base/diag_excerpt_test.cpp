// What findings quote of their input: bounded (a 1 MB one-line scalar must
// not become a 1 MB message or caret line), control characters escaped (an
// ESC sequence in a name must not reach the terminal), and the text report
// linear in its findings (the line index built once per file, not once per
// finding).
#include "test_util.hpp"

#include <queueforge/base/diagnostics.hpp>
#include <queueforge/backends/findings.hpp>

#include <catch2/catch.hpp>

#include <chrono>

using namespace queueforge;
using qf_test::run_cli;

namespace {

// The caret line's column of '^' and the excerpt line, without the indent.
std::pair<std::string, std::size_t> excerpt_and_caret(const std::string& out) {
    const auto nl = out.find('\n');
    REQUIRE(nl != std::string::npos);
    std::string text = out.substr(2, nl - 2);
    std::string caret = out.substr(nl + 1 + 2);
    return {text, caret.find('^')};
}

}  // namespace

TEST_CASE("caret excerpt: a long line is cut around the column, with an ellipsis", "[diag][excerpt]") {
    std::string line(1'000'000, 'a');
    line.replace(600'000, 6, "NEEDLE");
    const std::string out = caret_excerpt(line, 600'001, "  ");
    CHECK(out.size() < 2 * kExcerptWidth);
    auto [text, caret] = excerpt_and_caret(out);
    CHECK(text.starts_with("…"));
    CHECK(text.ends_with("…"));
    // The caret sits under the column it points at.
    const std::size_t needle = text.find("NEEDLE");
    REQUIRE(needle != std::string::npos);
    // "…" is one column and three bytes: the caret counts columns.
    CHECK(caret == needle - 2);

    // Near the start of the line: no leading ellipsis.
    auto [head, head_caret] = excerpt_and_caret(caret_excerpt(line, 3, "  "));
    CHECK(!head.starts_with("…"));
    CHECK(head.ends_with("…"));
    CHECK(head_caret == 2);

    // A short line is shown whole, as before.
    CHECK(caret_excerpt("  name: x", 9, "  ") == "    name: x\n          ^\n");
}

TEST_CASE("caret excerpt: control characters are escaped and the caret still lines up", "[diag][excerpt]") {
    const std::string line = "name: a\x1b[31mb\tc\xc2\x9b";
    const std::string out = caret_excerpt(line, 13, "  ");  // column 13 is 'b'
    CHECK(out.find('\x1b') == std::string::npos);
    CHECK(out.find("\xc2\x9b") == std::string::npos);
    auto [text, caret] = excerpt_and_caret(out);
    CHECK(text == "name: a\\x1b[31mb\tc\\u009b");
    CHECK(text[caret] == 'b');
    CHECK(escape_controls("a\x1b[2Jb\x7f\tc\n") == "a\\x1b[2Jb\\x7f\tc\n");
}

TEST_CASE("findings keep a bounded message; text shows control characters escaped", "[diag][excerpt]") {
    Diagnostics diags;
    diags.error("f.yaml", {1, 1}, "value \"" + std::string(1'000'000, 'x') + "\" is not allowed", "test.rule");
    diags.error("f.yaml", {2, 1}, "name \"a\x1b]0;pwned\x07\" is odd", "test.rule");
    REQUIRE(diags.all().size() == 2);
    const std::string& big = diags.all()[0].message;
    CHECK(big.size() <= kMessageLimit + 3);
    CHECK(big.starts_with("value \"xxx"));
    CHECK(big.ends_with("\" is not allowed"));
    CHECK(big.find("…") != std::string::npos);
    const std::string text = render_text(diags, {});
    CHECK(text.size() < 2 * kMessageLimit);
    CHECK(text.find('\x1b') == std::string::npos);
    CHECK(text.find("name \"a\\x1b]0;pwned\\x07\" is odd [test.rule]") != std::string::npos);
}

TEST_CASE("validate: a 1 MB scalar and an ESC sequence in a name give bounded, inert output", "[diag][excerpt][cli][slow]") {
    const std::string big(1'000'000, 'q');
    const std::string input = "apiVersion: kueue.x-k8s.io/v1beta2\nkind: ClusterQueue\nmetadata: {name: team-a}\n"
                              "spec:\n  namespaceSelector: {}\n  queueingStrategy: " + big + "\n"
                              "---\napiVersion: kueue.x-k8s.io/v1beta2\nkind: LocalQueue\n"
                              "metadata: {name: \"lq\\e[31mred\", namespace: team-a}\nspec: {clusterQueue: nope}\n";
    for (const char* format : {"text", "json", "sarif"}) {
        INFO(format);
        auto r = run_cli(std::string("validate -o ") + format + " -", input);
        CHECK(r.exit == 1);
        CHECK(r.out.size() + r.err.size() < 20'000);
        CHECK(r.out.find('\x1b') == std::string::npos);
        CHECK(r.err.find('\x1b') == std::string::npos);
    }
}

TEST_CASE("text report: one line index per file, however many findings", "[diag][excerpt][scale]") {
    // 40,000 findings on a 40,000-line file: indexing the file per finding
    // scans 40,000 x 1.2 MB (minutes); once, milliseconds.
    constexpr int kLines = 40'000;
    SourceText src{"big.yaml", {}};
    for (int i = 0; i < kLines; ++i) src.text += "key-" + std::to_string(i) + ": value-of-some-length\n";
    Diagnostics diags;
    for (int i = 1; i <= kLines; ++i) diags.note("big.yaml", {i, 1}, "note", "test.rule");
    ReportContext ctx;
    ctx.sources.push_back(src);
    const auto t0 = std::chrono::steady_clock::now();
    const std::string out = format_text(diags, ctx);
    const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    CHECK(out.find("  key-39999: value-of-some-length\n  ^\n") != std::string::npos);
    CHECK(s < 5.0);
}
