// GitLab Code Quality: the JSON array a CI job publishes as
// `artifacts: reports: codequality`, which GitLab shows in the merge
// request's widget and diff (conventions.md 3.3). Each finding is
// {description, check_name, fingerprint, severity, location: {path, lines: {begin}}}.
//
// GitLab tracks a finding across pipelines by its fingerprint, so the
// fingerprint leaves the line out (a finding does not become new because
// lines above it moved) and counts identical findings (so two of them are
// two, not one).
#include "backends/findings/common.hpp"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <cstdio>
#include <map>

namespace queueforge {

namespace {

using Json = nlohmann::ordered_json;

// GitLab's scale: info, minor, major, critical, blocker.
const char* severity(Severity s) {
    switch (s) {
    case Severity::Error: return "major";
    case Severity::Warning: return "minor";
    case Severity::Note: return "info";
    }
    return "major";
}

// FNV-1a, 64 bits, as 16 hex digits: stable across runs and platforms.
std::string fingerprint(std::string_view text) {
    std::uint64_t h = 0xcbf29ce484222325ULL;
    for (unsigned char c : text) {
        h ^= c;
        h *= 0x100000001b3ULL;
    }
    char buf[17];
    std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(h));
    return buf;
}

}  // namespace

void write_gitlab(const Diagnostics& diags, const ReportContext&, ReportOut& report) {
    Json out = Json::array();
    std::map<std::string, int> seen;  // identical findings, counted
    for (const auto& d : diags.all()) {
        std::string description = findings::valid_utf8(d.message);
        if (auto context = findings::finding_context(d); !context.empty()) description += " (" + context + ")";
        const std::string path = d.file.empty() ? std::string(findings::kNoFile) : d.file.str();
        std::string key = d.rule + '\x1f' + path + '\x1f' + d.object.kind + '/' + d.object.namespace_ + '/' +
                          d.object.name + '\x1f' + d.path + '\x1f' + d.message;
        key += '\x1f' + std::to_string(seen[key]++);
        out.push_back(Json{
            {"description", description},
            {"check_name", d.rule.empty() ? std::string("queueforge") : d.rule.str()},
            {"fingerprint", fingerprint(key)},
            {"severity", severity(d.severity)},
            {"location", {{"path", path}, {"lines", {{"begin", d.mark.line > 0 ? d.mark.line : 1}}}}},
        });
    }
    report.text() += out.dump(2);
    report.text() += '\n';
}

}  // namespace queueforge
