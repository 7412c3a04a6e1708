#include "cli.hpp"

#include <filesystem>
#include <iostream>
#include <unistd.h>

namespace queueforge::cli {

std::string site_path(const std::string& arg) {
    std::error_code ec;
    if (std::filesystem::is_directory(arg, ec)) return (std::filesystem::path(arg) / kSiteFileName).string();
    return arg;
}

int report(Diagnostics& diags, const std::vector<SourceText>& sources, bool strict) {
    if (strict) diags.promote_warnings();
    diags.sort();
    // The same lines, with GCC's colours when a person is reading stderr.
    if (isatty(STDERR_FILENO) && !std::getenv("NO_COLOR")) {
        ReportContext ctx;
        ctx.sources = sources;
        ctx.color = true;
        std::cerr << format_text(diags, ctx);
    } else {
        std::cerr << render_text(diags, sources);
    }
    return diags.has_errors() ? kInvalid : kOk;
}

int finish_report(ReportFormat format, Diagnostics& diags, ReportContext& ctx, const std::string& fail_level,
                  const ValidationSummary& summary) {
    ctx.tool_version = QF_VERSION;
    ctx.objects_checked = summary.objects;
    ctx.per_kind = summary.per_kind;
    ctx.objects = summary.checked;
    ctx.color = format == ReportFormat::Text && isatty(STDOUT_FILENO) && !std::getenv("NO_COLOR");
    ctx.fail_level = fail_level == "note" ? Severity::Note : fail_level == "warning" ? Severity::Warning : Severity::Error;
    std::cout << format_report(format, diags, ctx);
    std::cout.flush();
    for (const auto& d : diags.all())
        if (d.rule == "yaml.read" || d.rule == "io") return kUsage;
    for (const auto& d : diags.all())
        if (static_cast<int>(d.severity) <= static_cast<int>(ctx.fail_level)) return kInvalid;
    return kOk;
}

void add_policy_flags(CLI::App& sub, policy::Options& opts) {
    sub.add_option("--policy", opts.paths,
                   "Also apply the policies in this file or folder: queueforge Policies, ValidatingAdmissionPolicies "
                   "with their bindings and params (repeatable)")
        ->allow_extra_args(false);
    sub.add_option("--disable", opts.disabled, "Do not apply the policy with this id (repeatable)")->allow_extra_args(false);
    sub.add_flag("--no-builtin-policies", opts.no_builtin, "Do not apply queueforge's built-in policies");
}

}  // namespace queueforge::cli
