#pragma once
// Shared pieces of the command-line front end. The commands themselves are
// thin: they parse flags, call the library and turn its results into
// output, diagnostics on stderr and an exit code.
#include <queueforge/diagnostics.hpp>

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
Command add_cmp_parameters(CLI::App& app);
Command add_version(CLI::App& app);

}  // namespace queueforge::cli
