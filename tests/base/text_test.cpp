// The shared spelling module (<queueforge/base/text.hpp>) and the one node reader
// (<queueforge/base/node_read.hpp>).
#include <queueforge/base/node_read.hpp>
#include <queueforge/base/text.hpp>
#include <queueforge/base/yaml_load.hpp>

#include <catch2/catch.hpp>

using namespace queueforge;

TEST_CASE("utf8_at decodes valid characters and flags invalid bytes", "[text]") {
    CHECK(utf8_at("a", 0).code_point == U'a');
    auto e = utf8_at("\xC3\xA9", 0);
    CHECK((e.valid && e.length == 2 && e.code_point == 0xE9));
    auto euro = utf8_at("x\xE2\x82\xAC", 1);
    CHECK((euro.valid && euro.length == 3 && euro.code_point == 0x20AC));
    auto bad = utf8_at("\xC3(", 0);  // continuation byte missing
    CHECK((!bad.valid && bad.length == 1));
    auto cut = utf8_at("\xE2\x82", 0);  // truncated
    CHECK((!cut.valid && cut.length == 1));
}

TEST_CASE("go_quote spells strings as Go's strconv.Quote", "[text]") {
    CHECK(go_quote("plain") == "\"plain\"");
    CHECK(go_quote("a\"b\\c") == "\"a\\\"b\\\\c\"");
    CHECK(go_quote("\a\b\f\n\r\t\v") == "\"\\a\\b\\f\\n\\r\\t\\v\"");
    CHECK(go_quote("\x1b[31m") == "\"\\x1b[31m\"");
    CHECK(go_quote("\x7f") == "\"\\x7f\"");
    CHECK(go_quote("caf\xC3\xA9") == "\"caf\xC3\xA9\"");
    CHECK(go_quote("\xff") == "\"\\xff\"");
    CHECK(go_quote("a\xE2\x80\xA8z") == "\"a\\u2028z\"");
    CHECK(go_quote("\xEF\xBB\xBF") == "\"\\ufeff\"");
}

TEST_CASE("append_json_string spells strings as encoding/json", "[text]") {
    auto json = [](std::string_view s) {
        std::string out;
        append_json_string(out, s);
        return out;
    };
    CHECK(json("a\"b\\") == "\"a\\\"b\\\\\"");
    CHECK(json("<&>") == "\"\\u003c\\u0026\\u003e\"");
    CHECK(json("\x01\n") == "\"\\u0001\\n\"");
    CHECK(json("\b\f\x1f") == "\"\\b\\f\\u001f\"");
    CHECK(json("\xff") == "\"\\ufffd\"");
    CHECK(json("\xE2\x80\xA9") == "\"\\u2029\"");
    CHECK(json("caf\xC3\xA9") == "\"caf\xC3\xA9\"");
}

TEST_CASE("join joins with a separator", "[text]") {
    CHECK(join(std::vector<std::string>{}, ", ").empty());
    CHECK(join(std::vector<std::string>{"a"}, ", ") == "a");
    CHECK(join(std::vector<std::string>{"a", "b", "c"}, ", ") == "a, b, c");
    CHECK(join(std::vector<std::string_view>{"x", "y"}, "; ") == "x; y");
}

TEST_CASE("the node reader walks optional fields without checks between steps", "[text]") {
    Diagnostics diags;
    auto docs = load_yaml("t.yaml", "spec:\n  cohort: c\n  gone: null\n  list: [1, 2]\n  map: {a: b}\n", diags);
    REQUIRE(docs.size() == 1);
    const Node& root = docs[0].root;
    CHECK(text_at(root, {"spec", "cohort"}) == "c");
    CHECK(text_at(root, {"spec", "missing", "deeper"}).empty());
    CHECK(child(&root, "spec") != nullptr);
    CHECK(child(nullptr, "spec") == nullptr);
    CHECK(child(at_path(root, {"spec"}), "gone") != nullptr);
    CHECK(present(at_path(root, {"spec"}), "gone") == nullptr);
    CHECK(text(at_path(root, {"spec", "map"})).empty());
    CHECK(items(at_path(root, {"spec", "list"})).size() == 2);
    CHECK(items(at_path(root, {"spec", "map"})).empty());
    CHECK(is_text(at_path(root, {"spec", "cohort"})));
    CHECK_FALSE(is_text(at_path(root, {"spec", "gone"})));
}
