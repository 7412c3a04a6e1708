// SARIF 2.1.0 for GitHub code scanning (and other SARIF viewers): one run,
// rules deduplicated and sorted by id, one result per finding with a
// repo-relative artifact location under %SRCROOT%.
#include "backends/findings/common.hpp"

#include <queueforge/checks/rule_catalogue.hpp>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <unordered_map>

namespace queueforge {

namespace {

using Json = nlohmann::ordered_json;

// A result needs a ruleId for GitHub to track the alert across runs.
constexpr std::string_view kUnclassifiedRule = "unclassified";

std::string rule_id(const Diagnostic& d) { return d.rule.empty() ? std::string(kUnclassifiedRule) : d.rule; }

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

Json location(const Diagnostic& d, const Artifacts& artifacts, Columns& columns) {
    Json loc = Json::object();
    if (!d.file.empty()) {
        Json artifact{{"uri", uri_of(d.file)}, {"uriBaseId", "%SRCROOT%"}};
        if (const auto it = artifacts.index.find(d.file); it != artifacts.index.end()) artifact["index"] = it->second;
        // GitHub places an alert only with a startLine; a finding about the
        // whole file (unreadable, not YAML) goes on line 1.
        Json region{{"startLine", d.mark.known() ? d.mark.line : 1}};
        if (d.mark.known() && d.mark.col > 0) region["startColumn"] = columns.code_points(d);
        loc["physicalLocation"] = Json{{"artifactLocation", std::move(artifact)}, {"region", std::move(region)}};
    }
    if (!d.object.empty()) {
        loc["logicalLocations"] = Json::array({Json{
            {"name", d.object.name.empty() ? d.object.kind : d.object.name},
            {"fullyQualifiedName", d.object.display()},
            {"kind", "object"},
        }});
    }
    return loc;
}

}  // namespace

std::string format_sarif(const Diagnostics& diags, const ReportContext& ctx) {
    std::vector<std::string> rule_ids;
    for (const auto& d : diags.all()) rule_ids.push_back(rule_id(d));
    std::sort(rule_ids.begin(), rule_ids.end());
    rule_ids.erase(std::unique(rule_ids.begin(), rule_ids.end()), rule_ids.end());

    Json driver{{"name", ctx.tool_name}};
    if (!ctx.tool_version.empty()) driver["version"] = ctx.tool_version;
    if (!ctx.information_uri.empty()) driver["informationUri"] = ctx.information_uri;
    // Each rule with its catalogue entry (docs/rules.md), as code-scanning
    // viewers show it beside the alert.
    Diagnostics ignored;
    const rules::Catalogue catalogue = rules::load_catalogue(ignored);
    Json rules = Json::array();
    for (const auto& id : rule_ids) {
        Json rule{{"id", id}};
        if (const rules::RuleInfo* info = catalogue.find(id)) {
            rule["shortDescription"] = Json{{"text", info->summary}};
            rule["fullDescription"] = Json{{"text", info->description.empty() ? info->summary : info->description}};
            rule["helpUri"] = rules::rule_help_uri(id);
            rule["defaultConfiguration"] = Json{{"level", level(info->severity)}};
        }
        rules.push_back(std::move(rule));
    }
    driver["rules"] = std::move(rules);

    Artifacts files{findings::report_files(diags, ctx), {}};
    Json artifacts = Json::array();
    for (const auto& f : files.files) {
        files.index.emplace(f, files.index.size());
        artifacts.push_back(Json{{"location", {{"uri", uri_of(f)}, {"uriBaseId", "%SRCROOT%"}}}});
    }
    Columns columns(ctx.sources);

    Json results = Json::array();
    for (const auto& d : diags.all()) {
        const auto id = rule_id(d);
        Json result{
            {"ruleId", id},
            {"ruleIndex", std::lower_bound(rule_ids.begin(), rule_ids.end(), id) - rule_ids.begin()},
            {"level", level(d.severity)},
            {"message", {{"text", d.message}}},
        };
        Json loc = location(d, files, columns);
        result["locations"] = loc.empty() ? Json::array() : Json::array({std::move(loc)});
        if (!d.path.empty()) result["properties"] = Json{{"path", d.path}};
        if (!d.site.empty()) result["properties"]["site"] = d.site;
        results.push_back(std::move(result));
    }

    const Json log{
        {"version", "2.1.0"},
        {"$schema", "https://json.schemastore.org/sarif-2.1.0.json"},
        {"runs",
         Json::array({Json{
             {"tool", {{"driver", std::move(driver)}}},
             {"artifacts", std::move(artifacts)},
             {"columnKind", "unicodeCodePoints"},
             {"results", std::move(results)},
         }})},
    };
    return log.dump(2, ' ', false, Json::error_handler_t::replace) + "\n";
}

}  // namespace queueforge
