#include "cli.hpp"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <iterator>
#include <map>
#include <unistd.h>

namespace queueforge::cli {

std::string site_path(const std::string& arg) {
    std::error_code ec;
    if (std::filesystem::is_directory(arg, ec)) return (std::filesystem::path(arg) / kSiteFileName).string();
    return arg;
}

Severity parse_fail_level(const std::string& s) {
    return s == "note" ? Severity::Note : s == "warning" ? Severity::Warning : Severity::Error;
}

void add_gate_flags(CLI::App& sub, GateFlags& g, bool fail_level) {
    sub.add_option("--config", g.options.config_path,
                   "Rule configuration file (default: the nearest .queueforge.yaml from the working folder up to the "
                   "repository root)");
    sub.add_flag("--no-config", g.options.no_config, "Do not read .queueforge.yaml");
    sub.add_option("--disable", g.options.disable, "Turn this rule or policy off (repeatable; `queueforge rules` lists them)")
        ->allow_extra_args(false);
    sub.add_option("--enable", g.options.enable, "Turn this rule back on at its default severity (repeatable)")
        ->allow_extra_args(false);
    sub.add_flag("--strict", g.strict, "Treat warnings as errors");
    if (fail_level)
        sub.add_option("--fail-level", g.fail_level, "Lowest severity that fails the run")
            ->check(CLI::IsMember({"error", "warning", "note"}));
}

int apply_gate(Diagnostics& diags, std::vector<SourceText>& sources, const GateFlags& g) {
    Diagnostics problems;
    bool io_error = false;
    auto gate = gate::load_gate(g.options, problems, &sources, &io_error);
    if (!gate) {
        problems.sort();
        std::cerr << render_text(problems, sources);
        return io_error ? kUsage : kInvalid;
    }
    diags.append(problems);
    gate->extra_ids = g.extra_ids;
    gate::apply(*gate, sources, diags);
    if (g.strict) diags.promote_warnings();
    diags.sort();
    return kOk;
}

int exit_code(const Diagnostics& diags, Severity fail_level) {
    for (const auto& d : diags.all())
        if ((d.rule == "yaml.read" || d.rule == "io") && d.severity == Severity::Error) return kUsage;
    for (const auto& d : diags.all())
        if (static_cast<int>(d.severity) <= static_cast<int>(fail_level)) return kInvalid;
    return kOk;
}

int report(Diagnostics& diags, std::vector<SourceText> sources) { return report(diags, std::move(sources), GateFlags{}); }

int report(Diagnostics& diags, std::vector<SourceText> sources, const GateFlags& g) {
    if (int rc = apply_gate(diags, sources, g); rc != kOk) return rc;
    // The same lines, with GCC's colours when a person is reading stderr.
    if (isatty(STDERR_FILENO) && !std::getenv("NO_COLOR")) {
        ReportContext ctx;
        ctx.sources = sources;
        ctx.color = true;
        std::cerr << format_text(diags, ctx);
    } else {
        std::cerr << render_text(diags, sources);
    }
    return exit_code(diags, parse_fail_level(g.fail_level));
}

int finish_report(const ReportFormat& format, Diagnostics& diags, ReportContext& ctx, const GateFlags& g,
                  ValidationSummary summary) {
    if (int rc = apply_gate(diags, ctx.sources, g); rc != kOk) return rc;
    ctx.tool_version = QF_VERSION;
    ctx.objects_checked = summary.objects;
    ctx.per_kind = std::move(summary.per_kind);
    ctx.objects = std::move(summary.checked);
    ctx.object_files = std::move(summary.files);
    ctx.color = format.name == "text" && isatty(STDOUT_FILENO) && !std::getenv("NO_COLOR");
    ctx.fail_level = parse_fail_level(g.fail_level);
    write_report(format, diags, ctx, std::cout);
    std::cout.flush();
    return exit_code(diags, ctx.fail_level);
}

int exit_without_teardown(int code) {
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
    return code;
#else
    std::cout.flush();
    std::cerr.flush();
    std::fflush(nullptr);
    std::_Exit(code);
#endif
}

void merge_summary(ValidationSummary& into, ValidationSummary from) {
    into.objects += from.objects;
    std::map<std::string, std::size_t> kinds(into.per_kind.begin(), into.per_kind.end());
    for (const auto& [kind, n] : from.per_kind) kinds[kind] += n;
    into.per_kind.assign(kinds.begin(), kinds.end());
    if (into.checked.empty()) into.checked = std::move(from.checked);
    else std::move(from.checked.begin(), from.checked.end(), std::back_inserter(into.checked));
    // Clusters' files may repeat: the report lists each once (report_files).
    std::move(from.files.begin(), from.files.end(), std::back_inserter(into.files));
}

void add_policy_flags(CLI::App& sub, policy::Options& opts) {
    sub.add_option("--policy", opts.paths,
                   "Also apply the policies in this file or folder: queueforge Policies, ValidatingAdmissionPolicies "
                   "with their bindings and params (repeatable)")
        ->allow_extra_args(false);
    sub.add_flag("--no-builtin-policies", opts.no_builtin, "Do not apply queueforge's built-in policies");
}

}  // namespace queueforge::cli
