// The CEL conformance suite (../shared/cel-conformance, converted from
// google/cel-spec; see its README.md for the entry format and rules).
// Every case is evaluated; a case passes when the result has the expected
// type and value, or, for `error: any`, when evaluation (or parsing) fails.
// Expected values are decoded here independently of the engine, including
// timestamps and durations, so an engine bug cannot mask itself.
#include <catch2/catch.hpp>

#include <queueforge/checks/cel.hpp>

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <filesystem>
#include <iomanip>
#include <iostream>
#include <limits>
#include <map>
#include <optional>
#include <set>
#include <sstream>
#include <string>
#include <vector>

namespace fs = std::filesystem;
using queueforge::int128;
using queueforge::cel::Value;
using Kind = queueforge::cel::Value::Kind;

namespace {

// Files whose features Kubernetes enables (README table: "in Kubernetes?"
// yes or a version), plus the suite's own Kubernetes file. The pass-rate
// target applies to these.
const std::set<std::string> kKubernetesFiles = {
    "basic.yaml",     "comparisons.yaml",  "conversions.yaml",   "fields.yaml",
    "fp_math.yaml",   "integer_math.yaml", "lists.yaml",         "logic.yaml",
    "macros.yaml",    "macros2.yaml",      "namespace.yaml",     "network_ext.yaml",
    "optionals.yaml", "parse.yaml",        "plumbing.yaml",      "string.yaml",
    "string_ext.yaml", "timestamps.yaml",  "type_deduction.yaml", "kubernetes-extensions.yaml",
};

struct DecodeError {
    std::string message;
};

std::string base64_decode(const std::string& in) {
    auto val = [](char c) -> int {
        if (c >= 'A' && c <= 'Z') return c - 'A';
        if (c >= 'a' && c <= 'z') return c - 'a' + 26;
        if (c >= '0' && c <= '9') return c - '0' + 52;
        if (c == '+') return 62;
        if (c == '/') return 63;
        return -1;
    };
    std::string out;
    unsigned acc = 0;
    int bits = 0;
    for (char c : in) {
        if (c == '=') break;
        const int v = val(c);
        if (v < 0) throw DecodeError{"bad base64"};
        acc = (acc << 6) | static_cast<unsigned>(v);
        bits += 6;
        if (bits >= 8) {
            bits -= 8;
            out += static_cast<char>((acc >> bits) & 0xFF);
        }
    }
    return out;
}

std::int64_t days_from_civil(std::int64_t y, int m, int d) {
    y -= m <= 2;
    const std::int64_t era = (y >= 0 ? y : y - 399) / 400;
    const std::int64_t yoe = y - era * 400;
    const std::int64_t doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
    const std::int64_t doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    return era * 146097 + doe - 719468;
}

// The suite writes timestamps as YYYY-MM-DDTHH:MM:SS[.fraction]Z.
Value decode_timestamp(const std::string& s) {
    int y, mo, d, h, mi, se;
    if (std::sscanf(s.c_str(), "%4d-%2d-%2dT%2d:%2d:%2d", &y, &mo, &d, &h, &mi, &se) != 6)
        throw DecodeError{"bad timestamp " + s};
    std::int64_t nanos = 0;
    const auto dot = s.find('.');
    if (dot != std::string::npos) {
        std::string digits = s.substr(dot + 1, s.size() - dot - 2);
        digits.resize(9, '0');
        nanos = std::stoll(digits);
    }
    const std::int64_t secs = days_from_civil(y, mo, d) * 86400 + h * 3600 + mi * 60 + se;
    return Value::timestamp(int128{secs} * 1000000000 + nanos);
}

// Protobuf JSON durations: [-]seconds[.fraction]s.
Value decode_duration(const std::string& s) {
    if (s.empty() || s.back() != 's') throw DecodeError{"bad duration " + s};
    std::string body = s.substr(0, s.size() - 1);
    bool neg = false;
    if (!body.empty() && body[0] == '-') {
        neg = true;
        body.erase(0, 1);
    }
    std::string whole = body;
    std::string frac;
    const auto dot = body.find('.');
    if (dot != std::string::npos) {
        whole = body.substr(0, dot);
        frac = body.substr(dot + 1);
    }
    frac.resize(9, '0');
    int128 total = int128{std::stoll(whole)} * 1000000000 + std::stoll(frac);
    return Value::duration(neg ? -total : total);
}

template <typename T>
T parse_integer(const std::string& text) {
    T out{};
    auto res = std::from_chars(text.data(), text.data() + text.size(), out);
    if (res.ec != std::errc() || res.ptr != text.data() + text.size()) throw DecodeError{"bad integer " + text};
    return out;
}

Value decode(const YAML::Node& n) {
    if (!n.IsMap() || n.size() != 1) throw DecodeError{"typed value must be a one-key map"};
    const std::string key = n.begin()->first.as<std::string>();
    const YAML::Node v = n.begin()->second;
    if (key == "null") return Value::null();
    if (key == "bool") return Value::boolean(v.as<bool>());
    if (key == "int") return Value::integer(parse_integer<std::int64_t>(v.Scalar()));
    if (key == "uint") return Value::uinteger(parse_integer<std::uint64_t>(v.Scalar()));
    if (key == "double") {
        const std::string s = v.Scalar();
        if (s == "NaN") return Value::dbl(std::numeric_limits<double>::quiet_NaN());
        if (s == "Infinity") return Value::dbl(std::numeric_limits<double>::infinity());
        if (s == "-Infinity") return Value::dbl(-std::numeric_limits<double>::infinity());
        return Value::dbl(std::strtod(s.c_str(), nullptr));
    }
    if (key == "string") return Value::string(v.as<std::string>());
    if (key == "bytes_b64") return Value::bytes(base64_decode(v.as<std::string>()));
    if (key == "timestamp") return decode_timestamp(v.as<std::string>());
    if (key == "duration") return decode_duration(v.as<std::string>());
    if (key == "type") return Value::type(v.as<std::string>());
    if (key == "list") {
        Value::ListItems items;
        for (const auto& item : v) items.push_back(decode(item));
        return Value::list(std::move(items));
    }
    if (key == "map") {
        Value::MapEntries entries;
        for (const auto& e : v) entries.emplace_back(decode(e["key"]), decode(e["value"]));
        return Value::map(std::move(entries));
    }
    throw DecodeError{"unknown typed key " + key};
}

// The README's result equality: same type, lists in order, maps regardless
// of order, NaN matches NaN, other doubles numerically.
bool same(const Value& a, const Value& b) {
    if (a.kind() != b.kind()) return false;
    switch (a.kind()) {
        case Kind::Null: return true;
        case Kind::Bool: return a.as_bool() == b.as_bool();
        case Kind::Int: return a.as_int() == b.as_int();
        case Kind::Uint: return a.as_uint() == b.as_uint();
        case Kind::Double:
            if (std::isnan(a.as_double()) || std::isnan(b.as_double()))
                return std::isnan(a.as_double()) && std::isnan(b.as_double());
            return a.as_double() == b.as_double();
        case Kind::String:
        case Kind::Bytes:
        case Kind::Type: return a.as_string() == b.as_string();
        case Kind::Timestamp:
        case Kind::Duration: return a.seconds() == b.seconds() && a.nanos() == b.nanos();
        case Kind::List: {
            const auto& x = a.as_list();
            const auto& y = b.as_list();
            if (x.size() != y.size()) return false;
            for (std::size_t i = 0; i < x.size(); ++i)
                if (!same(x[i], y[i])) return false;
            return true;
        }
        case Kind::Map: {
            const auto& x = a.map_entries();
            const auto& y = b.map_entries();
            if (x.size() != y.size()) return false;
            for (const auto& [k, v] : x) {
                bool found = false;
                for (const auto& [k2, v2] : y) {
                    if (same(k, k2)) {
                        found = same(v, v2);
                        break;
                    }
                }
                if (!found) return false;
            }
            return true;
        }
        default: return false;
    }
}

struct FileStats {
    std::string file;
    int cases = 0;
    int passed = 0;
    int failed = 0;
    int skipped = 0;
    std::map<std::string, int> skip_reasons;
};

}  // namespace

TEST_CASE("cel conformance suite", "[cel][conformance]") {
    const fs::path dir = fs::path(QF_SHARED_DIR) / "cel-conformance";
    if (!fs::is_directory(dir)) {
        WARN("skipped: ../shared is absent (cel-conformance)");
        return;
    }
    std::vector<fs::path> files;
    for (const auto& entry : fs::directory_iterator(dir))
        if (entry.path().extension() == ".yaml") files.push_back(entry.path());
    std::sort(files.begin(), files.end());

    std::vector<FileStats> table;
    std::vector<std::string> failures;
    std::vector<std::string> skips;
    int k8s_cases = 0;
    int k8s_passed = 0;

    for (const auto& path : files) {
        FileStats st;
        st.file = path.filename().string();
        YAML::Node doc = YAML::LoadFile(path.string());
        for (const auto& entry : doc) {
            ++st.cases;
            const std::string name = entry["name"].as<std::string>();
            const std::string expr = entry["expr"].as<std::string>();
            const std::string label = st.file + " " + name;
            queueforge::cel::Options opts;
            if (entry["container"]) opts.container = entry["container"].as<std::string>();
            const bool expect_error = static_cast<bool>(entry["error"]);
            Value expected;
            queueforge::cel::Activation activation;
            try {
                if (!expect_error) expected = decode(entry["value"]);
                if (entry["bindings"])
                    for (const auto& b : entry["bindings"]) activation[b.first.as<std::string>()] = decode(b.second);
            } catch (const DecodeError& e) {
                ++st.failed;
                failures.push_back(label + ": cannot decode test data: " + e.message);
                continue;
            }
            auto compiled = queueforge::cel::compile(expr, opts);
            Value got;
            std::string parse_error;
            if (auto* err = std::get_if<queueforge::cel::ParseError>(&compiled)) {
                parse_error = err->to_string();
                got = Value::error("parse error: " + parse_error);
            } else {
                got = std::get<queueforge::cel::Program>(compiled).eval(activation);
            }
            const bool ok = expect_error ? got.is_error() : (!got.is_error() && same(got, expected));
            if (ok) {
                ++st.passed;
            } else {
                ++st.failed;
                failures.push_back(label + "\n    expr:     " + expr + "\n    expected: " +
                                   (expect_error ? std::string("an error") : expected.debug_string()) +
                                   "\n    got:      " + got.debug_string());
            }
        }
        if (kKubernetesFiles.count(st.file)) {
            k8s_cases += st.cases - st.skipped;
            k8s_passed += st.passed;
        }
        table.push_back(st);
    }

    std::ostringstream out;
    out << "\nCEL conformance (" << dir.string() << ")\n";
    out << std::left << std::setw(30) << "file" << std::right << std::setw(7) << "cases" << std::setw(8) << "passed"
        << std::setw(8) << "failed" << std::setw(8) << "skipped" << "  k8s  skip reasons\n";
    int total_cases = 0, total_passed = 0, total_failed = 0, total_skipped = 0;
    for (const auto& st : table) {
        out << std::left << std::setw(30) << st.file << std::right << std::setw(7) << st.cases << std::setw(8)
            << st.passed << std::setw(8) << st.failed << std::setw(8) << st.skipped << "  "
            << (kKubernetesFiles.count(st.file) ? "yes" : "   ");
        for (const auto& [reason, count] : st.skip_reasons) out << "  " << count << "x " << reason;
        out << "\n";
        total_cases += st.cases;
        total_passed += st.passed;
        total_failed += st.failed;
        total_skipped += st.skipped;
    }
    out << std::left << std::setw(30) << "total" << std::right << std::setw(7) << total_cases << std::setw(8)
        << total_passed << std::setw(8) << total_failed << std::setw(8) << total_skipped << "\n";
    const double rate = k8s_cases ? 100.0 * k8s_passed / k8s_cases : 100.0;
    out << "Kubernetes-enabled files: " << k8s_passed << "/" << k8s_cases << " passed (" << std::fixed
        << std::setprecision(1) << rate << "%)\n";
    if (!skips.empty()) {
        out << "\nSkipped cases:\n";
        for (const auto& s : skips) out << "  " << s << "\n";
    }
    if (!failures.empty()) {
        out << "\nFailed cases:\n";
        for (const auto& f : failures) out << "  " << f << "\n";
    }
    std::cout << out.str() << std::flush;

    INFO("pass rate over Kubernetes-enabled files: " << rate << "%");
    CHECK(rate >= 95.0);
}
