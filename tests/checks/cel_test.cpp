// Unit tests of the embedded CEL engine (include/queueforge/checks/cel.hpp). The
// conformance suite (cel_conformance_test.cpp) covers the language broadly;
// these pin down positions, limits, costs and the Kubernetes libraries.
#include <catch2/catch.hpp>

#include <queueforge/checks/cel.hpp>
#include <queueforge/base/node.hpp>
#include <queueforge/base/yaml_load.hpp>

#include <nlohmann/json.hpp>

#include <chrono>
#include <string>

namespace cel = queueforge::cel;
using cel::Value;
using Kind = cel::Value::Kind;

namespace {

Value run(const std::string& expr, const cel::Activation& act = {}, cel::EvalOptions eo = {},
          cel::Options opts = {}) {
    auto compiled = cel::compile(expr, opts);
    if (auto* err = std::get_if<cel::ParseError>(&compiled)) return Value::error("parse: " + err->to_string());
    return std::get<cel::Program>(compiled).eval(act, eo);
}

cel::ParseError parse_error(const std::string& expr, cel::Options opts = {}) {
    auto compiled = cel::compile(expr, opts);
    REQUIRE(std::holds_alternative<cel::ParseError>(compiled));
    return std::get<cel::ParseError>(compiled);
}

bool is_true(const std::string& expr, const cel::Activation& act = {}) {
    const Value v = run(expr, act);
    INFO(expr << " => " << v.debug_string());
    return v.kind() == Kind::Bool && v.as_bool();
}

bool is_error(const std::string& expr, const cel::Activation& act = {}) {
    const Value v = run(expr, act);
    INFO(expr << " => " << v.debug_string());
    return v.is_error();
}

}  // namespace

TEST_CASE("cel: parse errors carry line and column", "[cel]") {
    auto e = parse_error("1 +");
    CHECK(e.line == 1);
    CHECK(e.column == 4);
    CHECK(e.message.find("expected expression") != std::string::npos);

    e = parse_error("a &&\n  (b || )");
    CHECK(e.line == 2);
    CHECK(e.column == 9);

    e = parse_error("'abc");
    CHECK(e.column == 1);
    CHECK(e.message.find("unterminated") != std::string::npos);

    e = parse_error("x = 1");
    CHECK(e.column == 3);

    // Columns count code points, not bytes.
    e = parse_error("'πέντε' +");
    CHECK(e.column == 10);
}

TEST_CASE("cel: reserved words are not identifiers but may be fields", "[cel]") {
    CHECK(parse_error("while").message.find("reserved") != std::string::npos);
    CHECK(parse_error("as + 1").column == 1);
    CHECK(run("{'if': 1}.if").as_int() == 1);
    CHECK(is_true("{'in': true}.in"));
}

TEST_CASE("cel: operator precedence and associativity", "[cel]") {
    CHECK(run("1 + 2 * 3").as_int() == 7);
    CHECK(run("(1 + 2) * 3").as_int() == 9);
    CHECK(run("10 - 4 - 3").as_int() == 3);
    CHECK(run("100 / 10 / 5").as_int() == 2);
    CHECK(run("7 % 4 * 2").as_int() == 6);
    CHECK(run("-2 * 3").as_int() == -6);
    CHECK(run("--5").as_int() == 5);
    CHECK(is_true("!!true"));
    CHECK(is_true("1 < 2 == true"));
    CHECK(is_true("1 + 1 == 2 && 3 > 2 || false"));
    CHECK(run("true ? 1 : false ? 2 : 3").as_int() == 1);
    CHECK(run("false ? 1 : false ? 2 : 3").as_int() == 3);
    CHECK(is_true("2 in [1, 2] && !(3 in [1, 2])"));
    CHECK(run("[1, 2, 3][1] + {'a': 10}.a").as_int() == 12);
    CHECK(run("-9223372036854775808").as_int() == INT64_MIN);
    CHECK(is_error("9223372036854775808"));
    CHECK(run("0x1F").as_int() == 31);
    CHECK(run("18446744073709551615u").as_uint() == UINT64_MAX);
    CHECK(run("1e3").as_double() == 1000.0);
    CHECK(run("0e+0").as_double() == 0.0);
    CHECK(run(".5").as_double() == 0.5);
}

TEST_CASE("cel: && and || absorb errors commutatively", "[cel]") {
    CHECK(run("false && 1/0 == 1").as_bool() == false);
    CHECK(run("1/0 == 1 && false").as_bool() == false);
    CHECK(run("true || 1/0 == 1").as_bool() == true);
    CHECK(run("1/0 == 1 || true").as_bool() == true);
    CHECK(is_error("true && 1/0 == 1"));
    CHECK(is_error("1/0 == 1 || false"));
    CHECK(is_error("1/0 == 1 ? 1 : 2"));
    CHECK(is_error("'x' ? 1 : 2"));
    CHECK(is_error("'a' && true"));
    CHECK(run("'a' || true").as_bool() == true);
    // A missing key is an error value that a decisive operand absorbs.
    cel::Activation act{{"m", Value::map({})}};
    CHECK(is_true("m.missing || true", act));
    CHECK(run("m.missing", act).error_message() == "no such key: 'missing'");
}

TEST_CASE("cel: checked integer arithmetic, IEEE doubles", "[cel]") {
    CHECK(is_error("9223372036854775807 + 1"));
    CHECK(is_error("-9223372036854775808 - 1"));
    CHECK(is_error("-(-9223372036854775808)"));
    CHECK(is_error("5000000000 * 5000000000"));
    CHECK(is_error("(-9223372036854775808) / -1"));
    CHECK(is_error("1 / 0"));
    CHECK(is_error("1 % 0"));
    CHECK(is_error("0u - 1u"));
    CHECK(is_error("1 + 1u"));
    CHECK(std::isinf(run("1.0 / 0.0").as_double()));
    CHECK(std::isnan(run("0.0 / 0.0").as_double()));
    CHECK(run("-7 % 3").as_int() == -1);
}

TEST_CASE("cel: heterogeneous numeric equality and ordering", "[cel]") {
    CHECK(is_true("1 == 1u"));
    CHECK(is_true("1 == 1.0"));
    CHECK(is_true("dyn(1u) == 1.0"));
    CHECK(is_true("1 < 1.5 && 2u > 1 && -1 < 0u"));
    CHECK(is_true("[1, 2.0] == [1u, 2]"));
    CHECK(is_true("{1: 'a'}[1u] == 'a' && {1u: 'a'}[1.0] == 'a'"));
    CHECK(run("1 == 'a'").as_bool() == false);
    CHECK(is_error("1 < 'a'"));
    CHECK(is_error("{1: 1, 1u: 2}"));
}

TEST_CASE("cel: string and bytes literals", "[cel]") {
    CHECK(run(R"('a\tb\n\\\'\"\x41\101\u00e9\U0001F600')").as_string() == "a\tb\n\\'\"AA\u00e9\U0001F600");
    CHECK(run(R"(r'a\n')").as_string() == "a\\n");
    CHECK(run("'''multi\nline'''").as_string() == "multi\nline");
    CHECK(run(R"(b'\xff\000')").as_string() == std::string("\xff\0", 2));
    CHECK(run(R"(b'\xff')").kind() == Kind::Bytes);
    CHECK(parse_error(R"('\q')").message.find("invalid escape") != std::string::npos);
    CHECK(parse_error(R"('\ud800')").message.find("code point") != std::string::npos);
    CHECK(parse_error(R"(b'\u00e9')").message.find("not allowed") != std::string::npos);
    CHECK(parse_error("'line\nbreak'").line == 1);
}

TEST_CASE("cel: strings count code points", "[cel]") {
    CHECK(run("size('πέντε')").as_int() == 5);
    CHECK(run("'πέντε'.size()").as_int() == 5);
    CHECK(run("size(b'\\xff\\x00')").as_int() == 2);
    CHECK(run("'ta©o©αT'.substring(2, 6)").as_string() == "©o©α");
    CHECK(run("'ta©o©αT'.indexOf('©', 3)").as_int() == 4);
    CHECK(run("'ta©o©αT'.charAt(5)").as_string() == "α");
    CHECK(run("'Ta©oCαt'.reverse()").as_string() == "tαCo©aT");
    CHECK(is_error("string(b'\\xff')"));
}

TEST_CASE("cel: timestamps and durations", "[cel]") {
    CHECK(run("timestamp('2009-02-13T23:31:30Z')").seconds() == 1234567890);
    CHECK(run("string(timestamp('2009-02-13T23:31:30.500+01:00'))").as_string() == "2009-02-13T22:31:30.5Z");
    CHECK(run("timestamp('2009-02-13T23:31:30Z').getDayOfWeek()").as_int() == 5);
    CHECK(run("timestamp('2009-02-13T23:31:30Z').getHours('+05:30')").as_int() == 5);
    CHECK(run("timestamp('2009-02-13T23:31:30Z').getMinutes('+05:30')").as_int() == 1);
    CHECK(run("timestamp('2009-02-13T23:31:30Z').getDate('-23:59')").as_int() == 12);
    CHECK(run("timestamp('2024-02-29T12:00:00Z').getDayOfYear()").as_int() == 59);
    CHECK(is_error("timestamp('2023-02-29T00:00:00Z')"));
    CHECK(is_error("timestamp('10000-01-01T00:00:00Z')"));
    CHECK(is_error("timestamp('9999-12-31T23:59:59Z') + duration('1s')"));
    CHECK(is_error("timestamp('2009-02-13T23:31:30Z').getHours('Not/AZone')"));
    CHECK(run("duration('1h30m') == duration('5400s')").as_bool());
    CHECK(run("string(duration('-1.5s'))").as_string() == "-1.5s");
    CHECK(run("(timestamp('2024-01-02T00:00:00Z') - timestamp('2024-01-01T00:00:00Z')).getHours()").as_int() == 24);
    CHECK(is_true("timestamp('2024-01-01T00:00:00Z') < timestamp('2024-01-01T00:00:00.000000001Z')"));
    CHECK(is_error("duration('1d')"));
}

TEST_CASE("cel: IANA time zones from the system database", "[cel]") {
    const Value v = run("timestamp('2009-02-13T23:31:30Z').getHours('Asia/Kolkata')");
    if (v.is_error()) {
        WARN("no zoneinfo on this system: " << v.error_message());
        return;
    }
    CHECK(v.as_int() == 5);
    CHECK(is_error("timestamp('2009-02-13T23:31:30Z').getHours('../../etc/passwd')"));
}

TEST_CASE("cel: Kubernetes quantities compare across suffixes", "[cel]") {
    CHECK(is_true("quantity('1Gi').isGreaterThan(quantity('1G'))"));
    CHECK(is_true("quantity('1G').isLessThan(quantity('1Gi'))"));
    CHECK(is_true("quantity('500m').compareTo(quantity('0.5')) == 0"));
    CHECK(is_true("quantity('2000k') == quantity('2M')"));
    CHECK(is_true("quantity('1.5Gi').asInteger() == 1610612736"));
    CHECK(is_true("quantity('1k').add(24).asInteger() == 1024"));
    CHECK(is_true("sign(quantity('1').sub(quantity('2'))) == -1"));
    CHECK(is_true("!isQuantity('1K') && isQuantity('1Ki')"));
    CHECK(is_error("quantity('1.5').asInteger()"));
    CHECK(run("quantity('2.5k').asApproximateFloat()").as_double() == 2500.0);
}

TEST_CASE("cel: Kubernetes lists, regex and strings libraries", "[cel]") {
    CHECK(is_true("[1, 2, 2, 5].isSorted() && [3, 1].sum() == 4 && [3, 1].min() == 1 && ['a', 'b'].max() == 'b'"));
    CHECK(is_true("[1, 2, 1].lastIndexOf(1) == 2 && [1].indexOf(5) == -1"));
    CHECK(is_error("[].max()"));
    CHECK(run("'abc 123 def 456'.find('[0-9]+')").as_string() == "123");
    CHECK(run("'abc 123 def 456'.findAll('[0-9]+').size()").as_int() == 2);
    CHECK(run("'abc 123 def 456'.findAll('[0-9]+', 1)").as_list().size() == 1);
    CHECK(is_true("'a,b,c'.split(',') == ['a', 'b', 'c'] && ['a', 'b'].join('-') == 'a-b'"));
    CHECK(run("'  x  '.trim()").as_string() == "x");
    CHECK(run("'%s has %d items'.format(['list', 3])").as_string() == "list has 3 items");
    CHECK(run("strings.quote('a\"b')").as_string() == "\"a\\\"b\"");
    CHECK(is_true("'hello'.matches('^h.*o$')"));
    // An invalid constant pattern is a compile error, as in Kubernetes.
    CHECK(parse_error("'x'.matches('(')").message.find("invalid regular expression") != std::string::npos);
    CHECK(is_error("'x'.matches(dyn('('))"));
}

TEST_CASE("cel: optionals", "[cel]") {
    CHECK(run("{'a': 1}.?a.orValue(5)").as_int() == 1);
    CHECK(run("{'a': 1}.?b.orValue(5)").as_int() == 5);
    CHECK(run("[1, 2][?5].hasValue()").as_bool() == false);
    CHECK(run("optional.of(3).optMap(x, x * 2).value()").as_int() == 6);
    CHECK(is_error("optional.none().value()"));
    CHECK(run("{?'a': optional.none(), 'b': 1}").map_entries().size() == 1);
    CHECK(run("[?optional.of(1), ?optional.none()]").as_list().size() == 1);
}

TEST_CASE("cel: macros and two-variable comprehensions", "[cel]") {
    CHECK(is_true("[1, 2, 3].all(x, x > 0) && [1, 2, 3].exists(x, x == 2) && [1, 2, 3].exists_one(x, x > 2)"));
    CHECK(run("[1, 2, 3].map(x, x * x)").as_list().back().as_int() == 9);
    CHECK(run("[1, 2, 3].map(x, x > 1, x * 10)").as_list().size() == 2);
    CHECK(run("[1, 2, 3].filter(x, x % 2 == 1)").as_list().size() == 2);
    CHECK(is_true("{'a': 1, 'b': 2}.all(k, v, v > 0) && [5, 6].exists(i, v, i == 1 && v == 6)"));
    CHECK(is_true("{'a': 1}.transformMap(k, v, v + 1) == {'a': 2}"));
    CHECK(is_true("[1, 2].transformList(i, v, i + v) == [1, 3]"));
    CHECK(is_true("[1, 2].transformMapEntry(i, v, {string(v): i}) == {'1': 0, '2': 1}"));
    CHECK(is_true("has({'a': 1}.a) && !has({'a': 1}.b)"));
    CHECK(is_true("cel.bind(x, [1, 2], x + x == [1, 2, 1, 2])"));
    // Errors inside all/exists are absorbed by a decisive element.
    CHECK(is_true("[0, 1].exists(x, 1 / x == 1)"));
    CHECK(is_error("[0, 1].exists(x, 1 / x == 5)"));
    CHECK(parse_error("[1].all(1, true)").message.find("simple") != std::string::npos);
    CHECK(parse_error("has(a)").message.find("has()") != std::string::npos);
}

TEST_CASE("cel: variables, containers and qualified names", "[cel]") {
    cel::Activation act{{"x.y", Value::boolean(true)}, {"y", Value::string("plain")}, {"a.b", Value::map({{Value::string("c"), Value::integer(7)}})}};
    cel::Options in_x;
    in_x.container = "x";
    CHECK(run("y", act, {}, in_x).as_bool() == true);
    CHECK(run(".y", act, {}, in_x).as_string() == "plain");
    CHECK(run("y", act).as_string() == "plain");
    CHECK(run("a.b.c", act).as_int() == 7);
    CHECK(run("[1].exists(y, y == 1)", act, {}, in_x).as_bool() == true);
    CHECK(run("undefined_var").error_message().find("undeclared reference") != std::string::npos);
    CHECK(run("type(1) == int && type('') == string && type(int) == type").as_bool());
    CHECK(is_error("dyn"));
    CHECK(run("f_unknown(1)").is_error());
}

TEST_CASE("cel: Kubernetes objects from JSON and YAML nodes", "[cel]") {
    auto j = nlohmann::json::parse(R"({"metadata": {"name": "q", "labels": {"team": "a"}},
                                       "spec": {"quota": [1, 2.5, "3"], "big": 18446744073709551615}})");
    cel::Activation act{{"self", cel::from_json(j)}};
    CHECK(is_true("self.metadata.name == 'q' && self.metadata.labels.team == 'a'", act));
    CHECK(is_true("self.spec.quota[0] == 1 && self.spec.quota[1] == 2.5 && self.spec.quota[2] == '3'", act));
    CHECK(is_true("self.spec.big == 18446744073709551615u", act));
    CHECK(is_true("has(self.spec.quota) && !has(self.spec.nothing)", act));

    using queueforge::Node;
    Node doc = Node::mapping();
    doc.set("replicas", Node::integer(3));
    doc.set("ratio", Node::scalar(Node::Kind::Float, "0.5"));
    doc.set("name", Node::string("w"));
    Node items = Node::sequence();
    items.push(Node::boolean(true));
    items.push(Node::null_value());
    doc.set("items", items);
    cel::Activation act2{{"object", cel::from_node(doc)}};
    CHECK(is_true("object.replicas == 3 && object.ratio == 0.5 && object.name == 'w'", act2));
    CHECK(is_true("object.items[0] && object.items[1] == null", act2));

    nlohmann::json deep = nlohmann::json::array();
    nlohmann::json* cur = &deep;
    for (int i = 0; i < 2000; ++i) {
        cur->push_back(nlohmann::json::array());
        cur = &(*cur)[0];
    }
    CHECK(cel::from_json(deep).is_error());
}

TEST_CASE("cel: deep nesting is a parse error, never a crash", "[cel]") {
    const std::string parens = std::string(10000, '(') + "1" + std::string(10000, ')');
    CHECK(parse_error(parens).message.find("nesting") != std::string::npos);
    const std::string lists = std::string(10000, '[') + std::string(10000, ']');
    CHECK(parse_error(lists).message.find("nesting") != std::string::npos);
    std::string chain = "1";
    for (int i = 0; i < 20000; ++i) chain += "+1";
    CHECK(parse_error(chain).message.find("nesting") != std::string::npos);
    std::string selects = "a";
    for (int i = 0; i < 20000; ++i) selects += ".b";
    CHECK(parse_error(selects).message.find("nesting") != std::string::npos);
    CHECK(parse_error(std::string(30000, '-') + "1").message.find("nesting") != std::string::npos);
    // Long && / || chains are balanced, so they stay well within the limit.
    std::string ors = "false";
    for (int i = 0; i < 5000; ++i) ors += " || false";
    CHECK(run(ors + " || true").as_bool());
    // Anything within the limits evaluates.
    CHECK(run(std::string(240, '(') + "7" + std::string(240, ')')).as_int() == 7);
    std::string sum = "1";
    for (int i = 0; i < 900; ++i) sum += " + 1";
    CHECK(run(sum).as_int() == 901);
    std::string ternary;
    for (int i = 0; i < 240; ++i) ternary += "false ? 0 : ";
    CHECK(run(ternary + "5").as_int() == 5);
    CHECK(run(std::string(240, '[') + std::string(240, ']')).kind() == Kind::List);
    // Size limit.
    CHECK(parse_error(std::string(200 * 1024, ' ') + "1").message.find("limit") != std::string::npos);
}

TEST_CASE("cel: the cost limit stops runaway evaluations", "[cel]") {
    cel::EvalOptions small;
    small.cost_limit = 10000;
    const Value blowup = run("[1,2,3,4,5,6,7,8,9,10].map(a, [1,2,3,4,5,6,7,8,9,10].map(b, "
                             "[1,2,3,4,5,6,7,8,9,10].map(c, [1,2,3,4,5,6,7,8,9,10].map(d, a + b + c + d))))",
                             {}, small);
    CHECK(blowup.error_message() == "cost limit exceeded");

    // Every replace multiplies the length by ten: 10^8 bytes if unbounded.
    const auto start = std::chrono::steady_clock::now();
    const Value repeat = run("'x'.replace('x', 'xxxxxxxxxx').replace('x', 'xxxxxxxxxx').replace('x', 'xxxxxxxxxx')"
                             ".replace('x', 'xxxxxxxxxx').replace('x', 'xxxxxxxxxx').replace('x', 'xxxxxxxxxx')"
                             ".replace('x', 'xxxxxxxxxx').replace('x', 'xxxxxxxxxx').size()");
    CHECK(repeat.error_message() == "cost limit exceeded");
    CHECK(std::chrono::steady_clock::now() - start < std::chrono::seconds(5));

    // An error from the budget is not absorbed by || or exists().
    cel::EvalOptions tiny;
    tiny.cost_limit = 500;
    CHECK(run("[1,2,3,4,5,6,7,8,9,10].map(a, [1,2,3,4,5,6,7,8,9,10].map(b, [1,2,3,4,5,6,7,8,9,10].map(c, c))) == [] || true",
              {}, tiny).error_message() == "cost limit exceeded");
    CHECK(run("[1,2,3,4,5,6,7,8,9,10].exists(a, [1,2,3,4,5,6,7,8,9,10].map(b, [1,2,3,4,5,6,7,8,9,10].map(c, c)) == [])",
              {}, tiny).error_message() == "cost limit exceeded");

    cel::EvalStats stats;
    auto prog = std::get<cel::Program>(cel::compile("[1, 2, 3].all(x, x > 0)"));
    CHECK(prog.eval({}, {}, &stats).as_bool());
    CHECK(stats.cost > 0);
    CHECK(stats.cost < 100);
}

TEST_CASE("cel: regexes run in linear time", "[cel]") {
    // (a+)+$ backtracks exponentially in PCRE-style engines; RE2 does not.
    const std::string text = std::string(5000, 'a') + "!";
    cel::Activation act{{"s", Value::string(text)}};
    const auto start = std::chrono::steady_clock::now();
    CHECK(run("s.matches('^(a+)+$')", act).as_bool() == false);
    CHECK(run("s.matches('(x+x+)+y')", act).as_bool() == false);
    CHECK(run("s.findAll('a*').size()", act).as_int() == 2);
    CHECK(std::chrono::steady_clock::now() - start < std::chrono::seconds(2));
}

TEST_CASE("cel: IP and CIDR", "[cel]") {
    CHECK(is_true("ip('10.0.0.1').family() == 4 && ip('::1').isLoopback()"));
    CHECK(is_true("cidr('10.0.0.0/8').containsIP('10.1.2.3') && !cidr('10.0.0.0/8').containsIP('11.0.0.1')"));
    CHECK(run("string(ip('2001:0DB8:0:0:0:0:0:1'))").as_string() == "2001:db8::1");
    CHECK(run("string(cidr('192.168.0.1/24').masked())").as_string() == "192.168.0.0/24");
    CHECK(is_error("ip('192.168.01.1')"));
    CHECK(is_error("ip('::ffff:1.2.3.4')"));
}

TEST_CASE("cel: no input makes compile or eval throw", "[cel]") {
    const char* inputs[] = {
        "", " ", "(", ")", "[", "{", "}", "a.", ".", "..a", "a[", "a[?", "{?", "1 ? 2", "1 ? : 2", "''''", "\"\"\"",
        "b'", "r", "`", "`a", "x.`", "a.?", "has(", "has()", "[].map()", "[].map(x)", "[].all(x, y, z, w)",
        "cel.bind(1, 2, 3)", "cel.block(1, 2)", "cel.index(-1)", "Msg{", "Msg{a: 1}", "Msg{a: 1}.a", "\\", "@",
        "1u.x", "1..2", "0x", "1e", "1e+", "--", "!", "'\\x4'", "'\\777'", "'\\U0011ffff'", "{1: 2, 1: 3}",
        "{[]: 1}", "[1][-1]", "[1][18446744073709551615u]", "'a'[0]", "null.a", "timestamp('x')", "duration('-')",
        "'%.999999999f'.format([1.0])", "'%'.format([])", "'%.'.format([1])", "'a'.substring(1, 0)",
        "math.bitShiftLeft(1, 9223372036854775807)", "base64.decode('!')", "quantity('1e999999999')",
    };
    for (const char* input : inputs) {
        INFO(input);
        auto compiled = cel::compile(input);
        if (auto* prog = std::get_if<cel::Program>(&compiled)) (void)prog->eval({});
    }
    SUCCEED();
}

TEST_CASE("cel: documents converted lazily read as the eager conversion", "[cel][from_node]") {
    // Maps small and large (over the index threshold), lists of maps,
    // numbers beyond int64, floats, nulls, booleans, quoted numbers.
    std::string text = "apiVersion: v1\nkind: Thing\nmetadata: {name: t, labels: {a: '1', b: x}}\n"
                       "spec:\n  big: 18446744073709551615\n  huge: 1e400\n  ratio: 0.25\n  none: null\n  enabled: true\n"
                       "  items:\n  - {name: a, count: 3}\n  - [1, 2, {deep: {deeper: z}}]\n  wide:\n";
    for (int i = 0; i < 20; ++i) text += "    k" + std::to_string(i) + ": " + std::to_string(i) + "\n";
    queueforge::Diagnostics d;
    auto docs = queueforge::load_yaml("lazy.yaml", text, d);
    REQUIRE(docs.size() == 1);
    const queueforge::Node& doc = docs[0].root;
    const Value eager = cel::from_node(doc);
    const Value lazy = cel::from_node_lazy(doc);
    CHECK(lazy.debug_string() == eager.debug_string());
    CHECK(lazy.equals(eager));
    CHECK(eager.equals(cel::from_node_lazy(doc)));
    // Read through expressions, each on a fresh lazy value (nothing read before).
    for (const char* expr : {"object.spec.wide.k17 == 17", "object.spec.items[1][2].deep.deeper == 'z'",
                             "object.spec.big == 18446744073709551615u", "object.metadata.labels.a == '1'",
                             "!has(object.spec.missing) && object.spec.none == null && object.spec.enabled",
                             "object.spec.wide.exists(k, k == 'k19') && size(object.spec.wide) == 20",
                             "object == object"}) {
        INFO(expr);
        cel::Activation act{{"object", cel::from_node_lazy(doc)}};
        CHECK(is_true(expr, act));
        cel::Activation eager_act{{"object", eager}};
        CHECK(is_true(expr, eager_act));
    }
    cel::Activation both{{"a", cel::from_node_lazy(doc)}, {"b", eager}};
    CHECK(is_true("a == b && b == a && a.spec == b.spec", both));

    // What from_node refuses, from_node_lazy refuses the same way.
    using queueforge::Node;
    Node dup = Node::mapping();
    dup.entries().push_back(Node::Entry{"k", {}, Node::integer(1)});
    dup.entries().push_back(Node::Entry{"k", {}, Node::integer(2)});
    REQUIRE(cel::from_node(dup).is_error());
    CHECK(cel::from_node_lazy(dup).is_error());
    CHECK(cel::from_node_lazy(dup).error_message() == cel::from_node(dup).error_message());
    Node deep = Node::mapping();
    for (int i = 0; i < 1500; ++i) {
        Node outer = Node::mapping();
        outer.set("x", std::move(deep));
        deep = std::move(outer);
    }
    REQUIRE(cel::from_node(deep).is_error());
    CHECK(cel::from_node_lazy(deep).error_message() == cel::from_node(deep).error_message());
}

TEST_CASE("cel: a kind index visits only the required kind and changes no result", "[cel]") {
    queueforge::Diagnostics diags;
    auto docs = queueforge::load_yaml("t.yaml", R"(kind: A
x: 2
---
kind: B
x: 5
---
kind: 7
x: 3
---
kind: A
x: 1
---
x: 9
---
kind: A
x: "no number"
)", diags);
    REQUIRE(docs.size() == 6);
    Value::ListItems items;
    for (const auto& d : docs) items.push_back(cel::from_node_lazy(d.root));
    // An object from_node refuses (a repeated key) is an error, not a map.
    queueforge::Node dup = queueforge::Node::mapping();
    dup.entries().push_back(queueforge::Node::Entry{"kind", {}, queueforge::Node::string("A")});
    dup.entries().push_back(queueforge::Node::Entry{"kind", {}, queueforge::Node::string("A")});
    const Value objects = Value::list(items);
    cel::KindIndex index;
    index.list = objects.identity();
    index.by_kind["A"] = {0, 3, 5};
    index.by_kind["B"] = {1};
    index.other = {2, 4};  // kind 7 and no kind
    const cel::Activation act{{"objects", objects}};
    for (const char* expr : {
             "objects.filter(o, o.kind == 'A' && o.x > 1)",  // the string x: an error, as without the index
             "objects.filter(o, o.kind == 'A' && type(o.x) == int && o.x > 1)",
             "objects.filter(o, 'B' == o.kind)",
             "objects.filter(o, has(o.kind) && o.kind == 'A')",
             "objects.filter(o, o.x > 0 && (o.kind == 'C' && true))",
             "objects.exists(o, o.kind == 'B' && o.x == 5)",
             "objects.exists(o, o.kind == 'A' && o.x == 5)",
             "objects.exists_one(o, o.kind == 'A' && o.x == 1)",
             "objects.filter(o, o.kind == 'A' && type(o.x) == int).map(o, o.x)",
             "objects.map(o, has(o.kind) && o.kind == 'A', o.x)",
             "objects.all(o, o.kind == 'A' && true)",  // not indexed: all needs every element
         }) {
        INFO(expr);
        cel::EvalStats plain_stats, indexed_stats;
        auto compiled = cel::compile(expr);
        REQUIRE(std::holds_alternative<cel::Program>(compiled));
        const auto& program = std::get<cel::Program>(compiled);
        const Value plain = program.eval(act, {}, &plain_stats);
        const Value indexed = program.eval(act, {.kind_index = &index}, &indexed_stats);
        CHECK(indexed.debug_string() == plain.debug_string());
        CHECK(indexed_stats.cost <= plain_stats.cost);
    }
    // The index does the work of the kind's elements only.
    cel::EvalStats plain_stats, indexed_stats;
    auto compiled = cel::compile("objects.filter(o, o.kind == 'B')");
    const auto& program = std::get<cel::Program>(compiled);
    CHECK(program.eval(act, {}, &plain_stats).debug_string() == program.eval(act, {.kind_index = &index}, &indexed_stats).debug_string());
    CHECK(indexed_stats.cost < plain_stats.cost);
    // Another list, even with the same elements, is not the indexed one.
    const cel::Activation copy{{"objects", Value::list(items)}};
    cel::EvalStats copy_stats;
    CHECK(program.eval(copy, {.kind_index = &index}, &copy_stats).is_error());  // `x: 9` has no kind
    CHECK(copy_stats.cost == plain_stats.cost);
    // A repeated-key object is visited whatever the kind asked for.
    Value::ListItems with_dup = items;
    with_dup.push_back(cel::from_node_lazy(dup));
    const Value objects2 = Value::list(with_dup);
    cel::KindIndex index2 = index;
    index2.list = objects2.identity();
    index2.other.push_back(6);
    const cel::Activation act2{{"objects", objects2}};
    auto filter = cel::compile("objects.filter(o, o.kind == 'B')");
    const auto& p2 = std::get<cel::Program>(filter);
    CHECK(p2.eval(act2, {.kind_index = &index2}).debug_string() == p2.eval(act2).debug_string());
    CHECK(p2.eval(act2).is_error());
}

TEST_CASE("cel: unconverted gives the lazy value anew, equal to the one read", "[cel]") {
    queueforge::Diagnostics diags;
    auto docs = queueforge::load_yaml("t.yaml", "kind: A\nspec:\n  items: [1, {b: c}]\n  name: nm\n", diags);
    REQUIRE(docs.size() == 1);
    const Value lazy = cel::from_node_lazy(docs[0].root);
    const cel::Activation act{{"object", lazy}};
    CHECK(run("object.spec.items[1].b == 'c' && object.spec.name == 'nm'", act).debug_string() == "true");
    const Value fresh = cel::unconverted(lazy);
    CHECK(fresh.identity() != lazy.identity());
    CHECK(fresh.equals(lazy));
    CHECK(fresh.debug_string() == cel::from_node(docs[0].root).debug_string());
    CHECK(cel::unconverted(Value::integer(3)).debug_string() == "3");
    const Value eager = cel::from_node(docs[0].root);  // not lazy: returned as it is
    CHECK(cel::unconverted(eager).identity() == eager.identity());
}
