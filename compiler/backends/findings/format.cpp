#include <queueforge/backends/findings.hpp>

#include <array>

namespace queueforge {

namespace {

constexpr ReportFormat kFormats[] = {
#define QF_REPORT_FORMAT(name, function, lists_objects, reads_sources, description) \
    {#name, &function, description, lists_objects, reads_sources},
#include <queueforge/backends/findings_formats.def>
#undef QF_REPORT_FORMAT
};

}  // namespace

std::span<const ReportFormat> report_formats() { return kFormats; }

const ReportFormat* find_report_format(std::string_view name) {
    for (const auto& f : kFormats)
        if (f.name == name) return &f;
    return nullptr;
}

std::string report_format_names() {
    std::string out;
    for (const auto& f : kFormats) out += (out.empty() ? "" : ", ") + std::string(f.name);
    return out;
}

std::string format_report(const ReportFormat& f, const Diagnostics& diags, const ReportContext& ctx) {
    return f.render(diags, ctx);
}

}  // namespace queueforge
