#include <catch2/catch.hpp>

#include <queueforge/cel.hpp>

#include <string>

namespace cel = queueforge::cel;
using cel::Value;

namespace {

Value run(const std::string& expr, const cel::Activation& act = {}, cel::EvalOptions eo = {}) {
    auto compiled = cel::compile(expr);
    if (auto* err = std::get_if<cel::ParseError>(&compiled)) return Value::error("parse: " + err->to_string());
    return std::get<cel::Program>(compiled).eval(act, eo);
}

}  // namespace

TEST_CASE("cel: literals and arithmetic", "[cel]") {
    CHECK(run("1 + 2 * 3").as_int() == 7);
}
