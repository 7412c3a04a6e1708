// SARIF 2.1.0 for GitHub code scanning (and other SARIF viewers): one run,
// rules deduplicated and sorted by id, one result per finding with a
// repo-relative artifact location under %SRCROOT%.
#include "backends/findings/common.hpp"

#include <queueforge/checks/rule_catalogue.hpp>

#include "backends/findings/json_writer.hpp"

#include <algorithm>
#include <unordered_map>

namespace queueforge {

namespace {

// A result needs a ruleId for GitHub to track the alert across runs.
constexpr std::string_view kUnclassifiedRule = "unclassified";

std::string rule_id(const Diagnostic& d) { return d.rule.empty() ? std::string(kUnclassifiedRule) : d.rule.str(); }

const char* level(Severity s) {
    switch (s) {
    case Severity::Error: return "error";
    case Severity::Warning: return "warning";
    case Severity::Note: return "note";
    }
    return "error";
}

// artifactLocation.uri must be a URI reference: percent-encode everything but
// RFC 3986 unreserved characters and '/'. A ':' left in the first segment
// would read as a scheme ("c:x.yaml").
std::string uri_of(const std::string& path) {
    static constexpr char kHex[] = "0123456789ABCDEF";
    std::string out;
    for (const char ch : path) {
        const auto c = static_cast<unsigned char>(ch);
        const bool unreserved = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
                                c == '-' || c == '.' || c == '_' || c == '~' || c == '/';
        if (unreserved) {
            out += ch;
        } else {
            out += '%';
            out += kHex[c >> 4];
            out += kHex[c & 0xF];
        }
    }
    return out;
}

// Marks count bytes; SARIF has no byte unit, so the run declares
// unicodeCodePoints and columns are converted where the line is known (for
// ASCII lines the two agree anyway). Line starts are indexed once per file so
// that many findings in one large file stay linear.
class Columns {
public:
    explicit Columns(const std::vector<SourceText>& sources) {
        for (const auto& s : sources) sources_.try_emplace(s.path, &s);
    }

    int code_points(const Diagnostic& d) {
        const auto src = sources_.find(d.file);
        if (src == sources_.end() || d.mark.col <= 1) return d.mark.col;
        const std::string& text = src->second->text;
        auto [starts, added] = line_starts_.try_emplace(d.file);
        if (added) {
            starts->second.push_back(0);
            for (std::size_t i = 0; i < text.size(); ++i)
                if (text[i] == '\n') starts->second.push_back(i + 1);
        }
        const auto line = static_cast<std::size_t>(d.mark.line);
        if (line > starts->second.size()) return d.mark.col;
        const std::size_t pos = starts->second[line - 1];
        const auto bytes = static_cast<std::size_t>(d.mark.col - 1);
        if (pos + bytes > text.size()) return d.mark.col;
        int col = 1;
        for (std::size_t i = pos; i < pos + bytes; ++i)
            if ((static_cast<unsigned char>(text[i]) & 0xC0u) != 0x80u) ++col;
        return col;
    }

private:
    std::unordered_map<std::string, const SourceText*> sources_;
    std::unordered_map<std::string, std::vector<std::size_t>> line_starts_;
};

struct Artifacts {
    std::vector<std::string> files;
    std::unordered_map<std::string, std::size_t> index;
};

bool has_location(const Diagnostic& d) { return !d.file.empty() || !d.object.empty(); }

void location(findings::JsonWriter& w, const Diagnostic& d, const Artifacts& artifacts, Columns& columns) {
    w.begin_object();
    if (!d.file.empty()) {
        w.key("physicalLocation");
        w.begin_object();
        w.key("artifactLocation");
        w.begin_object();
        w.member("uri", uri_of(d.file));
        w.member("uriBaseId", "%SRCROOT%");
        if (const auto it = artifacts.index.find(d.file); it != artifacts.index.end()) w.member("index", it->second);
        w.end_object();
        // GitHub places an alert only with a startLine; a finding about the
        // whole file (unreadable, not YAML) goes on line 1.
        w.key("region");
        w.begin_object();
        w.member("startLine", d.mark.known() ? d.mark.line : 1);
        if (d.mark.known() && d.mark.col > 0) w.member("startColumn", columns.code_points(d));
        w.end_object();
        w.end_object();
    }
    if (!d.object.empty()) {
        w.key("logicalLocations");
        w.begin_array();
        w.begin_object();
        w.member("name", d.object.name.empty() ? d.object.kind : d.object.name);
        w.member("fullyQualifiedName", d.object.display());
        w.member("kind", "object");
        w.end_object();
        w.end_array();
    }
    w.end_object();
}

}  // namespace

void write_sarif(const Diagnostics& diags, const ReportContext& ctx, ReportOut& report) {
    std::vector<std::string> rule_ids;
    for (const auto& d : diags.all()) rule_ids.push_back(rule_id(d));
    std::sort(rule_ids.begin(), rule_ids.end());
    rule_ids.erase(std::unique(rule_ids.begin(), rule_ids.end()), rule_ids.end());

    std::string& out = report.text();
    findings::JsonWriter w(out);
    w.begin_object();
    w.member("version", "2.1.0");
    w.member("$schema", "https://json.schemastore.org/sarif-2.1.0.json");
    w.key("runs");
    w.begin_array();
    w.begin_object();

    w.key("tool");
    w.begin_object();
    w.key("driver");
    w.begin_object();
    w.member("name", ctx.tool_name);
    if (!ctx.tool_version.empty()) w.member("version", ctx.tool_version);
    if (!ctx.information_uri.empty()) w.member("informationUri", ctx.information_uri);
    // Each rule with its catalogue entry (docs/rules.md), as code-scanning
    // viewers show it beside the alert.
    Diagnostics ignored;
    const rules::Catalogue catalogue = rules::load_catalogue(ignored);
    w.key("rules");
    w.begin_array();
    for (const auto& id : rule_ids) {
        w.begin_object();
        w.member("id", id);
        if (const rules::RuleInfo* info = catalogue.find(id)) {
            w.key("shortDescription");
            w.begin_object();
            w.member("text", info->summary);
            w.end_object();
            w.key("fullDescription");
            w.begin_object();
            w.member("text", info->description.empty() ? info->summary : info->description);
            w.end_object();
            w.member("helpUri", rules::rule_help_uri(id));
            w.key("defaultConfiguration");
            w.begin_object();
            w.member("level", level(info->severity));
            w.end_object();
        }
        w.end_object();
    }
    w.end_array();
    w.end_object();
    w.end_object();

    Artifacts files{findings::report_files(diags, ctx), {}};
    w.key("artifacts");
    w.begin_array();
    for (const auto& f : files.files) {
        files.index.emplace(f, files.index.size());
        w.begin_object();
        w.key("location");
        w.begin_object();
        w.member("uri", uri_of(f));
        w.member("uriBaseId", "%SRCROOT%");
        w.end_object();
        w.end_object();
    }
    w.end_array();
    w.member("columnKind", "unicodeCodePoints");

    Columns columns(ctx.sources);
    w.key("results");
    w.begin_array();
    for (const auto& d : diags.all()) {
        const auto id = rule_id(d);
        w.begin_object();
        w.member("ruleId", id);
        w.member("ruleIndex", static_cast<std::size_t>(std::lower_bound(rule_ids.begin(), rule_ids.end(), id) - rule_ids.begin()));
        w.member("level", level(d.severity));
        w.key("message");
        w.begin_object();
        w.member("text", d.message);
        w.end_object();
        w.key("locations");
        w.begin_array();
        if (has_location(d)) location(w, d, files, columns);
        w.end_array();
        if (!d.path.empty() || !d.site.empty()) {
            w.key("properties");
            w.begin_object();
            if (!d.path.empty()) w.member("path", d.path);
            if (!d.site.empty()) w.member("site", d.site);
            w.end_object();
        }
        w.end_object();
        report.piece();
    }
    w.end_array();

    w.end_object();
    w.end_array();
    w.end_object();
    out += '\n';
}

}  // namespace queueforge
