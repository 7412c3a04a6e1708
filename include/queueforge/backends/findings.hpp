#pragma once
// Findings → one output format. Each format lives in its own file under
// compiler/backends/findings/ and is listed once in report_formats.def: a new format is
// one new file and one line there.
#include <queueforge/base/diagnostics.hpp>

#include <iosfwd>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace queueforge {


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
    // only the objects that have findings. Only the formats that list objects
    // get it (ReportFormat::lists_objects); for 100,000 objects it is 16 MiB.
    std::vector<CheckedObject> objects;
    // The files the checked objects are in, each once.
    std::vector<std::string> object_files;
    // JUnit turns findings at or above this level into <failure>s (the same
    // threshold as the exit status, --fail-level); the others go to <system-out>.
    Severity fail_level = Severity::Error;
    bool summary = false;
    // The clusters a command covered when there were several (discover.hpp
    // labels, in order): text output ends with one summary line per site.
    std::vector<std::string> sites;
    bool color = false;                   // text only
};

// Where a report goes: appended to a string, or written to a stream in
// pieces, so that a large report is never whole in memory (100,000 objects'
// 33,000 findings are 34 MB of SARIF, and a string growing to that size
// holds its old and new buffers at once: 100 MB).
class ReportOut {
public:
    explicit ReportOut(std::string& whole) : buf_(&whole) {}
    explicit ReportOut(std::ostream& os) : buf_(&own_), os_(&os) {}
    ReportOut(const ReportOut&) = delete;
    ReportOut& operator=(const ReportOut&) = delete;

    // What the writer appends to; it is emptied at each piece written.
    std::string& text() { return *buf_; }
    // Nothing written yet.
    bool empty() const { return written_ == 0 && buf_->empty(); }
    // A point between findings: the text so far goes to the stream once it
    // is large enough.
    void piece() {
        if (os_ && buf_->size() >= kPiece) flush();
    }
    // Writes what is left (a stream's); the writer calls it at the end.
    void flush();

private:
    static constexpr std::size_t kPiece = 1 << 16;
    std::string own_;
    std::string* buf_;
    std::ostream* os_ = nullptr;
    std::size_t written_ = 0;
};

// One function per format (compiler/backends/findings/<format>.cpp), listed in
// report_formats.def, with format_<name>, the same as a string. Findings are
// written in the order given (call Diagnostics::sort first); the same
// findings and context always give the same bytes: no timestamps, no
// absolute paths, file names exactly as given.
std::string report_string(void (*write)(const Diagnostics&, const ReportContext&, ReportOut&), const Diagnostics& diags,
                          const ReportContext& ctx);
#define QF_REPORT_FORMAT(name, function, lists_objects, reads_sources, description) \
    void function(const Diagnostics& diags, const ReportContext& ctx, ReportOut& out); \
    inline std::string format_##name(const Diagnostics& diags, const ReportContext& ctx) { \
        return report_string(&function, diags, ctx); \
    }
#include <queueforge/backends/findings_formats.def>
#undef QF_REPORT_FORMAT

struct ReportFormat {
    std::string_view name;  // what -o takes: exact, lower-case
    void (*write)(const Diagnostics&, const ReportContext&, ReportOut&);
    std::string_view description;
    // It reads ReportContext::objects (findings_formats.def).
    bool lists_objects = false;
    // It reads the texts of ReportContext::sources (findings_formats.def).
    bool reads_sources = true;
};

// Every format, in the order of report_formats.def.
std::span<const ReportFormat> report_formats();
// The format `-o NAME` names, or nullptr: exact, lower-case names only
// (`-o JSON` failing loudly beats a CI job that uploads the wrong thing).
const ReportFormat* find_report_format(std::string_view name);
// "text, json, sarif, junit, github": for help texts and errors.
std::string report_format_names();

std::string format_report(const ReportFormat& f, const Diagnostics& diags, const ReportContext& ctx);
// The same, written to `os` in pieces.
void write_report(const ReportFormat& f, const Diagnostics& diags, const ReportContext& ctx, std::ostream& os);

}  // namespace queueforge
