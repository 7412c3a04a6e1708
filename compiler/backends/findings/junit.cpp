// JUnit XML for CI test tabs (GitLab, Jenkins, Azure DevOps): one <testsuite>
// per file, one <testcase> per object. Findings at or above the fail level
// make the test case fail; the rest are kept in <system-out>.
//
// One <failure> per test case at most: several consumers keep only the first,
// so the failure lists every failing finding in its body instead.
#include "backends/findings/common.hpp"

#include <algorithm>
#include <unordered_map>

namespace queueforge {

namespace {

enum class Where { Text, Attribute };

// XML 1.0 cannot carry most C0 controls at all, not even as &#N;, so they
// are shown as \xNN. Tab, LF and CR are legal, but parsers turn them into
// spaces in attribute values and CR LF into LF in text; character references
// survive both.
std::string xml_escape(std::string_view raw, Where where = Where::Attribute) {
    const std::string s = findings::valid_utf8(raw);
    std::string out;
    out.reserve(s.size());
    for (std::size_t i = 0; i < s.size(); ++i) {
        const char c = s[i];
        switch (c) {
        case '&': out += "&amp;"; break;
        case '<': out += "&lt;"; break;
        case '>': out += "&gt;"; break;
        case '"': out += "&quot;"; break;
        case '\'': out += "&apos;"; break;
        case '\t': out += where == Where::Text ? "\t" : "&#9;"; break;
        case '\n': out += where == Where::Text ? "\n" : "&#10;"; break;
        case '\r': out += "&#13;"; break;
        default:
            if (static_cast<unsigned char>(c) < 0x20) {
                static constexpr char kHex[] = "0123456789abcdef";
                out += "\\x";
                out += kHex[(c >> 4) & 0xF];
                out += kHex[c & 0xF];
            } else if (s.compare(i, 3, "\xEF\xBF\xBE") == 0 || s.compare(i, 3, "\xEF\xBF\xBF") == 0) {
                out += "\xEF\xBF\xBD";  // U+FFFE and U+FFFF are not XML characters either
                i += 2;
            } else {
                out += c;
            }
        }
    }
    return out;
}

std::string attr(std::string_view name, std::string_view value) {
    // Appended, here and below, not `" " + std::string(name) + ...`: g++ 12
    // at -O3 warns (-Wrestrict) about that form's insert at the front, wrongly.
    std::string out = " ";
    out.append(name).append("=\"").append(xml_escape(value)).append("\"");
    return out;
}

std::string counts(std::size_t tests, std::size_t failures) {
    return attr("tests", std::to_string(tests)) + attr("failures", std::to_string(failures)) + attr("errors", "0") +
           attr("skipped", "0");
}

// Severity is ordered Error < Warning < Note, most severe first.
bool fails(const Diagnostic& d, Severity fail_level) { return d.severity <= fail_level; }

std::string describe(const Diagnostic& d) {
    std::string s = findings::headline(d);
    if (auto context = findings::finding_context(d); !context.empty()) s += "\n  " + context;
    return s;
}

struct TestCase {
    std::string name;
    std::vector<const Diagnostic*> findings;
};

std::string file_label(const std::string& file) { return file.empty() ? std::string(findings::kNoFile) : file; }

// What one file holds, gathered in one pass so large inputs stay linear.
struct FileFindings {
    std::vector<const Diagnostic*> findings;
    std::vector<const ObjectRef*> objects;
};

// Test cases of one file: the file itself when a finding is about no object,
// then the objects checked, then objects only findings name; a file with none
// of these still gets one (passing) test case, so that it shows as checked.
std::vector<TestCase> test_cases(const std::string& file, const FileFindings& in) {
    std::vector<TestCase> cases;
    std::unordered_map<std::string, std::size_t> index;
    auto case_for = [&](const std::string& name) -> TestCase& {
        auto [it, added] = index.try_emplace(name, cases.size());
        if (added) cases.push_back(TestCase{name, {}});
        return cases[it->second];
    };
    const std::string label = file_label(file);
    for (const auto* d : in.findings)
        if (d->object.empty()) case_for(label).findings.push_back(d);
    for (const auto* o : in.objects) case_for(o->display());
    for (const auto* d : in.findings)
        if (!d->object.empty()) case_for(d->object.display()).findings.push_back(d);
    if (cases.empty()) case_for(label);
    return cases;
}

std::string test_case_xml(const std::string& classname, const TestCase& tc, Severity fail_level) {
    std::vector<const Diagnostic*> failing, other;
    for (const auto* d : tc.findings) (fails(*d, fail_level) ? failing : other).push_back(d);

    std::string out = "    <testcase" + attr("classname", classname) + attr("name", tc.name);
    if (failing.empty() && other.empty()) return out + "/>\n";
    out += ">\n";
    if (!failing.empty()) {
        std::string message = failing.front()->message;
        if (failing.size() > 1) message += " (and " + std::to_string(failing.size() - 1) + " more)";
        std::string body;
        for (const auto* d : failing) body.append(body.empty() ? "" : "\n").append(describe(*d));
        out += "      <failure";
        if (!failing.front()->rule.empty()) out += attr("type", failing.front()->rule);
        out += attr("message", message) + ">" + xml_escape(body, Where::Text) + "</failure>\n";
    }
    if (!other.empty()) {
        std::string body;
        for (const auto* d : other) body.append(body.empty() ? "" : "\n").append(describe(*d));
        out += "      <system-out>" + xml_escape(body, Where::Text) + "</system-out>\n";
    }
    return out + "    </testcase>\n";
}

}  // namespace

void write_junit(const Diagnostics& diags, const ReportContext& ctx, ReportOut& report) {
    auto files = findings::report_files(diags, ctx);
    // Findings about no file at all (invocation-level) still need a home.
    const bool fileless =
        std::any_of(diags.all().begin(), diags.all().end(), [](const Diagnostic& d) { return d.file.empty(); });
    if (fileless) files.push_back("");

    std::unordered_map<std::string, FileFindings> by_file;
    for (const auto& d : diags.all()) by_file[d.file].findings.push_back(&d);
    for (const auto& o : ctx.objects) by_file[o.file].objects.push_back(&o.object);

    std::string suites;
    std::size_t total_tests = 0, total_failures = 0;
    for (const auto& file : files) {
        const auto cases = test_cases(file, by_file[file]);
        std::size_t failures = 0;
        std::string body;
        for (const auto& tc : cases) {
            const auto failing = [&](const Diagnostic* d) { return fails(*d, ctx.fail_level); };
            if (std::any_of(tc.findings.begin(), tc.findings.end(), failing)) ++failures;
            body += test_case_xml(file_label(file), tc, ctx.fail_level);
        }
        // With several clusters the suite names its site: "clusters/prod: clusters/prod/queueforge-site.yaml".
        std::string suite = file_label(file);
        for (const auto* d : by_file[file].findings)
            if (!d->site.empty()) {
                suite = d->site + ": " + suite;
                break;
            }
        suites += "  <testsuite" + attr("name", suite) + counts(cases.size(), failures) + ">\n" + body +
                  "  </testsuite>\n";
        total_tests += cases.size();
        total_failures += failures;
    }
    std::string& out = report.text();
    out += "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
    out += "<testsuites" + attr("name", ctx.tool_name) + counts(total_tests, total_failures);
    if (suites.empty()) {
        out += "/>\n";
        return;
    }
    out += ">\n";
    out += suites;
    out += "</testsuites>\n";
}

}  // namespace queueforge
