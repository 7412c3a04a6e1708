#include <queueforge/backends/findings.hpp>

#include <array>
#include <ostream>

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

void ReportOut::flush() {
    if (!os_) return;
    os_->write(buf_->data(), static_cast<std::streamsize>(buf_->size()));
    written_ += buf_->size();
    buf_->clear();
}

std::string report_string(void (*write)(const Diagnostics&, const ReportContext&, ReportOut&), const Diagnostics& diags,
                          const ReportContext& ctx) {
    std::string whole;
    ReportOut out(whole);
    write(diags, ctx, out);
    return whole;
}

std::string format_report(const ReportFormat& f, const Diagnostics& diags, const ReportContext& ctx) {
    return report_string(f.write, diags, ctx);
}

void write_report(const ReportFormat& f, const Diagnostics& diags, const ReportContext& ctx, std::ostream& os) {
    ReportOut out(os);
    f.write(diags, ctx, out);
    out.flush();
}

}  // namespace queueforge
