#pragma once
// Shared pieces of the command-line front end. The commands themselves are
// thin: they parse flags, call the library and turn its results into
// output, diagnostics on stderr and an exit code.
#include <queueforge/base/diagnostics.hpp>
#include <queueforge/checks/gate.hpp>
#include <queueforge/checks/policy.hpp>
#include <queueforge/backends/findings.hpp>
#include <queueforge/checks/validate.hpp>

#include <CLI/CLI.hpp>

#include <string>
#include <vector>

namespace queueforge::cli {

// The exit codes of every command (README, "Exit codes").
enum Exit { kOk = 0, kInvalid = 1, kUsage = 2, kInternal = 70 };

inline constexpr const char* kSiteFileName = "queueforge-site.yaml";

// A folder argument means the site file inside it.
std::string site_path(const std::string& arg);

// How a command turns findings into a verdict: rule configuration
// (.queueforge.yaml, --config, --disable, --enable), --strict and the fail
// level. Every command that reports findings has these flags.
struct GateFlags {
    gate::Options options;
    bool strict = false;
    std::string fail_level = "error";
    // Rule ids known beyond the catalogue (policies loaded from --policy).
    std::vector<std::string> extra_ids;
};

// --config, --no-config, --disable, --enable, --strict; with `fail_level`
// also --fail-level.
void add_gate_flags(CLI::App& sub, GateFlags& g, bool fail_level = false);

// Applies the gate and --strict to `diags` and sorts them. Returns kOk, or
// the exit code when the configuration itself could not be used (its
// problems are then printed).
int apply_gate(Diagnostics& diags, std::vector<SourceText>& sources, const GateFlags& g);

// The one exit-code rule: 2 when a command-line path could not be read
// (rule "yaml.read" or "io"), 1 when a finding reaches the fail level, else 0.
int exit_code(const Diagnostics& diags, Severity fail_level = Severity::Error);

// Applies the gate, prints the findings to stderr and returns the exit code.
int report(Diagnostics& diags, std::vector<SourceText> sources, const GateFlags& g);
// For commands without rule flags (the gate still reads .queueforge.yaml).
int report(Diagnostics& diags, std::vector<SourceText> sources);

// Applies the gate, prints a findings report in `format` to stdout and returns
// the exit code (validate, check). Fills the context's tool version, colour
// and fail level.
int finish_report(const ReportFormat& format, Diagnostics& diags, ReportContext& ctx, const GateFlags& g,
                  ValidationSummary summary);

// Ends the process with `code` once its output is written, without
// destroying what is left: for 100,000 objects, tens of MiB in small pieces
// (the findings, the source texts, the objects checked) that the system
// reclaims at once. Builds with sanitizers return `code` instead, so that
// LeakSanitizer still sees every allocation freed. Only for commands that
// leave nothing to clean up (no staging folder, no temporary file).
int exit_without_teardown(int code);

// --policy, --no-builtin-policies (validate and check; --disable is a gate flag
// that also switches policies off).
void add_policy_flags(CLI::App& sub, policy::Options& opts);

// Adds one cluster's validation summary to the run's (commands that check
// several sites report them together).
void merge_summary(ValidationSummary& into, ValidationSummary from);

// Each subcommand registers itself on the app and sets `run` to its body.
struct Command {
    CLI::App* app = nullptr;
    std::function<int()> run;
    // Runs with transparent huge pages for the heap (allocator.cpp): for a
    // command that builds hundreds of MiB of trees from its input.
    bool huge_pages = false;
};

// Huge pages for the memory the process touches from now on (allocator.cpp).
void use_huge_pages(bool on);

// One per command (commands.def).
#define QF_COMMAND(name) Command add_##name(CLI::App& app);
#include "commands.def"
#undef QF_COMMAND
// "queueforge 0.1.0 (commit abc1234)\ntargets: ..." for version and --version.
std::string version_text();

}  // namespace queueforge::cli
