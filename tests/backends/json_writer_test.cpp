// The JSON and SARIF reports are written as they are walked
// (compiler/backends/findings/json_writer.hpp), in the layout consumers and
// the README's examples know from nlohmann::json::dump(2). Each document here
// is written both ways and compared byte for byte: nesting, empty containers,
// numbers, and strings that need escaping or hold invalid UTF-8.
#include <catch2/catch.hpp>

#include "backends/findings/json_writer.hpp"

#include <nlohmann/json.hpp>

#include <string>

using queueforge::findings::JsonWriter;
using Json = nlohmann::ordered_json;

namespace {

std::string dumped(const Json& j) { return j.dump(2, ' ', false, Json::error_handler_t::replace); }

// Writes `j` through the writer, walking it as a report would.
void write(JsonWriter& w, const Json& j) {
    if (j.is_object()) {
        w.begin_object();
        for (const auto& [k, v] : j.items()) {
            w.key(k);
            write(w, v);
        }
        w.end_object();
    } else if (j.is_array()) {
        w.begin_array();
        for (const auto& v : j) write(w, v);
        w.end_array();
    } else if (j.is_string()) {
        w.value(j.get<std::string>());
    } else if (j.is_number_unsigned()) {
        w.value(j.get<std::size_t>());
    } else {
        w.value(j.get<std::int64_t>());
    }
}

std::string written(const Json& j) {
    std::string out;
    JsonWriter w(out);
    write(w, j);
    return out;
}

}  // namespace

TEST_CASE("json writer: the layout of dump(2) for nested and empty containers", "[findings][json]") {
    const Json docs[] = {
        Json::object(),
        Json::array(),
        Json{{"a", 1}},
        Json{{"a", Json::array()}, {"b", Json::object()}, {"c", Json::array({1, 2, Json::object()})}},
        Json{{"runs", Json::array({Json{{"results", Json::array({Json{{"locations", Json::array()}}})}}})}},
        Json::array({Json::array({Json::array()}), Json{{"x", Json{{"y", Json{{"z", "deep"}}}}}}}),
        Json{{"negative", -42}, {"zero", 0}, {"large", std::size_t{18446744073709551615ULL}}},
    };
    for (const auto& j : docs) {
        INFO(dumped(j));
        CHECK(written(j) == dumped(j));
    }
}

TEST_CASE("json writer: strings escaped as dump escapes them", "[findings][json]") {
    const std::string strings[] = {
        "",
        "plain text: ClusterQueue/team-a at spec.resourceGroups[0]",
        "quote \" and backslash \\",
        "control \x01\x1f and tab\t newline\n return\r backspace\b formfeed\f",
        "del \x7f",
        "utf-8: gpu \xc3\xa9t\xc3\xa9 \xe2\x80\xa6 \xf0\x9f\x9a\x80",
        "invalid utf-8: \xff\xfe and a cut sequence \xe2\x80",
        "an ESC sequence \x1b[31m in a name",
    };
    for (const auto& s : strings) {
        const Json j{{s, s}, {"list", Json::array({s, s})}};
        INFO(dumped(j));
        CHECK(written(j) == dumped(j));
    }
}
