#pragma once
// Findings → one output format. Each format lives in its own file under
// compiler/report/; a new format is one new file and one enum value.
#include <queueforge/diagnostics.hpp>

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace queueforge {

enum class ReportFormat { Text, Json, Sarif, Junit, Github };

std::optional<ReportFormat> parse_report_format(std::string_view name);  // "text", "json", ...

// An object that was checked, so that JUnit can list the ones that passed too.
struct CheckedObject {
    std::string file;
    ObjectRef object;
};

struct ReportContext {
    std::string tool_name = "queueforge";
    std::string tool_version;             // e.g. "0.1.0"
    // SARIF tool.driver.informationUri, the project's home page; "" leaves it out.
    // queueforge.io is the placeholder domain the labels and schema $id use too.
    std::string information_uri = "https://queueforge.io";
    std::vector<SourceText> sources;      // for carets in text output, SARIF columns
    std::vector<std::string> inputs;      // files that were checked (JUnit test suites, SARIF artifacts)
    std::size_t objects_checked = 0;
    // Objects checked per kind, for --summary ("ClusterQueue" -> 12).
    std::vector<std::pair<std::string, std::size_t>> per_kind;
    // Every object checked, in input order. Optional: without it JUnit lists
    // only the objects that have findings.
    std::vector<CheckedObject> objects;
    // JUnit turns findings at or above this level into <failure>s (the same
    // threshold as the exit status, --fail-level); the others go to <system-out>.
    Severity fail_level = Severity::Error;
    bool summary = false;
    // The clusters a command covered when there were several (discover.hpp
    // labels, in order): text output ends with one summary line per site.
    std::vector<std::string> sites;
    bool color = false;                   // text only
};

// Findings are written in the order given (call Diagnostics::sort first); the
// same findings and context always give the same bytes: no timestamps, no
// absolute paths, file names exactly as given.
std::string format_report(ReportFormat f, const Diagnostics& diags, const ReportContext& ctx);

// One function per format (compiler/report/<format>.cpp).
std::string format_text(const Diagnostics& diags, const ReportContext& ctx);
std::string format_json(const Diagnostics& diags, const ReportContext& ctx);
std::string format_sarif(const Diagnostics& diags, const ReportContext& ctx);
std::string format_junit(const Diagnostics& diags, const ReportContext& ctx);
std::string format_github(const Diagnostics& diags, const ReportContext& ctx);

}  // namespace queueforge
