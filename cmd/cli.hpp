#pragma once
// Shared pieces of the command-line front end. The commands themselves are
// thin: they parse flags, call the library and turn its results into
// output, diagnostics on stderr and an exit code.
#include <queueforge/diagnostics.hpp>
#include <queueforge/policy.hpp>
#include <queueforge/report.hpp>
#include <queueforge/validate.hpp>

#include <CLI/CLI.hpp>

#include <string>
#include <vector>

namespace queueforge::cli {

enum Exit { kOk = 0, kInvalid = 1, kUsage = 2 };

inline constexpr const char* kSiteFileName = "queueforge-site.yaml";

// A folder argument means the site file inside it.
std::string site_path(const std::string& arg);

// Prints diagnostics to stderr; returns kInvalid if any error remains.
int report(Diagnostics& diags, const std::vector<SourceText>& sources, bool strict);

// Prints a findings report in `format` to stdout and turns it into the exit
// code of validate/check: 2 on an I/O error, 1 on a finding at or above
// `fail_level` ("error" | "warning" | "note"), else 0. Fills the context's
// tool version, colour and fail level.
int finish_report(ReportFormat format, Diagnostics& diags, ReportContext& ctx, const std::string& fail_level,
                  const ValidationSummary& summary);

// --policy, --disable, --no-builtin-policies (validate and check).
void add_policy_flags(CLI::App& sub, policy::Options& opts);

// Each subcommand registers itself on the app and sets `run` to its body.
struct Command {
    CLI::App* app = nullptr;
    std::function<int()> run;
};

Command add_build(CLI::App& app);
Command add_init(CLI::App& app);
Command add_schema(CLI::App& app);
Command add_validate(CLI::App& app);
Command add_generate(CLI::App& app);
Command add_simulate(CLI::App& app);
Command add_check(CLI::App& app);
Command add_diff(CLI::App& app);
Command add_cmp_parameters(CLI::App& app);
Command add_version(CLI::App& app);
Command add_import(CLI::App& app);
Command add_explain(CLI::App& app);
Command add_capacity(CLI::App& app);
Command add_report(CLI::App& app);
// "queueforge 0.1.0 (commit abc1234)\ntargets: ..." for version and --version.
std::string version_text();

}  // namespace queueforge::cli
